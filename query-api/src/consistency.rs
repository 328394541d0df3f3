//! Read-your-writes: waiting until a read model has applied a position.

use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use navalha_platform::http::header_value;
use navalha_platform::position::{Position, CONSISTENCY_HEADER, POSITION_HEADER};
use navalha_platform::projection::{self, BatchCommitted};
use navalha_platform::ApiError;
use sqlx::postgres::PgListener;
use sqlx::PgPool;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{broadcast, watch};

use navalha_read_models::ReadModel;

use crate::kept::HearsNotices;

/// The longest a query waits for the projector.
pub const MAX_WAIT: Duration = Duration::from_secs(2);
/// How often a waiting query looks at the checkpoint even without a notification.
const POLL: Duration = Duration::from_millis(50);
/// How long a model seen built by this code's version is trusted to stay so.
pub const RECHECK_CURRENT: Duration = Duration::from_secs(1);
/// A read of a model the projector is rebuilding for another version of the code.
pub const MSG_MODEL_REBUILDING: &str = "Os dados estão sendo atualizados. Tente novamente em instantes.";

/// How long the businesses stuck in some model (ADR 0022) are trusted before they are read
/// again.
const RECHECK_STUCK: Duration = Duration::from_secs(1);

/// The models each stuck business waits in (ADR 0022).
type StuckModels = HashMap<i64, Vec<String>>;

/// How many batch notices an open agenda may fall behind before it is told to look again
/// at everything (see [`crate::live`]).
const NOTICES_BUFFERED: usize = 256;

/// Wakes waiting queries when the projector commits a batch, and passes each batch's notice
/// on to the open agendas. The projector notifies `navalha_projection` at each commit; a
/// poll covers lost notifications.
#[derive(Clone)]
pub struct ProjectionWatch {
    pool: PgPool,
    commits: watch::Receiver<u64>,
    notices: broadcast::Sender<Arc<BatchCommitted>>,
    /// A streaming replica's log may trail the position a client got from the primary.
    replica: bool,
    /// Each model's version as this build reads it ([`ReadModel::version`]).
    versions: Arc<HashMap<&'static str, String>>,
    /// When each model was last seen built by this build's version.
    seen_current: Arc<Mutex<HashMap<String, Instant>>>,
    /// The models refused since they were last current: each refusal is logged once.
    refused: Arc<Mutex<HashSet<String>>>,
    /// The businesses stuck in some model, and when that was read.
    stuck: Arc<Mutex<Option<(Instant, StuckModels)>>>,
    /// The reads waiting for the projector right now.
    waiting: Arc<AtomicUsize>,
}

