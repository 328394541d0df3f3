//! The agenda's commands (spec 01 §7): `POST scheduling/professional`,
//! `PUT scheduling/professional/{idScheduling}`, `DELETE scheduling/{idScheduling}`
//! (cancels), and `PUT scheduling/{idScheduling}/confirm` ('Confirmar' on a card).
//!
//! A booking's end is its start plus the professional's times for the chosen services.
//! `ONLY_AVAILABLES` (the default) checks working and opening hours, days off, holidays and
//! other bookings; `ALL_TIMES` only opening hours and other bookings. The handlers read the
//! professional's day ([`day_of`]); the aggregate decides against it and names the rule a
//! time breaks (`Booking::check`). The exclusion constraint on `appointment_slot`, written
//! in the events' transaction, is what makes a double booking impossible under any
//! concurrency.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use chrono::{Datelike, NaiveDate, NaiveDateTime};
use navalha_domain::appointment::{
    Appointment, AppointmentCommand, AppointmentError, BookedService, Booking, Day, TimesType,
};
use navalha_domain::availability::{DayRules, Span};
use navalha_domain::client::Client;
use navalha_domain::company::Company;
use navalha_domain::professional::{status, Professional};
use navalha_domain::service::Service;
use navalha_domain::validation::{form_date, FieldErrors, TimeOfDay, MAX_TEXT};
use navalha_domain::Aggregate as _;
use navalha_platform::auth::{Auth, Principal};
use navalha_platform::bad_input;
use navalha_platform::calendar::taken_day;
use navalha_platform::clock::{now_in, DEFAULT_TIME_ZONE};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdScheduling;
use navalha_platform::ApiError;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{
    execute, execute_new, invalid, load, metadata_of, position_headers, DomainError, Streams,
};
use crate::companies::unit_now;
use crate::idempotency;
use crate::read_models::Owner;
use crate::state::AppState;

mod series;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(book))
        .routes(routes!(change))
        .routes(routes!(confirm))
        .routes(routes!(cancel))
        .merge(series::router())
}

impl DomainError for AppointmentError {
    fn to_api(&self) -> ApiError {
        match self {
            AppointmentError::NotFound => ApiError::NotFound(self.to_string()),
            AppointmentError::InThePast
            | AppointmentError::ConfirmPast
            | AppointmentError::ArrivalNotToday
            | AppointmentError::NoShowTooEarly
            | AppointmentError::AlreadyArrived
            | AppointmentError::MarkedNoShow
            | AppointmentError::NotNoShow
            | AppointmentError::UndoTooLate => ApiError::Unprocessable(self.to_string()),
            AppointmentError::PastTime => ApiError::field("startTime", &self.to_string()),
            AppointmentError::AlreadyBooked
            | AppointmentError::Cancelled
            | AppointmentError::OutsideWorkingHours
            | AppointmentError::UnitClosed
            | AppointmentError::Blocked
            | AppointmentError::SlotTaken => ApiError::Conflict(self.to_string()),
            // The form's 'Agendar mesmo assim' lifts it, so the answer names that field.
            AppointmentError::ClientBusy => {
                ApiError::ConflictOn { field: "allowClientOverlap".to_owned(), message: self.to_string() }
            }
        }
    }
}

/// The appointment form (spec 01 §3 'Appointment write payload').
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = SchedulingForm)]
pub struct SchedulingBody {
    /// The professional in the unit (IdCompanyProfessional).
    id_company_professional: Option<i64>,
    /// `YYYY-MM-DD`, or an ISO date-time.
    date: Option<String>,
    /// `HH:MM` or `HH:MM:SS`.
    start_time: Option<String>,
    /// Ignored: the end is the start plus the professional's times for the services.
    #[allow(dead_code)]
    end_time: Option<String>,
    /// The services, at least one.
    id_services: Vec<i64>,
    /// The client.
    id_user: Option<i64>,
    /// Free text, at most 1,000 characters.
    observation: Option<String>,
    /// `ONLY_AVAILABLES` (the default) checks working hours, days off, holidays and
    /// bookings; `ALL_TIMES` only opening hours and bookings.
    #[schema(value_type = Option<String>, example = "ONLY_AVAILABLES")]
    times_type: Option<String>,
    /// An edit only: `true` prices the services at the professional's prices now; absent or
    /// `false` keeps the prices booked for the services the appointment already had (issue
    /// 45: a move to another professional changes no price silently).
    reprice: Option<bool>,
    /// 'Agendar mesmo assim' (ADMIN and ATTENDANT only): book even though the client has
    /// another appointment at an overlapping time (issue 45). Recorded in the event.
    allow_client_overlap: Option<bool>,
}

