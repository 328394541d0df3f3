//! `agenda`: the appointments of each day, with what the day list shows of the client and
//! the professional (spec 01 §3 'Appointment, day list item'), and the appointment as the
//! edit form reads it.
//!
//! Each appointment row carries its client's name, phone and WhatsApp and its professional's
//! name and colour (issue 15): the day list, the screen staff wait on most, reads one table
//! with no join. They are copied when the appointment is written, and a change of a client or
//! professional is copied to their appointments in the same batch.

use std::collections::{BTreeSet, HashMap};

use async_trait::async_trait;
use navalha_domain::appointment::{AppointmentEvent, Attendance, Booking};
use navalha_domain::client::{Client, ClientDetails, ClientEvent};
use navalha_domain::professional::{Professional, ProfessionalEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, agenda, ReadModel};

use crate::batch::Batch;
use crate::copy::{in_key_order, CopyIn};
use crate::rows::Fields;

use crate::engine::{Fold, Projection, Tables};
use crate::event::StoredEvent;

/// Builds `rm_agenda`.
pub struct Agenda;

/// What a batch does to one appointment: its latest booking, if the batch has one,
/// whether it was cancelled in the batch (final), and the batch's last word on the client's
/// confirmation (a move clears it, issue 44) and on its attendance, if it had one.
#[derive(Default)]
struct Folded {
    booking: Option<Booking>,
    confirmed: Option<bool>,
    cancelled: bool,
    attendance: Option<Attendance>,
}

