//! The doors that take guesses, from several addresses (issue 12, item 3): limits per
//! account and address, per address and per account; recovery answered the same for
//! everyone with the e-mail sent after the answer; sessions that 'Sair' and a new password end.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::json;

use navalha_command_api::identity::throttle;

use crate::support::{Answer, System};

/// A request as the edge forwards it from `address`.
async fn post_from(system: &System, address: &str, path: &str, body: serde_json::Value) -> Answer {
    system.call_with(Method::POST, path, None, Some(body), &[("x-forwarded-for", address)]).await
}

async fn login_from(system: &System, address: &str, email: &str, password: &str) -> Answer {
    post_from(
        system,
        address,
        "/api/session-professional/login",
        json!({ "email": email, "password": password }),
    )
    .await
}

async fn ask_code_from(system: &System, address: &str, who: &str) -> Answer {
    post_from(system, address, "/api/session-professional/recovery-code", json!({ "cpfOrEmail": who })).await
}

async fn guess_from(system: &System, address: &str, who: &str, code: &str) -> Answer {
    post_from(
        system,
        address,
        "/api/session-professional/validate-recovery-code",
        json!({ "cpfOrEmail": who, "recoveryCode": code }),
    )
    .await
}

fn retry_after(answer: &Answer) -> u64 {
    answer.headers.get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// Failures recorded straight in the table, to reach a limit without thousands of requests.
async fn record_failures(system: &System, door: &str, subject: &str, addresses: &[String]) {
    sqlx::query("insert into access_attempt (door, subject, client_ip) select $1, $2, unnest($3::text[])")
        .bind(door)
        .bind(subject)
        .bind(addresses)
        .execute(&system.pool)
        .await
        .expect("failures");
}

#[tokio::test]
async fn a_flood_from_one_address_never_locks_the_owner_out_from_elsewhere() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let attacker = "203.0.113.7";
    for _ in 0..10 {
        let guess = login_from(&system, attacker, "admin@navalha.dev", "Chute@0000").await;
        assert_eq!(guess.status, StatusCode::BAD_REQUEST);
    }
    let blocked = login_from(&system, attacker, "admin@navalha.dev", "Navalha@2026").await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS);
    assert!((1..=900).contains(&retry_after(&blocked)), "{:?}", blocked.headers);
    assert!(blocked
        .message()
        .starts_with("Muitas tentativas de login sem sucesso. Tente novamente em 15 minutos"));
    // The owner, at the shop.
    let owner = login_from(&system, "198.51.100.20", "admin@navalha.dev", "Navalha@2026").await;
    assert_eq!(owner.status, StatusCode::OK, "{owner:?}");
    // Refused attempts do not extend the lock: nothing more was recorded.
    let failures: i64 =
        sqlx::query_scalar("select count(*) from access_attempt where client_ip = $1 and not succeeded")
            .bind(attacker)
            .fetch_one(&system.pool)
            .await
            .expect("count");
    assert_eq!(failures, 10);
}

#[tokio::test]
async fn one_address_spraying_many_accounts_is_stopped() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let sprayer = "203.0.113.8";
    let emails: Vec<String> = (0..29).map(|i| format!("conta{i}@exemplo.com")).collect();
    for email in &emails {
        record_failures(&system, "login", email, &[sprayer.to_owned()]).await;
    }
    let last_allowed = login_from(&system, sprayer, "outra@exemplo.com", "Chute@0000").await;
    assert_eq!(last_allowed.status, StatusCode::BAD_REQUEST, "the 30th failure is still answered");
    let stopped = login_from(&system, sprayer, "admin@navalha.dev", "Navalha@2026").await;
    assert_eq!(stopped.status, StatusCode::TOO_MANY_REQUESTS, "{stopped:?}");
    // Everyone else signs in.
    assert_eq!(
        login_from(&system, "198.51.100.21", "admin@navalha.dev", "Navalha@2026").await.status,
        StatusCode::OK
    );
}

/// Issue 39: 100 failures from 10 addresses used to lock the owner out for 15 minutes,
/// renewably. Past the account's limit from all addresses, attempts are slowed down, and
/// the owner's right password still signs in.
#[tokio::test]
async fn guessing_spread_over_many_addresses_is_slowed_down_and_never_locks_the_owner_out() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    // 99 failures from 11 addresses (9 each, under the per-address limit).
    let addresses: Vec<String> = (0..99).map(|i| format!("10.0.{}.1", i % 11)).collect();
    record_failures(&system, "login", "lider@navalha.dev", &addresses).await;
    let hundredth = login_from(&system, "10.1.0.1", "lider@navalha.dev", "Chute@0000").await;
    assert_eq!(hundredth.status, StatusCode::BAD_REQUEST);
    // Past the limit: answered as always, later (a lower bound: a slow machine only adds).
    let started = std::time::Instant::now();
    let guess = login_from(&system, "10.2.0.1", "lider@navalha.dev", "Chute@0000").await;
    assert_eq!(guess.status, StatusCode::BAD_REQUEST, "{guess:?}");
    assert!(started.elapsed() >= throttle::SLOW_DOWN, "not slowed down: {:?}", started.elapsed());
    let owner = login_from(&system, "10.2.0.2", "lider@navalha.dev", "Navalha@2026").await;
    assert_eq!(owner.status, StatusCode::OK, "{owner:?}");
    // The owner's addresses were never refused, and neither was anyone's but the guessers'.
    let refused: i64 = sqlx::query_scalar(
        "select count(*) from access_attempt where client_ip = '10.2.0.2' and not succeeded",
    )
    .fetch_one(&system.pool)
    .await
    .expect("count");
    assert_eq!(refused, 0);
}

