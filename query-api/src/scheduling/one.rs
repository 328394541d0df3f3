//! One appointment: `GET scheduling/{id}` for the edit form and `GET scheduling/{id}/history`
//! for the audit.

use axum::extract::State;
use axum::http::HeaderMap;
use navalha_platform::auth::{AdminOnly, Auth};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam};
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde_json::{json, Value};

use crate::consistency::ReadAfter;
use crate::history::{history, HistoryEntry};
use crate::scope;
use crate::AppState;

use super::{day_item, visible, MSG_NOT_FOUND};

/// `GET scheduling/{id}`: the appointment as the edit form reads it (spec 01 §3
/// 'Appointment (scheduling), read for editing'), plus what the card shows.
#[utoipa::path(
    get,
    path = "/scheduling/{idScheduling}",
    tag = "Agenda",
    summary = "An appointment for the edit form",
    params(
        ("idScheduling" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "IdScheduling, IdCompanyProfessional, CompanyProfessional{Professional{IdProfessional}, Company{IdCompany}}, Date, StartTime, EndTime, SchedulingServices[{IdService}], IdUser, Observation, Status, Confirmation", body = Object),
        (status = 403, description = "A colleague's appointment", body = ErrorBody),
        (status = 404, description = "Unknown, or another unit's", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
pub(super) async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::AGENDA).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let row = visible(&mut tx, &auth, id).await?;
    let (company_id, services) = (row.company_id, row.services.0.clone());
    // The edit form shows no subscription.
    let item = day_item(row, Vec::new());
    let body = json!({
        "IdScheduling": item.id_scheduling,
        "IdCompanyProfessional": item.id_company_professional,
        "CompanyProfessional": {
            "IdCompanyProfessional": item.id_company_professional,
            "Professional": {
                "IdProfessional": item.id_professional,
                "Name": item.professional_name,
                "Color": item.professional_color,
            },
            "Company": { "IdCompany": company_id },
        },
        "Date": item.date,
        "StartTime": item.start_time,
        "EndTime": item.end_time,
        "SchedulingServices": services.iter().map(|s| json!({
            "IdService": s.service_id,
            "Description": s.description,
            "Time": s.minutes,
            "Value": s.cents as f64 / 100.0,
        })).collect::<Vec<_>>(),
        "IdUser": item.id_user,
        "UserName": item.user_name,
        "UserPhone": item.user_phone,
        "UserWhatsApp": item.user_whatsapp,
        "Observation": item.observation,
        "Status": item.status,
        "Confirmation": item.confirmation,
        "TimesType": item.times_type,
    });
    Ok((consistency.headers(), Json(body)))
}

/// `GET scheduling/{id}/history`: every event of the appointment, in order, with who did
/// it and which fields changed from what to what. ADMIN only (403 for everyone else).
#[utoipa::path(
    get,
    path = "/scheduling/{idScheduling}/history",
    tag = "Agenda",
    summary = "Every event of the appointment with who, when and which fields changed (ADMIN)",
    params(
        ("idScheduling" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "In order", body = Vec<HistoryEntry>),
        (status = 403, description = "Not ADMIN", body = ErrorBody),
        (status = 404, description = "Unknown appointment", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
pub(super) async fn audit(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    // The unit comes from the agenda's model: wait for the caller's last write to reach it.
    read_after.wait(&state.watch, &read_models::AGENDA).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    visible(&mut tx, &auth, id).await?;
    history(&mut tx, "Appointment", id, MSG_NOT_FOUND).await
}
