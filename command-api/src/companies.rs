//! Units: `POST company`, `PUT company/{id}` and `PUT company-working-hours/{id}/day`
//! (spec 02 §7). Only ADMIN writes them (spec 02 §6), and only for units they may see.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{post, put};
use axum::Router;
use navalha_domain::company::{
    Company, CompanyCommand, CompanyDayForm, CompanyForm, CNPJ_SCOPE, DEFAULT_TIME_ZONE, MSG_DUPLICATE_CNPJ,
    MSG_NOT_FOUND,
};
use navalha_platform::auth::{AdminOnly, Auth, Principal};
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::ApiError;
use serde_json::{json, Value};

use crate::commands::{
    execute, execute_claiming, invalid, load, metadata_of, next_id, position_headers, Claim,
};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/company", post(register))
        .route("/company/{id}", put(update))
        .route("/company-working-hours/{id}/day", put(set_day))
}

/// Loads a unit the caller may see; any other id is 404, so ids of other units leak nothing.
pub async fn visible_company(state: &AppState, principal: &Principal, id: i64) -> Result<Company, ApiError> {
    let company: Company = load(&state.pool, &id.to_string()).await?;
    match company.profile() {
        Some(profile) if principal.may_see_company(id, profile.status) => Ok(company),
        _ => Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned())),
    }
}

#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn register(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(form): Json<CompanyForm>,
) -> Result<(StatusCode, HeaderMap, Json<Value>), ApiError> {
    let profile = form.validate(DEFAULT_TIME_ZONE).map_err(invalid)?;
    let id = next_id(&state.pool, "company_id_seq").await?;
    let claim = Claim { scope: CNPJ_SCOPE, value: profile.cnpj.clone(), duplicate: MSG_DUPLICATE_CNPJ };
    let position = execute_claiming::<Company>(
        &state.companies,
        &state.pool,
        &id.to_string(),
        CompanyCommand::RegisterCompany(profile),
        &metadata_of(&auth, &origin),
        &[claim],
        &[],
    )
    .await?;
    tracing::info!(company_id = id, "company registered");
    Ok((StatusCode::CREATED, position_headers(position), Json(json!({ "IdCompany": id }))))
}

#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, company_id = id))]
async fn update(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<CompanyForm>,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    let company = visible_company(&state, &auth, id).await?;
    let current = company.profile().ok_or_else(ApiError::not_found)?;
    let profile = form.validate(&current.time_zone).map_err(invalid)?;
    let released =
        if current.cnpj == profile.cnpj { vec![] } else { vec![(CNPJ_SCOPE, current.cnpj.clone())] };
    let claim = Claim { scope: CNPJ_SCOPE, value: profile.cnpj.clone(), duplicate: MSG_DUPLICATE_CNPJ };
    let position = execute_claiming::<Company>(
        &state.companies,
        &state.pool,
        &id.to_string(),
        CompanyCommand::UpdateCompany(profile),
        &metadata_of(&auth, &origin),
        &[claim],
        &released,
    )
    .await?;
    Ok((position_headers(position), Json(json!({ "IdCompany": id }))))
}

#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, company_id = id))]
async fn set_day(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<CompanyDayForm>,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    visible_company(&state, &auth, id).await?;
    let (week_day, period) = form.validate().map_err(invalid)?;
    let position = execute::<Company>(
        &state.companies,
        &state.pool,
        &id.to_string(),
        CompanyCommand::SetDay { week_day, period },
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(json!({ "IdCompany": id, "WeekDay": week_day }))))
}