/// The form, checked field by field.
#[derive(Clone)]
pub(crate) struct Request {
    pub(crate) membership_id: i64,
    pub(crate) date: NaiveDate,
    pub(crate) start: TimeOfDay,
    pub(crate) service_ids: Vec<i64>,
    pub(crate) client_id: i64,
    pub(crate) observation: String,
    pub(crate) times_type: TimesType,
    /// An edit at today's prices (`SchedulingBody::reprice`).
    pub(crate) reprice: bool,
    /// 'Agendar mesmo assim' (`SchedulingBody::allow_client_overlap`).
    pub(crate) client_overlap: bool,
}

/// Who books: a staff member, or a client on a unit's public page (online.rs).
pub(crate) enum Booker<'a> {
    /// Within the units they belong to, and their own agenda for the roles that may not
    /// choose another professional.
    Staff(&'a Principal),
    /// A client with an online-booking token: the active unit of its page, any professional.
    Online {
        /// The unit's business.
        business_id: i64,
        /// The unit.
        company_id: i64,
    },
}

impl Booker<'_> {
    fn business_id(&self) -> i64 {
        match self {
            Booker::Staff(principal) => principal.business_id,
            Booker::Online { business_id, .. } => *business_id,
        }
    }

    fn reaches(&self, company: &Company, company_id: i64) -> bool {
        match self {
            Booker::Staff(principal) => company.profile().is_some() && principal.belongs_to(company_id),
            Booker::Online { company_id: unit, .. } => {
                *unit == company_id && company.profile().is_some_and(|profile| profile.status)
            }
        }
    }

    fn may_act_for(&self, professional_id: i64) -> bool {
        match self {
            Booker::Staff(principal) => principal.may_act_for(professional_id),
            Booker::Online { .. } => true,
        }
    }

    /// Whether it may book a client into an overlapping time: the desk's choice, never a
    /// client's own online booking.
    fn may_overlap_clients(&self) -> bool {
        match self {
            Booker::Staff(principal) => principal.role.may_overlap_clients(),
            Booker::Online { .. } => false,
        }
    }
}

fn parse(body: &[u8]) -> Result<Request, ApiError> {
    let body: SchedulingBody = serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(bad_input::body_message("", &e.to_string())))?;
    checked_form(body)
}

/// The form's fields checked one by one.
fn checked_form(body: SchedulingBody) -> Result<Request, ApiError> {
    let mut errors = FieldErrors::default();
    errors.check(body.id_company_professional.is_none(), "idCompanyProfessional", "Escolha o profissional");
    let date = form_date(body.date.as_deref()).ok().flatten();
    errors.check(date.is_none(), "date", "Digite uma data válida");
    let start = match body.start_time.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => {
            errors.add("startTime", "Escolha o horário");
            None
        }
        Some(text) => TimeOfDay::parse(text).map_err(|m| errors.add("startTime", m)).ok(),
    };
    errors.check(body.id_services.is_empty(), "idServices", "Escolha pelo menos um serviço");
    errors.check(body.id_user.is_none(), "idUser", "Escolha o cliente");
    let observation = body.observation.as_deref().unwrap_or_default().trim().to_owned();
    errors.check_length("observation", &observation, MAX_TEXT);
    let times_type = TimesType::parse(body.times_type.as_deref());
    errors.check(
        times_type.is_none(),
        "timesType",
        "Tipo de horário inválido: use ONLY_AVAILABLES ou ALL_TIMES",
    );
    match (body.id_company_professional, date, start, body.id_user, times_type) {
        (Some(membership_id), Some(date), Some(start), Some(client_id), Some(times_type))
            if errors.is_empty() =>
        {
            let mut service_ids = body.id_services;
            service_ids.dedup();
            let reprice = body.reprice.unwrap_or(false);
            let client_overlap = body.allow_client_overlap.unwrap_or(false);
            Ok(Request {
                membership_id,
                date,
                start,
                service_ids,
                client_id,
                observation,
                times_type,
                reprice,
                client_overlap,
            })
        }
        _ => Err(invalid(errors)),
    }
}

