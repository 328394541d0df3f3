//! Answers kept between reads (ADR 0018): the day list and the free times, the answers
//! staff and clients wait on most, are read far more often than their rows change, so each
//! serialized answer is kept under what it answers, and served again until the projector
//! says the rows of its business changed.
//!
//! A kept answer is served only when all of these hold:
//! - this process hears the projector's notices: never on a replica, which cannot LISTEN,
//!   nor while the listener reconnects (notices may be lost then, so reconnecting forgets
//!   everything);
//! - no notice of a model the answer reads has named its business (or every business)
//!   since the answer was read: the answer's *stamp* is taken before the read, and an answer
//!   whose stamp went stale meanwhile is not kept at all;
//! - it is younger than [`MAX_AGE`], a bound on any staleness a lost notice could cause, and
//!   than the freshness its reader gave it (free times change with the clock's minute);
//! - for a read that waits for a position (read-your-writes), the answer was read at or
//!   after it: the wait polls the checkpoint in the database and may see it before this
//!   process hears the notice, so the stamp alone would not do.
//!
//! Bounded in bytes: two generations of at most [`GENERATION_BYTES`] each
//! (`platform::generations`, as ADR 0017 keeps aggregates); an answer served from the old
//! generation moves back to the young one. Answers
//! that can no longer be served (stale or expired) are dropped at most [`SWEEP_EVERY`], so
//! that memory follows what can still be served rather than filling up to the bound.
//!
//! A request with `Cache-Control: no-cache` is answered with what is read now (and that
//! answer is kept for the next reads): a refresh that wants no kept answer, and the bench's
//! uncached reads, which measure what a busy shop's reads cost (issue 46, item 2).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::FromRequestParts;
use axum::http::{header, request::Parts};
use navalha_platform::generations::Generations;
use navalha_platform::position::Position;
use navalha_platform::projection::Changed;
use navalha_read_models::ReadModel;

/// Whether a kept answer may be served to this request: not when it says
/// `Cache-Control: no-cache` (or `no-store`, or `max-age=0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MayServeKept(pub bool);

impl MayServeKept {
    /// From the request's `Cache-Control` header, if any.
    pub fn of(cache_control: Option<&str>) -> Self {
        let refused = cache_control.is_some_and(|value| {
            value.split(',').map(str::trim).any(|directive| {
                ["no-cache", "no-store", "max-age=0"].iter().any(|d| directive.eq_ignore_ascii_case(d))
            })
        });
        Self(!refused)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for MayServeKept {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self::of(parts.headers.get(header::CACHE_CONTROL).and_then(|v| v.to_str().ok())))
    }
}

/// Documents the header on the handlers that keep answers (`params(MayServeKept)`).
impl utoipa::IntoParams for MayServeKept {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![navalha_platform::openapi::header_parameter(
            "Cache-Control",
            "`no-cache` asks for the answer read now, not one kept between reads.",
            None,
        )]
    }
}

/// Bytes of answers per generation: a few hundred day lists of a big unit.
pub const GENERATION_BYTES: usize = 16 * 1024 * 1024;
/// The oldest answer served.
pub const MAX_AGE: Duration = Duration::from_secs(30);
/// How often answers that can no longer be served are dropped.
pub const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// What a kept answer was read under; it is served only while the stamp is current.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// The business whose rows the answer reads.
    pub business_id: i64,
    /// Bumped when notices may have been missed.
    epoch: u64,
    /// Bumped by a notice that names every business.
    every: u64,
    /// Bumped by each notice that names this business.
    business: u64,
}

struct Answer {
    stamp: Stamp,
    /// The read models' checkpoint read before the answer's rows: they are at least as new.
    checkpoint: Position,
    expires: Instant,
    body: Bytes,
}

/// A kept answer, and the business whose rows it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub business_id: i64,
    pub body: Bytes,
}

struct Inner<K> {
    listening: bool,
    notices: Notices,
    answers: Generations<K, Answer>,
    swept: Instant,
}

/// The notices heard, as counters a stamp copies.
#[derive(Default)]
struct Notices {
    epoch: u64,
    every: u64,
    businesses: HashMap<i64, u64>,
}

/// Answers kept for the read models in `models`: see the module's notes.
pub struct KeptAnswers<K> {
    models: &'static [&'static ReadModel],
    inner: Mutex<Inner<K>>,
}