impl ProjectionWatch {
    /// Starts the listening task. `hearers` hear each notice first, and whether notices
    /// are heard at all (answers kept between reads, `crate::kept`).
    pub async fn start(pool: PgPool, hearers: Vec<Arc<dyn HearsNotices>>) -> anyhow::Result<Self> {
        let (sender, commits) = watch::channel(0_u64);
        let (notices, _) = broadcast::channel(NOTICES_BUFFERED);
        let replica: bool = sqlx::query_scalar("select pg_is_in_recovery()").fetch_one(&pool).await?;
        let listen_pool = pool.clone();
        let announce = notices.clone();
        tokio::spawn(async move {
            let mut again = false;
            loop {
                if let Err(error) = listen(&listen_pool, &sender, &announce, &hearers, again).await {
                    tracing::warn!(%error, "checkpoint listener failed, reconnecting");
                }
                for hearer in &hearers {
                    hearer.listening(false);
                }
                again = true;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
        let versions = navalha_read_models::ALL.iter().map(|model| (model.name, model.version())).collect();
        Ok(Self {
            pool,
            commits,
            notices,
            replica,
            versions: Arc::new(versions),
            seen_current: Arc::default(),
            stuck: Arc::default(),
            refused: Arc::default(),
            waiting: Arc::default(),
        })
    }

    /// The models whose rows of `business` wait at an event the projector could not apply
    /// (ADR 0022): read at most every [`RECHECK_STUCK`]; on a failed read, what was known.
    pub async fn stuck_in(&self, business: i64) -> Vec<String> {
        let known = |stuck: &Option<(Instant, StuckModels)>| {
            stuck.as_ref().map(|(_, by_business)| by_business.get(&business).cloned().unwrap_or_default())
        };
        {
            let mut stuck = self.stuck.lock().unwrap_or_else(PoisonError::into_inner);
            match stuck.as_mut() {
                Some((at, _)) if at.elapsed() < RECHECK_STUCK => return known(&stuck).unwrap_or_default(),
                // This request reads them again; the others meanwhile answer with what was
                // known, rather than all reading at once.
                Some((at, _)) => *at = Instant::now(),
                None => {}
            }
        }
        match self.read_stuck().await {
            Ok(by_business) => {
                let models = by_business.get(&business).cloned().unwrap_or_default();
                *self.stuck.lock().unwrap_or_else(PoisonError::into_inner) =
                    Some((Instant::now(), by_business));
                models
            }
            Err(error) => {
                tracing::warn!(%error, "could not read the stuck businesses");
                known(&self.stuck.lock().unwrap_or_else(PoisonError::into_inner)).unwrap_or_default()
            }
        }
    }

    async fn read_stuck(&self) -> sqlx::Result<StuckModels> {
        // Only the live models that have the table (the projector adds it when it starts).
        let schemas: Vec<String> = sqlx::query_scalar(
            "select n.nspname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
              where c.relname = 'stuck' and n.nspname like 'rm\\_%' and n.nspname not like '%\\_next'
              order by 1",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut by_business: HashMap<i64, Vec<String>> = HashMap::new();
        if schemas.is_empty() {
            return Ok(by_business);
        }
        let union = schemas
            .iter()
            .map(|schema| format!("select '{}' as model, business_id from {schema}.stuck", &schema[3..]))
            .collect::<Vec<_>>()
            .join(" union all ");
        let rows: Vec<(String, i64)> = sqlx::query_as(&union).fetch_all(&self.pool).await?;
        for (model, business) in rows {
            by_business.entry(business).or_default().push(model);
        }
        Ok(by_business)
    }

    /// Refuses, with a 503, to read a model built by another version of the code: during a
    /// deployment the projector rebuilds a model whose tables or stored states changed, and
    /// until it swaps the new one in, the old rows may not be what this code reads. Checked
    /// at most every [`RECHECK_CURRENT`] per model.
    pub async fn ensure_current(&self, model: &ReadModel) -> Result<(), ApiError> {
        let model = model.name;
        let Some(expected) = self.versions.get(model) else { return Ok(()) };
        let recently = |seen: &HashMap<String, Instant>| {
            seen.get(model).is_some_and(|at| at.elapsed() < RECHECK_CURRENT)
        };
        if recently(&self.seen_current.lock().unwrap_or_else(PoisonError::into_inner)) {
            return Ok(());
        }
        let built: String = sqlx::query_scalar(&format!("select schema_version from rm_{model}.checkpoint"))
            .fetch_one(&self.pool)
            .await?;
        let mut refused = self.refused.lock().unwrap_or_else(PoisonError::into_inner);
        if &built != expected {
            if refused.insert(model.to_owned()) {
                tracing::warn!(
                    model,
                    built,
                    expected,
                    "read model built by another version: reads answer 503"
                );
            }
            return Err(ApiError::Unavailable(MSG_MODEL_REBUILDING.to_owned()));
        }
        if refused.remove(model) {
            tracing::info!(model, "read model current again: reads answer");
        }
        drop(refused);
        self.seen_current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(model.to_owned(), Instant::now());
        Ok(())
    }

    /// The notices of the batches committed from now on.
    pub fn notices(&self) -> broadcast::Receiver<Arc<BatchCommitted>> {
        self.notices.subscribe()
    }

    /// The checkpoint of a live read model.
    pub async fn checkpoint(&self, model: &str) -> Result<Position, ApiError> {
        let (tx_id, global_position): (i64, i64) = sqlx::query_as(&format!(
            "select last_tx_id::text::bigint, last_position from rm_{model}.checkpoint"
        ))
        .fetch_one(&self.pool)
        .await?;
        Ok(Position { tx_id, global_position })
    }

    /// Whether `target` lies past the end of the log: no transaction has committed it, and
    /// none ever will (a forged or stale header). Never so on a replica, whose log may trail.
    async fn beyond_log_end(&self, target: Position) -> Result<bool, ApiError> {
        if self.replica {
            return Ok(false);
        }
        let (last_position, next_tx): (i64, i64) = sqlx::query_as(
            "select coalesce((select max(global_position) from events), 0),
                    pg_snapshot_xmax(pg_current_snapshot())::text::bigint",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(target.global_position > last_position || target.tx_id >= next_tx)
    }

    /// Whether `model` has none of its own events between `checkpoint` and `target`, every
    /// transaction up to `target`'s having ended: then the model already reads as of
    /// `target`. The projector moves the checkpoint of a model whose own events did not
    /// change only now and then (`live_batch` in the projector's engine), to spare a
    /// commit per model per write; this look answers the readers of such a model at once.
    /// The range is short: at most the events of about a second.
    async fn nothing_of_its_own(
        &self,
        model: &ReadModel,
        checkpoint: Position,
        target: Position,
    ) -> Result<bool, ApiError> {
        let types = model.aggregate_types;
        let idle: bool = sqlx::query_scalar(
            // Type by type, ordered with LIMIT 1 rather than NOT EXISTS: one probe each of
            // `events_by_type_in_commit_order` (see projector::engine::nothing_to_write).
            "select pg_snapshot_xmin(pg_current_snapshot()) > $3::text::xid8
                and (select true from unnest($5::text[]) as t (aggregate_type)
                      cross join lateral (
                           select 1 from events e
                            where e.aggregate_type = t.aggregate_type
                              and (e.tx_id, e.global_position) > ($1::text::xid8, $2)
                              and (e.tx_id, e.global_position) <= ($3::text::xid8, $4)
                            order by e.tx_id, e.global_position limit 1) first
                      limit 1) is null",
        )
        .bind(checkpoint.tx_id.to_string())
        .bind(checkpoint.global_position)
        .bind(target.tx_id.to_string())
        .bind(target.global_position)
        .bind(types)
        .fetch_one(&self.pool)
        .await?;
        Ok(idle)
    }

    /// Waits until `model` has applied `target`, at most [`MAX_WAIT`].
    pub async fn wait(&self, model: &ReadModel, target: Position) -> Result<Consistency, ApiError> {
        let started = Instant::now();
        self.wait_until(model, target, started, started + MAX_WAIT).await
    }

    /// How many reads are waiting for the projector right now: what the tests observe to
    /// know that a read waited, rather than answered before or without the projector.
    pub fn reads_waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// Waits until `model` has applied `target` or `deadline` passes; a position past the
    /// log's end is answered at once.
    async fn wait_until(
        &self,
        model: &ReadModel,
        target: Position,
        started: Instant,
        deadline: Instant,
    ) -> Result<Consistency, ApiError> {
        let mut commits = self.commits.clone();
        let mut log_end_checked = false;
        // Counted from the first sleep on: a read answered at once never waited.
        let mut waiting = None;
        loop {
            commits.mark_unchanged();
            let checkpoint = self.checkpoint(model.name).await?;
            if checkpoint >= target {
                return Ok(Consistency::Reached { waited: started.elapsed() });
            }
            if !log_end_checked {
                log_end_checked = true;
                if self.beyond_log_end(target).await? {
                    tracing::warn!(model = model.name, %target, "a read asked for a position past the log's end");
                    return Ok(Consistency::TimedOut { waited: started.elapsed() });
                }
            }
            if self.nothing_of_its_own(model, checkpoint, target).await? {
                return Ok(Consistency::Reached { waited: started.elapsed() });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                tracing::warn!(model = model.name, %target, "read model did not reach the position in time");
                return Ok(Consistency::TimedOut { waited: started.elapsed() });
            }
            waiting.get_or_insert_with(|| Waiting::counted_in(&self.waiting));
            let _ = tokio::time::timeout(left.min(POLL), commits.changed()).await;
        }
    }
}

/// One read counted in [`ProjectionWatch::reads_waiting`] while it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn counted_in(waiting: &'a AtomicUsize) -> Self {
        waiting.fetch_add(1, Ordering::SeqCst);
        Self(waiting)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn listen(
    pool: &PgPool,
    sender: &watch::Sender<u64>,
    notices: &broadcast::Sender<Arc<BatchCommitted>>,
    hearers: &[Arc<dyn HearsNotices>],
    again: bool,
) -> anyhow::Result<()> {
    // A streaming replica refuses LISTEN; there the 50 ms poll alone serves the waits, and
    // open agendas get no live changes (docs/operations.md).
    let replica: bool = sqlx::query_scalar("select pg_is_in_recovery()").fetch_one(pool).await?;
    if replica {
        tracing::info!("database is a replica: read-your-writes waits poll the checkpoints");
        return std::future::pending().await;
    }
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(projection::CHANNEL).await?;
    // After a failure (`again`), notices sent meanwhile were missed.
    listening_afresh(sender, notices, hearers, again);
    loop {
        // sqlx's listener reconnects by itself after a lost connection, and notices sent
        // meanwhile are lost: `try_recv` says so (`None`).
        let Some(notification) = listener.try_recv().await? else {
            tracing::warn!(
                "projection notices may have been lost while reconnecting: every reader looks again"
            );
            listening_afresh(sender, notices, hearers, true);
            continue;
        };
        match notification.payload().parse::<BatchCommitted>() {
            Ok(notice) => {
                for hearer in hearers {
                    hearer.changed(&notice.model, &notice.changed);
                }
                sender.send_modify(|commits| *commits += 1);
                // No receiver (no agenda open) is not an error: the notice is simply dropped.
                let _ = notices.send(Arc::new(notice));
            }
            Err(_) => {
                tracing::warn!(payload = notification.payload(), "unreadable projection notice");
                for hearer in hearers {
                    hearer.changed_unknown();
                }
                sender.send_modify(|commits| *commits += 1);
            }
        }
    }
}

/// Notices are heard from now on. When some may have been `missed` before, waiting reads
/// look at the checkpoints and open agendas fetch everything; the hearers forget what they
/// kept either way.
fn listening_afresh(
    sender: &watch::Sender<u64>,
    notices: &broadcast::Sender<Arc<BatchCommitted>>,
    hearers: &[Arc<dyn HearsNotices>],
    missed: bool,
) {
    for hearer in hearers {
        hearer.listening(true);
    }
    if missed {
        sender.send_modify(|commits| *commits += 1);
        let _ = notices.send(Arc::new(BatchCommitted::look_again()));
    }
}

/// Whether an answer reflects the position the client asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consistency {
    /// No position was asked for.
    NotAsked,
    /// The read model had applied the position.
    Reached {
        /// How long the query waited.
        waited: Duration,
    },
    /// The wait gave up; the answer may be older than the client's last change.
    TimedOut {
        /// How long the query waited.
        waited: Duration,
    },
}

impl Consistency {
    /// `X-Navalha-Consistency: reached; waited-ms=12` or `timeout; waited-ms=2000`.
    pub fn headers(self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        let value = match self {
            Consistency::NotAsked => return headers,
            Consistency::Reached { waited } => format!("reached; waited-ms={}", waited.as_millis()),
            Consistency::TimedOut { waited } => format!("timeout; waited-ms={}", waited.as_millis()),
        };
        headers.insert(CONSISTENCY_HEADER, header_value(&value));
        headers
    }
}

/// Tells a signed-in reader whose business is stuck in some model that the answer may lack
/// its latest changes (ADR 0022): `X-Navalha-Consistency` gains `stuck=<models>`, after
/// whatever the read's wait put there.
pub async fn say_when_stuck(
    axum::extract::State(watch): axum::extract::State<ProjectionWatch>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let seen = navalha_platform::auth::BusinessSeen::default();
    request.extensions_mut().insert(seen.clone());
    let mut response = next.run(request).await;
    if let Some(business) = seen.get() {
        let models = watch.stuck_in(business).await;
        if !models.is_empty() {
            let stuck = format!("stuck={}", models.join(","));
            let value = match response.headers().get(CONSISTENCY_HEADER).and_then(|v| v.to_str().ok()) {
                Some(read) => format!("{read}; {stuck}"),
                None => stuck,
            };
            response.headers_mut().insert(CONSISTENCY_HEADER, header_value(&value));
        }
    }
    response
}

/// The position a query must reflect, from the `X-Navalha-Position` header.
#[derive(Debug, Clone, Copy)]
pub struct ReadAfter(pub Option<Position>);

/// Documents the header on every handler that takes it (`params(ReadAfter)`).
impl utoipa::IntoParams for ReadAfter {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![navalha_platform::openapi::header_parameter(
            "X-Navalha-Position",
            &format!(
                "A position a command answered: the read waits (up to {} s) until the read model \
                 has applied it, so the caller reads its own change. The answer's \
                 X-Navalha-Consistency says `stale` when the wait ran out.",
                MAX_WAIT.as_secs()
            ),
            None,
        )]
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ReadAfter {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        match parts.headers.get(POSITION_HEADER) {
            None => Ok(Self(None)),
            Some(value) => value
                .to_str()
                .ok()
                .and_then(|text| text.parse().ok())
                .map(|position| Self(Some(position)))
                .ok_or_else(|| ApiError::BadRequest("Cabeçalho X-Navalha-Position inválido.".to_owned())),
        }
    }
}

impl ReadAfter {
    /// Waits, if a position was given, until `model` has applied it.
    pub async fn wait(self, watch: &ProjectionWatch, model: &ReadModel) -> Result<Consistency, ApiError> {
        watch.ensure_current(model).await?;
        match self.0 {
            None => Ok(Consistency::NotAsked),
            Some(position) => watch.wait(model, position).await,
        }
    }
}

impl ReadAfter {
    /// Waits for every model an answer reads, all within one [`MAX_WAIT`]; the answer is as
    /// fresh as the slowest.
    pub async fn wait_all(
        self,
        watch: &ProjectionWatch,
        models: &[&ReadModel],
    ) -> Result<Consistency, ApiError> {
        for model in models {
            watch.ensure_current(model).await?;
        }
        let Some(target) = self.0 else { return Ok(Consistency::NotAsked) };
        let started = Instant::now();
        let deadline = started + MAX_WAIT;
        let mut combined = Consistency::Reached { waited: Duration::ZERO };
        for model in models {
            combined = watch.wait_until(model, target, started, deadline).await?;
            if matches!(combined, Consistency::TimedOut { .. }) {
                break;
            }
        }
        Ok(combined)
    }
}
