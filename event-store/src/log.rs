//! The event store as commands use it, over sqlx (ADR 0016): read a stream, append to it in
//! one statement. cqrs-es's `Aggregate` still decides (its `handle` and `apply`); this
//! replaces postgres-es's repository, which spent five round trips where one does: a
//! transaction's `BEGIN`, an `INSERT` per event and `COMMIT`, then a query for the position.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use cqrs_es::{Aggregate, DomainEvent};
use navalha_domain::event_payload::upcast;
use navalha_platform::position::Position;
use serde::Deserialize;
use sqlx::PgPool;

use crate::replayed::{Kept, Replayed};

/// The event log as commands use it: the database, the aggregates as last replayed
/// ([`Replayed`]), and the projector's waker, told of every append.
#[derive(Clone)]
pub struct EventLog {
    /// The database.
    pub pool: PgPool,
    /// Tells the projector about each commit of a command.
    pub waker: ProjectorWaker,
    replayed: Arc<Replayed>,
}

/// Wakes the projector after commits with `NOTIFY navalha_events`, sent outside the events'
/// transaction: a NOTIFY inside it takes a database-wide lock held through the commit's WAL
/// flush, which would serialize every command (ADR 0007). Wake-ups that arrive while one is
/// being sent are merged into the next, so a burst of commits costs a few notifications.
///
/// The payload names the aggregate types appended since the last notification
/// (`Appointment,Client`): a projector worker whose model reads none of them need not look
/// for work (`projector/src/worker.rs`). An empty payload means "look".
#[derive(Clone)]
pub struct ProjectorWaker {
    signal: tokio::sync::mpsc::Sender<()>,
    /// The types appended since the last notification was sent.
    pending: Arc<std::sync::Mutex<BTreeSet<&'static str>>>,
}

/// Sends one wake-up on the waker's own connection, opening it first if needed.
async fn notify(
    pool: &PgPool,
    connection: &mut Option<sqlx::PgConnection>,
    payload: &str,
) -> Result<(), sqlx::Error> {
    let connection = match connection {
        Some(connection) => connection,
        None => connection.insert(pool.acquire().await?.detach()),
    };
    sqlx::query("select pg_notify('navalha_events', $1)").bind(payload).execute(connection).await?;
    Ok(())
}

