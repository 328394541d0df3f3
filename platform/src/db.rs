//! The connection pool.

use std::time::Duration;

use anyhow::Context;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::PgPool;

/// How PostgreSQL plans a service's prepared statements (`plan_cache_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plans {
    /// PostgreSQL's default: a statement is planned for its parameters at each execution
    /// while that plan looks cheaper than the generic one, which for a statement over
    /// `unnest` of array parameters is for ever. For services whose statements read very
    /// different amounts of rows from one call to the next (query-api's lists).
    PerExecution,
    /// Each statement is planned once per connection, for any parameters. For services
    /// whose statements are look-ups by key: command-api's reads of the streams cost twice
    /// their execution in planning, every time (docs/bench.md, "Plans").
    Generic,
}

/// Connects, retrying for a while so services can start before PostgreSQL is ready.
///
/// Each connection names its service (`application_name`, unless the URL names one): in
/// `pg_stat_activity`, in PostgreSQL's log and in the benchmark's CPU by client.
pub async fn connect(url: &str, max_connections: u32, plans: Plans) -> anyhow::Result<PgPool> {
    let options: PgConnectOptions = url.parse().context("reading the database URL")?;
    let options = match options.get_application_name() {
        Some(_) => options,
        None => options.application_name(&service_name()),
    };
    // No JIT compilation: a generic plan prices a `limit $n` at a tenth of its input, which
    // with 10,000 businesses passed `jit_above_cost`, and JIT compiles again at every
    // execution: the projector's read of a live batch took 68 ms (25 of them compiling)
    // against 0.9 ms without (issue 46, docs/bench.md).
    let settings: &[(&str, &str)] = match plans {
        Plans::PerExecution => &[("jit", "off")],
        Plans::Generic => &[("jit", "off"), ("plan_cache_mode", "force_generic_plan")],
    };
    let options = options.options(settings.iter().copied());
    let mut attempt = 0;
    loop {
        let result = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(5))
            // sqlx pings every connection it hands out by default: one more round trip per
            // query, which the benchmark found in every command. A connection that broke
            // while idle fails its next query instead, and is then discarded.
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await;
        match result {
            Ok(pool) => return Ok(pool),
            Err(error) if attempt < 30 => {
                attempt += 1;
                tracing::warn!(%error, attempt, "database not reachable yet, retrying");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(error) => return Err(error).context("connecting to the database"),
        }
    }
}

/// The running executable's name (`command-api`, `projector`, `query-api`).
fn service_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|path| path.file_stem().map(|stem| stem.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "navalha".to_owned())
}

/// The newest event's transaction id, read from the end of the commit-order index. The
/// order names `events.tx_id`: a bare `tx_id` would name the select's own `bigint` column,
/// which no index orders, and every service's start sorted the whole log (73 ms at 200,000
/// events).
pub const NEWEST_EVENT_TX_ID: &str =
    "select events.tx_id::text::bigint from events order by events.tx_id desc limit 1";

/// How many transaction ids the cluster must still hand out before its counter passes the
/// newest event's `tx_id`: 0 unless the events were restored from another cluster, whose
/// counter was further on. The projector reads only below the commit horizon
/// (docs/adr/0001-projection-ordering.md), so it would not see such events until then, and
/// new events would be ordered before them. 0 as well when there is no event log yet.
pub async fn transaction_ids_behind(pool: &PgPool) -> sqlx::Result<i64> {
    let log: Option<String> =
        sqlx::query_scalar("select to_regclass('events')::text").fetch_one(pool).await?;
    if log.is_none() {
        return Ok(0);
    }
    sqlx::query_scalar(&format!(
        "select greatest(0, coalesce(({NEWEST_EVENT_TX_ID}), 0) + 1
                                - pg_snapshot_xmax(pg_current_snapshot())::text::bigint)"
    ))
    .fetch_one(pool)
    .await
}

