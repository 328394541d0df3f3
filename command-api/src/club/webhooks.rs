//! `POST galaxpay/webhook`: the payment provider's webhooks (`transaction.updateStatus`,
//! `subscription.addTransaction`). Public: the provider authenticates with `confirmHash`,
//! the confirmation hash configured in its panel (`NAVALHA_GALAXPAY_WEBHOOK_HASH`).
//!
//! Order of checks, so that a refused webhook stores nothing:
//! 1. the body is JSON with a `webhookId` (else 400);
//! 2. `confirmHash` matches, compared in constant time (else 401);
//! 3. a `webhookId` seen before must come with the same event: the same id with other
//!    content is a replayed confirmation and is refused (401, like a wrong hash). Compared
//!    parsed, with keys in order, so a delivery re-serialized on the way is still a repeat;
//! 4. the subscription (`Subscription.myId`) exists (else 404); or, for a Pix at a
//!    comanda's counter (`Charge.myId` = `comanda-…`, `crate::pix`), the comanda and its
//!    charge do, and the provider's own read of the charge settles it.
//!
//! Then the webhook becomes a `ProviderReported` event on the subscription's stream; the
//! aggregate ignores a webhook id it already has, so a repeated delivery changes nothing.
//! Its times are clamped to its arrival plus [`WEBHOOK_CLOCK_SKEW_MINUTES`], and any read of
//! the provider wins over it (issue 39; docs/club.md 'What a forged webhook can do').

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use navalha_domain::subscription::{
    ProviderReport, Subscription, SubscriptionCommand, SubscriptionStatus, WEBHOOK_CLOCK_SKEW_MINUTES,
};
use navalha_domain::Aggregate as _;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::ApiError;
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::galaxpay::{date_time, provider_now, transaction};
use crate::commands::system_metadata;
use crate::commands::{business_of, execute, load, position_headers};
use crate::state::AppState;

/// The events the club handles.
pub const EVENTS: [&str; 2] = ["transaction.updateStatus", "subscription.addTransaction"];

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(receive))
}

/// Equal in constant time (for the lengths given).
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The event as data: JSON with every object's keys in order and no spacing, so two
/// deliveries of one event compare equal however they were serialized.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .into_iter()
                .map(|key| format!("{}:{}", Value::from(key.as_str()), canonical(&fields[key])))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

fn id_of(value: &Value) -> Option<i64> {
    value.as_i64().or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
}

/// What the provider expects back from a webhook it delivered.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
struct Received {
    received: bool,
}

