//! Google sign-in against a local server that plays the provider's user-info address.

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::{HeaderMap, Method, StatusCode};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::support::System;

/// Starts a provider that knows these access tokens, and returns its user-info address.
async fn fake_provider(accounts: HashMap<&'static str, Value>) -> String {
    let accounts = Arc::new(accounts);
    let app = Router::new().route(
        "/userinfo",
        get(move |headers: HeaderMap| {
            let accounts = accounts.clone();
            async move {
                let token = headers
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.strip_prefix("Bearer "))
                    .unwrap_or_default();
                match accounts.get(token) {
                    Some(info) => (StatusCode::OK, Json(info.clone())),
                    None => (StatusCode::UNAUTHORIZED, Json(json!({ "error": "invalid_token" }))),
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}/userinfo")
}

async fn social_login(system: &System, id_user: &str, token: &str) -> crate::support::Answer {
    system
        .call(
            Method::POST,
            "/api/session-professional/login-social-media",
            None,
            Some(json!({ "idUser": id_user, "socialMedia": "google", "accessToken": token })),
        )
        .await
}

#[sqlx::test(migrations = "../migrations")]
async fn a_verified_google_account_is_linked_by_email_then_recognised_by_sub(pool: PgPool) {
    let provider = fake_provider(HashMap::from([
        ("token-ana", json!({ "sub": "google-111", "email": "admin@navalha.dev", "email_verified": true })),
        (
            "token-ana-new-email",
            json!({ "sub": "google-111", "email": "ana.pessoal@gmail.com", "email_verified": true }),
        ),
    ]))
    .await;
    let system = System::start_with(pool, |settings| settings.google_userinfo_url = provider).await;
    let first = social_login(&system, "google-111", "token-ana").await;
    assert_eq!(first.status, StatusCode::OK, "{first:?}");
    assert_eq!(first.body["user"]["Email"], "admin@navalha.dev");
    // Later the e-mail at Google changes; the account is found by its sub.
    let later = social_login(&system, "", "token-ana-new-email").await;
    assert_eq!(later.status, StatusCode::OK, "{later:?}");
    assert_eq!(later.body["user"]["IdProfessional"], first.body["user"]["IdProfessional"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_browsers_account_id_is_not_trusted(pool: PgPool) {
    let provider = fake_provider(HashMap::from([
        (
            "token-mallory",
            json!({ "sub": "google-999", "email": "mallory@gmail.com", "email_verified": true }),
        ),
        (
            "token-unverified",
            json!({ "sub": "google-222", "email": "lider@navalha.dev", "email_verified": false }),
        ),
    ]))
    .await;
    let system = System::start_with(pool, |settings| settings.google_userinfo_url = provider).await;
    // Claiming another account's id with one's own token.
    let claimed = social_login(&system, "google-111", "token-mallory").await;
    assert_eq!(claimed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(claimed.message(), "Ocorreu um erro ao buscar informações do usuário");
    // A token the provider does not know.
    let invented = social_login(&system, "google-111", "made-up").await;
    assert_eq!(invented.status, StatusCode::UNPROCESSABLE_ENTITY);
    // A Google account with no staff account.
    let stranger = social_login(&system, "google-999", "token-mallory").await;
    assert_eq!(stranger.message(), "Nenhum cadastro da barbearia está vinculado a esta conta Google.");
    // An unverified e-mail does not link.
    let unverified = social_login(&system, "google-222", "token-unverified").await;
    assert_eq!(unverified.status, StatusCode::UNPROCESSABLE_ENTITY);
    let linked: i64 =
        sqlx::query_scalar("select count(*) from staff_credential where google_sub is not null")
            .fetch_one(&system.pool)
            .await
            .expect("count");
    assert_eq!(linked, 0);
    let other_network = system
        .call(
            Method::POST,
            "/api/session-professional/login-social-media",
            None,
            Some(json!({ "idUser": "1", "socialMedia": "facebook", "accessToken": "x" })),
        )
        .await;
    assert_eq!(other_network.body["errors"]["socialMedia"], "Rede social não suportada.");
}
