//! `agenda`: the appointments of each day, with what the day list shows of the client and
//! the professional (spec 01 §3 'Appointment, day list item'), and the appointment as the
//! edit form reads it.

use async_trait::async_trait;
use navalha_domain::appointment::{Appointment, AppointmentEvent, Booking};
use navalha_domain::client::{Client, ClientEvent};
use navalha_domain::professional::{Professional, ProfessionalEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_agenda`.
pub struct Agenda;

async fn upsert(conn: &mut PgConnection, id: i64, booking: &Booking) -> anyhow::Result<()> {
    sqlx::query(
        "insert into appointment (appointment_id, company_id, membership_id, professional_id, client_id, date,
                                  start_time, end_time, services, observation, times_type)
         values ($1, $2, $3, $4, $5, $6, $7::time, $8::time, $9, $10, $11)
         on conflict (appointment_id) do update
            set company_id = excluded.company_id, membership_id = excluded.membership_id,
                professional_id = excluded.professional_id, client_id = excluded.client_id, date = excluded.date,
                start_time = excluded.start_time, end_time = excluded.end_time, services = excluded.services,
                observation = excluded.observation, times_type = excluded.times_type",
    )
    .bind(id)
    .bind(booking.company_id)
    .bind(booking.membership_id)
    .bind(booking.professional_id)
    .bind(booking.client_id)
    .bind(booking.date)
    .bind(booking.start.to_string())
    .bind(booking.end.to_string())
    .bind(serde_json::to_value(&booking.services)?)
    .bind(&booking.observation)
    .bind(serde_json::to_value(booking.times_type)?.as_str().unwrap_or_default())
    .execute(conn)
    .await?;
    Ok(())
}

#[async_trait]
impl Projection for Agenda {
    fn name(&self) -> &'static str {
        "agenda"
    }

    fn schema_sql(&self) -> &'static str {
        "create table appointment (
             appointment_id  bigint  primary key,
             company_id      bigint  not null,
             membership_id   bigint  not null,
             professional_id bigint  not null,
             client_id       bigint  not null,
             date            date    not null,
             start_time      time    not null,
             end_time        time    not null,
             services        jsonb   not null,
             observation     text    not null,
             times_type      text    not null,
             -- true booked, false cancelled (spec 01 §4)
             status          boolean not null default true,
             confirmation    boolean not null default false
         );
         create index appointment_day on appointment (company_id, date, start_time);
         create index appointment_professional_day on appointment (professional_id, date);
         -- What the day list shows of clients and professionals.
         create table client (
             client_id bigint  primary key,
             name      text    not null,
             phone     text    not null,
             whatsapp  boolean not null
         );
         create table professional (
             professional_id bigint primary key,
             name            text   not null default '',
             color           text   not null default ''
         );"
    }

    fn aggregate_types(&self) -> &'static [&'static str] {
        &[Appointment::TYPE, Client::TYPE, Professional::TYPE]
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        if event.aggregate_type == Client::TYPE {
            let details = match event.decode::<ClientEvent>()? {
                ClientEvent::ClientRegistered { details, .. } | ClientEvent::ClientUpdated(details) => {
                    details
                }
                ClientEvent::SocialLoginLinked { .. } | ClientEvent::SocialLoginsRemoved => return Ok(()),
            };
            sqlx::query(
                "insert into client (client_id, name, phone, whatsapp) values ($1, $2, $3, $4)
                 on conflict (client_id) do update
                    set name = excluded.name, phone = excluded.phone, whatsapp = excluded.whatsapp",
            )
            .bind(id)
            .bind(&details.name)
            .bind(&details.phone)
            .bind(details.whatsapp)
            .execute(conn)
            .await?;
            return Ok(());
        }
        if event.aggregate_type == Professional::TYPE {
            let (name, color) = match event.decode::<ProfessionalEvent>()? {
                ProfessionalEvent::ProfessionalRegistered { personal, employment } => {
                    (Some(personal.name), Some(employment.color))
                }
                ProfessionalEvent::PersonalDataChanged(personal) => (Some(personal.name), None),
                ProfessionalEvent::EmploymentChanged(employment) => (None, Some(employment.color)),
                ProfessionalEvent::WorkingDaySet { .. }
                | ProfessionalEvent::ServiceAdded(_)
                | ProfessionalEvent::ServiceChanged(_) => return Ok(()),
            };
            sqlx::query(
                "insert into professional (professional_id, name, color) values ($1, coalesce($2, ''), coalesce($3, ''))
                 on conflict (professional_id) do update
                    set name = coalesce($2, professional.name), color = coalesce($3, professional.color)",
            )
            .bind(id)
            .bind(name)
            .bind(color)
            .execute(conn)
            .await?;
            return Ok(());
        }
        match event.decode::<AppointmentEvent>()? {
            AppointmentEvent::AppointmentBooked(booking) | AppointmentEvent::AppointmentChanged(booking) => {
                upsert(conn, id, &booking).await?;
            }
            AppointmentEvent::AppointmentConfirmed => {
                sqlx::query("update appointment set confirmation = true where appointment_id = $1")
                    .bind(id)
                    .execute(conn)
                    .await?;
            }
            AppointmentEvent::AppointmentCancelled => {
                sqlx::query("update appointment set status = false where appointment_id = $1")
                    .bind(id)
                    .execute(conn)
                    .await?;
            }
        }
        Ok(())
    }
}
