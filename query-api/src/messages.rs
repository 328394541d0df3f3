//! WhatsApp reminders to clients (issue 44), from the `message` read model: `GET message/day`,
//! a unit's day of reminders with their delivery and the clients' replies ('Mensagens'), and
//! `GET message/summary`, the same figures per day over a period (the home's confirmation
//! rate). ADMIN only. Only reminders count (kinds `r24` and `r2`): an answer to a client's
//! reply is not a reminder sent. A message belongs to its appointment's unit and to the day it was
//! sent on that unit's clock.

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::NaiveDate;
use navalha_platform::auth::{AdminOnly, Auth};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::ReadAfter;
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(message_day)).routes(routes!(message_summary))
}

/// The longest period `GET message/summary` adds up.
pub const MAX_SUMMARY_DAYS: i64 = 92;
const MSG_UNIT_NOT_FOUND: &str = "Barbearia não encontrada.";
const MSG_BAD_PERIOD: &str = "Informe um período de até 92 dias, com o início antes do fim.";

/// What a day's (or a period's) messages came to.
#[derive(Debug, Default, Clone, Serialize, ToSchema, sqlx::FromRow)]
#[serde(rename_all = "PascalCase")]
pub struct MessageTotals {
    /// Accepted by the provider.
    pub sent: i64,
    /// Reached the client's phone (read ones included).
    pub delivered: i64,
    /// Read by the client.
    pub read: i64,
    /// Refused by the provider or not delivered: the desk should call.
    pub failed: i64,
    /// Not sent: the time passed while nothing could send it.
    pub skipped: i64,
    /// 'Confirmar' pressed.
    pub confirmed: i64,
    /// 'Cancelar' pressed and the appointment is cancelled.
    pub cancelled: i64,
    /// Confirmed of sent, in percent with one decimal; null when none was sent.
    #[sqlx(skip)]
    pub confirmation_rate: Option<f64>,
}

impl MessageTotals {
    fn with_rate(mut self) -> Self {
        self.confirmation_rate =
            (self.sent > 0).then(|| (self.confirmed as f64 * 1000.0 / self.sent as f64).round() / 10.0);
        self
    }
}

/// One message of the day.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
#[serde(rename_all = "PascalCase")]
pub struct MessageItem {
    /// The message's key: its appointment, kind and start.
    key: String,
    id_scheduling: i64,
    /// r24 or r2: the reminder 24 or 2 hours before.
    kind: String,
    /// The number it went to, country code first.
    to: String,
    /// The appointment's client and professional, day and start (`HH:MM:SS`) as they stand.
    user_name: String,
    professional_name: String,
    date: NaiveDate,
    start_time: String,
    /// Whether the appointment is booked (false: cancelled).
    status: bool,
    /// `HH:MM` on the unit's clock.
    sent_at: String,
    /// REQUESTED (no answer from the provider yet), ACCEPTED, REFUSED or SKIPPED.
    outcome: String,
    /// The furthest report: SENT, DELIVERED, READ or FAILED; null before any.
    delivery: Option<String>,
    /// The provider's words for a refusal or a failure, or why it was skipped.
    error: Option<String>,
    /// CONFIRMAR or CANCELAR: the button the client pressed.
    reply: Option<String>,
    /// `HH:MM` of the reply, on the unit's clock.
    replied_at: Option<String>,
    /// Sends tried (more than 1 after a crash or a provider outage).
    attempts: i32,
}

/// `GET message/day`'s answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct MessageDay {
    totals: MessageTotals,
    /// In the order they were sent.
    messages: Vec<MessageItem>,
}

/// `?idCompany&date`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct MessageDayFilter {
    /// One of the caller's units.
    id_company: i64,
    /// The day they were sent.
    date: NaiveDate,
}

#[utoipa::path(
    get,
    path = "/message/day",
    tag = "Messages",
    summary = "A unit's WhatsApp reminders sent on a day, with their delivery and replies, and the day's totals (ADMIN)",
    params(MessageDayFilter, ReadAfter),
    responses(
        (status = 200, description = "The day", body = MessageDay),
        refused::Forbidden,
        refused::Invalid,
        (status = 404, description = "Not one of the caller's units", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn message_day(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<MessageDayFilter>,
) -> Result<(HeaderMap, Json<MessageDay>), ApiError> {
    let units = units_of(&auth, Some(filter.id_company))?;
    let consistency = read_after.wait_all(&state.watch, READS).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let messages: Vec<MessageItem> = sqlx::query_as(
        "select m.message_key as key, m.appointment_id as id_scheduling, m.kind, m.to_phone as to,
                a.client_name as user_name, a.professional_name, a.date, a.start_time::text as start_time,
                a.status, to_char(m.requested_at at time zone c.time_zone, 'HH24:MI') as sent_at,
                m.outcome, m.delivery, m.error, m.reply,
                to_char(m.replied_at at time zone c.time_zone, 'HH24:MI') as replied_at, m.attempts
           from rm_message.message m
           join rm_agenda.appointment a on a.appointment_id = m.appointment_id
           join rm_company.company c on c.company_id = a.company_id
          where a.company_id = any($1) and m.kind in ('r24', 'r2')
            and (m.requested_at at time zone c.time_zone)::date = $2
            and m.requested_at between ($2::date - 1)::timestamptz and ($2::date + 2)::timestamptz
          order by m.requested_at, m.message_key",
    )
    .bind(&units)
    .bind(filter.date)
    .fetch_all(&mut *tx)
    .await?;
    let totals = totals_by_day(&mut tx, &units, filter.date, filter.date).await?.pop().map(|(_, t)| t);
    Ok((consistency.headers(), Json(MessageDay { totals: totals.unwrap_or_default().with_rate(), messages })))
}

/// One day of a summary.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct MessageSummaryDay {
    date: NaiveDate,
    #[serde(flatten)]
    totals: MessageTotals,
}

/// `GET message/summary`'s answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct MessageSummary {
    /// The whole period.
    totals: MessageTotals,
    /// The days with any message, in order.
    days: Vec<MessageSummaryDay>,
}

