//! The agenda's reads (spec 01 §7): the day's appointments (`GET scheduling/professional`),
//! one appointment for editing (`GET scheduling/{id}`), free times for the next 30 days
//! (`GET no-auth/scheduling/available-times`) and the audit of an appointment
//! (`GET scheduling/{id}/history`, ADMIN only). With `asOf`, ADMIN reads the day as it
//! stood at a past instant, replayed from the appointments' events.
//!
//! Free times are read from the `free_time` model, which keeps each professional's free
//! time per weekday and per booked day (ADR 0015); days off and holidays are cut from it and
//! the services' duration fitted on each request, with `domain::availability`.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, Timelike, Utc};
use navalha_domain::appointment::{
    Appointment, AppointmentEvent, BookedService, Booking, Standing, TimesType,
};
use navalha_domain::availability::{
    first_bookable_minute, fit, format_minutes, spans_of_bounds, subtract, Span, DAY_MINUTES,
};
use navalha_domain::professional::status as professional_status;
use navalha_domain::role::Role;
use navalha_domain::validation::Period;
use navalha_domain::{event_payload, Aggregate as _};
use navalha_platform::auth::{AdminOnly, Auth, MaybeAuth, Principal};
use navalha_platform::calendar::{blocked_ranges, BlockedRange};
use navalha_platform::clock;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam};
use navalha_platform::position::Position;
use navalha_platform::ApiError;
use navalha_read_models::{self as read_models, ReadModel};
use serde::Serialize;
use serde_json::{json, Value};
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::club::MSG_BAD_AS_OF;
use crate::consistency::{Consistency, ReadAfter};
use crate::history::{history, HistoryEntry};
use crate::kept;
use crate::params::Params;
use crate::scope;
use crate::AppState;

/// The header that carries a booking link's token to `available-times` (online reschedule).
pub const BOOKING_TOKEN_HEADER: &str = "x-booking-token";
/// How many days of free times `available-times` answers, today included.
pub const FREE_TIME_DAYS: i64 = 30;
/// Answer for an unknown appointment, or one the user may not see.
pub const MSG_NOT_FOUND: &str = "Agendamento não encontrado.";
/// Answer for an unknown unit, or one the user may not open.
pub const MSG_COMPANY_NOT_FOUND: &str = "Barbearia não encontrada.";

/// The read models free times are computed from: their kept answers go stale with their notices.
pub const FREE_TIME_MODELS: &[&ReadModel] = &[
    &read_models::FREE_TIME,
    &read_models::PROFESSIONAL,
    &read_models::COMPANY,
    &read_models::DAY_OFF,
    &read_models::HOLIDAY,
];

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(day))
        .routes(routes!(one))
        .routes(routes!(audit))
        .routes(routes!(available_times))
}

/// A unit as the agenda needs it.
struct Unit {
    /// Its business.
    business_id: i64,
    active: bool,
    /// Its wall clock now.
    now: NaiveDateTime,
}

async fn unit(conn: &mut PgConnection, company_id: i64) -> Result<Option<Unit>, ApiError> {
    let row: Option<(i64, bool, NaiveDateTime)> = sqlx::query_as(
        "select business_id, status, ($2::timestamptz at time zone time_zone)::timestamp
           from rm_company.company where company_id = $1",
    )
    .bind(company_id)
    .bind(clock::now())
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|(business_id, active, now)| Unit { business_id, active, now }))
}

/// The unit of an agenda read, when the principal belongs to it; 404 otherwise.
async fn agenda_unit(
    conn: &mut PgConnection,
    principal: &Principal,
    company_id: i64,
) -> Result<Unit, ApiError> {
    if !principal.belongs_to(company_id) {
        return Err(ApiError::NotFound(MSG_COMPANY_NOT_FOUND.to_owned()));
    }
    unit(conn, company_id).await?.ok_or_else(|| ApiError::NotFound(MSG_COMPANY_NOT_FOUND.to_owned()))
}

/// The day asked for: `YYYY-MM-DD`, or an ISO date-time (a date picker's local midnight),
/// read on the default zone's clock (spec 01 §5: dates are handled at UTC-3; ADR 0013).
fn agenda_date(text: Option<&str>) -> Result<NaiveDate, ApiError> {
    let invalid = || ApiError::field("date", "Digite uma data válida");
    let text = text.ok_or_else(invalid)?;
    if let Ok(date) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return Ok(date);
    }
    chrono::DateTime::parse_from_rfc3339(text)
        .map(|at| clock::wall_clock(at.to_utc(), clock::DEFAULT_TIME_ZONE).date())
        .map_err(|_| invalid())
}

