//! Professionals, their hours and services, and the service catalogue (spec 02 §7), plus
//! the agenda's `GET professional/company/{idCompany}` and `GET service/company/{idCompany}`
//! (spec 01 §7).
//!
//! The professionals list and detail are for the roles that reach the professionals menu
//! (spec 02 §6), limited to professionals of units the user may see; every professional
//! reads their own data through the `my-profile` calls.

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::NaiveDate;
use navalha_domain::commission::{CommissionRates, Rate};
use navalha_domain::menu;
use navalha_domain::validation::Period;
use navalha_platform::auth::{Auth, Principal};
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use serde_json::Value;
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::companies::ensure_visible;
use crate::consistency::ReadAfter;
use crate::list_arguments;
use crate::paging::{page_of, ListFilter, ListQuery, Page, StatusFilter};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(filter))
        .routes(routes!(my_profile))
        .routes(routes!(of_company))
        .routes(routes!(one))
        .routes(routes!(commission))
        .routes(routes!(active_services))
        .routes(routes!(services_of_company))
        .routes(routes!(my_hours))
        .routes(routes!(hours))
        .routes(routes!(my_services))
        .routes(routes!(services))
}

/// Professionals in a unit the principal belongs to (`$1` their units).
const VISIBLE: &str = "exists (select 1 from rm_professional.membership m
                               where m.professional_id = p.professional_id and m.company_id = any($1))";

fn not_found() -> ApiError {
    ApiError::NotFound("Profissional não encontrado.".to_owned())
}

/// Checks that `principal` may read professional `id`: themself, or, for the roles that
/// reach the professionals screen, one working in a unit they may see.
pub async fn ensure_readable(
    conn: &mut PgConnection,
    principal: &Principal,
    id: i64,
) -> Result<(), ApiError> {
    if principal.professional_id == id {
        return Ok(());
    }
    if !menu::reaches(principal.role, "professional") {
        return Err(ApiError::Forbidden);
    }
    ensure_works_in_reach(conn, principal, id).await
}

/// Checks that professional `id` works in a unit `principal` may see (404 otherwise).
async fn ensure_works_in_reach(
    conn: &mut PgConnection,
    principal: &Principal,
    id: i64,
) -> Result<(), ApiError> {
    let visible: bool = sqlx::query_scalar(&format!(
        "select exists (select 1 from rm_professional.professional p where p.professional_id = $2 and {VISIBLE})"
    ))
    .bind(&principal.companies)
    .bind(id)
    .fetch_one(conn)
    .await?;
    if visible {
        Ok(())
    } else {
        Err(not_found())
    }
}

/// A professional in the list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ProfessionalItem {
    /// IdProfessional.
    pub id_professional: i64,
    /// Name.
    pub name: String,
    /// Phone digits.
    pub phone: String,
    /// E-mail.
    pub email: String,
    /// 0 pending, 1 active, 2 inactive.
    pub status: i16,
}

#[utoipa::path(
    get,
    path = "/professional/filter",
    tag = "Professionals",
    summary = "Professionals of the user's units (ADMIN, DEFAULT), paged",
    params(
        ListFilter,
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Page<ProfessionalItem>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn filter(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<ListFilter>,
) -> Result<(HeaderMap, Json<Page<ProfessionalItem>>), ApiError> {
    if !menu::reaches(auth.role, "professional") {
        return Err(ApiError::Forbidden);
    }
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PROFESSIONAL, &read_models::COMPANY]).await?;
    let status: Option<i16> = match filter.status()? {
        StatusFilter::All => None,
        StatusFilter::Active(true) => Some(1),
        StatusFilter::Active(false) => Some(2),
        StatusFilter::Pending => Some(0),
    };
    let condition = format!(
        "{VISIBLE} and ($2::smallint is null or p.status = $2)
           and ($3::text is null or p.search like lower(public.unaccent($3)))"
    );
    let query = ListQuery {
        columns: "p.professional_id as id_professional, p.name, p.phone, p.email, p.status",
        from: "rm_professional.professional p",
        condition: &condition,
        order: "p.search, p.professional_id",
    };
    let mut tx = scope::of(&state.pool, &auth).await?;
    let arguments = list_arguments![&auth.companies, status, filter.pattern()];
    let page = page_of(&mut tx, &query, arguments, filter.limit_offset()?).await?;
    Ok((consistency.headers(), Json(page)))
}

