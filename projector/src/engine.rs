//! Applying batches of events to a read model, atomically with its checkpoint.

use std::future::Future;
use std::pin::Pin;

use anyhow::Context;
use async_trait::async_trait;
use navalha_platform::position::Position;
use navalha_platform::projection::{self, BatchCommitted, Changed};
use navalha_read_models::ReadModel;
use sqlx::{Executor, PgConnection, PgPool, Postgres, Row, Transaction};

use crate::event::StoredEvent;
use crate::stuck::StuckAt;

/// A boxed future that is `Send`. The engine's functions return these because rustc cannot
/// prove `Send` through sqlx's higher-ranked executor lifetimes once futures nest.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A read model: its tables and how each event changes them.
#[async_trait]
pub trait Projection: Send + Sync {
    /// What the model is: name, tables, the aggregates it reads (the catalogue,
    /// `navalha_read_models`).
    fn model(&self) -> &'static ReadModel;

    /// The model's name; its schema is `rm_<name>`.
    fn name(&self) -> &'static str {
        self.model().name
    }

    /// DDL creating the model's tables ([`ReadModel::schema_sql`]).
    fn schema_sql(&self) -> String {
        self.model().schema_sql()
    }

    /// The aggregate types whose payloads the model reads ([`ReadModel::aggregate_types`]).
    fn aggregate_types(&self) -> &'static [&'static str] {
        self.model().aggregate_types
    }

    /// Applies one event. Runs inside the batch's transaction, with `search_path` set to the
    /// schema being built, so table names are written unqualified.
    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()>;

    /// A fold of the model's events in memory, for a model with many events: a batch is
    /// folded and written in bulk, and a rebuild folds the whole log before writing each
    /// table once (issue 15 item 4). `None`: events are applied one by one.
    fn fold(&self) -> Option<Box<dyn Fold>> {
        None
    }

    /// Applies a batch of events, in order: through the model's [`fold`](Self::fold) when it
    /// has one. The result must equal applying them one by one.
    async fn apply_all(&self, conn: &mut PgConnection, events: &[StoredEvent]) -> anyhow::Result<()> {
        if let Some(mut fold) = self.fold() {
            for event in events {
                fold.add(event).with_context(|| self.failed_at(event))?;
            }
            return fold.write(conn, Tables::Filled).await;
        }
        for event in events {
            self.apply(conn, event).await.with_context(|| self.failed_at(event))?;
        }
        Ok(())
    }

    /// What an error applying `event` says.
    fn failed_at(&self, event: &StoredEvent) -> String {
        format!("{} applying {} at {}", self.name(), event.event_type, event.position)
    }
}

/// A model's events folded in memory, then written in a few set-based statements. Folding
/// any run of a business's events, from a batch to its whole log, and writing the result
/// over the rows already there must equal applying them one by one.
#[async_trait]
pub trait Fold: Send {
    /// Folds the next event, in commit order.
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()>;

    /// Writes what was folded. Runs with `search_path` set to the schema being built and the
    /// business of the events as the tables' `business_id` default.
    async fn write(self: Box<Self>, conn: &mut PgConnection, tables: Tables) -> anyhow::Result<()>;
}

/// What the tables a fold writes hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tables {
    /// Rows of earlier events, which the fold's rows are merged into (upserts).
    Filled,
    /// No row of the fold's business: a rebuild's first fold of it, whose events are all of
    /// the business's log so far. Its rows can be copied in (`crate::copy`).
    Empty { business_id: i64 },
}

/// The live schema of a model.
pub fn live_schema(projection: &dyn Projection) -> String {
    format!("rm_{}", projection.name())
}

/// The schema a rebuild fills before it is swapped in.
pub fn next_schema(projection: &dyn Projection) -> String {
    format!("rm_{}_next", projection.name())
}

/// A fingerprint of the model's DDL and stored states' versions, kept in its checkpoint
/// row to notice changes.
pub fn schema_version(projection: &dyn Projection) -> String {
    projection.model().version()
}

