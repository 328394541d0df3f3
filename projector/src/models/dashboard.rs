//! `dashboard`: the home's figures (issue 17), summed per unit, day and professional as the
//! events come, so that the home reads a few hundred rows for a month however long the
//! shop's history is.
//!
//! Each appointment's last state is kept (`appointment`), so that a move, a confirmation or a
//! cancellation takes back what the appointment added before and adds what it adds now.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::NaiveDate;
use navalha_domain::appointment::{AppointmentEvent, BookedService, Booking};
use navalha_domain::client::{Client, ClientEvent};
use navalha_domain::Aggregate as _;
use navalha_platform::clock;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, dashboard, ReadModel};

use crate::batch::Batch;
use crate::copy::{in_key_order, CopyIn};
use crate::rows::Fields;

use crate::engine::{Fold, Projection, Tables};
use crate::event::StoredEvent;

/// Builds `rm_dashboard`.
pub struct Dashboard;

/// What the figures need of an appointment.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
struct Fact {
    company_id: i64,
    professional_id: i64,
    date: NaiveDate,
    start_minute: i16,
    minutes: i32,
    services: sqlx::types::Json<Vec<BookedService>>,
    /// Booked and not cancelled.
    active: bool,
    confirmed: bool,
}

impl Fact {
    fn of(booking: &Booking, active: bool, confirmed: bool) -> Fact {
        Fact {
            company_id: booking.company_id,
            professional_id: booking.professional_id,
            date: booking.date,
            start_minute: booking.start.minutes() as i16,
            minutes: i32::from(booking.end.minutes()) - i32::from(booking.start.minutes()),
            services: sqlx::types::Json(booking.services.clone()),
            active,
            confirmed,
        }
    }
}

/// A row of `appointment`.
#[derive(sqlx::FromRow)]
struct StoredFact {
    appointment_id: i64,
    #[sqlx(flatten)]
    fact: Fact,
}

/// `(unit, day, professional)`.
type DayKey = (i64, NaiveDate, i64);

/// The changes a batch makes to the figures.
#[derive(Default)]
struct Deltas {
    /// booked, confirmed, cancelled, booked minutes, revenue cents.
    days: HashMap<DayKey, [i64; 5]>,
    /// By service: its description, booked, revenue cents.
    services: HashMap<(DayKey, i64), (String, i64, i64)>,
    /// By start hour: booked.
    hours: HashMap<(DayKey, i16), i64>,
}

impl Deltas {
    /// Adds (`sign` 1) or takes back (`sign` -1) what an appointment counts for.
    fn count(&mut self, fact: &Fact, sign: i64) {
        let key = (fact.company_id, fact.date, fact.professional_id);
        let day = self.days.entry(key).or_default();
        if !fact.active {
            day[2] += sign;
            return;
        }
        let cents: i64 = fact.services.iter().map(|s| s.cents).sum();
        day[0] += sign;
        day[1] += sign * i64::from(fact.confirmed);
        day[3] += sign * i64::from(fact.minutes);
        day[4] += sign * cents;
        for service in fact.services.iter() {
            let entry = self.services.entry((key, service.service_id)).or_default();
            entry.0.clone_from(&service.description);
            entry.1 += sign;
            entry.2 += sign * service.cents;
        }
        *self.hours.entry((key, fact.start_minute / 60)).or_default() += sign;
    }

    /// Copies the figures into the empty tables.
    async fn copy(self, conn: &mut PgConnection, business_id: i64) -> anyhow::Result<()> {
        let mut days = CopyIn::start(&mut *conn, business_id, &dashboard::DAY_FIGURE).await?;
        for (key, values) in in_key_order(self.days) {
            day_row(&mut days, key, values);
            days.end_row().await?;
        }
        days.finish().await?;
        let mut services = CopyIn::start(&mut *conn, business_id, &dashboard::SERVICE_FIGURE).await?;
        for (key, values) in in_key_order(self.services) {
            service_row(&mut services, key, &values);
            services.end_row().await?;
        }
        services.finish().await?;
        let mut hours = CopyIn::start(&mut *conn, business_id, &dashboard::HOUR_FIGURE).await?;
        for (key, booked) in in_key_order(self.hours) {
            hour_row(&mut hours, key, booked);
            hours.end_row().await?;
        }
        hours.finish().await?;
        Ok(())
    }

