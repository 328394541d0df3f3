//! Subscribers' commands: `DELETE subscription-user/{id}` (request cancellation, ADMIN
//! only, refused once cancelled), `POST subscription-user/{id}/reminder` (record that staff
//! reminded the client of a pending payment) and `GET subscription-user/{id}/updateData`
//! (read the provider now and record what is new). The GET is served here, not by query-api, because
//! it writes: the edge routes this one GET to command-api (ADR 0008).
//!
//! Also the reconciliation job: every `NAVALHA_RECONCILE_SECONDS` it reads each
//! subscription still in force from the provider and appends whatever the webhooks missed.

use axum::extract::State;
use axum::http::HeaderMap;
use navalha_domain::metadata::EventMetadata;
use navalha_domain::subscription::{
    ReportSource, Subscription, SubscriptionCommand, SubscriptionError, MSG_NOT_FOUND,
};
use navalha_platform::auth::{AdminOnly, Auth, Principal, SubscriberStaff};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::position::Position;
use navalha_platform::refused;
use navalha_platform::written::IdSubscriptionUser;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::galaxpay::provider_now;
use super::plans::plan_in_reach;
use crate::commands::system_metadata;
use crate::commands::{execute, load, metadata_of, position_headers, DomainError};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(cancel)).routes(routes!(update_data)).routes(routes!(reminder))
}

async fn existing(state: &AppState, business_id: i64, id: i64) -> Result<Subscription, ApiError> {
    let subscription: Subscription = load(&state.events, business_id, &id.to_string()).await?;
    if subscription.details().is_none() {
        return Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned()));
    }
    Ok(subscription)
}

/// The subscription, when staff reach its plan; 404 otherwise.
async fn in_reach(state: &AppState, principal: &Principal, id: i64) -> Result<Subscription, ApiError> {
    let subscription = existing(state, principal.business_id, id).await?;
    let plan_id = subscription.details().map(|d| d.plan_id).unwrap_or_default();
    plan_in_reach(state, principal, plan_id)
        .await
        .map_err(|_| ApiError::NotFound(MSG_NOT_FOUND.to_owned()))?;
    Ok(subscription)
}

/// Reads the provider and records what it says that is not known yet.
pub async fn refresh(
    state: &AppState,
    id: i64,
    subscription: &Subscription,
    source: ReportSource,
    metadata: &EventMetadata,
) -> Result<Option<Position>, ApiError> {
    let galax_pay_id = subscription.details().map(|d| d.galax_pay_id).unwrap_or_default();
    let Some(remote) = state.galaxpay.subscription(galax_pay_id).await? else {
        tracing::warn!(subscription_id = id, galax_pay_id, "the provider does not know this subscription");
        return Ok(None);
    };
    execute::<Subscription>(
        &state.events,
        &id.to_string(),
        SubscriptionCommand::Reconcile { source, report: remote.report(provider_now()) },
        metadata,
    )
    .await
}

/// Cancels at the provider, records who asked (`metadata`), then records the provider's own
/// answer (status canceled, charges cancelled) right away.
pub async fn cancel_everywhere(
    state: &AppState,
    id: i64,
    subscription: &Subscription,
    metadata: &EventMetadata,
    origin: &RequestOrigin,
) -> Result<Option<Position>, ApiError> {
    let galax_pay_id = subscription.details().map(|d| d.galax_pay_id).unwrap_or_default();
    state.galaxpay.cancel_subscription(galax_pay_id).await?;
    let mut position = execute::<Subscription>(
        &state.events,
        &id.to_string(),
        SubscriptionCommand::RequestCancellation,
        metadata,
    )
    .await?;
    let subscription = existing(state, metadata.business_id, id).await?;
    let confirmation =
        system_metadata("Confirmação do cancelamento pelo provedor", metadata.business_id, origin);
    match refresh(state, id, &subscription, ReportSource::Cancellation, &confirmation).await {
        Ok(after) => position = after.or(position),
        Err(error) => tracing::warn!(%error, "reading the provider after cancelling failed"),
    }
    Ok(position)
}

#[utoipa::path(
    delete,
    path = "/subscription-user/{id}",
    tag = "Club",
    summary = "Request cancellation at the provider (ADMIN); refused once cancelled",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 200, description = "{IdSubscriptionUser}", body = IdSubscriptionUser, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdSubscriptionUser": 1 })),
        refused::Forbidden,
        (status = 404, description = "Unknown subscription", body = ErrorBody),
        (status = 409, description = "Already cancelled", body = ErrorBody),
        (status = 503, description = "The payment provider could not be reached", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, subscription_id = id))]
