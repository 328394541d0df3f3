//! SQL checks of the system's guarantees after a run: no double booking (in the read
//! model and in the claim table PostgreSQL guards), the projector caught up, and the read
//! models as a digest to compare with a rebuild.

use std::time::{Duration, Instant};

use anyhow::bail;
use sqlx::PgPool;

/// Pairs of active appointments of one professional that overlap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DoubleBookings {
    /// In the agenda read model (`rm_agenda.appointment`, active rows).
    pub read_model: i64,
    /// In the claim table PostgreSQL guards (`appointment_slot`).
    pub slots: i64,
    /// Active appointments in the read model.
    pub active_read_model: i64,
    /// Rows of `appointment_slot`.
    pub slot_rows: i64,
}

impl DoubleBookings {
    /// Both counts are zero and the two tables agree.
    pub fn clean(&self) -> bool {
        self.read_model == 0 && self.slots == 0
    }
}

/// Counts overlapping pairs in both tables.
pub async fn double_bookings(pool: &PgPool) -> anyhow::Result<DoubleBookings> {
    let read_model: i64 = sqlx::query_scalar(
        "select count(*)
           from rm_agenda.appointment a
           join rm_agenda.appointment b
             on b.professional_id = a.professional_id and b.date = a.date
            and b.appointment_id > a.appointment_id
            and b.start_time < a.end_time and a.start_time < b.end_time
          where a.status and b.status",
    )
    .fetch_one(pool)
    .await?;
    let slots: i64 = sqlx::query_scalar(
        "select count(*)
           from appointment_slot a
           join appointment_slot b
             on b.professional_id = a.professional_id and b.appointment_id > a.appointment_id
            and b.during && a.during",
    )
    .fetch_one(pool)
    .await?;
    let active_read_model: i64 =
        sqlx::query_scalar("select count(*) from rm_agenda.appointment where status").fetch_one(pool).await?;
    let slot_rows: i64 = sqlx::query_scalar("select count(*) from appointment_slot").fetch_one(pool).await?;
    Ok(DoubleBookings { read_model, slots, active_read_model, slot_rows })
}

/// The agenda read model's checkpoint as a comparable pair.
pub async fn agenda_checkpoint(pool: &PgPool) -> anyhow::Result<(i64, i64)> {
    Ok(sqlx::query_as("select last_tx_id::text::bigint, last_position from rm_agenda.checkpoint")
        .fetch_one(pool)
        .await?)
}

/// Waits until the agenda has applied `position`, at most `limit`.
pub async fn wait_for_agenda(
    pool: &PgPool,
    position: (i64, i64),
    limit: Duration,
) -> anyhow::Result<Duration> {
    let started = Instant::now();
    loop {
        if agenda_checkpoint(pool).await? >= position {
            return Ok(started.elapsed());
        }
        if started.elapsed() > limit {
            bail!("the agenda read model did not reach {}.{} within {limit:?}", position.0, position.1);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every read model's rows, one line per table: its name, row count and an
/// order-independent digest (the projector's checkpoints left out). Two equal lists mean
/// equal read models.
pub async fn read_model_digest(pool: &PgPool) -> anyhow::Result<Vec<String>> {
    let tables: Vec<(String, String)> = sqlx::query_as(
        "select table_schema::text, table_name::text
           from information_schema.tables
          where table_schema like 'rm\\_%' and table_schema not like '%\\_next'
            and table_name <> 'checkpoint'
          order by 1, 2",
    )
    .fetch_all(pool)
    .await?;
    let mut lines = Vec::with_capacity(tables.len());
    for (schema, table) in tables {
        let (count, digest): (i64, String) = sqlx::query_as(&format!(
            "select count(*), md5(coalesce(string_agg(r::text, E'\\n' order by r::text), ''))
               from \"{schema}\".\"{table}\" r"
        ))
        .fetch_one(pool)
        .await?;
        lines.push(format!("{schema}.{table}|{count}|{digest}"));
    }
    Ok(lines)
}

/// The newest event's position, `(tx_id, global_position)`.
pub async fn log_head(pool: &PgPool) -> anyhow::Result<(i64, i64)> {
    Ok(sqlx::query_as(
        "select coalesce(max(tx_id::text::bigint), 0), coalesce(max(global_position), 0) from events",
    )
    .fetch_one(pool)
    .await?)
}

/// Waits until every read model's checkpoint has passed the log's newest event, at most
/// `limit`; answers how long it took.
pub async fn wait_for_read_models(pool: &PgPool, limit: Duration) -> anyhow::Result<Duration> {
    let head = log_head(pool).await?;
    let models: Vec<&str> = navalha_projector::models::all().iter().map(|m| m.name()).collect();
    let started = Instant::now();
    loop {
        let mut behind = Vec::new();
        for model in &models {
            let at: Option<(i64, i64)> = sqlx::query_as(&format!(
                "select last_tx_id::text::bigint, last_position from rm_{model}.checkpoint"
            ))
            .fetch_optional(pool)
            .await
            .unwrap_or(None); // not made yet
            if at.is_none_or(|at| at < head) {
                behind.push(*model);
            }
        }
        if behind.is_empty() {
            return Ok(started.elapsed());
        }
        if started.elapsed() > limit {
            bail!("read models {behind:?} did not reach {}.{} within {limit:?}", head.0, head.1);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
