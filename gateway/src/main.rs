//! The development edge: one origin at http://localhost:8080, like nginx in production
//! (docs/deploy.md). `/api/*` with GET or HEAD goes to query-api, any other method to
//! command-api, paths unchanged; everything else is the built web app, with `index.html`
//! for client-side routes. One GET writes and goes to command-api:
//! `/api/subscription-user/{id}/updateData` (ADR 0008). `/cep/{cep}/json/` is the
//! postal-code lookup, forwarded to ViaCEP (`NAVALHA_CEP_URL`) so the browser only ever
//! talks to its own origin.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderName, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use clap::Parser;
use futures_util::TryStreamExt;
use navalha_platform::{db, telemetry};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

#[derive(Parser)]
#[command(about = "Navalha's single origin for development")]
struct Cli {
    /// Address to listen on.
    #[arg(long, env = "NAVALHA_GATEWAY_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// command-api's base address.
    #[arg(long, env = "NAVALHA_COMMAND_URL", default_value = "http://127.0.0.1:8081")]
    command_url: String,
    /// query-api's base address.
    #[arg(long, env = "NAVALHA_QUERY_URL", default_value = "http://127.0.0.1:8082")]
    query_url: String,
    /// The postal-code service (ViaCEP's contract: GET {base}/{cep}/json/).
    #[arg(long, env = "NAVALHA_CEP_URL", default_value = "https://viacep.com.br/ws")]
    cep_url: String,
    /// The built web app.
    #[arg(long, env = "NAVALHA_WEB_DIST", default_value = "web/dist")]
    web_dist: PathBuf,
}

#[derive(Clone)]
struct Upstreams {
    client: reqwest::Client,
    command_url: String,
    query_url: String,
    cep_url: String,
    web_dist: PathBuf,
}

/// Headers that describe one connection, not the message, and must not be forwarded.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
];

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init("gateway");
    let cli = Cli::parse();
    let upstreams = Upstreams {
        client: reqwest::Client::builder().build()?,
        command_url: cli.command_url.trim_end_matches('/').to_owned(),
        query_url: cli.query_url.trim_end_matches('/').to_owned(),
        cep_url: cli.cep_url.trim_end_matches('/').to_owned(),
        web_dist: cli.web_dist,
    };
    let app =
        Router::new().route("/gateway/health", get(|| async { "ok" })).fallback(route).with_state(upstreams);
    let listener =
        tokio::net::TcpListener::bind(cli.listen).await.with_context(|| format!("binding {}", cli.listen))?;
    tracing::info!(listen = %cli.listen, "gateway serving");
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(db::shutdown_signal())
        .await?;
    Ok(())
}