/// An appointment of the day list (spec 01 §3 'Appointment, day list item').
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DayItem {
    /// IdScheduling: 'Agendamento N.º {id}'.
    pub id_scheduling: i64,
    /// The professional.
    pub id_professional: i64,
    /// IdCompanyProfessional.
    pub id_company_professional: i64,
    /// The client.
    pub id_user: i64,
    /// Client's name.
    pub user_name: String,
    /// Client's phone, digits.
    pub user_phone: String,
    /// Whether that phone is on WhatsApp.
    #[serde(rename = "UserWhatsApp")]
    pub user_whatsapp: bool,
    /// The day.
    pub date: NaiveDate,
    /// `HH:MM:SS`.
    pub start_time: String,
    /// `HH:MM:SS`.
    pub end_time: String,
    /// The services' names.
    pub services: Vec<String>,
    /// Notes, empty when none.
    pub observation: String,
    /// true booked, false cancelled.
    pub status: bool,
    /// Whether the client confirmed it ('Confirmar').
    pub confirmation: bool,
    /// `ALL_TIMES` or `ONLY_AVAILABLES`: how it was booked.
    pub times_type: String,
    /// The professional's agenda colour.
    pub professional_color: String,
    /// The professional's name.
    pub professional_name: String,
    /// The client's subscriptions, those in force first (`club::subscriptions_of`).
    pub subscription_user: Vec<crate::club::SubscriptionSummary>,
    /// Booked by the client on the unit's public page (issue 18).
    pub online: bool,
}

/// An appointment row with what the day list shows of its client and professional.
#[derive(Debug, sqlx::FromRow)]
struct AppointmentRow {
    appointment_id: i64,
    company_id: i64,
    professional_id: i64,
    membership_id: i64,
    client_id: i64,
    user_name: String,
    user_phone: String,
    user_whatsapp: bool,
    date: NaiveDate,
    start_time: String,
    end_time: String,
    services: sqlx::types::Json<Vec<BookedService>>,
    observation: String,
    status: bool,
    confirmation: bool,
    times_type: String,
    professional_color: String,
    professional_name: String,
    online: bool,
}

/// The columns of `AppointmentRow`: one table, which carries copies of what the card shows
/// of the client and the professional (issue 15), so no join.
const APPOINTMENT_COLUMNS: &str = "a.appointment_id, a.company_id, a.professional_id, a.membership_id,
        a.client_id, a.client_name as user_name, a.client_phone as user_phone, a.client_whatsapp as user_whatsapp,
        a.date, a.start_time::text as start_time, a.end_time::text as end_time, a.services, a.observation,
        a.status, a.confirmation, a.times_type, a.professional_color, a.professional_name, a.online";

/// A day list row: the appointment and its client's subscriptions, read in one statement.
#[derive(sqlx::FromRow)]
struct DayRow {
    #[sqlx(flatten)]
    appointment: AppointmentRow,
    subscriptions: sqlx::types::Json<Vec<crate::club::SubscriptionSummary>>,
}

fn day_item(row: AppointmentRow, subscriptions: Vec<crate::club::SubscriptionSummary>) -> DayItem {
    DayItem {
        id_scheduling: row.appointment_id,
        id_professional: row.professional_id,
        id_company_professional: row.membership_id,
        id_user: row.client_id,
        user_name: row.user_name,
        user_phone: row.user_phone,
        user_whatsapp: row.user_whatsapp,
        date: row.date,
        start_time: row.start_time,
        end_time: row.end_time,
        services: row.services.0.into_iter().map(|s| s.description).collect(),
        observation: row.observation,
        status: row.status,
        confirmation: row.confirmation,
        times_type: row.times_type,
        professional_color: row.professional_color,
        professional_name: row.professional_name,
        subscription_user: subscriptions,
        online: row.online,
    }
}