/// Issue 39: an IPv6 address is counted by its /64, so one network does not give an
/// attacker endless addresses; another network is another address.
#[tokio::test]
async fn an_ipv6_network_counts_as_one_address() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    for i in 0..10 {
        let address = format!("2001:db8:aa:1::{:x}", i + 1);
        let guess = login_from(&system, &address, "admin@navalha.dev", "Chute@0000").await;
        assert_eq!(guess.status, StatusCode::BAD_REQUEST, "{address}");
    }
    let same_network =
        login_from(&system, "2001:db8:aa:1:ffff:1:2:3", "admin@navalha.dev", "Navalha@2026").await;
    assert_eq!(same_network.status, StatusCode::TOO_MANY_REQUESTS, "{same_network:?}");
    assert!(same_network
        .message()
        .contains("use 'Esqueci minha senha' para receber por e-mail um código e um link"));
    let next_network = login_from(&system, "2001:db8:aa:2::1", "admin@navalha.dev", "Navalha@2026").await;
    assert_eq!(next_network.status, StatusCode::OK, "{next_network:?}");
    let stored: Vec<String> =
        sqlx::query_scalar("select distinct client_ip from access_attempt where door = 'login' order by 1")
            .fetch_all(&system.pool)
            .await
            .expect("addresses");
    assert_eq!(stored, ["2001:db8:aa:1::/64", "2001:db8:aa:2::/64"]);
}

#[tokio::test]
async fn recovery_answers_the_same_for_everyone_and_mails_after_the_answer() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let known = ask_code_from(&system, "198.51.100.30", "barbeiro1@navalha.dev").await;
    let unknown = ask_code_from(&system, "198.51.100.30", "ninguem@navalha.dev").await;
    assert_eq!((known.status, &known.body), (unknown.status, &unknown.body));
    assert_eq!(known.status, StatusCode::OK);
    // Nothing was looked up or sent while answering: both are just queued.
    assert!(system.outbox().is_empty(), "an e-mail went out inside the request");
    let codes: i64 = sqlx::query_scalar("select count(*) from recovery_code")
        .fetch_one(&system.pool)
        .await
        .expect("count");
    assert_eq!(codes, 0);
    let queued: i64 = sqlx::query_scalar("select count(*) from recovery_request where done_at is null")
        .fetch_one(&system.pool)
        .await
        .expect("count");
    assert_eq!(queued, 2);
    let mails = system.mailed().await;
    assert_eq!(mails.len(), 1, "only the real account gets an e-mail");
    assert_eq!(mails[0]["to"], "barbeiro1@navalha.dev");

    // Five requests for one subject from one address, then 429 alike for known and unknown.
    for who in ["barbeiro2@navalha.dev", "outro@navalha.dev"] {
        for _ in 0..5 {
            assert_eq!(ask_code_from(&system, "203.0.113.9", who).await.status, StatusCode::OK);
        }
    }
    let known = ask_code_from(&system, "203.0.113.9", "barbeiro2@navalha.dev").await;
    let unknown = ask_code_from(&system, "203.0.113.9", "outro@navalha.dev").await;
    assert_eq!(known.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!((known.status, known.message()), (unknown.status, unknown.message()));
    assert_eq!(known.message(), "Muitos pedidos de código. Tente novamente em 60 minutos.");
    assert!(retry_after(&known) > 0);
    // The owner asks from elsewhere.
    assert_eq!(ask_code_from(&system, "198.51.100.31", "barbeiro2@navalha.dev").await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_mail_server_that_is_down_changes_nothing_in_the_answer() {
    let pool = demo_database().await;
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("address");
    let system =
        System::start_with(pool, |settings| settings.smtp_url = Some(format!("smtp://{closed}").into()))
            .await;
    let answer = ask_code_from(&system, "198.51.100.32", "lider@navalha.dev").await;
    assert_eq!((answer.status, answer.message()), (StatusCode::OK, "Código enviado com sucesso."));
    let failed = navalha_command_api::identity::recovery::handle_next_request(&system.state).await;
    assert!(failed.is_err(), "the e-mail cannot have gone out");
    let (attempts, done, codes): (i32, bool, i64) = sqlx::query_as(
        "select attempts, done_at is not null, (select count(*) from recovery_code) from recovery_request",
    )
    .fetch_one(&system.pool)
    .await
    .expect("request");
    assert_eq!((attempts, done, codes), (1, false, 0), "kept to try again, with no code that was never sent");
}

#[tokio::test]
async fn a_new_code_gives_no_fresh_guesses() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let who = "barbeiro1@navalha.dev";
    let guesser = "203.0.113.10";
    for _ in 0..2 {
        assert_eq!(ask_code_from(&system, guesser, who).await.status, StatusCode::OK);
        let code = system.mailed().await.last().map(|mail| mail["text"].to_string()).unwrap_or_default();
        let wrong = if code.contains("Seu código: 000000") { "111111" } else { "000000" };
        for _ in 0..5 {
            assert_eq!(
                guess_from(&system, guesser, who, wrong).await.status,
                StatusCode::UNPROCESSABLE_ENTITY
            );
        }
    }
    // Ten wrong over two codes: a third code does not help this address.
    ask_code_from(&system, guesser, who).await;
    let mail = system.mailed().await.pop().expect("mail");
    let text = mail["text"].as_str().unwrap_or_default();
    let code: String =
        text.split("Seu código: ").nth(1).map(|rest| rest.chars().take(6).collect()).expect("code");
    let blocked = guess_from(&system, guesser, who, &code).await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS, "{blocked:?}");
    assert!(blocked.message().starts_with("Muitas tentativas com código inválido. Tente novamente em"));
    assert!(retry_after(&blocked) > 3600);
    // The owner, from their phone, still can.
    assert_eq!(guess_from(&system, "198.51.100.33", who, &code).await.status, StatusCode::OK);
    // Whoever types the CPF counts against the same account: past 20 failures across
    // addresses, the account's guesses are slowed down; the owner's right code still works.
    let addresses: Vec<String> = (0..10).map(|i| format!("10.3.{i}.1")).collect();
    let account: i64 = sqlx::query_scalar("select professional_id from staff_credential where email = $1")
        .bind(who)
        .fetch_one(&system.pool)
        .await
        .expect("account");
    record_failures(&system, "recovery-guess", &format!("account:{account}"), &addresses).await;
    let started = std::time::Instant::now();
    let slowed = guess_from(&system, "198.51.100.34", who, &code).await;
    assert_eq!(slowed.status, StatusCode::OK, "{slowed:?}");
    assert!(started.elapsed() >= throttle::SLOW_DOWN, "not slowed down: {:?}", started.elapsed());
}

