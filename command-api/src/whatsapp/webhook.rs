//! The Cloud API's webhook (docs/messages.md, "Webhooks"):
//!
//! - `GET no-auth/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`:
//!   the subscription handshake, answering the challenge for the configured verify token
//!   and 403 otherwise;
//! - `POST no-auth/whatsapp/webhook`: `{object: "whatsapp_business_account", entry: [{changes:
//!   [{field: "messages", value: {statuses, messages}}]}]}`, signed with the app secret in
//!   `X-Hub-Signature-256`; unsigned or badly signed deliveries get 401 and change nothing.
//!
//! A delivery report names its message by `biz_opaque_callback_data` (the key Navalha sent);
//! a button reply by its payload (`CONFIRMAR:<key>`). Each is recorded on its message once,
//! so a replayed delivery changes nothing. Reports of messages Navalha does not know (sent
//! from Meta's own tools) are acknowledged and left, as Meta retries anything but a 200.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use navalha_domain::message::{DeliveryStatus, Message, MessageCommand};
use navalha_domain::Aggregate as _;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::signature::hub_signature_matches;
use navalha_platform::{refused, ApiError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{business_of, execute_on, load_stream, system_metadata};
use crate::state::AppState;

/// The header Meta signs deliveries with.
pub const SIGNATURE_HEADER: &str = "x-hub-signature-256";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(handshake, deliver))
}

/// The subscription handshake's query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Handshake {
    /// `subscribe`.
    #[serde(rename = "hub.mode")]
    #[param(rename = "hub.mode")]
    mode: Option<String>,
    /// The verify token configured at Meta.
    #[serde(rename = "hub.verify_token")]
    #[param(rename = "hub.verify_token")]
    verify_token: Option<String>,
    /// What to answer.
    #[serde(rename = "hub.challenge")]
    #[param(rename = "hub.challenge")]
    challenge: Option<String>,
}

#[utoipa::path(
    get,
    path = "/no-auth/whatsapp/webhook",
    tag = "Messages",
    summary = "Meta's webhook subscription handshake: the challenge echoed for the configured verify token",
    params(Handshake),
    responses(
        (status = 200, description = "The challenge, as text", body = String, content_type = "text/plain"),
        (status = 403, description = "Not the configured verify token", body = ErrorBody),
    ),
)]
async fn handshake(State(state): State<AppState>, Query(query): Query<Handshake>) -> Response {
    let expected = state.settings.whatsapp_verify_token.expose();
    let token = query.verify_token.unwrap_or_default();
    let same = !expected.is_empty()
        && token.len() == expected.len()
        && token.bytes().zip(expected.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0;
    match (query.mode.as_deref(), query.challenge) {
        (Some("subscribe"), Some(challenge)) if same => (StatusCode::OK, challenge).into_response(),
        _ => {
            tracing::warn!("WhatsApp webhook handshake with a wrong verify token refused");
            ApiError::Forbidden.into_response()
        }
    }
}

/// What a delivery was.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct WhatsAppReceived {
    /// Always true once the signature held.
    received: bool,
    /// Reports and replies recorded now (a replay records none).
    recorded: usize,
}

