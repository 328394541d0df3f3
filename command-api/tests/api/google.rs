//! Google sign-in against a local server that plays Google's token-information address.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::Query;
use axum::http::{Method, StatusCode};
use axum::routing::get;
use axum::{Json, Router};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::support::System;

/// Navalha's client id at Google in these tests.
const CLIENT_ID: &str = "navalha-web.apps.googleusercontent.com";

/// Starts a provider that knows these access tokens, and returns its token-information
/// address. Tokens are issued to [`CLIENT_ID`] unless their answer names another `aud`;
/// like Google, `email_verified` is the text "true" or "false".
async fn fake_provider(accounts: HashMap<&'static str, Value>) -> String {
    let accounts = Arc::new(accounts);
    let app = Router::new().route(
        "/tokeninfo",
        get(move |Query(query): Query<HashMap<String, String>>| {
            let accounts = accounts.clone();
            async move {
                let token = query.get("access_token").map(String::as_str).unwrap_or_default();
                match accounts.get(token) {
                    Some(info) => {
                        let mut info = info.clone();
                        let verified = info["email_verified"] == json!(true);
                        info["email_verified"] = json!(verified.to_string());
                        if info.get("aud").is_none() {
                            info["aud"] = json!(CLIENT_ID);
                            info["azp"] = json!(CLIENT_ID);
                        }
                        (StatusCode::OK, Json(info))
                    }
                    None => (StatusCode::BAD_REQUEST, Json(json!({ "error": "invalid_token" }))),
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}/tokeninfo")
}

/// command-api asking `provider` about tokens, as the Google client [`CLIENT_ID`].
async fn start(pool: PgPool, provider: String) -> System {
    System::start_with(pool, |settings| {
        settings.google_tokeninfo_url = provider;
        settings.google_client_id = CLIENT_ID.to_owned();
    })
    .await
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

#[tokio::test]
async fn a_verified_google_account_is_linked_by_email_then_recognised_by_sub() {
    let pool = demo_database().await;
    let provider = fake_provider(HashMap::from([
        ("token-ana", json!({ "sub": "google-111", "email": "admin@navalha.dev", "email_verified": true })),
        (
            "token-ana-new-email",
            json!({ "sub": "google-111", "email": "ana.pessoal@gmail.com", "email_verified": true }),
        ),
    ]))
    .await;
    let system = start(pool, provider).await;
    let first = social_login(&system, "google-111", "token-ana").await;
    assert_eq!(first.status, StatusCode::OK, "{first:?}");
    assert_eq!(first.body["user"]["Email"], "admin@navalha.dev");
    // Later the e-mail at Google changes; the account is found by its sub.
    let later = social_login(&system, "", "token-ana-new-email").await;
    assert_eq!(later.status, StatusCode::OK, "{later:?}");
    assert_eq!(later.body["user"]["IdProfessional"], first.body["user"]["IdProfessional"]);
}

#[tokio::test]
async fn the_browsers_account_id_is_not_trusted() {
    let pool = demo_database().await;
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
    let system = start(pool, provider).await;
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

#[tokio::test]
async fn a_token_issued_to_another_app_does_not_sign_in() {
    let pool = demo_database().await;
    let provider = fake_provider(HashMap::from([
        (
            "token-from-another-app",
            json!({ "sub": "google-111", "email": "admin@navalha.dev", "email_verified": true,
                    "aud": "quiz-game.apps.googleusercontent.com", "azp": "quiz-game.apps.googleusercontent.com" }),
        ),
        ("token-ana", json!({ "sub": "google-111", "email": "admin@navalha.dev", "email_verified": true })),
    ]))
    .await;
    let system = start(pool.clone(), provider.clone()).await;
    let foreign = social_login(&system, "google-111", "token-from-another-app").await;
    assert_eq!(foreign.status, StatusCode::UNPROCESSABLE_ENTITY, "{foreign:?}");
    assert_eq!(foreign.message(), "Ocorreu um erro ao buscar informações do usuário");
    let linked: i64 =
        sqlx::query_scalar("select count(*) from staff_credential where google_sub is not null")
            .fetch_one(&system.pool)
            .await
            .expect("count");
    assert_eq!(linked, 0, "the foreign token linked an account");
    // Navalha's own token for the same person works.
    let own = social_login(&system, "google-111", "token-ana").await;
    assert_eq!(own.status, StatusCode::OK, "{own:?}");
    // Without a configured client id no token is accepted.
    let unconfigured = System::start_with(pool, |settings| settings.google_tokeninfo_url = provider).await;
    let refused = social_login(&unconfigured, "google-111", "token-ana").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
}
