//! Following the log: one worker per read model, exactly one of them active across every
//! projector process, the others on standby.
//!
//! Leadership is a session advisory lock held on a dedicated connection: when the active
//! process dies, PostgreSQL drops its connection and the lock, and a standby polling every
//! second takes over. Correctness does not rest on the lock: each batch locks the
//! checkpoint row, so even two active workers could never apply an event twice.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use sqlx::postgres::PgListener;
use sqlx::{Connection, PgConnection, PgPool};

use navalha_platform::position::Position;
use navalha_platform::projection::Changed;

use crate::engine::{self, BoxFuture, LiveState, Projection};
use crate::rebuild;
use crate::stuck::{self, Retried};

/// How often a standby tries to become active.
pub const STANDBY_RETRY: Duration = Duration::from_secs(1);
/// How long an active worker sleeps without a notification before polling anyway.
pub const POLL_INTERVAL: Duration = Duration::from_millis(500);
/// Events per batch while following the log.
pub const LIVE_BATCH: i64 = 1000;
/// How often at most a model with no events of its own moves its checkpoint past the other
/// models' events (see [`engine::live_batch`]).
pub const IDLE_CHECKPOINT_EVERY: Duration = Duration::from_secs(1);
/// How often at most the active worker checks that its leadership connection still stands.
pub const LEADERSHIP_CHECK_EVERY: Duration = Duration::from_secs(1);

/// Follows the log for one model forever: standby, then active, then standby again after
/// any error.
pub async fn run(pool: PgPool, database_url: String, projection: Arc<dyn Projection>) {
    let name = projection.name();
    loop {
        let attempt: Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send + '_>> =
            Box::pin(run_once(&pool, &database_url, projection.as_ref()));
        match attempt.await {
            Ok(()) => return,
            Err(error) => {
                tracing::error!(
                    model = name,
                    error = format!("{error:#}"),
                    "projection worker failed, restarting"
                );
                tokio::time::sleep(STANDBY_RETRY).await;
            }
        }
    }
}

async fn run_once(pool: &PgPool, database_url: &str, projection: &dyn Projection) -> anyhow::Result<()> {
    let name = projection.name();
    let mut leader =
        PgConnection::connect(database_url).await.context("opening the leadership connection")?;
    let mut announced_standby = false;
    while !try_lead(&mut leader, name).await? {
        if !announced_standby {
            tracing::info!(model = name, "standby: another projector is active for this model");
            announced_standby = true;
        }
        tokio::time::sleep(STANDBY_RETRY).await;
    }
    tracing::info!(model = name, "active");

    match engine::live_state(&mut leader, projection).await? {
        LiveState::Current => {}
        state => {
            tracing::info!(model = name, ?state, "building the read model from the first event");
            rebuild::rebuild(pool, projection, false).await?;
        }
    }

    let live = engine::live_schema(projection);
    // A model built before stuck businesses were kept gets the table; then whatever is stuck
    // is tried again: a restart after a fix is all it takes (ADR 0022).
    stuck::ensure_table(&mut leader, &live).await?;
    retry_stuck(pool, projection, &live).await?;
    let mut retried_at = std::time::Instant::now();

    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen("navalha_events").await?;
    let mut leadership_checked = std::time::Instant::now();
    let mut applied_events = false;
    loop {
        let outcome =
            engine::live_batch(pool, projection, &live, LIVE_BATCH, IDLE_CHECKPOINT_EVERY, !applied_events)
                .await?;
        applied_events = outcome.events > 0;
        if outcome.events > 0 {
            tracing::debug!(model = name, events = outcome.events, checkpoint = %outcome.checkpoint, "applied");
        }
        if outcome.events as i64 == LIVE_BATCH {
            continue;
        }
        // Until a notification names one of the model's types, or the poll is due: under a
        // booking load, the models no booking touches skip the wake-ups (and their looks).
        let poll = tokio::time::sleep(POLL_INTERVAL);
        tokio::pin!(poll);
        loop {
            tokio::select! {
                notification = listener.recv() => {
                    if concerns(notification?.payload(), projection.aggregate_types()) {
                        break;
                    }
                }
                () = &mut poll => break,
            }
        }
        // A broken leadership connection means the lock may be gone: step down. Checked about
        // once a second, not on every wake-up: each batch locks its checkpoint row anyway.
        if leadership_checked.elapsed() >= LEADERSHIP_CHECK_EVERY {
            sqlx::query("select 1").execute(&mut leader).await.context("leadership connection lost")?;
            leadership_checked = std::time::Instant::now();
        }
        if retried_at.elapsed() >= stuck::RETRY_EVERY {
            retry_stuck(pool, projection, &live).await?;
            retried_at = std::time::Instant::now();
        }
    }
}

