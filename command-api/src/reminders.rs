//! Reminders before appointments (issue 44, points 2 and 5; ADR 0028).
//!
//! Every `NAVALHA_REMINDER_SECONDS` each command-api instance runs [`tick`]:
//!
//! - For each active appointment of a unit whose 'Lembretes' are on, for a client who
//!   accepts WhatsApp, starting in the next 24 hours (or started in the last 6): the 24-hour
//!   reminder is due from 24 hours before until 2 hours before (until the start when the unit
//!   sends no 2-hour one), the 2-hour one from 2 hours before until the start. A due reminder
//!   is sent as the message `a{appointment}-{r24|r2}-{start}` ([`key`]); one whose window
//!   passed without being sent (everything was down) is recorded as skipped, never sent late.
//! - The key names the appointment's start, so a moved appointment gets its reminders anew
//!   and the old ones are never sent.
//! - Several instances may tick at once: the message's stream takes one decision, and the
//!   others are refused (`AlreadyRequested`) before anything reaches the provider.
//! - A send without an outcome after [`GRACE_SECONDS`] (a process stopped between deciding
//!   and recording the answer, or the provider was down) is retried while the appointment is
//!   still ahead, once per attempt; a report the provider sent about it meanwhile (it
//!   carries the key) means it went out, and stops the retry.

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use navalha_domain::appointment::{Appointment, Standing};
use navalha_domain::message::{Channel, Message, MessageRequest};
use navalha_platform::http::RequestOrigin;
use navalha_platform::ApiError;

use crate::commands::load;
use crate::read_models::{reminder_candidates, unanswered_messages, ReminderCandidate};
use crate::state::AppState;
use crate::whatsapp::templates::{day_and_time, first_name, international, REMINDER};
use crate::whatsapp::{self, Sent};

/// How long a send may stay without an outcome before it is tried again, by default
/// (`NAVALHA_REMINDER_GRACE_SECONDS`).
pub const GRACE_SECONDS: i64 = crate::config::REMINDER_GRACE_SECONDS;
/// The most sends decided for one message: a provider down for long is not called every
/// tick for ever.
pub const MAX_ATTEMPTS: u32 = 5;
/// How far back appointments are looked at, to record the reminders their start overtook.
const LOOKBACK_HOURS: i64 = 6;

/// A reminder kind: its key part and how long before the start it is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// 24 hours before.
    Day,
    /// 2 hours before.
    Hours,
}

impl Kind {
    fn code(self) -> &'static str {
        match self {
            Kind::Day => "r24",
            Kind::Hours => "r2",
        }
    }

    fn lead(self) -> Duration {
        match self {
            Kind::Day => Duration::hours(24),
            Kind::Hours => Duration::hours(2),
        }
    }
}

/// The message key of `kind` for appointment `id` starting at `start` (its unit's wall clock).
pub fn key(id: i64, kind: Kind, start: NaiveDateTime) -> String {
    format!("a{id}-{}-{}", kind.code(), start.format("%Y%m%d%H%M"))
}

/// What a reminder of `kind` should do at `now`, for an appointment starting at `start`
/// (an instant), when the unit also sends the 2-hour one (`two_hours_too`).
#[derive(Debug, PartialEq, Eq)]
pub enum Due {
    /// Not yet.
    Later,
    /// Send it now.
    Send,
    /// Its window passed unsent: record it skipped, for this reason.
    Skip(&'static str),
}

/// When a reminder is due; see the module's docs.
pub fn due(kind: Kind, start: DateTime<Utc>, now: DateTime<Utc>, two_hours_too: bool) -> Due {
    let from = start - kind.lead();
    let until = if kind == Kind::Day && two_hours_too { start - Kind::Hours.lead() } else { start };
    if now < from {
        Due::Later
    } else if now < until {
        Due::Send
    } else if now < start {
        Due::Skip("O lembrete de 2 horas o substituiu.")
    } else {
        Due::Skip("O horário começou antes do envio.")
    }
}

/// What one tick did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Ticked {
    /// Reminders the provider accepted.
    pub sent: usize,
    /// Reminders the provider refused.
    pub refused: usize,
    /// Reminders recorded as skipped.
    pub skipped: usize,
    /// Sends without an outcome tried again.
    pub retried: usize,
    /// Sends that failed to reach the provider (left for a retry).
    pub failed: usize,
    /// Bookings, moves and cancellations told to the client (crate::notices).
    pub notices: usize,
}

fn request(candidate: &ReminderCandidate, key: &str, start: NaiveDateTime) -> MessageRequest {
    let services: Vec<String> = candidate.services.0.iter().map(|s| s.description.clone()).collect();
    let (channel, to) = if candidate.client_whatsapp {
        (Channel::Whatsapp, international(&candidate.client_phone))
    } else {
        (Channel::Email, candidate.client_email.clone())
    };
    MessageRequest {
        appointment_id: Some(candidate.appointment_id),
        channel,
        to,
        template: REMINDER.name.to_owned(),
        variables: vec![
            first_name(&candidate.client_name),
            candidate.unit_name.clone(),
            day_and_time(start),
            candidate.professional_name.clone(),
            services.join(", "),
        ],
        buttons: vec![format!("CONFIRMAR:{key}"), format!("CANCELAR:{key}")],
        text: None,
    }
}