async fn cancel(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<IdSubscriptionUser>), ApiError> {
    let subscription = in_reach(&state, &auth, id).await?;
    if subscription.contract_status() == navalha_domain::subscription::ContractStatus::Canceled {
        return Err(SubscriptionError::AlreadyCanceled.to_api());
    }
    let position =
        cancel_everywhere(&state, id, &subscription, &metadata_of(&auth, &origin), &origin).await?;
    tracing::info!("cancellation requested");
    Ok((position_headers(position), Json(IdSubscriptionUser { id_subscription_user: id })))
}

/// The WhatsApp charge reminder opens a chat in the staff member's browser; this records
/// that it was sent, so the subscription's history shows who reminded the client and when.
#[utoipa::path(
    post,
    path = "/subscription-user/{id}/reminder",
    tag = "Club",
    summary = "Record that a WhatsApp charge reminder was sent (ADMIN, ATTENDANT, DEFAULT, BARBER_LEADER)",
    description = "The reminder itself opens a chat in the staff member's browser; this appends it to the subscription's history.",
    params(
        ("id" = i64, Path, description = "IdSubscriptionUser"),
    ),
    responses(
        (status = 200, description = "Recorded", body = IdSubscriptionUser, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdSubscriptionUser": 1 })),
        refused::Forbidden,
        (status = 404, description = "Unknown subscription, or outside the user's units", body = ErrorBody),
        (status = 409, description = "Nothing to remind of: no pending payment", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, subscription_id = id))]
async fn reminder(
    State(state): State<AppState>,
    auth: Auth<SubscriberStaff>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<IdSubscriptionUser>), ApiError> {
    in_reach(&state, &auth, id).await?;
    let position = execute::<Subscription>(
        &state.events,
        &id.to_string(),
        SubscriptionCommand::RecordReminder,
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(IdSubscriptionUser { id_subscription_user: id })))
}

/// A subscription read again from the provider.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct Refreshed {
    id_subscription_user: i64,
    /// Whether the provider reported something new, now recorded.
    changed: bool,
}

#[utoipa::path(
    get,
    path = "/subscription-user/{id}/updateData",
    tag = "Club",
    summary = "Read the provider now and record what is new (ADMIN, ATTENDANT, DEFAULT, BARBER_LEADE). A GET that writes: the edge routes it to command-api (ADR 0008)",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 200, description = "Whether the provider had news", body = Refreshed, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Forbidden,
        (status = 404, description = "Unknown subscription", body = ErrorBody),
        (status = 503, description = "The payment provider could not be reached", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, subscription_id = id))]
async fn update_data(
    State(state): State<AppState>,
    auth: Auth<SubscriberStaff>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Refreshed>), ApiError> {
    let subscription = in_reach(&state, &auth, id).await?;
    let before = crate::commands::stream_position(&state.pool, "SubscriptionUser", &id.to_string()).await?;
    let position =
        refresh(&state, id, &subscription, ReportSource::OnDemand, &metadata_of(&auth, &origin)).await?;
    let changed = position.is_some() && position != before;
    Ok((position_headers(position), Json(Refreshed { id_subscription_user: id, changed })))
}

/// One pass of reconciliation over every subscription still in force; answers how many
/// subscriptions got new events.
pub async fn reconcile_all(state: &AppState) -> anyhow::Result<usize> {
    let ids: Vec<(String, i64)> = sqlx::query_as(
        "select aggregate_id, business_id from aggregate_business
          where aggregate_type = 'SubscriptionUser' order by aggregate_id::bigint",
    )
    .fetch_all(&state.pool)
    .await?;
    let mut changed = 0;
    for (id, business_id) in ids {
        let Ok(number) = id.parse::<i64>() else { continue };
        let metadata = EventMetadata::system("Reconciliação com o provedor", business_id);
        let subscription: Subscription =
            load(&state.events, business_id, &id).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        // A cancelled subscription the provider has ended cannot change any more.
        let ended = subscription.status().is_some_and(|s| s.is_ended());
        if subscription.details().is_none() || (ended && subscription.to_receive_cents() == 0) {
            continue;
        }
        let before = crate::commands::stream_position(&state.pool, "SubscriptionUser", &id).await;
        match refresh(state, number, &subscription, ReportSource::Reconciliation, &metadata).await {
            Ok(after) if after.is_some() && before.as_ref().ok() != Some(&after) => changed += 1,
            Ok(_) => {}
            Err(error) => tracing::warn!(subscription_id = number, %error, "reconciliation failed"),
        }
    }
    Ok(changed)
}

/// Runs [`reconcile_all`] every `NAVALHA_RECONCILE_SECONDS` (0: never).
pub fn spawn_reconciliation(state: AppState) {
    crate::jobs::spawn_every(state.settings.reconcile_seconds, move || {
        let state = state.clone();
        async move {
            match reconcile_all(&state).await {
                Ok(changed) => tracing::info!(changed, "reconciliation with the provider done"),
                Err(error) => tracing::warn!(%error, "reconciliation with the provider failed"),
            }
        }
    });
}
