//! Rebuilding read models from the first event, while the old ones keep serving.
//!
//! The new tables are filled in the schema `rm_<name>_next`, without their secondary
//! indexes, which are built once the tables are full. Then one transaction per
//! model locks the live checkpoint (pausing the live worker), applies whatever came in
//! meanwhile, drops the old schema and renames the new one into its place. Readers see the
//! old model until that commit and the new one after it.
//!
//! Models rebuilt together share one streamed read of the log: a reader hands each batch of
//! events to every model. A model with a fold folds its share in memory and writes it once
//! per window, copying a business's first window into the empty tables (ADR 0019); the
//! others apply their share of each batch in a transaction of its own.
//!
//! Tried and left out: filling unlogged tables and setting them logged before the swap.
//! `set logged` rewrites each table into the WAL, which cost more than the WAL it saved.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use anyhow::Context as _;
use futures_util::future::try_join_all;
use futures_util::TryStreamExt as _;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use navalha_platform::position::Position;
use navalha_platform::projection::{self, BatchCommitted, Changed};
use sqlx::PgPool;
use tokio::sync::mpsc;

use crate::engine::{self, Care, Fold, Projection, Tables};
use crate::event::StoredEvent;
use crate::stuck::{self, StuckAt};

/// Events of the log per batch handed to the models while rebuilding: the unit of a model
/// without a fold's transactions, and of the memory held in flight (`BATCHES_AHEAD` per
/// model). 10,000 was measured when every model wrote each batch (docs/bench.md); the folds
/// write per window instead.
pub const REBUILD_BATCH: i64 = 10000;

/// Events of a model folded in memory before a rebuild writes them: bounds the fold's
/// memory whatever the log's length. The bench's log (about 200,000 events) is one window,
/// copied into the empty tables.
pub const FOLD_WINDOW: u64 = 250_000;

/// Batches a model may have waiting before the reader waits for it.
const BATCHES_AHEAD: usize = 2;

/// What a rebuild did.
#[derive(Debug, Clone, Copy)]
pub struct RebuildReport {
    /// Events of the model applied.
    pub events: u64,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// What a rebuild of models side by side did.
#[derive(Debug, Clone)]
pub struct Rebuilt {
    /// Each model's report, in the order given.
    pub models: Vec<RebuildReport>,
    /// Events of the log read once for all of them (those of their aggregate types).
    pub log_events: u64,
}

impl RebuildReport {
    /// Events per second.
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.events as f64 / self.seconds
        } else {
            self.events as f64
        }
    }
}

/// Rebuilds one model and swaps it in. With `show_progress`, draws a progress bar with the
/// rate in events per second on stderr.
pub fn rebuild<'a>(
    pool: &'a PgPool,
    projection: &'a dyn Projection,
    show_progress: bool,
) -> Pin<Box<dyn Future<Output = anyhow::Result<RebuildReport>> + Send + 'a>> {
    Box::pin(async move {
        let rebuilt = rebuild_all(pool, &[projection], show_progress).await?;
        Ok(rebuilt.models[0])
    })
}

/// Rebuilds models side by side from one read of the log, and swaps each in as soon as it
/// is full.
pub fn rebuild_all<'a>(
    pool: &'a PgPool,
    projections: &'a [&'a dyn Projection],
    show_progress: bool,
) -> Pin<Box<dyn Future<Output = anyhow::Result<Rebuilt>> + Send + 'a>> {
    rebuild_in_batches(pool, projections, REBUILD_BATCH, FOLD_WINDOW, show_progress)
}

/// [`rebuild_all`] reading `batch` events of the log at a time and writing folds every
/// `window` events: tests take small ones to cross many boundaries with little data.
pub fn rebuild_in_batches<'a>(
    pool: &'a PgPool,
    projections: &'a [&'a dyn Projection],
    batch: i64,
    window: u64,
    show_progress: bool,
) -> Pin<Box<dyn Future<Output = anyhow::Result<Rebuilt>> + Send + 'a>> {
    // Boxed with an explicit `Send`: rustc cannot prove it through sqlx's higher-ranked
    // executor lifetimes when the future is spawned.
    Box::pin(rebuild_inner(pool, projections, batch.max(1), window.max(1), show_progress))
}

