//! Regulars' series ('Repetir', issue 45 point 4; the rules in `domain::series`):
//!
//! - `POST scheduling/series/check`: the form plus `repeat` (and optionally the
//!   `occurrences` chosen so far) → each date with its time and whether it is free, or why
//!   not, by the same check a booking makes;
//! - `POST scheduling/series`: books the chosen occurrences, each an ordinary appointment,
//!   all in one append (every one or none);
//! - `PUT scheduling/{idScheduling}/series?scope=following|all` and `DELETE …`: change or
//!   cancel this one and the following, or every one not started yet, in one append. One
//!   occurrence alone is the usual edit or `DELETE scheduling/{idScheduling}`.
//!
//! The form is checked once (professional, client, services); each date is then checked
//! against its own day (hours, days off, holidays, other bookings, the client's chair).

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use chrono::NaiveDate;
use navalha_domain::appointment::{
    outside_booking_window, Appointment, AppointmentCommand, AppointmentError, Booking, Standing,
};
use navalha_domain::series::{Repeat, SeriesLink};
use navalha_domain::validation::{FieldErrors, TimeOfDay};
use navalha_domain::Aggregate as _;
use navalha_event_store::log::Stream;
use navalha_platform::auth::{Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{PathParam, RequestOrigin};
use navalha_platform::{bad_input, refused, ApiError};
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{booking_of, checked_form, day_of, touchable, Booker, Checked, Request, SchedulingBody};
use crate::commands::{execute_all, invalid, metadata_of, position_headers, DomainError, Streams};
use crate::idempotency;
use crate::state::AppState;

/// A date that is not one of the series'.
pub const MSG_NOT_IN_SERIES: &str = "Esta data não pertence à série.";
/// Fewer than two occurrences chosen.
pub const MSG_TOO_FEW: &str = "Uma série precisa de pelo menos duas datas.";
/// A date chosen twice.
pub const MSG_TWICE: &str = "Cada data da série pode ser escolhida uma vez.";
/// An appointment that belongs to no series.
pub const MSG_NO_SERIES: &str = "Este agendamento não faz parte de uma série.";
/// A scope other than `following` and `all`.
pub const MSG_SCOPE: &str = "Escolha quais cancelar: este e os seguintes (following) ou todos (all).";
/// The time does not fit the day.
const MSG_ENDS_TOO_LATE: &str = "O atendimento precisa terminar até 23:59";

/// The appointments of a series, from their booking events (index
/// `events_appointment_series`; `event_payload::SQL_READS` pins the field).
pub const SERIES_APPOINTMENTS: &str = "
    select aggregate_id from events
     where aggregate_type = 'Appointment' and event_type = 'AppointmentBooked'
       and payload -> 'AppointmentBooked' -> 'series' ->> 'id' = $1";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(check_series))
        .routes(routes!(book_series))
        .routes(routes!(change_series, cancel_series))
}

/// The appointment form, how it repeats, and the occurrences chosen.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesBody {
    /// The first occurrence, as the appointment form sends it.
    #[serde(flatten)]
    booking: SchedulingBody,
    /// Every 1 to 8 weeks, 2 to 26 times or until a day, within six months.
    #[serde(default)]
    repeat: Repeat,
    /// The occurrences as the desk chose them after the check: dates of the series, each
    /// with its start. To book: only these (at least two; a date left out is skipped).
    /// To check: these times replace the form's on their dates. Absent: every date at the
    /// form's start.
    #[serde(default)]
    occurrences: Option<Vec<Occurrence>>,
}

/// One date of a series and its start.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Occurrence {
    /// `YYYY-MM-DD`.
    #[schema(value_type = String, format = Date)]
    date: NaiveDate,
    /// `HH:MM`.
    start_time: String,
}

/// One date of a series as checked.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SeriesOccurrence {
    #[schema(value_type = String, format = Date)]
    date: NaiveDate,
    /// `HH:MM`.
    start_time: String,
    /// `HH:MM`; absent when the services would pass 23:59.
    end_time: Option<String>,
    /// Whether it can be booked as it is.
    free: bool,
    /// Why not: the booking check's message ('Horário já reservado', ...).
    reason: Option<String>,
}

/// A series booked.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SeriesBooked {
    /// The series: the id of its first appointment.
    id_series: i64,
    /// Its appointments, in date order.
    ids_scheduling: Vec<i64>,
}

/// Appointments of a series changed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SeriesChanged {
    /// The series.
    id_series: i64,
    /// The appointments changed (this one first).
    ids_scheduling: Vec<i64>,
}

/// Appointments of a series cancelled.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SeriesCancelled {
    /// The series.
    id_series: i64,
    /// The appointments cancelled now (those already cancelled or started are left).
    ids_scheduling: Vec<i64>,
}

