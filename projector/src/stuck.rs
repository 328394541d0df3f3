//! One business's event that a model cannot apply stops that business only (ADR 0022).
//!
//! A batch is applied at once; when that fails for a reason other than the database or the
//! connection, it is applied again business by business, each in a savepoint, and the
//! first event of a business that fails marks it stuck in the model's `stuck` table: its
//! later events are skipped while every other business's go on, and the checkpoint moves.
//! A stuck business is retried from the event it stopped at: when the worker starts, every
//! [`RETRY_EVERY`], and by `projector retry-stuck`, so that a fix (a deployment, a schema
//! change) lets it catch up with nothing else to do.

use std::time::Duration;

use anyhow::Context;
use navalha_platform::position::Position;
use navalha_platform::projection::Changed;
use sqlx::{PgConnection, PgPool, Postgres, Transaction};

use crate::engine::{self, Projection};
use crate::event::StoredEvent;

/// How often the live worker retries its model's stuck businesses.
pub const RETRY_EVERY: Duration = Duration::from_secs(60);

/// The longest error text kept for a stuck business (the logs have all of it).
const ERROR_KEPT: usize = 2000;

/// A business whose rows wait: where they wait, and the event that failed there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StuckAt {
    /// The business.
    pub business_id: i64,
    /// The first of its events not applied: where a retry starts.
    pub position: Position,
    /// The event that failed (its type), its aggregate, and why.
    pub event_type: String,
    /// The failing event's aggregate id.
    pub aggregate_id: String,
    /// Why it failed.
    pub error: String,
}

impl StuckAt {
    pub(crate) fn at(event: &StoredEvent, error: &anyhow::Error) -> Self {
        let mut error = format!("{error:#}");
        if error.len() > ERROR_KEPT {
            let cut = (0..=ERROR_KEPT).rev().find(|i| error.is_char_boundary(*i)).unwrap_or(0);
            error.truncate(cut);
        }
        Self {
            business_id: event.business_id(),
            position: event.position,
            event_type: event.event_type.clone(),
            aggregate_id: event.aggregate_id.clone(),
            error,
        }
    }
}

/// The `stuck` table of a model's schema. Created with the schema, and for a live schema
/// created before it existed, when the worker starts (no rebuild: it is no part of the
/// model's version). Like `checkpoint` it is bookkeeping, outside row-level security.
pub fn table_sql(schema: &str) -> String {
    format!(
        "create table if not exists {schema}.stuck (
             business_id     bigint primary key,
             tx_id           bigint      not null,
             global_position bigint      not null,
             event_type      text        not null,
             aggregate_id    text        not null,
             error           text        not null,
             since           timestamptz not null default now(),
             tried_at        timestamptz not null default now()
         )"
    )
}

/// Creates the model's `stuck` table if it is missing.
pub async fn ensure_table(conn: &mut PgConnection, schema: &str) -> sqlx::Result<()> {
    sqlx::query(&table_sql(schema)).execute(conn).await.map(|_| ())
}

/// Whether an error is the database's or the connection's (it would fail any business's
/// events alike, and the worker starts over), not one business's event.
pub fn is_transient(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| match cause.downcast_ref::<sqlx::Error>() {
        // Connection, transaction rollback (serialization, deadlock), resources, operator
        // intervention (shutdown, cancel), system errors.
        Some(sqlx::Error::Database(database)) => database.code().is_some_and(|code| {
            ["08", "40", "53", "57", "58", "XX"].iter().any(|class| code.starts_with(class))
        }),
        Some(
            sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed
            | sqlx::Error::BeginFailed,
        ) => true,
        _ => false,
    })
}