async fn rebuild_inner(
    pool: &PgPool,
    projections: &[&dyn Projection],
    batch: i64,
    window: u64,
    show_progress: bool,
) -> anyhow::Result<Rebuilt> {
    let started = Instant::now();
    let bars: Vec<ProgressBar> = projections.iter().map(|p| progress_bar(p.name(), show_progress)).collect();
    // The bars' lengths, the log's events by type, are counted while the log is read; not
    // when no bar is drawn (stderr is no terminal): a scan of the whole log, on cores the
    // rebuild keeps busy.
    let drawn = bars.iter().any(|bar| !bar.is_hidden());
    let count = async {
        if drawn {
            let by_type: HashMap<String, i64> =
                sqlx::query_as("select aggregate_type, count(*) from events group by aggregate_type")
                    .fetch_all(pool)
                    .await?
                    .into_iter()
                    .collect();
            for (projection, bar) in projections.iter().zip(&bars) {
                let total: i64 = projection.aggregate_types().iter().filter_map(|t| by_type.get(*t)).sum();
                bar.set_length(total.max(0) as u64);
            }
        }
        anyhow::Ok(())
    };
    let mut senders = Vec::with_capacity(projections.len());
    let mut models = Vec::with_capacity(projections.len());
    for (projection, bar) in projections.iter().zip(bars.iter().cloned()) {
        let (sender, receiver) = mpsc::channel(BATCHES_AHEAD);
        senders.push(sender);
        // The models make their next schemas while the first batches are read, and each is
        // swapped in as soon as it is full, while the others still fill.
        models.push(async move {
            let next = prepare(pool, *projection, bar).await?;
            let events = fill(pool, *projection, &next, receiver, window).await?;
            finish(pool, *projection, next, events, batch, started).await
        });
    }
    let mut types: Vec<&str> = projections.iter().flat_map(|p| p.aggregate_types().iter().copied()).collect();
    types.sort_unstable();
    types.dedup();
    let read = async {
        let events = read_log(pool, &types, batch, senders).await?;
        tracing::info!(events, seconds = format!("{:.2}", started.elapsed().as_secs_f64()), "log read");
        anyhow::Ok(events)
    };
    let (_, log_events, models) = tokio::try_join!(count, read, try_join_all(models))?;
    Ok(Rebuilt { models, log_events })
}

/// A model's next schema, ready to be filled.
struct Next {
    schema: String,
    /// The secondary indexes to build once the tables are full.
    deferred: Vec<String>,
    bar: ProgressBar,
}

/// One batch of the log, for every model rebuilt.
struct Batch {
    events: Vec<StoredEvent>,
    /// The newest event of the batch: each model's checkpoint once it applied its share.
    last: Position,
}

/// Creates the model's next schema, its tables without their secondary indexes.
async fn prepare(pool: &PgPool, projection: &dyn Projection, bar: ProgressBar) -> anyhow::Result<Next> {
    let next = engine::next_schema(projection);
    let mut tx = pool.begin().await?;
    sqlx::query(&format!("drop schema if exists {next} cascade")).execute(&mut *tx).await?;
    engine::create_schema(&mut tx, projection, &next).await?;
    let deferred = defer_indexes(&mut tx, projection.name(), &next).await?;
    tx.commit().await?;
    Ok(Next { schema: next, deferred, bar })
}

/// A model's progress bar on stderr, with the rate in events per second; hidden when
/// progress is not shown. Its length is set once the log is counted.
fn progress_bar(model: &'static str, show_progress: bool) -> ProgressBar {
    if !show_progress {
        return ProgressBar::hidden();
    }
    // Several models rebuild at once: their bars stack instead of overwriting each other.
    static BARS: OnceLock<MultiProgress> = OnceLock::new();
    let bar = BARS.get_or_init(MultiProgress::new).add(ProgressBar::new(0));
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>20} [{bar:40.cyan/blue}] {pos}/{len} events  {per_sec}  eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(model);
    bar
}

