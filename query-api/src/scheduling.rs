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
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use chrono::{NaiveDate, NaiveDateTime};
use navalha_domain::appointment::BookedService;
use navalha_domain::availability::{Span, DAY_MINUTES};
use navalha_domain::series::SeriesLink;
use navalha_domain::validation::Period;
use navalha_platform::auth::Principal;
use navalha_platform::clock;
use navalha_platform::position::Position;
use navalha_platform::ApiError;
use navalha_read_models::{self as read_models, ReadModel};
use serde::Serialize;
use serde_json::Value;
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::Consistency;
use crate::AppState;

mod day;
mod free_times;
mod one;
mod past;
mod working;

pub use day::{DayListKey, DAY_LIST_MODELS};
pub use free_times::FreeTimesKey;

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
        .routes(routes!(day::day))
        .routes(routes!(one::one))
        .routes(routes!(one::audit))
        .routes(routes!(free_times::available_times))
        .routes(routes!(working::working_times))
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
    /// ARRIVED ('Cliente chegou'), ATTENDED ('Atendido': its comanda closed) or NO_SHOW
    /// ('Não compareceu'); null otherwise (issue 41).
    pub attendance: Option<String>,
    /// Its comanda, when one is open or closed.
    pub id_comanda: Option<i64>,
    /// Minutes the professional stays busy after `EndTime`: the services' 'Intervalo após'
    /// (issue 45); the grid shades them and no booking may start in them.
    pub interval_after: i64,
    /// The regulars' series it belongs to (issue 45), null when none.
    pub series: Option<SeriesAnswer>,
    /// Its latest WhatsApp reminder for its current start (issue 44): SENDING (decided, no
    /// answer yet), SENT, DELIVERED, READ, FAILED (refused or undelivered: call the client)
    /// or SKIPPED (its time passed unsent); null when none was due.
    pub reminder: Option<String>,
}

/// An appointment's place in its regulars' series: 'Série 2 de 4'.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SeriesAnswer {
    /// The series: the id of its first appointment.
    pub id_series: i64,
    /// This occurrence's place, from 1.
    pub index: u16,
    /// How many occurrences it was booked with.
    pub count: u16,
    /// Weeks between occurrences.
    pub every_weeks: u8,
}

impl From<SeriesLink> for SeriesAnswer {
    fn from(link: SeriesLink) -> Self {
        SeriesAnswer {
            id_series: link.id,
            index: link.index,
            count: link.count,
            every_weeks: link.every_weeks,
        }
    }
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
    /// `Attendance::code`: ARRIVED, NO_SHOW or empty.
    attendance: String,
    /// The regulars' series it belongs to.
    series: sqlx::types::Json<Option<SeriesLink>>,
    /// Its comanda not cancelled, and that comanda's status.
    comanda_id: Option<i64>,
    comanda_status: Option<String>,
    /// [`DayItem::reminder`].
    reminder: Option<String>,
}

/// The columns of `AppointmentRow`: one table, which carries copies of what the card shows
/// of the client and the professional (issue 15), so no join.
pub const APPOINTMENT_COLUMNS: &str = "a.appointment_id, a.company_id, a.professional_id, a.membership_id,
        a.client_id, a.client_name as user_name, a.client_phone as user_phone, a.client_whatsapp as user_whatsapp,
        a.date, a.start_time::text as start_time, a.end_time::text as end_time, a.services, a.observation,
        a.status, a.confirmation, a.times_type, a.professional_color, a.professional_name, a.online,
        a.attendance, a.series, k.comanda_id, k.status as comanda_status,
        (select case when m.outcome = 'REFUSED' or m.delivery = 'FAILED' then 'FAILED'
                     when m.outcome = 'SKIPPED' then 'SKIPPED'
                     when m.delivery is not null then m.delivery
                     when m.outcome = 'ACCEPTED' then 'SENT'
                     else 'SENDING' end
           from rm_message.message m
          where m.appointment_id = a.appointment_id and m.kind in ('r24', 'r2')
            and m.message_key like 'a' || a.appointment_id || '-%-' || to_char(a.date + a.start_time, 'YYYYMMDDHH24MI')
          order by m.requested_at desc limit 1) as reminder";

/// Joins each appointment `a` to its comanda not cancelled, if any (`rm_comanda`, by its
/// `comanda_appointment` index): what `APPOINTMENT_COLUMNS` reads as `k`.
pub const WITH_COMANDA: &str = "left join lateral (
        select c.comanda_id, c.status from rm_comanda.comanda c
         where c.appointment_id = a.appointment_id and c.status <> 'CANCELED'
         order by c.comanda_id desc limit 1) k on true";

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
        interval_after: row.services.0.iter().map(|s| s.interval_after).sum(),
        services: row.services.0.into_iter().map(|s| s.description).collect(),
        observation: row.observation,
        status: row.status,
        confirmation: row.confirmation,
        times_type: row.times_type,
        professional_color: row.professional_color,
        professional_name: row.professional_name,
        subscription_user: subscriptions,
        online: row.online,
        attendance: attendance(row.comanda_status.as_deref(), &row.attendance),
        id_comanda: row.comanda_id,
        series: row.series.0.map(SeriesAnswer::from),
        reminder: row.reminder,
    }
}

/// An appointment's `Attendance` on the wire: ATTENDED when its comanda closed, else what
/// the desk recorded (ARRIVED, NO_SHOW), else none.
pub(crate) fn attendance(comanda_status: Option<&str>, recorded: &str) -> Option<String> {
    match (comanda_status, recorded) {
        (Some("CLOSED"), _) => Some("ATTENDED".to_owned()),
        (_, "") => None,
        (_, code) => Some(code.to_owned()),
    }
}

/// `X-Navalha-Answer: kept` when the day list was served as kept, `read` when read now.
pub const ANSWER_HEADER: &str = "x-navalha-answer";

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

/// The appointment, when the principal may see it: 404 for another unit's, 403 for a
/// colleague's when the role may not act for others.
async fn visible(
    conn: &mut PgConnection,
    principal: &Principal,
    id: i64,
) -> Result<AppointmentRow, ApiError> {
    let row: Option<AppointmentRow> = sqlx::query_as(&format!(
        "select {APPOINTMENT_COLUMNS} from rm_agenda.appointment a {WITH_COMANDA} where a.appointment_id = $1"
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