/// `GET scheduling/professional?idCompany&date&idProfessional&idUser&status`: the day's
/// appointments of a unit, by start time. `status` is 0 (or absent) for all, 1 booked,
/// 2 cancelled (spec 01 §4). Roles that may not choose other professionals see their own.
/// `asOf` (ADMIN only, as the audit): the day as it stood at that instant (`day_as_of`).
#[utoipa::path(
    get,
    path = "/scheduling/professional",
    tag = "Agenda",
    summary = "The day's appointments of a unit, by start time (BARBER1, BARBER2 and DEFAULT see their own); with asOf, as they stood at a past instant",
    params(
        ("idCompany" = i64, Query),
        ("date" = String, Query, description = "YYYY-MM-DD, or an ISO date-time read at UTC-3"),
        ("idProfessional" = Option<i64>, Query),
        ("idUser" = Option<i64>, Query),
        ("status" = Option<i64>, Query, description = "0 all (default), 1 booked, 2 cancelled"),
        ("asOf" = Option<String>, Query, description = "ADMIN only: the day as it stood at this instant, replayed from the appointments' events. An RFC 3339 instant, a date-time without offset (UTC-3), or a date (the end of that day)"),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The day list. X-Navalha-Answer says `kept` when it was served as kept between reads (ADR 0018), `read` when read now", body = Vec<DayItem>),
        (status = 403, description = "A colleague's agenda, or asOf for a role other than ADMIN", body = ErrorBody),
        (status = 404, description = "Unknown unit, or one the user does not work in", body = ErrorBody),
        (status = 422, description = "Validation", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn day(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let company_id =
        params.id("idCompany")?.ok_or_else(|| ApiError::field("idCompany", "Escolha a barbearia"))?;
    let date = agenda_date(params.text("date"))?;
    let status = params.id("status")?.unwrap_or(0);
    if !(0..=2).contains(&status) {
        return Err(ApiError::field(
            "status",
            "Status inválido: use 0 (todos), 1 (confirmados) ou 2 (cancelados)",
        ));
    }
    let mut professional_id = params.id("idProfessional")?;
    if !auth.role.may_choose_any_professional() {
        match professional_id {
            Some(id) if id != auth.professional_id => return Err(ApiError::Forbidden),
            _ => professional_id = Some(auth.professional_id),
        }
    }
    let as_of = params
        .text("asOf")
        .map(|text| crate::club::parse_as_of(text).ok_or_else(|| ApiError::field("asOf", MSG_BAD_AS_OF)))
        .transpose()?;
    if as_of.is_some() && auth.role != Role::Admin {
        return Err(ApiError::Forbidden);
    }
    let consistency = read_after.wait(&state.watch, &read_models::AGENDA).await?;
    let filter = DayFilter { professional_id, client_id: params.id("idUser")?, status };
    let Some(at) = as_of else {
        return day_list_now(&state, &auth, read_after, consistency, company_id, date, filter).await;
    };
    let mut tx = scope::of(&state.pool, &auth).await?;
    agenda_unit(&mut tx, &auth, company_id).await?;
    let rows = day_as_of(&mut tx, company_id, date, at, &filter).await?;
    let clients: Vec<i64> = rows.iter().map(|row| row.client_id).collect();
    let subscriptions = crate::club::subscriptions_of(&mut tx, &clients, &[company_id]).await?;
    let items: Vec<DayItem> = rows
        .into_iter()
        .map(|row| {
            let theirs = subscriptions.get(&row.client_id).cloned().unwrap_or_default();
            day_item(row, theirs)
        })
        .collect();
    Ok((consistency.headers(), Json(items)).into_response())
}

/// The read models the day list reads: its kept answers go stale with their notices.
pub const DAY_LIST_MODELS: &[&ReadModel] = &[&read_models::AGENDA, &read_models::CLUB];

/// What a kept day list answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DayListKey {
    business_id: i64,
    company_id: i64,
    date: NaiveDate,
    professional_id: Option<i64>,
    client_id: Option<i64>,
    status: i64,
}

/// `X-Navalha-Answer: kept` when the day list was served as kept, `read` when read now.
pub const ANSWER_HEADER: &str = "x-navalha-answer";

/// Today's day list: the answer kept for these filters when it may be served
/// (`crate::kept`), else read and kept. A kept answer needs no database: the unit was found
/// when it was read, and the principal's units are checked here.
async fn day_list_now(
    state: &AppState,
    auth: &Auth,
    read_after: ReadAfter,
    consistency: Consistency,
    company_id: i64,
    date: NaiveDate,
    filter: DayFilter,
) -> Result<Response, ApiError> {
    if !auth.belongs_to(company_id) {
        return Err(ApiError::NotFound(MSG_COMPANY_NOT_FOUND.to_owned()));
    }
    let key = DayListKey {
        business_id: auth.business_id,
        company_id,
        date,
        professional_id: filter.professional_id,
        client_id: filter.client_id,
        status: filter.status,
    };
    if let Some(kept) = state.day_lists.get(&key, read_after.0) {
        return Ok(json_answer(consistency, kept.body, "kept"));
    }
    let stamp = state.day_lists.stamp(auth.business_id);
    let mut tx = scope::of(&state.pool, auth).await?;
    agenda_unit(&mut tx, auth, company_id).await?;
    // Read before the rows, so that they are at least as new as the checkpoint kept.
    let checkpoint = oldest_checkpoint(&mut tx, &[&read_models::AGENDA]).await?;
    let items: Vec<DayItem> = day_now(&mut tx, company_id, date, &filter)
        .await?
        .into_iter()
        .map(|row| day_item(row.appointment, row.subscriptions.0))
        .collect();
    let body = json_body(&items)?;
    if let Some(stamp) = stamp {
        state.day_lists.put(key, stamp, checkpoint, body.clone(), kept::MAX_AGE);
    }
    Ok(json_answer(consistency, body, "read"))
}

/// An answer serialized once, to be kept and sent.
fn json_body(value: &impl Serialize) -> Result<Bytes, ApiError> {
    Ok(Bytes::from(serde_json::to_vec(value).map_err(|error| ApiError::Internal(error.into()))?))
}

/// A JSON answer already serialized, saying whether it was `kept` or `read` now.
fn json_answer(consistency: Consistency, body: Bytes, how: &'static str) -> Response {
    let mut headers = consistency.headers();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(ANSWER_HEADER, HeaderValue::from_static(how));
    (headers, body).into_response()
}

/// The filters of the day list.
struct DayFilter {
    professional_id: Option<i64>,
    client_id: Option<i64>,
    /// 0 all, 1 booked, 2 cancelled.
    status: i64,
}

impl DayFilter {
    fn keeps(&self, professional_id: i64, client_id: i64, booked: bool) -> bool {
        self.professional_id.is_none_or(|id| id == professional_id)
            && self.client_id.is_none_or(|id| id == client_id)
            && (self.status == 0 || booked == (self.status == 1))
    }
}

/// The day's appointments now, from the agenda's read model, with their clients'
/// subscriptions: one statement.
async fn day_now(
    conn: &mut PgConnection,
    company_id: i64,
    date: NaiveDate,
    filter: &DayFilter,
) -> Result<Vec<DayRow>, ApiError> {
    Ok(sqlx::query_as(&format!(
        "select {APPOINTMENT_COLUMNS}, {} as subscriptions
           from rm_agenda.appointment a
          where a.company_id = $1 and a.date = $2
            and ($3::bigint is null or a.professional_id = $3)
            and ($4::bigint is null or a.client_id = $4)
            and ($5 = 0 or a.status = ($5 = 1))
          order by a.start_time, a.professional_name, a.appointment_id",
        crate::club::SUBSCRIPTIONS_OF_CLIENT
    ))
    .bind(company_id)
    .bind(date)
    .bind(filter.professional_id)
    .bind(filter.client_id)
    .bind(filter.status)
    .fetch_all(conn)
    .await?)
}

/// The day's appointments as they stood at `at`: each appointment that has ever been on this
/// unit's day (`appointment_place`) is replayed from its events recorded up to `at`, and kept
/// when it was on the day then. The appointments' fields are as of `at`; the client's and
/// the professional's names and colour are today's.
async fn day_as_of(
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
    let on_the_day: Vec<(i64, Booking, bool, bool)> = replayed
        .into_iter()
        .filter_map(|(id, appointment)| {
            let booking = appointment.booking()?.clone();
            let booked = appointment.standing() == Standing::Active;
            (booking.company_id == company_id
                && booking.date == date
                && filter.keeps(booking.professional_id, booking.client_id, booked))
            .then_some((id, booking, booked, appointment.confirmed()))
        })
        .collect();
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
        .map(|(id, booking, booked, confirmed)| {
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
                services: sqlx::types::Json(booking.services),
                observation: booking.observation,
                status: booked,
                confirmation: confirmed,
                professional_color,
                professional_name,
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

/// The appointment, when the principal may see it: 404 for another unit's, 403 for a
/// colleague's when the role may not act for others.
async fn visible(
    conn: &mut PgConnection,
    principal: &Principal,
    id: i64,
) -> Result<AppointmentRow, ApiError> {
    let row: Option<AppointmentRow> = sqlx::query_as(&format!(
        "select {APPOINTMENT_COLUMNS} from rm_agenda.appointment a where a.appointment_id = $1"
    ))
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let not_found = || ApiError::NotFound(MSG_NOT_FOUND.to_owned());
    let row = row.ok_or_else(not_found)?;
    agenda_unit(conn, principal, row.company_id).await.map_err(|_| not_found())?;
    if !principal.may_act_for(row.professional_id) {
        return Err(ApiError::Forbidden);
    }
    Ok(row)
}

/// `GET scheduling/{id}`: the appointment as the edit form reads it (spec 01 §3
/// 'Appointment (scheduling), read for editing'), plus what the card shows.
#[utoipa::path(
    get,
    path = "/scheduling/{idScheduling}",
    tag = "Agenda",
    summary = "An appointment for the edit form",
    params(
        ("idScheduling" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "IdScheduling, IdCompanyProfessional, CompanyProfessional{Professional{IdProfessional}, Company{IdCompany}}, Date, StartTime, EndTime, SchedulingServices[{IdService}], IdUser, Observation, Status, Confirmation", body = Object),
        (status = 403, description = "A colleague's appointment", body = ErrorBody),
        (status = 404, description = "Unknown, or another unit's", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::AGENDA).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let row = visible(&mut tx, &auth, id).await?;
    let (company_id, services) = (row.company_id, row.services.0.clone());
    // The edit form shows no subscription.
    let item = day_item(row, Vec::new());
    let body = json!({
        "IdScheduling": item.id_scheduling,
        "IdCompanyProfessional": item.id_company_professional,
        "CompanyProfessional": {
            "IdCompanyProfessional": item.id_company_professional,
            "Professional": {
                "IdProfessional": item.id_professional,
                "Name": item.professional_name,
                "Color": item.professional_color,
            },
            "Company": { "IdCompany": company_id },
        },
        "Date": item.date,
        "StartTime": item.start_time,
        "EndTime": item.end_time,
        "SchedulingServices": services.iter().map(|s| json!({
            "IdService": s.service_id,
            "Description": s.description,
            "Time": s.minutes,
            "Value": s.cents as f64 / 100.0,
        })).collect::<Vec<_>>(),
        "IdUser": item.id_user,
        "UserName": item.user_name,
        "UserPhone": item.user_phone,
        "UserWhatsApp": item.user_whatsapp,
        "Observation": item.observation,
        "Status": item.status,
        "Confirmation": item.confirmation,
        "TimesType": item.times_type,
    });
    Ok((consistency.headers(), Json(body)))
}

/// `GET scheduling/{id}/history`: every event of the appointment, in order, with who did
/// it and which fields changed from what to what. ADMIN only (403 for everyone else).
#[utoipa::path(
    get,
    path = "/scheduling/{idScheduling}/history",
    tag = "Agenda",
    summary = "Every event of the appointment with who, when and which fields changed (ADMIN)",
    params(
        ("idScheduling" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "In order", body = Vec<HistoryEntry>),
        (status = 403, description = "Not ADMIN", body = ErrorBody),
        (status = 404, description = "Unknown appointment", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn audit(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    // The unit comes from the agenda's model: wait for the caller's last write to reach it.
    read_after.wait(&state.watch, &read_models::AGENDA).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    visible(&mut tx, &auth, id).await?;
    history(&mut tx, "Appointment", id, MSG_NOT_FOUND).await
}

/// A professional offered by `available-times`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FreeProfessional {
    /// The professional.
    pub id_professional: i64,
    /// Their membership in the unit (what a booking sends).
    pub id_company_professional: i64,
    /// Name.
    pub name: String,
    /// Agenda colour.
    pub color: String,
}

/// A free time of one professional.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FreeHour {
    /// `HH:MM`.
    pub start: &'static str,
    /// `HH:MM`: the start plus that professional's times for the services.
    pub end: &'static str,
    /// Whose.
    pub id_professional: i64,
}

/// The free times of one day.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FreeDay {
    /// `YYYY-MM-DD`.
    pub short_date: NaiveDate,
    /// By start, then by professional.
    pub free_hours: Vec<FreeHour>,
}

/// The `available-times` answer.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct FreeTimes {
    /// Who can perform every chosen service.
    pub professionals: Vec<FreeProfessional>,
    /// Days with at least one free time.
    pub times: Vec<FreeDay>,
}

/// `GET no-auth/scheduling/available-times?idCompany&idServices&timesType[&idProfessionals]
/// [&idSchedulingEdit]`: free start times on the 15-minute grid for the next 30 days. Public
/// (the mobile flow), but a signed-in professional who may not choose others gets only
/// their own (spec 01 §5).
#[utoipa::path(
    get,
    path = "/no-auth/scheduling/available-times",
    tag = "Agenda",
    summary = "Free start times on a 15-minute grid for the next 30 days (public; a signed-in BARBER1, BARBER2 or DEFAULT gets their own only)",
    params(
        ("idCompany" = i64, Query),
        ("idServices" = String, Query, description = "[1,2], or repeated idServices=1&idServices=2"),
        ("timesType" = Option<String>, Query, description = "Absent means ONLY_AVAILABLES"),
        ("idProfessionals" = Option<String>, Query, description = "[ids] or repeated"),
        ("idSchedulingEdit" = Option<i64>, Query, description = "Signed in: the appointment being edited, whose own time counts as free (ignored without a token: it would reveal another booking's time)"),
        ("X-Booking-Token" = Option<String>, Header, description = "Anonymous: a booking link's token; that booking's own time counts as free (online reschedule)"),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "{professionals[{idProfessional, idCompanyProfessional, name, color}], times[{shortDate, freeHours[{start, end, idProfessional}]}]}. X-Navalha-Answer says `kept` when it was served as kept between reads (ADR 0018), `read` when read now", body = FreeTimes),
        (status = 401, description = "A token that is present but bad", body = ErrorBody),
        (status = 404, description = "Unknown or inactive unit, or a bad booking link", body = ErrorBody),
        (status = 422, description = "No service, or a bad timesType", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
async fn available_times(
    State(state): State<AppState>,
    auth: MaybeAuth,
    read_after: ReadAfter,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let company_id =
        params.id("idCompany")?.ok_or_else(|| ApiError::field("idCompany", "Escolha a barbearia"))?;
    let service_ids = params.ids("idServices")?;
    if service_ids.is_empty() {
        return Err(ApiError::field("idServices", "Escolha pelo menos um serviço"));
    }
    let times_type = TimesType::parse(params.text("timesType")).ok_or_else(|| {
        ApiError::field("timesType", "Tipo de horário inválido: use ONLY_AVAILABLES ou ALL_TIMES")
    })?;
    let mut chosen = params.ids("idProfessionals")?;
    if let Some(principal) = auth.0.as_ref().filter(|p| !p.role.may_choose_any_professional()) {
        if !chosen.is_empty() && !chosen.contains(&principal.professional_id) {
            return Ok(Json(FreeTimes { professionals: Vec::new(), times: Vec::new() }).into_response());
        }
        chosen = vec![principal.professional_id];
    }
    let company_not_found = || ApiError::NotFound(MSG_COMPANY_NOT_FOUND.to_owned());
    let link = headers.get(BOOKING_TOKEN_HEADER).map(|token| token.to_str().unwrap_or_default());
    let editing = match (&auth.0, link) {
        (Some(_), _) => params.id("idSchedulingEdit")?,
        (None, Some(token)) => {
            let (claims, id) = state.verifier.booking_link(token).await?;
            if claims.unit != company_id {
                return Err(company_not_found());
            }
            Some(id)
        }
        (None, None) => None,
    };
    let consistency = read_after.wait_all(&state.watch, FREE_TIME_MODELS).await?;
    // Kept between reads (ADR 0018), but for an appointment being moved: its own time.
    let key = editing.is_none().then(|| FreeTimesKey {
        company_id,
        service_ids: service_ids.clone(),
        times_type: times_type.code(),
        chosen: chosen.clone(),
    });
    if let Some(kept) = key.as_ref().and_then(|key| state.free_times.get(key, read_after.0)) {
        // A unit of another business is not found for a signed-in caller, kept or not.
        if auth.0.as_ref().is_none_or(|principal| principal.business_id == kept.business_id) {
            return Ok(json_answer(consistency, kept.body, "kept"));
        }
    }
    // Signed in: the professional's business. Anonymous (the mobile flow): the unit's.
    let (mut tx, business_id) = match &auth.0 {
        Some(principal) => (scope::of(&state.pool, principal).await?, principal.business_id),
        None => scope::of_unit_and_business(&state.pool, company_id).await?.ok_or_else(company_not_found)?,
    };
    let stamp = key.as_ref().and_then(|_| state.free_times.stamp(business_id));
    // Read before the rows, so that they are at least as new as the checkpoint kept.
    let checkpoint = oldest_checkpoint(&mut tx, FREE_TIME_MODELS).await?;
    let unit = unit(&mut tx, company_id).await?.filter(|unit| unit.active).ok_or_else(company_not_found)?;
    let answer = free_times(&mut tx, company_id, &unit, &service_ids, &chosen, times_type, editing).await?;
    let body = json_body(&answer)?;
    if let (Some(key), Some(stamp)) = (key, stamp) {
        // Today's first free time moves with the unit's clock: kept until its next minute.
        let to_next_minute = Duration::seconds(60 - i64::from(unit.now.second()));
        state.free_times.put(
            key,
            stamp,
            checkpoint,
            body.clone(),
            to_next_minute.to_std().unwrap_or_default(),
        );
    }
    Ok(json_answer(consistency, body, "read"))
}

/// What a kept free-times answer answers; the business comes with the unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FreeTimesKey {
    company_id: i64,
    service_ids: Vec<i64>,
    times_type: &'static str,
    /// The professionals asked for, or forced for the roles that see only their own.
    chosen: Vec<i64>,
}

/// The oldest checkpoint of `models`, read in a read's own transaction before its rows, in
/// one statement: what an answer read from them all is at least as new as.
async fn oldest_checkpoint(conn: &mut PgConnection, models: &[&ReadModel]) -> Result<Position, ApiError> {
    let each: Vec<String> = models
        .iter()
        .map(|model| format!("select last_tx_id, last_position from rm_{}.checkpoint", model.name))
        .collect();
    let (tx_id, global_position): (i64, i64) = sqlx::query_as(&format!(
        "select last_tx_id::text::bigint, last_position from ({}) c
          order by last_tx_id, last_position limit 1",
        each.join(" union all ")
    ))
    .fetch_one(conn)
    .await?;
    Ok(Position { tx_id, global_position })
}

async fn free_times(
    conn: &mut PgConnection,
    company_id: i64,
    unit: &Unit,
    service_ids: &[i64],
    chosen: &[i64],
    times_type: TimesType,
    editing: Option<i64>,
) -> Result<FreeTimes, ApiError> {
    // Active professionals of the unit offering every chosen service, with the total time.
    let rows: Vec<(i64, i64, String, String, i64)> = sqlx::query_as(
        "select p.professional_id, m.membership_id, p.name, p.color, sum(o.minutes)::bigint
           from rm_professional.membership m
           join rm_professional.professional p on p.professional_id = m.professional_id
           join rm_professional.offered_service o on o.professional_id = p.professional_id
           join rm_professional.catalogue_service s on s.service_id = o.service_id
          where m.company_id = $1 and p.status = $2 and o.active and s.active
            and o.service_id = any($3)
            and (cardinality($4::bigint[]) = 0 or p.professional_id = any($4))
          group by p.professional_id, m.membership_id, p.name, p.color
         having count(distinct o.service_id) = cardinality($3)
          order by p.name, p.professional_id",
    )
    .bind(company_id)
    .bind(professional_status::ACTIVE)
    .bind(service_ids)
    .bind(chosen)
    .fetch_all(&mut *conn)
    .await?;
    let professionals: Vec<FreeProfessional> = rows
        .iter()
        .map(|(id, membership, name, color, _)| FreeProfessional {
            id_professional: *id,
            id_company_professional: *membership,
            name: name.clone(),
            color: color.clone(),
        })
        .collect();
    let durations: Vec<(i64, u16)> =
        rows.iter().map(|row| (row.0, u16::try_from(row.4).unwrap_or(u16::MAX))).collect();
    let ids: Vec<i64> = durations.iter().map(|(id, _)| *id).collect();
    if ids.is_empty() {
        return Ok(FreeTimes { professionals, times: Vec::new() });
    }

    let today = unit.now.date();
    let last = today + Duration::days(FREE_TIME_DAYS - 1);
    let free = match times_type {
        TimesType::OnlyAvailables => {
            let mut free =
                FreeSource::only_available(&mut *conn, company_id, &ids, today, last, editing).await?;
            free.blocked =
                blocked_ranges(&mut *conn, unit.business_id, &ids, company_id, today, last).await?;
            free
        }
        TimesType::AllTimes => {
            FreeSource::all_times(&mut *conn, company_id, &ids, today, last, editing).await?
        }
    };
    let mut times = Vec::new();
    for offset in 0..FREE_TIME_DAYS {
        let date = today + Duration::days(offset);
        let not_before = if date == today { first_bookable_minute(unit.now.time()) } else { 0 };
        let mut free_hours = Vec::new();
        for (id, duration) in &durations {
            free_hours.extend(fit(&free.on(*id, date), *duration, not_before).into_iter().map(|slot| {
                FreeHour {
                    start: format_minutes(slot.start),
                    end: format_minutes(slot.end),
                    id_professional: *id,
                }
            }));
        }
        if !free_hours.is_empty() {
            // Stable: professionals keep their order within one start time.
            free_hours.sort_by_key(|hour| hour.start);
            times.push(FreeDay { short_date: date, free_hours });
        }
    }
    Ok(FreeTimes { professionals, times })
}

/// Where free times come from, read from the `free_time` model (ADR 0015): each
/// professional-day's free pieces, less what is cut at read time.
#[derive(Default)]
struct FreeSource {
    /// By `(professional, weekday from Sunday = 0)`: a date with no entry in `days`.
    weekly: HashMap<(i64, i16), Vec<Span>>,
    /// By `(professional, date)`.
    days: HashMap<(i64, NaiveDate), Vec<Span>>,
    /// Cut from those pieces: days off and holidays (`ONLY_AVAILABLES`).
    blocked: Vec<BlockedRange>,
    /// Cut from those pieces: bookings (`ALL_TIMES`).
    busy: HashMap<(i64, NaiveDate), Vec<Span>>,
}

impl FreeSource {
    /// The free pieces of `professional_id` on `date`.
    fn on(&self, professional_id: i64, date: NaiveDate) -> Vec<Span> {
        let week_day = date.weekday().num_days_from_sunday() as i16;
        let pieces = self
            .days
            .get(&(professional_id, date))
            .or_else(|| self.weekly.get(&(professional_id, week_day)))
            .map_or(&[][..], Vec::as_slice);
        let mut cuts: Vec<Span> =
            self.blocked.iter().filter_map(|range| range.on(date, professional_id)).collect();
        cuts.extend(self.busy.get(&(professional_id, date)).into_iter().flatten());
        if cuts.is_empty() {
            pieces.to_vec()
        } else {
            subtract(pieces, &cuts)
        }
    }

    /// `ONLY_AVAILABLES`: working periods inside the opening hours less bookings, as the
    /// model keeps them, one statement. The appointment being edited frees its own time: its
    /// day is computed again from the template and the day's other bookings.
    async fn only_available(
        conn: &mut PgConnection,
        company_id: i64,
        ids: &[i64],
        from: NaiveDate,
        to: NaiveDate,
        editing: Option<i64>,
    ) -> Result<FreeSource, ApiError> {
        // A template row has its weekday, a booked day's row its date.
        type Row = (i64, Option<i16>, Option<NaiveDate>, Vec<i32>);
        let rows: Vec<Row> = sqlx::query_as(
            "select professional_id, week_day, null::date, bounds from rm_free_time.template
              where company_id = $1 and professional_id = any($2)
             union all
             select professional_id, null, date, bounds from rm_free_time.day
              where company_id = $1 and professional_id = any($2) and date between $3 and $4",
        )
        .bind(company_id)
        .bind(ids)
        .bind(from)
        .bind(to)
        .fetch_all(&mut *conn)
        .await?;
        let mut free = FreeSource::default();
        for (id, week_day, date, bounds) in rows {
            match (week_day, date) {
                (Some(week_day), _) => free.weekly.insert((id, week_day), spans_of_bounds(&bounds)),
                (None, Some(date)) => free.days.insert((id, date), spans_of_bounds(&bounds)),
                (None, None) => None,
            };
        }
        let Some(editing) = editing else { return Ok(free) };
        let others: Vec<(i64, NaiveDate, Option<i32>, Option<i32>)> = sqlx::query_as(
            "select e.professional_id, e.date, lower(o.during), upper(o.during)
               from rm_free_time.booked e
               left join rm_free_time.booked o
                 on o.professional_id = e.professional_id and o.date = e.date and o.appointment_id <> e.appointment_id
              where e.appointment_id = $1",
        )
        .bind(editing)
        .fetch_all(&mut *conn)
        .await?;
        if let Some((id, date, ..)) = others.first().copied() {
            let week_day = date.weekday().num_days_from_sunday() as i16;
            let busy: Vec<Span> = others
                .iter()
                .filter_map(|(.., start, end)| Some(Span { start: minute(*start)?, end: minute(*end)? }))
                .collect();
            let template = free.weekly.get(&(id, week_day)).cloned().unwrap_or_default();
            free.days.insert((id, date), subtract(&template, &busy));
        }
        Ok(free)
    }

    /// `ALL_TIMES`: the unit's opening hours less bookings (except the one being edited).
    async fn all_times(
        conn: &mut PgConnection,
        company_id: i64,
        ids: &[i64],
        from: NaiveDate,
        to: NaiveDate,
        editing: Option<i64>,
    ) -> Result<FreeSource, ApiError> {
        let opening: HashMap<i16, Span> = sqlx::query_as::<_, (i16, i32, i32)>(
            "select week_day, lower(hours), upper(hours) from rm_free_time.opening where company_id = $1",
        )
        .bind(company_id)
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .filter_map(|(day, start, end)| {
            Some((day, Span { start: minute(Some(start))?, end: minute(Some(end))? }))
        })
        .collect();
        let booked: Vec<(i64, NaiveDate, i32, i32)> = sqlx::query_as(
            "select professional_id, date, lower(during), upper(during) from rm_free_time.booked
              where professional_id = any($1) and date between $2 and $3
                and ($4::bigint is null or appointment_id <> $4)",
        )
        .bind(ids)
        .bind(from)
        .bind(to)
        .bind(editing)
        .fetch_all(&mut *conn)
        .await?;
        let mut free = FreeSource::default();
        for (id, date, start, end) in booked {
            if let (Some(start), Some(end)) = (minute(Some(start)), minute(Some(end))) {
                free.busy.entry((id, date)).or_default().push(Span { start, end });
            }
        }
        for id in ids {
            for (week_day, hours) in &opening {
                free.weekly.insert((*id, *week_day), vec![*hours]);
            }
        }
        Ok(free)
    }
}

/// A minute of the day from the model's integer bounds.
fn minute(value: Option<i32>) -> Option<u16> {
    value.and_then(|m| u16::try_from(m).ok()).filter(|m| *m <= DAY_MINUTES)
}

/// Each professional's name and agenda colour, by id (the agenda model's copies).
pub(crate) async fn professional_names(
    conn: &mut PgConnection,
    ids: &[i64],
) -> Result<HashMap<i64, (String, String)>, ApiError> {
    let rows: Vec<(i64, String, String)> = sqlx::query_as(
        "select professional_id, name, color from rm_agenda.professional where professional_id = any($1)",
    )
    .bind(ids)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|(id, name, color)| (id, (name, color))).collect())
}