/// Reads the log's events of `types` below the commit horizon, in commit order, in one
/// streamed statement, and hands each batch of `limit` events to every model. Each model
/// then catches up from its checkpoint at the swap. Answers the events read.
async fn read_log(
    pool: &PgPool,
    types: &[&str],
    limit: i64,
    models: Vec<mpsc::Sender<Arc<Batch>>>,
) -> anyhow::Result<u64> {
    let limit = usize::try_from(limit)?;
    let mut conn = pool.acquire().await?;
    let horizon = engine::commit_horizon(&mut conn, &[]).await?;
    let mut events = std::pin::pin!(engine::stream_events(&mut conn, types, horizon));
    let mut batch = Vec::with_capacity(limit);
    let mut read = 0_u64;
    loop {
        let event = events.try_next().await?;
        let end = event.is_none();
        batch.extend(event);
        if batch.len() < limit && !end {
            continue;
        }
        let Some(last) = batch.last().map(|event| event.position) else { return Ok(read) };
        read += batch.len() as u64;
        let full = Arc::new(Batch { events: std::mem::replace(&mut batch, Vec::with_capacity(limit)), last });
        for model in &models {
            // A model that failed dropped its receiver; its error is the one to report.
            if model.send(Arc::clone(&full)).await.is_err() {
                return Ok(read);
            }
        }
        if end {
            return Ok(read);
        }
    }
}

/// Fills the model's next schema from the batches: through its fold when it has one,
/// otherwise batch by batch. Answers the events applied.
async fn fill(
    pool: &PgPool,
    projection: &dyn Projection,
    next: &Next,
    batches: mpsc::Receiver<Arc<Batch>>,
    window: u64,
) -> anyhow::Result<u64> {
    if projection.fold().is_some() {
        fill_folded(pool, projection, next, batches, window).await
    } else {
        fill_in_batches(pool, projection, next, batches).await
    }
}

/// Folds the model's share of the batches in memory, one fold per business, and writes the
/// folds in one transaction every `window` events and once the log is read: each
/// table is written once per window, in a few statements, instead of once per batch, and a
/// business's first window is copied into the empty tables (issue 15 item 4). The folding
/// runs off the async threads, so that the models fold side by side while the reader reads.
///
/// A business whose event cannot be folded, or whose fold cannot be written, is stuck from
/// its first event of the window (ADR 0022): the rest of its events are skipped and every
/// other business's are rebuilt.
async fn fill_folded(
    pool: &PgPool,
    projection: &dyn Projection,
    next: &Next,
    mut batches: mpsc::Receiver<Arc<Batch>>,
    window: u64,
) -> anyhow::Result<u64> {
    let types = projection.aggregate_types();
    let mut folds: BTreeMap<i64, Box<dyn Fold>> = BTreeMap::new();
    let mut window_start: BTreeMap<i64, Position> = BTreeMap::new();
    let mut written: BTreeSet<i64> = BTreeSet::new();
    let mut stuck: Vec<StuckAt> = Vec::new();
    let (mut applied, mut pending, mut last) = (0_u64, 0_u64, None);
    while let Some(batch) = batches.recv().await {
        let own = |event: &&StoredEvent| types.contains(&event.aggregate_type.as_str());
        for event in batch.events.iter().filter(own) {
            if stuck.iter().any(|at| at.business_id == event.business_id()) {
                continue;
            }
            window_start.entry(event.business_id()).or_insert(event.position);
            if let Entry::Vacant(vacant) = folds.entry(event.business_id()) {
                vacant.insert(projection.fold().context("a model with a fold has one for each business")?);
            }
        }
        let name = projection.name();
        let newest = batch.last;
        let skipped: BTreeSet<i64> = stuck.iter().map(|at| at.business_id).collect();
        let (returned, folded, failed) = tokio::task::spawn_blocking(move || {
            let mut folds = folds;
            let (mut folded, mut failed) = (0_u64, Vec::new());
            for event in batch.events.iter().filter(own) {
                let Some(fold) = folds.get_mut(&event.business_id()) else { continue };
                if skipped.contains(&event.business_id()) {
                    continue;
                }
                match fold.add(event) {
                    Ok(()) => folded += 1,
                    Err(error) => {
                        let error = error
                            .context(format!("{name} folding {} at {}", event.event_type, event.position));
                        folds.remove(&event.business_id());
                        failed.push((event.clone(), error));
                    }
                }
            }
            (folds, folded, failed)
        })
        .await?;
        folds = returned;
        for (event, error) in failed {
            // Its fold of this window is dropped: its rows wait from the window's first event.
            let mut at = StuckAt::at(&event, &error);
            at.position = window_start.get(&event.business_id()).copied().unwrap_or(event.position);
            stuck.push(at);
        }
        if folded == 0 {
            // The checkpoint stays behind: the swap's catch-up reads only the model's own events.
            continue;
        }
        (applied, pending, last) = (applied + folded, pending + folded, Some(newest));
        next.bar.inc(folded);
        if pending >= window {
            let starts = std::mem::take(&mut window_start);
            write_window(
                pool,
                projection,
                next,
                std::mem::take(&mut folds),
                &starts,
                &mut written,
                &mut stuck,
                newest,
            )
            .await?;
            pending = 0;
        }
    }
    if let Some(last) = last.filter(|_| pending > 0) {
        write_window(pool, projection, next, folds, &window_start, &mut written, &mut stuck, last).await?;
    } else if !stuck.is_empty() {
        let mut conn = pool.acquire().await?;
        stuck::record(&mut conn, projection.name(), &next.schema, &stuck).await?;
    }
    Ok(applied)
}

