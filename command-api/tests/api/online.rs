//! Online booking (issue 18): codes, tokens, the booking path's rules and limits.

use std::sync::Arc;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use chrono::Weekday;
use navalha_domain::online;
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::{cpf, demo, next, Answer, Demo, System};

/// A client's details as the page sends them; `n` makes the CPF and mobile unique (a
/// multiple of 13 is a demo client's CPF).
pub(crate) fn identity(n: u64, email: &str) -> Value {
    json!({
        "name": format!("Cliente Online {}", ["Ana", "Bia", "Caio", "Davi", "Eva", "Fabio"][n as usize % 6]),
        "phone": format!("119{:08}", 70_000_000 + n),
        "cpf": cpf(300_000_000 + n),
        "email": email,
    })
}

pub(crate) async fn ask_code(system: &System, unit: i64, who: &Value, address: &str) -> Answer {
    let path = format!("/api/no-auth/online-booking/{unit}/code");
    system.call_with(Method::POST, &path, None, Some(who.clone()), &[("x-forwarded-for", address)]).await
}

/// The code of the newest e-mail to `to` (sent after the answer: waits for it).
pub(crate) async fn code_for(system: &System, to: &str) -> String {
    for _ in 0..100 {
        let mail = system.outbox().into_iter().rev().find(|m| m["to"] == to);
        if let Some(mail) = mail {
            let text = mail["text"].as_str().unwrap_or_default();
            return text
                .split("Seu código para agendar: ")
                .nth(1)
                .map(|r| r.chars().take(6).collect())
                .unwrap_or_default();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no code e-mailed to {to}: {:?}", system.outbox());
}

pub(crate) async fn verify(system: &System, unit: i64, request_id: &str, code: &str) -> Answer {
    let path = format!("/api/no-auth/online-booking/{unit}/verify");
    system.call(Method::POST, &path, None, Some(json!({ "requestId": request_id, "code": code }))).await
}

/// A booking token for client `n` of `unit`, through the e-mailed code.
async fn signed_in_client(system: &System, unit: i64, n: u64) -> String {
    let email = format!("cliente{n}@example.com");
    let asked = ask_code(system, unit, &identity(n, &email), "10.0.0.1").await;
    assert_eq!(asked.status, StatusCode::OK, "{:?}", asked.body);
    let code = code_for(system, &email).await;
    let verified = verify(system, unit, asked.body["RequestId"].as_str().unwrap_or_default(), &code).await;
    assert_eq!(verified.status, StatusCode::OK, "{:?}", verified.body);
    verified.body["Token"].as_str().unwrap_or_default().to_owned()
}

/// A client's CPF and the e-mail on file, as the clients model has them.
pub(crate) async fn cpf_and_email_of(system: &System, client: i64) -> (String, String) {
    sqlx::query_as("select cpf, email from rm_client.client where client_id = $1")
        .bind(client)
        .fetch_one(&system.pool)
        .await
        .expect("a client")
}

pub(crate) async fn book(system: &System, unit: i64, token: &str, body: Value) -> Answer {
    let path = format!("/api/no-auth/online-booking/{unit}/scheduling");
    system.call(Method::POST, &path, Some(token), Some(body)).await
}

/// The free starts of a haircut in Centro on `day`, by anyone, from the public free times.
async fn free_starts(system: &System, d: &Demo, day: chrono::NaiveDate) -> Vec<String> {
    free_starts_of(system, d, day, None).await
}

/// The same, with `professional` only when given: the demo's bookings depend on the day of the
/// run, so tests take their times from here rather than assume them.
pub(crate) async fn free_starts_of(
    system: &System,
    d: &Demo,
    day: chrono::NaiveDate,
    professional: Option<i64>,
) -> Vec<String> {
    let path =
        format!("/api/no-auth/scheduling/available-times?idCompany={}&idServices=[{}]", d.centro, d.haircut);
    let free = system.call(Method::GET, &path, None, None).await;
    let days = free.body["times"].as_array().cloned().unwrap_or_default();
    let hours = days.iter().find(|t| t["shortDate"] == day.to_string()).map(|t| t["freeHours"].clone());
    let mut starts: Vec<String> = hours
        .and_then(|h| h.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter(|h| professional.is_none_or(|id| h["idProfessional"] == id))
        .filter_map(|h| h["start"].as_str().map(str::to_owned))
        .collect();
    starts.dedup();
    assert!(starts.len() >= 16, "too few free times on {day} for {professional:?}: {starts:?}");
    starts
}

pub(crate) fn choice(d: &Demo, professional: Option<i64>, date: chrono::NaiveDate, start: &str) -> Value {
    json!({ "idServices": [d.haircut], "idProfessional": professional, "date": date.to_string(), "startTime": start })
}

#[tokio::test]
async fn a_client_books_with_an_emailed_code_and_the_staff_agenda_shows_it_online() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let page =
        system.call(Method::GET, &format!("/api/no-auth/online-booking/{}", d.centro), None, None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.body["Name"], "Navalha Centro");
    assert!(page.body["Services"].as_array().is_some_and(|s| s.iter().any(|s| s["IdService"] == d.haircut)));

    let token = signed_in_client(&system, d.centro, 1).await;
    let tuesday = next(Weekday::Tue);
    let start = free_starts_of(&system, &d, tuesday, Some(d.barber1_id)).await[0].clone();
    let booked = book(&system, d.centro, &token, choice(&d, Some(d.barber1_id), tuesday, &start)).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
    assert_eq!(booked.body["StartTime"].as_str(), Some(start.as_str()));
    assert_eq!(booked.body["ProfessionalName"], "Diego Barbeiro");
    assert_eq!(booked.body["Status"], "BOOKED");
    let id = booked.body["IdScheduling"].as_i64().expect("id");

    // A new client is registered once, from what they typed.
    system.project().await;
    let registered: (String, String) =
        sqlx::query_as("select name, email from rm_client.client where cpf = $1")
            .bind(cpf(300_000_001))
            .fetch_one(&system.pool)
            .await
            .expect("the client registered");
    assert_eq!(registered, ("Cliente Online Bia".to_owned(), "cliente1@example.com".to_owned()));

    let admin = system.sign_in("admin@navalha.dev").await;
    let day = system
        .call(
            Method::GET,
            &format!("/api/scheduling/professional?idCompany={}&date={tuesday}", d.centro),
            Some(&admin),
            None,
        )
        .await;
    let item = day.body.as_array().and_then(|items| items.iter().find(|i| i["IdScheduling"] == id).cloned());
    let item = item.expect("the online booking in the staff agenda");
    assert_eq!(
        (item["Online"].as_bool(), item["UserName"].as_str()),
        (Some(true), Some("Cliente Online Bia"))
    );
    let history =
        system.call(Method::GET, &format!("/api/scheduling/{id}/history"), Some(&admin), None).await;
    assert_eq!(history.status, StatusCode::OK, "{:?}", history.body);
    assert_eq!(history.body[0]["UserName"], online::AUTHOR);
    assert_eq!(history.body[0]["Role"], Value::Null);

    // The link opens it, and nothing else does.
    let link = booked.body["ManageToken"].as_str().unwrap_or_default();
    let opened =
        system.call(Method::GET, &format!("/api/no-auth/online-booking/booking/{link}"), None, None).await;
    assert_eq!((opened.status, opened.body["IdScheduling"].as_i64()), (StatusCode::OK, Some(id)));
    let forged = format!("{}x", &link[..link.len() - 1]);
    let refused =
        system.call(Method::GET, &format!("/api/no-auth/online-booking/booking/{forged}"), None, None).await;
    assert_eq!((refused.status, refused.message()), (StatusCode::NOT_FOUND, online::MSG_BOOKING_NOT_FOUND));
}

#[tokio::test]
async fn codes_work_once_expire_and_die_after_five_wrong_tries() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let who = identity(2, "dois@example.com");
    let asked = ask_code(&system, d.centro, &who, "10.0.0.2").await;
    let request = asked.body["RequestId"].as_str().unwrap_or_default().to_owned();
    let code = code_for(&system, "dois@example.com").await;
    let stored: Vec<u8> =
        sqlx::query_scalar("select code_hash from online_code").fetch_one(&system.pool).await.expect("row");
    assert_ne!(stored, code.as_bytes(), "only a hash is stored");
    assert_eq!(verify(&system, d.centro, &request, &code).await.status, StatusCode::OK);
    let again = verify(&system, d.centro, &request, &code).await;
    assert_eq!((again.status, again.message()), (StatusCode::UNPROCESSABLE_ENTITY, online::MSG_BAD_CODE));

    // Five wrong tries kill it, the right code included.
    let asked = ask_code(&system, d.centro, &who, "10.0.0.2").await;
    let request = asked.body["RequestId"].as_str().unwrap_or_default().to_owned();
    let code = code_for(&system, "dois@example.com").await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        assert_eq!(verify(&system, d.centro, &request, wrong).await.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    assert_eq!(verify(&system, d.centro, &request, &code).await.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Expired.
    let asked = ask_code(&system, d.centro, &who, "10.0.0.2").await;
    let request = asked.body["RequestId"].as_str().unwrap_or_default().to_owned();
    let code = code_for(&system, "dois@example.com").await;
    sqlx::query(
        "update online_code set expires_at = now() - interval '1 second' where request_id = $1::uuid",
    )
    .bind(&request)
    .execute(&system.pool)
    .await
    .expect("expire");
    assert_eq!(verify(&system, d.centro, &request, &code).await.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Another unit's page cannot use it either.
    assert_eq!(verify(&system, d.savassi, &request, &code).await.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_returning_clients_code_goes_to_the_email_on_file_and_the_answer_reveals_nothing() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let (known_cpf, on_file) = cpf_and_email_of(&system, d.client).await;
    let mut someone = identity(3, "intruso@example.com");
    someone["cpf"] = json!(known_cpf);
    let known = ask_code(&system, d.centro, &someone, "10.0.0.3").await;
    let stranger = ask_code(&system, d.centro, &identity(4, ""), "10.0.0.3").await;
    assert_eq!((known.status, stranger.status), (StatusCode::OK, StatusCode::OK));
    assert_eq!((known.message(), stranger.message()), (online::MSG_CODE_SENT, online::MSG_CODE_SENT));
    assert_eq!(known.body.as_object().map(|o| o.len()), stranger.body.as_object().map(|o| o.len()));
    let code = code_for(&system, &on_file).await;
    assert!(!system.outbox().iter().any(|m| m["to"] == "intruso@example.com"), "the typed e-mail got a code");
    let verified =
        verify(&system, d.centro, known.body["RequestId"].as_str().unwrap_or_default(), &code).await;
    let token = verified.body["Token"].as_str().unwrap_or_default().to_owned();
    let booked = book(
        &system,
        d.centro,
        &token,
        choice(&d, None, next(Weekday::Wed), &free_starts(&system, &d, next(Weekday::Wed)).await[0]),
    )
    .await;
    assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
    let clients: i64 = sqlx::query_scalar(
        "select count(*) from unique_claim where scope = 'client_cpf' and value like '%' || $1",
    )
    .bind(&known_cpf)
    .fetch_one(&system.pool)
    .await
    .expect("count");
    assert_eq!(clients, 1, "a returning client is not registered again");
    let slot_client: i64 =
        sqlx::query_scalar("select client_id from appointment_slot where appointment_id = $1")
            .bind(booked.body["IdScheduling"].as_i64().unwrap_or_default().to_string())
            .fetch_one(&system.pool)
            .await
            .expect("slot");
    assert_eq!(slot_client, d.client);
}

#[tokio::test]
async fn a_client_holds_at_most_two_future_bookings_per_unit_even_when_racing() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = signed_in_client(&system, d.centro, 5).await;
    let day = next(Weekday::Thu);
    let starts = free_starts(&system, &d, day).await;
    let system = Arc::new(system);
    let mut requests = tokio::task::JoinSet::new();
    for start in starts.into_iter().step_by(4).take(4) {
        let (system, token, body) = (system.clone(), token.clone(), choice(&d, None, day, &start));
        requests.spawn(async move { book(&system, d.centro, &token, body).await });
    }
    let answers: Vec<Answer> = requests.join_all().await;
    let created = answers.iter().filter(|a| a.status == StatusCode::CREATED).count();
    assert_eq!(created, 2, "{answers:?}");
    for refused in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(
            (refused.status, refused.message()),
            (StatusCode::UNPROCESSABLE_ENTITY, online::msg_too_many_bookings(2).as_str())
        );
    }
}

#[tokio::test]
async fn two_clients_racing_for_one_time_one_wins_and_the_other_hears_it_was_taken() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let first = signed_in_client(&system, d.centro, 6).await;
    let second = signed_in_client(&system, d.centro, 7).await;
    let day = next(Weekday::Fri);
    let starts = free_starts_of(&system, &d, day, Some(d.barber2_id)).await;
    let wanted = choice(&d, Some(d.barber2_id), day, &starts[0]);
    let system = Arc::new(system);
    let mut requests = tokio::task::JoinSet::new();
    for token in [first.clone(), second.clone()] {
        let (system, body) = (system.clone(), wanted.clone());
        requests.spawn(async move { (token.clone(), book(&system, d.centro, &token, body).await) });
    }
    let raced: Vec<(String, Answer)> = requests.join_all().await;
    let answers: Vec<&Answer> = raced.iter().map(|(_, answer)| answer).collect();
    let mut statuses: Vec<u16> = answers.iter().map(|a| a.status.as_u16()).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, vec![201, 409], "{answers:?}");
    let (loser_token, loser) = raced.iter().find(|(_, a)| a.status == StatusCode::CONFLICT).expect("loser");
    assert_eq!(loser.message(), online::MSG_TIME_TAKEN);
    // The loser keeps their token and takes another time without a new code.
    let later = starts.last().expect("a later time");
    let other = book(&system, d.centro, loser_token, choice(&d, Some(d.barber2_id), day, later)).await;
    assert_eq!(other.status, StatusCode::CREATED, "{:?}", other.body);
}

#[tokio::test]
async fn the_link_moves_and_cancels_its_booking_only() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = signed_in_client(&system, d.centro, 8).await;
    let day = next(Weekday::Tue);
    let starts = free_starts_of(&system, &d, day, Some(d.barber1_id)).await;
    let booked = book(&system, d.centro, &token, choice(&d, Some(d.barber1_id), day, &starts[0])).await;
    let later = starts.last().expect("a later time").clone();
    let link = booked.body["ManageToken"].as_str().unwrap_or_default().to_owned();
    let path = format!("/api/no-auth/online-booking/booking/{link}");
    let moved = system
        .call(
            Method::PUT,
            &path,
            None,
            Some(json!({ "idProfessional": null, "date": day.to_string(), "startTime": later })),
        )
        .await;
    assert_eq!(
        (moved.status, moved.body["StartTime"].as_str()),
        (StatusCode::OK, Some(later.as_str())),
        "{:?}",
        moved.body
    );
    let slot: (String,) =
        sqlx::query_as("select lower(during)::text from appointment_slot where appointment_id = $1")
            .bind(booked.body["IdScheduling"].as_i64().unwrap_or_default().to_string())
            .fetch_one(&system.pool)
            .await
            .expect("slot");
    assert!(slot.0.ends_with(&format!("{later}:00")), "{slot:?}");
    let cancelled = system.call(Method::POST, &format!("{path}/cancel"), None, None).await;
    assert_eq!((cancelled.status, cancelled.body["Status"].as_str()), (StatusCode::OK, Some("CANCELLED")));
    let again = system.call(Method::POST, &format!("{path}/cancel"), None, None).await;
    assert_eq!((again.status, again.message()), (StatusCode::CONFLICT, online::MSG_ALREADY_CANCELLED));
    let free: i64 = sqlx::query_scalar("select count(*) from appointment_slot where appointment_id = $1")
        .bind(booked.body["IdScheduling"].as_i64().unwrap_or_default().to_string())
        .fetch_one(&system.pool)
        .await
        .expect("count");
    assert_eq!(free, 0, "a cancelled booking frees its time");
}

