//! Free-slot arithmetic: pure minute ranges within one day, on the unit's wall clock.
//!
//! A professional is free at a time when it lies inside one of their working periods and
//! inside the unit's opening hours, outside their days off and the holidays, and outside
//! every other active appointment. `ALL_TIMES` bookings lift working hours, days off and
//! holidays, but stay inside the unit's opening hours, and never overlap another booking.

use crate::validation::Period;

/// Start times are offered on this grid, in minutes.
pub const GRID_MINUTES: u16 = 15;
/// Minutes in a day: a span may end at 24:00.
pub const DAY_MINUTES: u16 = 24 * 60;

/// A half-open range of minutes of one day, `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// First minute.
    pub start: u16,
    /// Minute after the last.
    pub end: u16,
}

impl Span {
    /// The whole day.
    pub const DAY: Span = Span { start: 0, end: DAY_MINUTES };

    /// Whether the two spans share a minute.
    pub fn overlaps(self, other: Span) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// Whether `other` lies within this span.
    pub fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

impl From<Period> for Span {
    fn from(period: Period) -> Self {
        Span { start: period.start.minutes(), end: period.end.minutes() }
    }
}

/// Everything that decides a professional's free time on one day.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DayRules {
    /// Their working periods that day.
    pub working: Vec<Span>,
    /// The unit's opening period that day; `None` is closed.
    pub opening: Option<Span>,
    /// Days off and holidays touching the day.
    pub blocked: Vec<Span>,
    /// Their other active appointments.
    pub busy: Vec<Span>,
}

/// Why a time is not available (the first rule it breaks, in this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unavailable {
    /// Outside the professional's working periods.
    OutsideWorkingHours,
    /// Outside the unit's opening hours.
    UnitClosed,
    /// On a day off or a holiday.
    Blocked,
    /// Overlaps another appointment.
    Busy,
}

impl DayRules {
    /// Checks a span against every rule (`ONLY_AVAILABLES`).
    pub fn check(&self, span: Span) -> Result<(), Unavailable> {
        if !self.working.iter().any(|w| w.contains(span)) {
            return Err(Unavailable::OutsideWorkingHours);
        }
        if !self.opening.is_some_and(|o| o.contains(span)) {
            return Err(Unavailable::UnitClosed);
        }
        if self.blocked.iter().any(|b| b.overlaps(span)) {
            return Err(Unavailable::Blocked);
        }
        self.check_overlap(span)
    }

    /// Checks a span as `ALL_TIMES` does: inside the unit's opening hours, and no overlap.
    pub fn check_all_times(&self, span: Span) -> Result<(), Unavailable> {
        if !self.opening.is_some_and(|o| o.contains(span)) {
            return Err(Unavailable::UnitClosed);
        }
        self.check_overlap(span)
    }

    /// Checks only the overlap with other appointments.
    pub fn check_overlap(&self, span: Span) -> Result<(), Unavailable> {
        if self.busy.iter().any(|b| b.overlaps(span)) {
            Err(Unavailable::Busy)
        } else {
            Ok(())
        }
    }

    /// The minutes the professional works that day: their working periods inside the unit's
    /// opening hours, less days off and holidays (the home's occupancy, issue 17).
    pub fn working_minutes(&self) -> u32 {
        let Some(opening) = self.opening else { return 0 };
        let mut total = 0;
        for period in &self.working {
            let (start, end) = (period.start.max(opening.start), period.end.min(opening.end));
            if start >= end {
                continue;
            }
            let mut blocked: Vec<(u16, u16)> = self
                .blocked
                .iter()
                .map(|b| (b.start.max(start), b.end.min(end)))
                .filter(|(from, to)| from < to)
                .collect();
            blocked.sort_unstable();
            // Blocked ranges may overlap one another: count each minute once.
            let (mut off, mut reach) = (0, start);
            for (from, to) in blocked {
                let from = from.max(reach);
                if from < to {
                    off += u32::from(to - from);
                    reach = to;
                }
            }
            total += u32::from(end - start) - off;
        }
        total
    }