/// Creates `schema` with the model's tables and a checkpoint at the start of the log.
pub fn create_schema<'a>(
    conn: &'a mut PgConnection,
    projection: &'a dyn Projection,
    schema: &'a str,
) -> BoxFuture<'a, anyhow::Result<()>> {
    Box::pin(create_schema_inner(conn, projection, schema))
}

async fn create_schema_inner(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    schema: &str,
) -> anyhow::Result<()> {
    sqlx::query(&format!("create schema {schema}")).execute(&mut *conn).await?;
    sqlx::query(&format!("set local search_path to {schema}, public")).execute(&mut *conn).await?;
    // A plain string runs on the simple protocol, which takes several statements.
    (&mut *conn)
        .execute(projection.schema_sql().as_str())
        .await
        .with_context(|| format!("creating the tables of {}", projection.name()))?;
    secure_rows(conn, schema).await?;
    sqlx::query(
        "create table checkpoint (
             only_row       boolean primary key default true check (only_row),
             last_tx_id     xid8        not null default '0',
             last_position  bigint      not null default 0,
             schema_version text        not null,
             updated_at     timestamptz not null default now()
         )",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query("insert into checkpoint (schema_version) values ($1)")
        .bind(schema_version(projection))
        .execute(&mut *conn)
        .await?;
    crate::stuck::ensure_table(conn, schema).await?;
    Ok(())
}

/// Row-level security on every table of a model (ADR 0010): query-api's role reads only the
/// rows of the business its transaction names (`navalha.business`), so a query that forgot
/// a condition, or its scope, cannot return another business's rows. command-api reads
/// them all: the event log's trigger keeps its writes within a business. A table without a
/// `business_id` column is refused, so a new table cannot forget it.
async fn secure_rows(conn: &mut PgConnection, schema: &str) -> anyhow::Result<()> {
    let tables: Vec<(String, bool)> = sqlx::query_as(
        "select c.relname::text,
                exists (select 1 from pg_attribute a
                         where a.attrelid = c.oid and a.attname = 'business_id' and not a.attisdropped)
           from pg_class c
          where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'p')",
    )
    .bind(schema)
    .fetch_all(&mut *conn)
    .await?;
    for (table, has_business) in tables {
        anyhow::ensure!(
            has_business,
            "{schema}.{table} has no business_id column: every read model row belongs to a business"
        );
        for statement in [
            format!("alter table {schema}.{table} enable row level security"),
            format!(
                "create policy business_rows on {schema}.{table} for select to navalha_query
                 using (business_id = public.navalha_business())"
            ),
            format!(
                "create policy command_reads on {schema}.{table} for select to navalha_command using (true)"
            ),
        ] {
            sqlx::query(&statement).execute(&mut *conn).await?;
        }
    }
    Ok(())
}

/// Whether a schema exists.
pub async fn schema_exists(conn: &mut PgConnection, schema: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from pg_namespace where nspname = $1)")
        .bind(schema)
        .fetch_one(conn)
        .await
}

/// The state of a live model.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveState {
    /// No live schema yet.
    Missing,
    /// Built with other DDL than the current code's.
    Outdated,
    /// Ready to be followed.
    Current,
}

/// Inspects a model's live schema.
pub async fn live_state(conn: &mut PgConnection, projection: &dyn Projection) -> sqlx::Result<LiveState> {
    let schema = live_schema(projection);
    if !schema_exists(&mut *conn, &schema).await? {
        return Ok(LiveState::Missing);
    }
    let version: String = sqlx::query_scalar(&format!("select schema_version from {schema}.checkpoint"))
        .fetch_one(&mut *conn)
        .await?;
    Ok(if version == schema_version(projection) { LiveState::Current } else { LiveState::Outdated })
}

/// Reads the checkpoint of `schema`, locking its row until the transaction ends so that no
/// other worker applies the same events.
pub async fn lock_checkpoint(conn: &mut PgConnection, schema: &str) -> sqlx::Result<Position> {
    let row = sqlx::query(&format!(
        "select last_tx_id::text::bigint as tx_id, last_position from {schema}.checkpoint for update"
    ))
    .fetch_one(conn)
    .await?;
    Ok(Position { tx_id: row.get("tx_id"), global_position: row.get("last_position") })
}

