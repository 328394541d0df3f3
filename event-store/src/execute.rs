//! A command run on its aggregate's stream: load (from the kept state), decide, append;
//! decided again on the new state when a concurrent command appended first.

use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use serde_json::Value;

use crate::log::{self, AppendError, EventLog, Stream};

/// How many times a command is decided before a concurrent change is answered.
pub const MAX_ATTEMPTS: usize = 3;

/// Why a command appended nothing.
#[derive(Debug)]
pub enum Refusal<E> {
    /// The aggregate refused it.
    Domain(E),
    /// Other commands kept changing the stream, [`MAX_ATTEMPTS`] times.
    Concurrent,
    /// PostgreSQL refused the append (a constraint, another business's aggregate, an
    /// outage): [`sqlstate`] tells which.
    Database(sqlx::Error),
    /// Anything else (a payload that does not serialize or replay).
    Internal(anyhow::Error),
}

/// Runs `command` on the aggregate `aggregate_id` and returns the stream afterwards: the
/// state the command left, and its position (`None` for an empty stream the command left
/// empty). `read`: the stream as the caller already read it (an empty one for an id just
/// taken from its sequence), decided on without reading it again; should it have moved on
/// since, the append loses the race for the next sequence and the retry reads it.
pub async fn execute<A>(
    log: &EventLog,
    aggregate_id: &str,
    command: A::Command,
    metadata: &Value,
    mut read: Option<Stream<A>>,
) -> Result<Stream<A>, Refusal<A::Error>>
where
    A: Aggregate<Services = ()> + Clone + 'static,
    A::Command: Clone,
{
    let mut attempt = 1;
    loop {
        let mut stream = match read.take() {
            Some(stream) => stream,
            None => log.load::<A>(aggregate_id).await.map_err(Refusal::Internal)?,
        };
        let sink = EventSink::default();
        stream.aggregate.handle(command.clone(), &(), &sink).await.map_err(Refusal::Domain)?;
        let events = sink.collect().await;
        if events.is_empty() {
            return Ok(stream);
        }
        match log::append::<A>(&log.pool, aggregate_id, stream.sequence, &events, metadata).await {
            Ok(position) => {
                log.waker.wake(A::TYPE);
                // What was appended is the aggregate's state now: the next command starts here.
                // `handle` applied each event as it wrote it (cqrs-es's `EventSink::write`),
                // so the state is already past them; applying them again would count a tip
                // or a payment twice.
                stream.sequence += events.len() as i64;
                stream.position = Some(position);
                log.keep(aggregate_id, &stream);
                return Ok(stream);
            }
            Err(AppendError::Concurrent) if attempt < MAX_ATTEMPTS => {
                tracing::debug!(aggregate = A::TYPE, aggregate_id, attempt, "concurrent change, retrying");
                attempt += 1;
            }
            Err(AppendError::Concurrent) => return Err(Refusal::Concurrent),
            // Two bookings inserting overlapping slots at once each wait for the other's
            // (an exclusion constraint checks after inserting), and PostgreSQL aborts one
            // of them as a deadlock. Nothing was written: decide again on the new state.
            Err(AppendError::Database(error)) if is_transient(&error) && attempt < MAX_ATTEMPTS => {
                tracing::info!(
                    aggregate = A::TYPE,
                    aggregate_id,
                    attempt,
                    sqlstate = sqlstate(&error).unwrap_or_default(),
                    "append aborted by PostgreSQL, retrying"
                );
                attempt += 1;
            }
            Err(AppendError::Database(error)) => return Err(Refusal::Database(error)),
            Err(AppendError::Serialization(error)) => {
                return Err(Refusal::Internal(anyhow::anyhow!("{} {aggregate_id}: {error}", A::TYPE)))
            }
        }
    }
}

/// What the `businesses` migration's trigger raises for an event on another business's
/// aggregate.
pub const SQLSTATE_OTHER_BUSINESS: &str = "NV404";
/// An exclusion constraint: the appointments' slots.
pub const SQLSTATE_EXCLUSION: &str = "23P01";
/// A unique constraint: `unique_claim`'s, once the events' own key is told apart.
pub const SQLSTATE_UNIQUE: &str = "23505";
/// PostgreSQL aborted the transaction to break a deadlock.
pub const SQLSTATE_DEADLOCK: &str = "40P01";
/// PostgreSQL aborted the transaction as it could not serialize it.
pub const SQLSTATE_SERIALIZATION: &str = "40001";