#[derive(Debug, sqlx::FromRow)]
struct ProfessionalRow {
    professional_id: i64,
    name: String,
    cpf: String,
    email: String,
    phone: String,
    whatsapp: bool,
    birth_date: Option<NaiveDate>,
    address: Value,
    color: String,
    role_id: i16,
    status: i16,
}

/// A professional as the professional form reads it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ProfessionalDetail {
    id_professional: i64,
    name: String,
    cpf: String,
    email: String,
    phone: String,
    #[serde(rename = "WhatsApp")]
    whats_app: bool,
    birth_date: Option<NaiveDate>,
    /// 0 pending, 1 active, 2 inactive (spec 02 §4).
    status: i16,
    cep: Option<String>,
    street: Option<String>,
    number: Option<String>,
    district: Option<String>,
    city: Option<String>,
    state: Option<String>,
    complement: Option<String>,
    /// Agenda colour.
    color: String,
    /// The role (spec 01 §1's profile types).
    id_type_profile: i16,
    /// The first of the units.
    id_company: Option<i64>,
    companies: Vec<ProfessionalUnit>,
}

/// A unit a professional works in, with the membership appointments point at.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ProfessionalUnit {
    id_company: i64,
    id_company_professional: i64,
    name: String,
}

/// The professional form's data, as `GET professional/{id}` and `GET professional/my-profile`
/// answer it.
async fn detail(conn: &mut PgConnection, id: i64) -> Result<ProfessionalDetail, ApiError> {
    let row: ProfessionalRow = sqlx::query_as(
        "select professional_id, name, cpf, email, phone, whatsapp, birth_date, address, color, role_id, status
           from rm_professional.professional where professional_id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(not_found)?;
    let companies: Vec<(i64, i64, String)> = sqlx::query_as(
        "select m.company_id, m.membership_id, coalesce(c.name, '')
           from rm_professional.membership m left join rm_company.company c on c.company_id = m.company_id
          where m.professional_id = $1 order by m.position",
    )
    .bind(id)
    .fetch_all(conn)
    .await?;
    let address = |field: &str| row.address[field].as_str().map(str::to_owned);
    Ok(ProfessionalDetail {
        id_professional: row.professional_id,
        cep: address("zip_code"),
        street: address("street"),
        number: address("number"),
        district: address("district"),
        city: address("city"),
        state: address("state"),
        complement: address("complement"),
        name: row.name,
        cpf: row.cpf,
        email: row.email,
        phone: row.phone,
        whats_app: row.whatsapp,
        birth_date: row.birth_date,
        status: row.status,
        color: row.color,
        id_type_profile: row.role_id,
        id_company: companies.first().map(|(company_id, _, _)| *company_id),
        companies: companies
            .into_iter()
            .map(|(id_company, id_company_professional, name)| ProfessionalUnit {
                id_company,
                id_company_professional,
                name,
            })
            .collect(),
    })
}

#[utoipa::path(
    get,
    path = "/professional/{id}",
    tag = "Professionals",
    summary = "A professional's form data",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The professional", body = ProfessionalDetail),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<ProfessionalDetail>), ApiError> {
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PROFESSIONAL, &read_models::COMPANY]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_readable(&mut tx, &auth, id).await?;
    Ok((consistency.headers(), Json(detail(&mut tx, id).await?)))
}