/// Writes a window's folds in a transaction of its own, with the checkpoint at `last`, and
/// records the businesses stuck so far: those whose events did not fold (`stuck`), and those
/// whose fold this window could not write, from their first event of the window (`starts`).
#[allow(clippy::too_many_arguments)]
async fn write_window(
    pool: &PgPool,
    projection: &dyn Projection,
    next: &Next,
    folds: BTreeMap<i64, Box<dyn Fold>>,
    starts: &BTreeMap<i64, Position>,
    written: &mut BTreeSet<i64>,
    stuck: &mut Vec<StuckAt>,
    last: Position,
) -> anyhow::Result<()> {
    let folds = folds
        .into_iter()
        .map(|(business, fold)| {
            let tables = if written.insert(business) {
                Tables::Empty { business_id: business }
            } else {
                Tables::Filled
            };
            (business, fold, tables)
        })
        .collect();
    let mut tx = pool.begin().await?;
    // Not waiting for the WAL flush: as in `fill_in_batches`.
    sqlx::query("set local synchronous_commit = off").execute(&mut *tx).await?;
    let failed = engine::write_folds(&mut tx, projection, &next.schema, folds, last).await?;
    for (business, error) in failed {
        stuck.push(StuckAt::from(business, starts.get(&business).copied().unwrap_or(last), &error));
    }
    stuck::record(&mut tx, projection.name(), &next.schema, stuck).await?;
    tx.commit().await?;
    Ok(())
}

/// Applies the model's share of each batch in a transaction of its own; a batch that fails
/// is applied again business by business (ADR 0022), and a stuck business's later events
/// are skipped. Answers the events applied.
async fn fill_in_batches(
    pool: &PgPool,
    projection: &dyn Projection,
    next: &Next,
    mut batches: mpsc::Receiver<Arc<Batch>>,
) -> anyhow::Result<u64> {
    let types = projection.aggregate_types();
    let mut applied = 0_u64;
    let mut stuck: BTreeSet<i64> = BTreeSet::new();
    while let Some(batch) = batches.recv().await {
        let own: Vec<StoredEvent> = batch
            .events
            .iter()
            .filter(|event| {
                types.contains(&event.aggregate_type.as_str()) && !stuck.contains(&event.business_id())
            })
            .cloned()
            .collect();
        if own.is_empty() {
            // The checkpoint stays behind: the swap's catch-up reads only the model's own events.
            continue;
        }
        let mut care = Care::AtOnce;
        let newly_stuck = loop {
            let mut tx = pool.begin().await?;
            // Not waiting for the WAL flush: the next schema is invisible until the swap, whose
            // commit flushes everything before it, and a crash makes the rebuild start over.
            sqlx::query("set local synchronous_commit = off").execute(&mut *tx).await?;
            match engine::apply_events(&mut tx, projection, &next.schema, &own, batch.last, care).await {
                Ok(newly_stuck) => {
                    tx.commit().await?;
                    break newly_stuck;
                }
                Err(error) if care == Care::AtOnce && !stuck::is_transient(&error) => {
                    tx.rollback().await?;
                    care = Care::ByBusiness;
                }
                Err(error) => return Err(error),
            }
        };
        stuck.extend(newly_stuck);
        applied += own.len() as u64;
        next.bar.inc(own.len() as u64);
    }
    Ok(applied)
}

