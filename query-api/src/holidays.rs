//! Holidays: `GET holiday/filter?page&pageSize&search` and `GET holiday/{id}` (spec 02 §7).
//!
//! Any staff member may read holidays (BARBER_LEADE reaches the holiday screen; the agenda
//! needs them too). A user sees the holidays of every unit plus those of units they may
//! see: roles that see every unit see them all, the others see their own units'.

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::NaiveDate;
use navalha_platform::auth::Auth;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::{Consistency, ReadAfter};
use crate::list_arguments;
use crate::paging::{page_of, ListQuery, Page, PageRequest};
use crate::scope;
use crate::search::search_pattern;
use crate::AppState;

/// Answer for an unknown holiday, or one of units the user may not see.
pub const MSG_NOT_FOUND: &str = "Feriado não encontrado.";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(filter)).routes(routes!(one))
}

/// A holiday, in the list and alone.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct HolidayItem {
    /// IdHoliday.
    pub id_holiday: i64,
    /// Description.
    pub description: String,
    /// First day.
    pub start_date: NaiveDate,
    /// Last day.
    pub end_date: NaiveDate,
    /// `HH:MM`, null when all-day.
    pub start_time: Option<String>,
    /// `HH:MM`, null when all-day.
    pub end_time: Option<String>,
    /// Whole days.
    pub all_day: bool,
    /// Every unit.
    pub all_companies: bool,
    /// By name; empty when `AllCompanies`.
    #[schema(value_type = Vec<HolidayCompany>)]
    pub companies: sqlx::types::Json<Vec<HolidayCompany>>,
}

/// A unit a holiday applies to.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct HolidayCompany {
    pub id_company: i64,
    pub name: String,
}

/// `?page&pageSize&search`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterParams {
    page: Option<i64>,
    page_size: Option<i64>,
    #[serde(default)]
    search: String,
}

/// The columns of [`HolidayItem`] from `rm_holiday.holiday h`; unit names come from the
/// company read model.
const COLUMNS: &str = "h.holiday_id as id_holiday, h.description, h.start_date, h.end_date,
        to_char(h.start_time, 'HH24:MI') as start_time, to_char(h.end_time, 'HH24:MI') as end_time,
        h.all_day, h.all_companies,
        coalesce((select json_agg(json_build_object('IdCompany', hc.company_id, 'Name', coalesce(c.name, ''))
                                  order by c.name, hc.company_id)
                    from rm_holiday.holiday_company hc
                    left join rm_company.company c on c.company_id = hc.company_id
                   where hc.holiday_id = h.holiday_id), '[]'::json) as companies";

/// Who sees a holiday (`$1` the user's units): one of all units, or of one of theirs.
const VISIBLE: &str = "(h.all_companies or exists (
        select 1 from rm_holiday.holiday_company hc
         where hc.holiday_id = h.holiday_id and hc.company_id = any($1)))";

/// Waits for the user's last write on holidays and, for fresh unit names, on units.
async fn wait(state: &AppState, read_after: ReadAfter) -> Result<Consistency, ApiError> {
    read_after.wait_all(&state.watch, &[&read_models::HOLIDAY, &read_models::COMPANY]).await
}

#[utoipa::path(
    get,
    path = "/holiday/filter",
    tag = "Holidays",
    summary = "Holidays the user may see, the next one first (then the coming ones, then the past, latest first), searched by description ignoring accents and case",
    params(
        PageRequest,
        ("search" = Option<String>, Query),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "{content, total, count}", body = Page<HolidayItem>),
    ),
    security(("bearer" = [])),
)]
async fn filter(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(params): QueryParams<FilterParams>,
) -> Result<(HeaderMap, Json<Page<HolidayItem>>), ApiError> {
    let (limit, offset) = PageRequest { page: params.page, page_size: params.page_size }.limit_offset()?;
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let condition = format!("{VISIBLE} and ($2::text is null or h.search like lower(public.unaccent($2)))");
    // The next holiday first, as a shop plans for it (issue 45 point 7); the past after,
    // the latest first. `today` is a date the server formats, never the request's text.
    let today = navalha_platform::clock::today();
    let order = format!(
        "h.end_date < '{today}'::date, case when h.end_date >= '{today}'::date then h.start_date end,
         h.start_date desc, h.holiday_id desc"
    );
    let query =
        ListQuery { columns: COLUMNS, from: "rm_holiday.holiday h", condition: &condition, order: &order };
    let arguments = list_arguments![&auth.companies, search_pattern(&params.search)];
    let page = page_of(&mut tx, &query, arguments, (limit, offset)).await?;
    Ok((consistency.headers(), Json(page)))
}

#[utoipa::path(
    get,
    path = "/holiday/{id}",
    tag = "Holidays",
    summary = "One holiday",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The holiday", body = HolidayItem),
        (status = 404, description = "Unknown holiday, or one of units the user may not see", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<HolidayItem>), ApiError> {
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let holiday: HolidayItem = sqlx::query_as(&format!(
        "select {COLUMNS} from rm_holiday.holiday h where {VISIBLE} and h.holiday_id = $2"
    ))
    .bind(&auth.companies)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| ApiError::NotFound(MSG_NOT_FOUND.to_owned()))?;
    Ok((consistency.headers(), Json(holiday)))
}