    /// The free slots of `duration` minutes starting on the 15-minute grid at or after
    /// `not_before`. With `all_times`, working hours, days off and holidays are ignored and
    /// the candidates span the unit's opening hours.
    pub fn free_slots(&self, duration: u16, not_before: u16, all_times: bool) -> Vec<Span> {
        if duration == 0 {
            return Vec::new();
        }
        let windows: Vec<Span> =
            if all_times { self.opening.into_iter().collect() } else { self.working.clone() };
        let mut slots = Vec::new();
        for window in windows {
            let first = window.start.max(not_before).div_ceil(GRID_MINUTES) * GRID_MINUTES;
            let mut start = first;
            while start + duration <= window.end {
                let span = Span { start, end: start + duration };
                let fits = if all_times { self.check_all_times(span) } else { self.check(span) };
                if fits.is_ok() && slots.last() != Some(&span) {
                    slots.push(span);
                }
                start += GRID_MINUTES;
            }
        }
        slots.sort();
        slots.dedup();
        slots
    }
}

/// The parts of `pieces` that no span of `cuts` touches, in order. `pieces` must not
/// overlap one another (working periods, or the pieces of a free-time row, never do).
pub fn subtract(pieces: &[Span], cuts: &[Span]) -> Vec<Span> {
    let mut cuts: Vec<Span> = cuts.iter().copied().filter(|cut| cut.start < cut.end).collect();
    cuts.sort_unstable();
    let mut left = Vec::new();
    for piece in pieces {
        let mut from = piece.start;
        for cut in cuts.iter().filter(|cut| cut.overlaps(*piece)) {
            if cut.start > from {
                left.push(Span { start: from, end: cut.start });
            }
            from = from.max(cut.end);
        }
        if from < piece.end {
            left.push(Span { start: from, end: piece.end });
        }
    }
    left.sort_unstable();
    left
}

/// Today's first minute a booking may start at, `now` being the unit's wall clock: a time
/// that starts within the current minute has already begun, and `Booking::check` refuses a
/// start before now (`PastTime`). Today's free times are fitted from it.
pub fn first_bookable_minute(now: chrono::NaiveTime) -> u16 {
    use chrono::Timelike as _;
    let begun = now.second() > 0 || now.nanosecond() > 0;
    let minute = now.hour() * 60 + now.minute() + u32::from(begun);
    u16::try_from(minute).unwrap_or(DAY_MINUTES).min(DAY_MINUTES)
}

/// The slots of `duration` minutes that start on the 15-minute grid at or after
/// `not_before` and lie within one of `pieces` (free time, as the `free_time` read model
/// keeps it), by start. Equals `DayRules::free_slots` when the pieces are the working
/// periods inside the opening hours less what is blocked or busy.
pub fn fit(pieces: &[Span], duration: u16, not_before: u16) -> Vec<Span> {
    let mut slots = Vec::new();
    if duration == 0 {
        return slots;
    }
    for piece in pieces {
        let mut start = piece.start.max(not_before).div_ceil(GRID_MINUTES) * GRID_MINUTES;
        while start + duration <= piece.end {
            slots.push(Span { start, end: start + duration });
            start += GRID_MINUTES;
        }
    }
    slots.sort_unstable();
    slots
}

/// Spans from the `[start, end, start, end, …]` bounds the read model stores.
pub fn spans_of_bounds(bounds: &[i32]) -> Vec<Span> {
    let minute = |m: i32| u16::try_from(m.clamp(0, i32::from(DAY_MINUTES))).unwrap_or(DAY_MINUTES);
    bounds.chunks_exact(2).map(|pair| Span { start: minute(pair[0]), end: minute(pair[1]) }).collect()
}

/// The part of a multi-day range (days off, holidays) that falls on `day`. A range with a
/// time window runs continuously from its first day's start time to its last day's end
/// time; an all-day range blocks its days whole.
pub fn blocked_on(
    day: chrono::NaiveDate,
    first: chrono::NaiveDate,
    last: chrono::NaiveDate,
    window: Option<Span>,
) -> Option<Span> {
    if day < first || day > last {
        return None;
    }
    let Some(window) = window else { return Some(Span::DAY) };
    let start = if day == first { window.start } else { 0 };
    let end = if day == last { window.end } else { DAY_MINUTES };
    (start < end).then_some(Span { start, end })
}