/// Builds the full tables' indexes and swaps the schema in, with whatever came in since the
/// shared read.
async fn finish(
    pool: &PgPool,
    projection: &dyn Projection,
    next: Next,
    mut events: u64,
    limit: i64,
    started: Instant,
) -> anyhow::Result<RebuildReport> {
    let live = engine::live_schema(projection);
    let schema = next.schema;
    // Built once from the full tables, which is faster than keeping them up to date row by
    // row; before the swap, so that the live model is not held up meanwhile. Side by side,
    // each on a connection of its own: a model's last index no longer waits for its first.
    try_join_all(next.deferred.iter().map(|definition| sqlx::query(definition).execute(pool))).await?;

    // The swap: from here until commit the live worker waits on the checkpoint lock.
    let mut tx = pool.begin().await?;
    let live_exists = engine::schema_exists(&mut tx, &live).await?;
    if live_exists {
        engine::lock_checkpoint(&mut tx, &live).await?;
    }
    let checkpoint = loop {
        let outcome = engine::apply_batch(&mut tx, projection, &schema, limit).await?;
        events += outcome.events as u64;
        next.bar.inc(outcome.events as u64);
        if (outcome.events as i64) < limit {
            break outcome.checkpoint;
        }
    };
    if live_exists {
        sqlx::query(&format!("drop schema {live} cascade")).execute(&mut *tx).await?;
    }
    sqlx::query(&format!("alter schema {schema} rename to {live}")).execute(&mut *tx).await?;
    // Any business's rows may differ from the old model's (a rebuild follows a fix): readers
    // that keep answers (query-api's day lists) and open agendas look again.
    let swapped = BatchCommitted { model: projection.name().to_owned(), checkpoint, changed: Changed::Every };
    sqlx::query("select pg_notify($1, $2)")
        .bind(projection::CHANNEL)
        .bind(swapped.to_string())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    next.bar.finish();

    let report = RebuildReport { events, seconds: started.elapsed().as_secs_f64() };
    tracing::info!(
        model = projection.name(),
        events = report.events,
        seconds = format!("{:.2}", report.seconds),
        events_per_second = format!("{:.0}", report.rate()),
        "rebuilt and swapped in"
    );
    Ok(report)
}

/// Drops the secondary indexes of `model`'s next `schema` (those that no constraint and no
/// `on conflict` needs: not unique, backing no constraint; and none that the building
/// statements look rows up by, `LOOKED_UP_WHILE_BUILDING`) and answers their definitions,
/// to build them again once the tables are full.
pub async fn defer_indexes(
    conn: &mut sqlx::PgConnection,
    model: &str,
    schema: &str,
) -> anyhow::Result<Vec<String>> {
    let indexes: Vec<(String, String)> = sqlx::query_as(
        "select c.relname::text, pg_get_indexdef(i.indexrelid)
           from pg_index i join pg_class c on c.oid = i.indexrelid
          where c.relnamespace = $1::regnamespace and not i.indisunique
            and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
          order by 1",
    )
    .bind(schema)
    .fetch_all(&mut *conn)
    .await?;
    let indexes: Vec<(String, String)> = indexes
        .into_iter()
        .filter(|(name, _)| !navalha_read_models::LOOKED_UP_WHILE_BUILDING.contains(&(model, name.as_str())))
        .collect();
    for (name, _) in &indexes {
        sqlx::query(&format!("drop index {schema}.{name}")).execute(&mut *conn).await?;
    }
    Ok(indexes.into_iter().map(|(_, definition)| definition).collect())
}