/// `?idCompany&start&end`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct MessageSummaryFilter {
    /// One of the caller's units; absent: all of them.
    id_company: Option<i64>,
    /// The first day.
    start: NaiveDate,
    /// The last day (at most 92 days after the first).
    end: NaiveDate,
}

#[utoipa::path(
    get,
    path = "/message/summary",
    tag = "Messages",
    summary = "WhatsApp reminders' totals and confirmation rate per day over a period of up to 92 days (ADMIN)",
    params(MessageSummaryFilter, ReadAfter),
    responses(
        (status = 200, description = "The period", body = MessageSummary),
        refused::Forbidden,
        refused::Invalid,
        (status = 404, description = "Not one of the caller's units", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn message_summary(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<MessageSummaryFilter>,
) -> Result<(HeaderMap, Json<MessageSummary>), ApiError> {
    let days = (filter.end - filter.start).num_days();
    if !(0..MAX_SUMMARY_DAYS).contains(&days) {
        return Err(ApiError::field("end", MSG_BAD_PERIOD));
    }
    let units = units_of(&auth, filter.id_company)?;
    let consistency = read_after.wait_all(&state.watch, READS).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let by_day = totals_by_day(&mut tx, &units, filter.start, filter.end).await?;
    let whole = by_day.iter().fold(MessageTotals::default(), |sum, (_, day)| MessageTotals {
        sent: sum.sent + day.sent,
        delivered: sum.delivered + day.delivered,
        read: sum.read + day.read,
        failed: sum.failed + day.failed,
        skipped: sum.skipped + day.skipped,
        confirmed: sum.confirmed + day.confirmed,
        cancelled: sum.cancelled + day.cancelled,
        confirmation_rate: None,
    });
    Ok((
        consistency.headers(),
        Json(MessageSummary {
            totals: whole.with_rate(),
            days: by_day
                .into_iter()
                .map(|(date, totals)| MessageSummaryDay { date, totals: totals.with_rate() })
                .collect(),
        }),
    ))
}

/// The models these answers read: the messages, and their appointments for the unit.
const READS: &[&read_models::ReadModel] = &[&read_models::MESSAGE, &read_models::AGENDA];

/// `id`, when it is one of the caller's units (404 otherwise), or all of them.
fn units_of(auth: &Auth<AdminOnly>, id: Option<i64>) -> Result<Vec<i64>, ApiError> {
    match id {
        Some(id) if auth.belongs_to(id) => Ok(vec![id]),
        Some(_) => Err(ApiError::NotFound(MSG_UNIT_NOT_FOUND.to_owned())),
        None => Ok(auth.companies.clone()),
    }
}

#[derive(sqlx::FromRow)]
struct DayTotals {
    day: NaiveDate,
    #[sqlx(flatten)]
    totals: MessageTotals,
}

/// The totals of each day from `start` to `end` with any message in `units`.
async fn totals_by_day(
    conn: &mut PgConnection,
    units: &[i64],
    start: NaiveDate,
    end: NaiveDate,
) -> Result<Vec<(NaiveDate, MessageTotals)>, ApiError> {
    let rows: Vec<DayTotals> = sqlx::query_as(
        "select (m.requested_at at time zone c.time_zone)::date as day,
                count(*) filter (where m.outcome = 'ACCEPTED') as sent,
                count(*) filter (where m.delivery in ('DELIVERED', 'READ')) as delivered,
                count(*) filter (where m.delivery = 'READ') as read,
                count(*) filter (where m.outcome = 'REFUSED' or m.delivery = 'FAILED') as failed,
                count(*) filter (where m.outcome = 'SKIPPED') as skipped,
                count(*) filter (where m.reply = 'CONFIRMAR') as confirmed,
                count(*) filter (where m.reply = 'CANCELAR' and not a.status) as cancelled
           from rm_message.message m
           join rm_agenda.appointment a on a.appointment_id = m.appointment_id
           join rm_company.company c on c.company_id = a.company_id
          where a.company_id = any($1) and m.kind in ('r24', 'r2')
            and (m.requested_at at time zone c.time_zone)::date between $2 and $3
            and m.requested_at between ($2::date - 1)::timestamptz and ($3::date + 2)::timestamptz
          group by 1 order by 1",
    )
    .bind(units)
    .bind(start)
    .bind(end)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|row| (row.day, row.totals)).collect())
}
