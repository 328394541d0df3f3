//! command-api: `migrate`, `seed-demo`, `seed-demo-club`, `open-business`,
//! `business-billing`, or `serve` (the default).

use anyhow::Context;
use clap::Parser;
use navalha_command_api::businesses::{open_with_admin, set_billing, FirstAdmin};
use navalha_command_api::config::{Cli, Command, ServeArgs, Settings};
use navalha_command_api::{app, seed, AppState};
use navalha_platform::{db, telemetry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init("command-api");
    let cli = Cli::parse();
    let pool = db::connect(cli.database_url.expose(), 20, db::Plans::Generic).await?;
    match cli.command {
        Some(Command::Migrate) => {
            // After a restore into another cluster the events' transaction ids are ahead of
            // this cluster's: new events would sort before them and the projector would not
            // see them. Before the migrations (which might append) and after them.
            let limit = max_xid_advance()?;
            db::advance_transaction_counter(&pool, limit).await?;
            sqlx::migrate!("../migrations").run(&pool).await.context("migrating")?;
            db::advance_transaction_counter(&pool, limit).await?;
            tracing::info!("migrations applied");
        }
        Some(Command::SeedDemo(settings)) => {
            let state = AppState::new(pool, settings).await?;
            let loaded = seed::seed_demo(&state).await.map_err(|error| anyhow::anyhow!("{error:?}"))?;
            if loaded {
                seed::seed_demo_agenda(&state).await.map_err(|error| anyhow::anyhow!("{error:?}"))?;
                seed::seed_demo_showcase(&state).await.map_err(|error| anyhow::anyhow!("{error:?}"))?;
                navalha_command_api::counter_demo::seed_demo_counter(&state)
                    .await
                    .map_err(|error| anyhow::anyhow!("{error:?}"))?;
            }
            println!("{}", if loaded { "demo data loaded" } else { "demo data already present" });
        }
        Some(Command::SeedDemoClub(args)) => {
            let state = AppState::new(pool, args.settings).await?;
            let loaded = navalha_command_api::club::demo::seed_demo_club(&state, &args.provider_sim_url)
                .await
                .map_err(|error| anyhow::anyhow!("{error:?}"))?;
            println!("{}", if loaded { "club demo data loaded" } else { "club demo data already present" });
        }
        Some(Command::OpenBusiness(args)) => {
            let state = AppState::new(pool, args.settings).await?;
            let admin = FirstAdmin {
                name: args.admin_name,
                email: args.admin_email,
                cpf: args.admin_cpf,
                phone: args.admin_phone,
            };
            let opened = open_with_admin(&state, &args.name, &admin)
                .await
                .map_err(|error| anyhow::anyhow!("{error:?}"))?;
            println!(
                "business {} opened; its admin (IdProfessional {}) sets a password at:",
                opened.business_id, opened.admin_id
            );
            println!("{}", opened.registration_link);
        }
        Some(Command::BusinessBilling(args)) => {
            let state = AppState::new(pool, args.settings).await?;
            let status = navalha_domain::business::BillingStatus::from_code(&args.status)
                .context("--status is ACTIVE or PENDING_PAYMENT")?;
            set_billing(&state, args.business, status).await.map_err(|error| anyhow::anyhow!("{error:?}"))?;
            println!("business {}: {}", args.business, status.code());
        }
        Some(Command::Serve(args)) => serve(pool, cli.database_url.expose(), args).await?,
        None => {
            let args = ServeArgs { listen: "127.0.0.1:8081".parse()?, settings: Settings::default() };
            serve(pool, cli.database_url.expose(), args).await?;
        }
    }
    Ok(())
}

/// How many transaction ids `migrate` may hand out to pass restored events (about 40 s for
/// the default); beyond it, it stops and says how to use pg_resetwal instead.
fn max_xid_advance() -> anyhow::Result<i64> {
    match std::env::var("NAVALHA_MIGRATE_MAX_XID_ADVANCE") {
        Ok(value) => value.trim().parse().context("NAVALHA_MIGRATE_MAX_XID_ADVANCE must be a whole number"),
        Err(_) => Ok(10_000_000),
    }
}

async fn serve(pool: sqlx::PgPool, database_url: &str, args: ServeArgs) -> anyhow::Result<()> {
    let state = AppState::new(pool, args.settings).await?;
    // Before serving: a retry may take over this process's requests once it is gone.
    navalha_event_store::idempotency::hold_instance_lock(database_url.to_owned()).await?;
    navalha_command_api::club::subscribers::spawn_reconciliation(state.clone());
    navalha_command_api::reminders::spawn(state.clone());
    navalha_event_store::idempotency::spawn_forgetting(state.pool.clone());
    navalha_command_api::identity::spawn_background(state.clone());
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("binding {}", args.listen))?;
    tracing::info!(listen = %args.listen, "command-api serving");
    axum::serve(listener, app(state).into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(db::shutdown_signal())
        .await?;
    Ok(())
}
