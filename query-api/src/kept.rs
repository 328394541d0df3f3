//! Answers kept between reads (ADR 0018): the day list, the screen staff wait on most, is
//! read far more often than its rows change, so its serialized answer is kept per business,
//! unit, day and filters, and served again until the projector says the business's rows
//! changed.
//!
//! A kept answer is served only when all of these hold:
//! - this process hears the projector's notices: never on a replica, which cannot LISTEN,
//!   nor while the listener reconnects (notices may be lost then, so reconnecting forgets
//!   everything);
//! - no notice of a model the answer reads has named its business (or every business)
//!   since the answer was read: the answer's *stamp* is taken before the read, and an answer
//!   whose stamp went stale meanwhile is not kept at all;
//! - it is younger than [`MAX_AGE`], a bound on any staleness a lost notice could cause;
//! - for a read that waits for a position (read-your-writes), the answer was read at or
//!   after it: the wait polls the checkpoint in the database and may see it before this
//!   process hears the notice, so the stamp alone would not do.
//!
//! Bounded in bytes: two generations of at most [`GENERATION_BYTES`] each, as ADR 0017 keeps
//! aggregates; an answer served from the old generation moves back to the young one.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use navalha_platform::position::Position;
use navalha_platform::projection::Changed;

/// Bytes of answers per generation: a few hundred day lists of a big unit.
pub const GENERATION_BYTES: usize = 16 * 1024 * 1024;
/// The oldest answer served.
pub const MAX_AGE: Duration = Duration::from_secs(30);

/// What a kept answer was read under; it is served only while the stamp is current.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Bumped when notices may have been missed.
    epoch: u64,
    /// Bumped by a notice that names every business.
    every: u64,
    /// Bumped by each notice that names this business.
    business: u64,
}

struct Answer {
    stamp: Stamp,
    /// The read model's checkpoint read before the answer's rows: they are at least as new.
    checkpoint: Position,
    read_at: Instant,
    body: Bytes,
}

struct Inner<K> {
    listening: bool,
    epoch: u64,
    every: u64,
    businesses: HashMap<i64, u64>,
    young: HashMap<(i64, K), Answer>,
    young_bytes: usize,
    old: HashMap<(i64, K), Answer>,
}

/// Answers kept for the read models in `models`: see the module's notes.
pub struct KeptAnswers<K> {
    models: &'static [&'static str],
    inner: Mutex<Inner<K>>,
}

impl<K: Hash + Eq> KeptAnswers<K> {
    /// Keeps answers that read the rows of `models`; none is served until [`Self::listening`].
    pub fn new(models: &'static [&'static str]) -> Self {
        Self {
            models,
            inner: Mutex::new(Inner {
                listening: false,
                epoch: 0,
                every: 0,
                businesses: HashMap::new(),
                young: HashMap::new(),
                young_bytes: 0,
                old: HashMap::new(),
            }),
        }
    }

    /// Whether the projector's notices are heard from now on; either way, what is kept may
    /// have missed some, and is forgotten.
    pub fn listening(&self, listening: bool) {
        let mut inner = self.lock();
        inner.listening = listening;
        inner.epoch += 1;
        inner.young.clear();
        inner.old.clear();
        inner.young_bytes = 0;
    }

    /// A projector batch changed `model`'s rows of these businesses.
    pub fn changed(&self, model: &str, changed: &Changed) {
        if !self.models.contains(&model) {
            return;
        }
        let mut inner = self.lock();
        match changed {
            Changed::Nothing => {}
            Changed::Every => inner.every += 1,
            Changed::Businesses(businesses) => {
                for business in businesses {
                    *inner.businesses.entry(*business).or_default() += 1;
                }
            }
        }
    }

    /// A notice this process could not read: it may have named anyone.
    pub fn changed_unknown(&self) {
        self.lock().every += 1;
    }

    /// The stamp to read an answer under, taken before reading it; `None` when answers
    /// are not kept (not listening).
    pub fn stamp(&self, business: i64) -> Option<Stamp> {
        let inner = self.lock();
        inner.listening.then(|| inner.stamp(business))
    }

    /// The kept answer to `key` of `business`, if it may be served to a read that must
    /// reflect `read_after` (when given).
    pub fn get(&self, business: i64, key: K, read_after: Option<Position>) -> Option<Bytes> {
        let mut inner = self.lock();
        if !inner.listening {
            return None;
        }
        let stamp = inner.stamp(business);
        let key = (business, key);
        let servable = |answer: &Answer| {
            answer.stamp == stamp
                && answer.read_at.elapsed() < MAX_AGE
                && read_after.is_none_or(|position| answer.checkpoint >= position)
        };
        if let Some(answer) = inner.young.get(&key) {
            return servable(answer).then(|| answer.body.clone());
        }
        let answer = inner.old.remove(&key)?;
        if !servable(&answer) {
            return None;
        }
        let body = answer.body.clone();
        inner.keep(key, answer);
        Some(body)
    }

    /// Keeps an answer read under `stamp` with the model at `checkpoint`, unless a notice
    /// came meanwhile.
    pub fn put(&self, business: i64, key: K, stamp: Stamp, checkpoint: Position, body: Bytes) {
        let mut inner = self.lock();
        if !inner.listening || inner.stamp(business) != stamp {
            return;
        }
        inner.keep((business, key), Answer { stamp, checkpoint, read_at: Instant::now(), body });
    }

    /// How many answers are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        let inner = self.lock();
        inner.young.len() + inner.old.len()
    }

    fn lock(&self) -> MutexGuard<'_, Inner<K>> {
        // Each change is one call that leaves the maps whole, even if it panicked.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What hears the projector's notices as query-api receives them (`consistency::listen`),
