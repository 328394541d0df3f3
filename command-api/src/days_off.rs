//! Days off: `POST day-off`, `PUT day-off/{idDayOff}`, `DELETE day-off/{idDayOff}`
//! (spec 02 §7). Only ADMIN creates and edits days off (spec 02 §6).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::day_off::{DayOff, DayOffCommand, DayOffError, DayOffForm, MSG_NOT_FOUND};
use navalha_domain::professional::Professional;
use navalha_platform::auth::{AdminOnly, Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdDayOff;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::invalid;
use crate::commands::{execute, load, metadata_of, next_id, position_headers, DomainError};
use crate::idempotency;
use crate::state::AppState;

/// Answer for an unknown professional, or one outside the admin's units.
pub const MSG_PROFESSIONAL_NOT_FOUND: &str = "Profissional não encontrado.";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(schedule)).routes(routes!(change, remove))
}

impl DomainError for DayOffError {
    fn to_api(&self) -> ApiError {
        match self {
            DayOffError::NotFound => ApiError::NotFound(self.to_string()),
            DayOffError::AlreadyScheduled => ApiError::Conflict(self.to_string()),
        }
    }
}

/// Checks that the professional exists and is within the admin's reach: a unit in common.
/// Anything else is a 404, so ids of other units leak nothing.
pub async fn professional_in_reach(
    state: &AppState,
    principal: &Principal,
    professional_id: i64,
) -> Result<(), ApiError> {
    let professional: Professional =
        load(&state.events, principal.business_id, &professional_id.to_string()).await?;
    let reachable =
        professional.employment().is_some_and(|e| principal.reaches_professional_of(&e.company_ids()));
    if reachable {
        Ok(())
    } else {
        Err(ApiError::NotFound(MSG_PROFESSIONAL_NOT_FOUND.to_owned()))
    }
}

/// The day off's professional, when it exists, is not removed and is in the admin's reach.
async fn day_off_in_reach(state: &AppState, principal: &Principal, id: i64) -> Result<i64, ApiError> {
    let day_off: DayOff = load(&state.events, principal.business_id, &id.to_string()).await?;
    let professional_id = day_off
        .current()
        .map(|details| details.professional_id)
        .ok_or_else(|| ApiError::NotFound(MSG_NOT_FOUND.to_owned()))?;
    professional_in_reach(state, principal, professional_id)
        .await
        .map_err(|_| ApiError::NotFound(MSG_NOT_FOUND.to_owned()))?;
    Ok(professional_id)
}

#[utoipa::path(
    post,
    path = "/day-off",
    tag = "Days off",
    summary = "Schedule a professional's day off or vacation (ADMIN)",
    request_body = DayOffForm,
    responses(
        (status = 201, description = "Scheduled: {IdDayOff}", body = IdDayOff, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdDayOff": 1 })),
        refused::Malformed,
        refused::Forbidden,
        (status = 404, description = "Unknown professional, or outside the admin's units", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn schedule(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(form): Json<DayOffForm>,
) -> Result<(StatusCode, HeaderMap, Json<IdDayOff>), ApiError> {
    let details = form.validate().map_err(invalid)?;
    professional_in_reach(&state, &auth, details.professional_id).await?;
    let id = next_id(&state.pool, "day_off_id_seq").await?;
    let answer = IdDayOff { id_day_off: id };
    let position = execute::<DayOff>(
        &state.events,
        &id.to_string(),
        DayOffCommand::ScheduleDayOff(details),
        &idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer),
    )
    .await?;
    tracing::info!(day_off_id = id, "day off scheduled");
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

#[utoipa::path(
    put,
    path = "/day-off/{idDayOff}",
    tag = "Days off",
    summary = "Change a day off (ADMIN)",
    params(
        ("idDayOff" = i64, Path),
    ),
    request_body = DayOffForm,
    responses(
        (status = 200, description = "Saved: {IdDayOff}", body = IdDayOff, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdDayOff": 1 })),
        refused::Forbidden,
        (status = 404, description = "Unknown or removed day off, or unknown professional", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, day_off_id = id))]
async fn change(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<DayOffForm>,
) -> Result<(HeaderMap, Json<IdDayOff>), ApiError> {
    let current_professional = day_off_in_reach(&state, &auth, id).await?;
    let details = form.validate().map_err(invalid)?;
    // The web app edits a day off inside its professional's page; moving it to another
    // professional is allowed, but only to one the admin may reach too.
    if details.professional_id != current_professional {
        professional_in_reach(&state, &auth, details.professional_id).await?;
    }
    let position = execute::<DayOff>(
        &state.events,
        &id.to_string(),
        DayOffCommand::ChangeDayOff(details),
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(IdDayOff { id_day_off: id })))
}

#[utoipa::path(
    delete,
    path = "/day-off/{idDayOff}",
    tag = "Days off",
    summary = "Remove a day off (ADMIN)",
    params(
        ("idDayOff" = i64, Path),
    ),
    responses(
        (status = 204, description = "Removed", headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Forbidden,
        (status = 404, description = "Unknown or removed day off", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, day_off_id = id))]
async fn remove(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(StatusCode, HeaderMap), ApiError> {
    day_off_in_reach(&state, &auth, id).await?;
    let position = execute::<DayOff>(
        &state.events,
        &id.to_string(),
        DayOffCommand::RemoveDayOff,
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((StatusCode::NO_CONTENT, position_headers(position)))
}
