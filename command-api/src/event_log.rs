//! The event store as commands use it, over sqlx (ADR 0016): read a stream, append to it in
//! one statement. cqrs-es's `Aggregate` still decides (its `handle` and `apply`); this
//! replaces postgres-es's repository, which spent five round trips where one does: a
//! transaction's `BEGIN`, an `INSERT` per event and `COMMIT`, then a query for the position.

use cqrs_es::{Aggregate, DomainEvent};
use navalha_platform::position::Position;
use sqlx::PgPool;

/// A stream as read: the aggregate replayed, its last sequence and its last event's position.
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

/// Reads and replays the stream `A::TYPE`/`aggregate_id`, in one round trip.
pub async fn load<A: Aggregate>(pool: &PgPool, aggregate_id: &str) -> Result<Stream<A>, anyhow::Error> {
    let rows: Vec<(serde_json::Value, i64, i64, i64)> = sqlx::query_as(
        "select payload, sequence, tx_id::text::bigint, global_position from events
          where aggregate_type = $1 and aggregate_id = $2 order by sequence",
    )
    .bind(A::TYPE)
    .bind(aggregate_id)
    .fetch_all(pool)
    .await?;
    let mut stream = Stream::<A>::default();
    for (payload, sequence, tx_id, global_position) in rows {
        let event: A::Event = serde_json::from_value(payload)
            .map_err(|error| anyhow::anyhow!("replaying {} {aggregate_id}: {error}", A::TYPE))?;
        stream.aggregate.apply(event);
        stream.sequence = sequence;
        stream.position = Some(Position { tx_id, global_position });
    }
    Ok(stream)
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
    let mut types = Vec::with_capacity(events.len());
    let mut versions = Vec::with_capacity(events.len());
    let mut payloads = Vec::with_capacity(events.len());
    for event in events {
        types.push(event.event_type());
        versions.push(event.event_version());
        payloads.push(serde_json::to_value(event)?);
    }
    let appended: Result<Vec<(i64, i64)>, sqlx::Error> = sqlx::query_as(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         select $1, $2, $3 + e.n, e.event_type, e.event_version, e.payload, $7
           from unnest($4::text[], $5::text[], $6::jsonb[]) with ordinality
                as e (event_type, event_version, payload, n)
          order by e.n
         returning tx_id::text::bigint, global_position",
    )
    .bind(A::TYPE)
    .bind(aggregate_id)
    .bind(after)
    .bind(&types)
    .bind(&versions)
    .bind(&payloads)
    .bind(metadata)
    .fetch_all(pool)
    .await;
    match appended {
        Ok(rows) => rows
            .into_iter()
            .max_by_key(|(_, global_position)| *global_position)
            .map(|(tx_id, global_position)| Position { tx_id, global_position })
            .ok_or_else(|| AppendError::Database(sqlx::Error::RowNotFound)),
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
