//! Helpers: appending events by hand, running batches, dumping tables, and starting the
//! projector binary against the test's database.

use std::future::Future;
use std::time::{Duration, Instant};

use navalha_projector::{worker, Projection};
use sqlx::{PgConnection, PgPool};
use tokio::process::{Child, Command};

/// Appends a `FavoriteMenuMarked` event in the caller's transaction.
pub async fn append_favorite(conn: &mut PgConnection, professional_id: i64, slug: &str) {
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         select 'FavoriteMenu', $1, coalesce(max(sequence), 0) + 1, 'FavoriteMenuMarked', '1.0',
                jsonb_build_object('FavoriteMenuMarked', jsonb_build_object('slug', $2::text)), '{\"business_id\": \"1\"}'
           from events where aggregate_type = 'FavoriteMenu' and aggregate_id = $1",
    )
    .bind(professional_id.to_string())
    .bind(slug)
    .execute(conn)
    .await
    .expect("append");
}

/// Applies every committed event to the model.
pub async fn catch_up(pool: &PgPool, model: &dyn Projection) {
    worker::catch_up(pool, model).await.expect("catch up");
}

/// A table's rows as one JSON text, in a stable order; `[]` when the table is missing.
pub async fn dump(pool: &PgPool, table: &str) -> String {
    sqlx::query_scalar(&format!("select coalesce(json_agg(t order by t::text), '[]')::text from {table} t"))
        .fetch_one(pool)
        .await
        .unwrap_or_else(|_| "[]".to_owned())
}

/// Total lag of every live model, `None` while a model is missing.
pub async fn lag(pool: &PgPool) -> Option<i64> {
    let lags = navalha_platform::health::projection_lag(pool).await.ok()?;
    (lags.len() == navalha_projector::models::all().len()).then(|| lags.iter().map(|l| l.behind_events).sum())
}

/// Whether some connection is waiting to lead a model (a standby is up), seen as a second
/// session asking for an advisory lock another session holds.
pub async fn waiting_for_lead(pool: &PgPool) -> bool {
    let sessions: i64 = sqlx::query_scalar(
        "select count(distinct pid) from pg_stat_activity
          where datname = current_database() and query like '%pg_try_advisory_lock%'",
    )
    .fetch_one(pool)
    .await
    .unwrap_or(0);
    sessions >= 2
}

/// The connection string of the test's database.
pub async fn database_url(pool: &PgPool) -> String {
    let name: String = sqlx::query_scalar("select current_database()").fetch_one(pool).await.expect("name");
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let (prefix, _) = base.rsplit_once('/').expect("a URL with a database");
    format!("{prefix}/{name}")
}

/// Starts `projector run` on the test's database; killed when dropped.
pub async fn spawn_projector(pool: &PgPool, crash_after: Option<u32>) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_projector"));
    command
        .args(["run", "--health-listen", "127.0.0.1:0"])
        .env("DATABASE_URL", database_url(pool).await)
        .env("RUST_LOG", "warn")
        .kill_on_drop(true);
    if let Some(events) = crash_after {
        command.env("NAVALHA_PROJECTOR_CRASH_AFTER", events.to_string());
    }
    command.spawn().expect("projector binary")
}

/// Polls `check` until it holds; panics after `limit`.
pub async fn wait_until<F, Fut>(limit: Duration, check: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = bool>,
{
    let started = Instant::now();
    while !check().await {
        assert!(started.elapsed() < limit, "condition not met within {limit:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
