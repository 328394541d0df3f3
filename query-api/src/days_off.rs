//! Days off: `GET day-off/{idProfessional}?page&pageSize` (spec 02 §7), and the times a
//! unit's agenda shows as blocked on a day: `GET day-off/company/{idCompany}?date`.
//!
//! An admin reads the days off of professionals in reach (a unit in common, or every unit
//! for roles that see them all); a professional reads their own. Others get 403. The
//! agenda's blocked times follow the agenda's rules: the unit must be the caller's, and
//! roles that see only their own agenda see only their own days off.

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::NaiveDate;
use navalha_domain::role::Role;
use navalha_platform::auth::{Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::ReadAfter;
use crate::paging::{Page, PageRequest};
use crate::AppState;
use crate::{scheduling, scope};

/// Answer for an unknown professional, or one outside the admin's units.
pub const MSG_PROFESSIONAL_NOT_FOUND: &str = "Profissional não encontrado.";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(blocked))
}

/// `?date=YYYY-MM-DD[&dateEnd=YYYY-MM-DD]`: one day, or the days of a week view.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DaysParam {
    /// The (first) day shown.
    pub date: NaiveDate,
    /// The last day shown; the first when absent.
    pub date_end: Option<NaiveDate>,
}

/// The longest range of days read at once: a week.
const MAX_DAYS: i64 = 7;

impl DaysParam {
    /// The last day asked for, once the range is checked (at most a week: 400 otherwise)
    /// and the unit is one of the caller's (404 otherwise, as if it did not exist).
    pub fn last_day_at(&self, principal: &Principal, company_id: i64) -> Result<NaiveDate, ApiError> {
        let last = self.date_end.unwrap_or(self.date);
        if last < self.date || (last - self.date).num_days() >= MAX_DAYS {
            return Err(ApiError::BadRequest("Informe um período de até 7 dias.".to_owned()));
        }
        if !principal.belongs_to(company_id) {
            return Err(ApiError::NotFound(scheduling::MSG_COMPANY_NOT_FOUND.to_owned()));
        }
        Ok(last)
    }
}

/// A day off of one of the unit's professionals that covers a day asked for.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct BlockedTime {
    /// IdProfessional.
    pub id_professional: i64,
    /// The day off, as the professional's list shows it.
    #[serde(flatten)]
    #[sqlx(flatten)]
    pub day_off: DayOffItem,
}

#[utoipa::path(
    get,
    path = "/day-off/company/{idCompany}",
    tag = "Days off",
    summary = "Blocked times of a unit's agenda on a day: its professionals' days off that cover the date (issue 14)",
    description = "Any staff member of the unit; roles that see only their own agenda (BARBER1, BARBER2, DEFAULT) get only their own days off. A unit the caller does not belong to is 404.",
    params(
        ("idCompany" = i64, Path),
        ("date" = chrono::NaiveDate, Query),
        ("dateEnd" = Option<chrono::NaiveDate>, Query, description = "The last day (a week view); at most 7 days from date"),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "Blocked times", body = Vec<BlockedTime>),
        (status = 404, description = "A unit the caller does not belong to", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn blocked(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(company_id): PathParam<i64>,
    QueryParams(days): QueryParams<DaysParam>,
) -> Result<(HeaderMap, Json<Vec<BlockedTime>>), ApiError> {
    let (date, last) = (days.date, days.last_day_at(&auth, company_id)?);
    let consistency = read_after.wait(&state.watch, &read_models::DAY_OFF).await?;
    let only = (!auth.role.may_choose_any_professional()).then_some(auth.professional_id);
    let mut tx = scope::of(&state.pool, &auth).await?;
    let blocked: Vec<BlockedTime> = sqlx::query_as(
        "select d.day_off_id as id_day_off, d.professional_id as id_professional, d.description,
                d.date_start, d.date_end, d.all_day,
                to_char(d.start_time, 'HH24:MI') as start_time, to_char(d.end_time, 'HH24:MI') as end_time
           from rm_day_off.day_off d
           join rm_day_off.professional p using (professional_id)
          where $1 = any(p.companies) and d.date_start <= $3 and d.date_end >= $2
            and ($4::bigint is null or d.professional_id = $4)
          order by d.professional_id, d.start_time nulls first, d.day_off_id",
    )
    .bind(company_id)
    .bind(date)
    .bind(last)
    .bind(only)
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(blocked)))
}

/// A day off in the professional's list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DayOffItem {
    /// IdDayOff.
    pub id_day_off: i64,
    /// Description.
    pub description: String,
    /// First day.
    pub date_start: NaiveDate,
    /// Last day.
    pub date_end: NaiveDate,
    /// Whole days.
    pub all_day: bool,
    /// `HH:MM`, null when all-day.
    pub start_time: Option<String>,
    /// `HH:MM`, null when all-day.
    pub end_time: Option<String>,
}

/// Whether `principal` may read the days off of `professional_id`: 403 for roles that may
/// not, 404 for a professional the admin cannot reach.
async fn authorize(
    conn: &mut PgConnection,
    principal: &Principal,
    professional_id: i64,
) -> Result<(), ApiError> {
    if principal.professional_id == professional_id {
        return Ok(());
    }
    if principal.role != Role::Admin {
        return Err(ApiError::Forbidden);
    }
    let companies: Option<Vec<i64>> =
        sqlx::query_scalar("select companies from rm_day_off.professional where professional_id = $1")
            .bind(professional_id)
            .fetch_optional(conn)
            .await?;
    let reachable = companies.is_some_and(|companies| principal.reaches_professional_of(&companies));
    if reachable {
        Ok(())
    } else {
        Err(ApiError::NotFound(MSG_PROFESSIONAL_NOT_FOUND.to_owned()))
    }
}

#[utoipa::path(
    get,
    path = "/day-off/{idProfessional}",
    tag = "Days off",
    summary = "A professional's days off, newest first (ADMIN, or the professional themself)",
    params(
        ("idProfessional" = i64, Path),
        PageRequest,
        ReadAfter,
    ),
    responses(
        (status = 200, description = "{content, total, count}", body = Page<DayOffItem>),
        refused::Forbidden,
        (status = 404, description = "Unknown professional, or outside the admin's units", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn list(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(professional_id): PathParam<i64>,
    QueryParams(paging): QueryParams<PageRequest>,
) -> Result<(HeaderMap, Json<Page<DayOffItem>>), ApiError> {
    let (limit, offset) = paging.limit_offset()?;
    let consistency = read_after.wait(&state.watch, &read_models::DAY_OFF).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    authorize(&mut tx, &auth, professional_id).await?;
    let total: i64 = sqlx::query_scalar("select count(*) from rm_day_off.day_off where professional_id = $1")
        .bind(professional_id)
        .fetch_one(&mut *tx)
        .await?;
    let content: Vec<DayOffItem> = sqlx::query_as(
        "select day_off_id as id_day_off, description, date_start, date_end, all_day,
                to_char(start_time, 'HH24:MI') as start_time, to_char(end_time, 'HH24:MI') as end_time
           from rm_day_off.day_off
          where professional_id = $1
          order by date_start desc, day_off_id desc
          limit $2 offset $3",
    )
    .bind(professional_id)
    .bind(limit)
    .bind(offset)
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(Page::new(content, total))))
}