impl<K: Hash + Eq> KeptAnswers<K> {
    /// Keeps answers that read the rows of `models`; none is served until [`Self::listening`].
    pub fn new(models: &'static [&'static ReadModel]) -> Self {
        Self {
            models,
            inner: Mutex::new(Inner {
                listening: false,
                notices: Notices::default(),
                answers: Generations::new(GENERATION_BYTES, |answer: &Answer| answer.body.len()),
                swept: Instant::now(),
            }),
        }
    }

    /// Whether the projector's notices are heard from now on; either way, what is kept may
    /// have missed some, and is forgotten.
    pub fn listening(&self, listening: bool) {
        let mut inner = self.lock();
        inner.listening = listening;
        inner.notices.epoch += 1;
        inner.answers.clear();
    }

    /// A projector batch changed `model`'s rows of these businesses.
    pub fn changed(&self, model: &str, changed: &Changed) {
        if !self.models.iter().any(|kept| kept.name == model) {
            return;
        }
        let mut inner = self.lock();
        match changed {
            Changed::Nothing => {}
            Changed::Every => inner.notices.every += 1,
            Changed::Businesses(businesses) => {
                for business in businesses {
                    *inner.notices.businesses.entry(*business).or_default() += 1;
                }
            }
        }
    }

    /// A notice this process could not read: it may have named anyone.
    pub fn changed_unknown(&self) {
        self.lock().notices.every += 1;
    }

    /// The stamp to read an answer of `business_id` under, taken before reading it; `None`
    /// when answers are not kept (not listening).
    pub fn stamp(&self, business_id: i64) -> Option<Stamp> {
        let inner = self.lock();
        inner.listening.then(|| inner.notices.stamp(business_id))
    }

    /// The kept answer to `key`, if it may be served to a read that must reflect
    /// `read_after` (when given).
    pub fn get(&self, key: &K, read_after: Option<Position>) -> Option<Kept> {
        let mut inner = self.lock();
        if !inner.listening {
            return None;
        }
        let now = Instant::now();
        let Inner { notices, answers, .. } = &mut *inner;
        let answer = answers.get(key)?;
        let servable =
            notices.servable(answer, now) && read_after.is_none_or(|position| answer.checkpoint >= position);
        servable.then(|| Kept { business_id: answer.stamp.business_id, body: answer.body.clone() })
    }

    /// Keeps an answer read under `stamp` with its models at `checkpoint`, for at most
    /// `fresh_for` (and [`MAX_AGE`]), unless a notice came meanwhile.
    pub fn put(&self, key: K, stamp: Stamp, checkpoint: Position, body: Bytes, fresh_for: Duration) {
        let mut inner = self.lock();
        if !inner.listening || inner.notices.stamp(stamp.business_id) != stamp {
            return;
        }
        let expires = Instant::now() + fresh_for.min(MAX_AGE);
        inner.keep(key, Answer { stamp, checkpoint, expires, body });
    }

    /// Drops what can no longer be served, now.
    #[cfg(test)]
    fn sweep(&self) {
        self.lock().sweep(Instant::now());
    }

    /// How many answers are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().answers.len()
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

impl Notices {
    fn stamp(&self, business_id: i64) -> Stamp {
        Stamp {
            business_id,
            epoch: self.epoch,
            every: self.every,
            business: self.businesses.get(&business_id).copied().unwrap_or(0),
        }
    }

    /// Whether `answer` may still be served: no notice since its stamp, and not expired.
    fn servable(&self, answer: &Answer, now: Instant) -> bool {
        answer.stamp == self.stamp(answer.stamp.business_id) && now < answer.expires
    }
}

impl<K: Hash + Eq> Inner<K> {
    fn keep(&mut self, key: K, answer: Answer) {
        let now = Instant::now();
        if now.duration_since(self.swept) >= SWEEP_EVERY {
            self.sweep(now);
        }
        self.answers.insert(key, answer);
    }

