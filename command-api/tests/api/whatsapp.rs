//! WhatsApp through the Cloud API's twin (issue 44, point 1): a message sent once under its
//! key; its delivery reports and the client's button reply recorded once each, replays
//! changing nothing; the webhook's handshake and signature.

use std::time::Duration;

use axum::http::StatusCode;
use navalha_command_api::seed::DEMO_BUSINESS_ID;
use navalha_command_api::whatsapp::{self, webhook::SIGNATURE_HEADER, Sent};
use navalha_domain::message::MessageRequest;
use navalha_platform::http::RequestOrigin;
use navalha_platform::signature::hub_signature;
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::club::{Club, WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN};

fn origin() -> RequestOrigin {
    RequestOrigin { request_id: "teste".into(), client_ip: "127.0.0.1".into(), idempotent_run: None }
}

fn request(to: &str, key: &str) -> MessageRequest {
    MessageRequest {
        appointment_id: None,
        to: to.into(),
        template: "lembrete_agendamento".into(),
        variables: vec!["Navalha Centro".into(), "terça-feira, 01/12 às 10:00".into()],
        buttons: vec![format!("CONFIRMAR:{key}"), format!("CANCELAR:{key}")],
    }
}

/// The events of message `key`, oldest first.
async fn events(club: &Club, key: &str) -> Vec<String> {
    sqlx::query_scalar("select event_type from events where aggregate_type = 'Message' and aggregate_id = $1 order by sequence")
        .bind(key)
        .fetch_all(&club.system.pool)
        .await
        .expect("events")
}

/// Waits until message `key` has `count` events (the twin reports after it answers, and a
/// report may be recorded before the send's answer is): their types, sorted.
async fn settled(club: &Club, key: &str, count: usize) -> Vec<String> {
    let mut found = events(club, key).await;
    for _ in 0..100 {
        if found.len() >= count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        found = events(club, key).await;
    }
    found.sort();
    found
}

async fn sim(club: &Club, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
    let mut call = club.http.request(method, format!("{}{path}", club.sim_url));
    if let Some(body) = body {
        call = call.json(&body);
    }
    call.send().await.expect("sim").json().await.expect("json")
}

