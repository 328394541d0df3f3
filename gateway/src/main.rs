//! The development edge's binary: see the library for what it does.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use navalha_gateway::{app, origin_of, Instances, Upstreams};
use navalha_platform::{db, telemetry};

#[derive(Parser)]
#[command(about = "Navalha's single origin for development")]
struct Cli {
    /// Address to listen on.
    #[arg(long, env = "NAVALHA_GATEWAY_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// command-api's base address; several, comma-separated, are taken in turn.
    #[arg(long, env = "NAVALHA_COMMAND_URL", default_value = "http://127.0.0.1:8081", value_delimiter = ',')]
    command_url: Vec<String>,
    /// query-api's base address; several, comma-separated, are taken in turn.
    #[arg(long, env = "NAVALHA_QUERY_URL", default_value = "http://127.0.0.1:8082", value_delimiter = ',')]
    query_url: Vec<String>,
    /// The postal-code service (ViaCEP's contract: GET {base}/{cep}/json/).
    #[arg(long, env = "NAVALHA_CEP_URL", default_value = "https://viacep.com.br/ws")]
    cep_url: String,
    /// The built web app.
    #[arg(long, env = "NAVALHA_WEB_DIST", default_value = "web/dist")]
    web_dist: PathBuf,
    /// The payment provider's card tokenizer script (as command-api's setting), whose
    /// origin the pages' Content-Security-Policy allows.
    #[arg(long, env = "NAVALHA_GALAXPAY_JS_URL", default_value = "https://js.cel.cash/checkout.min.js")]
    galaxpay_js_url: String,
}

fn bases(urls: Vec<String>) -> Vec<String> {
    urls.iter().map(|url| url.trim().trim_end_matches('/').to_owned()).filter(|url| !url.is_empty()).collect()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init("gateway");
    let cli = Cli::parse();
    let upstreams = Upstreams {
        client: reqwest::Client::builder().build()?,
        command: Instances::new(bases(cli.command_url))?,
        query: Instances::new(bases(cli.query_url))?,
        cep_url: cli.cep_url.trim_end_matches('/').to_owned(),
        web_dist: cli.web_dist,
        script_origins: origin_of(&cli.galaxpay_js_url).into_iter().collect(),
    };
    let listener =
        tokio::net::TcpListener::bind(cli.listen).await.with_context(|| format!("binding {}", cli.listen))?;
    tracing::info!(listen = %cli.listen, "gateway serving");
    axum::serve(listener, app(upstreams).into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(db::shutdown_signal())
        .await?;
    Ok(())
}