    /// Drops the answers no read will be served again: read under a stamp a notice has
    /// since made stale, or expired. Under writes most answers go stale within seconds, and
    /// without this they would stay until their generation is dropped.
    fn sweep(&mut self, now: Instant) {
        self.swept = now;
        let notices = &self.notices;
        self.answers.retain(|answer| notices.servable(answer, now));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use navalha_read_models as read_models;

    const AT: Position = Position { tx_id: 10, global_position: 100 };
    const LONG: Duration = Duration::from_secs(3600);

    fn listening() -> KeptAnswers<(i64, &'static str)> {
        let kept = KeptAnswers::new(&[&read_models::AGENDA, &read_models::CLUB]);
        kept.listening(true);
        kept
    }

    fn body(text: &str) -> Bytes {
        Bytes::from(text.to_owned())
    }

    fn businesses(ids: &[i64]) -> Changed {
        Changed::Businesses(ids.iter().copied().collect::<BTreeSet<_>>())
    }

    fn put(kept: &KeptAnswers<(i64, &'static str)>, business_id: i64, key: &'static str, text: &str) {
        let stamp = kept.stamp(business_id).expect("listening");
        kept.put((business_id, key), stamp, AT, body(text), LONG);
    }

    fn get(kept: &KeptAnswers<(i64, &'static str)>, business_id: i64, key: &'static str) -> Option<Bytes> {
        kept.get(&(business_id, key), None).map(|kept| {
            assert_eq!(kept.business_id, business_id);
            kept.body
        })
    }

    /// Answers no read will be served again are dropped, not kept until their generation
    /// goes: under writes, memory follows what can still be served (the 10-minute soak).
    #[test]
    fn answers_that_cannot_be_served_are_swept() {
        let kept = listening();
        put(&kept, 1, "day", "one");
        put(&kept, 2, "day", "two");
        let stamp = kept.stamp(3).expect("listening");
        kept.put((3, "day"), stamp, AT, body("three"), Duration::ZERO);
        kept.changed("agenda", &businesses(&[1]));
        assert_eq!(kept.len(), 3, "kept until swept");
        kept.sweep();
        assert_eq!(kept.len(), 1, "business 1's went stale, business 3's expired");
        assert_eq!(get(&kept, 2, "day"), Some(body("two")));
        assert_eq!(kept.lock().answers.young_weight(), 3, "the bytes counted are the ones kept");
    }

    #[test]
    fn an_answer_is_served_until_a_notice_names_its_business() {
        let kept = listening();
        put(&kept, 1, "day", "a");
        assert_eq!(get(&kept, 1, "day"), Some(body("a")));
        assert_eq!(get(&kept, 2, "day"), None, "kept per key");
        kept.changed("agenda", &businesses(&[2]));
        kept.changed("client", &businesses(&[1]));
        kept.changed("agenda", &Changed::Nothing);
        assert_eq!(get(&kept, 1, "day"), Some(body("a")), "other businesses and models");
        kept.changed("club", &businesses(&[1, 3]));
        assert_eq!(get(&kept, 1, "day"), None);
    }

    #[test]
    fn every_business_and_an_unreadable_notice_make_every_answer_stale() {
        let kept = listening();
        put(&kept, 1, "day", "a");
        kept.changed("agenda", &Changed::Every);
        assert_eq!(get(&kept, 1, "day"), None);
        put(&kept, 1, "day", "b");
        kept.changed_unknown();
        assert_eq!(get(&kept, 1, "day"), None);
    }

    #[test]
    fn no_cache_no_store_or_max_age_0_refuse_a_kept_answer() {
        assert_eq!(MayServeKept::of(None), MayServeKept(true));
        assert_eq!(MayServeKept::of(Some("max-age=60")), MayServeKept(true));
        assert_eq!(MayServeKept::of(Some("no-cache")), MayServeKept(false));
        assert_eq!(MayServeKept::of(Some("private, No-Store")), MayServeKept(false));
        assert_eq!(MayServeKept::of(Some("max-age=0")), MayServeKept(false));
    }

    #[test]
    fn an_answer_read_while_a_notice_came_is_not_kept() {
        let kept = listening();
        let stamp = kept.stamp(1).expect("stamp");
        kept.changed("agenda", &businesses(&[1]));
        kept.put((1, "day"), stamp, AT, body("read before the change committed"), LONG);
        assert_eq!(get(&kept, 1, "day"), None);
    }

    #[test]
    fn nothing_is_kept_or_served_unless_listening_and_a_reconnection_forgets_all() {
        let kept = KeptAnswers::new(&[&read_models::AGENDA]);
        assert_eq!(kept.stamp(1), None, "a replica never listens");
        kept.listening(true);
        let stamp = kept.stamp(1).expect("stamp");
        kept.put((1, "day"), stamp, AT, body("a"), LONG);
        kept.listening(false);
        assert_eq!(kept.get(&(1, "day"), None), None);
        kept.put((1, "day"), stamp, AT, body("a"), LONG);
        kept.listening(true);
        assert_eq!(kept.get(&(1, "day"), None), None, "notices may have been missed meanwhile");
        assert_eq!(kept.len(), 0);
    }

    #[test]
    fn a_read_after_a_position_is_served_only_an_answer_read_at_or_after_it() {
        let kept = listening();
        put(&kept, 1, "day", "a");
        let at = |tx_id, global_position| Some(Position { tx_id, global_position });
        assert!(kept.get(&(1, "day"), Some(AT)).is_some());
        assert!(kept.get(&(1, "day"), at(9, 120)).is_some());
        assert_eq!(kept.get(&(1, "day"), at(10, 101)), None);
        assert_eq!(kept.get(&(1, "day"), at(11, 1)), None);
    }

    #[test]
    fn an_answer_is_not_served_past_its_freshness() {
        let kept = listening();
        let stamp = kept.stamp(1).expect("stamp");
        kept.put((1, "times"), stamp, AT, body("a"), Duration::ZERO);
        assert_eq!(get(&kept, 1, "times"), None);
    }

    #[test]
    fn the_bytes_kept_stay_bounded_and_an_answer_in_use_survives_a_generation() {
        let kept = listening();
        let stamp = kept.stamp(1).expect("stamp");
        let big = Bytes::from(vec![b'x'; GENERATION_BYTES / 10]);
        put(&kept, 1, "busy", "busy");
        for day in 0..40 {
            let key: &'static str = Box::leak(format!("day {day}").into_boxed_str());
            kept.put((1, key), stamp, AT, big.clone(), LONG);
            assert!(get(&kept, 1, "busy").is_some(), "read now and then, so kept");
        }
        assert!(kept.len() <= 2 * 10 + 2);
        assert!(get(&kept, 1, "day 0").is_none(), "the oldest are dropped");
    }
}
