//! Password recovery by e-mailed code: hashed, 10 minutes, 5 tries, once.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::System;

async fn ask_code(system: &System, who: &str) -> crate::support::Answer {
    system
        .call(
            Method::POST,
            "/api/session-professional/recovery-code",
            None,
            Some(json!({ "cpfOrEmail": who })),
        )
        .await
}

fn code_in(mail: &Value) -> String {
    let text = mail["text"].as_str().unwrap_or_default();
    text.split("Seu código: ").nth(1).map(|rest| rest.chars().take(6).collect()).unwrap_or_default()
}

async fn validate(system: &System, who: &str, code: &str) -> crate::support::Answer {
    system
        .call(
            Method::POST,
            "/api/session-professional/validate-recovery-code",
            None,
            Some(json!({ "cpfOrEmail": who, "recoveryCode": code })),
        )
        .await
}

async fn reset(system: &System, who: &str, code: &str, password: &str) -> crate::support::Answer {
    system
        .call(
            Method::POST,
            "/api/session-professional/reset-password",
            None,
            Some(json!({ "cpfOrEmail": who, "recoveryCode": code, "newPassword": password, "recoveryData": "" })),
        )
        .await
}

#[tokio::test]
async fn the_emailed_code_validates_resets_the_password_and_signs_in_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let sent = ask_code(&system, "barbeiro1@navalha.dev").await;
    assert_eq!((sent.status, sent.message()), (StatusCode::OK, "Código enviado com sucesso."));
    let mails = system.mailed().await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0]["to"], "barbeiro1@navalha.dev");
    let code = code_in(&mails[0]);
    assert!(code.len() == 6 && code.chars().all(|c| c.is_ascii_digit()), "{code}");

    let stored: Vec<u8> =
        sqlx::query_scalar("select code_hash from recovery_code").fetch_one(&system.pool).await.expect("row");
    assert_ne!(stored, code.as_bytes(), "only a hash is stored");

    let valid = validate(&system, "barbeiro1@navalha.dev", &code).await;
    assert_eq!((valid.status, valid.message()), (StatusCode::OK, "Código validado com sucesso."));
    // The current password is no new one (issue 39); the code still works after.
    let same = reset(&system, "barbeiro1@navalha.dev", &code, "Navalha@2026").await;
    assert_eq!(same.status, StatusCode::UNPROCESSABLE_ENTITY, "{same:?}");
    assert_eq!(same.body["errors"]["newPassword"], "A nova senha deve ser diferente da senha atual.");
    let done = reset(&system, "barbeiro1@navalha.dev", &code, "Outra@Senha9").await;
    assert_eq!(done.status, StatusCode::OK, "{done:?}");
    assert_eq!(done.body["user"]["Email"], "barbeiro1@navalha.dev");
    assert!(done.body["Token"].is_string());
    assert_eq!(system.login("barbeiro1@navalha.dev", "Outra@Senha9").await.status, StatusCode::OK);
    assert_eq!(system.login("barbeiro1@navalha.dev", "Navalha@2026").await.status, StatusCode::BAD_REQUEST);

    let reused = reset(&system, "barbeiro1@navalha.dev", &code, "Terceira@1").await;
    assert_eq!(reused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reused.message(), "Código inválido ou expirado. Solicite um novo código.");
}

#[tokio::test]
async fn the_answer_is_the_same_for_unknown_accounts_and_nothing_is_sent() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let unknown = ask_code(&system, "ninguem@navalha.dev").await;
    let known = ask_code(&system, "lider@navalha.dev").await;
    assert_eq!((unknown.status, unknown.body.clone()), (known.status, known.body.clone()));
    assert_eq!(system.mailed().await.len(), 1, "only the real account got an e-mail");
    let empty = ask_code(&system, "  ").await;
    assert_eq!(empty.body["errors"]["cpfOrEmail"], "Digite seu e-mail.");
}

#[tokio::test]
async fn a_code_can_be_asked_for_by_cpf() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let cpf: String =
        sqlx::query_scalar("select cpf from staff_credential where email = 'lider@navalha.dev'")
            .fetch_one(&system.pool)
            .await
            .expect("cpf");
    let masked = format!("{}.{}.{}-{}", &cpf[0..3], &cpf[3..6], &cpf[6..9], &cpf[9..11]);
    ask_code(&system, &masked).await;
    let mails = system.mailed().await;
    assert_eq!(mails.first().map(|m| m["to"].clone()), Some(json!("lider@navalha.dev")));
    let code = code_in(&mails[0]);
    assert_eq!(validate(&system, &masked, &code).await.status, StatusCode::OK);
}

#[tokio::test]
async fn five_wrong_tries_kill_the_code() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    ask_code(&system, "barbeiro2@navalha.dev").await;
    let code = code_in(&system.mailed().await[0]);
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        let answer = validate(&system, "barbeiro2@navalha.dev", wrong).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let right_but_dead = validate(&system, "barbeiro2@navalha.dev", &code).await;
    assert_eq!(right_but_dead.status, StatusCode::UNPROCESSABLE_ENTITY);
    let empty = validate(&system, "barbeiro2@navalha.dev", "").await;
    assert_eq!(empty.body["errors"]["recoveryCode"], "Digite o código.");
}

#[tokio::test]
async fn codes_expire_after_ten_minutes_and_a_new_code_replaces_the_old() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    ask_code(&system, "admin@navalha.dev").await;
    let first = code_in(&system.mailed().await[0]);
    ask_code(&system, "admin@navalha.dev").await;
    let second = code_in(&system.mailed().await[1]);
    if first != second {
        assert_eq!(
            validate(&system, "admin@navalha.dev", &first).await.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "superseded"
        );
    }
    let lifetime: f64 = sqlx::query_scalar(
        "select extract(epoch from expires_at - created_at)::float8 from recovery_code order by recovery_code_id desc limit 1",
    )
    .fetch_one(&system.pool)
    .await
    .expect("row");
    assert_eq!(lifetime, 600.0);
    sqlx::query("update recovery_code set created_at = created_at - interval '11 minutes', expires_at = expires_at - interval '11 minutes'")
        .execute(&system.pool)
        .await
        .expect("age the code");
    assert_eq!(
        validate(&system, "admin@navalha.dev", &second).await.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expired"
    );
}

#[tokio::test]
async fn the_new_password_follows_the_recovery_rules() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    for (password, message) in [
        ("", "Digite a senha nova."),
        ("Ab1@", "Mínimo de 6 caracteres."),
        ("abcdef1@", "Digite uma senha válida."),
    ] {
        let answer = reset(&system, "admin@navalha.dev", "123456", password).await;
        assert_eq!(answer.body["errors"]["newPassword"], message, "{password}");
    }
}
