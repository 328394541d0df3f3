//! Units: `POST company`, `PUT company/{id}` and `PUT company-working-hours/{id}/day`
//! (spec 02 §7). Only ADMIN writes them (spec 02 §6), and only for units they belong to;
//! the ADMIN who registers a unit becomes a member of it.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::company::{
    Company, CompanyCommand, CompanyDayForm, CompanyForm, CNPJ_SCOPE, MSG_DUPLICATE_CNPJ, MSG_NOT_FOUND,
};
use navalha_domain::professional::{Membership, Professional, ProfessionalCommand};
use navalha_platform::auth::{AdminOnly, Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::position::Position;
use navalha_platform::refused;
use navalha_platform::written::IdCompany;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{
    execute, execute_claiming, invalid, load, metadata_of, next_id, position_headers, Claim,
};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(register)).routes(routes!(update)).routes(routes!(set_day))
}

/// Loads a unit the caller belongs to; any other id is 404, so ids of other units leak
/// nothing.
pub async fn visible_company(state: &AppState, principal: &Principal, id: i64) -> Result<Company, ApiError> {
    if !principal.belongs_to(id) {
        return Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned()));
    }
    let company: Company = load(&state.events, principal.business_id, &id.to_string()).await?;
    match company.profile() {
        Some(_) => Ok(company),
        None => Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned())),
    }
}

/// The unit a form chose (`idCompany`), when it is one of the caller's: 422 on the field when
/// none was chosen, 404 for another's.
pub async fn chosen_unit(
    state: &AppState,
    principal: &Principal,
    id_company: Option<i64>,
) -> Result<i64, ApiError> {
    let company_id = id_company.ok_or_else(|| ApiError::field("idCompany", MSG_CHOOSE_UNIT))?;
    visible_company(state, principal, company_id).await?;
    Ok(company_id)
}

/// No unit chosen on a form that needs one.
pub const MSG_CHOOSE_UNIT: &str = "Escolha a unidade.";

/// The unit's wall clock now: what its appointments, comandas and caixas are dated by.
pub async fn unit_now(
    state: &AppState,
    business_id: i64,
    company_id: i64,
) -> Result<chrono::NaiveDateTime, ApiError> {
    let company: Company = load(&state.events, business_id, &company_id.to_string()).await?;
    Ok(clock_of(&company))
}

/// Now on the unit's clock (its time zone).
pub fn clock_of(company: &Company) -> chrono::NaiveDateTime {
    navalha_platform::clock::now_in(
        company
            .profile()
            .map_or(navalha_platform::clock::DEFAULT_TIME_ZONE, |profile| profile.time_zone.as_str()),
    )
}

/// 'Todas as empresas' chosen, for a holiday or a plan, by an admin who is not in every unit.
pub const MSG_NOT_EVERY_COMPANY: &str = "Você não pertence a todas as unidades.";

/// Whether something that covers these units (or every unit of the business, `all`) is
/// wholly within the principal's units: what writing a holiday or a plan takes, since it
/// acts on each unit.
pub async fn within_own_units(
    state: &AppState,
    principal: &Principal,
    all: bool,
    company_ids: &[i64],
) -> Result<bool, ApiError> {
    if !all {
        return Ok(principal.belongs_to_all(company_ids));
    }
    let every: Vec<i64> = sqlx::query_scalar(
        "select aggregate_id::bigint from aggregate_business where aggregate_type = $1 and business_id = $2",
    )
    .bind(<Company as navalha_domain::Aggregate>::TYPE)
    .bind(principal.business_id)
    .fetch_all(&state.pool)
    .await?;
    Ok(principal.belongs_to_all(&every))
}

/// Refuses a holiday or plan that touches units outside the principal's: 404 when it
/// touches none of theirs (it does not exist for them), 403 when they see it but it
/// reaches further.
pub async fn writable_across_units(
    state: &AppState,
    principal: &Principal,
    all: bool,
    company_ids: &[i64],
    not_found: &str,
) -> Result<(), ApiError> {
    if within_own_units(state, principal, all, company_ids).await? {
        Ok(())
    } else if all || company_ids.iter().any(|id| principal.belongs_to(*id)) {
        Err(ApiError::Forbidden)
    } else {
        Err(ApiError::NotFound(not_found.to_owned()))
    }
}