#[sqlx::test(migrations = "../migrations")]
async fn a_message_is_sent_once_reported_and_answered_through_the_twin(pool: PgPool) {
    let club = Club::start(pool).await;
    let state = &club.system.state;
    let sent =
        whatsapp::send(state, DEMO_BUSINESS_ID, "m-1", request("5511987650101", "m-1"), &origin()).await;
    let Ok(Sent::Accepted(provider_id)) = sent else { panic!("{sent:?}") };
    assert!(provider_id.starts_with("wamid."), "{provider_id}");
    // The same key again, as another instance would: not sent twice.
    let again =
        whatsapp::send(state, DEMO_BUSINESS_ID, "m-1", request("5511987650101", "m-1"), &origin()).await;
    assert_eq!(again.ok(), Some(Sent::AlreadyRequested));
    let phone = sim(&club, reqwest::Method::GET, "/sim/whatsapp/messages", None).await;
    assert_eq!(phone.as_array().map(Vec::len), Some(1), "{phone}");
    assert_eq!(phone[0]["template"]["language"]["code"], "pt_BR");
    assert_eq!(
        settled(&club, "m-1", 4).await,
        ["DeliveryReported", "DeliveryReported", "MessageAccepted", "MessageRequested"]
    );

    // The client presses 'Confirmar': recorded once, a replay of the webhook changes nothing.
    let pressed = sim(
        &club,
        reqwest::Method::POST,
        &format!("/sim/whatsapp/messages/{provider_id}/press"),
        Some(json!({"button": 0})),
    )
    .await;
    assert_eq!(pressed["webhook"], 200, "{pressed}");
    let payload: String = sqlx::query_scalar(
        "select payload -> 'ReplyReceived' ->> 'payload' from events where aggregate_id = 'm-1' and event_type = 'ReplyReceived'",
    )
    .fetch_one(&club.system.pool)
    .await
    .expect("reply");
    assert_eq!(payload, "CONFIRMAR:m-1");
    let hooks = sim(&club, reqwest::Method::GET, "/sim/whatsapp/webhooks", None).await;
    let last = hooks.as_array().map_or(0, Vec::len) - 1;
    let replayed =
        sim(&club, reqwest::Method::POST, &format!("/sim/whatsapp/webhooks/{last}/resend"), None).await;
    assert_eq!(replayed["webhook"], 200);
    assert_eq!(events(&club, "m-1").await.len(), 5, "the replay recorded nothing");

    // A number the twin cannot deliver to: accepted, then reported failed with Meta's error.
    let failed =
        whatsapp::send(state, DEMO_BUSINESS_ID, "m-2", request("5511987650000", "m-2"), &origin()).await;
    assert!(matches!(failed, Ok(Sent::Accepted(_))), "{failed:?}");
    assert_eq!(settled(&club, "m-2", 3).await, ["DeliveryReported", "MessageAccepted", "MessageRequested"]);
    let error: String = sqlx::query_scalar(
        "select payload -> 'DeliveryReported' ->> 'error' from events where aggregate_id = 'm-2' and event_type = 'DeliveryReported'",
    )
    .fetch_one(&club.system.pool)
    .await
    .expect("report");
    assert_eq!(error, "131026: Message undeliverable");

    // An outage: the decision stays recorded without an outcome, and the caller hears 503.
    let down =
        whatsapp::send(state, DEMO_BUSINESS_ID, "m-3", request("5511987655000", "m-3"), &origin()).await;
    assert!(matches!(down, Err(ref e) if e.status_code() == StatusCode::SERVICE_UNAVAILABLE), "{down:?}");
    assert_eq!(events(&club, "m-3").await, ["MessageRequested"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_webhook_answers_the_handshake_for_its_token_and_refuses_unsigned_deliveries(pool: PgPool) {
    let club = Club::start(pool).await;
    let handshake = |token: &str| {
        format!("{}/api/no-auth/whatsapp/webhook?hub.mode=subscribe&hub.verify_token={token}&hub.challenge=1158201444", club.command_url)
    };
    let answer = club.http.get(handshake(WHATSAPP_VERIFY_TOKEN)).send().await.expect("handshake");
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.text().await.expect("text"), "1158201444");
    for token in ["wrong", ""] {
        let refused = club.http.get(handshake(token)).send().await.expect("handshake");
        assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{token:?}");
    }

    let url = format!("{}/api/no-auth/whatsapp/webhook", club.command_url);
    let body = json!({"object": "whatsapp_business_account", "entry": [{"id": "x", "changes": [{"field": "messages", "value": {
        "statuses": [{"id": "wamid.X", "status": "delivered", "timestamp": "1764590400", "biz_opaque_callback_data": "unknown-key"}]}}]}]});
    let bytes = serde_json::to_vec(&body).expect("json");
    let post = |signature: Option<String>, bytes: Vec<u8>| {
        let mut call = club.http.post(&url).header("content-type", "application/json").body(bytes);
        if let Some(signature) = signature {
            call = call.header(SIGNATURE_HEADER, signature);
        }
        call.send()
    };
    let before: i64 =
        sqlx::query_scalar("select count(*) from events").fetch_one(&club.system.pool).await.expect("count");
    assert_eq!(post(None, bytes.clone()).await.expect("post").status(), StatusCode::UNAUTHORIZED);
    let forged = hub_signature(b"another-secret", &bytes);
    assert_eq!(post(Some(forged), bytes.clone()).await.expect("post").status(), StatusCode::UNAUTHORIZED);
    let tampered = hub_signature(WHATSAPP_APP_SECRET.as_bytes(), b"{}");
    assert_eq!(post(Some(tampered), bytes.clone()).await.expect("post").status(), StatusCode::UNAUTHORIZED);
    let signed = hub_signature(WHATSAPP_APP_SECRET.as_bytes(), &bytes);
    let accepted = post(Some(signed), bytes).await.expect("post");
    assert_eq!(accepted.status(), StatusCode::OK);
    assert_eq!(accepted.json::<Value>().await.expect("json"), json!({"received": true, "recorded": 0}));
    let garbage = b"not json".to_vec();
    let bad =
        post(Some(hub_signature(WHATSAPP_APP_SECRET.as_bytes(), &garbage)), garbage).await.expect("post");
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let after: i64 =
        sqlx::query_scalar("select count(*) from events").fetch_one(&club.system.pool).await.expect("count");
    assert_eq!(after, before, "nothing stored");
}