/// The transactions of this process's live batches, by transaction id. A batch's
/// transaction takes its id with its first statement (the checkpoint's row lock) and keeps it
/// until its commit, through the reading, the decoding and the writes; under a booking load
/// some model's batch nearly always had one open, and every other model's horizon waited for
/// it, and the events committed after it with it. These transactions write read models and
/// never append events, so this process's horizons leave them out ([`horizon_sql`]). Other
/// processes' transactions, a rebuild's among them, still hold the horizon back.
static BATCH_TRANSACTIONS: std::sync::Mutex<Vec<i64>> = std::sync::Mutex::new(Vec::new());

fn batch_transactions() -> std::sync::MutexGuard<'static, Vec<i64>> {
    BATCH_TRANSACTIONS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The live batches' transactions open now, to leave out of a horizon.
fn open_batch_transactions() -> Vec<i64> {
    batch_transactions().clone()
}

/// A live batch's transaction, left out of this process's horizons until dropped (after
/// its commit). Left out a little longer than it runs, it changes nothing: an ended
/// transaction is not in any snapshot's list of running ones.
struct BatchTransaction(i64);

impl BatchTransaction {
    fn open(xid: i64) -> Self {
        batch_transactions().push(xid);
        Self(xid)
    }
}

impl Drop for BatchTransaction {
    fn drop(&mut self) {
        batch_transactions().retain(|xid| *xid != self.0);
    }
}

/// The commit horizon as an SQL expression (`xid8`): the oldest transaction still running,
/// or the next one to start when none is, leaving out the transactions in the `bigint[]`
/// parameter `$n` ([`BATCH_TRANSACTIONS`]). Every other transaction below it has ended.
fn horizon_sql(n: usize) -> String {
    format!(
        "coalesce((select min(x) from pg_snapshot_xip(pg_current_snapshot()) x
                    where not x::text::bigint = any(${n}::bigint[])),
                  pg_snapshot_xmax(pg_current_snapshot()))"
    )
}

/// [`lock_checkpoint`] and the horizon, leaving out this process's other live batches, in
/// one round trip; with them this transaction's id. The horizon is of the statement's
/// snapshot, taken before any wait for the lock: older, so at worst the batch stops short of
/// events the next batch applies.
///
/// The batch's later statements are planned once per connection (`plan_cache_mode`, for
/// this transaction only): a batch's statements take a few keys each, and PostgreSQL planned
/// the read of the events at each batch, for three times its execution. A rebuild's
/// statements, a window of a model each, keep plans made for their parameters.
async fn lock_checkpoint_with_horizon(conn: &mut PgConnection, schema: &str) -> sqlx::Result<Locked> {
    let row = sqlx::query(&format!(
        "select last_tx_id::text::bigint as tx_id, last_position,
                {horizon}::text::bigint as horizon,
                pg_current_xact_id()::text::bigint as xid,
                set_config('plan_cache_mode', 'force_generic_plan', true),
                array(select business_id from {schema}.stuck) as stuck
           from {schema}.checkpoint for update",
        horizon = horizon_sql(1)
    ))
    .bind(open_batch_transactions())
    .fetch_one(conn)
    .await?;
    Ok(Locked {
        checkpoint: Position { tx_id: row.get("tx_id"), global_position: row.get("last_position") },
        horizon: row.get("horizon"),
        xid: row.get("xid"),
        stuck: row.get("stuck"),
    })
}

/// A batch's checkpoint, locked, with what the batch reads with it.
struct Locked {
    checkpoint: Position,
    horizon: i64,
    /// This transaction's id.
    xid: i64,
    /// The businesses whose events wait (`crate::stuck`): the batch skips them.
    stuck: Vec<i64>,
}

/// The commit horizon: every transaction below it has ended, so no event can still appear
/// below it, except the transactions `left_out` (live batches', which append none). Read
/// once per batch, so that every query of the batch agrees on it.
pub async fn commit_horizon(conn: &mut PgConnection, left_out: &[i64]) -> sqlx::Result<i64> {
    sqlx::query_scalar(&format!("select {}::text::bigint", horizon_sql(1)))
        .bind(left_out)
        .fetch_one(conn)
        .await
}

