//! provider-sim: a local GalaxPay v2 for `./navalha up` and the tests.

use anyhow::Context;
use clap::Parser;
use navalha_platform::{db, telemetry};
use navalha_provider_sim::{app, Config, Simulator};

/// A local payment provider speaking the GalaxPay v2 protocol.
#[derive(Debug, Parser)]
#[command(about = "Navalha provider simulator: a local GalaxPay v2")]
struct Cli {
    /// Address to listen on; the API is under `/v2`, the simulator's controls under `/sim`.
    #[arg(long, env = "NAVALHA_PROVIDER_SIM_LISTEN", default_value = "127.0.0.1:8090")]
    listen: std::net::SocketAddr,
    #[command(flatten)]
    config: Config,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init("provider-sim");
    let cli = Cli::parse();
    let listener =
        tokio::net::TcpListener::bind(cli.listen).await.with_context(|| format!("binding {}", cli.listen))?;
    tracing::info!(listen = %cli.listen, webhook_url = ?cli.config.webhook_url, "provider-sim serving");
    axum::serve(listener, app(Simulator::new(cli.config)))
        .with_graceful_shutdown(db::shutdown_signal())
        .await?;
    Ok(())
}