/// Each professional's weekly working periods, by `(professional, weekday from Sunday = 0)`.
pub(crate) async fn working_weeks(
    conn: &mut PgConnection,
    ids: &[i64],
) -> Result<HashMap<(i64, i16), Vec<Span>>, ApiError> {
    let days: Vec<(i64, i16, Value)> = sqlx::query_as(
        "select professional_id, week_day, periods from rm_professional.working_day where professional_id = any($1)",
    )
    .bind(ids)
    .fetch_all(conn)
    .await?;
    Ok(days
        .into_iter()
        .map(|(id, week_day, periods)| {
            let periods: Vec<Period> = serde_json::from_value(periods).unwrap_or_default();
            ((id, week_day), periods.into_iter().map(Span::from).collect())
        })
        .collect())
}

/// The span of a `HH:MM[:SS]` start and end.
pub(crate) fn span_of(start: &str, end: &str) -> Option<Span> {
    let minutes = |text: &str| navalha_domain::validation::TimeOfDay::parse(text).ok().map(|t| t.minutes());
    Some(Span { start: minutes(start)?, end: minutes(end)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_a_date_or_a_date_time_read_at_utc_minus_3() {
        let day = |text: &str| agenda_date(Some(text)).ok();
        let date = |d: u32| NaiveDate::from_ymd_opt(2026, 11, d);
        assert_eq!(day("2026-11-23"), date(23));
        assert_eq!(day("2026-11-23T03:00:00.000Z"), date(23), "local midnight as UTC");
        assert_eq!(day("2026-11-24T01:30:00Z"), date(23), "22:30 in Brazil");
        assert_eq!(day("2026-11-23T10:00:00-03:00"), date(23));
        assert!(agenda_date(Some("23/11/2026")).is_err());
        assert!(agenda_date(None).is_err());
    }
}