#[tokio::test]
async fn tokens_open_only_their_own_doors() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let client = signed_in_client(&system, d.centro, 9).await;
    let day = next(Weekday::Wed);
    // A client's token is no staff session, and works on its own unit's page only.
    let staff_read = system
        .call(
            Method::GET,
            &format!("/api/scheduling/professional?idCompany={}&date={day}", d.centro),
            Some(&client),
            None,
        )
        .await;
    assert_eq!(staff_read.status, StatusCode::UNAUTHORIZED);
    let elsewhere = book(&system, d.savassi, &client, choice(&d, None, day, "10:00")).await;
    assert_eq!(
        (elsewhere.status, elsewhere.message()),
        (StatusCode::UNAUTHORIZED, online::MSG_VERIFICATION_EXPIRED)
    );
    // A staff token books nothing here, and neither does a booking's link.
    let admin = system.sign_in("admin@navalha.dev").await;
    assert_eq!(
        book(&system, d.centro, &admin, choice(&d, None, day, "10:00")).await.status,
        StatusCode::UNAUTHORIZED
    );
    let start = free_starts(&system, &d, day).await[0].clone();
    let booked = book(&system, d.centro, &client, choice(&d, None, day, &start)).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
    let link = booked.body["ManageToken"].as_str().unwrap_or_default();
    assert_eq!(
        book(&system, d.centro, link, choice(&d, None, day, "11:00")).await.status,
        StatusCode::UNAUTHORIZED
    );
    // And a client's token opens no booking.
    let opened =
        system.call(Method::GET, &format!("/api/no-auth/online-booking/booking/{client}"), None, None).await;
    assert_eq!(opened.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_retried_booking_with_its_key_books_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = signed_in_client(&system, d.centro, 10).await;
    let body = choice(&d, None, next(Weekday::Thu), &free_starts(&system, &d, next(Weekday::Thu)).await[0]);
    let path = format!("/api/no-auth/online-booking/{}/scheduling", d.centro);
    let key = [("idempotency-key", "online-retry-1")];
    let first = system.call_with(Method::POST, &path, Some(&token), Some(body.clone()), &key).await;
    let second = system.call_with(Method::POST, &path, Some(&token), Some(body), &key).await;
    assert_eq!((first.status, second.status), (StatusCode::CREATED, StatusCode::CREATED));
    assert_eq!(first.body["IdScheduling"], second.body["IdScheduling"]);
    assert_eq!(second.headers.get("idempotent-replayed").and_then(|v| v.to_str().ok()), Some("true"));
}