#[tokio::test]
async fn sair_ends_that_session_at_once_and_only_that_one() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let desk = system.login("admin@navalha.dev", "Navalha@2026").await.body["Token"]
        .as_str()
        .expect("token")
        .to_owned();
    let phone = system.login("admin@navalha.dev", "Navalha@2026").await.body["Token"]
        .as_str()
        .expect("token")
        .to_owned();
    let reads = |token: String| {
        let system = &system;
        async move { system.call(Method::GET, "/api/types-profile", Some(&token), None).await.status }
    };
    assert_eq!(reads(desk.clone()).await, StatusCode::OK);
    let out = system.call(Method::POST, "/api/session-professional/logout", Some(&desk), None).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT, "{out:?}");
    assert_eq!(reads(desk.clone()).await, StatusCode::UNAUTHORIZED, "query-api still takes the token");
    let write = system.call(Method::POST, "/api/holiday", Some(&desk), Some(json!({ "Name": "x" }))).await;
    assert_eq!(write.status, StatusCode::UNAUTHORIZED, "command-api still takes the token");
    assert_eq!(reads(phone).await, StatusCode::OK, "the other device stays signed in");
    let again = system.call(Method::POST, "/api/session-professional/logout", Some(&desk), None).await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_new_password_ends_every_session_but_the_one_it_opens() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let who = "barbeiro2@navalha.dev";
    let old = system.login(who, "Navalha@2026").await.body["Token"].as_str().expect("token").to_owned();
    ask_code_from(&system, "198.51.100.35", who).await;
    let mail = system.mailed().await.pop().expect("mail");
    let text = mail["text"].as_str().unwrap_or_default();
    let link =
        text.split("recovery-data=").nth(1).and_then(|rest| rest.split_whitespace().next()).expect("link");
    let reset = post_from(
        &system,
        "198.51.100.35",
        "/api/session-professional/reset-password",
        json!({ "cpfOrEmail": "", "recoveryCode": "", "newPassword": "Nova@Senha1", "recoveryData": link }),
    )
    .await;
    assert_eq!(reset.status, StatusCode::OK, "{reset:?}");
    let new = reset.body["Token"].as_str().expect("token").to_owned();
    let status = |token: String| {
        let system = &system;
        async move { system.call(Method::GET, "/api/types-profile", Some(&token), None).await.status }
    };
    assert_eq!(status(old).await, StatusCode::UNAUTHORIZED, "the old password's session lives on");
    assert_eq!(status(new).await, StatusCode::OK);
}