/// A rate's percentage on the wire (40.5), for a rate that is one.
pub(crate) fn rate_percent(rate: Rate) -> Option<f64> {
    match rate {
        Rate::BasisPoints(points) => Some(points as f64 / 100.0),
        Rate::FixedCents(_) => None,
    }
}

/// A rate's fixed amount per unit on the wire, in reais, for a rate that is one.
pub(crate) fn rate_fixed(rate: Rate) -> Option<f64> {
    match rate {
        Rate::FixedCents(cents) => Some(cents as f64 / 100.0),
        Rate::BasisPoints(_) => None,
    }
}

/// A professional's commission rates (issue 42), percentages as numbers (40.5) and fixed
/// amounts in reais.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CommissionAnswer {
    /// Whether rates were ever set: until then every line earns 0 %.
    set: bool,
    service_percent: f64,
    product_percent: f64,
    services: Vec<ServiceCommission>,
    card_fee_shared: bool,
    /// A 'profissional-parceiro' (Lei 13.352/2016).
    partner: bool,
}

/// A service paid at its own rate: `Percent` or `Fixed` (reais per unit).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ServiceCommission {
    id_service: i64,
    description: String,
    percent: Option<f64>,
    fixed: Option<f64>,
}

#[utoipa::path(
    get,
    path = "/professional/{id}/commission",
    tag = "Professionals",
    summary = "A professional's commission rates in force (issue 42): ADMIN's of any professional they reach, everyone their own",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The rates", body = CommissionAnswer),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn commission(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<CommissionAnswer>), ApiError> {
    let consistency = read_after.wait_all(&state.watch, &[&read_models::PROFESSIONAL]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_readable(&mut tx, &auth, id).await?;
    let stored: Option<Value> =
        sqlx::query_scalar("select commission from rm_professional.professional where professional_id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .flatten();
    let rates: Option<CommissionRates> =
        stored.map(serde_json::from_value).transpose().map_err(|error| ApiError::Internal(error.into()))?;
    let descriptions: Vec<(i64, String)> = sqlx::query_as(
        "select service_id, description from rm_professional.catalogue_service where service_id = any($1)",
    )
    .bind(rates.iter().flat_map(|r| r.services.iter().map(|s| s.service_id)).collect::<Vec<i64>>())
    .fetch_all(&mut *tx)
    .await?;
    let percent = |points: i64| points as f64 / 100.0;
    let rates_or_none = rates.clone().unwrap_or_default();
    let answer = CommissionAnswer {
        set: rates.is_some(),
        service_percent: percent(rates_or_none.service_points),
        product_percent: percent(rates_or_none.product_points),
        services: rates_or_none
            .services
            .iter()
            .map(|service| ServiceCommission {
                id_service: service.service_id,
                description: descriptions
                    .iter()
                    .find(|(id, _)| *id == service.service_id)
                    .map(|(_, text)| text.clone())
                    .unwrap_or_default(),
                percent: rate_percent(service.rate),
                fixed: rate_fixed(service.rate),
            })
            .collect(),
        card_fee_shared: rates_or_none.card_fee_shared,
        partner: rates_or_none.partner,
    };
    Ok((consistency.headers(), Json(answer)))
}

#[utoipa::path(
    get,
    path = "/professional/my-profile",
    tag = "Professionals",
    summary = "One's own profile",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The professional", body = ProfessionalDetail),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn my_profile(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<ProfessionalDetail>), ApiError> {
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PROFESSIONAL, &read_models::COMPANY]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    Ok((consistency.headers(), Json(detail(&mut tx, auth.professional_id).await?)))
}

/// A professional of a unit, for the agenda's pickers.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct UnitProfessional {
    /// IdProfessional.
    pub id_professional: i64,
    /// Name.
    pub name: String,
    /// 1: only active professionals are listed.
    pub status: i16,
    /// Birth date.
    pub birth_date: Option<NaiveDate>,
    /// Phone digits.
    pub phone: String,
    /// The membership appointments point at.
    pub id_company_professional: i64,
    /// Agenda colour.
    pub color: String,
}