/// A checked booking, with what checking its time needs.
#[derive(Clone)]
pub(crate) struct Checked {
    /// The caller's business.
    pub(crate) business_id: i64,
    pub(crate) booking: Booking,
    pub(crate) professional: Professional,
    pub(crate) company: Company,
    /// The unit's wall clock now.
    pub(crate) now: NaiveDateTime,
    /// A new appointment's id, when asked for (see [`booking_of`]).
    pub(crate) new_id: Option<i64>,
}

/// Turns a checked form into a booking: the membership, the client and the services must
/// exist and be active, and the unit visible to the caller. With `new_id`, a booking that
/// passes these checks takes a new appointment id (one its time then refuses leaves a gap).
pub(crate) async fn booking_of(
    state: &AppState,
    booker: &Booker<'_>,
    request: Request,
    new_id: bool,
) -> Result<Checked, ApiError> {
    // The membership's owner is kept once read (it never changes hands); everything the
    // decision rests on is then replayed from the streams, in one round trip.
    let not_here = || ApiError::field("idCompanyProfessional", "Profissional não encontrado nesta unidade");
    let Owner { professional_id, company_id } = state
        .memberships
        .of(&state.pool, booker.business_id(), request.membership_id)
        .await?
        .ok_or_else(not_here)?;
    let mut wanted = vec![
        (Company::TYPE, company_id.to_string()),
        (Professional::TYPE, professional_id.to_string()),
        (Client::TYPE, request.client_id.to_string()),
    ];
    wanted.extend(request.service_ids.iter().map(|id| (Service::TYPE, id.to_string())));
    let streams = Streams::fetch(&state.events, booker.business_id(), &wanted).await?;
    let company: Company = streams.replay(&company_id.to_string())?;
    if !booker.reaches(&company, company_id) {
        return Err(not_here());
    }
    let now = now_in(company.profile().map_or(DEFAULT_TIME_ZONE, |profile| profile.time_zone.as_str()));
    if let Some(message) = navalha_domain::appointment::outside_booking_window(request.date, now.date()) {
        return Err(ApiError::field("date", &message));
    }
    if !booker.may_act_for(professional_id) || (request.client_overlap && !booker.may_overlap_clients()) {
        return Err(ApiError::Forbidden);
    }
    let professional: Professional = streams.replay(&professional_id.to_string())?;
    let employment = professional.employment().ok_or_else(not_here)?;
    if employment.status != status::ACTIVE
        || !employment.memberships.iter().any(|m| m.id == request.membership_id && m.company_id == company_id)
    {
        return Err(not_here());
    }
    let client: Client = streams.replay(&request.client_id.to_string())?;
    if !client.details().is_some_and(|d| d.status) {
        return Err(ApiError::field("idUser", "Cliente não encontrado ou inativo"));
    }
    let mut services = Vec::with_capacity(request.service_ids.len());
    for service_id in &request.service_ids {
        let offered = professional.services().iter().find(|s| s.service_id == *service_id && s.active);
        let catalogue: Service = streams.replay(&service_id.to_string())?;
        match (offered, catalogue.entry().filter(|e| e.active)) {
            (Some(offered), Some(entry)) => services.push(BookedService {
                service_id: *service_id,
                description: entry.description.clone(),
                minutes: offered.minutes,
                cents: offered.cents,
                interval_after: offered.interval_after,
            }),
            _ => return Err(ApiError::field("idServices", "Serviço indisponível para este profissional")),
        }
    }
    let end = Booking::end_of(request.start, &services)
        .ok_or_else(|| ApiError::field("startTime", "O atendimento precisa terminar até 23:59"))?;
    let booking = Booking {
        membership_id: request.membership_id,
        professional_id,
        company_id,
        client_id: request.client_id,
        date: request.date,
        start: request.start,
        end,
        services,
        observation: request.observation,
        times_type: request.times_type,
        online: matches!(booker, Booker::Online { .. }),
        newcomer: matches!(booker, Booker::Online { .. }) && client.is_unconfirmed(),
        client_overlap: request.client_overlap,
        series: None,
    };
    let new_id = if new_id { Some(state.appointment_ids.next(&state.pool).await?) } else { None };
    Ok(Checked { business_id: booker.business_id(), booking, professional, company, now, new_id })
}

