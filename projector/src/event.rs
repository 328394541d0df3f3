//! Events as the projector reads them.

use std::any::Any;
use std::sync::{Arc, OnceLock};

use chrono::{DateTime, Utc};
use navalha_platform::position::Position;
use serde::de::DeserializeOwned;

/// The business of events from before businesses existed.
pub const LEGACY_BUSINESS_ID: i64 = 1;

/// The business an event's metadata names (`business_id`, as `->>` gives it), or
/// [`LEGACY_BUSINESS_ID`] for one written before businesses existed.
pub fn business_named(text: Option<&str>) -> i64 {
    text.and_then(|text| text.parse().ok()).unwrap_or(LEGACY_BUSINESS_ID)
}

/// One row of the event log.
#[derive(Debug, Clone)]
pub struct StoredEvent {
    /// The aggregate's type (`FavoriteMenu`, `Company`, ...).
    pub aggregate_type: String,
    /// The aggregate's id.
    pub aggregate_id: String,
    /// The event's number within its stream.
    pub sequence: i64,
    /// The event's name.
    pub event_type: String,
    /// The payload's schema version.
    pub event_version: String,
    /// The payload, as JSON text: decoded straight into the aggregate's event enum, with no
    /// `serde_json::Value` in between (a rebuild decodes hundreds of thousands). Shared, so
    /// that the models rebuilt together take their shares of a batch without copying it.
    pub payload: Arc<str>,
    /// The business the event belongs to: its metadata's `business_id` (see
    /// `navalha_domain::metadata`), read with the event.
    pub business_id: i64,
    /// Where it sits in commit order.
    pub position: Position,
    /// When it was committed.
    pub recorded_at: DateTime<Utc>,
    /// The payload as [`StoredEvent::decoded`] decoded it, for the next model that reads
    /// the same event.
    pub(crate) decoded: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl StoredEvent {
    /// Decodes the payload into the aggregate's event enum (through the upcasters when it
    /// is of an older version).
    pub fn decode<E: DeserializeOwned>(&self) -> anyhow::Result<E> {
        navalha_domain::event_payload::decode(
            &self.aggregate_type,
            &self.event_type,
            &self.event_version,
            &self.payload,
        )
        .map_err(|error| {
            anyhow::anyhow!(
                "cannot decode {} {} v{} at {}: {error}",
                self.aggregate_type,
                self.event_type,
                self.event_version,
                self.position
            )
        })
    }

    /// The payload decoded once for every model that reads this event: a rebuild hands one
    /// batch to several models, and three of them decoded each appointment, a fifth of
    /// the rebuild's own CPU (docs/bench.md). The first type asked for is kept; another
    /// type is decoded afresh.
    pub fn decoded<E: DeserializeOwned + Send + Sync + 'static>(&self) -> anyhow::Result<Arc<E>> {
        if let Some(Ok(kept)) = self.decoded.get().map(|kept| Arc::clone(kept).downcast::<E>()) {
            return Ok(kept);
        }
        let fresh = Arc::new(self.decode::<E>()?);
        // Two models may decode it at once: the first kept wins, and both are equal.
        let _ = self.decoded.set(Arc::clone(&fresh) as Arc<dyn Any + Send + Sync>);
        Ok(fresh)
    }

    /// The business the event belongs to; events written before businesses existed belong
    /// to the first ([`LEGACY_BUSINESS_ID`]), as the `businesses` migration says.
    pub fn business_id(&self) -> i64 {
        self.business_id
    }

    /// The aggregate id as a number, for aggregates with numeric ids.
    pub fn numeric_id(&self) -> anyhow::Result<i64> {
        self.aggregate_id
            .parse()
            .map_err(|_| anyhow::anyhow!("{} id {:?} is not numeric", self.aggregate_type, self.aggregate_id))
    }
}
