//! query-api: `serve` (the default).

use std::net::SocketAddr;

use anyhow::Context;
use clap::{Parser, Subcommand};
use navalha_platform::{db, telemetry, Secret};
use navalha_query_api::{app, AppState};

#[derive(Parser)]
#[command(about = "Navalha query API: serves the read models")]
struct Cli {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: Secret,
    /// Where command-api stores uploaded images (the units' galleries).
    #[arg(long, env = "NAVALHA_MEDIA_DIR", default_value = navalha_query_api::DEFAULT_MEDIA_DIR)]
    media_dir: std::path::PathBuf,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve HTTP.
    Serve {
        /// Address to listen on.
        #[arg(long, env = "NAVALHA_QUERY_LISTEN", default_value = "127.0.0.1:8082")]
        listen: SocketAddr,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init("query-api");
    let cli = Cli::parse();
    let listen = match cli.command {
        Some(Command::Serve { listen }) => listen,
        None => "127.0.0.1:8082".parse()?,
    };
    let pool = db::connect(cli.database_url.expose(), 30, db::Plans::PerExecution).await?;
    let mut state = AppState::new(pool).await?;
    state.media_dir = cli.media_dir;
    let listener =
        tokio::net::TcpListener::bind(listen).await.with_context(|| format!("binding {listen}"))?;
    tracing::info!(%listen, "query-api serving");
    // Routes resolved once: served as a bare `Router`, axum rebuilt the whole route table for
    // each connection, about 120 KB that an open agenda's stream kept for its life (issue 46).
    axum::serve(listener, app(state).into_make_service())
        .with_graceful_shutdown(db::shutdown_signal())
        .await?;
    Ok(())
}