/// Applies `events`, in commit order, business by business, each run of a business in a
/// savepoint; a run that fails is applied again event by event to find the event that
/// fails, and the business is stuck from there (its earlier events stay applied, its later
/// ones in this batch are skipped). Answers the businesses that got stuck. An error of the
/// database or the connection is returned as it is.
pub async fn apply_by_business(
    tx: &mut Transaction<'static, Postgres>,
    projection: &dyn Projection,
    schema: &str,
    events: &[StoredEvent],
) -> anyhow::Result<Vec<StuckAt>> {
    let mut stuck: Vec<StuckAt> = Vec::new();
    for (run, same_business) in events.chunk_by(|a, b| a.business_id() == b.business_id()).enumerate() {
        let business = same_business[0].business_id();
        if stuck.iter().any(|s| s.business_id == business) {
            continue;
        }
        // Set outside the savepoint: rolling back to it would undo the search path too.
        engine::set_business(tx, business, (run == 0).then_some(schema)).await?;
        savepoint(tx, "savepoint navalha_run").await?;
        match projection.apply_all(tx, same_business).await {
            Ok(()) => {}
            Err(error) if is_transient(&error) => return Err(error),
            Err(_) => {
                savepoint(tx, "rollback to savepoint navalha_run").await?;
                for event in same_business {
                    savepoint(tx, "savepoint navalha_event").await?;
                    match projection.apply_all(tx, std::slice::from_ref(event)).await {
                        Ok(()) => savepoint(tx, "release savepoint navalha_event").await?,
                        Err(error) if is_transient(&error) => return Err(error),
                        Err(error) => {
                            savepoint(tx, "rollback to savepoint navalha_event").await?;
                            stuck.push(StuckAt::at(event, &error));
                            break;
                        }
                    }
                }
            }
        }
        savepoint(tx, "release savepoint navalha_run").await?;
    }
    Ok(stuck)
}

async fn savepoint(tx: &mut Transaction<'static, Postgres>, statement: &str) -> sqlx::Result<()> {
    sqlx::query(statement).execute(&mut **tx).await.map(|_| ())
}

/// Records `stuck` in the model's table (a business already there takes the new position
/// and error, and keeps when it first got stuck), and says so in the log.
pub async fn record(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    schema: &str,
    stuck: &[StuckAt],
) -> anyhow::Result<()> {
    if stuck.is_empty() {
        return Ok(());
    }
    for at in stuck {
        tracing::error!(
            model = projection.name(),
            business = at.business_id,
            event = %at.event_type,
            aggregate = %at.aggregate_id,
            position = %at.position,
            error = %at.error,
            "an event could not be applied: this business's rows wait there, every other business's go on"
        );
    }
    let column = |f: fn(&StuckAt) -> String| stuck.iter().map(f).collect::<Vec<_>>();
    sqlx::query(&format!(
        "insert into {schema}.stuck (business_id, tx_id, global_position, event_type, aggregate_id, error)
         select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[])
         on conflict (business_id) do update
               set tx_id = excluded.tx_id, global_position = excluded.global_position,
                   event_type = excluded.event_type, aggregate_id = excluded.aggregate_id,
                   error = excluded.error, tried_at = now()"
    ))
    .bind(stuck.iter().map(|s| s.business_id).collect::<Vec<_>>())
    .bind(stuck.iter().map(|s| s.position.tx_id).collect::<Vec<_>>())
    .bind(stuck.iter().map(|s| s.position.global_position).collect::<Vec<_>>())
    .bind(column(|s| s.event_type.clone()))
    .bind(column(|s| s.aggregate_id.clone()))
    .bind(column(|s| s.error.clone()))
    .execute(conn)
    .await
    .with_context(|| format!("recording the stuck businesses of {}", projection.name()))?;
    Ok(())
}

/// The businesses stuck in a model's schema.
pub async fn businesses(conn: &mut PgConnection, schema: &str) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(&format!("select business_id from {schema}.stuck order by business_id"))
        .fetch_all(conn)
        .await
}

/// What a retry did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Retried {
    /// Businesses that caught up and are no longer stuck.
    pub freed: Vec<i64>,
    /// Businesses still stuck (at the same event or a later one).
    pub still: Vec<i64>,
}