/// before the waiting reads and the open agendas do.
pub trait HearsNotices: Send + Sync {
    /// Notices are heard from now on, or no longer.
    fn listening(&self, listening: bool);
    /// A batch changed `model`'s rows of these businesses.
    fn changed(&self, model: &str, changed: &Changed);
    /// A notice that could not be read.
    fn changed_unknown(&self);
}

impl<K: Hash + Eq + Send> HearsNotices for KeptAnswers<K> {
    fn listening(&self, listening: bool) {
        KeptAnswers::listening(self, listening);
    }
    fn changed(&self, model: &str, changed: &Changed) {
        KeptAnswers::changed(self, model, changed);
    }
    fn changed_unknown(&self) {
        KeptAnswers::changed_unknown(self);
    }
}

impl<K: Hash + Eq> Inner<K> {
    fn stamp(&self, business: i64) -> Stamp {
        Stamp {
            epoch: self.epoch,
            every: self.every,
            business: self.businesses.get(&business).copied().unwrap_or(0),
        }
    }

    fn keep(&mut self, key: (i64, K), answer: Answer) {
        if self.young_bytes + answer.body.len() > GENERATION_BYTES {
            self.old = std::mem::take(&mut self.young);
            self.young_bytes = 0;
        }
        self.young_bytes += answer.body.len();
        if let Some(replaced) = self.young.insert(key, answer) {
            self.young_bytes -= replaced.body.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    const AT: Position = Position { tx_id: 10, global_position: 100 };

    fn listening() -> KeptAnswers<&'static str> {
        let kept = KeptAnswers::new(&["agenda", "club"]);
        kept.listening(true);
        kept
    }

    fn body(text: &str) -> Bytes {
        Bytes::from(text.to_owned())
    }

    fn businesses(ids: &[i64]) -> Changed {
        Changed::Businesses(ids.iter().copied().collect::<BTreeSet<_>>())
    }

    #[test]
    fn an_answer_is_served_until_a_notice_names_its_business() {
        let kept = listening();
        let stamp = kept.stamp(1).expect("listening");
        kept.put(1, "day", stamp, AT, body("a"));
        assert_eq!(kept.get(1, "day", None), Some(body("a")));
        assert_eq!(kept.get(2, "day", None), None, "kept per business");
        kept.changed("agenda", &businesses(&[2]));
        kept.changed("client", &businesses(&[1]));
        kept.changed("agenda", &Changed::Nothing);
        assert_eq!(kept.get(1, "day", None), Some(body("a")), "other businesses and models");
        kept.changed("club", &businesses(&[1, 3]));
        assert_eq!(kept.get(1, "day", None), None);
    }

    #[test]
    fn every_business_and_an_unreadable_notice_make_every_answer_stale() {
        let kept = listening();
        kept.put(1, "day", kept.stamp(1).expect("stamp"), AT, body("a"));
        kept.changed("agenda", &Changed::Every);
        assert_eq!(kept.get(1, "day", None), None);
        kept.put(1, "day", kept.stamp(1).expect("stamp"), AT, body("b"));
        kept.changed_unknown();
        assert_eq!(kept.get(1, "day", None), None);
    }

    #[test]
    fn an_answer_read_while_a_notice_came_is_not_kept() {
        let kept = listening();
        let stamp = kept.stamp(1).expect("stamp");
        kept.changed("agenda", &businesses(&[1]));
        kept.put(1, "day", stamp, AT, body("read before the change committed"));
        assert_eq!(kept.get(1, "day", None), None);
    }

    #[test]
    fn nothing_is_kept_or_served_unless_listening_and_a_reconnection_forgets_all() {
        let kept = KeptAnswers::new(&["agenda"]);
        assert_eq!(kept.stamp(1), None, "a replica never listens");
        kept.listening(true);
        let stamp = kept.stamp(1).expect("stamp");
        kept.put(1, "day", stamp, AT, body("a"));
        kept.listening(false);
        assert_eq!(kept.get(1, "day", None), None);
        kept.put(1, "day", stamp, AT, body("a"));
        kept.listening(true);
        assert_eq!(kept.get(1, "day", None), None, "notices may have been missed meanwhile");
        assert_eq!(kept.len(), 0);
    }

    #[test]
    fn a_read_after_a_position_is_served_only_an_answer_read_at_or_after_it() {
        let kept = listening();
        kept.put(1, "day", kept.stamp(1).expect("stamp"), AT, body("a"));
        assert_eq!(kept.get(1, "day", Some(AT)), Some(body("a")));
        assert_eq!(kept.get(1, "day", Some(Position { tx_id: 9, global_position: 120 })), Some(body("a")));
        assert_eq!(kept.get(1, "day", Some(Position { tx_id: 10, global_position: 101 })), None);
        assert_eq!(kept.get(1, "day", Some(Position { tx_id: 11, global_position: 1 })), None);
    }

    #[test]
    fn the_bytes_kept_stay_bounded_and_an_answer_in_use_survives_a_generation() {
        let kept = listening();
        let stamp = kept.stamp(1).expect("stamp");
        let big = Bytes::from(vec![b'x'; GENERATION_BYTES / 10]);
        kept.put(1, "busy", stamp, AT, body("busy"));
        for day in 0..40 {
            let key: &'static str = Box::leak(format!("day {day}").into_boxed_str());
            kept.put(1, key, stamp, AT, big.clone());
            assert!(kept.get(1, "busy", None).is_some(), "read now and then, so kept");
        }
        assert!(kept.len() <= 2 * 10 + 2);
        assert!(kept.get(1, "day 0", None).is_none(), "the oldest are dropped");
    }
}
