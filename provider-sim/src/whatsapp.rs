//! A twin of Meta's WhatsApp Cloud API as Navalha uses it (docs/messages.md):
//!
//! - `POST /whatsapp/{version}/{phone-number-id}/messages` with the system user's bearer
//!   token: a template message; answers `{messaging_product, contacts, messages: [{id}]}`,
//!   then reports `sent` and `delivered` to the webhook (or `failed`, error 131026, for a
//!   number ending in `0000`); a number ending in `5000` gets a 503, as an outage would;
//! - webhooks POSTed to the configured address, signed with the app secret in
//!   `X-Hub-Signature-256` as Meta signs them.
//!
//! Controls under `/sim/whatsapp` (not Meta's): the messages sent (what a client would have
//! on their phone), `…/{id}/read`, `…/{id}/press` (the client presses a quick-reply button),
//! the webhooks sent and `…/webhooks/{n}/resend` (a replay), and `…/delay` `{"ms": n}`: the
//! twin takes each message at once (it is on the phone) and answers the send n ms later, as
//! a slow provider would.
//!
//! A delivery report the webhook does not take (no answer, or not 2xx) is sent again every
//! half second for a minute, as Meta keeps trying "with decreasing frequency until the
//! request succeeds, for up to 7 days" (docs/messages.md, 'Webhooks').

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use navalha_platform::signature::hub_signature;
use serde_json::{json, Value};

use crate::Simulator;

/// The phone number the twin sends from.
pub const DISPLAY_PHONE_NUMBER: &str = "5511900000000";

/// The twin's routes.
pub fn router() -> Router<Simulator> {
    Router::new()
        .route("/whatsapp/{version}/{phone_number_id}/messages", post(send))
        .route("/sim/whatsapp/messages", get(messages))
        .route("/sim/whatsapp/messages/{id}/read", post(read))
        .route("/sim/whatsapp/messages/{id}/press", post(press))
        .route("/sim/whatsapp/webhooks", get(webhooks))
        .route("/sim/whatsapp/webhooks/{n}/resend", post(resend))
        .route("/sim/whatsapp/delay", post(set_delay))
}

/// How many times a report the webhook does not take is sent again, half a second apart.
const REPORT_RETRIES: u32 = 120;

async fn set_delay(State(sim): State<Simulator>, Json(body): Json<Value>) -> Json<Value> {
    let ms = body["ms"].as_u64().unwrap_or(0);
    sim.inner.lock().await.whatsapp_delay_ms = ms;
    Json(json!({ "ms": ms }))
}

fn graph_error(status: StatusCode, code: i64, message: &str) -> Response {
    let body = json!({ "error": { "message": message, "type": "OAuthException", "code": code, "fbtrace_id": "sim" } });
    (status, Json(body)).into_response()
}

fn unix_now() -> String {
    chrono::Utc::now().timestamp().to_string()
}