/// Reads up to `limit` committed events of `aggregate_types` after `after` and below
/// `horizon`, in commit order, and with them (when there are any) the newest event below
/// `horizon` of any type, as [`last_below`] reads it: a live batch needs both, in one round
/// trip. A transaction still in flight may commit later with a smaller position, and must
/// not be skipped: hence the horizon.
async fn read_events_and_newest(
    conn: &mut PgConnection,
    after: Position,
    aggregate_types: &[&str],
    horizon: i64,
    limit: i64,
) -> sqlx::Result<(Vec<StoredEvent>, Option<Position>)> {
    let types: Vec<String> = aggregate_types.iter().map(|t| (*t).to_owned()).collect();
    // Type by type on `events_by_type_in_commit_order`, then merged: the first `limit` events
    // in commit order are among the first `limit` of each type. A walk of the commit order
    // filtered by type read every other model's event after the checkpoint, and a plan made
    // once for any parameters (ADR 0020) always walked: for a model with no events, whose
    // checkpoint a rebuild leaves at the start, that was the whole log. The newest event's
    // subqueries do not depend on the row: each is run once.
    let rows = sqlx::query(
        "select e.aggregate_type, e.aggregate_id, e.sequence, e.event_type, e.event_version,
                e.payload::text as payload, e.metadata->>'business_id' as business_id,
                e.tx_id::text::bigint as tx_id, e.global_position, e.recorded_at,
                (select n.tx_id::text::bigint from events n where n.tx_id < $4::text::xid8
                  order by n.tx_id desc, n.global_position desc limit 1) as newest_tx_id,
                (select n.global_position from events n where n.tx_id < $4::text::xid8
                  order by n.tx_id desc, n.global_position desc limit 1) as newest_position
           from unnest($3::text[]) as t (aggregate_type)
          cross join lateral (
                select * from events
                 where events.aggregate_type = t.aggregate_type
                   and (events.tx_id, events.global_position) > ($1::text::xid8, $2)
                   and events.tx_id < $4::text::xid8
                 order by events.tx_id, events.global_position
                 limit $5) e
          order by e.tx_id, e.global_position
          limit $5",
    )
    .bind(after.tx_id.to_string())
    .bind(after.global_position)
    .bind(&types)
    .bind(horizon.to_string())
    .bind(limit)
    .fetch_all(conn)
    .await?;
    let newest = rows
        .first()
        .map(|row| Position { tx_id: row.get("newest_tx_id"), global_position: row.get("newest_position") });
    Ok((rows.iter().map(event_of).collect(), newest))
}

/// Every committed event of `aggregate_types` below `horizon`, in commit order, as one
/// statement whose rows stream in: PostgreSQL reads and sends the next rows while the
/// caller decodes these. A rebuild reads the log this way; in statements of a batch each,
/// the reading and the decoding took turns.
pub fn stream_events<'a>(
    conn: &'a mut PgConnection,
    aggregate_types: &'a [&'a str],
    horizon: i64,
) -> impl futures_util::Stream<Item = sqlx::Result<StoredEvent>> + Send + 'a {
    use futures_util::StreamExt as _;
    sqlx::query(concat!(
        "select ",
        event_columns!(),
        " from events where aggregate_type = any($1) and tx_id < $2::text::xid8
              order by events.tx_id, events.global_position"
    ))
    .bind(aggregate_types)
    .bind(horizon.to_string())
    .fetch(conn)
    .map(|row| row.map(|row| event_of(&row)))
}

/// The columns [`event_of`] reads, for the statements that select whole events from
/// `events` (a macro: `concat!` takes literals only).
macro_rules! event_columns {
    () => {
        "aggregate_type, aggregate_id, sequence, event_type, event_version, payload::text as payload,
         metadata->>'business_id' as business_id, tx_id::text::bigint as tx_id, global_position, recorded_at"
    };
}
use event_columns;

