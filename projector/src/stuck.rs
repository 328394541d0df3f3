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
use sqlx::{PgConnection, PgPool};

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
    /// The type of the event that failed.
    pub event_type: String,
    /// The failing event's aggregate id.
    pub aggregate_id: String,
    /// Why it failed.
    pub error: String,
}

impl StuckAt {
    /// Stuck at `event`, which failed with `error`.
    pub(crate) fn at(event: &StoredEvent, error: &anyhow::Error) -> Self {
        Self {
            business_id: event.business_id(),
            position: event.position,
            event_type: event.event_type.clone(),
            aggregate_id: event.aggregate_id.clone(),
            error: kept(error),
        }
    }

    /// Stuck at `position` by a failure of no one event (a rebuild's fold of a window).
    pub(crate) fn from(business_id: i64, position: Position, error: &anyhow::Error) -> Self {
        Self {
            business_id,
            position,
            event_type: "(the window's fold)".to_owned(),
            aggregate_id: String::new(),
            error: kept(error),
        }
    }
}

/// The error's text, with its causes, cut to [`ERROR_KEPT`] bytes.
fn kept(error: &anyhow::Error) -> String {
    let mut text = format!("{error:#}");
    if text.len() > ERROR_KEPT {
        let cut = (0..=ERROR_KEPT).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
        text.truncate(cut);
    }
    text
}

/// The `stuck` table of a model's schema. Created with the schema, and for a live schema
/// created before it existed, when the worker starts (no rebuild: it is no part of the
/// model's version). Like `checkpoint` it is bookkeeping, outside row-level security.
fn table_sql(schema: &str) -> String {
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

/// Creates the model's `stuck` table if it is missing. The services read which business
/// waits where, never the error, which may quote a payload: the table is outside row-level
/// security (query-api reads every business's row to answer each one's header).
pub async fn ensure_table(conn: &mut PgConnection, schema: &str) -> sqlx::Result<()> {
    for statement in [
        table_sql(schema),
        format!("revoke select on {schema}.stuck from navalha_query, navalha_command"),
        format!(
            "grant select (business_id, tx_id, global_position, event_type, since, tried_at) on {schema}.stuck
             to navalha_query, navalha_command"
        ),
    ] {
        sqlx::query(&statement).execute(&mut *conn).await?;
    }
    Ok(())
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

/// Records `stuck` in the model's table (a business already there takes the new position
/// and error, and keeps when it first got stuck), and says so in the log.
pub async fn record(
    conn: &mut PgConnection,
    model: &str,
    schema: &str,
    stuck: &[StuckAt],
) -> anyhow::Result<()> {
    if stuck.is_empty() {
        return Ok(());
    }
    for at in stuck {
        tracing::error!(
            model,
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
    .with_context(|| format!("recording the stuck businesses of {model}"))?;
    Ok(())
}

/// What a retry did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Retried {
    /// Businesses that caught up and are no longer stuck.
    pub freed: Vec<i64>,
    /// Businesses still stuck (at the same event or a later one).
    pub still: Vec<i64>,
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

/// Every stuck business of the live models named, for `projector stuck`.
pub async fn list(pool: &PgPool, models: &[&str]) -> anyhow::Result<Vec<StuckRow>> {
    let mut rows = Vec::new();
    for model in models {
        let schema = format!("rm_{model}");
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
        .bind(model)
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