/// Reads the booking's professional's day for the aggregate to check its time against,
/// leaving out `except` (the appointment being edited), in one round trip. Days off and
/// holidays are read only for `ONLY_AVAILABLES`, the only mode they bind.
pub(crate) async fn day_of(
    state: &AppState,
    checked: &Checked,
    except: Option<&str>,
) -> Result<Day, ApiError> {
    let booking = &checked.booking;
    let taken = taken_day(
        &state.pool,
        checked.business_id,
        booking.professional_id,
        booking.company_id,
        booking.client_id,
        booking.date,
        except,
        booking.times_type == TimesType::OnlyAvailables,
    )
    .await?;
    let weekday = booking.date.weekday().num_days_from_sunday() as usize;
    let rules = DayRules {
        busy: taken.busy.iter().filter_map(|slot| slot.on(booking.date)).collect(),
        blocked: taken.blocked.iter().filter_map(|r| r.on(booking.date, booking.professional_id)).collect(),
        opening: checked.company.hours()[weekday].map(Span::from),
        working: checked.professional.hours()[weekday].iter().map(|p| Span::from(*p)).collect(),
    };
    let client_busy = taken.client_busy.iter().filter_map(|slot| slot.on(booking.date)).collect();
    Ok(Day { rules, now: checked.now, client_busy })
}

