//! `projector run` follows the event log and keeps every read model current;
//! `projector rebuild [MODEL]` rebuilds models from the first event and swaps them in;
//! `projector stuck` lists the businesses whose events a model could not apply, and
//! `projector retry-stuck` tries them again (ADR 0022).

use std::net::SocketAddr;

use anyhow::Context;
use axum::routing::get;
use axum::Router;
use clap::{Parser, Subcommand};
use navalha_platform::{db, health, telemetry, Secret};
use navalha_projector::{models, rebuild, stuck, worker};
use sqlx::PgPool;

#[derive(Parser)]
#[command(about = "Builds Navalha's read models from the event log")]
struct Cli {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: Secret,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Follow the log (the default). Start two processes for a hot standby.
    Run {
        /// Address of the health endpoint.
        #[arg(long, env = "NAVALHA_PROJECTOR_HEALTH_LISTEN", default_value = "127.0.0.1:8083")]
        health_listen: SocketAddr,
    },
    /// Rebuild one read model, or all, from the first event.
    Rebuild {
        /// The model's name; every model when absent.
        model: Option<String>,
    },
    /// List the businesses whose events a model could not apply (their rows wait), with why.
    Stuck,
    /// Try the stuck businesses again now, after a fix (the running projector also does so
    /// at its start and every minute).
    RetryStuck,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init("projector");
    let cli = Cli::parse();
    let pool = db::connect(cli.database_url.expose(), 16, db::Plans::PerExecution).await?;
    refuse_events_from_the_future(&pool).await?;
    match cli.command.unwrap_or(Command::Run { health_listen: "127.0.0.1:8083".parse()? }) {
        Command::Run { health_listen } => run(pool, cli.database_url, health_listen).await,
        Command::Rebuild { model } => rebuild_models(pool, model).await,
        Command::Stuck => list_stuck(pool).await,
        Command::RetryStuck => retry_stuck(pool).await,
    }
}

async fn list_stuck(pool: PgPool) -> anyhow::Result<()> {
    let names: Vec<&str> = models::all().iter().map(|model| model.name()).collect();
    let rows = stuck::list(&pool, &names).await?;
    if rows.is_empty() {
        println!("no business is stuck: every model applied every event");
    }
    for row in rows {
        println!(
            "{} business {}: {} at {}, since {}\n    {}",
            row.model,
            row.business_id,
            row.event_type,
            row.position,
            row.since.to_rfc3339(),
            row.error
        );
    }
    Ok(())
}

async fn retry_stuck(pool: PgPool) -> anyhow::Result<()> {
    for model in models::all() {
        let schema = navalha_projector::engine::live_schema(model.as_ref());
        let mut conn = pool.acquire().await?;
        if !navalha_projector::engine::schema_exists(&mut conn, &schema).await? {
            continue;
        }
        stuck::ensure_table(&mut conn, &schema).await?;
        drop(conn);
        let retried = worker::retry_stuck(&pool, model.as_ref(), &schema).await?;
        if !retried.freed.is_empty() || !retried.still.is_empty() {
            println!("{}: caught up {:?}, still stuck {:?}", model.name(), retried.freed, retried.still);
        }
    }
    Ok(())
}

/// Events restored from another cluster can carry transaction ids this cluster has not
/// reached. The projector reads only below the commit horizon (ADR 0001), so it would build
/// the read models without them, and silently: refuse to start instead.
async fn refuse_events_from_the_future(pool: &PgPool) -> anyhow::Result<()> {
    let behind =
        db::transaction_ids_behind(pool).await.context("comparing the event log with the cluster")?;
    anyhow::ensure!(
        behind == 0,
        "refusing to start: the event log holds transaction ids {behind} past this cluster's counter. The \
         events were restored from another cluster, and read models built now would leave them out. Run \
         `command-api migrate`, which advances the counter (or says how to with pg_resetwal); see \
         docs/operations.md, \"Restoring into a new cluster\""
    );
    Ok(())
}

async fn run(pool: PgPool, database_url: Secret, health_listen: SocketAddr) -> anyhow::Result<()> {
    for projection in models::all() {
        tokio::spawn(worker::run(pool.clone(), database_url.expose().to_owned(), projection));
    }
    let app = Router::new()
        .route(
            "/health",
            get(|axum::extract::State(pool): axum::extract::State<PgPool>| async move {
                health::check("projector", &pool).await
            }),
        )
        .with_state(pool);
    let listener = tokio::net::TcpListener::bind(health_listen)
        .await
        .with_context(|| format!("binding {health_listen}"))?;
    tracing::info!(%health_listen, "projector running");
    axum::serve(listener, app.into_make_service()).with_graceful_shutdown(db::shutdown_signal()).await?;
    Ok(())
}

async fn rebuild_models(pool: PgPool, model: Option<String>) -> anyhow::Result<()> {
    let projections = match model {
        Some(name) => vec![models::find(&name).with_context(|| {
            let known: Vec<_> = models::all().iter().map(|m| m.name()).collect();
            format!("unknown read model {name:?}; known: {}", known.join(", "))
        })?],
        None => models::all(),
    };
    // The models rebuild side by side from one read of the log; PostgreSQL and the
    // projector share the cores between them.
    let started = std::time::Instant::now();
    let models: Vec<&dyn navalha_projector::engine::Projection> =
        projections.iter().map(|p| p.as_ref()).collect();
    let rebuilt = rebuild::rebuild_all(&pool, &models, true).await?;
    for (model, report) in models.iter().zip(rebuilt.models) {
        println!(
            "{:>20}: {} events in {:.2} s ({:.0} events/s)",
            model.name(),
            report.events,
            report.seconds,
            report.rate()
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    // The events of the shared read: no count of the log after it, which is a scan.
    println!(
        "{:>20}: {} events of the log in {seconds:.2} s ({:.0} events/s)",
        "all models",
        rebuilt.log_events,
        rebuilt.log_events as f64 / seconds.max(f64::EPSILON)
    );
    Ok(())
}
