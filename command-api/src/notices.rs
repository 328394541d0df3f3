//! Messages when an appointment changes (issue 44, point 2): the confirmation of a booking
//! the client made on the unit's page, and a word when the shop moves (day, time or
//! professional) or cancels an appointment.
//!
//! Each reminder pass (`reminders::tick`) also reads the log's bookings, changes and
//! cancellations of the last [`NOTICE_HOURS`] committed since its previous pass (`notice_snapshot::Passed`,
//! `read_models::appointment_changes`, a page at a time) and sends
//! each notice due as the message `a{appointment}-{booked|moved|cancelled}-{start}`: once,
//! whichever instance decides first, as reminders are (ADR 0028). A notice is sent only while
//! it is still true (the appointment stands as the event left it) and useful (the start is
//! ahead). WhatsApp to clients who accept it, e-mail to the others who have an address.

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use navalha_domain::appointment::{Appointment, AppointmentEvent, Booking, Standing};
use navalha_domain::client::Client;
use navalha_domain::company::Company;
use navalha_domain::event_payload;
use navalha_domain::message::{Channel, MessageRequest};
use navalha_domain::professional::Professional;
use navalha_domain::Aggregate as _;
use navalha_platform::http::RequestOrigin;
use navalha_platform::ApiError;

use crate::commands::load;
use crate::notice_snapshot::Snapshot;
use crate::read_models::{self, AppointmentChange};
use crate::state::AppState;
use crate::whatsapp::templates::{
    day_and_time, first_name, international, phone_text, Template, BOOKED, CANCELLED, MOVED,
};
use crate::whatsapp::{self, Sent};

/// How far back changes are looked at: a notice not sent within this (everything was down)
/// is not sent at all; the reminders still go.
pub const NOTICE_HOURS: i64 = 6;

/// What the client is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// Their online booking is made.
    Booked,
    /// The shop moved it.
    Moved,
    /// The shop cancelled it.
    Cancelled,
}

impl Notice {
    fn code(self) -> &'static str {
        match self {
            Notice::Booked => "booked",
            Notice::Moved => "moved",
            Notice::Cancelled => "cancelled",
        }
    }

    fn template(self) -> &'static Template {
        match self {
            Notice::Booked => &BOOKED,
            Notice::Moved => &MOVED,
            Notice::Cancelled => &CANCELLED,
        }
    }
}

/// The message key of `notice` for appointment `id` starting at `start`.
pub fn key(id: i64, notice: Notice, start: NaiveDateTime) -> String {
    format!("a{id}-{}-{}", notice.code(), start.format("%Y%m%d%H%M"))
}

/// The notice `change` calls for, with the booking it is about (none for a cancellation):
/// an online booking; a change by the staff that moved the day, the time or the
/// professional; a cancellation by the staff.
pub fn notice_of(change: &AppointmentChange) -> Result<Option<(Notice, Option<Booking>)>, ApiError> {
    let decode = |event_type: &str, version: &str, payload: &str| {
        event_payload::decode::<AppointmentEvent>(Appointment::TYPE, event_type, version, payload)
            .map_err(|error| ApiError::Internal(anyhow::anyhow!("{error}")))
    };
    let event = decode(&change.event_type, &change.event_version, &change.payload)?;
    Ok(match event {
        AppointmentEvent::AppointmentBooked(booking) if booking.online => {
            Some((Notice::Booked, Some(booking)))
        }
        AppointmentEvent::AppointmentChanged(booking) if change.by_staff => {
            let (Some(previous), Some(event_type), Some(version)) =
                (&change.previous, &change.previous_type, &change.previous_version)
            else {
                return Ok(None);
            };
            let before = match decode(event_type, version, previous)? {
                AppointmentEvent::AppointmentBooked(before)
                | AppointmentEvent::AppointmentChanged(before) => before,
                _ => return Ok(None),
            };
            let moved = (before.date, before.start, before.professional_id)
                != (booking.date, booking.start, booking.professional_id);
            moved.then_some((Notice::Moved, Some(booking)))
        }
        AppointmentEvent::AppointmentCancelled if change.by_staff => Some((Notice::Cancelled, None)),
        _ => None,
    })
}

/// How many changes one read of the log brings: a window's worth (a restore, an import) is
/// passed a page at a time, in bounded memory.
const PAGE: i64 = 500;

/// Sends the notices due now: how many the provider (or the mailer) took. The clock is the
/// log's (events are recorded on it), not a reminder pass's `now`. A pass where a notice
/// failed (the database or the provider went away) keeps the snapshot where it was, so the
/// next pass reads the same changes again: the notices decided already are refused before
/// any call (ADR 0028), and the one that failed is tried again.
pub async fn pass(state: &AppState, origin: &RequestOrigin) -> Result<usize, ApiError> {
    pass_in_pages(state, origin, PAGE).await
}