/// One pass: sends the reminders due at `now`, records the ones overtaken, retries sends
/// without an outcome.
pub async fn tick(state: &AppState, now: DateTime<Utc>) -> Result<Ticked, ApiError> {
    let origin =
        RequestOrigin { request_id: "lembretes".to_owned(), client_ip: String::new(), idempotent_run: None };
    let mut ticked = Ticked::default();
    let from = (now - Duration::hours(LOOKBACK_HOURS + 24)).date_naive();
    let to = (now + Duration::hours(48)).date_naive();
    for candidate in reminder_candidates(&state.pool, from, to).await? {
        let start = candidate.date.and_time(candidate.start);
        let start_at = navalha_platform::clock::instant_of(start, &candidate.time_zone);
        if start_at < now - Duration::hours(LOOKBACK_HOURS) {
            continue;
        }
        let settings = candidate.reminders.0;
        let kinds = [(Kind::Day, settings.before_24h), (Kind::Hours, settings.before_2h)];
        for (kind, on) in kinds {
            if !on {
                continue;
            }
            let key = key(candidate.appointment_id, kind, start);
            let request = request(&candidate, &key, start);
            match due(kind, start_at, now, settings.before_2h) {
                Due::Later => {}
                Due::Send => match whatsapp::send(state, candidate.business_id, &key, request, &origin).await
                {
                    Ok(Sent::Accepted(_)) => ticked.sent += 1,
                    Ok(Sent::Refused(_)) => ticked.refused += 1,
                    Ok(Sent::AlreadyRequested) => {}
                    Err(error) => {
                        tracing::warn!(key, %error, "a reminder did not reach the provider");
                        ticked.failed += 1;
                    }
                },
                Due::Skip(reason) => {
                    if whatsapp::skip(state, candidate.business_id, &key, request, reason, &origin).await? {
                        ticked.skipped += 1;
                    }
                }
            }
        }
    }
    ticked.retried = retry_unanswered(state, now, &origin).await?;
    ticked.notices = crate::notices::pass(state, &origin).await?;
    Ok(ticked)
}

/// Tries again the sends without an outcome for [`GRACE_SECONDS`] whose appointment is
/// still active and ahead, at the start the key names.
async fn retry_unanswered(
    state: &AppState,
    now: DateTime<Utc>,
    origin: &RequestOrigin,
) -> Result<usize, ApiError> {
    let mut retried = 0;
    let grace = Duration::seconds(state.settings.reminder_grace_seconds);
    for (business_id, key) in unanswered_messages(&state.pool, now - grace).await? {
        let message: Message = load(&state.events, business_id, &key).await?;
        let Some(appointment_id) = message.request().and_then(|r| r.appointment_id) else { continue };
        if !message.awaiting_outcome() || message.attempts() >= MAX_ATTEMPTS {
            continue;
        }
        let appointment: Appointment = load(&state.events, business_id, &appointment_id.to_string()).await?;
        let Some(booking) = appointment.booking() else { continue };
        let wall_now = crate::companies::unit_now(state, business_id, booking.company_id).await?;
        let still_ahead = appointment.standing() == Standing::Active
            && key.ends_with(&booking.starts_at().format("%Y%m%d%H%M").to_string())
            && booking.starts_at() > wall_now;
        if !still_ahead {
            continue;
        }
        match whatsapp::retry(state, business_id, &key, &message, origin).await {
            Ok(Sent::Accepted(_) | Sent::Refused(_)) => retried += 1,
            Ok(Sent::AlreadyRequested) => {}
            Err(error) => tracing::warn!(key, %error, "a reminder's retry did not reach the provider"),
        }
    }
    Ok(retried)
}

/// Runs [`tick`] every `NAVALHA_REMINDER_SECONDS` (0: never).
pub fn spawn(state: AppState) {
    crate::jobs::spawn_every(state.settings.reminder_seconds, move || {
        let state = state.clone();
        async move {
            match tick(&state, navalha_platform::clock::now()).await {
                Ok(ticked) if ticked != Ticked::default() => tracing::info!(?ticked, "reminders"),
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "reminders failed"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).map(|d| d.with_timezone(&Utc)).unwrap_or_default()
    }

    #[test]
    fn each_reminder_is_due_in_its_window_and_skipped_after_it() {
        let start = at("2026-12-01T13:00:00Z");
        assert_eq!(due(Kind::Day, start, at("2026-11-30T12:59:00Z"), true), Due::Later);
        assert_eq!(due(Kind::Day, start, at("2026-11-30T13:00:00Z"), true), Due::Send);
        assert_eq!(due(Kind::Day, start, at("2026-12-01T10:59:00Z"), true), Due::Send);
        assert_eq!(
            due(Kind::Day, start, at("2026-12-01T11:00:00Z"), true),
            Due::Skip("O lembrete de 2 horas o substituiu.")
        );
        assert_eq!(
            due(Kind::Day, start, at("2026-12-01T11:00:00Z"), false),
            Due::Send,
            "no 2-hour one: until the start"
        );
        assert_eq!(due(Kind::Hours, start, at("2026-12-01T11:00:00Z"), true), Due::Send);
        assert_eq!(
            due(Kind::Hours, start, at("2026-12-01T13:00:00Z"), true),
            Due::Skip("O horário começou antes do envio.")
        );
        let wall = NaiveDateTime::parse_from_str("2026-12-01 10:00", "%Y-%m-%d %H:%M").unwrap_or_default();
        assert_eq!(key(812, Kind::Day, wall), "a812-r24-202612011000");
    }
}
