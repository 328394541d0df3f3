//! Days off: `GET day-off/{idProfessional}?page&pageSize` (spec 02 §7).
//!
//! An admin reads the days off of professionals in reach (a unit in common, or every unit
//! for roles that see them all); a professional reads their own. Others get 403.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::get;
use axum::Router;
use chrono::NaiveDate;
use navalha_domain::role::Role;
use navalha_platform::auth::{Auth, Principal};
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::ApiError;
use serde::Serialize;
use sqlx::PgConnection;

use crate::consistency::ReadAfter;
use crate::paging::{Page, PageRequest};
use crate::scope;
use crate::AppState;

/// Answer for an unknown professional, or one outside the admin's units.
pub const MSG_PROFESSIONAL_NOT_FOUND: &str = "Profissional não encontrado.";

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new().route("/day-off/{idProfessional}", get(list))
}

/// A day off in the professional's list.
#[derive(Debug, Serialize, sqlx::FromRow)]
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

async fn list(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(professional_id): PathParam<i64>,
    QueryParams(paging): QueryParams<PageRequest>,
) -> Result<(HeaderMap, Json<Page<DayOffItem>>), ApiError> {
    let (limit, offset) = paging.limit_offset()?;
    let consistency = read_after.wait(&state.watch, "day_off").await?;
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
