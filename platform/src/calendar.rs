//! What the free-slot rules need from the database besides the aggregates: days off and
//! holidays (from their read models) and other appointments (from `appointment_slot`, the
//! table PostgreSQL guards against overlaps, so it is never behind).
//!
//! command-api checks a booking with it; query-api computes free times with it.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use navalha_domain::availability::{blocked_on, Span};
use sqlx::PgPool;

/// A day off or holiday: first and last day, and the time window unless all-day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockedRange {
    /// The professional it applies to; `None` for a holiday (every professional).
    pub professional_id: Option<i64>,
    /// First day.
    pub first: NaiveDate,
    /// Last day.
    pub last: NaiveDate,
    /// The window, `None` for whole days.
    pub window: Option<Span>,
}

impl BlockedRange {
    /// Its part on `day` for `professional_id`, if any.
    pub fn on(&self, day: NaiveDate, professional_id: i64) -> Option<Span> {
        if self.professional_id.is_some_and(|id| id != professional_id) {
            return None;
        }
        blocked_on(day, self.first, self.last, self.window)
    }
}

/// An active appointment's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BusySlot {
    /// Whose.
    pub professional_id: i64,
    /// Start.
    pub start: NaiveDateTime,
    /// End.
    pub end: NaiveDateTime,
}

impl BusySlot {
    /// Its part on `day`.
    pub fn on(&self, day: NaiveDate) -> Option<Span> {
        let day_start = day.and_time(NaiveTime::MIN);
        let minutes = |t: NaiveDateTime| (t - day_start).num_minutes().clamp(0, 24 * 60) as u16;
        let span = Span { start: minutes(self.start), end: minutes(self.end) };
        (span.start < span.end).then_some(span)
    }
}

fn minutes(time: Option<NaiveTime>) -> Option<u16> {
    time.map(|t| (t - NaiveTime::MIN).num_minutes() as u16)
}

/// Days off of `professionals` and holidays of `company_id` that touch `[from, to]`, in
/// `business_id` (a holiday of "all companies" is of every unit of its business). Runs on
/// query-api's scoped transaction as well as on command-api's pool.
pub async fn blocked_ranges(
    executor: impl sqlx::PgExecutor<'_>,
    business_id: i64,
    professionals: &[i64],
    company_id: i64,
    from: NaiveDate,
    to: NaiveDate,
) -> sqlx::Result<Vec<BlockedRange>> {
    type Row = (Option<i64>, NaiveDate, NaiveDate, bool, Option<NaiveTime>, Option<NaiveTime>);
    let rows: Vec<Row> = sqlx::query_as(
        "select professional_id, date_start, date_end, all_day, start_time, end_time
           from rm_day_off.day_off
          where professional_id = any($1) and date_start <= $4 and date_end >= $3 and business_id = $5
         union all
         select null, start_date, end_date, all_day, start_time, end_time
           from rm_holiday.holiday h
          where start_date <= $4 and end_date >= $3 and business_id = $5
            and (all_companies or exists (select 1 from rm_holiday.holiday_company c
                                           where c.holiday_id = h.holiday_id and c.company_id = $2))",
    )
    .bind(professionals)
    .bind(company_id)
    .bind(from)
    .bind(to)
    .bind(business_id)
    .fetch_all(executor)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(professional_id, first, last, all_day, start, end)| BlockedRange {
            professional_id,
            first,
            last,
            window: match (all_day, minutes(start), minutes(end)) {
                (false, Some(start), Some(end)) => Some(Span { start, end }),
                _ => None,
            },
        })
        .collect())
}

/// Active appointments of `professional_id` starting on `day`, except `except` (the one
/// being edited). Appointments never cross midnight, so these are all that touch the day.
pub async fn busy_slots(
    pool: &PgPool,
    professional_id: i64,
    day: NaiveDate,
    except: Option<&str>,
) -> sqlx::Result<Vec<BusySlot>> {
    let day_start = day.and_time(NaiveTime::MIN);
    let rows: Vec<(NaiveDateTime, NaiveDateTime)> = sqlx::query_as(
        "select lower(during), upper(during) from appointment_slot
          where professional_id = $1 and lower(during) >= $2 and lower(during) < $3
            and appointment_id is distinct from $4",
    )
    .bind(professional_id)
    .bind(day_start)
    .bind(day_start + chrono::Duration::days(1))
    .bind(except)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|(start, end)| BusySlot { professional_id, start, end }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_cut_to_the_day_it_is_asked_about() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 1).unwrap_or_default();
        let at = |d: NaiveDate, h: u32, m: u32| d.and_hms_opt(h, m, 0).unwrap_or_default();
        let slot = BusySlot { professional_id: 1, start: at(day, 9, 15), end: at(day, 10, 0) };
        assert_eq!(slot.on(day), Some(Span { start: 555, end: 600 }));
        assert_eq!(slot.on(day.succ_opt().unwrap_or_default()), None);
        let holiday = BlockedRange { professional_id: None, first: day, last: day, window: None };
        assert_eq!(holiday.on(day, 42), Some(Span::DAY));
        let day_off = BlockedRange { professional_id: Some(7), ..holiday };
        assert_eq!(day_off.on(day, 42), None, "another professional's day off");
    }
}
