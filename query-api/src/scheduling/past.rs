//! The past view: a unit's day as it stood at an instant, replayed from the events.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use navalha_domain::appointment::{Appointment, AppointmentEvent, Booking, Standing};
use navalha_domain::{event_payload, Aggregate as _};
use navalha_platform::ApiError;
use sqlx::PgConnection;

use super::{professional_names, AppointmentRow, DayFilter};
use crate::scope;

/// The day's appointments as they stood at `at`: each appointment that has ever been on this
/// unit's day (`appointment_place`) is replayed from its events recorded up to `at`, and kept
/// when it was on the day then. The appointments' fields are as of `at`; the client's and
/// the professional's names and colour are today's.
pub(super) async fn day_as_of(
    conn: &mut PgConnection,
    company_id: i64,
    date: NaiveDate,
    at: DateTime<Utc>,
    filter: &DayFilter,
) -> Result<Vec<AppointmentRow>, ApiError> {
    let events: Vec<(String, String, String, String)> = sqlx::query_as(&format!(
        "select e.aggregate_id, e.event_type, e.event_version, e.payload::text from events e
          where e.aggregate_type = $1
            and e.aggregate_id = any(select d.appointment_id::text from rm_agenda.appointment_place d
                                      where d.company_id = $2 and d.date = $3)
            and e.recorded_at <= $4 and {}
          order by e.aggregate_id, e.sequence",
        scope::EVENT_IN_SCOPE
    ))
    .bind(Appointment::TYPE)
    .bind(company_id)
    .bind(date)
    .bind(at)
    .fetch_all(&mut *conn)
    .await?;
    let mut replayed: Vec<(i64, Appointment)> = Vec::new();
    for (id, event_type, version, payload) in events {
        let id: i64 = id.parse().map_err(|e: std::num::ParseIntError| ApiError::Internal(e.into()))?;
        let event: AppointmentEvent =
            event_payload::decode(Appointment::TYPE, &event_type, &version, &payload)
                .map_err(|e| ApiError::Internal(e.into()))?;
        match replayed.last_mut() {
            Some((last, appointment)) if *last == id => appointment.apply(event),
            _ => {
                let mut appointment = Appointment::default();
                appointment.apply(event);
                replayed.push((id, appointment));
            }
        }
    }
    let on_the_day: Vec<(i64, Booking, bool, Appointment)> = replayed
        .into_iter()
        .filter_map(|(id, appointment)| {
            let booking = appointment.booking()?.clone();
            let booked = appointment.standing() == Standing::Active;
            (booking.company_id == company_id
                && booking.date == date
                && filter.keeps(booking.professional_id, booking.client_id, booked))
            .then_some((id, booking, booked, appointment))
        })
        .collect();
    let ids: Vec<i64> = on_the_day.iter().map(|(id, ..)| *id).collect();
    let comandas = comandas_as_of(&mut *conn, &ids, at).await?;
    let clients: Vec<i64> = on_the_day.iter().map(|(_, b, ..)| b.client_id).collect();
    let professionals: Vec<i64> = on_the_day.iter().map(|(_, b, ..)| b.professional_id).collect();
    let clients: HashMap<i64, (String, String, bool)> = sqlx::query_as(
        "select client_id, name, phone, whatsapp from rm_agenda.client where client_id = any($1)",
    )
    .bind(&clients)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|(id, name, phone, whatsapp)| (id, (name, phone, whatsapp)))
    .collect();
    let professionals = professional_names(&mut *conn, &professionals).await?;
    let mut rows: Vec<AppointmentRow> = on_the_day
        .into_iter()
        .map(|(id, booking, booked, appointment)| {
            let (comanda_id, comanda_status) = comandas.get(&id).cloned().unzip();
            let (user_name, user_phone, user_whatsapp) =
                clients.get(&booking.client_id).cloned().unwrap_or_default();
            let (professional_name, professional_color) =
                professionals.get(&booking.professional_id).cloned().unwrap_or_default();
            AppointmentRow {
                appointment_id: id,
                company_id: booking.company_id,
                professional_id: booking.professional_id,
                membership_id: booking.membership_id,
                client_id: booking.client_id,
                user_name,
                user_phone,
                user_whatsapp,
                date: booking.date,
                start_time: format!("{}:00", booking.start),
                end_time: format!("{}:00", booking.end),
                times_type: booking.times_type.code().to_owned(),
                online: booking.online,
                series: sqlx::types::Json(booking.series),
                services: sqlx::types::Json(booking.services),
                observation: booking.observation,
                status: booked,
                confirmation: appointment.confirmed(),
                professional_color,
                professional_name,
                attendance: appointment.attendance().code().to_owned(),
                comanda_id,
                comanda_status,
                // The past view shows the agenda, not the messages of that moment.
                reminder: None,
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        (&a.start_time, &a.professional_name, a.appointment_id).cmp(&(
            &b.start_time,
            &b.professional_name,
            b.appointment_id,
        ))
    });
    Ok(rows)
}

/// The comanda each appointment had at `at` (one not cancelled then) and its status then:
/// the comandas ever opened for them (`rm_comanda`), replayed up to `at`.
async fn comandas_as_of(
    conn: &mut PgConnection,
    appointments: &[i64],
    at: DateTime<Utc>,
) -> Result<HashMap<i64, (i64, String)>, ApiError> {
    let opened: HashMap<String, i64> = sqlx::query_as::<_, (i64, i64)>(
        "select comanda_id, appointment_id from rm_comanda.comanda where appointment_id = any($1)",
    )
    .bind(appointments)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|(comanda, appointment)| (comanda.to_string(), appointment))
    .collect();
    let ids: Vec<&String> = opened.keys().collect();
    let steps: Vec<(String, String)> = sqlx::query_as(&format!(
        "select e.aggregate_id, e.event_type from events e
          where e.aggregate_type = 'Comanda' and e.aggregate_id = any($1)
            and e.event_type in ('ComandaOpened', 'ComandaClosed', 'ComandaReopened', 'ComandaCanceled')
            and e.recorded_at <= $2 and {}
          order by e.aggregate_id, e.sequence",
        scope::EVENT_IN_SCOPE
    ))
    .bind(&ids)
    .bind(at)
    .fetch_all(&mut *conn)
    .await?;
    let mut status: HashMap<&str, &str> = HashMap::new();
    for (id, event) in &steps {
        let now = match event.as_str() {
            "ComandaClosed" => "CLOSED",
            "ComandaCanceled" => "CANCELED",
            _ => "OPEN",
        };
        status.insert(id.as_str(), now);
    }
    Ok(status
        .into_iter()
        .filter(|(_, status)| *status != "CANCELED")
        .filter_map(|(id, status)| {
            let appointment = *opened.get(id)?;
            Some((appointment, (id.parse().ok()?, status.to_owned())))
        })
        .collect())
}