/// An event as [`read_events_and_newest`] and [`stream_events`] select it.
pub(crate) fn event_of(row: &sqlx::postgres::PgRow) -> StoredEvent {
    StoredEvent {
        aggregate_type: row.get("aggregate_type"),
        aggregate_id: row.get("aggregate_id"),
        sequence: row.get("sequence"),
        event_type: row.get("event_type"),
        event_version: row.get("event_version"),
        payload: row.get::<String, _>("payload").into(),
        // Parsed here, not in SQL: a regular expression per row was a fifth of the read.
        business_id: crate::event::business_named(row.get("business_id")),
        position: Position { tx_id: row.get("tx_id"), global_position: row.get("global_position") },
        recorded_at: row.get("recorded_at"),
        decoded: Default::default(),
    }
}

/// A business's events of `aggregate_types` from `from` up to `to`, both included, in
/// commit order.
pub(crate) async fn business_events(
    conn: &mut PgConnection,
    aggregate_types: &[&str],
    business: i64,
    from: Position,
    to: Position,
) -> sqlx::Result<Vec<StoredEvent>> {
    let types: Vec<String> = aggregate_types.iter().map(|t| (*t).to_owned()).collect();
    let rows = sqlx::query(concat!(
        "select ",
        event_columns!(),
        " from events
          where aggregate_type = any($1)
            and (tx_id, global_position) >= ($2::text::xid8, $3)
            and (tx_id, global_position) <= ($4::text::xid8, $5)
            and coalesce(metadata->>'business_id', $6) = $7
          order by tx_id, global_position"
    ))
    .bind(&types)
    .bind(from.tx_id.to_string())
    .bind(from.global_position)
    .bind(to.tx_id.to_string())
    .bind(to.global_position)
    .bind(crate::event::LEGACY_BUSINESS_ID.to_string())
    .bind(business.to_string())
    .fetch_all(conn)
    .await?;
    Ok(rows.iter().map(event_of).collect())
}

/// The position of the newest event below `horizon`, of any aggregate type.
pub async fn last_below(conn: &mut PgConnection, horizon: i64) -> sqlx::Result<Option<Position>> {
    let row: Option<(i64, i64)> = sqlx::query_as(
        "select tx_id::text::bigint, global_position from events
          where tx_id < $1::text::xid8 order by events.tx_id desc, events.global_position desc limit 1",
    )
    .bind(horizon.to_string())
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|(tx_id, global_position)| Position { tx_id, global_position }))
}

/// Test hook: abort the process once a batch of at least this many events is applied,
/// before it commits, to prove that a crash mid-batch loses nothing
/// (`NAVALHA_PROJECTOR_CRASH_AFTER`).
fn crash_after() -> Option<u64> {
    std::env::var("NAVALHA_PROJECTOR_CRASH_AFTER").ok()?.parse().ok()
}

/// What one batch did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchOutcome {
    /// Events of the model applied.
    pub events: usize,
    /// The checkpoint after the batch.
    pub checkpoint: Position,
}

/// How a batch is applied (ADR 0022).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Care {
    /// In one go, with no savepoint and no round trip more: the first failure fails the
    /// batch, which the caller then applies again [`ByBusiness`](Care::ByBusiness).
    AtOnce,
    /// Business by business, each in a savepoint: a business whose event fails is stuck
    /// (`crate::stuck`), and the others' events are applied.
    ByBusiness,
}

/// Applies the next batch of events to `schema` inside `tx`, and advances its checkpoint in
/// the same transaction, up to the commit horizon once the model's own events are all
/// applied. Business by business: one business's event that fails leaves it stuck and the
/// batch goes on. The caller commits.
pub fn apply_batch<'a>(
    tx: &'a mut Transaction<'static, Postgres>,
    projection: &'a dyn Projection,
    schema: &'a str,
    limit: i64,
) -> BoxFuture<'a, anyhow::Result<BatchOutcome>> {
    // Left out of the horizons until it returns, not until the caller commits: the same
    // horizons as before, only a little later than they might have been.
    Box::pin(async move {
        apply_batch_inner(tx, projection, schema, limit, Care::ByBusiness).await.map(|(outcome, _)| outcome)
    })
}

