//! `free_time`: each professional's free time, so that `available-times` is a look-up plus
//! the fit of the services' duration (issue 15, ADR 0015).
//!
//! - `template`: per professional, unit and weekday, the working periods inside the unit's
//!   opening hours. It holds for every date of that weekday with no booking.
//! - `day`: per professional, unit and date with at least one active booking, the template
//!   less that day's bookings (in any unit: a professional is busy wherever they are booked).
//!
//! Both keep minutes of the day as `[start, end, …]` bounds for readers; `template` keeps
//! its multirange too. A day is cut from its template in Rust (`availability::subtract`).
//! A date without a `day` row is its weekday's template, so no row depends on the clock:
//! the 30-day window rolls forward with no job. Days off and holidays, few and long, stay in
//! their own models and are cut at read time.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use async_trait::async_trait;
use chrono::{Datelike as _, NaiveDate};
use navalha_domain::appointment::{Appointment, AppointmentEvent};
use navalha_domain::availability::{spans_of_bounds, subtract, Span};
use navalha_domain::company::CompanyEvent;
use navalha_domain::professional::{Professional, ProfessionalEvent};
use navalha_domain::validation::Period;
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, free_time, ReadModel};

use crate::batch::Batch;
use crate::copy::{in_key_order, CopyIn};
use crate::rows::{Fields, Int4Range, SqlText};

use crate::engine::{Fold, Projection, Tables};
use crate::event::StoredEvent;

/// Builds `rm_free_time`.
pub struct FreeTime;

/// What a batch changed: whose templates and which professional-days to recompute.
#[derive(Default)]
struct Touched {
    professionals: BTreeSet<i64>,
    companies: BTreeSet<i64>,
    /// Each appointment's latest time in the batch; `None` once cancelled.
    bookings: HashMap<i64, Option<(i64, NaiveDate, i32, i32)>>,
}

#[async_trait]
impl Projection for FreeTime {
    fn model(&self) -> &'static ReadModel {
        &read_models::FREE_TIME
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<FreeTimeFold>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

/// The inputs a template is made of, as the fold's events last set them: each event
/// overwrites its key whole, so the last one is all that is written.
#[derive(Default)]
struct Inputs {
    /// A professional's units.
    memberships: BTreeMap<i64, Vec<i64>>,
    /// A professional's working periods on a weekday.
    working: BTreeMap<(i64, u8), Vec<Period>>,
    /// A unit's hours on a weekday; `None` closes it.
    opening: BTreeMap<(i64, u8), Option<Period>>,
}

/// The inputs as last set and the appointments folded to their last time; written as the
/// inputs copied, then what they touched recomputed in a few set-based statements.
#[derive(Default)]
struct FreeTimeFold {
    inputs: Inputs,
    touched: Touched,
}

#[async_trait]
impl Fold for FreeTimeFold {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        let touched = &mut self.touched;
        if event.aggregate_type == Appointment::TYPE {
            match &*event.decoded::<AppointmentEvent>()? {
                AppointmentEvent::AppointmentBooked(booking)
                | AppointmentEvent::AppointmentChanged(booking) => {
                    // The professional's time: through the services' intervals after it.
                    let span = booking.professional_span();
                    let time =
                        (booking.professional_id, booking.date, i32::from(span.start), i32::from(span.end));
                    touched.bookings.insert(id, Some(time));
                }
                AppointmentEvent::AppointmentCancelled => {
                    touched.bookings.insert(id, None);
                }
                // The time stays taken whether or not the client came.
                AppointmentEvent::AppointmentConfirmed
                | AppointmentEvent::ConfirmationCleared
                | AppointmentEvent::ClientArrived
                | AppointmentEvent::NoShowMarked
                | AppointmentEvent::NoShowUndone => {}
            }
        } else if event.aggregate_type == Professional::TYPE {
            match event.decode::<ProfessionalEvent>()? {
                ProfessionalEvent::ProfessionalRegistered { employment, .. }
                | ProfessionalEvent::EmploymentChanged(employment) => {
                    self.inputs.memberships.insert(id, employment.company_ids());
                    touched.professionals.insert(id);
                }
                ProfessionalEvent::WorkingDaySet { week_day, periods } => {
                    self.inputs.working.insert((id, week_day), periods);
                    touched.professionals.insert(id);
                }
                ProfessionalEvent::PersonalDataChanged(_)
                | ProfessionalEvent::ServiceAdded(_)
                | ProfessionalEvent::ServiceChanged(_)
                | ProfessionalEvent::CommissionRatesSet(_) => {}
            }
        } else if let CompanyEvent::CompanyDaySet { week_day, period } = event.decode::<CompanyEvent>()? {
            self.inputs.opening.insert((id, week_day), period);
            touched.companies.insert(id);
        }
        Ok(())
    }

