//! `GET scheduling/professional`: a unit's day list, kept between reads (ADR 0018), or
//! as it stood at a past instant ([`super::past`]).

use axum::extract::{RawQuery, State};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use navalha_domain::role::Role;
use navalha_platform::auth::Auth;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::Json;
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models::{self as read_models, ReadModel};
use sqlx::PgConnection;

use super::past::day_as_of;
use super::{
    agenda_date, agenda_unit, day_item, json_answer, json_body, oldest_checkpoint, DayFilter, DayItem,
    DayRow, APPOINTMENT_COLUMNS, MSG_COMPANY_NOT_FOUND, WITH_COMANDA,
};
use crate::as_of::optional_as_of;
use crate::consistency::{Consistency, ReadAfter};
use crate::kept::{self, MayServeKept};
use crate::params::Params;
use crate::scope;
use crate::AppState;

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
        MayServeKept,
    ),
    responses(
        (status = 200, description = "The day list. X-Navalha-Answer says `kept` when it was served as kept between reads (ADR 0018), `read` when read now", body = Vec<DayItem>),
        (status = 403, description = "A colleague's agenda, or asOf for a role other than ADMIN", body = ErrorBody),
        (status = 404, description = "Unknown unit, or one the user does not work in", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
pub(super) async fn day(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    may_serve_kept: MayServeKept,
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
    let as_of = optional_as_of(params.text("asOf"))?;
    if as_of.is_some() && auth.role != Role::Admin {
        return Err(ApiError::Forbidden);
    }
    let consistency = read_after.wait_all(&state.watch, DAY_LIST_READS).await?;
    let filter = DayFilter { professional_id, client_id: params.id("idUser")?, status };
    let Some(at) = as_of else {
        let read = (read_after, may_serve_kept, consistency);
        return day_list_now(&state, &auth, read, company_id, date, filter).await;
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
pub const DAY_LIST_MODELS: &[&ReadModel] =
    &[&read_models::AGENDA, &read_models::CLUB, &read_models::COMANDA, &read_models::MESSAGE];

/// Those a write at the desk changes and the desk reads back at once (a booking, a comanda
/// closed): the day list waits for them to reach the position asked.
const DAY_LIST_READS: &[&ReadModel] = &[&read_models::AGENDA, &read_models::COMANDA];

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

/// Today's day list: the answer kept for these filters when it may be served
/// (`crate::kept`), else read and kept. A kept answer needs no database: the unit was found
/// when it was read, and the principal's units are checked here.
pub(super) async fn day_list_now(
    state: &AppState,
    auth: &Auth,
    (read_after, may_serve_kept, consistency): (ReadAfter, MayServeKept, Consistency),
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
    if let Some(kept) = state.day_lists.get(&key, read_after.0).filter(|_| may_serve_kept.0) {
        return Ok(json_answer(consistency, kept.body, "kept"));
    }
    let stamp = state.day_lists.stamp(auth.business_id);
    let mut tx = scope::of(&state.pool, auth).await?;
    agenda_unit(&mut tx, auth, company_id).await?;
    // Read before the rows, so that they are at least as new as the checkpoint kept.
    let checkpoint = oldest_checkpoint(&mut tx, DAY_LIST_READS).await?;
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

/// The day's appointments now, from the agenda's read model, with their clients'
/// subscriptions: one statement.
pub(super) async fn day_now(
    conn: &mut PgConnection,
    company_id: i64,
    date: NaiveDate,
    filter: &DayFilter,
) -> Result<Vec<DayRow>, ApiError> {
    Ok(sqlx::query_as(&format!(
        "select {APPOINTMENT_COLUMNS}, {} as subscriptions
           from rm_agenda.appointment a {WITH_COMANDA}
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