impl ProjectorWaker {
    /// Starts the task that sends the notifications; it ends when the last waker is dropped.
    pub fn start(pool: PgPool) -> Self {
        let (signal, mut receiver) = tokio::sync::mpsc::channel(1);
        let pending: Arc<std::sync::Mutex<BTreeSet<&'static str>>> = Arc::default();
        let taken = Arc::clone(&pending);
        tokio::spawn(async move {
            // A connection of its own, outside the pool: a wake-up never queues behind
            // commands for a connection, and it never comes from a backend that appended
            // events (the test that tells "after the commit" from "inside it" relies on that).
            let mut connection: Option<sqlx::PgConnection> = None;
            while receiver.recv().await.is_some() {
                // A type added after this take comes with a signal of its own.
                let types =
                    std::mem::take(&mut *taken.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
                if types.is_empty() {
                    continue;
                }
                let payload = types.into_iter().collect::<Vec<_>>().join(",");
                if let Err(error) = notify(&pool, &mut connection, &payload).await {
                    // The projector polls anyway; a lost wake-up only delays it.
                    tracing::warn!(%error, "could not wake the projector");
                    connection = None;
                }
            }
        });
        Self { signal, pending }
    }

    /// Asks for a notification naming `aggregate_type`; never waits.
    pub fn wake(&self, aggregate_type: &'static str) {
        self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(aggregate_type);
        let _ = self.signal.try_send(());
    }
}

/// A stream as read: the aggregate replayed, its last sequence and its last event's position.
#[derive(Debug, Clone)]
pub struct Stream<A> {
    /// The aggregate, replayed from its events.
    pub aggregate: A,
    /// The last event's sequence, 0 for an empty stream.
    pub sequence: i64,
    /// The last event's position, `None` for an empty stream.
    pub position: Option<Position>,
}

impl<A: Default> Default for Stream<A> {
    /// An empty stream: a new aggregate.
    fn default() -> Self {
        Self { aggregate: A::default(), sequence: 0, position: None }
    }
}

/// Why an append failed.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// Another command appended to the stream since it was read (the events' primary key).
    #[error("the stream moved on since it was read")]
    Concurrent,
    /// PostgreSQL refused it (a trigger or constraint), or could not be reached.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// An event or the metadata could not be serialized.
    #[error(transparent)]
    Serialization(#[from] serde_json::Error),
}

/// A stream's events as read to bring its kept state up to date: the kept last event itself
/// (without its payload, to prove the state current), then every later one.
#[derive(Default)]
pub struct Unread {
    kept: Option<Kept>,
    events: Vec<(i64, Position, serde_json::Value)>,
}

type Row = (
    String,
    String,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<String>,
    Option<String>,
    Option<serde_json::Value>,
);

/// Events read, by stream: sequence, position, and the payload unless it is the kept one's.
type ByStream = HashMap<(&'static str, String), Vec<(i64, Position, Option<serde_json::Value>)>>;

impl EventLog {
    /// The event log of `pool`, its projector woken through `waker`.
    pub fn new(pool: PgPool, waker: ProjectorWaker) -> Self {
        Self { pool, waker, replayed: Arc::default() }
    }

    /// Reads the streams `wanted` (aggregate type and id) in one round trip, each from its kept
    /// state on. With `business_id`, a stream of another business is left out, as if it did
    /// not exist. A kept state its stream no longer matches is dropped and the stream read
    /// again whole (a second round trip, which only a restored database needs).
    pub async fn unread(
        &self,
        business_id: Option<i64>,
        wanted: &[(&'static str, &str)],
    ) -> Result<HashMap<(&'static str, String), Unread>, sqlx::Error> {
        // A stream named twice would be read twice, its events replayed twice.
        let mut distinct: Vec<(&'static str, &str)> = Vec::with_capacity(wanted.len());
        for stream in wanted {
            if !distinct.contains(stream) {
                distinct.push(*stream);
            }
        }
        let wanted = &distinct[..];
        let mut kept: Vec<Option<Kept>> = wanted.iter().map(|(t, id)| self.replayed.get(t, id)).collect();
        let mut found = self.read_after(business_id, wanted, &kept).await?;
        let stale: Vec<usize> = (0..wanted.len())
            .filter(|&i| {
                let (aggregate_type, id) = wanted[i];
                let Some(state) = &kept[i] else { return false };
                let matches = found.get(&(aggregate_type, id.to_owned())).is_some_and(|rows| {
                    rows.first().is_some_and(|&(sequence, position, _)| {
                        sequence == state.sequence && position == state.position
                    })
                });
                // Out of the business reads as absent: no state of it is used then.
                let absent = business_id.is_some() && !found.contains_key(&(aggregate_type, id.to_owned()));
                !matches && !absent
            })
            .collect();
        if !stale.is_empty() {
            tracing::warn!(
                streams = stale.len(),
                "kept aggregate states no longer match their streams; read whole"
            );
            let again: Vec<(&'static str, &str)> = stale.iter().map(|&i| wanted[i]).collect();
            for &i in &stale {
                self.replayed.forget(wanted[i].0, wanted[i].1);
                kept[i] = None;
            }
            let mut whole = self.read_after(business_id, &again, &vec![None; again.len()]).await?;
            for (aggregate_type, id) in again {
                let key = (aggregate_type, id.to_owned());
                match whole.remove(&key) {
                    Some(rows) => found.insert(key, rows),
                    None => found.remove(&key),
                };
            }
        }
        let mut unread = HashMap::with_capacity(wanted.len());
        for (i, (aggregate_type, id)) in wanted.iter().enumerate() {
            let key = (*aggregate_type, (*id).to_owned());
            let Some(rows) = found.remove(&key) else { continue };
            let after = kept[i].as_ref().map_or(0, |state| state.sequence);
            let events = rows
                .into_iter()
                .filter(|(sequence, ..)| *sequence > after)
                .filter_map(|(sequence, position, payload)| {
                    payload.map(|payload| (sequence, position, payload))
                })
                .collect();
            unread.insert(key, Unread { kept: kept[i].take(), events });
        }
        Ok(unread)
    }

    /// The events of `wanted` from each kept state's sequence on (all of a stream not kept),
    /// by stream. With `business_id`, a stream of that business is present even when it has
    /// no such event (with no rows), and one of another business is absent.
    async fn read_after(
        &self,
        business_id: Option<i64>,
        wanted: &[(&'static str, &str)],
        kept: &[Option<Kept>],
    ) -> Result<ByStream, sqlx::Error> {
        let types: Vec<&str> = wanted.iter().map(|(t, _)| *t).collect();
        let ids: Vec<&str> = wanted.iter().map(|(_, id)| *id).collect();
        let after: Vec<i64> = kept.iter().map(|k| k.as_ref().map_or(0, |state| state.sequence)).collect();
        // The kept last event comes back without its payload: only its position is compared.
        let rows: Vec<Row> = match business_id {
            Some(business_id) => sqlx::query_as(
                "select w.aggregate_type, w.aggregate_id, e.sequence, e.tx_id::text::bigint, e.global_position,
                        e.event_type, e.event_version, case when e.sequence > w.after then e.payload end
                   from unnest($1::text[], $2::text[], $3::bigint[]) as w (aggregate_type, aggregate_id, after)
                   join aggregate_business b
                     on b.aggregate_type = w.aggregate_type and b.aggregate_id = w.aggregate_id
                    and b.business_id = $4
                   left join events e
                     on e.aggregate_type = w.aggregate_type and e.aggregate_id = w.aggregate_id
                    and e.sequence >= w.after
                  order by w.aggregate_type, w.aggregate_id, e.sequence",
            )
            .bind(&types)
            .bind(&ids)
            .bind(&after)
            .bind(business_id),
            None => sqlx::query_as(
                "select e.aggregate_type, e.aggregate_id, e.sequence, e.tx_id::text::bigint, e.global_position,
                        e.event_type, e.event_version, case when e.sequence > w.after then e.payload end
                   from unnest($1::text[], $2::text[], $3::bigint[]) as w (aggregate_type, aggregate_id, after)
                   join events e
                     on e.aggregate_type = w.aggregate_type and e.aggregate_id = w.aggregate_id
                    and e.sequence >= w.after
                  order by e.aggregate_type, e.aggregate_id, e.sequence",
            )
            .bind(&types)
            .bind(&ids)
            .bind(&after),
        }
        .fetch_all(&self.pool)
        .await?;
        let mut found = ByStream::with_capacity(wanted.len());
        for (aggregate_type, id, sequence, tx_id, global_position, event_type, version, payload) in rows {
            let Some(&(static_type, _)) = wanted.iter().find(|(t, i)| *t == aggregate_type && *i == id)
            else {
                continue;
            };
            // A payload of an older version is brought up to today's before anything reads it.
            let payload = match (payload, event_type, version) {
                (Some(payload), Some(event_type), Some(version))
                    if version != navalha_domain::EVENT_VERSION =>
                {
                    Some(
                        upcast(static_type, &event_type, &version, payload)
                            .map_err(|e| sqlx::Error::Decode(e.into()))?,
                    )
                }
                (payload, ..) => payload,
            };
            let rows = found.entry((static_type, id)).or_default();
            if let (Some(sequence), Some(tx_id), Some(global_position)) = (sequence, tx_id, global_position) {
                rows.push((sequence, Position { tx_id, global_position }, payload));
            }
        }
        Ok(found)
    }

    /// Replays what [`EventLog::unread`] read of one stream onto its kept state, and keeps
    /// the result for the next command.
    pub fn replay<A>(&self, aggregate_id: &str, unread: Option<&Unread>) -> Result<Stream<A>, anyhow::Error>
    where
        A: Aggregate + Clone + 'static,
    {
        let kept = unread.and_then(|unread| unread.kept.as_ref());
        let mut stream = match kept {
            Some(kept) => kept.state.downcast_ref::<Stream<A>>().cloned().ok_or_else(|| {
                anyhow::anyhow!("the kept state of {} {aggregate_id} is of another type", A::TYPE)
            })?,
            None => Stream::default(),
        };
        let events = unread.map_or(&[][..], |unread| &unread.events[..]);
        if events.is_empty() {
            return Ok(stream);
        }
        for (sequence, position, payload) in events {
            let event = A::Event::deserialize(payload)
                .map_err(|error| anyhow::anyhow!("replaying {} {aggregate_id}: {error}", A::TYPE))?;
            stream.aggregate.apply(event);
            stream.sequence = *sequence;
            stream.position = Some(*position);
        }
        self.keep(aggregate_id, &stream);
        Ok(stream)
    }

    /// Keeps `stream` as `A`/`aggregate_id`'s latest replayed state (an empty one is not kept).
    pub fn keep<A>(&self, aggregate_id: &str, stream: &Stream<A>)
    where
        A: Aggregate + Clone + 'static,
    {
        if let Some(position) = stream.position {
            let kept = Kept { sequence: stream.sequence, position, state: Arc::new(stream.clone()) };
            self.replayed.put(A::TYPE, aggregate_id, kept);
        }
    }

    /// Reads and replays the stream `A::TYPE`/`aggregate_id` from its kept state, in one round
    /// trip. No business is checked: the command's handler did.
    pub async fn load<A>(&self, aggregate_id: &str) -> Result<Stream<A>, anyhow::Error>
    where
        A: Aggregate + Clone + 'static,
    {
        let unread = self.unread(None, &[(A::TYPE, aggregate_id)]).await?;
        self.replay(aggregate_id, unread.get(&(A::TYPE, aggregate_id.to_owned())))
    }
}

/// Appends `events` after sequence `after`, all with `metadata`, in one statement (its own
/// transaction: the triggers that claim slots and unique values run inside it). Answers the
/// last event's position. Stored as postgres-es stored them, so old and new rows read alike.
pub async fn append<A: Aggregate>(
    pool: &PgPool,
    aggregate_id: &str,
    after: i64,
    events: &[A::Event],
    metadata: &serde_json::Value,
) -> Result<Position, AppendError> {
    append_streams::<A>(pool, &[(aggregate_id, after, events)], metadata)
        .await?
        .into_iter()
        .map(|(_, position)| position)
        .max_by_key(|position| position.global_position)
        .ok_or(AppendError::Database(sqlx::Error::RowNotFound))
}

/// [`append`] to several streams of one aggregate type in one statement: all of them or
/// none (a regulars' series books its occurrences at once, issue 45). Answers each stream's
/// last position, by aggregate id.
pub async fn append_streams<A: Aggregate>(
    pool: &PgPool,
    streams: &[(&str, i64, &[A::Event])],
    metadata: &serde_json::Value,
) -> Result<Vec<(String, Position)>, AppendError> {
    let rows: usize = streams.iter().map(|(_, _, events)| events.len()).sum();
    let mut ids = Vec::with_capacity(rows);
    let mut sequences = Vec::with_capacity(rows);
    let mut types = Vec::with_capacity(rows);
    let mut versions = Vec::with_capacity(rows);
    let mut payloads = Vec::with_capacity(rows);
    for (aggregate_id, after, events) in streams {
        for (n, event) in events.iter().enumerate() {
            ids.push((*aggregate_id).to_owned());
            sequences.push(after + 1 + n as i64);
            types.push(event.event_type());
            versions.push(event.event_version());
            payloads.push(serde_json::to_value(event)?);
        }
    }
    let appended: Result<Vec<(String, i64, i64)>, sqlx::Error> = sqlx::query_as(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata,
                             recorded_at)
         select $1, e.aggregate_id, e.sequence, e.event_type, e.event_version, e.payload, $7,
                now() + make_interval(secs => $8)
           from unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::jsonb[]) with ordinality
                as e (aggregate_id, sequence, event_type, event_version, payload, n)
          order by e.n
         returning aggregate_id, tx_id::text::bigint, global_position",
    )
    .bind(A::TYPE)
    .bind(&ids)
    .bind(&sequences)
    .bind(&types)
    .bind(&versions)
    .bind(&payloads)
    .bind(metadata)
    // The commit's clock, placed with the services' (ADR 0021; zero in production).
    .bind(navalha_platform::clock::offset_seconds())
    .fetch_all(pool)
    .await;
    match appended {
        Ok(rows) => {
            let mut last: Vec<(String, Position)> = Vec::with_capacity(streams.len());
            for (aggregate_id, tx_id, global_position) in rows {
                let position = Position { tx_id, global_position };
                match last.iter_mut().find(|(id, _)| *id == aggregate_id) {
                    Some((_, kept)) if kept.global_position < global_position => *kept = position,
                    Some(_) => {}
                    None => last.push((aggregate_id, position)),
                }
            }
            Ok(last)
        }
        Err(error) if is_stream_conflict(&error) => Err(AppendError::Concurrent),
        Err(error) => Err(error.into()),
    }
}

/// Whether the append lost the race for a sequence number (the events' primary key).
fn is_stream_conflict(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|db| db.code().as_deref() == Some("23505") && db.constraint() == Some("events_pkey"))
}