/// The professionals who can be booked in a unit: active, and offering an active service.
#[utoipa::path(
    get,
    path = "/professional/company/{id}",
    tag = "Professionals",
    summary = "Bookable professionals of a unit",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<UnitProfessional>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn of_company(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Vec<UnitProfessional>>), ApiError> {
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PROFESSIONAL, &read_models::COMPANY]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_visible(&mut tx, &auth, id).await?;
    let rows: Vec<UnitProfessional> = sqlx::query_as(
        "select p.professional_id as id_professional, p.name, p.status, p.birth_date, p.phone,
                m.membership_id as id_company_professional, p.color
           from rm_professional.membership m
           join rm_professional.professional p on p.professional_id = m.professional_id
          where m.company_id = $1 and p.status = 1
            and exists (select 1 from rm_professional.offered_service s
                         where s.professional_id = p.professional_id and s.active)
          order by p.name, p.professional_id",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(rows)))
}

/// A catalogue service.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CatalogueItem {
    /// IdService.
    pub id_service: i64,
    /// Description.
    pub description: String,
    /// Default price, in reais.
    pub value_default: f64,
    /// Default time, in minutes.
    pub time_default: i32,
}

#[utoipa::path(
    get,
    path = "/service/active",
    tag = "Professionals",
    summary = "The active catalogue",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<CatalogueItem>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn active_services(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<Vec<CatalogueItem>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::PROFESSIONAL).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let rows: Vec<CatalogueItem> = sqlx::query_as(
        "select service_id as id_service, description, default_cents / 100.0::float8 as value_default,
                default_minutes as time_default
           from rm_professional.catalogue_service where active order by description, service_id",
    )
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(rows)))
}

/// A service as a unit sells it: the longest time and highest price among its
/// professionals (the exact ones are per professional).
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct UnitService {
    /// IdService.
    pub id_service: i64,
    /// Description.
    pub description: String,
    /// Minutes, the longest among the unit's professionals.
    pub max_time: i32,
    /// Price in reais, the highest among the unit's professionals.
    pub max_value: f64,
}

#[utoipa::path(
    get,
    path = "/service/company/{id}",
    tag = "Professionals",
    summary = "Services sold in a unit: [{IdService, Description, MaxTime, MaxValue}]",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<UnitService>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn services_of_company(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Vec<UnitService>>), ApiError> {
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PROFESSIONAL, &read_models::COMPANY]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_visible(&mut tx, &auth, id).await?;
    let rows: Vec<UnitService> = sqlx::query_as(
        "select c.service_id as id_service, c.description, max(s.minutes) as max_time,
                max(s.cents) / 100.0::float8 as max_value
           from rm_professional.membership m
           join rm_professional.professional p on p.professional_id = m.professional_id and p.status = 1
           join rm_professional.offered_service s on s.professional_id = m.professional_id and s.active
           join rm_professional.catalogue_service c on c.service_id = s.service_id and c.active
          where m.company_id = $1
          group by c.service_id, c.description
          order by c.description, c.service_id",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(rows)))
}

/// One weekday of a professional's hours; empty periods are null.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct WorkingDay {
    /// 0 (Sunday) to 6.
    pub week_day: i16,
    /// First period.
    pub first_start: Option<String>,
    /// First period.
    pub first_end: Option<String>,
    /// Second period.
    pub second_start: Option<String>,
    /// Second period.
    pub second_end: Option<String>,
    /// Third period.
    pub third_start: Option<String>,
    /// Third period.
    pub third_end: Option<String>,
}

