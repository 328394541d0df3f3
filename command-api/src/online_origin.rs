//! Staff's answer to a flood of online bookings (issue 39, docs/online-booking.md
//! 'Newcomers'): from one online booking, cancel every future online booking made with the
//! same e-mail, the same mobile or from the same address range, in the units the staff
//! member belongs to. Each cancellation is an event of its own, by the staff member, with
//! the reason in its metadata (the history shows it), and each client is e-mailed.

use axum::extract::State;
use axum::http::HeaderMap;
use navalha_domain::appointment::{Appointment, AppointmentCommand};
use navalha_platform::auth::{AdminOrAttendant, Auth};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::ApiError;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{execute, metadata_of, position_headers};
use crate::read_models::{self, Swept};
use crate::scheduling::touchable;
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(cancel_online_origin))
}

/// What the bookings to cancel share with the one the staff member opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Origin {
    /// The client's e-mail.
    Email,
    /// The client's mobile.
    Phone,
    /// The address range the booking was made from (IPv4 whole, IPv6 by /64).
    Address,
}

impl Origin {
    /// The reason the cancellations record, as the history shows it.
    fn reason(self) -> &'static str {
        match self {
            Origin::Email => "agendamentos online do mesmo e-mail cancelados pela barbearia",
            Origin::Phone => "agendamentos online do mesmo celular cancelados pela barbearia",
            Origin::Address => "agendamentos online da mesma conexão cancelados pela barbearia",
        }
    }
}

/// `POST scheduling/{idScheduling}/cancel-online-origin`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
struct OriginBody {
    /// `EMAIL`, `PHONE` or `ADDRESS`.
    by: Option<Origin>,
}

/// The online bookings of one origin, cancelled.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct OriginSwept {
    /// How many.
    cancelled: usize,
    id_schedulings: Vec<i64>,
}

#[utoipa::path(
    post,
    path = "/scheduling/{idScheduling}/cancel-online-origin",
    tag = "Online booking",
    summary = "From an online booking, cancel every future online booking of the same e-mail, mobile or address in the caller's units (ADMIN, ATTENDANT); each client is e-mailed",
    params(("idScheduling" = i64, Path)),
    request_body = OriginBody,
    responses(
        (status = 200, description = "The appointments cancelled", body = OriginSwept, headers(("X-Navalha-Position" = String, description = "The position of the last event appended"))),
        (status = 403, description = "Not ADMIN or ATTENDANT", body = ErrorBody),
        (status = 404, description = "Unknown appointment, or another unit's", body = ErrorBody),
        (status = 422, description = "`by` missing, or the appointment was not booked online", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, appointment_id = id))]
async fn cancel_online_origin(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<OriginBody>,
) -> Result<(HeaderMap, Json<OriginSwept>), ApiError> {
    let appointment = touchable(&state, &auth, id).await?;
    let Some(by) = body.by else {
        return Err(ApiError::field("by", "Escolha e-mail, celular ou conexão"));
    };
    let booking = appointment
        .booking()
        .filter(|booking| booking.online)
        .ok_or_else(|| ApiError::Unprocessable("Este agendamento não foi feito online.".to_owned()))?;
    let by_name = match by {
        Origin::Email => "EMAIL",
        Origin::Phone => "PHONE",
        Origin::Address => "ADDRESS",
    };
    let swept = read_models::online_bookings_sharing(
        &state.pool,
        id,
        booking.client_id,
        auth.business_id,
        &auth.companies,
        by_name,
    )
    .await?;
    let metadata = metadata_of(&auth, &origin).with("reason", by.reason().to_owned());
    let (mut cancelled, mut position) = (Vec::new(), None);
    for booking in &swept {
        // One cancelled meanwhile (by its client, or a colleague's sweep) is left as it is.
        match execute::<Appointment>(
            &state.events,
            &booking.appointment_id,
            AppointmentCommand::Cancel,
            &metadata,
        )
        .await
        {
            Ok(appended) => {
                position = appended.or(position);
                cancelled.push(booking.appointment_id.parse::<i64>().unwrap_or_default());
                tell_client(&state, booking);
            }
            Err(ApiError::Conflict(_)) => {}
            Err(error) => return Err(error),
        }
    }
    tracing::info!(by = by_name, cancelled = cancelled.len(), "online bookings of one origin cancelled");
    Ok((
        position_headers(position),
        Json(OriginSwept { cancelled: cancelled.len(), id_schedulings: cancelled }),
    ))
}

/// E-mails the client of a swept booking, after the answer.
fn tell_client(state: &AppState, booking: &Swept) {
    let Some(to) = booking.email.clone().filter(|email| !email.is_empty()) else { return };
    let text = format!(
        "Olá!\n\nSeu agendamento de {} às {} em {} foi cancelado pela barbearia.\n\
         Para agendar de novo, fale com a barbearia.\n",
        booking.starts.format("%d/%m/%Y"),
        booking.starts.format("%H:%M"),
        booking.unit,
    );
    let mailer = state.mailer.clone();
    tokio::spawn(async move {
        if let Err(error) = mailer.send(&to, "Navalha: agendamento cancelado", &text).await {
            tracing::warn!(%error, "cancellation e-mail failed");
        }
    });
}