/// One batch as the live worker runs it: first a look, in one statement and no transaction,
/// at whether a batch would write anything; only then a transaction for [`apply_batch`].
///
/// A model with no events of its own to apply moves its checkpoint past the other models'
/// events only once it was last written `quiet` ago. Until then a wake-up costs it that one
/// statement: no `BEGIN`, no lock, no commit. Readers do not need the move, since query-api
/// counts a model with no events of its own between its checkpoint and the awaited position
/// as caught up (`query-api/src/consistency.rs`); the periodic move keeps that look short
/// and the health lag near zero.
///
/// Without `look_first` the batch goes straight to its transaction. The worker asks so
/// after a batch that applied events: under a booking load the next one almost always has
/// events too, and the look would be a round trip spent to learn it. When it has none, the
/// transaction finds nothing, or moves the checkpoint past other models' events once.
pub async fn live_batch(
    pool: &PgPool,
    projection: &dyn Projection,
    schema: &str,
    limit: i64,
    quiet: std::time::Duration,
    look_first: bool,
) -> anyhow::Result<BatchOutcome> {
    if look_first {
        if let Some(checkpoint) = nothing_to_write(pool, projection, schema, quiet).await? {
            return Ok(BatchOutcome { events: 0, checkpoint });
        }
    }
    let mut tx = pool.begin().await?;
    match Box::pin(apply_batch_inner(&mut tx, projection, schema, limit, Care::AtOnce)).await {
        Ok((outcome, transaction)) => {
            tx.commit().await?;
            drop(transaction);
            Ok(outcome)
        }
        Err(error) if crate::stuck::is_transient(&error) => Err(error),
        Err(error) => {
            // One business's event, most likely: again, business by business, so that it
            // stops that business only.
            tx.rollback().await?;
            tracing::warn!(
                model = projection.name(),
                error = format!("{error:#}"),
                "a batch failed: applying it again business by business"
            );
            let mut tx = pool.begin().await?;
            let (outcome, transaction) =
                Box::pin(apply_batch_inner(&mut tx, projection, schema, limit, Care::ByBusiness)).await?;
            tx.commit().await?;
            drop(transaction);
            Ok(outcome)
        }
    }
}

/// Whether a batch would write anything: events of the model's own to apply, or (once
/// `quiet` has passed since the checkpoint was written) other models' events to move past.
/// `Some(checkpoint)` when it would not.
async fn nothing_to_write(
    pool: &PgPool,
    projection: &dyn Projection,
    schema: &str,
    quiet: std::time::Duration,
) -> anyhow::Result<Option<Position>> {
    // Scalar subqueries ordered by the commit order with LIMIT 1, not EXISTS: the planner
    // cannot see the checkpoint's values, guesses that many events follow it and, for an
    // EXISTS, scans the whole log. Own events are looked up type by type on
    // `events_by_type_in_commit_order`: one index probe each, however many other models'
    // events followed the checkpoint (a walk of the commit order would read them all).
    let row = sqlx::query(&format!(
        "select c.last_tx_id::text::bigint as tx_id, c.last_position,
                coalesce((select true from unnest($1::text[]) as t (aggregate_type)
                           cross join lateral (
                                select 1 from events e
                                 where e.aggregate_type = t.aggregate_type
                                   and (e.tx_id, e.global_position) > (c.last_tx_id, c.last_position)
                                   and e.tx_id < h.horizon
                                 order by e.tx_id, e.global_position limit 1) first
                           limit 1), false) as own,
                clock_timestamp() - c.updated_at >= make_interval(secs => $2)
                and coalesce((select true from events e
                               where (e.tx_id, e.global_position) > (c.last_tx_id, c.last_position)
                                 and e.tx_id < h.horizon
                               order by e.tx_id, e.global_position limit 1), false) as due
           from {schema}.checkpoint c, (select {horizon} as horizon) h",
        horizon = horizon_sql(3)
    ))
    .bind(projection.aggregate_types())
    .bind(quiet.as_secs_f64())
    .bind(open_batch_transactions())
    .fetch_one(pool)
    .await?;
    let checkpoint = Position { tx_id: row.get("tx_id"), global_position: row.get("last_position") };
    let busy = row.get::<bool, _>("own") || row.get::<bool, _>("due");
    Ok((!busy).then_some(checkpoint))
}

