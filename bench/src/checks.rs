//! SQL after (and during) the load: double bookings, the projector catching up, and what
//! the database's sessions were doing while the bookings ran.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{json, Value};
use sqlx::PgPool;

pub use navalha_harness::checks::{double_bookings, wait_for_agenda, DoubleBookings};

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

/// Whether pg_stat_statements is loaded (the launcher preloads it when PostgreSQL ships
/// it); creates the extension in the bench database.
pub async fn statements_available(pool: &PgPool) -> bool {
    sqlx::query("create extension if not exists pg_stat_statements").execute(pool).await.is_ok()
        && sqlx::query("select 1 from pg_stat_statements limit 1").execute(pool).await.is_ok()
}

/// Forgets the statistics gathered so far.
pub async fn statements_reset(pool: &PgPool) -> anyhow::Result<()> {
    sqlx::query("select pg_stat_statements_reset()").execute(pool).await?;
    Ok(())
}

/// The statements of the bench database that took the most execution time since the last
/// reset: calls, total and mean milliseconds, and share of all statements' time.
pub async fn top_statements(pool: &PgPool, limit: i64) -> anyhow::Result<Vec<Value>> {
    let rows: Vec<(i64, f64, f64, i64, f64, String)> = sqlx::query_as(
        "select calls, total_exec_time, mean_exec_time, rows,
                100 * total_exec_time / nullif(sum(total_exec_time) over (), 0),
                left(regexp_replace(query, '\\s+', ' ', 'g'), 200)
           from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database())
            and query not like '%pg_stat_statements%' and query not like '%pg_stat_activity%'
          order by total_exec_time desc
          limit $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(calls, total, mean, rows, share, query)| {
            json!({
                "calls": calls, "total_ms": total, "mean_ms": mean, "rows": rows,
                "share_percent": share, "query": query,
            })
        })
        .collect())
}