/// The event log is ahead of the cluster's transaction counter (a restore into another
/// cluster), by more than `command-api migrate` may burn.
#[derive(Debug, thiserror::Error)]
#[error(
    "the event log holds transaction ids up to {newest} but this cluster has only reached {next}: the \
     events were restored from another cluster, and the projector would skip them until the cluster \
     passes them. Advancing by {behind} ids is more than {limit} (NAVALHA_MIGRATE_MAX_XID_ADVANCE). \
     Stop PostgreSQL, run `pg_resetwal -D <data directory> -e {epoch} -x {xid:#x}`, start it, and \
     run `command-api migrate` again (docs/operations.md, \"Restoring into a new cluster\")"
)]
pub struct TransactionCounterBehind {
    /// The newest event's `tx_id`.
    pub newest: i64,
    /// The cluster's next transaction id.
    pub next: i64,
    /// Ids to hand out before the counter passes `newest`.
    pub behind: i64,
    /// The most `advance_transaction_counter` was allowed to hand out.
    pub limit: i64,
    /// `pg_resetwal -e`: the epoch of the next id it should set.
    pub epoch: i64,
    /// `pg_resetwal -x`: past `newest`, rounded up to a multiple of 0x100000, so that its
    /// commit-log page starts empty (pg_resetwal's documentation).
    pub xid: i64,
}

impl TransactionCounterBehind {
    fn new(newest: i64, next: i64, limit: i64) -> Self {
        const SEGMENT: i64 = 0x10_0000;
        let target = (newest + 1 + SEGMENT - 1) / SEGMENT * SEGMENT;
        // Transaction ids 0 to 2 are reserved: an epoch's first segment would start on them.
        let target = if target & 0xFFFF_FFFF == 0 { target + SEGMENT } else { target };
        Self {
            newest,
            next,
            behind: newest + 1 - next,
            limit,
            epoch: target >> 32,
            xid: target & 0xFFFF_FFFF,
        }
    }
}

/// Hands out transaction ids until the cluster's counter passes the newest event's `tx_id`,
/// up to `limit` of them (about 250 000 a second); returns how many it handed out. After a
/// restore into another cluster this puts new events after the restored ones and lets the
/// projector read them. Run it before the services start: an event appended meanwhile
/// would take an id below the restored ones.
pub async fn advance_transaction_counter(pool: &PgPool, limit: i64) -> anyhow::Result<i64> {
    const CHUNK: i64 = 1_000_000;
    let mut behind = transaction_ids_behind(pool).await?;
    if behind == 0 {
        return Ok(0);
    }
    if behind > limit {
        let (newest, next): (i64, i64) = sqlx::query_as(&format!(
            "select ({NEWEST_EVENT_TX_ID}), pg_snapshot_xmax(pg_current_snapshot())::text::bigint"
        ))
        .fetch_one(pool)
        .await?;
        return Err(TransactionCounterBehind::new(newest, next, limit).into());
    }
    let mut advanced = 0;
    tracing::warn!(
        behind,
        "the event log is ahead of this cluster's transaction counter (restored?): advancing it"
    );
    while behind > 0 {
        // One transaction id per COMMIT; a DO block may commit when run on its own, with the
        // simple protocol. Nothing is written, so the commits do not wait for the disk.
        let ids = behind.min(CHUNK);
        sqlx::raw_sql(&format!(
            "do $$ begin for i in 1..{ids} loop perform pg_current_xact_id(); commit; end loop; end $$"
        ))
        .execute(pool)
        .await?;
        advanced += ids;
        tracing::info!(advanced, "transaction ids handed out");
        behind = transaction_ids_behind(pool).await?;
    }
    Ok(advanced)
}

/// Waits for SIGINT or SIGTERM, for graceful shutdown.
pub async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(signal) => signal,
            Err(_) => return std::future::pending().await,
        };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
    tracing::info!("shutting down");
}