/// A date to book and its start.
#[derive(Debug, Clone, Copy)]
struct Planned {
    date: NaiveDate,
    start: TimeOfDay,
}

fn parse(body: &[u8]) -> Result<(SeriesBody, Request), ApiError> {
    let mut series: SeriesBody = serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(bad_input::body_message("", &e.to_string())))?;
    let request = checked_form(std::mem::take(&mut series.booking))?;
    Ok((series, request))
}

/// The dates to check or book: the series' dates at the form's start, with the chosen
/// occurrences' times; to book (`chosen_only`), only the chosen ones.
fn plan(series: &SeriesBody, request: &Request, chosen_only: bool) -> Result<(u8, Vec<Planned>), ApiError> {
    let (every_weeks, dates) = series.repeat.dates(request.date).map_err(invalid)?;
    let mut errors = FieldErrors::default();
    let mut chosen: Vec<Planned> = Vec::new();
    for occurrence in series.occurrences.iter().flatten() {
        if !dates.contains(&occurrence.date) {
            errors.add("occurrences", MSG_NOT_IN_SERIES);
        } else if chosen.iter().any(|p| p.date == occurrence.date) {
            errors.add("occurrences", MSG_TWICE);
        }
        match TimeOfDay::parse(occurrence.start_time.trim()) {
            Ok(start) => chosen.push(Planned { date: occurrence.date, start }),
            Err(message) => errors.add("occurrences", message),
        }
    }
    let planned: Vec<Planned> = if chosen_only && series.occurrences.is_some() {
        errors.check(chosen.len() < 2, "occurrences", MSG_TOO_FEW);
        chosen.sort_by_key(|p| p.date);
        chosen
    } else {
        dates
            .iter()
            .map(|date| {
                chosen
                    .iter()
                    .find(|p| p.date == *date)
                    .copied()
                    .unwrap_or(Planned { date: *date, start: request.start })
            })
            .collect()
    };
    if !errors.is_empty() {
        return Err(invalid(errors));
    }
    Ok((every_weeks, planned))
}

/// One date of the series, checked: the booking and its day, or why it cannot be booked.
async fn occurrence(
    state: &AppState,
    base: &Checked,
    planned: Planned,
) -> Result<(Booking, Result<navalha_domain::appointment::Day, String>), ApiError> {
    occurrence_except(state, base, planned, None).await
}

/// [`occurrence`] for a change of appointment `except`, whose own time does not count.
async fn occurrence_except(
    state: &AppState,
    base: &Checked,
    planned: Planned,
    except: Option<&str>,
) -> Result<(Booking, Result<navalha_domain::appointment::Day, String>), ApiError> {
    let end = Booking::end_of(planned.start, &base.booking.services);
    let booking = Booking {
        date: planned.date,
        start: planned.start,
        end: end.unwrap_or(planned.start),
        ..base.booking.clone()
    };
    if end.is_none() {
        return Ok((booking, Err(MSG_ENDS_TOO_LATE.to_owned())));
    }
    if let Some(message) = outside_booking_window(planned.date, base.now.date()) {
        return Ok((booking, Err(message)));
    }
    let checked = Checked { booking: booking.clone(), new_id: None, ..base.clone() };
    let day = day_of(state, &checked, except).await?;
    let verdict = booking.check(&day).map(|()| day).map_err(|refusal| refusal.to_string());
    Ok((booking, verdict))
}

