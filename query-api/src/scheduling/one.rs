//! One appointment: `GET scheduling/{id}` for the edit form and `GET scheduling/{id}/history`
//! for the audit.

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::NaiveDate;
use navalha_platform::auth::{AdminOnly, Auth};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam};
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use utoipa::ToSchema;

use crate::consistency::ReadAfter;
use crate::history::{history, HistoryEntry};
use crate::scope;
use crate::AppState;

use super::{day_item, visible, MSG_NOT_FOUND};

/// An appointment as the edit form reads it (spec 01 §3 'Appointment (scheduling), read
/// for editing'), plus what the card shows.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct EditedAppointment {
    id_scheduling: i64,
    id_company_professional: i64,
    company_professional: CompanyProfessional,
    date: NaiveDate,
    /// HH:MM.
    start_time: String,
    /// HH:MM.
    end_time: String,
    scheduling_services: Vec<SchedulingService>,
    id_user: i64,
    user_name: String,
    user_phone: String,
    #[serde(rename = "UserWhatsApp")]
    user_whats_app: bool,
    observation: String,
    /// False once cancelled.
    status: bool,
    confirmation: bool,
    times_type: String,
}

/// The professional and unit of an appointment.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CompanyProfessional {
    id_company_professional: i64,
    professional: ProfessionalShown,
    company: CompanyRef,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ProfessionalShown {
    id_professional: i64,
    name: String,
    color: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CompanyRef {
    id_company: i64,
}

/// A booked service, at its booked price.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
struct SchedulingService {
    id_service: i64,
    description: String,
    /// Minutes.
    time: i64,
    /// Reais.
    value: f64,
}

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
        (status = 200, description = "The appointment", body = EditedAppointment),
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
) -> Result<(HeaderMap, Json<EditedAppointment>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::AGENDA).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let row = visible(&mut tx, &auth, id).await?;
    let (company_id, services) = (row.company_id, row.services.0.clone());
    // The edit form shows no subscription.
    let item = day_item(row, Vec::new());
    let body = EditedAppointment {
        id_scheduling: item.id_scheduling,
        id_company_professional: item.id_company_professional,
        company_professional: CompanyProfessional {
            id_company_professional: item.id_company_professional,
            professional: ProfessionalShown {
                id_professional: item.id_professional,
                name: item.professional_name,
                color: item.professional_color,
            },
            company: CompanyRef { id_company: company_id },
        },
        date: item.date,
        start_time: item.start_time,
        end_time: item.end_time,
        scheduling_services: services
            .iter()
            .map(|s| SchedulingService {
                id_service: s.service_id,
                description: s.description.clone(),
                time: s.minutes,
                value: s.cents as f64 / 100.0,
            })
            .collect(),
        id_user: item.id_user,
        user_name: item.user_name,
        user_phone: item.user_phone,
        user_whats_app: item.user_whatsapp,
        observation: item.observation,
        status: item.status,
        confirmation: item.confirmation,
        times_type: item.times_type,
    };
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
