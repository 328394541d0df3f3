//! SQL after (and during) the load: double bookings, the projector catching up, and what
//! the database's sessions were doing while the bookings ran.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::bail;
use serde_json::{json, Value};
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

/// Sizes of the log and the main tables, for the report.
pub async fn sizes(pool: &PgPool) -> anyhow::Result<Value> {
    let events: i64 = sqlx::query_scalar("select count(*) from events").fetch_one(pool).await?;
    let by_type: Vec<(String, i64)> =
        sqlx::query_as("select aggregate_type, count(*) from events group by 1 order by 1")
            .fetch_all(pool)
            .await?;
    let database: i64 =
        sqlx::query_scalar("select pg_database_size(current_database())").fetch_one(pool).await?;
    Ok(json!({
        "events": events,
        "events_by_aggregate": by_type.into_iter().collect::<BTreeMap<_, _>>(),
        "database_bytes": database,
    }))
}

/// Samples `pg_stat_activity` of the bench database every `every` until `stop` is set:
/// how often the services' sessions were active, and on what they waited. A cheap
/// "where does the database time go" that needs no extension.
pub async fn sample_activity(
    pool: PgPool,
    every: Duration,
    stop: tokio::sync::watch::Receiver<bool>,
) -> Value {
    let mut samples = 0_u64;
    let mut states: BTreeMap<String, u64> = BTreeMap::new();
    let mut queries: BTreeMap<String, u64> = BTreeMap::new();
    while !*stop.borrow() {
        let rows: Result<Vec<(String, String, String)>, _> = sqlx::query_as(
            "select coalesce(state, ''),
                    coalesce(wait_event_type || ':' || wait_event, 'CPU'),
                    left(regexp_replace(query, '\\s+', ' ', 'g'), 120)
               from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid()
                and backend_type = 'client backend' and state <> 'idle'",
        )
        .fetch_all(&pool)
        .await;
        if let Ok(rows) = rows {
            samples += 1;
            for (state, wait, query) in rows {
                // A session `idle in transaction` is waiting for its client (the service).
                let active = state == "active";
                let key = if active { wait } else { state };
                *states.entry(key).or_default() += 1;
                if active {
                    *queries.entry(query).or_default() += 1;
                }
            }
        }
        tokio::time::sleep(every).await;
    }
    let mut top: Vec<(String, u64)> = queries.into_iter().collect();
    top.sort_by_key(|q| std::cmp::Reverse(q.1));
    top.truncate(12);
    let per_sample = |n: u64| (n as f64 / samples.max(1) as f64 * 100.0).round() / 100.0;
    json!({
        "samples": samples,
        "mean_sessions_by_state": states.into_iter().map(|(k, v)| (k, per_sample(v))).collect::<BTreeMap<_, _>>(),
        "mean_active_sessions_by_query": top.into_iter().map(|(q, n)| json!({"query": q, "mean_sessions": per_sample(n)})).collect::<Vec<_>>(),
    })
}
