//! WhatsApp through the Cloud API's twin (issue 44, point 1): a message sent once under its
//! key; its delivery reports and the client's button reply recorded once each, replays
//! changing nothing; the webhook's handshake and signature.

use std::time::Duration;

use axum::http::StatusCode;
use navalha_command_api::seed::DEMO_BUSINESS_ID;
use navalha_command_api::whatsapp::{self, webhook::SIGNATURE_HEADER, Sent};
use navalha_domain::message::MessageRequest;
use navalha_harness::database::demo_database;
use navalha_platform::http::RequestOrigin;
use navalha_platform::signature::hub_signature;
use serde_json::{json, Value};

use crate::club::{Club, WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN};

fn origin() -> RequestOrigin {
    RequestOrigin { request_id: "teste".into(), client_ip: "127.0.0.1".into(), idempotent_run: None }
}

fn request(to: &str, key: &str) -> MessageRequest {
    MessageRequest {
        appointment_id: None,
        channel: navalha_domain::message::Channel::Whatsapp,
        to: to.into(),
        template: "lembrete_agendamento".into(),
        variables: vec!["Navalha Centro".into(), "terça-feira, 01/12 às 10:00".into()],
        buttons: vec![format!("CONFIRMAR:{key}"), format!("CANCELAR:{key}")],
        text: None,
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

#[tokio::test]
async fn a_message_is_sent_once_reported_and_answered_through_the_twin() {
    let pool = demo_database().await;
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
    let pressed = press(&club, &provider_id, 0).await;
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

#[tokio::test]
async fn the_webhook_answers_the_handshake_for_its_token_and_refuses_unsigned_deliveries() {
    let pool = demo_database().await;
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

/// A client who accepts WhatsApp, added at the desk with `phone`: their id.
async fn whatsapp_client(club: &Club, token: &str, name: &str, phone: &str) -> i64 {
    let body = json!({ "name": name, "phone": phone, "whatsApp": true });
    let created =
        club.system.call(axum::http::Method::POST, "/api/user/quick", Some(token), Some(body)).await;
    created.body["IdUser"].as_i64().unwrap_or_else(|| panic!("{created:?}"))
}

/// How many messages the twin got for `key`.
async fn on_the_phone(club: &Club, key: &str) -> usize {
    let all = sim(club, reqwest::Method::GET, "/sim/whatsapp/messages", None).await;
    all.as_array().into_iter().flatten().filter(|m| m["biz_opaque_callback_data"] == key).count()
}

/// The message the twin got under `key` (what the client's phone shows).
async fn on_the_phone_as(club: &Club, key: &str) -> Value {
    let all = sim(club, reqwest::Method::GET, "/sim/whatsapp/messages", None).await;
    let found = all.as_array().into_iter().flatten().find(|m| m["biz_opaque_callback_data"] == key).cloned();
    found.unwrap_or_else(|| panic!("nothing sent under {key}: {all}"))
}

/// The client presses button `button` (0 'Confirmar', 1 'Cancelar') of the twin's message
/// `id`: the twin's answer, with the webhook's status.
async fn press(club: &Club, id: &str, button: u64) -> Value {
    let path = format!("/sim/whatsapp/messages/{id}/press");
    sim(club, reqwest::Method::POST, &path, Some(json!({ "button": button }))).await
}

/// The staff change appointment `id` to `body` (`PUT scheduling/professional/{id}`).
async fn change(club: &Club, token: &str, id: i64, body: Value) {
    let path = format!("/api/scheduling/professional/{id}");
    let answer = club.system.call(axum::http::Method::PUT, &path, Some(token), Some(body)).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
}

/// `time` (`HH:MM`) on `date`, on the unit's wall clock.
fn wall_clock(date: chrono::NaiveDate, time: &str) -> chrono::NaiveDateTime {
    chrono::NaiveDateTime::parse_from_str(&format!("{date} {time}"), "%Y-%m-%d %H:%M").expect("wall")
}

fn instant(date: chrono::NaiveDate, time: &str) -> chrono::DateTime<chrono::Utc> {
    navalha_platform::clock::instant_of(wall_clock(date, time), navalha_platform::clock::DEFAULT_TIME_ZONE)
}

/// The staff form's body for a haircut with `professional` at `start` on `day`, at any time
/// (not only among the free times the form offers).
fn haircut_at(
    d: &crate::support::Demo,
    day: chrono::NaiveDate,
    professional: i64,
    start: &str,
    client: i64,
) -> Value {
    let mut booking = crate::support::body(professional, day, start, &[d.haircut], client);
    booking["timesType"] = json!("ALL_TIMES");
    booking
}

#[tokio::test]
async fn reminders_go_once_in_their_window_are_skipped_after_it_and_a_move_is_a_new_promise() {
    let pool = demo_database().await;
    use navalha_command_api::reminders::{key, tick, Kind};
    let club = Club::start(pool).await;
    let admin = club.system.sign_in("admin@navalha.dev").await;
    let d = crate::support::demo(&club.system).await;
    let day = crate::support::far_tuesday();
    let client = whatsapp_client(&club, &admin, "Caio Lembrete", "(11) 98765-0101").await;
    let silent = {
        let body = json!({ "name": "Rui Sem Zap", "phone": "(11) 98765-0102", "whatsApp": false });
        club.system.call(axum::http::Method::POST, "/api/user/quick", Some(&admin), Some(body)).await.body
            ["IdUser"]
            .as_i64()
            .expect("id")
    };
    let mut booking = haircut_at(&d, day, d.barber1, "10:00", client);
    let id = crate::support::id_of(&crate::support::book(&club.system, &admin, booking.clone()).await);
    let other = haircut_at(&d, day, d.barber2, "10:00", silent);
    crate::support::id_of(&crate::support::book(&club.system, &admin, other).await);
    club.system.project().await;
    let start = instant(day, "10:00");
    let wall = |time: &str| wall_clock(day, time);
    let day_before = key(id, Kind::Day, wall("10:00"));

    let state = &club.system.state;
    let early = tick(state, start - chrono::Duration::hours(25)).await.expect("tick");
    assert_eq!(early.sent, 0, "not yet");
    // Three instances at once: one message.
    let now = start - chrono::Duration::hours(23);
    let (a, b, c) = tokio::join!(tick(state, now), tick(state, now), tick(state, now));
    let sent: usize = [a, b, c].into_iter().map(|t| t.expect("tick").sent).sum();
    assert_eq!(sent, 1, "the client who does not accept WhatsApp gets none");
    assert_eq!(on_the_phone(&club, &day_before).await, 1);
    let phone = sim(&club, reqwest::Method::GET, "/sim/whatsapp/messages", None).await;
    let text = phone[0]["template"]["components"][0]["parameters"].to_string();
    assert!(text.contains("Caio") && text.contains("Navalha Centro") && text.contains("às 10:00"), "{text}");
    assert_eq!(tick(state, now + chrono::Duration::minutes(5)).await.expect("tick").sent, 0);
    let two_hours = tick(state, start - chrono::Duration::minutes(90)).await.expect("tick");
    assert_eq!(two_hours.sent, 1);
    assert_eq!(on_the_phone(&club, &key(id, Kind::Hours, wall("10:00"))).await, 1);

    // Moved to 15:00: new reminders for the new time; the old ones are never sent.
    booking["startTime"] = json!("15:00");
    change(&club, &admin, id, booking).await;
    club.system.project().await;
    let later = instant(day, "15:00");
    let again = tick(state, later - chrono::Duration::hours(23)).await.expect("tick");
    assert_eq!(again.sent, 1);
    assert_eq!(on_the_phone(&club, &key(id, Kind::Day, wall("15:00"))).await, 1);

    // Everything was down until after the start: both are recorded skipped, none sent.
    let after = tick(state, later + chrono::Duration::minutes(10)).await.expect("tick");
    assert_eq!((after.sent, after.skipped), (0, 1), "the 2-hour one; the day-before one went out");
    let skipped = key(id, Kind::Hours, wall("15:00"));
    assert_eq!(events(&club, &skipped).await, ["MessageSkipped"]);
    assert_eq!(on_the_phone(&club, &skipped).await, 0);
}

/// A process stopped between deciding and calling the provider: the send is retried once the
/// grace passed; stopped after the provider took it: its report names the key and no retry
/// happens (ADR 0028).
#[tokio::test]
async fn a_send_left_without_an_outcome_is_retried_once_unless_the_provider_reported_it() {
    let pool = demo_database().await;
    use navalha_command_api::commands::execute;
    use navalha_command_api::reminders::tick;
    use navalha_domain::message::{Message, MessageCommand};
    let club = Club::start(pool).await;
    let state = &club.system.state;
    let metadata = navalha_domain::metadata::EventMetadata::system("teste", DEMO_BUSINESS_ID);
    // Decided, then the process died before calling the provider. The message names an
    // appointment ahead of now.
    let admin = club.system.sign_in("admin@navalha.dev").await;
    let d = crate::support::demo(&club.system).await;
    let client = whatsapp_client(&club, &admin, "Ana Retentativa", "(11) 98765-0103").await;
    let booking = haircut_at(&d, crate::support::far_tuesday(), d.barber1, "11:00", client);
    let id = crate::support::id_of(&crate::support::book(&club.system, &admin, booking).await);
    let wall = crate::support::far_tuesday().and_hms_opt(11, 0, 0).expect("wall");
    let lost = navalha_command_api::reminders::key(id, navalha_command_api::reminders::Kind::Day, wall);
    let mut request = request("5511987650103", &lost);
    request.appointment_id = Some(id);
    execute::<Message>(&state.events, &lost, MessageCommand::Request(request.clone()), &metadata)
        .await
        .expect("decided");
    // Decided and sent, then the process died before recording the provider's id.
    let delivered = format!("{lost}-x");
    execute::<Message>(&state.events, &delivered, MessageCommand::Request(request.clone()), &metadata)
        .await
        .expect("decided");
    navalha_command_api::whatsapp::client::send(&state.http, &state.settings, &request, &delivered)
        .await
        .expect("sent");
    assert_eq!(
        settled(&club, &delivered, 3).await,
        ["DeliveryReported", "DeliveryReported", "MessageRequested"]
    );

    // The demo's own reminders off: a pass placed past the grace would take the other pass's
    // sends in flight for lost ones (in production `now` is the clock, and they are younger
    // than the grace).
    for unit in [d.centro, d.savassi] {
        let path = format!("/api/company/{unit}");
        let current = club.system.call(axum::http::Method::GET, &path, Some(&admin), None).await;
        let off = json!({ "remindersBefore24h": false, "remindersBefore2h": false });
        let form = crate::online::company_form(&current.body, off);
        let saved = club.system.call(axum::http::Method::PUT, &path, Some(&admin), Some(form)).await;
        assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    }
    club.system.project().await;
    let now = navalha_platform::clock::now();
    assert_eq!(tick(state, now).await.expect("tick").retried, 0, "within the grace");
    let past_grace = now + chrono::Duration::seconds(navalha_command_api::reminders::GRACE_SECONDS + 5);
    let (a, b) = tokio::join!(tick(state, past_grace), tick(state, past_grace));
    assert_eq!(a.expect("tick").retried + b.expect("tick").retried, 1, "retried once, by one instance");
    assert_eq!(on_the_phone(&club, &lost).await, 1);
    assert_eq!(on_the_phone(&club, &delivered).await, 1, "reported by the provider: not sent again");
    let lost_events = settled(&club, &lost, 5).await;
    assert_eq!(
        lost_events,
        ["DeliveryReported", "DeliveryReported", "MessageAccepted", "MessageRequested", "SendRetried"]
    );
}

/// The text answers the twin got for `client`'s number, oldest first.
async fn answers(club: &Club, to: &str) -> Vec<String> {
    let all = sim(club, reqwest::Method::GET, "/sim/whatsapp/messages", None).await;
    all.as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["to"] == to && m["text"]["body"].is_string())
        .map(|m| m["text"]["body"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_reply_confirms_or_cancels_within_the_cutoff_and_one_about_a_moved_time_changes_nothing() {
    let pool = demo_database().await;
    use navalha_command_api::reminders::{key, tick, Kind};
    use navalha_command_api::whatsapp::replies::{changed, MSG_CANCELLED, MSG_CONFIRMED};
    let club = Club::start(pool).await;
    let admin = club.system.sign_in("admin@navalha.dev").await;
    let d = crate::support::demo(&club.system).await;
    let day = crate::support::far_tuesday();
    let client = whatsapp_client(&club, &admin, "Lia Resposta", "(11) 98765-0104").await;
    let to = "5511987650104";
    let book_at = |start: &str| haircut_at(&d, day, d.barber1, start, client);
    let confirm_me =
        crate::support::id_of(&crate::support::book(&club.system, &admin, book_at("09:00")).await);
    let cancel_me =
        crate::support::id_of(&crate::support::book(&club.system, &admin, book_at("11:00")).await);
    let move_me = crate::support::id_of(&crate::support::book(&club.system, &admin, book_at("14:00")).await);
    club.system.project().await;
    let state = &club.system.state;
    assert_eq!(tick(state, instant(day, "14:00") - chrono::Duration::hours(23)).await.expect("tick").sent, 3);
    let wall = |time: &str| wall_clock(day, time);
    let provider_id = |key: String| {
        let club = &club;
        async move { on_the_phone_as(club, &key).await["id"].as_str().unwrap_or_default().to_owned() }
    };

    // 'Confirmar': confirmed, with the reply's id in the appointment's history.
    let pressed = press(&club, &provider_id(key(confirm_me, Kind::Day, wall("09:00"))).await, 0).await;
    assert_eq!(pressed["webhook"], 200, "{pressed}");
    let reason: String = sqlx::query_scalar(
        "select metadata ->> 'user_name' from events where aggregate_type = 'Appointment' and aggregate_id = $1 and event_type = 'AppointmentConfirmed'",
    )
    .bind(confirm_me.to_string())
    .fetch_one(&club.system.pool)
    .await
    .expect("confirmed");
    assert!(reason.starts_with("Confirmado pelo cliente via WhatsApp (mensagem wamid."), "{reason}");

    // 'Cancelar' a day ahead, inside the demo's 2-hour cut-off: cancelled.
    press(&club, &provider_id(key(cancel_me, Kind::Day, wall("11:00"))).await, 1).await;
    let cancelled: i64 = sqlx::query_scalar(
        "select count(*) from events where aggregate_type = 'Appointment' and aggregate_id = $1 and event_type = 'AppointmentCancelled'",
    )
    .bind(cancel_me.to_string())
    .fetch_one(&club.system.pool)
    .await
    .expect("count");
    assert_eq!(cancelled, 1);

    // Moved after the reminder: the reply changes nothing and says so.
    let moved = club
        .system
        .call(
            axum::http::Method::PUT,
            &format!("/api/scheduling/professional/{move_me}"),
            Some(&admin),
            Some(book_at("16:00")),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{moved:?}");
    let before: i64 = sqlx::query_scalar(
        "select count(*) from events where aggregate_type = 'Appointment' and aggregate_id = $1",
    )
    .bind(move_me.to_string())
    .fetch_one(&club.system.pool)
    .await
    .expect("count");
    press(&club, &provider_id(key(move_me, Kind::Day, wall("14:00"))).await, 0).await;
    let after: i64 = sqlx::query_scalar(
        "select count(*) from events where aggregate_type = 'Appointment' and aggregate_id = $1",
    )
    .bind(move_me.to_string())
    .fetch_one(&club.system.pool)
    .await
    .expect("count");
    assert_eq!(after, before, "nothing changed");
    let phone = navalha_command_api::whatsapp::templates::phone_text("3133335555");
    let said = answers(&club, to).await;
    assert_eq!(said.len(), 3, "{said:?}");
    assert_eq!(said[..2], [MSG_CONFIRMED.to_owned(), MSG_CANCELLED.to_owned()]);
    assert!(said[2].starts_with(&changed("")[..40]), "{said:?} ({phone})");
}

/// The day's messages (`GET message/day`, 'Mensagens'), the period's figures (`GET
/// message/summary`, the home's rate) and the card's `Reminder` follow the message events:
/// delivered, failed, confirmed by a reply; a moved appointment's card forgets the reminder
/// about its old time.
#[tokio::test]
async fn the_days_messages_show_delivery_replies_and_the_confirmation_rate() {
    let pool = demo_database().await;
    use navalha_command_api::reminders::tick;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in("admin@navalha.dev").await;
    let d = crate::support::demo(&club.system).await;
    let day = crate::support::far_tuesday();
    let confirms = whatsapp_client(&club, &admin, "Léo Confirma", "(11) 98765-0111").await;
    let unreachable = whatsapp_client(&club, &admin, "Téo Sem Sinal", "(11) 98765-0000").await;
    let book_at =
        |professional: i64, start: &str, client: i64| haircut_at(&d, day, professional, start, client);
    let confirmed = crate::support::id_of(
        &crate::support::book(&club.system, &admin, book_at(d.barber1, "09:00", confirms)).await,
    );
    let failed = crate::support::id_of(
        &crate::support::book(&club.system, &admin, book_at(d.barber2, "09:00", unreachable)).await,
    );
    let moved = crate::support::id_of(
        &crate::support::book(&club.system, &admin, book_at(d.barber1, "11:00", confirms)).await,
    );
    club.system.project().await;
    let sent =
        tick(&club.system.state, instant(day, "11:00") - chrono::Duration::hours(23)).await.expect("tick");
    assert_eq!(sent.sent, 3);
    // The twin reports after it answers: wait for the failure's report.
    let failed_key = format!("a{failed}-r24-{}0900", day.format("%Y%m%d"));
    assert_eq!(settled(&club, &failed_key, 3).await.len(), 3);
    let confirmed_key = format!("a{confirmed}-r24-{}0900", day.format("%Y%m%d"));
    let provider_id =
        on_the_phone_as(&club, &confirmed_key).await["id"].as_str().unwrap_or_default().to_owned();
    let pressed = press(&club, &provider_id, 0).await;
    assert_eq!(pressed["webhook"], 200, "{pressed}");
    let mut moving = book_at(d.barber1, "16:00", confirms);
    moving["idScheduling"] = json!(moved);
    change(&club, &admin, moved, moving).await;
    club.system.project().await;

    let today = navalha_platform::clock::today();
    let centro = d.centro;
    let got = club
        .system
        .call(
            axum::http::Method::GET,
            &format!("/api/message/day?idCompany={centro}&date={today}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(got.status, StatusCode::OK, "{got:?}");
    let totals = &got.body["Totals"];
    assert_eq!((totals["Sent"].as_i64(), totals["Failed"].as_i64()), (Some(3), Some(1)), "{totals}");
    assert_eq!((totals["Confirmed"].as_i64(), totals["Cancelled"].as_i64()), (Some(1), Some(0)), "{totals}");
    assert_eq!(totals["ConfirmationRate"], 33.3, "one confirmed of three sent");
    let messages = got.body["Messages"].as_array().cloned().unwrap_or_default();
    assert_eq!(messages.len(), 3, "{messages:?}");
    let of = |id: i64| messages.iter().find(|m| m["IdScheduling"] == id).cloned().unwrap_or_default();
    assert_eq!(of(failed)["Delivery"], "FAILED");
    assert_eq!(of(failed)["Error"], "131026: Message undeliverable");
    assert_eq!(
        (of(confirmed)["Reply"].as_str(), of(confirmed)["Kind"].as_str()),
        (Some("CONFIRMAR"), Some("r24"))
    );
    assert_eq!(of(moved)["StartTime"], "16:00:00", "the appointment as it stands");

    // The cards: delivered or read, failed, and none for the moved one's new time.
    let list = club
        .system
        .call(
            axum::http::Method::GET,
            &format!("/api/scheduling/professional?idCompany={centro}&date={day}"),
            Some(&admin),
            None,
        )
        .await;
    let cards = list.body.as_array().cloned().unwrap_or_default();
    let card = |id: i64| cards.iter().find(|c| c["IdScheduling"] == id).cloned().unwrap_or_default();
    assert_eq!(card(failed)["Reminder"], "FAILED", "the desk should call");
    assert!(["SENT", "DELIVERED", "READ"].contains(&card(confirmed)["Reminder"].as_str().unwrap_or_default()));
    assert_eq!(card(confirmed)["Confirmation"], true);
    assert_eq!(card(moved)["Reminder"], Value::Null, "no reminder about 16:00 yet");

    // The period: the same figures; another role may not read them; a year is too long.
    let start = today - chrono::Duration::days(29);
    let summary = club
        .system
        .call(
            axum::http::Method::GET,
            &format!("/api/message/summary?start={start}&end={today}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(summary.body["Totals"]["Sent"], 3, "{summary:?}");
    assert_eq!(summary.body["Days"].as_array().map(Vec::len), Some(1));
    assert_eq!(summary.body["Days"][0]["ConfirmationRate"], 33.3);
    let barber = club.system.sign_in("barbeiro1@navalha.dev").await;
    let refused = club
        .system
        .call(
            axum::http::Method::GET,
            &format!("/api/message/day?idCompany={centro}&date={today}"),
            Some(&barber),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let year = club
        .system
        .call(
            axum::http::Method::GET,
            &format!("/api/message/summary?start={}&end={today}", today - chrono::Duration::days(365)),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(year.status, StatusCode::UNPROCESSABLE_ENTITY, "{year:?}");
}

/// Issue 44, point 2: a move by the shop is a new promise the client hears of (WhatsApp, with
/// 'Confirmar' and 'Cancelar', which work on it); a change that moves nothing says nothing; a
/// cancellation by the shop reaches a client without WhatsApp by e-mail; each notice once,
/// however many passes run.
#[tokio::test]
async fn the_client_hears_once_of_a_move_or_cancellation_by_the_shop_by_whatsapp_or_email() {
    let pool = demo_database().await;
    use navalha_command_api::notices::{self, key, Notice};
    let club = Club::start(pool).await;
    let admin = club.system.sign_in("admin@navalha.dev").await;
    let d = crate::support::demo(&club.system).await;
    let day = crate::support::far_tuesday();
    let zap = whatsapp_client(&club, &admin, "Nina Mudança", "(11) 98765-0121").await;
    club.system.project().await;
    let (mailed, address): (i64, String) = sqlx::query_as(
        "select client_id, email from rm_client.client where not whatsapp and email <> '' and status order by client_id limit 1",
    )
    .fetch_one(&club.system.pool)
    .await
    .expect("a demo client without WhatsApp");
    let at = |professional: i64, start: &str, client: i64| haircut_at(&d, day, professional, start, client);
    let moved =
        crate::support::id_of(&crate::support::book(&club.system, &admin, at(d.barber1, "10:00", zap)).await);
    let cancelled = crate::support::id_of(
        &crate::support::book(&club.system, &admin, at(d.barber2, "11:00", mailed)).await,
    );
    let passes = || async {
        let (state, origin) = (&club.system.state, origin());
        let (a, b) = tokio::join!(notices::pass(state, &origin), notices::pass(state, &origin));
        a.expect("pass") + b.expect("pass")
    };
    assert_eq!(passes().await, 0, "a booking by the staff is no news to the client");

    // A new note moves nothing: no message. The new time: one, with the buttons.
    let mut noted = at(d.barber1, "10:00", zap);
    noted["observation"] = json!("Trazer a foto do corte");
    change(&club, &admin, moved, noted).await;
    assert_eq!(passes().await, 0);
    change(&club, &admin, moved, at(d.barber1, "15:00", zap)).await;
    assert_eq!(passes().await, 1, "two passes, one message");
    let wall = |time: &str| wall_clock(day, time);
    let moved_key = key(moved, Notice::Moved, wall("15:00"));
    assert_eq!(on_the_phone(&club, &moved_key).await, 1);
    let message = on_the_phone_as(&club, &moved_key).await;
    assert_eq!(message["template"]["name"], "agendamento_alterado");
    let text = message["template"]["components"][0]["parameters"].to_string();
    assert!(text.contains("Nina") && text.contains("às 15:00"), "{text}");
    let pressed = press(&club, message["id"].as_str().unwrap_or_default(), 0).await;
    assert_eq!(pressed["webhook"], 200, "{pressed}");
    let confirmed: i64 = sqlx::query_scalar(
        "select count(*) from events where aggregate_type = 'Appointment' and aggregate_id = $1 and event_type = 'AppointmentConfirmed'",
    )
    .bind(moved.to_string())
    .fetch_one(&club.system.pool)
    .await
    .expect("count");
    assert_eq!(confirmed, 1, "'Confirmar' on the move confirms the new time");

    // Cancelled by the shop: an e-mail to the client without WhatsApp, once.
    let gone = club
        .system
        .call(axum::http::Method::DELETE, &format!("/api/scheduling/{cancelled}"), Some(&admin), None)
        .await;
    assert!(gone.status.is_success(), "{gone:?}");
    assert_eq!(passes().await, 1);
    assert_eq!(passes().await, 0);
    let mails: Vec<Value> =
        club.system.outbox().into_iter().filter(|m| m["to"] == address.as_str()).collect();
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0]["subject"], "Seu horário foi cancelado");
    let body = mails[0]["text"].as_str().unwrap_or_default();
    assert!(body.contains("cancelou seu horário de") && body.contains("às 11:00"), "{body}");
    assert_eq!(
        events(&club, &key(cancelled, Notice::Cancelled, wall("11:00"))).await,
        ["MessageRequested", "MessageAccepted"]
    );
}

/// A notice pass reads the log a page at a time, only what committed since the previous
/// pass, and skips no change that commits after a later one: a move held in flight (another
/// transaction holds its professional's lock) while a later move commits and is passed is
/// passed once it commits.
#[tokio::test]
async fn a_notice_pass_skips_no_change_that_commits_after_a_later_one() {
    let pool = demo_database().await;
    use navalha_command_api::notices::{key, pass_in_pages, Notice};
    let club = Club::start(pool).await;
    let admin = club.system.sign_in("admin@navalha.dev").await;
    let d = crate::support::demo(&club.system).await;
    let day = crate::support::far_tuesday();
    let nina = whatsapp_client(&club, &admin, "Nina Espera", "(11) 98765-0131").await;
    let otto = whatsapp_client(&club, &admin, "Otto Pressa", "(11) 98765-0132").await;
    club.system.project().await;
    let at = |professional: i64, start: &str, client: i64| haircut_at(&d, day, professional, start, client);
    let wall = |time: &str| wall_clock(day, time);
    let held = crate::support::id_of(
        &crate::support::book(&club.system, &admin, at(d.barber1, "10:00", nina)).await,
    );
    let quick = crate::support::id_of(
        &crate::support::book(&club.system, &admin, at(d.barber2, "10:00", otto)).await,
    );
    let (state, origin) = (&club.system.state, origin());
    assert_eq!(pass_in_pages(state, &origin, 1).await.expect("pass"), 0);

    // The appointment slot's trigger takes the professional's lock after the event is in.
    let mut lock = club.system.pool.begin().await.expect("begin");
    sqlx::query("select pg_advisory_xact_lock(4, hashtext($1))")
        .bind(d.barber1_id.to_string())
        .execute(&mut *lock)
        .await
        .expect("lock");
    let meanwhile = async {
        let waiting = "select count(*) from pg_locks where locktype = 'advisory' and not granted";
        while sqlx::query_scalar::<_, i64>(waiting).fetch_one(&club.system.pool).await.expect("locks") == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        change(&club, &admin, quick, at(d.barber2, "16:00", otto)).await;
        let passed = pass_in_pages(state, &origin, 1).await.expect("pass");
        lock.commit().await.expect("release");
        passed
    };
    let ((), passed) = tokio::join!(change(&club, &admin, held, at(d.barber1, "15:00", nina)), meanwhile);
    assert_eq!(passed, 1, "the later move, committed");
    assert_eq!(on_the_phone(&club, &key(quick, Notice::Moved, wall("16:00"))).await, 1);
    assert_eq!(on_the_phone(&club, &key(held, Notice::Moved, wall("15:00"))).await, 0);
    assert_eq!(pass_in_pages(state, &origin, 1).await.expect("pass"), 1, "the move that committed after it");
    assert_eq!(on_the_phone(&club, &key(held, Notice::Moved, wall("15:00"))).await, 1);
    assert_eq!(pass_in_pages(state, &origin, 1).await.expect("pass"), 0);
}

/// A page of the notice pass's reading of the log is read in commit order and stops at its
/// limit, in the generic plan its prepared statement settles on: with the notice window as a
/// condition, that plan read every appointment event of the window through
/// `events_appointment_notices` and sorted them for each page (5.9 s a page after the
/// bench's bulk load of 2,000 businesses). The window is a column instead: a change older
/// than it comes back, marked, so that the page moves past it.
#[tokio::test]
async fn a_page_of_changes_reads_the_log_in_commit_order_and_marks_the_window() {
    use navalha_command_api::read_models::{appointment_changes, appointment_changes_sql};
    use navalha_harness::plans::{plan_of, plan_values, scans_of};
    let pool = demo_database().await;
    let mut tx = pool.begin().await.expect("begin");
    sqlx::query("set local enable_seqscan = off").execute(&mut *tx).await.expect("set");
    sqlx::query("set local plan_cache_mode = force_generic_plan").execute(&mut *tx).await.expect("set");
    let arguments = "(now() - interval '6 hours', 0, -1, pg_current_snapshot()::text, null)";
    let plan = plan_of(&mut tx, "changes", &appointment_changes_sql(500), arguments).await;
    let nodes = plan_values(&plan, "Node Type");
    assert!(!nodes.iter().any(|node| node == "Sort"), "a page sorts what it read:\n{plan:#}");
    let scans = scans_of(&plan, "events");
    assert!(!scans.iter().any(|scan| scan == "events_appointment_notices"), "{scans:?}\n{plan:#}");
    // On this small log the planner reads in commit order either way; the bulk load's 3
    // million events tipped it (docs/bench.md). What tipped it was a condition the window's
    // index can serve: there is none.
    let conditions = [plan_values(&plan, "Index Cond"), plan_values(&plan, "Filter")].concat();
    assert!(!conditions.iter().any(|c| c.contains("recorded_at")), "{conditions:?}");
    tx.rollback().await.expect("rollback");

    let club = Club::start(pool).await;
    let admin = club.system.sign_in("admin@navalha.dev").await;
    let d = crate::support::demo(&club.system).await;
    let client = whatsapp_client(&club, &admin, "Rui Janela", "(11) 98765-0133").await;
    let booked = crate::support::id_of(
        &crate::support::book(
            &club.system,
            &admin,
            haircut_at(&d, crate::support::far_tuesday(), d.barber1, "10:00", client),
        )
        .await,
    );
    let snapshot: String = sqlx::query_scalar("select pg_current_snapshot()::text")
        .fetch_one(&club.system.pool)
        .await
        .expect("now");
    let now = navalha_platform::clock::now();
    for (since, recent) in
        [(now - chrono::Duration::hours(1), true), (now + chrono::Duration::hours(1), false)]
    {
        let changes = appointment_changes(&club.system.pool, since, (0, -1), &snapshot, None, 10_000)
            .await
            .expect("read");
        let change = changes.iter().find(|c| c.aggregate_id == booked.to_string()).expect("the booking");
        assert_eq!(change.recent, recent, "recorded since {since}");
    }
}

/// Issue 44, point 2: the online page asks for WhatsApp; a client who ticks it gets the
/// booking's confirmation there (once), and their new record says they accept WhatsApp; one
/// who does not is recorded without it and gets no WhatsApp message.
#[tokio::test]
async fn an_online_booking_is_confirmed_by_whatsapp_to_a_client_who_ticked_it() {
    let pool = demo_database().await;
    use crate::online::{ask_code, book, choice, code_for, free_starts_of, identity, verify};
    use navalha_command_api::notices;
    let club = Club::start(pool).await;
    let system = &club.system;
    let d = crate::support::demo(system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let day = crate::support::next(chrono::Weekday::Thu) + chrono::Duration::days(7);
    let starts = free_starts_of(system, &d, day, None).await;
    let mut booked = Vec::new();
    for (n, ticked) in [(71_u64, true), (72, false)] {
        let email = format!("cliente{n}@example.com");
        let mut who = identity(n, &email);
        who["whatsApp"] = json!(ticked);
        let asked = ask_code(system, d.centro, &who, "10.0.0.7").await;
        let request_id = asked.body["RequestId"].as_str().unwrap_or_default().to_owned();
        let code = code_for(system, &email).await;
        let token = verify(system, d.centro, &request_id, &code).await.body["Token"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let made = book(system, d.centro, &token, choice(&d, None, day, &starts[n as usize % 8])).await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
        booked.push((made.body["IdScheduling"].as_i64().expect("id"), ticked, who["phone"].clone()));
    }
    system.project().await;
    let (state, origin) = (&system.state, origin());
    let (a, b) = tokio::join!(notices::pass(state, &origin), notices::pass(state, &origin));
    assert_eq!(a.expect("pass") + b.expect("pass"), 1, "one confirmation, once");
    let all = sim(&club, reqwest::Method::GET, "/sim/whatsapp/messages", None).await;
    for (id, ticked, phone) in booked {
        let sent: Vec<&Value> = all
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| {
                m["biz_opaque_callback_data"]
                    .as_str()
                    .unwrap_or_default()
                    .starts_with(&format!("a{id}-booked-"))
            })
            .collect();
        assert_eq!(sent.len(), usize::from(ticked), "{id}: {sent:?}");
        if ticked {
            assert_eq!(sent[0]["template"]["name"], "agendamento_confirmado");
            assert_eq!(sent[0]["to"], format!("55{}", phone.as_str().unwrap_or_default()));
        }
        let client: i64 =
            sqlx::query_scalar("select client_id from rm_agenda.appointment where appointment_id = $1")
                .bind(id)
                .fetch_one(&system.pool)
                .await
                .expect("client");
        let record =
            system.call(axum::http::Method::GET, &format!("/api/user/{client}"), Some(&admin), None).await;
        assert_eq!(record.body["WhatsApp"], ticked, "{:?}", record.body);
    }
}
