//! Regulars' repeating appointments ('Repetir', issue 45 point 4): a series is a booking
//! repeated every 1 to 8 weeks, a number of times or until a date, for at most six months.
//! Each occurrence is an ordinary appointment, checked by the same rules and the database's
//! no-overlap; the series only links them ([`SeriesLink`] on the booking), so the desk can
//! cancel one, this and the following, or all, and the history shows which series it is.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::validation::FieldErrors;

/// Most weeks between two occurrences.
pub const MAX_EVERY_WEEKS: i64 = 8;
/// Most occurrences, the first included (six months of weeks).
pub const MAX_OCCURRENCES: i64 = 26;
/// Longest a series may run, first to last occurrence.
pub const MAX_DAYS: i64 = 183;

/// `everyWeeks` outside 1 to 8.
pub const MSG_EVERY_WEEKS: &str = "Repita a cada 1 a 8 semanas.";
/// Neither a count nor an end date.
pub const MSG_UNTIL_REQUIRED: &str = "Informe até quando repetir: um número de vezes ou uma data.";
/// A count outside 2 to 26.
pub const MSG_COUNT: &str = "Repita de 2 a 26 vezes.";
/// An end date that leaves no repetition.
pub const MSG_UNTIL_TOO_SOON: &str = "A data final deve permitir pelo menos uma repetição.";
/// A series longer than six months.
pub const MSG_TOO_LONG: &str = "A série pode durar no máximo 6 meses.";

/// Which series an appointment belongs to, and where in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeriesLink {
    /// The series: the id of its first appointment.
    pub id: i64,
    /// This occurrence's place, from 1.
    pub index: u16,
    /// How many occurrences the series was booked with.
    pub count: u16,
    /// Weeks between occurrences.
    pub every_weeks: u8,
}

/// How a series repeats, as the form sends it: `everyWeeks`, and `count` or `until`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Repeat {
    /// Weeks between occurrences, 1 to 8.
    pub every_weeks: Option<i64>,
    /// Occurrences, the first included, 2 to 26.
    pub count: Option<i64>,
    /// The last day an occurrence may fall on (`YYYY-MM-DD`), within six months.
    #[schema(value_type = Option<String>, format = Date)]
    pub until: Option<NaiveDate>,
}

impl Repeat {
    /// The occurrences' days from `first`, first included; or the form's errors.
    pub fn dates(&self, first: NaiveDate) -> Result<(u8, Vec<NaiveDate>), FieldErrors> {
        let mut errors = FieldErrors::default();
        let every = self.every_weeks.filter(|w| (1..=MAX_EVERY_WEEKS).contains(w));
        errors.check(every.is_none(), "repeat.everyWeeks", MSG_EVERY_WEEKS);
        let last = first + chrono::Duration::days(MAX_DAYS);
        let count = match (self.count, self.until) {
            (Some(count), _) if !(2..=MAX_OCCURRENCES).contains(&count) => {
                errors.add("repeat.count", MSG_COUNT);
                None
            }
            (Some(count), _) => Some(count),
            (None, None) => {
                errors.add("repeat.count", MSG_UNTIL_REQUIRED);
                None
            }
            (None, Some(until)) if until > last => {
                errors.add("repeat.until", MSG_TOO_LONG);
                None
            }
            (None, Some(until)) => every.and_then(|weeks| {
                let count = (until - first).num_days() / (7 * weeks) + 1;
                if count < 2 {
                    errors.add("repeat.until", MSG_UNTIL_TOO_SOON);
                }
                (count >= 2).then_some(count)
            }),
        };
        match (every, count) {
            (Some(weeks), Some(count)) if errors.is_empty() => {
                let dates: Vec<NaiveDate> =
                    (0..count).map(|n| first + chrono::Duration::weeks(n * weeks)).collect();
                if dates.last().is_some_and(|day| *day > last) {
                    errors.add("repeat.count", MSG_TOO_LONG);
                    return Err(errors);
                }
                Ok((weeks as u8, dates))
            }
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap_or_default()
    }

    fn repeat(every: i64, count: Option<i64>, until: Option<&str>) -> Repeat {
        Repeat { every_weeks: Some(every), count, until: until.map(day) }
    }

    #[test]
    fn a_series_falls_every_n_weeks_a_number_of_times_or_until_a_day() {
        let first = day("2026-12-01");
        let (weeks, dates) = repeat(2, Some(4), None).dates(first).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(weeks, 2);
        assert_eq!(
            dates.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["2026-12-01", "2026-12-15", "2026-12-29", "2027-01-12"]
        );
        // Until a day: every occurrence on or before it.
        let until = repeat(1, None, Some("2026-12-21")).dates(first).map(|(_, d)| d.len());
        assert_eq!(until.ok(), Some(3));
        // Six months of weeks is the most.
        assert_eq!(repeat(1, Some(26), None).dates(first).map(|(_, d)| d.len()).ok(), Some(26));
    }

    #[test]
    fn each_wrong_repeat_has_its_message() {
        let first = day("2026-12-01");
        let cases = [
            (repeat(0, Some(3), None), "repeat.everyWeeks", MSG_EVERY_WEEKS),
            (repeat(9, Some(3), None), "repeat.everyWeeks", MSG_EVERY_WEEKS),
            (repeat(1, Some(1), None), "repeat.count", MSG_COUNT),
            (repeat(1, Some(27), None), "repeat.count", MSG_COUNT),
            (repeat(1, None, None), "repeat.count", MSG_UNTIL_REQUIRED),
            (repeat(2, None, Some("2026-12-10")), "repeat.until", MSG_UNTIL_TOO_SOON),
            (repeat(1, None, Some("2027-07-01")), "repeat.until", MSG_TOO_LONG),
            (repeat(8, Some(26), None), "repeat.count", MSG_TOO_LONG),
        ];
        for (repeat, field, message) in cases {
            let errors = repeat.dates(first).err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(message), "{repeat:?}");
        }
    }
}