async fn apply_batch_inner(
    tx: &mut Transaction<'static, Postgres>,
    projection: &dyn Projection,
    schema: &str,
    limit: i64,
    care: Care,
) -> anyhow::Result<(BatchOutcome, BatchTransaction)> {
    let Locked { checkpoint: after, horizon, xid, stuck } = lock_checkpoint_with_horizon(tx, schema).await?;
    let transaction = BatchTransaction::open(xid);
    let (mut events, newest_below) =
        read_events_and_newest(tx, after, projection.aggregate_types(), horizon, limit).await?;
    // Only the model's own events are read. Once they are all applied up to the horizon, the
    // checkpoint moves past the other models' events too, so that a reader waiting for the
    // position of any write (read-your-writes) is never kept waiting by this model.
    let caught_up = (events.len() as i64) < limit;
    let last = match (events.last().map(|event| event.position), caught_up) {
        (Some(own), true) => newest_below.max(Some(own)),
        (None, true) => last_below(tx, horizon).await?,
        (own, false) => own,
    };
    let Some(last) = last.filter(|last| *last > after) else {
        return Ok((BatchOutcome { events: 0, checkpoint: after }, transaction));
    };
    let read = events.len();
    // A stuck business's events wait for its retry (the worker's `retry_stuck`).
    if !stuck.is_empty() {
        events.retain(|event| !stuck.contains(&event.business_id()));
    }
    apply_events(tx, projection, schema, &events, last, care).await?;
    Ok((BatchOutcome { events: read, checkpoint: last }, transaction))
}

/// Applies `events`, the model's own in commit order, to `schema` inside `tx` and moves its
/// checkpoint to `last`, which is at or past the newest of them. Answers the businesses
/// that got stuck ([`Care::ByBusiness`]). The caller commits.
pub fn apply_events<'a>(
    tx: &'a mut Transaction<'static, Postgres>,
    projection: &'a dyn Projection,
    schema: &'a str,
    events: &'a [StoredEvent],
    last: Position,
    care: Care,
) -> BoxFuture<'a, anyhow::Result<Vec<i64>>> {
    Box::pin(apply_events_inner(tx, projection, schema, events, last, care))
}

async fn apply_events_inner(
    tx: &mut Transaction<'static, Postgres>,
    projection: &dyn Projection,
    schema: &str,
    events: &[StoredEvent],
    last: Position,
    care: Care,
) -> anyhow::Result<Vec<i64>> {
    // Every row a model writes takes the business of the event being applied (the tables'
    // `business_id` default), set once for each run of events of one business.
    let stuck = match care {
        Care::AtOnce => {
            for (run, same_business) in events.chunk_by(|a, b| a.business_id() == b.business_id()).enumerate()
            {
                set_business(tx, same_business[0].business_id(), (run == 0).then_some(schema)).await?;
                projection.apply_all(tx, same_business).await?;
            }
            Vec::new()
        }
        Care::ByBusiness => apply_by_business(tx, projection, schema, events).await?,
    };
    crate::stuck::record(tx, projection.name(), schema, &stuck).await?;
    if crash_after().is_some_and(|limit| events.len() as u64 >= limit) {
        tracing::error!(model = projection.name(), "crash requested by NAVALHA_PROJECTOR_CRASH_AFTER");
        std::process::abort();
    }
    move_checkpoint(tx, projection, schema, last, Changed::of(events.iter().map(StoredEvent::business_id)))
        .await?;
    Ok(stuck.into_iter().map(|at| at.business_id).collect())
}

