//! Holidays: `POST holiday`, `PUT holiday/{id}`, `DELETE holiday/{id}` (spec 02 §7).
//! Only ADMIN creates, edits or deletes holidays (spec 02 §6).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{post, put};
use axum::Router;
use navalha_domain::company::Company;
use navalha_domain::holiday::{
    Holiday, HolidayCommand, HolidayDetails, HolidayError, HolidayForm, MSG_NOT_FOUND, MSG_UNKNOWN_COMPANY,
};
use navalha_platform::auth::{AdminOnly, Auth};
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::ApiError;
use serde_json::{json, Value};

use crate::commands::invalid;
use crate::commands::{execute, load, metadata_of, next_id, position_headers, DomainError};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new().route("/holiday", post(create)).route("/holiday/{id}", put(change).delete(remove))
}

impl DomainError for HolidayError {
    fn to_api(&self) -> ApiError {
        match self {
            HolidayError::NotFound => ApiError::NotFound(self.to_string()),
            HolidayError::AlreadyCreated => ApiError::Conflict(self.to_string()),
        }
    }
}

/// Validates the form and checks that every chosen unit exists.
async fn checked(state: &AppState, form: &HolidayForm) -> Result<HolidayDetails, ApiError> {
    let details = form.validate().map_err(invalid)?;
    for company_id in &details.company_ids {
        let company: Company = load(&state.pool, &company_id.to_string()).await?;
        if company.profile().is_none() {
            return Err(ApiError::field("idsCompanies", MSG_UNKNOWN_COMPANY));
        }
    }
    Ok(details)
}

async fn existing(state: &AppState, id: i64) -> Result<(), ApiError> {
    let holiday: Holiday = load(&state.pool, &id.to_string()).await?;
    match holiday.current() {
        Some(_) => Ok(()),
        None => Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned())),
    }
}

#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn create(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(form): Json<HolidayForm>,
) -> Result<(StatusCode, HeaderMap, Json<Value>), ApiError> {
    let details = checked(&state, &form).await?;
    let id = next_id(&state.pool, "holiday_id_seq").await?;
    let position = execute::<Holiday>(
        &state.holidays,
        &state.pool,
        &id.to_string(),
        HolidayCommand::CreateHoliday(details),
        &metadata_of(&auth, &origin),
    )
    .await?;
    tracing::info!(holiday_id = id, "holiday created");
    Ok((StatusCode::CREATED, position_headers(position), Json(json!({ "IdHoliday": id }))))
}

#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, holiday_id = id))]
async fn change(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<HolidayForm>,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    existing(&state, id).await?;
    let details = checked(&state, &form).await?;
    let position = execute::<Holiday>(
        &state.holidays,
        &state.pool,
        &id.to_string(),
        HolidayCommand::ChangeHoliday(details),
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(json!({ "IdHoliday": id }))))
}

#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, holiday_id = id))]
async fn remove(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(StatusCode, HeaderMap), ApiError> {
    existing(&state, id).await?;
    let position = execute::<Holiday>(
        &state.holidays,
        &state.pool,
        &id.to_string(),
        HolidayCommand::RemoveHoliday,
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((StatusCode::NO_CONTENT, position_headers(position)))
}
