//! The one clock (ADR 0013): wall-clock dates and times are those of a unit's IANA time
//! zone; rules tied to no unit (a date of birth, a subscription's first pay day, an `asOf`
//! without an offset, the day a client registered) use the default zone every unit starts
//! with, `America/Sao_Paulo` (spec 01: "Dates are handled at UTC-3"). No fixed offset
//! anywhere: a zone's rules (its past daylight saving time, any change to come) apply.
//!
//! SQL that reads a unit's zone from its row converts there (`$1::timestamptz at time zone
//! c.time_zone`, with [`now`] bound: never the database's own `now()`, which a test run
//! placed at another instant does not move); everything else converts here.

use chrono::{DateTime, LocalResult, NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;

pub use navalha_domain::clock::{now, offset, offset_seconds, place_at};
pub use navalha_domain::company::DEFAULT_TIME_ZONE;

/// The zone named `name`; the default zone for a name this build does not know (a unit's
/// zone is validated when saved, so that is only an older row or a newer tz database).
pub fn zone(name: &str) -> Tz {
    name.parse().unwrap_or(chrono_tz::America::Sao_Paulo)
}

/// The wall clock in `zone`, now.
pub fn now_in(zone_name: &str) -> NaiveDateTime {
    wall_clock(now(), zone_name)
}

/// Today in the default zone, for date rules tied to no unit.
pub fn today() -> NaiveDate {
    now_in(DEFAULT_TIME_ZONE).date()
}

/// The wall clock in `zone` at `instant`.
pub fn wall_clock(instant: DateTime<Utc>, zone_name: &str) -> NaiveDateTime {
    instant.with_timezone(&zone(zone_name)).naive_local()
}

/// The instant a wall-clock time in `zone` names: the earlier one when the clock was turned
/// back, and the first instant after the gap when it was turned forward.
pub fn instant_of(wall: NaiveDateTime, zone_name: &str) -> DateTime<Utc> {
    let tz = zone(zone_name);
    match tz.from_local_datetime(&wall) {
        LocalResult::Single(at) | LocalResult::Ambiguous(at, _) => at.with_timezone(&Utc),
        // Clocks move forward by at most an hour here; the first valid minute after it.
        LocalResult::None => (1..=120)
            .find_map(|minutes| {
                tz.from_local_datetime(&(wall + chrono::Duration::minutes(minutes))).earliest()
            })
            .map_or_else(|| wall.and_utc(), |at| at.with_timezone(&Utc)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").expect("date-time")
    }

    #[test]
    fn sao_paulo_is_utc_minus_3_today_and_kept_its_past_summer_time() {
        let noon = instant_of(at("2026-11-24 12:00"), DEFAULT_TIME_ZONE);
        assert_eq!(noon.to_rfc3339(), "2026-11-24T15:00:00+00:00");
        assert_eq!(wall_clock(noon, DEFAULT_TIME_ZONE), at("2026-11-24 12:00"));
        // Brazil had summer time until 2019: UTC-2 in January 2018.
        let summer = instant_of(at("2018-01-15 12:00"), DEFAULT_TIME_ZONE);
        assert_eq!(summer.to_rfc3339(), "2018-01-15T14:00:00+00:00");
    }

    #[test]
    fn a_unit_elsewhere_keeps_its_own_clock() {
        let instant = instant_of(at("2026-11-24 12:00"), DEFAULT_TIME_ZONE);
        assert_eq!(wall_clock(instant, "America/Manaus"), at("2026-11-24 11:00"));
        assert_eq!(wall_clock(instant, "not a zone"), at("2026-11-24 12:00"));
    }

    #[test]
    fn a_time_in_the_spring_gap_or_the_autumn_overlap_has_one_instant() {
        // 2018-11-04 00:00 did not exist in São Paulo (clocks went 00:00 → 01:00).
        assert_eq!(
            instant_of(at("2018-11-04 00:30"), DEFAULT_TIME_ZONE).to_rfc3339(),
            "2018-11-04T03:00:00+00:00"
        );
        // 2019-02-16 23:30 happened twice (clocks went 00:00 → 23:00): the earlier one.
        assert_eq!(
            instant_of(at("2019-02-16 23:30"), DEFAULT_TIME_ZONE).to_rfc3339(),
            "2019-02-17T01:30:00+00:00"
        );
    }
}
