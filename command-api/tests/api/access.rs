//! Sign-in, throttling, registration links and who sees which units.

use axum::http::{Method, StatusCode};
use navalha_command_api::identity::register::create_invite;
use navalha_harness::database::demo_database;
use serde_json::json;

use crate::support::System;

#[tokio::test]
async fn signing_in_answers_the_token_and_the_users_units_and_role() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let answer = system.login("ADMIN@navalha.dev", "Navalha@2026").await;
    assert_eq!(answer.status, StatusCode::OK);
    let user = &answer.body["user"];
    assert_eq!(user["Name"], "Ana Administradora");
    assert_eq!(user["Email"], "admin@navalha.dev");
    assert_eq!(user["Role"]["Type"], "ADMIN");
    assert_eq!(user["Role"]["IdTypeProfile"], 1);
    let companies: Vec<&str> = user["Companies"]
        .as_array()
        .expect("companies")
        .iter()
        .map(|company| company["Name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(companies, ["Navalha Centro", "Navalha Savassi", "Navalha Batel"]);
    assert!(answer.body["Token"].as_str().is_some_and(|token| token.split('.').count() == 3));
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_account_get_the_same_answer() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let wrong = system.login("admin@navalha.dev", "Errada@123").await;
    let unknown = system.login("ninguem@navalha.dev", "Errada@123").await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert_eq!((unknown.status, unknown.message()), (wrong.status, wrong.message()));
    assert_eq!(wrong.message(), "E-mail ou senha incorretos.");
}

#[tokio::test]
async fn the_login_form_is_validated_with_the_specification_messages() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let cases = [
        ("", "Navalha@2026", "email", "Digite seu e-mail."),
        ("admin@navalha", "Navalha@2026", "email", "E-mail inválido"),
        ("admin@navalha.dev", "", "password", "Digite sua senha."),
        ("admin@navalha.dev", "12345", "password", "Mínimo de 6 caracteres."),
    ];
    for (email, password, field, message) in cases {
        let answer = system.login(email, password).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{email} {password}");
        assert_eq!(answer.body["errors"][field], message);
    }
    let wrong_type = system
        .call(
            Method::POST,
            "/api/session-professional/login",
            None,
            Some(json!({ "email": 5, "password": "x" })),
        )
        .await;
    assert_eq!(wrong_type.status, StatusCode::BAD_REQUEST);
    assert_eq!(wrong_type.message(), "Dados inválidos no campo 'email': esperado um texto.");
    let request = axum::http::Request::post("/api/session-professional/login")
        .header("content-type", "application/json")
        .body(axum::body::Body::from("{\"email\":"))
        .expect("request");
    let response = tower::ServiceExt::oneshot(system.command.clone(), request).await.expect("response");
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}

/// serde's English never reaches a user: bodies and query strings of the wrong shape are
/// told what was expected, in pt-BR, with the field.
#[tokio::test]
async fn bodies_and_queries_of_the_wrong_shape_are_told_why_in_portuguese() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let booking = system
        .call(
            Method::POST,
            "/api/scheduling/professional",
            Some(&admin),
            Some(json!({ "idServices": "corte" })),
        )
        .await;
    assert_eq!(booking.status, StatusCode::BAD_REQUEST, "{booking:?}");
    assert_eq!(booking.message(), "Dados inválidos: esperado uma lista.");
    let page = system.call(Method::GET, "/api/user/filter?page=dois", Some(&admin), None).await;
    assert_eq!(page.status, StatusCode::BAD_REQUEST, "{page:?}");
    assert_eq!(page.message(), "Parâmetros inválidos: esperado um número inteiro.");
    for answer in [&booking, &page] {
        let english = ["expected", "invalid", "Failed", "field", "line"];
        assert!(!english.iter().any(|word| answer.message().contains(word)), "{}", answer.message());
    }
}

#[tokio::test]
async fn ten_failures_lock_that_address_out_of_the_account_but_a_password_reset_lets_it_back() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    for _ in 0..10 {
        assert_eq!(system.login("barbeiro1@navalha.dev", "Chute@0000").await.status, StatusCode::BAD_REQUEST);
    }
    let locked = system.login("barbeiro1@navalha.dev", "Navalha@2026").await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS, "even the right password waits, from there");
    assert!(locked.message().contains("Esqueci minha senha"), "{}", locked.message());
    let retry_after: i64 = locked.headers["retry-after"].to_str().unwrap_or("0").parse().unwrap_or(0);
    assert!((1..=900).contains(&retry_after), "{retry_after}");
    // Other accounts are unaffected.
    assert_eq!(system.login("barbeiro2@navalha.dev", "Navalha@2026").await.status, StatusCode::OK);

    // The owner resets the password with the e-mailed link and is let in.
    let sent = system
        .call(
            Method::POST,
            "/api/session-professional/recovery-code",
            None,
            Some(json!({ "cpfOrEmail": "barbeiro1@navalha.dev" })),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK);
    let mail = system.mailed().await.pop().expect("an e-mail");
    let text = mail["text"].as_str().unwrap_or_default();
    let link_token =
        text.split("recovery-data=").nth(1).and_then(|rest| rest.split_whitespace().next()).expect("link");
    let reset = system
        .call(
            Method::POST,
            "/api/session-professional/reset-password",
            None,
            Some(json!({ "cpfOrEmail": "", "recoveryCode": "", "newPassword": "Nova@Senha1", "recoveryData": link_token })),
        )
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{reset:?}");
    assert_eq!(system.login("barbeiro1@navalha.dev", "Nova@Senha1").await.status, StatusCode::OK);
}

