//! Aggregates as last replayed, kept between commands so that a command reads only the
//! events appended since (issue 15): a booking decides on its unit, professional, client and
//! services, about twenty events that rarely change, and replayed them all every time.
//!
//! Events are immutable and a stream's sequence only grows, so a kept state plus the events
//! after its sequence is the state. The read also returns the kept last event itself, and a
//! state whose last event is not there at that sequence and position (a database restored
//! under a running service) is dropped and the stream read whole: a stale state never
//! decides. Nothing here checks a business; every read that needs it still joins
//! `aggregate_business` in SQL.
//!
//! Bounded: two generations of at most [`GENERATION`] states each
//! (`platform::generations`); a state in use moves back to the young one.

use std::any::Any;
use std::sync::{Arc, Mutex};

use navalha_platform::generations::Generations;
use navalha_platform::position::Position;

/// States per generation: a shop's units, staff, clients and services, and the recent
/// appointments, fit; the memory stays bounded under any load.
pub const GENERATION: usize = 5_000;

/// A kept state: the aggregate (a `Stream<A>` behind `Any`), and its last event.
#[derive(Clone)]
pub struct Kept {
    /// The last event's sequence.
    pub sequence: i64,
    /// The last event's position.
    pub position: Position,
    /// The `Stream<A>`, typed by the aggregate that kept it.
    pub state: Arc<dyn Any + Send + Sync>,
}

type Key = (&'static str, String);

/// The kept states of one event log (one database): see the module's notes.
pub struct Replayed(Mutex<Generations<Key, Kept>>);

impl Default for Replayed {
    fn default() -> Self {
        Replayed(Mutex::new(Generations::counted(GENERATION)))
    }
}

impl Replayed {
    /// The kept state of `aggregate_type`/`aggregate_id`, if any.
    pub fn get(&self, aggregate_type: &'static str, aggregate_id: &str) -> Option<Kept> {
        self.lock().get(&(aggregate_type, aggregate_id.to_owned())).cloned()
    }

    /// Keeps `kept` unless a state at least as recent is kept already (two commands on one
    /// aggregate may finish in either order).
    pub fn put(&self, aggregate_type: &'static str, aggregate_id: &str, kept: Kept) {
        let mut generations = self.lock();
        let key = (aggregate_type, aggregate_id.to_owned());
        if generations.peek(&key).is_some_and(|other| other.sequence >= kept.sequence) {
            return;
        }
        generations.insert(key, kept);
    }

    /// Forgets a state its stream no longer matches.
    pub fn forget(&self, aggregate_type: &'static str, aggregate_id: &str) {
        self.lock().remove(&(aggregate_type, aggregate_id.to_owned()));
    }

    /// How many states are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Generations<Key, Kept>> {
        // A panic while holding the lock leaves the maps whole (each change is one call).
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(sequence: i64) -> Kept {
        Kept {
            sequence,
            position: Position { tx_id: 1, global_position: sequence },
            state: Arc::new(sequence),
        }
    }

    #[test]
    fn a_newer_state_replaces_an_older_one_and_never_the_reverse() {
        let replayed = Replayed::default();
        replayed.put("client", "1", kept(3));
        replayed.put("client", "1", kept(2));
        assert_eq!(replayed.get("client", "1").map(|k| k.sequence), Some(3));
        replayed.put("client", "1", kept(5));
        assert_eq!(replayed.get("client", "1").map(|k| k.sequence), Some(5));
        assert!(replayed.get("professional", "1").is_none(), "kept by type and id");
        replayed.forget("client", "1");
        assert!(replayed.get("client", "1").is_none());
    }

    #[test]
    fn the_states_kept_stay_bounded_and_a_state_in_use_survives_a_generation() {
        let replayed = Replayed::default();
        replayed.put("unit", "busy", kept(1));
        for id in 0..GENERATION * 3 {
            replayed.put("appointment", &id.to_string(), kept(1));
            if id % 1_000 == 0 {
                assert!(replayed.get("unit", "busy").is_some(), "read now and then, so kept");
            }
        }
        assert!(replayed.len() <= 2 * GENERATION);
        assert!(replayed.get("unit", "busy").is_some());
        assert!(replayed.get("appointment", "0").is_none(), "the oldest are dropped");
    }
}
