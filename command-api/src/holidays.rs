//! Holidays: `POST holiday`, `PUT holiday/{id}`, `DELETE holiday/{id}` (spec 02 §7).
//! Only ADMIN creates, edits or deletes holidays (spec 02 §6), and only holidays of units
//! they belong to.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::holiday::{
    Holiday, HolidayCommand, HolidayDetails, HolidayError, HolidayForm, MSG_NOT_FOUND, MSG_UNKNOWN_COMPANY,
};
use navalha_platform::auth::{AdminOnly, Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdHoliday;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::invalid;
use crate::commands::{execute, load, metadata_of, next_id, position_headers, DomainError};
use crate::companies::{visible_company, within_own_units, writable_across_units, MSG_NOT_EVERY_COMPANY};
use crate::idempotency;
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create)).routes(routes!(change, remove))
}

impl DomainError for HolidayError {
    fn to_api(&self) -> ApiError {
        match self {
            HolidayError::NotFound => ApiError::NotFound(self.to_string()),
            HolidayError::AlreadyCreated => ApiError::Conflict(self.to_string()),
        }
    }
}

/// Validates the form and checks that every chosen unit exists and is the admin's.
async fn checked(
    state: &AppState,
    principal: &Principal,
    form: &HolidayForm,
) -> Result<HolidayDetails, ApiError> {
    let details = form.validate().map_err(invalid)?;
    for company_id in &details.company_ids {
        if visible_company(state, principal, *company_id).await.is_err() {
            return Err(ApiError::field("idsCompanies", MSG_UNKNOWN_COMPANY));
        }
    }
    if !within_own_units(state, principal, details.all_companies, &details.company_ids).await? {
        return Err(ApiError::field("allCompanies", MSG_NOT_EVERY_COMPANY));
    }
    Ok(details)
}

/// The holiday, when it exists and every unit it covers is the admin's.
async fn existing(state: &AppState, principal: &Principal, id: i64) -> Result<(), ApiError> {
    let holiday: Holiday = load(&state.events, principal.business_id, &id.to_string()).await?;
    let details = holiday.current().ok_or_else(|| ApiError::NotFound(MSG_NOT_FOUND.to_owned()))?;
    writable_across_units(state, principal, details.all_companies, &details.company_ids, MSG_NOT_FOUND).await
}

#[utoipa::path(
    post,
    path = "/holiday",
    tag = "Holidays",
    summary = "Create a holiday (ADMIN)",
    request_body = HolidayForm,
    responses(
        (status = 201, description = "Created: {IdHoliday}", body = IdHoliday, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdHoliday": 1 })),
        refused::Malformed,
        refused::Forbidden,
        (status = 422, description = "Validation, or an unknown unit in idsCompanies", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn create(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(form): Json<HolidayForm>,
) -> Result<(StatusCode, HeaderMap, Json<IdHoliday>), ApiError> {
    let details = checked(&state, &auth, &form).await?;
    let id = next_id(&state.pool, "holiday_id_seq").await?;
    let answer = IdHoliday { id_holiday: id };
    let position = execute::<Holiday>(
        &state.events,
        &id.to_string(),
        HolidayCommand::CreateHoliday(details),
        &idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer),
    )
    .await?;
    tracing::info!(holiday_id = id, "holiday created");
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

#[utoipa::path(
    put,
    path = "/holiday/{id}",
    tag = "Holidays",
    summary = "Change a holiday (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    request_body = HolidayForm,
    responses(
        (status = 200, description = "Saved: {IdHoliday}", body = IdHoliday, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdHoliday": 1 })),
        refused::Forbidden,
        (status = 404, description = "Unknown or removed holiday", body = ErrorBody),
        (status = 422, description = "Validation, or an unknown unit in idsCompanies", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, holiday_id = id))]
async fn change(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<HolidayForm>,
) -> Result<(HeaderMap, Json<IdHoliday>), ApiError> {
    existing(&state, &auth, id).await?;
    let details = checked(&state, &auth, &form).await?;
    let position = execute::<Holiday>(
        &state.events,
        &id.to_string(),
        HolidayCommand::ChangeHoliday(details),
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(IdHoliday { id_holiday: id })))
}

#[utoipa::path(
    delete,
    path = "/holiday/{id}",
    tag = "Holidays",
    summary = "Remove a holiday (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 204, description = "Removed", headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Forbidden,
        (status = 404, description = "Unknown or removed holiday", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, holiday_id = id))]
async fn remove(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(StatusCode, HeaderMap), ApiError> {
    existing(&state, &auth, id).await?;
    let position = execute::<Holiday>(
        &state.events,
        &id.to_string(),
        HolidayCommand::RemoveHoliday,
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((StatusCode::NO_CONTENT, position_headers(position)))
}
