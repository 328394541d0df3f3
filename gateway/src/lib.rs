//! The development edge: one origin at http://localhost:8080, like nginx in production
//! (docs/deploy.md). `/api/*` with GET or HEAD goes to query-api, any other method to
//! command-api, paths unchanged; everything else is the built web app, with `index.html`
//! for client-side routes. Three GETs go to command-api: `/api/subscription-user/{id}/updateData`,
//! which writes (ADR 0008), `/api/openapi/command.json`, the document command-api builds
//! of its own routes (docs/api.md), and `/api/no-auth/whatsapp/webhook`, Meta's handshake
//! for the webhook command-api receives (docs/messages.md). `/cep/{cep}/json/` is the
//! postal-code lookup, forwarded to ViaCEP (`NAVALHA_CEP_URL`) so the browser only ever
//! talks to its own origin.
//!
//! Every answer carries the security headers of [`security_headers`], and request bodies
//! past [`MAX_BODY_BYTES`] are refused here with 413 in the API's JSON shape, before any
//! service reads them.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::TryStreamExt;
use navalha_platform::error::{MSG_TOO_LARGE, MSG_UNAVAILABLE};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

/// The largest request body forwarded: a gallery of five 5 MB images and its fields
/// (command-api's largest route limit). Each route's own, smaller limit is command-api's.
pub const MAX_BODY_BYTES: usize = 27 * 1024 * 1024;

/// Where the edge sends what.
#[derive(Clone)]
pub struct Upstreams {
    /// HTTP client for the upstreams.
    pub client: reqwest::Client,
    /// command-api's instances.
    pub command: Instances,
    /// query-api's instances.
    pub query: Instances,
    /// The postal-code service's base address.
    pub cep_url: String,
    /// The built web app.
    pub web_dist: PathBuf,
    /// Origins of the payment provider besides the pages' own: its card tokenizer (script and
    /// calls) and its Pix QR codes (images; issue 41). https images are allowed anyway; this
    /// lets a local provider on http (provider-sim) show them too.
    pub script_origins: Vec<String>,
}

/// The instances of one service, taken in turn (round robin), like an nginx upstream.
#[derive(Clone)]
pub struct Instances {
    urls: Arc<[String]>,
    next: Arc<AtomicUsize>,
}

impl Instances {
    /// From base addresses (`http://host:port`, without a trailing slash); at least one.
    pub fn new(urls: Vec<String>) -> anyhow::Result<Self> {
        anyhow::ensure!(!urls.is_empty(), "an upstream needs at least one address");
        Ok(Self { urls: urls.into(), next: Arc::new(AtomicUsize::new(0)) })
    }

    /// Every instance once, starting with the next in turn.
    fn in_turn(&self) -> impl Iterator<Item = &str> {
        let first = self.next.fetch_add(1, Ordering::Relaxed);
        (0..self.urls.len()).map(move |i| self.urls[(first + i) % self.urls.len()].as_str())
    }
}

/// The edge's application.
pub fn app(upstreams: Upstreams) -> Router {
    let csp = HeaderValue::from_str(&content_security_policy(&upstreams.script_origins))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'"));
    Router::new()
        .route("/gateway/health", get(|| async { "ok" }))
        .fallback(route)
        .with_state(upstreams)
        .layer(axum::middleware::map_response(move |response: Response| {
            let csp = csp.clone();
            async move { security_headers(response, csp) }
        }))
}

