//! Rebuilding a read model from the first event, while the old one keeps serving.
//!
//! The new tables are filled in the schema `rm_<name>_next`, batch by batch, without their
//! secondary indexes, which are built once the tables are full. Then one
//! transaction locks the live checkpoint (pausing the live worker), applies whatever came
//! in meanwhile, drops the old schema and renames the new one into its place. Readers see
//! the old model until that commit and the new one after it.

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use std::sync::OnceLock;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use sqlx::PgPool;

use crate::engine::{self, Projection};

/// Events per batch while rebuilding.
pub const REBUILD_BATCH: i64 = 5000;

/// What a rebuild did.
#[derive(Debug, Clone, Copy)]
pub struct RebuildReport {
    /// Events of the model applied.
    pub events: u64,
    /// Wall time in seconds.
    pub seconds: f64,
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
    // Boxed with an explicit `Send`: rustc cannot prove it through sqlx's higher-ranked
    // executor lifetimes when the future is spawned.
    Box::pin(rebuild_inner(pool, projection, show_progress))
}

async fn rebuild_inner(
    pool: &PgPool,
    projection: &dyn Projection,
    show_progress: bool,
) -> anyhow::Result<RebuildReport> {
    let started = Instant::now();
    let live = engine::live_schema(projection);
    let next = engine::next_schema(projection);

    let mut tx = pool.begin().await?;
    sqlx::query(&format!("drop schema if exists {next} cascade")).execute(&mut *tx).await?;
    engine::create_schema(&mut tx, projection, &next).await?;
    let deferred = defer_indexes(&mut tx, &next).await?;
    tx.commit().await?;

    let total: i64 = sqlx::query_scalar("select count(*) from events where aggregate_type = any($1)")
        .bind(projection.aggregate_types())
        .fetch_one(pool)
        .await?;
    let bar = if show_progress {
        // Several models rebuild at once: their bars stack instead of overwriting each other.
        static BARS: OnceLock<MultiProgress> = OnceLock::new();
        BARS.get_or_init(MultiProgress::new).add(ProgressBar::new(total.max(0) as u64))
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>20} [{bar:40.cyan/blue}] {pos}/{len} events  {per_sec}  eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(projection.name());

    let mut events = 0_u64;
    loop {
        let mut tx = pool.begin().await?;
        let outcome = engine::apply_batch(&mut tx, projection, &next, REBUILD_BATCH).await?;
        tx.commit().await?;
        events += outcome.events as u64;
        bar.inc(outcome.events as u64);
        if (outcome.events as i64) < REBUILD_BATCH {
            break;
        }
    }

    // Built once from the full tables, which is faster than keeping them up to date row by
    // row; before the swap, so that the live model is not held up meanwhile.
    let mut tx = pool.begin().await?;
    for definition in &deferred {
        sqlx::query(definition).execute(&mut *tx).await?;
    }
    tx.commit().await?;

    // The swap: from here until commit the live worker waits on the checkpoint lock.
    let mut tx = pool.begin().await?;
    let live_exists = engine::schema_exists(&mut tx, &live).await?;
    if live_exists {
        engine::lock_checkpoint(&mut tx, &live).await?;
    }
    loop {
        let outcome = engine::apply_batch(&mut tx, projection, &next, REBUILD_BATCH).await?;
        events += outcome.events as u64;
        bar.inc(outcome.events as u64);
        if (outcome.events as i64) < REBUILD_BATCH {
            break;
        }
    }
    if live_exists {
        sqlx::query(&format!("drop schema {live} cascade")).execute(&mut *tx).await?;
    }
    sqlx::query(&format!("alter schema {next} rename to {live}")).execute(&mut *tx).await?;
    tx.commit().await?;
    bar.finish();

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

/// Drops the secondary indexes of `schema` (those that no constraint and no `on conflict`
/// needs: not unique, backing no constraint) and answers their definitions, to build them
/// again once the tables are full.
async fn defer_indexes(conn: &mut sqlx::PgConnection, schema: &str) -> anyhow::Result<Vec<String>> {
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
    for (name, _) in &indexes {
        sqlx::query(&format!("drop index {schema}.{name}")).execute(&mut *conn).await?;
    }
    Ok(indexes.into_iter().map(|(_, definition)| definition).collect())
}
