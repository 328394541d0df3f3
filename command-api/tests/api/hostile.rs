//! Hostile and careless input: numbers past every bound, control characters, bodies past
//! their limits and read-your-writes positions nobody wrote. Each answers a clear 4xx in the
//! JSON error shape, never a panic or a 500.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::json;

use crate::club::{multipart, plan_fields, BOUNDARY};
use crate::support::System;

#[tokio::test]
async fn numbers_past_their_bounds_and_control_characters_answer_400() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    for path in [
        "/api/subscription-details?page=9223372036854775807&pageSize=100",
        "/api/subscription-details?page=99999999999999999999",
        "/api/subscription-details?pageSize=-1",
        "/api/subscription-details?paymentMethod=boleto%00",
        "/api/subscription-user?internalStatus=%00",
        "/api/subscription-user?description=%1B%5B31m",
        "/api/user/filter?description=a%00b",
    ] {
        let answer = system.call(Method::GET, path, Some(&admin), None).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}: {answer:?}");
        assert!(!answer.message().is_empty(), "{path}: a message in the JSON shape");
    }
    let far = system
        .call(Method::GET, "/api/subscription-details?page=1000000&pageSize=100", Some(&admin), None)
        .await;
    assert_eq!((far.status, &far.body["count"]), (StatusCode::OK, &json!(0)), "a far page is just empty");

    // In JSON, a control character hides in an escape; line breaks and tabs are text.
    let holiday =
        |name: &str| json!({ "name": name, "date": "2031-09-07", "allCompanies": true, "companies": [] });
    let refused =
        system.call(Method::POST, "/api/holiday", Some(&admin), Some(holiday("Feriado\u{0}"))).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{refused:?}");
    assert_eq!(refused.message(), navalha_platform::http::MSG_CONTROL_CHARACTERS);
    let escape = system.call(Method::POST, "/api/holiday", Some(&admin), Some(holiday("\u{1b}[31mx"))).await;
    assert_eq!(escape.status, StatusCode::BAD_REQUEST, "{escape:?}");
    let path = system.call(Method::GET, "/api/subscription-details/1%00", Some(&admin), None).await;
    assert_eq!(path.status, StatusCode::BAD_REQUEST, "{path:?}");
}

#[tokio::test]
async fn bodies_past_their_limit_answer_413_and_plan_images_take_five_megabytes() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let huge = format!(r#"{{"name": "{}"}}"#, "x".repeat(3 * 1024 * 1024));
    let answer =
        system.send_raw(Method::POST, "/api/holiday", &admin, "application/json", huge.into_bytes()).await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE, "{answer:?}");
    assert_eq!(answer.message(), navalha_platform::error::MSG_TOO_LARGE);

    // A 4 MB image is within the documented 5 MB, on create as on change.
    let mut image = b"\x89PNG\r\n\x1a\n".to_vec();
    image.resize(4 * 1024 * 1024, 7);
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    let body = multipart(&plan_fields(), Some(image.clone()));
    let created =
        system.send_raw(Method::POST, "/api/subscription-details", &admin, &content_type, body).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdSubscriptionDetail"].as_i64().expect("id");
    let body = multipart(&plan_fields(), Some(image));
    let path = format!("/api/subscription-details/{id}");
    let changed = system.send_raw(Method::PUT, &path, &admin, &content_type, body).await;
    assert_eq!(changed.status, StatusCode::OK, "{changed:?}");
    let mut too_big = b"\x89PNG\r\n\x1a\n".to_vec();
    too_big.resize(5 * 1024 * 1024 + 1, 7);
    let body = multipart(&plan_fields(), Some(too_big));
    let refused = system.send_raw(Method::PUT, &path, &admin, &content_type, body).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{refused:?}");
    assert_eq!(refused.body["errors"]["file"], "plano.png: Cada imagem deve ter no máximo 5 MB.");

    // A form that is not multipart answers in the JSON shape too (found by fuzzing).
    for path in [path.as_str(), "/api/gallery-company/1"] {
        let answer = system.send_raw(Method::PUT, path, &admin, "multipart/form-data", b"x".to_vec()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}: {answer:?}");
        assert_eq!(answer.message(), navalha_platform::http::MSG_NOT_MULTIPART, "{path}");
    }
}

