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

use crate::copy::{in_key_order, CopyIn};
use navalha_read_models::{self as read_models, ReadModel};

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
        let mut days = CopyIn::start(
            &mut *conn,
            business_id,
            "day_figure",
            "company_id, date, professional_id, booked, confirmed, cancelled, booked_minutes, revenue_cents",
        )
        .await?;
        for ((company_id, date, professional_id), values) in in_key_order(self.days) {
            days.field(company_id).field(date).field(professional_id);
            for value in values {
                days.field(value);
            }
            days.end_row().await?;
        }
        days.finish().await?;
        let mut services = CopyIn::start(
            &mut *conn,
            business_id,
            "service_figure",
            "company_id, date, professional_id, service_id, description, booked, revenue_cents",
        )
        .await?;
        for (((company_id, date, professional_id), service_id), (description, booked, cents)) in
            in_key_order(self.services)
        {
            services
                .field(company_id)
                .field(date)
                .field(professional_id)
                .field(service_id)
                .field(&description)
                .field(booked)
                .field(cents);
            services.end_row().await?;
        }
        services.finish().await?;
        let mut hours = CopyIn::start(
            &mut *conn,
            business_id,
            "hour_figure",
            "company_id, date, professional_id, hour, booked",
        )
        .await?;
        for (((company_id, date, professional_id), hour), booked) in in_key_order(self.hours) {
            hours.field(company_id).field(date).field(professional_id).field(hour).field(booked);
            hours.end_row().await?;
        }
        hours.finish().await?;
        Ok(())
    }

    async fn write(self, conn: &mut PgConnection) -> anyhow::Result<()> {
        if !self.days.is_empty() {
            let (keys, values): (Vec<DayKey>, Vec<[i64; 5]>) = self.days.into_iter().unzip();
            let column = |i: usize| values.iter().map(|v| v[i]).collect::<Vec<i64>>();
            sqlx::query(
                "insert into day_figure (company_id, date, professional_id, booked, confirmed, cancelled,
                                         booked_minutes, revenue_cents)
                 select * from unnest($1::bigint[], $2::date[], $3::bigint[], $4::bigint[], $5::bigint[],
                                      $6::bigint[], $7::bigint[], $8::bigint[])
                 on conflict (company_id, date, professional_id) do update
                    set booked = day_figure.booked + excluded.booked,
                        confirmed = day_figure.confirmed + excluded.confirmed,
                        cancelled = day_figure.cancelled + excluded.cancelled,
                        booked_minutes = day_figure.booked_minutes + excluded.booked_minutes,
                        revenue_cents = day_figure.revenue_cents + excluded.revenue_cents",
            )
            .bind(keys.iter().map(|k| k.0).collect::<Vec<_>>())
            .bind(keys.iter().map(|k| k.1).collect::<Vec<_>>())
            .bind(keys.iter().map(|k| k.2).collect::<Vec<_>>())
            .bind(column(0))
            .bind(column(1))
            .bind(column(2))
            .bind(column(3))
            .bind(column(4))
            .execute(&mut *conn)
            .await?;
        }
        if !self.services.is_empty() {
            let rows: Vec<_> = self.services.into_iter().collect();
            sqlx::query(
                "insert into service_figure (company_id, date, professional_id, service_id, description, booked,
                                             revenue_cents)
                 select * from unnest($1::bigint[], $2::date[], $3::bigint[], $4::bigint[], $5::text[],
                                      $6::bigint[], $7::bigint[])
                 on conflict (company_id, date, professional_id, service_id) do update
                    set description = excluded.description,
                        booked = service_figure.booked + excluded.booked,
                        revenue_cents = service_figure.revenue_cents + excluded.revenue_cents",
            )
            .bind(rows.iter().map(|((k, _), _)| k.0).collect::<Vec<_>>())
            .bind(rows.iter().map(|((k, _), _)| k.1).collect::<Vec<_>>())
            .bind(rows.iter().map(|((k, _), _)| k.2).collect::<Vec<_>>())
            .bind(rows.iter().map(|((_, s), _)| *s).collect::<Vec<_>>())
            .bind(rows.iter().map(|(_, v)| v.0.clone()).collect::<Vec<_>>())
            .bind(rows.iter().map(|(_, v)| v.1).collect::<Vec<_>>())
            .bind(rows.iter().map(|(_, v)| v.2).collect::<Vec<_>>())
            .execute(&mut *conn)
            .await?;
        }
        if !self.hours.is_empty() {
            let rows: Vec<_> = self.hours.into_iter().collect();
            sqlx::query(
                "insert into hour_figure (company_id, date, professional_id, hour, booked)
                 select * from unnest($1::bigint[], $2::date[], $3::bigint[], $4::smallint[], $5::bigint[])
                 on conflict (company_id, date, professional_id, hour) do update
                    set booked = hour_figure.booked + excluded.booked",
            )
            .bind(rows.iter().map(|((k, _), _)| k.0).collect::<Vec<_>>())
            .bind(rows.iter().map(|((k, _), _)| k.1).collect::<Vec<_>>())
            .bind(rows.iter().map(|((k, _), _)| k.2).collect::<Vec<_>>())
            .bind(rows.iter().map(|((_, h), _)| *h).collect::<Vec<_>>())
            .bind(rows.iter().map(|(_, n)| *n).collect::<Vec<_>>())
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    }
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
                        "select * from appointment where appointment_id = any($1)",
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
                        (AppointmentEvent::AppointmentCancelled, Some(f)) => {
                            Some(Fact { active: false, ..f })
                        }
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
        if !registrations.is_empty() {
            let (dates, counts): (Vec<NaiveDate>, Vec<i64>) = registrations.into_iter().unzip();
            sqlx::query(
                "insert into client_registration (date, clients)
                 select * from unnest($1::date[], $2::bigint[])
                 on conflict (business_id, date) do update set clients = client_registration.clients + excluded.clients",
            )
            .bind(&dates)
            .bind(&counts)
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    }
}