    async fn write(self: Box<Self>, conn: &mut PgConnection, tables: Tables) -> anyhow::Result<()> {
        // The inputs first: bookings only land in `booked`, which no input reads.
        self.inputs.write(conn).await?;
        match tables {
            Tables::Filled => {
                let days = write_bookings(conn, &self.touched.bookings).await?;
                let professionals = recompute_templates(conn, &self.touched).await?;
                recompute_days(conn, &professionals, &days).await
            }
            Tables::Empty { business_id } => {
                copy_bookings(conn, business_id, &self.touched.bookings).await?;
                recompute_templates(conn, &self.touched).await?;
                copy_days(conn, business_id, &self.touched.bookings).await
            }
        }
    }
}

/// Minutes of a period, as PostgreSQL's range text.
fn range_text(period: &Period) -> String {
    format!("[{},{})", period.start.minutes(), period.end.minutes())
}

impl Inputs {
    /// Writes each input as last set, a statement per table.
    async fn write(&self, conn: &mut PgConnection) -> anyhow::Result<()> {
        if !self.memberships.is_empty() {
            let professionals: Vec<i64> = self.memberships.keys().copied().collect();
            // Two statements: a delete in a `with` and an insert of the same key in the main
            // statement see the same snapshot, and `on conflict` would skip the insert.
            sqlx::query("delete from membership where professional_id = any($1) and business_id = navalha_event_business()")
                .bind(&professionals)
                .execute(&mut *conn)
                .await?;
            let mut rows = Batch::new(&free_time::MEMBERSHIP);
            for (professional_id, companies) in &self.memberships {
                for company_id in companies {
                    rows.field(*professional_id).field(*company_id);
                    rows.end_row()?;
                }
            }
            rows.upsert(&mut *conn).await?;
        }
        let mut working = Batch::new(&free_time::WORKING);
        for ((professional_id, week_day), periods) in &self.working {
            working
                .field(*professional_id)
                .field(i16::from(*week_day))
                .field(SqlText(multirange_text(periods.iter())));
            working.end_row()?;
        }
        working.upsert(&mut *conn).await?;
        if !self.opening.is_empty() {
            let companies: Vec<i64> = self.opening.keys().map(|(company_id, _)| *company_id).collect();
            let week_days: Vec<i16> = self.opening.keys().map(|(_, week_day)| i16::from(*week_day)).collect();
            let hours: Vec<Option<String>> =
                self.opening.values().map(|period| period.as_ref().map(range_text)).collect();
            // A closed day loses its row; an open one is set.
            sqlx::query(
                "with hours as (select * from unnest($1::bigint[], $2::smallint[], $3::text[]) u (c, d, h)),
                      closed as (delete from opening o using hours
                                  where o.company_id = hours.c and o.week_day = hours.d and hours.h is null
                                    and o.business_id = navalha_event_business())
                 insert into opening (company_id, week_day, hours)
                 select c, d, h::int4range from hours where h is not null
                 on conflict (company_id, week_day) do update set hours = excluded.hours",
            )
            .bind(&companies)
            .bind(&week_days)
            .bind(&hours)
            .execute(conn)
            .await?;
        }
        Ok(())
    }
}

/// Periods as PostgreSQL's multirange text, which orders and merges them as `range_agg` did.
fn multirange_text<'a>(periods: impl Iterator<Item = &'a Period>) -> String {
    format!("{{{}}}", periods.map(range_text).collect::<Vec<_>>().join(","))
}

/// Writes the batch's bookings (an appointment moved or cancelled leaves its old day) and
/// returns every professional-day they touched, before and after.
async fn write_bookings(
    conn: &mut PgConnection,
    bookings: &HashMap<i64, Option<(i64, NaiveDate, i32, i32)>>,
) -> anyhow::Result<Vec<(i64, NaiveDate)>> {
    if bookings.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = bookings.keys().copied().collect();
    let mut days: BTreeSet<(i64, NaiveDate)> =
        sqlx::query_as("delete from booked where appointment_id = any($1) and business_id = navalha_event_business() returning professional_id, date")
            .bind(&ids)
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .collect();
    let mut rows = Batch::new(&free_time::BOOKED);
    for (id, time) in bookings {
        if let Some(time) = time {
            booked_row(&mut rows, *id, time);
            rows.end_row()?;
            days.insert((time.0, time.1));
        }
    }
    rows.upsert(conn).await?;
    Ok(days.into_iter().collect())
}