/// Writes the folded appointments in two statements: an upsert of those with a booking,
/// and an update of the flags of the others.
async fn write(conn: &mut PgConnection, folded: Vec<(i64, Folded)>, people: &People) -> anyhow::Result<()> {
    let mut booked = Batch::new(&agenda::APPOINTMENT);
    let (mut flag_ids, mut flag_cancelled) = (Vec::new(), Vec::new());
    for (id, fold) in &folded {
        match &fold.booking {
            Some(booking) => {
                appointment_row(&mut booked, *id, booking, fold, people)?;
                booked.end_row()?;
            }
            None => {
                flag_ids.push(*id);
                flag_cancelled.push(fold.cancelled);
            }
        }
    }
    // The people's tables are written first (`apply_all`), so the upsert's copies of their
    // names are current.
    booked.upsert(&mut *conn).await?;
    // The confirmation and the attendance go back and forth (a move clears the one, 'Não
    // compareceu' is undone): the upsert keeps a row's, and the batch's last word is set here.
    let (confirmed_ids, confirmed): (Vec<i64>, Vec<bool>) =
        folded.iter().filter_map(|(id, fold)| fold.confirmed.map(|confirmed| (*id, confirmed))).unzip();
    if !confirmed_ids.is_empty() {
        sqlx::query(
            "update appointment a set confirmation = f.confirmed
               from unnest($1::bigint[], $2::bool[]) as f (appointment_id, confirmed)
              where a.appointment_id = f.appointment_id and a.business_id = navalha_event_business()",
        )
        .bind(&confirmed_ids)
        .bind(&confirmed)
        .execute(&mut *conn)
        .await?;
    }
    let (attended_ids, attendance): (Vec<i64>, Vec<&str>) = folded
        .iter()
        .filter_map(|(id, fold)| fold.attendance.map(|attendance| (*id, attendance.code())))
        .unzip();
    if !attended_ids.is_empty() {
        sqlx::query(
            "update appointment a set attendance = f.attendance
               from unnest($1::bigint[], $2::text[]) as f (appointment_id, attendance)
              where a.appointment_id = f.appointment_id and a.business_id = navalha_event_business()",
        )
        .bind(&attended_ids)
        .bind(&attendance)
        .execute(&mut *conn)
        .await?;
    }
    if !flag_ids.is_empty() {
        sqlx::query(
            "update appointment a set status = a.status and not f.cancelled
               from unnest($1::bigint[], $2::bool[]) as f (appointment_id, cancelled)
              where a.appointment_id = f.appointment_id and a.business_id = navalha_event_business()",
        )
        .bind(&flag_ids)
        .bind(&flag_cancelled)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// An appointment's row of `agenda::APPOINTMENT`. The copies of its client's and
/// professional's names come from `people` (a rebuild's fold holds everyone); a live
/// batch's upsert reads them from the people's tables instead.
fn appointment_row(
    out: &mut impl Fields,
    id: i64,
    booking: &Booking,
    fold: &Folded,
    people: &People,
) -> anyhow::Result<()> {
    let client = people.clients.get(&booking.client_id);
    let professional = people.professionals.get(&booking.professional_id);
    out.field(id)
        .field(booking.company_id)
        .field(booking.membership_id)
        .field(booking.professional_id)
        .field(booking.client_id)
        .field(booking.date)
        .field(chrono::NaiveTime::from(booking.start))
        .field(chrono::NaiveTime::from(booking.end))
        // serde_json's text: json keeps its text as given.
        .field(serde_json::to_string(&booking.services)?.as_str())
        .field(&booking.observation)
        .field(booking.times_type.code())
        .field(!fold.cancelled)
        .field(fold.confirmed == Some(true))
        .field(booking.online)
        .field(fold.attendance.unwrap_or_default().code())
        .field(serde_json::to_string(&booking.series)?.as_str())
        .field(client.map_or("", |c| c.name.as_str()))
        .field(client.map_or("", |c| c.phone.as_str()))
        .field(client.is_some_and(|c| c.whatsapp))
        .field(professional.and_then(|p| p.name.as_deref()).unwrap_or(""))
        .field(professional.and_then(|p| p.color.as_deref()).unwrap_or(""));
    Ok(())
}

/// The unit days appointments were put on in a batch, for `appointment_place`: each once,
/// in the order of the primary key.
#[derive(Default)]
struct Days(BTreeSet<(i64, chrono::NaiveDate, i64)>);

impl Days {
    fn push(&mut self, id: i64, booking: &Booking) {
        self.0.insert((booking.company_id, booking.date, id));
    }

    /// Copies the places into the empty table.
    async fn copy(&self, conn: &mut PgConnection, business_id: i64) -> anyhow::Result<()> {
        let mut rows = CopyIn::start(conn, business_id, &agenda::APPOINTMENT_PLACE).await?;
        for &(company_id, date, appointment_id) in &self.0 {
            rows.field(company_id).field(date).field(appointment_id);
            rows.end_row().await?;
        }
        rows.finish().await?;
        Ok(())
    }

    async fn write(&self, conn: &mut PgConnection) -> anyhow::Result<()> {
        let mut rows = Batch::new(&agenda::APPOINTMENT_PLACE);
        for &(company_id, date, appointment_id) in &self.0 {
            rows.field(company_id).field(date).field(appointment_id);
            rows.end_row()?;
        }
        rows.upsert(conn).await
    }
}

#[async_trait]
impl Projection for Agenda {
    fn model(&self) -> &'static ReadModel {
        &read_models::AGENDA
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<AgendaFold>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

/// Events folded in memory, per appointment, client or professional; each table is written
/// once.
#[derive(Default)]
struct AgendaFold {
    folded: Vec<(i64, Folded)>,
    index: HashMap<i64, usize>,
    days: Days,
    people: People,
}

#[async_trait]
impl Fold for AgendaFold {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        if event.aggregate_type == Client::TYPE {
            self.people.client(id, event.decode()?);
            return Ok(());
        }
        if event.aggregate_type == Professional::TYPE {
            self.people.professional(id, event.decode()?);
            return Ok(());
        }
        let slot = *self.index.entry(id).or_insert_with(|| {
            self.folded.push((id, Folded::default()));
            self.folded.len() - 1
        });
        let fold = &mut self.folded[slot].1;
        match &*event.decoded::<AppointmentEvent>()? {
            AppointmentEvent::AppointmentBooked(booking) | AppointmentEvent::AppointmentChanged(booking) => {
                self.days.push(id, booking);
                fold.booking = Some(booking.clone());
            }
            AppointmentEvent::AppointmentConfirmed => fold.confirmed = Some(true),
            AppointmentEvent::ConfirmationCleared => fold.confirmed = Some(false),
            AppointmentEvent::AppointmentCancelled => fold.cancelled = true,
            AppointmentEvent::ClientArrived => fold.attendance = Some(Attendance::Arrived),
            AppointmentEvent::NoShowMarked => fold.attendance = Some(Attendance::NoShow),
            AppointmentEvent::NoShowUndone => fold.attendance = Some(Attendance::Expected),
        }
        Ok(())
    }

    async fn write(self: Box<Self>, conn: &mut PgConnection, tables: Tables) -> anyhow::Result<()> {
        let AgendaFold { folded, days, people, .. } = *self;
        match tables {
            Tables::Filled => {
                people.write(conn).await?;
                write(conn, folded, &people).await?;
                days.write(conn).await
            }
            Tables::Empty { business_id } => {
                people.copy(conn, business_id).await?;
                copy_appointments(conn, business_id, &folded, &people).await?;
                days.copy(conn, business_id).await
            }
        }
    }
}

/// Copies the folded appointments into the empty table. Every client and professional of
/// the business is in the fold, so the copies of their names come from it, as the upsert's
/// join would give them.
async fn copy_appointments(
    conn: &mut PgConnection,
    business_id: i64,
    folded: &[(i64, Folded)],
    people: &People,
) -> anyhow::Result<()> {
    let mut rows = CopyIn::start(&mut *conn, business_id, &agenda::APPOINTMENT).await?;
    for (id, fold) in in_key_order(folded.iter().map(|(id, fold)| (*id, fold))) {
        // A confirmation or cancellation of an appointment booked before the log's start
        // would update no row.
        let Some(booking) = &fold.booking else { continue };
        appointment_row(&mut rows, id, booking, fold, people)?;
        rows.end_row().await?;
    }
    rows.finish().await?;
    Ok(())
}

/// A client's row of `agenda::CLIENT`.
fn client_row(out: &mut impl Fields, id: i64, details: &ClientDetails) {
    out.field(id).field(&details.name).field(&details.phone).field(details.whatsapp);
}

/// What the day list shows of the clients and professionals a batch changed: the last
/// name, phone and WhatsApp of each client; the last name and colour of each professional.
#[derive(Default)]
struct People {
    clients: HashMap<i64, ClientDetails>,
    professionals: HashMap<i64, Shown>,
}

/// A professional's name and colour, each when known.
#[derive(Default)]
struct Shown {
    name: Option<String>,
    color: Option<String>,
}

impl People {
    fn client(&mut self, id: i64, event: ClientEvent) {
        match event {
            ClientEvent::ClientRegistered { details, .. } | ClientEvent::ClientUpdated(details) => {
                self.clients.insert(id, details);
            }
            ClientEvent::SocialLoginLinked { .. }
            | ClientEvent::CpfAdded { .. }
            | ClientEvent::SocialLoginsRemoved
            | ClientEvent::ClientConfirmed => {}
        }
    }

    fn professional(&mut self, id: i64, event: ProfessionalEvent) {
        let (name, color) = match event {
            ProfessionalEvent::ProfessionalRegistered { personal, employment } => {
                (Some(personal.name), Some(employment.color))
            }
            ProfessionalEvent::PersonalDataChanged(personal) => (Some(personal.name), None),
            ProfessionalEvent::EmploymentChanged(employment) => (None, Some(employment.color)),
            ProfessionalEvent::WorkingDaySet { .. }
            | ProfessionalEvent::ServiceAdded(_)
            | ProfessionalEvent::ServiceChanged(_)
            | ProfessionalEvent::CommissionRatesSet(_) => return,
        };
        let shown = self.professionals.entry(id).or_default();
        shown.name = name.or(shown.name.take());
        shown.color = color.or(shown.color.take());
    }

    /// Copies the people into the empty tables (no appointment holds a copy yet).
    async fn copy(&self, conn: &mut PgConnection, business_id: i64) -> anyhow::Result<()> {
        let mut clients = CopyIn::start(&mut *conn, business_id, &agenda::CLIENT).await?;
        for (id, details) in in_key_order(&self.clients) {
            client_row(&mut clients, *id, details);
            clients.end_row().await?;
        }
        clients.finish().await?;
        let mut professionals = CopyIn::start(&mut *conn, business_id, &agenda::PROFESSIONAL).await?;
        for (id, shown) in in_key_order(&self.professionals) {
            professionals
                .field(*id)
                .field(shown.name.as_deref().unwrap_or(""))
                .field(shown.color.as_deref().unwrap_or(""));
            professionals.end_row().await?;
        }
        professionals.finish().await?;
        Ok(())
    }

    async fn write(&self, conn: &mut PgConnection) -> anyhow::Result<()> {
        if !self.clients.is_empty() {
            let mut clients = Batch::new(&agenda::CLIENT);
            for (id, details) in &self.clients {
                client_row(&mut clients, *id, details);
                clients.end_row()?;
            }
            clients.upsert(&mut *conn).await?;
            let ids: Vec<i64> = self.clients.keys().copied().collect();
            sqlx::query(
                "update appointment a
                    set client_name = c.name, client_phone = c.phone, client_whatsapp = c.whatsapp
                   from client c
                  where c.client_id = any($1) and a.client_id = c.client_id
                    and c.business_id = navalha_event_business() and a.business_id = navalha_event_business()
                    and (a.client_name, a.client_phone, a.client_whatsapp) is distinct from (c.name, c.phone, c.whatsapp)",
            )
            .bind(&ids)
            .execute(&mut *conn)
            .await?;
        }
        if !self.professionals.is_empty() {
            let (ids, shown): (Vec<i64>, Vec<&Shown>) =
                self.professionals.iter().map(|(id, s)| (*id, s)).unzip();
            let (names, colors): (Vec<_>, Vec<_>) =
                shown.into_iter().map(|s| (s.name.clone(), s.color.clone())).unzip();
            // A professional first seen here gets a row; then what changed is set.
            sqlx::query(
                "insert into professional (professional_id) select unnest($1::bigint[])
                 on conflict (professional_id) do nothing",
            )
            .bind(&ids)
            .execute(&mut *conn)
            .await?;
            sqlx::query(
                "update professional p set name = coalesce(u.name, p.name), color = coalesce(u.color, p.color)
                   from unnest($1::bigint[], $2::text[], $3::text[]) as u (id, name, color)
                  where p.professional_id = u.id and p.business_id = navalha_event_business()",
            )
            .bind(&ids)
            .bind(names)
            .bind(colors)
            .execute(&mut *conn)
            .await?;
            sqlx::query(
                "update appointment a set professional_name = p.name, professional_color = p.color
                   from professional p
                  where p.professional_id = any($1) and a.professional_id = p.professional_id
                    and p.business_id = navalha_event_business() and a.business_id = navalha_event_business()
                    and (a.professional_name, a.professional_color) is distinct from (p.name, p.color)",
            )
            .bind(&ids)
            .execute(conn)
            .await?;
        }
        Ok(())
    }
}