#[utoipa::path(
    post,
    path = "/galaxpay/webhook",
    tag = "Club",
    summary = "The payment provider's webhooks (transaction.updateStatus, subscription.addTransaction), authenticated by confirmHash; a repeated webhookId changes nothing",
    request_body(content = Object, content_type = "application/json", description = "The provider's event: `{event, webhookId, confirmHash, Transaction?, Subscription?}`; `webhookId` and `confirmHash` are required, and the hash must be the one configured (401 otherwise)"),
    responses(
        (status = 200, description = "Received", body = Received),
        (status = 400, description = "Not JSON, or no webhookId", body = ErrorBody),
        (status = 401, description = "Wrong, missing or replayed confirmHash: nothing stored", body = ErrorBody),
        (status = 404, description = "Unknown subscription", body = ErrorBody),
        refused::Invalid,
    ),
)]
#[tracing::instrument(skip_all, fields(webhook_id))]
async fn receive(
    State(state): State<AppState>,
    origin: RequestOrigin,
    body: Bytes,
) -> Result<(HeaderMap, Json<Received>), ApiError> {
    let hook: Value =
        serde_json::from_slice(&body).map_err(|_| ApiError::BadRequest("Webhook inválido.".to_owned()))?;
    let webhook_id =
        id_of(&hook["webhookId"]).ok_or_else(|| ApiError::BadRequest("Webhook sem webhookId.".to_owned()))?;
    tracing::Span::current().record("webhook_id", webhook_id);
    let expected = state.settings.galaxpay_webhook_hash.expose().as_bytes();
    let sent = hook["confirmHash"].as_str().unwrap_or_default().as_bytes();
    if expected.is_empty() || !same(expected, sent) {
        tracing::warn!("webhook with a wrong or missing confirmation hash refused");
        return Err(ApiError::Unauthorized);
    }
    let digest = Sha256::digest(canonical(&hook).as_bytes()).to_vec();
    let seen: Option<Vec<u8>> =
        sqlx::query_scalar("select body_sha256 from provider_webhook where webhook_id = $1")
            .bind(webhook_id)
            .fetch_optional(&state.pool)
            .await?;
    // Deliveries remembered before issue 39 kept the digest of their bytes.
    let as_sent = Sha256::digest(&body).to_vec();
    if seen.as_ref().is_some_and(|seen| *seen != digest && *seen != as_sent) {
        tracing::warn!("webhook id reused with another body refused");
        return Err(ApiError::Unauthorized);
    }
    let event = hook["event"].as_str().unwrap_or_default().to_owned();
    if !EVENTS.contains(&event.as_str()) {
        tracing::info!(event, "webhook event not used by the club");
        return Ok((HeaderMap::new(), Json(Received { received: true })));
    }
    // A Pix at a comanda's counter (issue 41), or the club's.
    let metadata =
        |business_id| system_metadata(&format!("Webhook {event} #{webhook_id}"), business_id, &origin);
    if let Some(position) = crate::pix::settle_from_webhook(&state, &hook, metadata).await? {
        remember(&state, webhook_id, &digest).await?;
        return Ok((position_headers(position), Json(Received { received: true })));
    }
    let subscription_id = id_of(&hook["Subscription"]["myId"])
        .or_else(|| id_of(&hook["Transaction"]["subscriptionMyId"]))
        .ok_or_else(|| ApiError::NotFound(navalha_domain::subscription::MSG_NOT_FOUND.to_owned()))?;
    let not_found = || ApiError::NotFound(navalha_domain::subscription::MSG_NOT_FOUND.to_owned());
    let business_id = business_of(&state.pool, Subscription::TYPE, &subscription_id.to_string())
        .await?
        .ok_or_else(not_found)?;
    let subscription: Subscription = load(&state.events, business_id, &subscription_id.to_string()).await?;
    if subscription.details().is_none() {
        return Err(not_found());
    }
    let charge = transaction(&hook["Transaction"]);
    let arrival = provider_now();
    let report = ProviderReport {
        observed_at: date_time(&hook["Transaction"]["statusDate"]).unwrap_or(arrival),
        subscription_status: hook["Subscription"]["status"]
            .as_str()
            .map(|s| SubscriptionStatus::from(s.to_owned())),
        transactions: charge.into_iter().collect(),
    }
    .no_later_than(arrival + chrono::Duration::minutes(WEBHOOK_CLOCK_SKEW_MINUTES));
    let position = execute::<Subscription>(
        &state.events,
        &subscription_id.to_string(),
        SubscriptionCommand::RecordWebhook { webhook_id, event: event.clone(), report },
        &metadata(business_id),
    )
    .await?;
    remember(&state, webhook_id, &digest).await?;
    Ok((position_headers(position), Json(Received { received: true })))
}

/// Keeps a delivered webhook's id and digest, so a replay with another body is refused.
async fn remember(state: &AppState, webhook_id: i64, digest: &[u8]) -> Result<(), ApiError> {
    sqlx::query(
        "insert into provider_webhook (webhook_id, body_sha256) values ($1, $2) on conflict do nothing",
    )
    .bind(webhook_id)
    .bind(digest)
    .execute(&state.pool)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_event_serialized_two_ways_is_one_event() {
        let a: serde_json::Value = serde_json::from_str(
            r#"{"webhookId": 7, "Transaction": {"status": "payedBoleto", "value": 8990}}"#,
        )
        .unwrap_or_default();
        let b: serde_json::Value =
            serde_json::from_str(r#"{ "Transaction":{"value":8990,"status":"payedBoleto"},"webhookId":7 }"#)
                .unwrap_or_default();
        assert_eq!(super::canonical(&a), super::canonical(&b));
        let c: serde_json::Value = serde_json::from_str(
            r#"{"webhookId": 7, "Transaction": {"status": "chargeback", "value": 8990}}"#,
        )
        .unwrap_or_default();
        assert_ne!(super::canonical(&a), super::canonical(&c));
    }

    #[test]
    fn hashes_compare_whole() {
        assert!(super::same(b"abc", b"abc"));
        assert!(!super::same(b"abc", b"abd"));
        assert!(!super::same(b"abc", b"abcd"));
        assert!(!super::same(b"", b"a"));
    }
}