#[utoipa::path(
    post,
    path = "/scheduling/series/check",
    tag = "Agenda",
    summary = "Check a regulars' series before booking it: each date with its time and whether it is free, or why not",
    request_body = SeriesBody,
    responses(
        (status = 200, description = "Every date of the series, in order", body = Vec<SeriesOccurrence>),
        refused::Malformed,
        (status = 403, description = "A BARBER1, BARBER2 or DEFAULT acting on a colleague's agenda", body = ErrorBody),
        (status = 422, description = "The form or the repetition is invalid", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn check_series(
    State(state): State<AppState>,
    auth: Auth,
    body: Bytes,
) -> Result<axum::Json<Vec<SeriesOccurrence>>, ApiError> {
    let (series, request) = parse(&body)?;
    let (_, planned) = plan(&series, &request, false)?;
    let base = booking_of(&state, &Booker::Staff(&auth), request, false).await?;
    let mut answer = Vec::with_capacity(planned.len());
    for planned in planned {
        let (booking, verdict) = occurrence(&state, &base, planned).await?;
        let fits = Booking::end_of(booking.start, &booking.services).is_some();
        answer.push(SeriesOccurrence {
            date: booking.date,
            start_time: booking.start.to_string(),
            end_time: fits.then(|| booking.end.to_string()),
            free: verdict.is_ok(),
            reason: verdict.err(),
        });
    }
    Ok(axum::Json(answer))
}

#[utoipa::path(
    post,
    path = "/scheduling/series",
    tag = "Agenda",
    summary = "Book a regulars' series: each chosen occurrence an ordinary appointment, all in one append (every one or none)",
    request_body = SeriesBody,
    responses(
        (status = 201, description = "Booked", body = SeriesBooked, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Malformed,
        (status = 403, description = "A BARBER1, BARBER2 or DEFAULT acting on a colleague's agenda", body = ErrorBody),
        (status = 409, description = "An occurrence is not free (`errors.occurrences` names its date and why): check the series again", body = ErrorBody),
        (status = 422, description = "The form, the repetition or the occurrences are invalid", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn book_series(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    body: Bytes,
) -> Result<(StatusCode, HeaderMap, axum::Json<SeriesBooked>), ApiError> {
    let (series, request) = parse(&body)?;
    let (every_weeks, planned) = plan(&series, &request, true)?;
    let base = booking_of(&state, &Booker::Staff(&auth), request, false).await?;
    let mut decided = Vec::with_capacity(planned.len());
    for planned in &planned {
        match occurrence(&state, &base, *planned).await? {
            (booking, Ok(day)) => decided.push((booking, day)),
            (_, Err(reason)) => {
                let message = format!("{}: {reason}", planned.date.format("%d/%m/%Y"));
                return Err(ApiError::ConflictOn { field: "occurrences".to_owned(), message });
            }
        }
    }
    let mut ids = Vec::with_capacity(decided.len());
    for _ in &decided {
        ids.push(state.appointment_ids.next(&state.pool).await?);
    }
    let id_series = ids[0];
    let count = u16::try_from(decided.len()).unwrap_or(u16::MAX);
    let commands = decided
        .into_iter()
        .zip(&ids)
        .enumerate()
        .map(|(at, ((booking, day), id))| {
            let link = SeriesLink { id: id_series, index: at as u16 + 1, count, every_weeks };
            let booking = Booking { series: Some(link), ..booking };
            (id.to_string(), Some(Default::default()), AppointmentCommand::Book { booking, day })
        })
        .collect();
    let answer = SeriesBooked { id_series, ids_scheduling: ids.clone() };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let streams = execute_all::<Appointment>(&state.events, commands, &metadata).await?;
    let position = streams.iter().filter_map(|s| s.position).max_by_key(|p| p.global_position);
    tracing::info!(series_id = id_series, appointments = ids.len(), "series booked");
    Ok((StatusCode::CREATED, position_headers(position), axum::Json(answer)))
}

/// `?scope=following|all`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CancelScope {
    /// `following`: this appointment and the later ones; `all`: every one not started.
    scope: Option<String>,
}

/// The appointments of `id`'s series that a series change reaches, from `id` on
/// (`following`) or all: those active and not started, the caller's to touch. `id`'s
/// stream is first.
async fn reached(
    state: &AppState,
    auth: &Principal,
    id: i64,
    following: bool,
) -> Result<(SeriesLink, Vec<(String, Stream<Appointment>)>), ApiError> {
    let appointment = touchable(state, auth, id).await?;
    let booking = appointment.booking().ok_or_else(|| ApiError::NotFound(MSG_NO_SERIES.to_owned()))?;
    let link = booking.series.ok_or_else(|| ApiError::Unprocessable(MSG_NO_SERIES.to_owned()))?;
    let ids: Vec<String> =
        sqlx::query_scalar(SERIES_APPOINTMENTS).bind(link.id.to_string()).fetch_all(&state.pool).await?;
    let wanted: Vec<_> = ids.iter().map(|id| (Appointment::TYPE, id.clone())).collect();
    let streams = Streams::fetch(&state.events, auth.business_id, &wanted).await?;
    let now = crate::companies::unit_now(state, auth.business_id, booking.company_id).await?;
    let mut found = Vec::new();
    for aggregate_id in &ids {
        let stream = streams.replay_stream::<Appointment>(aggregate_id)?;
        let Some(booking) = stream.aggregate.booking().cloned() else { continue };
        let index = booking.series.map_or(0, |s| s.index);
        let open = stream.aggregate.standing() == Standing::Active && booking.starts_at() > now;
        if !open || (following && index < link.index) {
            continue;
        }
        if !auth.belongs_to(booking.company_id) || !auth.may_act_for(booking.professional_id) {
            return Err(ApiError::Forbidden);
        }
        found.push((aggregate_id.clone(), stream));
    }
    found.sort_by_key(|(aggregate_id, _)| {
        (aggregate_id != &id.to_string(), aggregate_id.parse::<i64>().unwrap_or(0))
    });
    Ok((link, found))
}

fn scope_of(scope: &CancelScope) -> Result<bool, ApiError> {
    match scope.scope.as_deref() {
        Some("following") => Ok(true),
        Some("all") => Ok(false),
        _ => Err(ApiError::field("scope", MSG_SCOPE)),
    }
}

#[utoipa::path(
    put,
    path = "/scheduling/{idScheduling}/series",
    tag = "Agenda",
    summary = "Change this appointment and the following of its series, or all not started, in one append: the form's time, professional, services and notes for each, each date moved as this one's",
    params(
        ("idScheduling" = i64, Path),
        CancelScope,
    ),
    request_body = SchedulingBody,
    responses(
        (status = 200, description = "Changed", body = SeriesChanged, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Malformed,
        (status = 403, description = "An appointment of the series on a colleague's agenda, for a BARBER1, BARBER2 or DEFAULT", body = ErrorBody),
        (status = 404, description = "Unknown appointment, or another unit's", body = ErrorBody),
        (status = 409, description = "An occurrence would not be free (`errors.occurrences` names its date and why)", body = ErrorBody),
        (status = 422, description = "Validation, not in a series, or an unknown scope", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn change_series(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Query(scope): Query<CancelScope>,
    body: Bytes,
) -> Result<(HeaderMap, axum::Json<SeriesChanged>), ApiError> {
    let following = scope_of(&scope)?;
    let request = super::parse(&body)?;
    let (link, reached) = reached(&state, &auth, id, following).await?;
    // This one leads the change: it must still be open to change.
    let this = match reached.first() {
        Some((first, stream)) if *first == id.to_string() => stream.aggregate.booking().cloned(),
        _ => None,
    }
    .ok_or_else(|| AppointmentError::InThePast.to_api())?;
    let shift = request.date - this.date;
    let reprice = request.reprice;
    let base = booking_of(&state, &Booker::Staff(&auth), request, false).await?;
    let mut commands = Vec::with_capacity(reached.len());
    for (aggregate_id, stream) in reached {
        let Some(booked) = stream.aggregate.booking().cloned() else { continue };
        let planned = Planned { date: booked.date + shift, start: base.booking.start };
        let (mut booking, verdict) = occurrence_except(&state, &base, planned, Some(&aggregate_id)).await?;
        let day = verdict.map_err(|reason| ApiError::ConflictOn {
            field: "occurrences".to_owned(),
            message: format!("{}: {reason}", planned.date.format("%d/%m/%Y")),
        })?;
        if !reprice {
            booking = booking.keeping_prices_of(&booked);
        }
        commands.push((aggregate_id, Some(stream), AppointmentCommand::Change { booking, day }));
    }
    let changed: Vec<i64> = commands.iter().filter_map(|(id, ..)| id.parse().ok()).collect();
    let streams = execute_all::<Appointment>(&state.events, commands, &metadata_of(&auth, &origin)).await?;
    let position = streams.iter().filter_map(|s| s.position).max_by_key(|p| p.global_position);
    tracing::info!(series_id = link.id, changed = changed.len(), following, "series changed");
    Ok((
        position_headers(position),
        axum::Json(SeriesChanged { id_series: link.id, ids_scheduling: changed }),
    ))
}

#[utoipa::path(
    delete,
    path = "/scheduling/{idScheduling}/series",
    tag = "Agenda",
    summary = "Cancel this appointment and the following of its series, or all of them not started yet, in one append",
    params(
        ("idScheduling" = i64, Path),
        CancelScope,
    ),
    responses(
        (status = 200, description = "Cancelled", body = SeriesCancelled, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        (status = 403, description = "An appointment of the series on a colleague's agenda, for a BARBER1, BARBER2 or DEFAULT", body = ErrorBody),
        (status = 404, description = "Unknown appointment, or another unit's", body = ErrorBody),
        (status = 422, description = "Not in a series, or an unknown scope", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn cancel_series(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Query(scope): Query<CancelScope>,
) -> Result<(HeaderMap, axum::Json<SeriesCancelled>), ApiError> {
    let following = scope_of(&scope)?;
    let (link, reached) = reached(&state, &auth, id, following).await?;
    let mut cancelled: Vec<i64> = reached.iter().filter_map(|(id, _)| id.parse().ok()).collect();
    let commands = reached
        .into_iter()
        .map(|(aggregate_id, stream)| (aggregate_id, Some(stream), AppointmentCommand::Cancel))
        .collect();
    let streams = execute_all::<Appointment>(&state.events, commands, &metadata_of(&auth, &origin)).await?;
    let position = streams.iter().filter_map(|s| s.position).max_by_key(|p| p.global_position);
    cancelled.sort_unstable();
    tracing::info!(series_id = link.id, cancelled = cancelled.len(), following, "series cancelled");
    Ok((
        position_headers(position),
        axum::Json(SeriesCancelled { id_series: link.id, ids_scheduling: cancelled }),
    ))
}