/// Retries every stuck business of the model in `schema`: its events from where it stopped
/// to the checkpoint, in one transaction holding the checkpoint's lock (no batch runs
/// meanwhile). A business that applies them all is freed; one that fails again stays stuck
/// at the event that failed, with the events before it applied.
pub async fn retry(pool: &PgPool, projection: &dyn Projection, schema: &str) -> anyhow::Result<Retried> {
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
        let events = events_of(&mut tx, projection.aggregate_types(), business, from, checkpoint).await?;
        let still = apply_by_business(&mut tx, projection, schema, &events).await?;
        if still.is_empty() {
            sqlx::query(&format!("delete from {schema}.stuck where business_id = $1"))
                .bind(business)
                .execute(&mut *tx)
                .await?;
            tracing::info!(
                model = projection.name(),
                business,
                events = events.len(),
                "a stuck business caught up"
            );
            retried.freed.push(business);
        } else {
            record(&mut tx, projection, schema, &still).await?;
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
    Ok(retried)
}

/// A business's events of `aggregate_types` from `from` up to `to`, both included, in
/// commit order.
async fn events_of(
    conn: &mut PgConnection,
    aggregate_types: &[&str],
    business: i64,
    from: Position,
    to: Position,
) -> sqlx::Result<Vec<StoredEvent>> {
    let types: Vec<String> = aggregate_types.iter().map(|t| (*t).to_owned()).collect();
    let rows = sqlx::query(
        "select aggregate_type, aggregate_id, sequence, event_type, event_version, payload::text as payload,
                metadata->>'business_id' as business_id,
                tx_id::text::bigint as tx_id, global_position, recorded_at
           from events
          where aggregate_type = any($1)
            and (tx_id, global_position) >= ($2::text::xid8, $3)
            and (tx_id, global_position) <= ($4::text::xid8, $5)
            and coalesce(metadata->>'business_id', $6) = $7
          order by tx_id, global_position",
    )
    .bind(&types)
    .bind(from.tx_id.to_string())
    .bind(from.global_position)
    .bind(to.tx_id.to_string())
    .bind(to.global_position)
    .bind(crate::event::LEGACY_BUSINESS_ID.to_string())
    .bind(business.to_string())
    .fetch_all(conn)
    .await?;
    Ok(rows.iter().map(engine::event_of).collect())
}

/// A stuck business, as `projector stuck` lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StuckRow {
    /// The model.
    pub model: String,
    /// The business.
    pub business_id: i64,
    /// The failed event's type.
    pub event_type: String,
    /// Where its rows wait, `tx.global`.
    pub position: String,
    /// Why.
    pub error: String,
    /// Since when.
    pub since: chrono::DateTime<chrono::Utc>,
}

/// Every stuck business of every live model, for `projector stuck`.
pub async fn list(pool: &PgPool, models: &[std::sync::Arc<dyn Projection>]) -> anyhow::Result<Vec<StuckRow>> {
    let mut rows = Vec::new();
    for model in models {
        let schema = engine::live_schema(model.as_ref());
        let exists: bool = sqlx::query_scalar("select to_regclass($1) is not null")
            .bind(format!("{schema}.stuck"))
            .fetch_one(pool)
            .await?;
        if !exists {
            continue;
        }
        let found: Vec<StuckRow> = sqlx::query_as(&format!(
            "select $1 as model, business_id, event_type, tx_id || '.' || global_position as position,
                    error, since
               from {schema}.stuck order by business_id"
        ))
        .bind(model.name())
        .fetch_all(pool)
        .await?;
        rows.extend(found);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_or_connection_error_is_transient_a_payload_or_constraint_error_is_not() {
        let io = anyhow::Error::new(sqlx::Error::Io(std::io::Error::other("reset")));
        assert!(is_transient(&io.context("applying")));
        assert!(is_transient(&anyhow::Error::new(sqlx::Error::PoolTimedOut)));
        assert!(!is_transient(&anyhow::anyhow!("cannot decode Client ClientRegistered v1.0 at 1.2")));
        assert!(!is_transient(&anyhow::Error::new(sqlx::Error::RowNotFound)));
    }
}
