//! The instant now, for every rule and record of the system (ADRs 0013 and 0021).
//!
//! The machine's clock, moved by `NAVALHA_CLOCK_OFFSET_SECONDS` when a test run places the
//! whole stack at another instant (`./navalha test --at`); unset in production, where the
//! offset is zero. Durations that guard access (token and session expiry, throttles, the
//! idempotency window) stay on the machine's clock: they measure time passing, not the
//! calendar.

use std::sync::OnceLock;

use chrono::{DateTime, Duration, Utc};

/// The variable that places the stack: whole seconds, negative for the past.
pub const OFFSET_VARIABLE: &str = "NAVALHA_CLOCK_OFFSET_SECONDS";

/// Now, on the system's clock.
pub fn now() -> DateTime<Utc> {
    Utc::now() + offset()
}

/// How far the system's clock is from the machine's: read once, at the first use.
///
/// # Panics
/// When the variable is set to something other than a whole number of seconds: a run
/// placed at the wrong instant must not pass for one placed at the right one.
pub fn offset() -> Duration {
    *OFFSET.get_or_init(|| match std::env::var(OFFSET_VARIABLE) {
        Ok(text) if !text.trim().is_empty() => parse_offset(&text)
            .unwrap_or_else(|| panic!("{OFFSET_VARIABLE} must be a whole number of seconds, not {text:?}")),
        _ => Duration::zero(),
    })
}

static OFFSET: OnceLock<Duration> = OnceLock::new();

/// Places this process's clock so that it reads `at` now, as the variable would: for a
/// test that runs in a process of its own (cargo nextest) and places itself at a hard
/// instant before anything reads the clock. Refused once the clock has been read.
pub fn place_at(at: DateTime<Utc>) -> Result<(), &'static str> {
    OFFSET
        .set(at - Utc::now())
        .map_err(|_| "the clock was read already: place it first, in a process of its own")
}

/// The offset in seconds, as the event log's append adds it to the database's clock.
pub fn offset_seconds() -> f64 {
    offset().num_seconds() as f64
}

fn parse_offset(text: &str) -> Option<Duration> {
    // About a hundred years either way, so that adding it can never overflow.
    text.trim().parse::<i64>().ok().filter(|s| s.abs() <= 3_200_000_000).map(Duration::seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_is_whole_seconds_within_a_century() {
        assert_eq!(parse_offset("0"), Some(Duration::zero()));
        assert_eq!(parse_offset(" -86400 "), Some(Duration::days(-1)));
        assert_eq!(parse_offset("3600.5"), None);
        assert_eq!(parse_offset("tomorrow"), None);
        assert_eq!(parse_offset("99999999999"), None);
    }
}