/// The one GET that writes (it reads the payment provider and appends what is new), served
/// by command-api: `/api/subscription-user/{id}/updateData` (ADR 0008).
fn writes_on_get(path: &str) -> bool {
    path.strip_prefix("/api/subscription-user/")
        .and_then(|rest| rest.strip_suffix("/updateData"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

async fn route(
    State(upstreams): State<Upstreams>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
) -> Response {
    if let Some(rest) = request.uri().path().strip_prefix("/cep/") {
        return postal_code(&upstreams, rest).await;
    }
    if request.uri().path().starts_with("/api/") {
        let reads =
            matches!(*request.method(), Method::GET | Method::HEAD) && !writes_on_get(request.uri().path());
        let upstream = if reads { &upstreams.query_url } else { &upstreams.command_url };
        return match proxy(&upstreams.client, upstream, peer, request).await {
            Ok(response) => response,
            Err(error) => {
                tracing::error!(%error, "upstream unreachable");
                (
                    StatusCode::BAD_GATEWAY,
                    axum::Json(serde_json_message(
                        "Serviço indisponível no momento. Tente novamente em instantes.",
                    )),
                )
                    .into_response()
            }
        };
    }
    let index = upstreams.web_dist.join("index.html");
    let files = ServeDir::new(&upstreams.web_dist).fallback(ServeFile::new(index));
    match files.oneshot(request).await {
        Ok(response) => response.into_response(),
        Err(error) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
    }
}

/// Longest wait for the postal-code service; the form stays usable without it.
const CEP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(8);

/// `{cep}/json/` with a short, plain CEP: the only lookups forwarded, so this edge is not
/// an open proxy. A malformed CEP still reaches the service, which answers 400 as ViaCEP does.
fn postal_code_path(rest: &str) -> Option<&str> {
    let cep = rest.strip_suffix("/json/").or_else(|| rest.strip_suffix("/json"))?;
    (!cep.is_empty() && cep.len() <= 16 && cep.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .then_some(cep)
}

async fn postal_code(upstreams: &Upstreams, rest: &str) -> Response {
    let Some(cep) = postal_code_path(rest) else {
        return (StatusCode::NOT_FOUND, axum::Json(serde_json_message("CEP não encontrado.")))
            .into_response();
    };
    let answer =
        upstreams.client.get(format!("{}/{cep}/json/", upstreams.cep_url)).timeout(CEP_TIMEOUT).send().await;
    let answer = match answer {
        Ok(answer) => answer,
        Err(error) => {
            tracing::warn!(%error, "postal-code service unreachable");
            return (
                StatusCode::BAD_GATEWAY,
                axum::Json(serde_json_message("Serviço de CEP indisponível no momento.")),
            )
                .into_response();
        }
    };
    let status = answer.status();
    let content_type = answer.headers().get(header::CONTENT_TYPE).cloned();
    match answer.bytes().await {
        Ok(body) => {
            let mut response = (status, body).into_response();
            if let Some(content_type) = content_type {
                response.headers_mut().insert(header::CONTENT_TYPE, content_type);
            }
            response
        }
        Err(error) => {
            tracing::warn!(%error, "postal-code answer unreadable");
            (
                StatusCode::BAD_GATEWAY,
                axum::Json(serde_json_message("Serviço de CEP indisponível no momento.")),
            )
                .into_response()
        }
    }
}

fn serde_json_message(message: &str) -> std::collections::BTreeMap<&'static str, String> {
    std::collections::BTreeMap::from([("message", message.to_owned())])
}

async fn proxy(
    client: &reqwest::Client,
    upstream: &str,
    peer: SocketAddr,
    request: Request,
) -> anyhow::Result<Response> {
    let (parts, body) = request.into_parts();
    let path_and_query = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    let mut outgoing = client
        .request(parts.method.clone(), format!("{upstream}{path_and_query}"))
        .body(reqwest::Body::wrap_stream(body.into_data_stream()));
    for (name, value) in &parts.headers {
        if !HOP_BY_HOP.contains(&name.as_str()) && name != "x-forwarded-for" {
            outgoing = outgoing.header(name, value);
        }
    }
    // This edge is the first hop: the peer is the client.
    outgoing = outgoing.header(HeaderName::from_static("x-forwarded-for"), peer.ip().to_string());
    let answer = outgoing.send().await?;
    let mut response = Response::builder().status(answer.status());
    for (name, value) in answer.headers() {
        if !HOP_BY_HOP.contains(&name.as_str()) {
            response = response.header(name, value);
        }
    }
    let stream = answer.bytes_stream().map_err(std::io::Error::other);
    Ok(response.header(header::VIA, "1.1 navalha-gateway").body(Body::from_stream(stream))?)
}

#[cfg(test)]
mod tests {
    use super::{postal_code_path, writes_on_get};

    #[test]
    fn only_postal_code_lookups_are_forwarded() {
        assert_eq!(postal_code_path("01310100/json/"), Some("01310100"));
        assert_eq!(postal_code_path("0131/json"), Some("0131"));
        assert_eq!(postal_code_path("01310100/xml/"), None);
        assert_eq!(postal_code_path("../../x/json/"), None);
        assert_eq!(postal_code_path("/json/"), None);
        assert_eq!(postal_code_path("01310100?x=1/json/"), None);
    }

    #[test]
    fn only_update_data_is_a_writing_get() {
        assert!(writes_on_get("/api/subscription-user/12/updateData"));
        assert!(!writes_on_get("/api/subscription-user/12"));
        assert!(!writes_on_get("/api/subscription-user//updateData"));
        assert!(!writes_on_get("/api/subscription-user/1/2/updateData"));
        assert!(!writes_on_get("/api/holiday/filter"));
    }
}