/// An active booking's row of `free_time::BOOKED`.
fn booked_row(
    out: &mut impl Fields,
    id: i64,
    &(professional_id, date, start, end): &(i64, NaiveDate, i32, i32),
) {
    out.field(id).field(professional_id).field(date).field(Int4Range(start, end));
}

/// Copies the active bookings into the empty table.
async fn copy_bookings(
    conn: &mut PgConnection,
    business_id: i64,
    bookings: &HashMap<i64, Option<(i64, NaiveDate, i32, i32)>>,
) -> anyhow::Result<()> {
    let mut rows = CopyIn::start(&mut *conn, business_id, &free_time::BOOKED).await?;
    for (id, time) in in_key_order(bookings) {
        let Some(time) = time else { continue };
        booked_row(&mut rows, *id, time);
        rows.end_row().await?;
    }
    rows.finish().await?;
    Ok(())
}

/// Copies the free time of every booked day into the empty table: the templates just
/// written, read back, less the bookings folded, cut here as `recompute_days` cuts what it
/// reads back of `booked` (which a whole business's days made its costliest statement).
async fn copy_days(
    conn: &mut PgConnection,
    business_id: i64,
    bookings: &HashMap<i64, Option<(i64, NaiveDate, i32, i32)>>,
) -> anyhow::Result<()> {
    let mut busy: BTreeMap<(i64, NaiveDate), Vec<i32>> = BTreeMap::new();
    for (professional_id, date, start, end) in bookings.values().flatten() {
        busy.entry((*professional_id, *date)).or_default().extend([*start, *end]);
    }
    let professionals: Vec<i64> = busy.keys().map(|(professional_id, _)| *professional_id).collect();
    let templates: Vec<(i64, i16, i64, Vec<i32>)> = sqlx::query_as(
        "select professional_id, week_day, company_id, bounds from template where professional_id = any($1) and business_id = navalha_event_business()",
    )
    .bind(&professionals)
    .fetch_all(&mut *conn)
    .await?;
    // A professional's free time on a weekday, in each of their units.
    type Templates = Vec<(i64, Vec<Span>)>;
    let mut units: HashMap<(i64, i16), Templates> = HashMap::new();
    for (professional_id, week_day, company_id, bounds) in templates {
        units.entry((professional_id, week_day)).or_default().push((company_id, spans_of_bounds(&bounds)));
    }
    let mut days = Vec::new();
    for ((professional_id, date), busy) in busy {
        let week_day = date.weekday().num_days_from_sunday() as i16;
        for (company_id, template) in units.get(&(professional_id, week_day)).into_iter().flatten() {
            let free = bounds_of(&subtract(template, &spans_of_bounds(&busy)));
            days.push(((*company_id, professional_id, date), free));
        }
    }
    let mut rows = CopyIn::start(&mut *conn, business_id, &free_time::DAY).await?;
    for ((company_id, professional_id, date), free) in in_key_order(days) {
        rows.field(professional_id).field(company_id).field(date).field(free.as_slice());
        rows.end_row().await?;
    }
    rows.finish().await?;
    Ok(())
}

/// Recomputes the templates of the professionals touched, directly or through a unit whose
/// hours changed, and returns them (their days follow their templates).
async fn recompute_templates(conn: &mut PgConnection, touched: &Touched) -> anyhow::Result<Vec<i64>> {
    if touched.professionals.is_empty() && touched.companies.is_empty() {
        return Ok(Vec::new());
    }
    let direct: Vec<i64> = touched.professionals.iter().copied().collect();
    let companies: Vec<i64> = touched.companies.iter().copied().collect();
    let professionals: Vec<i64> = sqlx::query_scalar(
        "select unnest($1::bigint[])
         union
         select professional_id from membership where company_id = any($2) and business_id = navalha_event_business()",
    )
    .bind(&direct)
    .bind(&companies)
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query(
        "delete from template where professional_id = any($1) and business_id = navalha_event_business()",
    )
    .bind(&professionals)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into template (professional_id, company_id, week_day, free, bounds)
         select m.professional_id, m.company_id, w.week_day, f.free, bounds(f.free)
           from membership m
           join working w on w.professional_id = m.professional_id
           join opening o on o.company_id = m.company_id and o.week_day = w.week_day
           cross join lateral (select w.periods * int4multirange(o.hours) as free) f
          where m.professional_id = any($1) and not isempty(f.free)
            and m.business_id = navalha_event_business() and w.business_id = navalha_event_business() and o.business_id = navalha_event_business()",
    )
    .bind(&professionals)
    .execute(conn)
    .await?;
    Ok(professionals)
}