#[utoipa::path(
    post,
    path = "/no-auth/whatsapp/webhook",
    tag = "Messages",
    summary = "Meta's webhook: delivery reports and button replies, signed with the app secret (X-Hub-Signature-256)",
    request_body(content = Object, description = "Meta's notification: {object, entry: [{id, changes: [{field, value}]}]}"),
    responses(
        (status = 200, description = "Received", body = WhatsAppReceived),
        (status = 400, description = "Not JSON", body = ErrorBody),
        (status = 401, description = "Unsigned or badly signed", body = ErrorBody),
        refused::Invalid,
    ),
)]
#[tracing::instrument(skip_all)]
async fn deliver(
    State(state): State<AppState>,
    origin: RequestOrigin,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<WhatsAppReceived>, ApiError> {
    let signature = headers.get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !hub_signature_matches(state.settings.whatsapp_app_secret.expose().as_bytes(), &body, signature) {
        tracing::warn!("WhatsApp webhook without a valid signature refused");
        return Err(ApiError::Unauthorized);
    }
    let hook: Value = serde_json::from_slice(&body)
        .map_err(|_| ApiError::BadRequest("Notificação inválida.".to_owned()))?;
    let mut recorded = 0;
    for (key, command) in commands(&hook) {
        let reply = match &command {
            MessageCommand::RecordReply { provider_id, payload, .. } => {
                Some((provider_id.clone(), payload.clone()))
            }
            _ => None,
        };
        let Some(business_id) = business_of(&state.pool, Message::TYPE, &key).await? else {
            tracing::info!(key, "a WhatsApp report of a message Navalha does not know, left");
            continue;
        };
        let metadata = system_metadata("Notificação do WhatsApp", business_id, &origin);
        let read = load_stream::<Message>(&state.events, business_id, &key).await?;
        let before = read.sequence;
        if execute_on::<Message>(&state.events, &key, read, command, &metadata).await?.sequence > before {
            recorded += 1;
            // A reply recorded now acts once; a replay of it was not recorded, so does not.
            if let Some((reply_id, payload)) = reply {
                super::replies::act(&state, business_id, &key, &reply_id, &payload, &origin).await?;
            }
        }
    }
    Ok(Json(WhatsAppReceived { received: true, recorded }))
}

/// The message each report or reply is about, and what to record on it.
pub fn commands(hook: &Value) -> Vec<(String, MessageCommand)> {
    let mut found = Vec::new();
    let values = hook["entry"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|entry| entry["changes"].as_array().into_iter().flatten())
        .filter(|change| change["field"] == "messages")
        .map(|change| &change["value"]);
    for value in values {
        for status in value["statuses"].as_array().into_iter().flatten() {
            let key = status["biz_opaque_callback_data"].as_str();
            let report = DeliveryStatus::parse(status["status"].as_str().unwrap_or_default());
            if let (Some(key), Some(status_now)) = (key, report) {
                let error = status["errors"][0]["code"].as_i64().map(|code| {
                    format!("{code}: {}", status["errors"][0]["title"].as_str().unwrap_or_default())
                });
                let at = timestamp(&status["timestamp"]);
                found
                    .push((key.to_owned(), MessageCommand::ReportDelivery { status: status_now, at, error }));
            }
        }
        for message in value["messages"].as_array().into_iter().flatten() {
            let payload = message["button"]["payload"].as_str().unwrap_or_default();
            let key = payload.split_once(':').map(|(_, key)| key);
            if let (Some(key), Some(provider_id)) = (key, message["id"].as_str()) {
                found.push((
                    key.to_owned(),
                    MessageCommand::RecordReply {
                        provider_id: provider_id.to_owned(),
                        payload: payload.to_owned(),
                        at: timestamp(&message["timestamp"]),
                    },
                ));
            }
        }
    }
    found
}

/// Meta's timestamps: Unix seconds, as text.
fn timestamp(value: &Value) -> DateTime<Utc> {
    value
        .as_str()
        .and_then(|text| text.parse::<i64>().ok())
        .or_else(|| value.as_i64())
        .and_then(|seconds| DateTime::from_timestamp(seconds, 0))
        .unwrap_or_else(navalha_platform::clock::now)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reports_and_button_replies_name_their_messages() {
        let hook = json!({
            "object": "whatsapp_business_account",
            "entry": [{"id": "102290129340398", "changes": [{"field": "messages", "value": {
                "messaging_product": "whatsapp",
                "metadata": {"display_phone_number": "15550783881", "phone_number_id": "106540352242922"},
                "statuses": [
                    {"id": "wamid.A", "status": "delivered", "timestamp": "1764590400",
                     "recipient_id": "5511987654321", "biz_opaque_callback_data": "a812-r24"},
                    {"id": "wamid.B", "status": "failed", "timestamp": "1764590401",
                     "recipient_id": "5511987659999", "biz_opaque_callback_data": "a813-r24",
                     "errors": [{"code": 131026, "title": "Message undeliverable"}]},
                    {"id": "wamid.C", "status": "deleted", "timestamp": "1764590402"}
                ],
                "messages": [
                    {"from": "5511987654321", "id": "wamid.R", "timestamp": "1764590500", "type": "button",
                     "context": {"from": "15550783881", "id": "wamid.A"},
                     "button": {"payload": "CONFIRMAR:a812-r24", "text": "Confirmar"}},
                    {"from": "5511987654321", "id": "wamid.T", "timestamp": "1764590501", "type": "text",
                     "text": {"body": "obrigado"}}
                ]
            }}]}]
        });
        let found = commands(&hook);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0].0, "a812-r24");
        assert!(matches!(
            found[0].1,
            MessageCommand::ReportDelivery { status: DeliveryStatus::Delivered, .. }
        ));
        assert!(matches!(
            &found[1].1,
            MessageCommand::ReportDelivery { status: DeliveryStatus::Failed, error: Some(e), .. } if e == "131026: Message undeliverable"
        ));
        assert_eq!(found[2].0, "a812-r24");
        assert!(
            matches!(&found[2].1, MessageCommand::RecordReply { payload, .. } if payload == "CONFIRMAR:a812-r24")
        );
        assert_eq!(timestamp(&json!("1764590400")).to_rfc3339(), "2025-12-01T12:00:00+00:00");
    }
}