#[utoipa::path(
    post,
    path = "/scheduling/professional",
    tag = "Agenda",
    summary = "Book an appointment (ONLY_AVAILABLES checks hours, days off, holidays and bookings; ALL_TIMES only opening hours and bookings)",
    request_body = SchedulingBody,
    responses(
        (status = 201, description = "Booked: {IdScheduling}", body = IdScheduling, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdScheduling": 1 })),
        refused::Malformed,
        (status = 403, description = "A BARBER1, BARBER2 or DEFAULT acting on a colleague's agenda, or another role than ADMIN and ATTENDANT sending `allowClientOverlap`", body = ErrorBody),
        (status = 409, description = "The time is taken, or outside working/opening hours, a day off or a holiday; or the client has another appointment then (`errors.allowClientOverlap`: resend with `allowClientOverlap: true` to book anyway)", body = ErrorBody),
        (status = 422, description = "Validation, or an Idempotency-Key reused with another body", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn book(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    body: Bytes,
) -> Result<(StatusCode, HeaderMap, axum::Json<IdScheduling>), ApiError> {
    let checked = booking_of(&state, &Booker::Staff(&auth), parse(&body)?, true).await?;
    let id = checked.new_id.ok_or_else(|| ApiError::Internal(anyhow::anyhow!("no new appointment id")))?;
    let day = day_of(&state, &checked, None).await?;
    let answer = IdScheduling { id_scheduling: id };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let position = execute_new::<Appointment>(
        &state.events,
        &id.to_string(),
        AppointmentCommand::Book { booking: checked.booking, day },
        &metadata,
    )
    .await?;
    tracing::info!(appointment_id = id, "appointment booked");
    Ok((StatusCode::CREATED, position_headers(position), axum::Json(answer)))
}

/// Loads an appointment the caller may touch: in a unit they belong to, and their own for
/// BARBER1 and BARBER2. Others are 404 (another unit) or 403 (a colleague's).
pub(crate) async fn touchable(
    state: &AppState,
    principal: &Principal,
    id: i64,
) -> Result<Appointment, ApiError> {
    let appointment: Appointment = load(&state.events, principal.business_id, &id.to_string()).await?;
    let booking = appointment
        .booking()
        .filter(|booking| principal.belongs_to(booking.company_id))
        .ok_or_else(|| ApiError::NotFound("Agendamento não encontrado.".to_owned()))?;
    if !principal.may_act_for(booking.professional_id) {
        return Err(ApiError::Forbidden);
    }
    Ok(appointment)
}

#[utoipa::path(
    put,
    path = "/scheduling/professional/{idScheduling}",
    tag = "Agenda",
    summary = "Move or change an appointment (not a past or cancelled one)",
    params(
        ("idScheduling" = i64, Path),
    ),
    request_body = SchedulingBody,
    responses(
        (status = 200, description = "Changed: {IdScheduling}", body = IdScheduling, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdScheduling": 1 })),
        (status = 403, description = "A BARBER1, BARBER2 or DEFAULT acting on a colleague's agenda", body = ErrorBody),
        (status = 404, description = "Unknown appointment, or another unit's", body = ErrorBody),
        (status = 409, description = "The time is taken or not available, or the appointment is cancelled; or the client has another appointment then (`errors.allowClientOverlap`)", body = ErrorBody),
        (status = 422, description = "Validation, or the appointment already started ('Não é possível editar um agendamento passado')", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn change(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    body: Bytes,
) -> Result<(HeaderMap, axum::Json<IdScheduling>), ApiError> {
    let appointment = touchable(&state, &auth, id).await?;
    let request = parse(&body)?;
    let reprice = request.reprice;
    let mut checked = booking_of(&state, &Booker::Staff(&auth), request, false).await?;
    if let (false, Some(booked)) = (reprice, appointment.booking()) {
        checked.booking = checked.booking.keeping_prices_of(booked);
    }
    let aggregate_id = id.to_string();
    let day = day_of(&state, &checked, Some(&aggregate_id)).await?;
    let metadata = metadata_of(&auth, &origin);
    let position = execute::<Appointment>(
        &state.events,
        &aggregate_id,
        AppointmentCommand::Change { booking: checked.booking, day },
        &metadata,
    )
    .await?;
    Ok((position_headers(position), axum::Json(IdScheduling { id_scheduling: id })))
}

/// An appointment confirmed: `Confirmation` is now true.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct SchedulingConfirmed {
    id_scheduling: i64,
    confirmation: bool,
}

/// An appointment cancelled: `Status` is now false.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct SchedulingCancelled {
    id_scheduling: i64,
    status: bool,
}

#[utoipa::path(
    put,
    path = "/scheduling/{idScheduling}/confirm",
    tag = "Agenda",
    summary = "'Confirmar' on a card: the client confirmed",
    params(
        ("idScheduling" = i64, Path),
    ),
    responses(
        (status = 200, description = "Confirmed", body = SchedulingConfirmed, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        (status = 403, description = "A BARBER1, BARBER2 or DEFAULT acting on a colleague's agenda", body = ErrorBody),
        (status = 404, description = "Unknown appointment, or another unit's", body = ErrorBody),
        (status = 409, description = "Cancelled", body = ErrorBody),
        (status = 422, description = "It already started: 'Não é possível confirmar um agendamento passado.'", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn confirm(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, axum::Json<SchedulingConfirmed>), ApiError> {
    let appointment = touchable(&state, &auth, id).await?;
    let company_id = appointment.booking().map_or(0, |booking| booking.company_id);
    let now = unit_now(&state, auth.business_id, company_id).await?;
    let position = execute::<Appointment>(
        &state.events,
        &id.to_string(),
        AppointmentCommand::Confirm { now },
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((
        position_headers(position),
        axum::Json(SchedulingConfirmed { id_scheduling: id, confirmation: true }),
    ))
}

#[utoipa::path(
    delete,
    path = "/scheduling/{idScheduling}",
    tag = "Agenda",
    summary = "Cancel an appointment (its time becomes free)",
    params(
        ("idScheduling" = i64, Path),
    ),
    responses(
        (status = 200, description = "Cancelled", body = SchedulingCancelled, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        (status = 403, description = "A BARBER1, BARBER2 or DEFAULT acting on a colleague's agenda", body = ErrorBody),
        (status = 404, description = "Unknown appointment, or another unit's", body = ErrorBody),
        (status = 409, description = "Already cancelled", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn cancel(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, axum::Json<SchedulingCancelled>), ApiError> {
    touchable(&state, &auth, id).await?;
    let metadata = metadata_of(&auth, &origin);
    let position =
        execute::<Appointment>(&state.events, &id.to_string(), AppointmentCommand::Cancel, &metadata).await?;
    tracing::info!("appointment cancelled");
    Ok((position_headers(position), axum::Json(SchedulingCancelled { id_scheduling: id, status: false })))
}
