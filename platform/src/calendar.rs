//! What the free-slot rules need from the database besides the aggregates: days off and
//! holidays (from their read models) and other appointments (from `appointment_slot`, the
//! table PostgreSQL guards against overlaps, so it is never behind).
//!
//! command-api checks a booking with it; query-api computes free times with it.

use std::sync::LazyLock;

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

/// Days off of the professionals `$1` and holidays of unit `$2` that touch `[$3, $4]`, in
/// business `$5` (a holiday of "all companies" is of every unit of its business), as
/// [`BlockedRow`]s.
const BLOCKED: &str = "
    select professional_id, date_start, date_end, all_day, start_time, end_time
      from rm_day_off.day_off
     where professional_id = any($1) and date_start <= $4 and date_end >= $3 and business_id = $5
    union all
    select null, start_date, end_date, all_day, start_time, end_time
      from rm_holiday.holiday h
     where start_date <= $4 and end_date >= $3 and business_id = $5
       and (all_companies or exists (select 1 from rm_holiday.holiday_company c
                                      where c.holiday_id = h.holiday_id and c.company_id = $2))";

type BlockedRow = (Option<i64>, NaiveDate, NaiveDate, bool, Option<NaiveTime>, Option<NaiveTime>);

fn blocked_range((professional_id, first, last, all_day, start, end): BlockedRow) -> BlockedRange {
    BlockedRange {
        professional_id,
        first,
        last,
        window: match (all_day, minutes(start), minutes(end)) {
            (false, Some(start), Some(end)) => Some(Span { start, end }),
            _ => None,
        },
    }
}

/// Days off of `professionals` and holidays of `company_id` that touch `[from, to]`, in
/// `business_id`. Runs on query-api's scoped transaction as well as on command-api's pool.
pub async fn blocked_ranges(
    executor: impl sqlx::PgExecutor<'_>,
    business_id: i64,
    professionals: &[i64],
    company_id: i64,
    from: NaiveDate,
    to: NaiveDate,
) -> sqlx::Result<Vec<BlockedRange>> {
    let rows: Vec<BlockedRow> = sqlx::query_as(BLOCKED)
        .bind(professionals)
        .bind(company_id)
        .bind(from)
        .bind(to)
        .bind(business_id)
        .fetch_all(executor)
        .await?;
    Ok(rows.into_iter().map(blocked_range).collect())
}

/// [`taken_day`]'s statement: a busy slot comes as a row of [`BLOCKED`]'s shape, marked
/// (1: the professional's, 2: the client's), its end its upper bound's date and time
/// (midnight of the next day at the latest); a day off or holiday is marked 0.
static TAKEN_DAY: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select 1, professional_id, lower(during)::date, upper(during)::date, false,
                lower(during)::time, upper(during)::time
           from appointment_slot
          where professional_id = ($1::bigint[])[1] and lower(during) >= $3::date
            and lower(during) < $3::date + 1 and appointment_id is distinct from $6
         union all
         select 2, professional_id, lower(client_during)::date, upper(client_during)::date, false,
                lower(client_during)::time, upper(client_during)::time
           from appointment_slot
          where client_id = $8 and lower(client_during) >= $3::date
            and lower(client_during) < $3::date + 1 and appointment_id is distinct from $6
         union all
         select 0, blocked.* from ({BLOCKED}) blocked where $7"
    )
});

/// What is already taken of one professional's day, and of their client's.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TakenDay {
    /// Their other active appointments that start on the day.
    pub busy: Vec<BusySlot>,
    /// The days off and holidays that touch it, when asked for.
    pub blocked: Vec<BlockedRange>,
    /// The client's other active appointments that start on the day, with any professional
    /// (a client is in one chair at a time, issue 45).
    pub client_busy: Vec<BusySlot>,
}

/// The day a booking of `professional_id` for `client_id` at unit `company_id` on `day` is
/// checked against, in one round trip: the professional's and the client's active
/// appointments starting that day except `except` (the one being edited; appointments never
/// cross midnight, so these are all that touch the day), and, when `with_blocked`, the days
/// off and holidays that touch it. Client ids are the business's own, so their slots are.
#[allow(clippy::too_many_arguments)]
pub async fn taken_day(
    pool: &PgPool,
    business_id: i64,
    professional_id: i64,
    company_id: i64,
    client_id: i64,
    day: NaiveDate,
    except: Option<&str>,
    with_blocked: bool,
) -> sqlx::Result<TakenDay> {
    type Row = (i32, Option<i64>, NaiveDate, NaiveDate, bool, Option<NaiveTime>, Option<NaiveTime>);
    let rows: Vec<Row> = sqlx::query_as(TAKEN_DAY.as_str())
        .bind(&[professional_id][..])
        .bind(company_id)
        .bind(day)
        .bind(day)
        .bind(business_id)
        .bind(except)
        .bind(with_blocked)
        .bind(client_id)
        .fetch_all(pool)
        .await?;
    let mut taken = TakenDay::default();
    for (kind, professional, first, last, all_day, start, end) in rows {
        let slot = |start, end| BusySlot {
            professional_id: professional.unwrap_or(professional_id),
            start: first.and_time(start),
            end: last.and_time(end),
        };
        match (kind, start, end) {
            (1, Some(start), Some(end)) => taken.busy.push(slot(start, end)),
            (2, Some(start), Some(end)) => taken.client_busy.push(slot(start, end)),
            _ => taken.blocked.push(blocked_range((professional, first, last, all_day, start, end))),
        }
    }
    Ok(taken)
}

/// The minutes the active professionals of unit `company_id` work on `day`, as the home's
/// occupancy counts them (`DayRules::working_minutes`): their working periods inside the
/// unit's hours (the free-time model's templates), less days off and holidays. The measure
/// of a unit's day that newcomers' online bookings may hold a share of (issue 39).
pub async fn unit_working_minutes(
    conn: &mut sqlx::PgConnection,
    business_id: i64,
    company_id: i64,
    day: NaiveDate,
) -> sqlx::Result<i64> {
    use chrono::Datelike as _;
    let templates: Vec<(i64, Vec<i32>)> = sqlx::query_as(
        "select t.professional_id, t.bounds from rm_free_time.template t
           join rm_professional.professional p on p.professional_id = t.professional_id
          where t.company_id = $1 and t.week_day = $2 and p.status = $3 and t.business_id = $4",
    )
    .bind(company_id)
    .bind(day.weekday().num_days_from_sunday() as i16)
    .bind(navalha_domain::professional::status::ACTIVE)
    .bind(business_id)
    .fetch_all(&mut *conn)
    .await?;
    let professionals: Vec<i64> = templates.iter().map(|(id, _)| *id).collect();
    let blocked = blocked_ranges(&mut *conn, business_id, &professionals, company_id, day, day).await?;
    Ok(templates
        .iter()
        .map(|(id, bounds)| {
            let rules = navalha_domain::availability::DayRules {
                working: navalha_domain::availability::spans_of_bounds(bounds),
                opening: Some(Span::DAY),
                blocked: blocked.iter().filter_map(|range| range.on(day, *id)).collect(),
                busy: Vec::new(),
            };
            i64::from(rules.working_minutes())
        })
        .sum())
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