async fn send(
    State(sim): State<Simulator>,
    Path((_version, phone_number_id)): Path<(String, String)>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let bearer = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if bearer.strip_prefix("Bearer ") != Some(sim.config.whatsapp_token.expose()) {
        return graph_error(StatusCode::UNAUTHORIZED, 190, "Invalid OAuth access token.");
    }
    let to = body["to"].as_str().unwrap_or_default().to_owned();
    let content = match body["type"].as_str() {
        Some("template") => !body["template"]["name"].as_str().unwrap_or_default().is_empty(),
        Some("text") => !body["text"]["body"].as_str().unwrap_or_default().is_empty(),
        _ => false,
    };
    let well_formed = body["messaging_product"] == "whatsapp"
        && (10..=15).contains(&to.len())
        && to.chars().all(|c| c.is_ascii_digit())
        && content;
    if !well_formed {
        return graph_error(StatusCode::BAD_REQUEST, 100, "(#100) Invalid parameter");
    }
    if to.ends_with("5000") {
        return graph_error(StatusCode::SERVICE_UNAVAILABLE, 2, "Service temporarily unavailable");
    }
    let id = {
        let mut inner = sim.inner.lock().await;
        inner.next_id += 1;
        let id = format!("wamid.SIM{}", inner.next_id);
        inner.whatsapp_messages.push(json!({
            "id": id, "phone_number_id": phone_number_id, "to": to, "template": body["template"], "text": body["text"],
            "biz_opaque_callback_data": body["biz_opaque_callback_data"], "statuses": [],
        }));
        id
    };
    let reports: &[&str] = if to.ends_with("0000") { &["failed"] } else { &["sent", "delivered"] };
    let (task_sim, task_id) = (sim.clone(), id.clone());
    tokio::spawn(async move {
        for status in reports {
            for _ in 0..REPORT_RETRIES {
                let taken = report(&task_sim, &task_id, status)
                    .await
                    .is_some_and(|answer| (200..300).contains(&answer));
                if taken || task_sim.config.whatsapp_webhook_url.is_none() {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            }
        }
    });
    let delay = sim.inner.lock().await.whatsapp_delay_ms;
    tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
    Json(json!({
        "messaging_product": "whatsapp",
        "contacts": [{ "input": to, "wa_id": to }],
        "messages": [{ "id": id, "message_status": "accepted" }],
    }))
    .into_response()
}

/// The notification Meta sends: one change of field `messages`.
fn notification(value: Value) -> Value {
    json!({
        "object": "whatsapp_business_account",
        "entry": [{ "id": "sim-waba", "changes": [{ "field": "messages", "value": value }] }],
    })
}

/// Reports `status` of message `id` to the webhook; the webhook's HTTP status.
async fn report(sim: &Simulator, id: &str, status: &str) -> Option<u16> {
    let message = {
        let mut inner = sim.inner.lock().await;
        let message = inner.whatsapp_messages.iter_mut().find(|m| m["id"] == id)?;
        if let Some(list) = message["statuses"].as_array_mut() {
            list.push(json!(status));
        }
        message.clone()
    };
    let mut entry = json!({
        "id": id, "status": status, "timestamp": unix_now(), "recipient_id": message["to"],
        "biz_opaque_callback_data": message["biz_opaque_callback_data"],
    });
    if status == "failed" {
        entry["errors"] = json!([{ "code": 131026, "title": "Message undeliverable" }]);
    }
    deliver(sim, notification(json!({
        "messaging_product": "whatsapp",
        "metadata": { "display_phone_number": DISPLAY_PHONE_NUMBER, "phone_number_id": message["phone_number_id"] },
        "statuses": [entry],
    })))
    .await
}

/// POSTs `body` to the webhook, signed, and keeps it for `/sim/whatsapp/webhooks`.
async fn deliver(sim: &Simulator, body: Value) -> Option<u16> {
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    let signature = hub_signature(sim.config.whatsapp_app_secret.expose().as_bytes(), &bytes);
    let n = {
        let mut inner = sim.inner.lock().await;
        inner.whatsapp_webhooks.push(json!({ "body": body, "answer": null }));
        inner.whatsapp_webhooks.len() - 1
    };
    let url = sim.config.whatsapp_webhook_url.as_deref()?;
    let answer = sim
        .http
        .post(url)
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-hub-signature-256", signature)
        .body(bytes)
        .send()
        .await
        .map(|response| response.status().as_u16())
        .map_err(|error| tracing::warn!(%error, url, "WhatsApp webhook delivery failed"))
        .ok();
    if let Some(kept) = sim.inner.lock().await.whatsapp_webhooks.get_mut(n) {
        kept["answer"] = json!(answer);
    }
    answer
}

async fn messages(State(sim): State<Simulator>) -> Json<Value> {
    Json(json!(sim.inner.lock().await.whatsapp_messages))
}

async fn webhooks(State(sim): State<Simulator>) -> Json<Value> {
    Json(json!(sim.inner.lock().await.whatsapp_webhooks))
}

async fn read(State(sim): State<Simulator>, Path(id): Path<String>) -> Response {
    match report(&sim, &id, "read").await {
        Some(answer) => Json(json!({ "webhook": answer })).into_response(),
        None => graph_error(StatusCode::NOT_FOUND, 100, "Unknown message"),
    }
}

/// The client presses quick-reply button `{"button": n}` (0 first) of message `id`.
async fn press(State(sim): State<Simulator>, Path(id): Path<String>, Json(body): Json<Value>) -> Response {
    let index = body["button"].as_u64().unwrap_or(0);
    let (message, reply_id) = {
        let mut inner = sim.inner.lock().await;
        inner.next_id += 1;
        let reply_id = format!("wamid.SIMR{}", inner.next_id);
        match inner.whatsapp_messages.iter().find(|m| m["id"] == id) {
            Some(message) => (message.clone(), reply_id),
            None => return graph_error(StatusCode::NOT_FOUND, 100, "Unknown message"),
        }
    };
    let button = message["template"]["components"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["type"] == "button" && c["index"] == json!(index.to_string()))
        .cloned();
    let Some(button) = button else { return graph_error(StatusCode::BAD_REQUEST, 100, "No such button") };
    let payload = button["parameters"][0]["payload"].clone();
    let text = body["text"].as_str().unwrap_or(if index == 0 { "Confirmar" } else { "Cancelar" });
    let answer = deliver(&sim, notification(json!({
        "messaging_product": "whatsapp",
        "metadata": { "display_phone_number": DISPLAY_PHONE_NUMBER, "phone_number_id": message["phone_number_id"] },
        "contacts": [{ "profile": { "name": "Cliente" }, "wa_id": message["to"] }],
        "messages": [{
            "from": message["to"], "id": reply_id, "timestamp": unix_now(), "type": "button",
            "context": { "from": DISPLAY_PHONE_NUMBER, "id": id },
            "button": { "payload": payload, "text": text },
        }],
    })))
    .await;
    Json(json!({ "id": reply_id, "webhook": answer })).into_response()
}

async fn resend(State(sim): State<Simulator>, Path(n): Path<usize>) -> Response {
    let body = sim.inner.lock().await.whatsapp_webhooks.get(n).map(|kept| kept["body"].clone());
    match body {
        Some(body) => Json(json!({ "webhook": deliver(&sim, body).await })).into_response(),
        None => graph_error(StatusCode::NOT_FOUND, 100, "Unknown webhook"),
    }
}