/// Whether PostgreSQL aborted the append for what another transaction did at the same
/// time, so that the same command may well succeed, or be refused properly, once retried.
pub fn is_transient(error: &sqlx::Error) -> bool {
    matches!(sqlstate(error).as_deref(), Some(SQLSTATE_DEADLOCK | SQLSTATE_SERIALIZATION))
}

/// The SQLSTATE of a statement PostgreSQL refused.
pub fn sqlstate(error: &sqlx::Error) -> Option<String> {
    error.as_database_error().and_then(|db| db.code()).map(|code| code.into_owned())
}

/// Runs each command on its aggregate and appends all their events in one statement: every
/// stream or none, so a regulars' series is booked or cancelled whole (issue 45). Each
/// stream is decided on `read` when given (an empty stream for an id just taken from its
/// sequence), else read. A refusal by any aggregate refuses them all; a stream another
/// command moved meanwhile, or an append PostgreSQL aborts as a deadlock, is decided again
/// on streams read anew.
pub async fn execute_streams<A>(
    log: &EventLog,
    commands: Vec<(String, Option<Stream<A>>, A::Command)>,
    metadata: &Value,
) -> Result<Vec<Stream<A>>, Refusal<A::Error>>
where
    A: Aggregate<Services = ()> + Clone + 'static,
    A::Command: Clone,
{
    let mut reads: Vec<Option<Stream<A>>> = Vec::with_capacity(commands.len());
    let mut planned = Vec::with_capacity(commands.len());
    for (aggregate_id, read, command) in commands {
        reads.push(read);
        planned.push((aggregate_id, command));
    }
    let mut attempt = 1;
    loop {
        let mut decided = Vec::with_capacity(planned.len());
        for ((aggregate_id, command), read) in planned.iter().zip(reads.iter_mut()) {
            let mut stream = match read.take() {
                Some(stream) => stream,
                None => log.load::<A>(aggregate_id).await.map_err(Refusal::Internal)?,
            };
            let after = stream.sequence;
            let sink = EventSink::default();
            stream.aggregate.handle(command.clone(), &(), &sink).await.map_err(Refusal::Domain)?;
            decided.push((aggregate_id.as_str(), after, stream, sink.collect().await));
        }
        let streams: Vec<(&str, i64, &[A::Event])> = decided
            .iter()
            .filter(|(.., events)| !events.is_empty())
            .map(|(id, after, _, events)| (*id, *after, events.as_slice()))
            .collect();
        if streams.is_empty() {
            return Ok(decided.into_iter().map(|(.., stream, _)| stream).collect());
        }
        let failure = match log::append_streams::<A>(&log.pool, &streams, metadata).await {
            Ok(positions) => {
                log.waker.wake(A::TYPE);
                return Ok(decided
                    .into_iter()
                    .map(|(aggregate_id, after, mut stream, events)| {
                        if let Some((_, position)) = positions.iter().find(|(id, _)| id == aggregate_id) {
                            stream.sequence = after + events.len() as i64;
                            stream.position = Some(*position);
                            log.keep(aggregate_id, &stream);
                        }
                        stream
                    })
                    .collect());
            }
            Err(failure) => failure,
        };
        match failure {
            AppendError::Concurrent if attempt < MAX_ATTEMPTS => {
                tracing::debug!(
                    aggregate = A::TYPE,
                    attempt,
                    "concurrent change to a stream of a group, retrying"
                )
            }
            AppendError::Concurrent => return Err(Refusal::Concurrent),
            AppendError::Database(error) if is_transient(&error) && attempt < MAX_ATTEMPTS => {
                tracing::info!(aggregate = A::TYPE, attempt, "group append aborted by PostgreSQL, retrying");
            }
            AppendError::Database(error) => return Err(Refusal::Database(error)),
            AppendError::Serialization(error) => {
                return Err(Refusal::Internal(anyhow::anyhow!("{}: {error}", A::TYPE)))
            }
        }
        attempt += 1;
    }
}