/// Recomputes the free time of the days given and of every booked day of `professionals`: the
/// template less the day's bookings. A day whose bookings are all gone loses its row.
///
/// The subtraction runs here, with the domain's `subtract`, not in PostgreSQL: `range_agg`
/// and multirange arithmetic were the model's costliest statement, in a booking's batch
/// and in a rebuild alike (`docs/bench.md`).
async fn recompute_days(
    conn: &mut PgConnection,
    professionals: &[i64],
    days: &[(i64, NaiveDate)],
) -> anyhow::Result<()> {
    if professionals.is_empty() && days.is_empty() {
        return Ok(());
    }
    let (day_professionals, dates): (Vec<i64>, Vec<NaiveDate>) = days.iter().copied().unzip();
    // The days to recompute: those given, and every booked day of `professionals`. Without
    // professionals (a batch of bookings), a statement without them: a live batch's plan is
    // made once for any parameters, and for `any($3)` it guesses thousands of days and scans
    // every day of the model to delete a few.
    let keys = if professionals.is_empty() {
        "select professional_id, date from unnest($1::bigint[], $2::date[]) k (professional_id, date)"
    } else {
        "select professional_id, date from unnest($1::bigint[], $2::date[]) k (professional_id, date)
          union
         select professional_id, date from booked where professional_id = any($3) and business_id = navalha_event_business()"
    };
    // Their old rows go, and each day's bookings come back with the template of its weekday
    // in each of the professional's units: a row per booking and unit. The keys are worked
    // out once for both.
    let sql = format!(
        "with keys as materialized ({keys}),
              gone as (delete from day where (professional_id, date) in (select * from keys) and business_id = navalha_event_business())
         select b.professional_id, b.date, t.company_id, t.bounds, lower(b.during), upper(b.during)
           from booked b
           join template t on t.professional_id = b.professional_id
                          and t.week_day = extract(dow from b.date)::smallint
          where (b.professional_id, b.date) in (select * from keys) and b.business_id = navalha_event_business() and t.business_id = navalha_event_business()
          order by b.professional_id, b.date, t.company_id"
    );
    let mut statement = sqlx::query_as(&sql).bind(&day_professionals).bind(&dates);
    if !professionals.is_empty() {
        statement = statement.bind(professionals);
    }
    let rows: Vec<(i64, NaiveDate, i64, Vec<i32>, i32, i32)> = statement.fetch_all(&mut *conn).await?;
    let mut days = Batch::new(&free_time::DAY);
    for unit_day in rows.chunk_by(|a, b| (a.0, a.1, a.2) == (b.0, b.1, b.2)) {
        let (professional_id, date, company_id, template, _, _) = &unit_day[0];
        let busy: Vec<i32> = unit_day.iter().flat_map(|row| [row.4, row.5]).collect();
        let free = bounds_of(&subtract(&spans_of_bounds(template), &spans_of_bounds(&busy)));
        days.field(*professional_id).field(*company_id).field(*date).field(free.as_slice());
        days.end_row()?;
    }
    days.upsert(conn).await
}

/// Spans as the `[start, end, …]` of the `bounds` column.
fn bounds_of(spans: &[Span]) -> Vec<i32> {
    spans.iter().flat_map(|span| [i32::from(span.start), i32::from(span.end)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_its_template_less_its_bookings() {
        let template = spans_of_bounds(&[540, 720, 780, 1080]);
        let busy = spans_of_bounds(&[600, 630, 700, 800, 1000, 1000]);
        assert_eq!(bounds_of(&subtract(&template, &busy)), [540, 600, 630, 700, 800, 1080]);
        assert!(bounds_of(&subtract(&template, &[Span::DAY])).is_empty());
    }
}