/// [`pass`], reading the log `page` changes at a time (the tests page by one).
pub async fn pass_in_pages(state: &AppState, origin: &RequestOrigin, page: i64) -> Result<usize, ApiError> {
    let mut passed = state.notices.lock().await;
    let now = navalha_platform::clock::now();
    let since = now - Duration::hours(NOTICE_HOURS);
    let snapshot = Snapshot::current(&state.pool).await?;
    // Without a change in the window, from the snapshot on: nothing of the window is before it.
    let start = match passed.as_ref() {
        Some(before) => before.xmin,
        None => read_models::appointment_changes_start(&state.pool, since).await?.unwrap_or(snapshot.xmin),
    };
    let before = passed.as_ref().map(|before| before.text.as_str());
    let (mut after, mut sent, mut failed) = ((start, -1), 0, false);
    let (started, mut read) = (std::time::Instant::now(), 0);
    loop {
        let changes =
            read_models::appointment_changes(&state.pool, since, after, &snapshot.text, before, page).await?;
        read += changes.len();
        for change in &changes {
            after = (change.tx_id, change.global_position);
            if !change.recent {
                continue;
            }
            let Some((notice, booking)) = notice_of(change)? else { continue };
            match send(state, change, notice, booking.as_ref(), now, origin).await {
                Ok(Some(Sent::Accepted(_))) => sent += 1,
                Ok(_) => {}
                Err(error) => {
                    failed = true;
                    tracing::warn!(id = change.aggregate_id, ?notice, %error, "a notice was not sent");
                }
            }
        }
        if (changes.len() as i64) < page {
            break;
        }
    }
    if before.is_none() {
        // A process's first pass reads the whole window (after a restore or an import, the
        // whole log): operators, and the bench, see when it has caught up.
        let seconds = started.elapsed().as_secs_f64();
        tracing::info!(changes = read, sent, seconds, "notices: the first pass over the window ended");
    }
    if !failed {
        *passed = Some(snapshot);
    }
    Ok(sent)
}

/// Sends `notice` about the appointment of `change` if it still holds: the appointment
/// stands as the event left it (booked at that time and with that professional, or
/// cancelled) and starts after `now` on its unit's clock. `None` when it does not hold or
/// the client can be reached by neither channel.
async fn send(
    state: &AppState,
    change: &AppointmentChange,
    notice: Notice,
    booked: Option<&Booking>,
    now: DateTime<Utc>,
    origin: &RequestOrigin,
) -> Result<Option<Sent>, ApiError> {
    let business_id = change.business_id;
    let appointment: Appointment = load(&state.events, business_id, &change.aggregate_id).await?;
    let Some(booking) = appointment.booking() else { return Ok(None) };
    let holds = match (notice, booked) {
        (Notice::Cancelled, _) => appointment.standing() == Standing::Cancelled,
        (_, Some(booked)) => {
            appointment.standing() == Standing::Active
                && (booking.starts_at(), booking.professional_id)
                    == (booked.starts_at(), booked.professional_id)
        }
        (_, None) => false,
    };
    let company: Company = load(&state.events, business_id, &booking.company_id.to_string()).await?;
    let Some(unit) = company.profile() else { return Ok(None) };
    let wall_now = navalha_platform::clock::wall_clock(now, &unit.time_zone);
    if !holds || booking.starts_at() <= wall_now {
        return Ok(None);
    }
    let client: Client = load(&state.events, business_id, &booking.client_id.to_string()).await?;
    let Some(details) = client.details() else { return Ok(None) };
    let (channel, to) = if details.whatsapp && !details.phone.is_empty() {
        (Channel::Whatsapp, international(&details.phone))
    } else if !details.email.is_empty() && notice != Notice::Booked {
        // The page already e-mails an online booking's confirmation, with its link.
        (Channel::Email, details.email.clone())
    } else {
        return Ok(None);
    };
    let professional: Professional =
        load(&state.events, business_id, &booking.professional_id.to_string()).await?;
    let template = notice.template();
    let key = key(appointment_id(change)?, notice, booking.starts_at());
    let services: Vec<&str> = booking.services.iter().map(|s| s.description.as_str()).collect();
    let mut variables = vec![
        first_name(&details.name),
        unit.name.clone(),
        day_and_time(booking.starts_at()),
        professional.personal().map(|p| p.name.clone()).unwrap_or_default(),
        services.join(", "),
    ];
    if template.variables.len() > variables.len() {
        variables.push(phone_text(&unit.phone));
    }
    let buttons = match channel {
        Channel::Whatsapp if !template.buttons.is_empty() => {
            vec![format!("CONFIRMAR:{key}"), format!("CANCELAR:{key}")]
        }
        _ => Vec::new(),
    };
    let request = MessageRequest {
        appointment_id: Some(appointment_id(change)?),
        channel,
        to,
        template: template.name.to_owned(),
        variables,
        buttons,
        text: None,
    };
    whatsapp::send(state, business_id, &key, request, origin).await.map(Some)
}

fn appointment_id(change: &AppointmentChange) -> Result<i64, ApiError> {
    change
        .aggregate_id
        .parse()
        .map_err(|_| ApiError::Internal(anyhow::anyhow!("appointment id {}", change.aggregate_id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notices_key_names_its_appointment_kind_and_start() {
        let start = NaiveDateTime::parse_from_str("2026-12-01 10:00", "%Y-%m-%d %H:%M").unwrap_or_default();
        assert_eq!(key(812, Notice::Moved, start), "a812-moved-202612011000");
        assert_eq!(key(812, Notice::Booked, start), "a812-booked-202612011000");
        assert_eq!(key(812, Notice::Cancelled, start), "a812-cancelled-202612011000");
    }
}