/// Copies the facts into the empty table.
async fn copy_facts(conn: &mut PgConnection, business_id: i64, facts: &[(i64, Fact)]) -> anyhow::Result<()> {
    let mut rows = CopyIn::start(&mut *conn, business_id,
        "appointment",
        "appointment_id, company_id, professional_id, date, start_minute, minutes, services, active, confirmed",
    ).await?;
    for (id, fact) in in_key_order(facts.iter().map(|(id, fact)| (*id, fact))) {
        rows.field(id)
            .field(fact.company_id)
            .field(fact.professional_id)
            .field(fact.date)
            .field(fact.start_minute)
            .field(fact.minutes)
            .field(serde_json::to_string(&fact.services.0)?.as_str())
            .field(fact.active)
            .field(fact.confirmed);
        rows.end_row().await?;
    }
    rows.finish().await?;
    Ok(())
}

async fn write_facts(conn: &mut PgConnection, facts: &[(i64, Fact)]) -> anyhow::Result<()> {
    if facts.is_empty() {
        return Ok(());
    }
    // serde_json's text, as a rebuild copies it: json keeps its text as given.
    let services: Vec<String> =
        facts.iter().map(|(_, f)| serde_json::to_string(&f.services.0)).collect::<Result<_, _>>()?;
    sqlx::query(
        "insert into appointment (appointment_id, company_id, professional_id, date, start_minute, minutes, services,
                                  active, confirmed)
         select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::date[], $5::smallint[], $6::integer[],
                              $7::text[]::json[], $8::bool[], $9::bool[])
         on conflict (appointment_id) do update
            set company_id = excluded.company_id, professional_id = excluded.professional_id,
                date = excluded.date, start_minute = excluded.start_minute, minutes = excluded.minutes,
                services = excluded.services, active = excluded.active, confirmed = excluded.confirmed",
    )
    .bind(facts.iter().map(|(id, _)| *id).collect::<Vec<_>>())
    .bind(facts.iter().map(|(_, f)| f.company_id).collect::<Vec<_>>())
    .bind(facts.iter().map(|(_, f)| f.professional_id).collect::<Vec<_>>())
    .bind(facts.iter().map(|(_, f)| f.date).collect::<Vec<_>>())
    .bind(facts.iter().map(|(_, f)| f.start_minute).collect::<Vec<_>>())
    .bind(facts.iter().map(|(_, f)| f.minutes).collect::<Vec<_>>())
    .bind(&services)
    .bind(facts.iter().map(|(_, f)| f.active).collect::<Vec<_>>())
    .bind(facts.iter().map(|(_, f)| f.confirmed).collect::<Vec<_>>())
    .execute(conn)
    .await?;
    Ok(())
}
