//! Whether the client came (issue 41): `POST scheduling/{id}/arrival` ('Cliente chegou'),
//! `POST scheduling/{id}/no-show` ('Não compareceu', from the start time on) and
//! `DELETE scheduling/{id}/no-show` (its undo, the same day). ADMIN and ATTENDANT; each is an
//! event the appointment's history shows. 'Atendido' is not recorded here: it is the
//! appointment's comanda, closed.

use axum::extract::State;
use axum::http::HeaderMap;
use navalha_domain::appointment::{Appointment, AppointmentCommand};
use navalha_platform::auth::{AdminOrAttendant, Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::ApiError;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::comandas::COMANDA_OF_APPOINTMENT;
use crate::commands::{claim_holder, execute, load, metadata_of, position_headers};
use crate::companies::unit_now;
use crate::scheduling::touchable;
use crate::state::AppState;

const MSG_HAS_COMANDA: &str = "Este agendamento tem uma comanda: o cliente compareceu.";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(arrival)).routes(routes!(no_show, undo_no_show))
}

/// An appointment's attendance after a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SchedulingAttendance {
    id_scheduling: i64,
    /// ARRIVED or NO_SHOW; null when nothing is recorded.
    attendance: Option<&'static str>,
}

/// Runs an attendance command on the unit's clock and answers the attendance after it.
async fn record(
    state: &AppState,
    principal: &Principal,
    origin: &RequestOrigin,
    id: i64,
    command: impl FnOnce(chrono::NaiveDateTime) -> AppointmentCommand,
) -> Result<(HeaderMap, Json<SchedulingAttendance>), ApiError> {
    let appointment = touchable(state, principal, id).await?;
    let company_id = appointment.booking().map_or(0, |booking| booking.company_id);
    let now = unit_now(state, principal.business_id, company_id).await?;
    let position =
        execute::<Appointment>(&state.events, &id.to_string(), command(now), &metadata_of(principal, origin))
            .await?;
    let after: Appointment = load(&state.events, principal.business_id, &id.to_string()).await?;
    let code = after.attendance().code();
    Ok((
        position_headers(position),
        Json(SchedulingAttendance { id_scheduling: id, attendance: (!code.is_empty()).then_some(code) }),
    ))
}

#[utoipa::path(
    post,
    path = "/scheduling/{idScheduling}/arrival",
    tag = "Agenda",
    summary = "'Cliente chegou': the client arrived, on the appointment's day (ADMIN, ATTENDANT)",
    params(("idScheduling" = i64, Path)),
    responses(
        (status = 200, description = "Recorded (again: nothing more)", body = SchedulingAttendance),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Cancelled", body = ErrorBody),
        (status = 422, description = "Not its day, or marked 'Não compareceu'", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn arrival(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<SchedulingAttendance>), ApiError> {
    record(&state, &auth, &origin, id, |now| AppointmentCommand::Arrive { now }).await
}

#[utoipa::path(
    post,
    path = "/scheduling/{idScheduling}/no-show",
    tag = "Agenda",
    summary = "'Não compareceu': from the start time on, unless the client arrived or has a comanda (ADMIN, ATTENDANT)",
    params(("idScheduling" = i64, Path)),
    responses(
        (status = 200, description = "Recorded (again: nothing more)", body = SchedulingAttendance),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Cancelled", body = ErrorBody),
        (status = 422, description = "Before its start, the client arrived, or it has a comanda", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn no_show(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<SchedulingAttendance>), ApiError> {
    if claim_holder(&state.pool, COMANDA_OF_APPOINTMENT, &id.to_string()).await?.is_some() {
        touchable(&state, &auth, id).await?;
        return Err(ApiError::Unprocessable(MSG_HAS_COMANDA.to_owned()));
    }
    record(&state, &auth, &origin, id, |now| AppointmentCommand::MarkNoShow { now }).await
}

#[utoipa::path(
    delete,
    path = "/scheduling/{idScheduling}/no-show",
    tag = "Agenda",
    summary = "Undo 'Não compareceu', on the appointment's day; the history keeps both (ADMIN, ATTENDANT)",
    params(("idScheduling" = i64, Path)),
    responses(
        (status = 200, description = "Undone", body = SchedulingAttendance),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Cancelled", body = ErrorBody),
        (status = 422, description = "Not marked, or no longer its day", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn undo_no_show(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<SchedulingAttendance>), ApiError> {
    record(&state, &auth, &origin, id, |now| AppointmentCommand::UndoNoShow { now }).await
}