#[tokio::test]
async fn bad_input_and_floods_get_clear_answers() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let bad = ask_code(
        &system,
        d.centro,
        &json!({ "name": "Al", "phone": "123", "cpf": "111.111.111-11", "email": "x@" }),
        "10.0.0.9",
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    for field in ["name", "phone", "cpf", "email"] {
        assert!(bad.body["errors"][field].is_string(), "{field}: {:?}", bad.body);
    }
    let unknown = ask_code(&system, 999_999, &identity(11, "a@example.com"), "10.0.0.9").await;
    assert_eq!((unknown.status, unknown.message()), (StatusCode::NOT_FOUND, online::MSG_UNIT_NOT_FOUND));
    let no_token = book(&system, d.centro, "", choice(&d, None, next(Weekday::Tue), "10:00")).await;
    assert_eq!(
        (no_token.status, no_token.message()),
        (StatusCode::UNAUTHORIZED, online::MSG_VERIFICATION_EXPIRED)
    );
    // One address asking for codes for many CPFs meets its limit.
    let mut last = None;
    for n in 0..21 {
        last = Some(ask_code(&system, d.centro, &identity(100 + n, ""), "10.0.0.10").await);
    }
    let last = last.expect("answers");
    assert_eq!(last.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", last.body);
    assert!(last.message().starts_with("Muitos pedidos de código."), "{}", last.message());
    // Another address is not held back.
    assert_eq!(ask_code(&system, d.centro, &identity(200, ""), "10.0.0.11").await.status, StatusCode::OK);
}

/// The unit form's body for what `GET company/{id}` answers, with `changes` on top.
pub(crate) fn company_form(answer: &Value, changes: Value) -> Value {
    let mut form = json!({});
    for (field, from) in [
        ("name", "Name"),
        ("cnpj", "Cnpj"),
        ("email", "Email"),
        ("phone", "Phone"),
        ("whatsApp", "WhatsApp"),
        ("status", "Status"),
        ("facebook", "Facebook"),
        ("instagram", "Instagram"),
        ("observation", "Observation"),
        ("zipCode", "ZipCode"),
        ("street", "Street"),
        ("number", "Number"),
        ("district", "District"),
        ("city", "City"),
        ("state", "State"),
        ("complement", "Complement"),
    ] {
        form[field] = answer[from].clone();
    }
    for (field, value) in changes.as_object().cloned().unwrap_or_default() {
        form[field] = value;
    }
    form
}

#[tokio::test]
async fn the_unit_sets_its_own_cut_off_and_limit() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let path = format!("/api/company/{}", d.centro);
    let unit = system.call(Method::GET, &path, Some(&admin), None).await;
    assert_eq!(
        (unit.body["OnlineCancelCutoffHours"].as_i64(), unit.body["OnlineMaxFutureBookings"].as_i64()),
        (Some(2), Some(2)),
        "the defaults: {:?}",
        unit.body
    );
    let bad =
        company_form(&unit.body, json!({ "onlineCancelCutoffHours": 73, "onlineMaxFutureBookings": 0 }));
    let refused = system.call(Method::PUT, &path, Some(&admin), Some(bad)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["errors"]["onlineCancelCutoffHours"], online::MSG_BAD_CUTOFF);
    assert_eq!(refused.body["errors"]["onlineMaxFutureBookings"], online::MSG_BAD_LIMIT);
    let strict =
        company_form(&unit.body, json!({ "onlineCancelCutoffHours": 72, "onlineMaxFutureBookings": 1 }));
    let saved = system.call(Method::PUT, &path, Some(&admin), Some(strict)).await;
    assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);
    // A form that leaves them out (the specification's own) keeps them.
    let saved =
        system.call(Method::PUT, &path, Some(&admin), Some(company_form(&unit.body, json!({})))).await;
    assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);
    system.project().await;
    let page =
        system.call(Method::GET, &format!("/api/no-auth/online-booking/{}", d.centro), None, None).await;
    assert_eq!(
        (page.body["CancelCutoffHours"].as_i64(), page.body["MaxFutureBookings"].as_i64()),
        (Some(72), Some(1))
    );

    // The first free time is within 72 hours: booked, but no longer changeable online.
    let token = signed_in_client(&system, d.centro, 12).await;
    let free = system
        .call(
            Method::GET,
            &format!(
                "/api/no-auth/scheduling/available-times?idCompany={}&idServices=[{}]",
                d.centro, d.haircut
            ),
            None,
            None,
        )
        .await;
    let first_day = &free.body["times"][0];
    let (date, start) = (first_day["shortDate"].as_str().unwrap_or_default(), &first_day["freeHours"][0]);
    let body = json!({
        "idServices": [d.haircut], "idProfessional": start["idProfessional"], "date": date, "startTime": start["start"]
    });
    let booked = book(&system, d.centro, &token, body).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
    assert_eq!(booked.body["Changeable"], false, "{:?}", booked.body);
    let link = booked.body["ManageToken"].as_str().unwrap_or_default();
    let cancel = system
        .call(Method::POST, &format!("/api/no-auth/online-booking/booking/{link}/cancel"), None, None)
        .await;
    assert_eq!((cancel.status, cancel.message()), (StatusCode::CONFLICT, online::MSG_TOO_LATE));

    // One future booking is this unit's limit.
    let day = next(Weekday::Thu) + chrono::Duration::days(7);
    let second =
        book(&system, d.centro, &token, choice(&d, None, day, &free_starts(&system, &d, day).await[0])).await;
    assert_eq!(
        (second.status, second.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, online::msg_too_many_bookings(1).as_str())
    );
}