#[utoipa::path(
    post,
    path = "/company",
    tag = "Units",
    summary = "Register a unit (ADMIN); 201 {IdCompany}",
    request_body = CompanyForm,
    responses(
        (status = 201, description = "Created", body = IdCompany, example = json!({ "IdCompany": 1 })),
        refused::Malformed,
        refused::Forbidden,
        (status = 409, description = "Duplicate", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn register(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(form): Json<CompanyForm>,
) -> Result<(StatusCode, HeaderMap, Json<IdCompany>), ApiError> {
    let profile = form.validate(None).map_err(invalid)?;
    let id = next_id(&state.pool, "company_id_seq").await?;
    let claim = Claim {
        scope: CNPJ_SCOPE,
        value: profile.cnpj.clone(),
        duplicate: MSG_DUPLICATE_CNPJ,
        field: Some("cnpj"),
    };
    let position = execute_claiming::<Company>(
        &state.events,
        &id.to_string(),
        CompanyCommand::RegisterCompany(profile),
        &metadata_of(&auth, &origin),
        &[claim],
        &[],
    )
    .await?;
    // Without this, the unit would be out of its own creator's reach.
    let position = join_company(&state, &auth, &origin, id).await?.or(position);
    tracing::info!(company_id = id, "company registered");
    Ok((StatusCode::CREATED, position_headers(position), Json(IdCompany { id_company: id })))
}

#[utoipa::path(
    put,
    path = "/company/{id}",
    tag = "Units",
    summary = "Change a unit (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    request_body = CompanyForm,
    responses(
        (status = 200, description = "Saved", body = IdCompany, example = json!({ "IdCompany": 1 })),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "CNPJ taken", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, company_id = id))]
async fn update(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<CompanyForm>,
) -> Result<(HeaderMap, Json<IdCompany>), ApiError> {
    let company = visible_company(&state, &auth, id).await?;
    let current = company.profile().ok_or_else(ApiError::not_found)?;
    let profile = form.validate(Some(current)).map_err(invalid)?;
    let released =
        if current.cnpj == profile.cnpj { vec![] } else { vec![(CNPJ_SCOPE, current.cnpj.clone())] };
    let claim = Claim {
        scope: CNPJ_SCOPE,
        value: profile.cnpj.clone(),
        duplicate: MSG_DUPLICATE_CNPJ,
        field: Some("cnpj"),
    };
    let position = execute_claiming::<Company>(
        &state.events,
        &id.to_string(),
        CompanyCommand::UpdateCompany(profile),
        &metadata_of(&auth, &origin),
        &[claim],
        &released,
    )
    .await?;
    Ok((position_headers(position), Json(IdCompany { id_company: id })))
}

/// A unit's weekday saved.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CompanyDaySaved {
    id_company: i64,
    week_day: u8,
}

#[utoipa::path(
    put,
    path = "/company-working-hours/{id}/day",
    tag = "Units",
    summary = "Set one weekday's opening period (ADMIN); empty times close the day",
    params(
        ("id" = i64, Path),
    ),
    request_body = CompanyDayForm,
    responses(
        (status = 200, description = "Saved", body = CompanyDaySaved),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, company_id = id))]
async fn set_day(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<CompanyDayForm>,
) -> Result<(HeaderMap, Json<CompanyDaySaved>), ApiError> {
    visible_company(&state, &auth, id).await?;
    let (week_day, period) = form.validate().map_err(invalid)?;
    let position = execute::<Company>(
        &state.events,
        &id.to_string(),
        CompanyCommand::SetDay { week_day, period },
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(CompanyDaySaved { id_company: id, week_day })))
}

/// Makes the principal a member of a unit they just registered.
async fn join_company(
    state: &AppState,
    principal: &Principal,
    origin: &RequestOrigin,
    company_id: i64,
) -> Result<Option<Position>, ApiError> {
    let professional: Professional =
        load(&state.events, principal.business_id, &principal.professional_id.to_string()).await?;
    let mut employment = professional.employment().cloned().ok_or_else(ApiError::not_found)?;
    let id = next_id(&state.pool, "company_professional_id_seq").await?;
    employment.memberships.push(Membership { id, company_id });
    execute::<Professional>(
        &state.events,
        &principal.professional_id.to_string(),
        ProfessionalCommand::UpdateEmployment(employment),
        &metadata_of(principal, origin),
    )
    .await
}