#[tokio::test]
async fn parallel_guesses_cannot_slip_past_the_limit() {
    let pool = demo_database().await;
    let system = std::sync::Arc::new(System::start(pool).await);
    let guesses: Vec<_> = (0..16)
        .map(|i| {
            let system = system.clone();
            tokio::spawn(
                async move { system.login("lider@navalha.dev", &format!("Chute@{i:04}")).await.status },
            )
        })
        .collect();
    let mut statuses = Vec::new();
    for guess in guesses {
        statuses.push(guess.await.expect("task"));
    }
    let refused = statuses.iter().filter(|s| **s == StatusCode::BAD_REQUEST).count();
    let throttled = statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
    assert_eq!((refused, throttled), (10, 6), "{statuses:?}");
}

#[tokio::test]
async fn a_registration_link_sets_the_password_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let professional_id: i64 = sqlx::query_scalar(
        "select professional_id from staff_credential where email = 'barbeiro2@navalha.dev'",
    )
    .fetch_one(&system.pool)
    .await
    .expect("account");
    let token = create_invite(&system.pool, professional_id).await.expect("invite");
    let weak = system
        .call(
            Method::PUT,
            "/api/no-auth/professional/complete-register",
            None,
            Some(json!({ "completeRegister": token, "password": "abc" })),
        )
        .await;
    assert_eq!(weak.body["errors"]["password"], "Sua senha precisa ter ao menos 6 dígitos");
    let no_symbol = system
        .call(
            Method::PUT,
            "/api/no-auth/professional/complete-register",
            None,
            Some(json!({ "completeRegister": token, "password": "Abcdef1" })),
        )
        .await;
    assert_eq!(no_symbol.body["errors"]["password"], "Digite uma senha válida.");

    let body = json!({ "completeRegister": token, "password": "Cadastro@1" });
    let done = system
        .call(Method::PUT, "/api/no-auth/professional/complete-register", None, Some(body.clone()))
        .await;
    assert_eq!(done.status, StatusCode::OK, "{done:?}");
    assert_eq!(done.body["user"]["Email"], "barbeiro2@navalha.dev");
    assert_eq!(system.login("barbeiro2@navalha.dev", "Cadastro@1").await.status, StatusCode::OK);

    let again =
        system.call(Method::PUT, "/api/no-auth/professional/complete-register", None, Some(body)).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.message().starts_with("Link de cadastro inválido"));
}

#[tokio::test]
async fn barbers_see_only_their_units_and_leaders_see_every_active_one() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let names = |answer: &crate::support::Answer| -> Vec<String> {
        answer.body.as_array().map_or_else(Vec::new, |list| {
            list.iter().map(|c| c["Name"].as_str().unwrap_or_default().to_owned()).collect()
        })
    };
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let seen = system.call(Method::GET, "/api/company", Some(&barber), None).await;
    assert_eq!(names(&seen), ["Navalha Centro"]);
    let leader = system.sign_in("lider@navalha.dev").await;
    let seen = system.call(Method::GET, "/api/company", Some(&leader), None).await;
    assert_eq!(names(&seen), ["Navalha Batel", "Navalha Centro", "Navalha Savassi"]);
    assert_eq!(seen.body[0]["City"], "Curitiba");
    assert_eq!(seen.body[0]["State"], "PR");
    assert_eq!(seen.body[0]["Status"], true);
}

#[tokio::test]
async fn every_read_of_the_thread_needs_a_token() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    for path in ["/api/company", "/api/professional-favorite-menu/", "/api/types-profile"] {
        let answer = system.call(Method::GET, path, None, None).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    let token = system.sign_in("padrao@navalha.dev").await;
    let types = system.call(Method::GET, "/api/types-profile", Some(&token), None).await;
    let codes: Vec<&str> =
        types.body.as_array().expect("list").iter().filter_map(|t| t["Type"].as_str()).collect();
    assert_eq!(codes, ["ADMIN", "ATTENDANT", "BARBER_LEADE", "BARBER1", "BARBER2", "DEFAULT"]);
}

#[tokio::test]
async fn health_reports_the_database_and_the_projection_lag() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let health = system.call(Method::GET, "/health", None, None).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.body["database"], "ok");
    let models: Vec<&str> = health.body["projections"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|m| m["model"].as_str())
        .collect();
    assert_eq!(
        models,
        [
            "agenda",
            "caixa",
            "client",
            "club",
            "comanda",
            "company",
            "dashboard",
            "day_off",
            "favorite_menu",
            "free_time",
            "holiday",
            "message",
            "product",
            "professional"
        ]
    );
    assert!(health.body["projections"].as_array().expect("list").iter().all(|m| m["behindEvents"] == 0));

    let token = system.sign_in("admin@navalha.dev").await;
    system
        .call(
            Method::POST,
            "/api/professional-favorite-menu/",
            Some(&token),
            Some(json!({ "slug": "client" })),
        )
        .await;
    let lagging = system.call(Method::POST, "/health", None, None).await;
    assert_eq!(lagging.status, StatusCode::METHOD_NOT_ALLOWED);
    let lagging = system.call_with(Method::GET, "/health", None, None, &[]).await;
    let favorite = lagging.body["projections"]
        .as_array()
        .expect("list")
        .iter()
        .find(|m| m["model"] == "favorite_menu")
        .cloned();
    assert_eq!(favorite.map(|m| m["behindEvents"].clone()), Some(json!(1)));
}