/// Retries every stuck business of the model in `schema`: its events from where it stopped
/// to the checkpoint, in one transaction holding the checkpoint's lock (no batch runs
/// meanwhile). The event it stopped at is tried alone first, so that a business that still
/// fails costs a minute's retry one event, not a read of the log since. A business that
/// applies them all is freed; one that fails again stays stuck at the event that failed,
/// with the events before it applied.
pub async fn retry_stuck(
    pool: &PgPool,
    projection: &dyn Projection,
    schema: &str,
) -> anyhow::Result<Retried> {
    let any: bool =
        sqlx::query_scalar(&format!("select exists (select 1 from {schema}.stuck)")).fetch_one(pool).await?;
    if !any {
        return Ok(Retried::default());
    }
    let mut tx = pool.begin().await?;
    let checkpoint = engine::lock_checkpoint(&mut tx, schema).await?;
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(&format!(
        "select business_id, tx_id, global_position from {schema}.stuck order by business_id"
    ))
    .fetch_all(&mut *tx)
    .await?;
    let mut retried = Retried::default();
    for (business, tx_id, global_position) in rows {
        let from = Position { tx_id, global_position };
        let types = projection.aggregate_types();
        let first = engine::business_events(&mut tx, types, business, from, from).await?;
        let mut still = engine::apply_by_business(&mut tx, projection, schema, &first).await?;
        let mut events = first.len();
        if still.is_empty() {
            let after = Position { tx_id, global_position: global_position + 1 };
            let rest = engine::business_events(&mut tx, types, business, after, checkpoint).await?;
            still = engine::apply_by_business(&mut tx, projection, schema, &rest).await?;
            events += rest.len();
        }
        if still.is_empty() {
            sqlx::query(&format!("delete from {schema}.stuck where business_id = $1"))
                .bind(business)
                .execute(&mut *tx)
                .await?;
            tracing::info!(model = projection.name(), business, events, "a stuck business caught up");
            retried.freed.push(business);
        } else {
            stuck::record(&mut tx, projection.name(), schema, &still).await?;
            retried.still.push(business);
        }
    }
    // The checkpoint stays; the notice tells readers and open agendas that these businesses'
    // rows changed.
    engine::move_checkpoint(
        &mut tx,
        projection,
        schema,
        checkpoint,
        Changed::of(retried.freed.iter().copied()),
    )
    .await?;
    tx.commit().await?;
    if !retried.still.is_empty() {
        tracing::warn!(
            model = projection.name(),
            businesses = ?retried.still,
            "businesses still stuck: their rows wait (projector stuck lists why)"
        );
    }
    Ok(retried)
}

/// Whether a wake-up's payload (the aggregate types appended, comma-separated; empty when
/// unknown) may concern a model reading `types`.
fn concerns(payload: &str, types: &[&str]) -> bool {
    payload.is_empty() || payload.split(',').any(|appended| types.contains(&appended))
}

async fn try_lead(conn: &mut PgConnection, model: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar("select pg_try_advisory_lock(hashtext('navalha-projector:' || $1))")
        .bind(model)
        .fetch_one(conn)
        .await
}

/// Builds the model if it is missing and applies batches until it has every event
/// committed when called. Transactions of other databases of the cluster hold the commit
/// horizon back too, so an empty batch means "wait", not "done". For tools and tests; the
/// live worker follows the log instead.
pub fn catch_up<'a>(
    pool: &'a sqlx::PgPool,
    projection: &'a dyn Projection,
) -> BoxFuture<'a, anyhow::Result<Position>> {
    Box::pin(async move {
        let live = engine::live_schema(projection);
        let mut conn = pool.acquire().await?;
        if !engine::schema_exists(&mut conn, &live).await? {
            rebuild::rebuild(pool, projection, false).await?;
        }
        stuck::ensure_table(&mut conn, &live).await?;
        let target = engine::last_committed(&mut conn).await?;
        drop(conn);
        loop {
            let mut tx = pool.begin().await?;
            let outcome = engine::apply_batch(&mut tx, projection, &live, 1000).await?;
            tx.commit().await?;
            if outcome.checkpoint >= target {
                return Ok(outcome.checkpoint);
            }
            if outcome.events == 0 {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::concerns;

    #[test]
    fn a_wake_up_concerns_the_models_of_the_types_it_names_and_every_model_when_it_names_none() {
        let agenda = ["Appointment", "Client", "Professional"];
        assert!(concerns("Appointment", &agenda));
        assert!(concerns("Company,Professional", &agenda));
        assert!(!concerns("Holiday", &agenda));
        assert!(!concerns("Appoint", &agenda), "whole names only");
        assert!(concerns("", &agenda), "an unknown writer's wake-up");
    }
}