#[tokio::test]
async fn moving_by_the_link_offers_the_bookings_own_time_and_nothing_else_frees_it() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = signed_in_client(&system, d.centro, 14).await;
    let day = next(Weekday::Wed);
    let start = free_starts_of(&system, &d, day, Some(d.barber1_id)).await[0].clone();
    let booked = book(&system, d.centro, &token, choice(&d, Some(d.barber1_id), day, &start)).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
    system.project().await;
    let id = booked.body["IdScheduling"].as_i64().unwrap_or_default();
    let link = booked.body["ManageToken"].as_str().unwrap_or_default().to_owned();
    let offered = |query: String, headers: Vec<(&'static str, String)>| {
        let system = &system;
        async move {
            let path = format!(
                "/api/no-auth/scheduling/available-times?idCompany={}&idServices=[{}]&idProfessionals=[{}]{query}",
                d.centro, d.haircut, d.barber1_id
            );
            let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let answer = system.call_with(Method::GET, &path, None, None, &headers).await;
            (answer.status, answer.body["times"].as_array().cloned().unwrap_or_default())
        }
    };
    let has_start = |times: &[Value]| {
        times.iter().any(|t| {
            t["shortDate"] == day.to_string()
                && t["freeHours"].as_array().is_some_and(|h| h.iter().any(|h| h["start"] == start.as_str()))
        })
    };
    let (status, times) = offered(String::new(), vec![]).await;
    assert!(status == StatusCode::OK && !has_start(&times), "the booked time is taken");
    // Anonymous, an appointment's id frees nothing: it would tell when someone else is booked.
    let (_, times) = offered(format!("&idSchedulingEdit={id}"), vec![]).await;
    assert!(!has_start(&times), "idSchedulingEdit without a token freed a booking's time");
    let (status, times) = offered(String::new(), vec![("x-booking-token", link.clone())]).await;
    assert!(status == StatusCode::OK && has_start(&times), "the link's own time is offered");
    let forged = format!("{}x", &link[..link.len() - 1]);
    let (status, _) = offered(String::new(), vec![("x-booking-token", forged)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Online bookings never put a client in two chairs: with no one to say 'Agendar mesmo
/// assim', the page's second booking at the same time is refused whoever the professional.
#[tokio::test]
async fn a_client_online_cannot_book_two_chairs_at_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = signed_in_client(&system, d.centro, 5).await;
    let tuesday = next(Weekday::Tue);
    let start = free_starts_of(&system, &d, tuesday, Some(d.barber1_id)).await[0].clone();
    let first = book(&system, d.centro, &token, choice(&d, Some(d.barber1_id), tuesday, &start)).await;
    assert_eq!(first.status, StatusCode::CREATED, "{:?}", first.body);
    for professional in [Some(d.barber2_id), None] {
        let second = book(&system, d.centro, &token, choice(&d, professional, tuesday, &start)).await;
        assert_eq!((second.status, second.message()), (StatusCode::CONFLICT, online::MSG_CLIENT_BUSY));
        assert!(second.body.get("errors").is_none(), "nothing the client could lift");
    }
}

/// Issue 44, point 6: the client's record counts 'Não compareceu' in the last 90 days and
/// ever; a unit that sets a limit refuses an online booking from a client past it, with the
/// shop's phone; the limit counts the last 90 days only, and 0 never blocks.
#[tokio::test]
async fn a_client_past_the_units_no_show_limit_is_asked_to_call_the_shop() {
    let pool = demo_database().await;
    use crate::support::{body, book as staff_book, id_of, last_open_day};
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let token = signed_in_client(&system, d.centro, 44).await;
    let day = next(Weekday::Thu) + chrono::Duration::days(7);
    let starts = free_starts(&system, &d, day).await;
    let first = book(&system, d.centro, &token, choice(&d, None, day, &starts[0])).await;
    assert_eq!(first.status, StatusCode::CREATED, "{:?}", first.body);
    system.project().await;
    let client: i64 =
        sqlx::query_scalar("select client_id from rm_client.client where email = 'cliente44@example.com'")
            .fetch_one(&system.pool)
            .await
            .expect("the online client");

    // Two no-shows: one recent, one 98 days ago (the same weekday, so the unit was open).
    let recent = last_open_day();
    let old = recent - chrono::Duration::weeks(14);
    for date in [recent, old] {
        let mut past = body(d.barber1, date, "10:00", &[d.haircut], client);
        past["timesType"] = json!("ALL_TIMES");
        let id = id_of(&staff_book(&system, &admin, past).await);
        let marked =
            system.call(Method::POST, &format!("/api/scheduling/{id}/no-show"), Some(&admin), None).await;
        assert_eq!(marked.status, StatusCode::OK, "{:?}", marked.body);
    }
    system.project().await;
    let record = system.call(Method::GET, &format!("/api/user/{client}"), Some(&admin), None).await;
    assert_eq!(
        (record.body["NoShows"].as_i64(), record.body["NoShowsLast90Days"].as_i64()),
        (Some(2), Some(1))
    );
    let search =
        system.call(Method::GET, "/api/user/filter?search=cliente44@example.com", Some(&admin), None).await;
    assert_eq!(search.body["content"][0]["NoShowsLast90Days"], 1, "{:?}", search.body);

    // Limit 2: one recent no-show passes. Limit 1: refused, with the unit's phone.
    let path = format!("/api/company/{}", d.centro);
    let unit = system.call(Method::GET, &path, Some(&admin), None).await;
    assert_eq!(unit.body["OnlineNoShowLimit"], 0, "off by default");
    let bad = system
        .call(
            Method::PUT,
            &path,
            Some(&admin),
            Some(company_form(&unit.body, json!({ "onlineNoShowLimit": 21 }))),
        )
        .await;
    assert_eq!(bad.body["errors"]["onlineNoShowLimit"], online::MSG_BAD_NO_SHOW_LIMIT);
    let set = |limit: i64| {
        let (system, admin, form) =
            (&system, admin.clone(), company_form(&unit.body, json!({ "onlineNoShowLimit": limit })));
        let path = path.clone();
        async move {
            let saved = system.call(Method::PUT, &path, Some(&admin), Some(form)).await;
            assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);
            system.project().await;
        }
    };
    set(1).await;
    let refused = book(&system, d.centro, &token, choice(&d, None, day, &starts[4])).await;
    let phone =
        navalha_command_api::whatsapp::templates::phone_text(unit.body["Phone"].as_str().unwrap_or_default());
    assert_eq!(
        (refused.status, refused.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, online::msg_blocked_by_no_shows(&phone).as_str())
    );
    assert!(!phone.is_empty());
    set(2).await;
    let passed = book(&system, d.centro, &token, choice(&d, None, day, &starts[4])).await;
    assert_eq!(passed.status, StatusCode::CREATED, "{:?}", passed.body);
}