/// `HH:MM` of a minute of the day (24:00 for the end of the day). The labels are made once:
/// a month of free times for a large unit holds tens of thousands of them.
pub fn format_minutes(minutes: u16) -> &'static str {
    static LABELS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
        (0..=DAY_MINUTES).map(|m| format!("{:02}:{:02}", m / 60, m % 60)).collect()
    });
    LABELS.get(usize::from(minutes.min(DAY_MINUTES))).map_or("24:00", String::as_str)
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, NaiveTime};

    use super::*;

    fn span(start: &str, end: &str) -> Span {
        let minutes = |t: &str| {
            let (h, m) = t.split_once(':').unwrap_or(("0", "0"));
            h.parse::<u16>().unwrap_or(0) * 60 + m.parse::<u16>().unwrap_or(0)
        };
        Span { start: minutes(start), end: minutes(end) }
    }

    fn rules() -> DayRules {
        DayRules {
            working: vec![span("09:00", "12:00"), span("13:00", "18:00")],
            opening: Some(span("08:00", "20:00")),
            blocked: vec![],
            busy: vec![span("10:00", "10:45")],
        }
    }

    #[test]
    fn working_minutes_are_the_periods_inside_opening_hours_less_blocked_time_counted_once() {
        let mut rules = rules();
        assert_eq!(rules.working_minutes(), 3 * 60 + 5 * 60, "appointments do not matter");
        rules.opening = Some(span("10:00", "17:00"));
        assert_eq!(rules.working_minutes(), 2 * 60 + 4 * 60);
        rules.blocked = vec![span("11:00", "14:00"), span("13:30", "15:00"), span("16:30", "23:00")];
        assert_eq!(rules.working_minutes(), 60 + 90, "10-11 and 15-16:30");
        rules.opening = None;
        assert_eq!(rules.working_minutes(), 0, "a closed unit");
        let whole_day = DayRules { blocked: vec![Span::DAY], ..super::tests::rules() };
        assert_eq!(whole_day.working_minutes(), 0);
    }

    #[test]
    fn each_rule_can_refuse_a_time() {
        let rules = rules();
        assert_eq!(rules.check(span("09:00", "09:30")), Ok(()));
        assert_eq!(
            rules.check(span("11:45", "12:15")),
            Err(Unavailable::OutsideWorkingHours),
            "across lunch"
        );
        assert_eq!(rules.check(span("10:30", "11:00")), Err(Unavailable::Busy));
        assert_eq!(rules.check(span("10:45", "11:15")), Ok(()), "back to back is fine");
        let closed = DayRules { opening: Some(span("09:00", "17:00")), ..rules.clone() };
        assert_eq!(closed.check(span("17:00", "17:30")), Err(Unavailable::UnitClosed));
        let holiday = DayRules { blocked: vec![span("14:00", "15:00")], ..rules.clone() };
        assert_eq!(holiday.check(span("14:45", "15:15")), Err(Unavailable::Blocked));
        assert_eq!(
            DayRules { opening: None, ..rules }.check(span("09:00", "09:30")),
            Err(Unavailable::UnitClosed)
        );
    }

    #[test]
    fn free_slots_follow_the_grid_periods_and_bookings() {
        let slots = rules().free_slots(30, 0, false);
        let text: Vec<&str> = slots.iter().map(|s| format_minutes(s.start)).collect();
        // 09:00-12:00 minus 10:00-10:45, then 13:00-18:00, every 15 minutes.
        assert_eq!(&text[..5], ["09:00", "09:15", "09:30", "10:45", "11:00"]);
        assert!(text.contains(&"11:30") && !text.contains(&"11:45"));
        assert_eq!(text.last().copied(), Some("17:30"));
        let later: Vec<&str> =
            rules().free_slots(30, 16 * 60 + 50, false).iter().map(|s| format_minutes(s.start)).collect();
        assert_eq!(later, ["17:00", "17:15", "17:30"], "rounded up to the grid after now");
        assert!(rules().free_slots(0, 0, false).is_empty());
    }

    #[test]
    fn all_times_ignores_working_hours_and_days_off_but_never_overlaps() {
        let rules = DayRules { working: vec![], blocked: vec![span("08:00", "20:00")], ..rules() };
        let slots = rules.free_slots(60, 0, true);
        assert_eq!(slots.first().map(|s| format_minutes(s.start)), Some("08:00"));
        assert!(slots.iter().all(|s| !s.overlaps(span("10:00", "10:45"))));
        assert_eq!(slots.last().map(|s| format_minutes(s.end)), Some("20:00"), "opening hours");
        assert_eq!(rules.check_all_times(span("12:00", "12:30")), Ok(()), "lunch and a day off");
        assert_eq!(rules.check_all_times(span("10:30", "11:00")), Err(Unavailable::Busy));
        assert_eq!(rules.check_all_times(span("19:45", "20:15")), Err(Unavailable::UnitClosed));
        assert!(DayRules { opening: None, ..rules }.free_slots(30, 0, true).is_empty(), "closed all day");
    }

    /// The read model's way (free pieces, then the fit) gives the same slots as checking every
    /// grid start against every rule, over many pseudo-random days.
    #[test]
    fn fitting_the_free_pieces_equals_checking_every_rule() {
        let mut seed: u64 = 2026;
        let mut next = |below: u16| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) % u64::from(below)) as u16
        };
        for _ in 0..2000 {
            // Up to three working periods, apart from one another (as validation keeps them).
            let mut working = Vec::new();
            let mut from = next(8 * 60);
            for _ in 0..=next(3) {
                let end = (from + 5 + next(300)).min(DAY_MINUTES);
                if from < end {
                    working.push(Span { start: from, end });
                }
                from = end + 1 + next(120);
                if from >= DAY_MINUTES {
                    break;
                }
            }
            let opening = (next(5) > 0).then(|| {
                let start = next(12 * 60);
                Span { start, end: (start + 60 + next(12 * 60)).min(DAY_MINUTES) }
            });
            let mut cuts = |count: u16| {
                (0..next(count))
                    .map(|_| {
                        let start = next(DAY_MINUTES - 10);
                        Span { start, end: (start + 5 + next(180)).min(DAY_MINUTES) }
                    })
                    .collect::<Vec<_>>()
            };
            let rules = DayRules { working, opening, blocked: cuts(3), busy: cuts(6) };
            let (duration, not_before) = (5 + next(120), next(DAY_MINUTES));
            let inside: Vec<Span> = rules
                .working
                .iter()
                .filter_map(|w| {
                    let o = rules.opening?;
                    let span = Span { start: w.start.max(o.start), end: w.end.min(o.end) };
                    (span.start < span.end).then_some(span)
                })
                .collect();
            let cuts: Vec<Span> = rules.blocked.iter().chain(&rules.busy).copied().collect();
            assert_eq!(
                fit(&subtract(&inside, &cuts), duration, not_before),
                rules.free_slots(duration, not_before, false),
                "{rules:?} duration {duration} not before {not_before}"
            );
        }
    }

    #[test]
    fn subtracting_cuts_pieces_and_bounds_read_back_as_spans() {
        let pieces = [span("09:00", "12:00"), span("13:00", "18:00")];
        let cuts = [span("11:30", "13:30"), span("10:00", "10:30"), span("17:00", "19:00")];
        assert_eq!(
            subtract(&pieces, &cuts),
            [span("09:00", "10:00"), span("10:30", "11:30"), span("13:30", "17:00")]
        );
        assert_eq!(subtract(&pieces, &[Span::DAY]), []);
        assert_eq!(spans_of_bounds(&[540, 600, 630, 690]), [span("09:00", "10:00"), span("10:30", "11:30")]);
        let slots: Vec<&str> =
            fit(&[span("09:05", "10:00")], 30, 0).iter().map(|s| format_minutes(s.start)).collect();
        assert_eq!(slots, ["09:15", "09:30"], "on the grid, inside the piece");
    }

    #[test]
    fn ranges_block_their_days_continuously() {
        let day = |d: u32| NaiveDate::from_ymd_opt(2026, 12, d).unwrap_or_default();
        let window = Some(span("14:00", "10:00"));
        assert_eq!(blocked_on(day(1), day(1), day(3), window), Some(span("14:00", "24:00")));
        assert_eq!(blocked_on(day(2), day(1), day(3), window), Some(Span::DAY));
        assert_eq!(blocked_on(day(3), day(1), day(3), window), Some(span("00:00", "10:00")));
        assert_eq!(blocked_on(day(4), day(1), day(3), window), None);
        assert_eq!(blocked_on(day(2), day(2), day(2), None), Some(Span::DAY));
        assert_eq!(
            blocked_on(day(2), day(2), day(2), Some(span("12:00", "13:00"))),
            Some(span("12:00", "13:00"))
        );
    }

    #[test]
    fn free_times_today_start_at_the_first_minute_not_yet_begun() {
        let at = |h, m, s, micros| NaiveTime::from_hms_micro_opt(h, m, s, micros).expect("a time");
        assert_eq!(first_bookable_minute(at(15, 0, 0, 0)), 900, "15:00 sharp may still be booked");
        assert_eq!(first_bookable_minute(at(15, 0, 0, 1)), 901, "15:00 has begun");
        assert_eq!(first_bookable_minute(at(14, 59, 59, 999_999)), 900);
        assert_eq!(first_bookable_minute(at(15, 0, 30, 0)), 901);
        assert_eq!(first_bookable_minute(at(23, 59, 30, 0)), DAY_MINUTES);
        assert_eq!(first_bookable_minute(NaiveTime::MIN), 0);
    }
}