    /// Adds the changes to the figures.
    async fn write(self, conn: &mut PgConnection) -> anyhow::Result<()> {
        let mut days = Batch::new(&dashboard::DAY_FIGURE);
        for (key, values) in self.days {
            day_row(&mut days, key, values);
            days.end_row()?;
        }
        days.upsert(&mut *conn).await?;
        let mut services = Batch::new(&dashboard::SERVICE_FIGURE);
        for (key, values) in self.services {
            service_row(&mut services, key, &values);
            services.end_row()?;
        }
        services.upsert(&mut *conn).await?;
        let mut hours = Batch::new(&dashboard::HOUR_FIGURE);
        for (key, booked) in self.hours {
            hour_row(&mut hours, key, booked);
            hours.end_row()?;
        }
        hours.upsert(conn).await
    }
}

/// A row of `dashboard::DAY_FIGURE`.
fn day_row(out: &mut impl Fields, (company_id, date, professional_id): DayKey, values: [i64; 5]) {
    out.field(company_id).field(date).field(professional_id);
    for value in values {
        out.field(value);
    }
}

/// A row of `dashboard::SERVICE_FIGURE`.
fn service_row(
    out: &mut impl Fields,
    ((company_id, date, professional_id), service_id): (DayKey, i64),
    (description, booked, cents): &(String, i64, i64),
) {
    out.field(company_id)
        .field(date)
        .field(professional_id)
        .field(service_id)
        .field(description)
        .field(*booked)
        .field(*cents);
}

/// A row of `dashboard::HOUR_FIGURE`.
fn hour_row(out: &mut impl Fields, ((company_id, date, professional_id), hour): (DayKey, i16), booked: i64) {
    out.field(company_id).field(date).field(professional_id).field(hour).field(booked);
}

#[async_trait]
impl Projection for Dashboard {
    fn model(&self) -> &'static ReadModel {
        &read_models::DASHBOARD
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<DashboardFold>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

/// Appointment events gathered per appointment, and clients registered per day.
#[derive(Default)]
struct DashboardFold {
    changed: Vec<(i64, Vec<Arc<AppointmentEvent>>)>,
    index: HashMap<i64, usize>,
    registrations: HashMap<NaiveDate, i64>,
}

#[async_trait]
impl Fold for DashboardFold {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        if event.aggregate_type == Client::TYPE {
            if let ClientEvent::ClientRegistered { .. } = event.decode::<ClientEvent>()? {
                *self
                    .registrations
                    .entry(clock::wall_clock(event.recorded_at, clock::DEFAULT_TIME_ZONE).date())
                    .or_default() += 1;
            }
            return Ok(());
        }
        let id = event.numeric_id()?;
        let slot = *self.index.entry(id).or_insert_with(|| {
            self.changed.push((id, Vec::new()));
            self.changed.len() - 1
        });
        self.changed[slot].1.push(event.decoded::<AppointmentEvent>()?);
        Ok(())
    }