/// The page's Content-Security-Policy: its own origin, Google sign-in (script, frame and
/// user-info call), and the payment provider's origin (its card tokenizer, its Pix QR codes).
/// No inline scripts, no framing.
pub fn content_security_policy(script_origins: &[String]) -> String {
    let extra = script_origins.join(" ");
    format!(
        "default-src 'self'; script-src 'self' https://accounts.google.com {extra}; \
         connect-src 'self' https://accounts.google.com https://www.googleapis.com {extra}; \
         frame-src https://accounts.google.com; style-src 'self' 'unsafe-inline' https://accounts.google.com; \
         img-src 'self' data: blob: https: {extra}; font-src 'self' data:; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// The origin (`scheme://host[:port]`) of an address, if it has one.
pub fn origin_of(url: &str) -> Option<String> {
    let url = reqwest::Url::parse(url).ok()?;
    let origin = url.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// Adds the security headers to every answer, keeping any an upstream set itself.
fn security_headers(mut response: Response, csp: HeaderValue) -> Response {
    let headers = response.headers_mut();
    let fixed = [
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        // Checkout links carry their token in the address: never send it to other origins.
        (header::REFERRER_POLICY, HeaderValue::from_static("same-origin")),
        (header::CONTENT_SECURITY_POLICY, csp),
    ];
    for (name, value) in fixed {
        headers.entry(name).or_insert(value);
    }
    response
}

fn too_large() -> Response {
    (StatusCode::PAYLOAD_TOO_LARGE, axum::Json(serde_json_message(MSG_TOO_LARGE))).into_response()
}

/// The body, read whole up to [`MAX_BODY_BYTES`]: a service that refuses a large body
/// early would otherwise cut the stream this edge is still forwarding (a 502 instead of
/// its 413).
async fn bounded(request: Request) -> Result<(Parts, Bytes), Response> {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_BODY_BYTES).await.map_err(|_| too_large())?;
    Ok((parts, bytes))
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

/// The GETs command-api answers: the one that writes (it reads the payment provider and
/// appends what is new), `/api/subscription-user/{id}/updateData` (ADR 0008), command-api's
/// own OpenAPI document, and the handshake of the WhatsApp webhook it receives.
fn command_serves_get(path: &str) -> bool {
    path == COMMAND_DOCUMENT || path == WHATSAPP_WEBHOOK || writes_on_get(path)
}

/// Meta verifies the webhook with a GET to the address it POSTs to (docs/messages.md).
const WHATSAPP_WEBHOOK: &str = "/api/no-auth/whatsapp/webhook";

/// Where command-api serves its OpenAPI document (query-api serves its own).
const COMMAND_DOCUMENT: &str = "/api/openapi/command.json";

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
        let reads = matches!(*request.method(), Method::GET | Method::HEAD)
            && !command_serves_get(request.uri().path());
        let instances = if reads { &upstreams.query } else { &upstreams.command };
        let (parts, body) = match bounded(request).await {
            Ok(read) => read,
            Err(refused) => return refused,
        };
        // An instance that refuses the connection never saw the request: the next one
        // may take it, even a POST (nginx's `proxy_next_upstream error`). Once a request
        // was sent, its outcome is the answer, whatever it is.
        for upstream in instances.in_turn() {
            match proxy(&upstreams.client, upstream, peer, &parts, body.clone()).await {
                Ok(response) => return response,
                Err(error) => {
                    let refused =
                        error.downcast_ref::<reqwest::Error>().is_some_and(reqwest::Error::is_connect);
                    tracing::error!(%error, upstream, "upstream unreachable");
                    if !refused {
                        break;
                    }
                }
            }
        }
        return (StatusCode::BAD_GATEWAY, axum::Json(serde_json_message(MSG_UNAVAILABLE))).into_response();
    }
    let index = upstreams.web_dist.join("index.html");
    let hashed = request.uri().path().starts_with("/assets/");
    // `npm run build` writes a `.gz` beside each text file (web/scripts/gzip-dist.mjs). The
    // app's routes fall back to `index.html`; a missing hashed file (a tab open across a
    // deploy) is a 404, never the page kept for a year under the file's name.
    let files = ServeDir::new(&upstreams.web_dist).precompressed_gzip();
    let served = if hashed {
        files.oneshot(request).await
    } else {
        files.fallback(ServeFile::new(index).precompressed_gzip()).oneshot(request).await
    };
    match served {
        Ok(response) => {
            let mut response = response.into_response();
            let kept = hashed && response.status().is_success();
            cache_headers(response.headers_mut(), kept);
            response
        }
        Err(error) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
    }
}

/// How long browsers keep the app's files (issue 45 point 9, as docs/deploy.md's nginx
/// does): Vite names every file under `/assets/` by its content's hash, so it never changes
/// and is kept a year; `index.html` (and whatever is not hashed) is asked again every time,
/// so a deploy is seen at the next load. The gzip beside a file is chosen by the request's
/// `Accept-Encoding`, which caches must therefore key on.
fn cache_headers(headers: &mut axum::http::HeaderMap, hashed: bool) {
    use axum::http::header::{CACHE_CONTROL, VARY};
    use axum::http::HeaderValue;
    let policy = if hashed { "public, max-age=31536000, immutable" } else { "no-cache" };
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(policy));
    headers.insert(VARY, HeaderValue::from_static("accept-encoding"));
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
    parts: &Parts,
    body: Bytes,
) -> anyhow::Result<Response> {
    let path_and_query = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    let mut outgoing = client.request(parts.method.clone(), format!("{upstream}{path_and_query}")).body(body);
    let headers: &HeaderMap = &parts.headers;
    for (name, value) in headers {
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
    use super::{command_serves_get, origin_of, postal_code_path, writes_on_get};

    #[test]
    fn the_tokenizers_origin_is_allowed() {
        assert_eq!(origin_of("https://js.cel.cash/checkout.min.js").as_deref(), Some("https://js.cel.cash"));
        assert_eq!(
            origin_of("http://127.0.0.1:8090/checkout.min.js").as_deref(),
            Some("http://127.0.0.1:8090")
        );
        assert_eq!(origin_of("not a url"), None);
    }

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

    #[test]
    fn each_api_serves_its_own_document() {
        assert!(command_serves_get("/api/openapi/command.json"));
        assert!(!command_serves_get("/api/openapi/query.json"));
        assert!(!command_serves_get("/api/openapi/command.json/x"));
        assert!(command_serves_get("/api/subscription-user/12/updateData"));
        assert!(command_serves_get("/api/no-auth/whatsapp/webhook"));
        assert!(!command_serves_get("/api/no-auth/whatsapp/webhook/x"));
        assert!(!command_serves_get("/api/holiday/filter"));
    }
}