#[tokio::test]
async fn a_position_nobody_wrote_is_answered_at_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    for position in ["999999999.1", "9223372036854775807.9223372036854775807"] {
        let answer = system
            .call_with(
                Method::GET,
                "/api/holiday/filter",
                Some(&admin),
                None,
                &[("x-navalha-position", position)],
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        let consistency = answer.headers["x-navalha-consistency"].to_str().unwrap_or_default().to_owned();
        // Past the log's end there is nothing to wait for: no wait up to the 2 s cap.
        let waited: u64 = consistency
            .strip_prefix("timeout; waited-ms=")
            .and_then(|ms| ms.parse().ok())
            .unwrap_or_else(|| panic!("{position}: {consistency}"));
        assert!(waited < 2000, "{position}: {consistency}");
    }
}

/// `n` letters in no repeating pattern: PostgreSQL compresses an index entry, so a run of one
/// letter would fit a btree entry whatever its length, and would hide issue 39.
fn letters(n: usize) -> String {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            char::from(b'a' + ((seed >> 33) % 26) as u8)
        })
        .collect()
}

/// Issue 39: a 4,000-letter name stopped the client read model for every business. The
/// anonymous page and the staff form refuse it on the field; a client recorded with one
/// before the bounds still projects, and the list still reads.
#[tokio::test]
async fn a_4000_letter_name_is_refused_on_its_field_and_one_recorded_before_still_projects() {
    let pool = demo_database().await;
    use navalha_domain::client::{Client, ClientCommand, ClientDetails};
    use navalha_domain::metadata::EventMetadata;
    use navalha_domain::values::Cpf;

    use crate::support::{cpf, demo, names};

    let system = System::start(pool).await;
    let d = demo(&system).await;
    let long_name = format!("Ana {}", letters(4000));

    let online = system
        .call(
            Method::POST,
            &format!("/api/no-auth/online-booking/{}/code", d.centro),
            None,
            Some(json!({
                "name": long_name,
                "phone": "11970000999",
                "cpf": cpf(300_000_999),
                "email": "ana.longa@example.com",
            })),
        )
        .await;
    assert_eq!(online.status, StatusCode::UNPROCESSABLE_ENTITY, "{online:?}");
    assert_eq!(online.body["errors"]["name"], "Máximo de 120 caracteres.");
    let codes: i64 = sqlx::query_scalar("select count(*) from online_code where cpf = $1")
        .bind(cpf(300_000_999))
        .fetch_one(&system.pool)
        .await
        .expect("count");
    assert_eq!(codes, 0, "nothing stored for a refused identity");

    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let form = |name: &str| {
        json!({
            "name": name, "cpf": cpf(300_000_997), "email": "ana.longa@example.com",
            "phone": "(11) 9 7000-0997", "whatsApp": true, "birthDate": "1990-04-01", "status": true,
        })
    };
    let staff =
        system.call(Method::POST, "/api/user/professional", Some(&admin), Some(form(&long_name))).await;
    assert_eq!(staff.status, StatusCode::UNPROCESSABLE_ENTITY, "{staff:?}");
    assert_eq!(staff.body["errors"]["name"], "Máximo de 120 caracteres.");
    let booking = json!({
        "idCompanyProfessional": d.barber1, "date": "2031-09-09", "startTime": "10:00",
        "idServices": [d.haircut], "idUser": 1, "observation": letters(1001),
    });
    let booked = system.call(Method::POST, "/api/scheduling/professional", Some(&admin), Some(booking)).await;
    assert_eq!(booked.status, StatusCode::UNPROCESSABLE_ENTITY, "{booked:?}");
    assert_eq!(booked.body["errors"]["observation"], "Máximo de 1.000 caracteres.");
    // At the bound, the name is accepted.
    let at_the_bound = format!("Ana {}", letters(116));
    let accepted =
        system.call(Method::POST, "/api/user/professional", Some(&admin), Some(form(&at_the_bound))).await;
    assert_eq!(accepted.status, StatusCode::CREATED, "{accepted:?}");

    // Recorded before the bounds: the event is in the log and must project.
    let id = navalha_command_api::commands::next_id(&system.pool, "client_id_seq").await.expect("id");
    let details = ClientDetails {
        name: long_name.clone(),
        email: "ana.antiga@example.com".into(),
        phone: "11970000998".into(),
        whatsapp: true,
        birth_date: None,
        status: true,
    };
    navalha_command_api::commands::execute::<Client>(
        &system.state.events,
        &id.to_string(),
        ClientCommand::RegisterClient {
            cpf: Some(Cpf::parse(&cpf(300_000_998)).expect("cpf")),
            details,
            online: true,
        },
        &EventMetadata::system("teste", navalha_command_api::seed::DEMO_BUSINESS_ID),
    )
    .await
    .expect("recorded");
    system.project().await;
    let found = system
        .call(
            Method::GET,
            &format!("/api/user/filter?page=1&pageSize=5&status=1&search={}", cpf(300_000_998)),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(found.status, StatusCode::OK, "{found:?}");
    assert_eq!(names(&found), [long_name]);
    let listed = system.call(Method::GET, "/api/user/filter?page=1&pageSize=5", Some(&admin), None).await;
    assert_eq!(listed.status, StatusCode::OK, "{listed:?}");
}

/// Issue 39, point 5: 25 code requests to one recipient from two addresses, under made-up
/// CPFs, and recovery codes to the same address, e-mail it 5 codes an hour in all; the
/// answers stay the same.
#[tokio::test]
async fn one_recipient_gets_at_most_five_code_emails_an_hour_across_every_door() {
    let pool = demo_database().await;
    use crate::online::{ask_code, identity};
    use navalha_domain::online::MSG_CODE_SENT;
    let system = System::start(pool).await;
    let d = crate::support::demo(&system).await;
    let victim = "barbeiro1@navalha.dev";
    let count = |system: &System| system.outbox().iter().filter(|m| m["to"] == victim).count();
    // A recovery code asked for and handled by the mailer: always the same answer.
    let recover = async |system: &System| {
        let body = Some(json!({ "cpfOrEmail": victim }));
        let asked = system.call(Method::POST, "/api/session-professional/recovery-code", None, body).await;
        assert_eq!((asked.status, asked.message()), (StatusCode::OK, "Código enviado com sucesso."));
        system.mailed().await;
    };
    // Two recovery codes first: the staff member's own door.
    recover(&system).await;
    recover(&system).await;
    assert_eq!(count(&system), 2);
    for n in 0..25u64 {
        let address = if n % 2 == 0 { "198.51.100.1" } else { "198.51.100.2" };
        let asked = ask_code(&system, d.centro, &identity(7_000 + n, victim), address).await;
        assert_eq!((asked.status, asked.message()), (StatusCode::OK, MSG_CODE_SENT), "request {n}");
    }
    // Three codes were kept for the victim's e-mail; the others can never be confirmed.
    let kept: i64 = sqlx::query_scalar("select count(*) from online_code where email = $1")
        .bind(victim)
        .fetch_one(&system.pool)
        .await
        .expect("codes");
    assert_eq!(kept, 3);
    // Their e-mails go out after the answers.
    for _ in 0..100 {
        if count(&system) == 5 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(count(&system), 5, "{:?}", system.outbox());
    // Past the cap, a recovery request is answered as always and sends nothing.
    recover(&system).await;
    assert_eq!(count(&system), 5);
    // Another recipient is not held back by it.
    let asked = ask_code(&system, d.centro, &identity(7_100, "outra@example.com"), "198.51.100.3").await;
    assert_eq!(asked.status, StatusCode::OK);
    crate::online::code_for(&system, "outra@example.com").await;
}