    /// Each appointment's state before (from `appointment`) is taken back from the figures
    /// and its state after its events is added.
    async fn write(self: Box<Self>, conn: &mut PgConnection, tables: Tables) -> anyhow::Result<()> {
        let DashboardFold { changed, registrations, .. } = *self;
        if !changed.is_empty() {
            let before: HashMap<i64, Fact> = match tables {
                Tables::Empty { .. } => HashMap::new(),
                Tables::Filled => {
                    let ids: Vec<i64> = changed.iter().map(|(id, _)| *id).collect();
                    sqlx::query_as::<_, StoredFact>(
                        "select * from appointment where appointment_id = any($1) and business_id = navalha_event_business()",
                    )
                    .bind(&ids)
                    .fetch_all(&mut *conn)
                    .await?
                    .into_iter()
                    .map(|row| (row.appointment_id, row.fact))
                    .collect()
                }
            };
            let mut deltas = Deltas::default();
            let mut after: Vec<(i64, Fact)> = Vec::new();
            for (id, events) in changed {
                let old = before.get(&id);
                let mut fact = old.cloned();
                for event in events {
                    fact = match (&*event, fact) {
                        (
                            AppointmentEvent::AppointmentBooked(b) | AppointmentEvent::AppointmentChanged(b),
                            f,
                        ) => {
                            let (active, confirmed) = f.map_or((true, false), |f| (f.active, f.confirmed));
                            Some(Fact::of(b, active, confirmed))
                        }
                        (AppointmentEvent::AppointmentConfirmed, Some(f)) => {
                            Some(Fact { confirmed: true, ..f })
                        }
                        (AppointmentEvent::ConfirmationCleared, Some(f)) => {
                            Some(Fact { confirmed: false, ..f })
                        }
                        (AppointmentEvent::AppointmentCancelled, Some(f)) => {
                            Some(Fact { active: false, ..f })
                        }
                        // Attendance moves no figure of the home yet.
                        (
                            AppointmentEvent::ClientArrived
                            | AppointmentEvent::NoShowMarked
                            | AppointmentEvent::NoShowUndone,
                            f,
                        ) => f,
                        (_, None) => None,
                    };
                }
                let Some(fact) = fact else { continue };
                if old == Some(&fact) {
                    continue;
                }
                if let Some(old) = old {
                    deltas.count(old, -1);
                }
                deltas.count(&fact, 1);
                after.push((id, fact));
            }
            match tables {
                Tables::Filled => {
                    write_facts(conn, &after).await?;
                    deltas.write(conn).await?;
                }
                Tables::Empty { business_id } => {
                    copy_facts(conn, business_id, &after).await?;
                    deltas.copy(conn, business_id).await?;
                }
            }
        }
        let mut rows = Batch::new(&dashboard::CLIENT_REGISTRATION);
        for (date, clients) in registrations {
            rows.field(date).field(clients);
            rows.end_row()?;
        }
        rows.upsert(conn).await?;
        Ok(())
    }
}

/// An appointment's row of `dashboard::APPOINTMENT`.
fn fact_row(out: &mut impl Fields, id: i64, fact: &Fact) -> anyhow::Result<()> {
    out.field(id)
        .field(fact.company_id)
        .field(fact.professional_id)
        .field(fact.date)
        .field(fact.start_minute)
        .field(fact.minutes)
        // serde_json's text: json keeps its text as given.
        .field(serde_json::to_string(&fact.services.0)?.as_str())
        .field(fact.active)
        .field(fact.confirmed);
    Ok(())
}

/// Copies the facts into the empty table.
async fn copy_facts(conn: &mut PgConnection, business_id: i64, facts: &[(i64, Fact)]) -> anyhow::Result<()> {
    let mut rows = CopyIn::start(&mut *conn, business_id, &dashboard::APPOINTMENT).await?;
    for (id, fact) in in_key_order(facts.iter().map(|(id, fact)| (*id, fact))) {
        fact_row(&mut rows, id, fact)?;
        rows.end_row().await?;
    }
    rows.finish().await?;
    Ok(())
}

async fn write_facts(conn: &mut PgConnection, facts: &[(i64, Fact)]) -> anyhow::Result<()> {
    let mut rows = Batch::new(&dashboard::APPOINTMENT);
    for (id, fact) in facts {
        fact_row(&mut rows, *id, fact)?;
        rows.end_row()?;
    }
    rows.upsert(conn).await
}