async fn week_of(conn: &mut PgConnection, id: i64) -> Result<Vec<WorkingDay>, ApiError> {
    let rows: Vec<(i16, Value)> = sqlx::query_as(
        "select week_day, periods from rm_professional.working_day where professional_id = $1",
    )
    .bind(id)
    .fetch_all(conn)
    .await?;
    let mut week = Vec::with_capacity(7);
    for week_day in 0..7 {
        let periods: Vec<Period> = match rows.iter().find(|(day, _)| *day == week_day) {
            Some((_, periods)) => {
                serde_json::from_value(periods.clone()).map_err(|e| ApiError::Internal(e.into()))?
            }
            None => Vec::new(),
        };
        let start = |i: usize| periods.get(i).map(|p| p.start.to_string());
        let end = |i: usize| periods.get(i).map(|p| p.end.to_string());
        week.push(WorkingDay {
            week_day,
            first_start: start(0),
            first_end: end(0),
            second_start: start(1),
            second_end: end(1),
            third_start: start(2),
            third_end: end(2),
        });
    }
    Ok(week)
}

#[utoipa::path(
    get,
    path = "/professional-working-hours/my-profile",
    tag = "Professionals",
    summary = "One's own week",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<WorkingDay>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn my_hours(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<Vec<WorkingDay>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::PROFESSIONAL).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    Ok((consistency.headers(), Json(week_of(&mut tx, auth.professional_id).await?)))
}

#[utoipa::path(
    get,
    path = "/professional-working-hours/professional/{id}",
    tag = "Professionals",
    summary = "A professional's week",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<WorkingDay>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn hours(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Vec<WorkingDay>>), ApiError> {
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PROFESSIONAL, &read_models::COMPANY]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_readable(&mut tx, &auth, id).await?;
    Ok((consistency.headers(), Json(week_of(&mut tx, id).await?)))
}

/// A service as one professional performs it.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct OfferedItem {
    /// IdCompanyProfessionalService.
    pub id_company_professional_service: i64,
    /// IdService.
    pub id_service: i64,
    /// The catalogue's description.
    pub description: String,
    /// Minutes.
    pub time: i32,
    /// Price in reais.
    pub value: f64,
    /// Sold as a combo.
    pub combo: bool,
    /// Active or not.
    pub status: bool,
    /// 'Intervalo após': minutes the professional stays busy after it (issue 45).
    pub interval_after: i32,
}

async fn offered_by(conn: &mut PgConnection, id: i64) -> Result<Vec<OfferedItem>, ApiError> {
    Ok(sqlx::query_as(
        "select s.offered_id as id_company_professional_service, s.service_id as id_service,
                coalesce(c.description, '') as description, s.minutes as time, s.cents / 100.0::float8 as value,
                s.combo, s.active as status, s.interval_after
           from rm_professional.offered_service s
           left join rm_professional.catalogue_service c on c.service_id = s.service_id
          where s.professional_id = $1 order by s.offered_id",
    )
    .bind(id)
    .fetch_all(conn)
    .await?)
}

#[utoipa::path(
    get,
    path = "/professional-service/my-profile",
    tag = "Professionals",
    summary = "One's own services",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<OfferedItem>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn my_services(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<Vec<OfferedItem>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::PROFESSIONAL).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    Ok((consistency.headers(), Json(offered_by(&mut tx, auth.professional_id).await?)))
}

#[utoipa::path(
    get,
    path = "/professional-service/professional/{id}",
    tag = "Professionals",
    summary = "A professional's services",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<OfferedItem>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn services(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Vec<OfferedItem>>), ApiError> {
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PROFESSIONAL, &read_models::COMPANY]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    // Those who book for any professional read their services and prices too (a move to
    // another professional asks which price to keep, issue 45); editing stays ADMIN's.
    if auth.role.may_choose_any_professional() && auth.professional_id != id {
        ensure_works_in_reach(&mut tx, &auth, id).await?;
    } else {
        ensure_readable(&mut tx, &auth, id).await?;
    }
    Ok((consistency.headers(), Json(offered_by(&mut tx, id).await?)))
}