/// Applies `events`, in commit order, business by business, each run of a business in a
/// savepoint; a run that fails is applied again event by event to find the event that
/// fails, and the business is stuck from there (its earlier events stay applied, its later
/// ones in this batch are skipped). Answers the businesses that got stuck. An error of the
/// database or the connection is returned as it is.
pub(crate) async fn apply_by_business(
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
        set_business(tx, business, (run == 0).then_some(schema)).await?;
        savepoint(tx, "savepoint navalha_run").await?;
        match projection.apply_all(tx, same_business).await {
            Ok(()) => {}
            Err(error) if crate::stuck::is_transient(&error) => return Err(error),
            Err(_) => {
                savepoint(tx, "rollback to savepoint navalha_run").await?;
                for event in same_business {
                    savepoint(tx, "savepoint navalha_event").await?;
                    match projection.apply_all(tx, std::slice::from_ref(event)).await {
                        Ok(()) => savepoint(tx, "release savepoint navalha_event").await?,
                        Err(error) if crate::stuck::is_transient(&error) => return Err(error),
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

/// Writes a rebuild's folds, one per business and each in a savepoint, into `schema` inside
/// `tx` and moves its checkpoint to `last`, the newest event folded. Answers the businesses
/// whose fold could not be written, with why: the caller marks them stuck (ADR 0022). The
/// caller commits.
pub fn write_folds<'a>(
    tx: &'a mut Transaction<'static, Postgres>,
    projection: &'a dyn Projection,
    schema: &'a str,
    folds: Vec<(i64, Box<dyn Fold>, Tables)>,
    last: Position,
) -> BoxFuture<'a, anyhow::Result<Vec<(i64, anyhow::Error)>>> {
    Box::pin(async move {
        let businesses: Vec<i64> = folds.iter().map(|(business, _, _)| *business).collect();
        let mut failed = Vec::new();
        for (run, (business, fold, tables)) in folds.into_iter().enumerate() {
            set_business(tx, business, (run == 0).then_some(schema)).await?;
            sqlx::query("savepoint navalha_fold").execute(&mut **tx).await?;
            match fold.write(tx, tables).await {
                Ok(()) => {}
                Err(error) if crate::stuck::is_transient(&error) => return Err(error),
                Err(error) => {
                    sqlx::query("rollback to savepoint navalha_fold").execute(&mut **tx).await?;
                    failed.push((business, error));
                }
            }
            sqlx::query("release savepoint navalha_fold").execute(&mut **tx).await?;
        }
        move_checkpoint(tx, projection, schema, last, Changed::of(businesses)).await?;
        Ok(failed)
    })
}

/// Sets the business whose rows are written next (the tables' `business_id` default) and,
/// with `schema`, the search path: one round trip.
pub(crate) async fn set_business(
    conn: &mut PgConnection,
    business: i64,
    schema: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query(
        "select set_config('navalha.event_business', $1, true),
                case when $2::text is not null then set_config('search_path', $2 || ', public', true) end",
    )
    .bind(business.to_string())
    .bind(schema)
    .execute(conn)
    .await?;
    Ok(())
}

/// Moves the checkpoint, with its notice, in one statement. Delivered at commit: query-api
/// wakes the readers waiting for this position, and tells the open agendas of these
/// businesses that the model changed.
pub(crate) async fn move_checkpoint(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    schema: &str,
    last: Position,
    changed: Changed,
) -> anyhow::Result<()> {
    let notice = BatchCommitted { model: projection.name().to_owned(), checkpoint: last, changed };
    sqlx::query(&format!(
        "with moved as (update {schema}.checkpoint
                           set last_tx_id = $1::text::xid8, last_position = $2, updated_at = now())
         select pg_notify($3, $4)"
    ))
    .bind(last.tx_id.to_string())
    .bind(last.global_position)
    .bind(projection::CHANNEL)
    .bind(notice.to_string())
    .execute(conn)
    .await?;
    Ok(())
}

/// The position of the newest committed event, as this transaction sees it.
pub async fn last_committed(conn: &mut PgConnection) -> sqlx::Result<Position> {
    let row: Option<(i64, i64)> = sqlx::query_as(
        "select tx_id::text::bigint, global_position from events
          order by events.tx_id desc, events.global_position desc limit 1",
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map_or(Position::START, |(tx_id, global_position)| Position { tx_id, global_position }))
}
