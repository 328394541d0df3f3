//! Tokens: only EdDSA with our key, our audience, and not expired.

use axum::http::{Method, StatusCode};
use jsonwebtoken::{EncodingKey, Header};
use navalha_command_api::identity::keys::SigningKeys;
use navalha_platform::auth::{Claims, ALGORITHM, AUDIENCE, ISSUER};
use sqlx::PgPool;

use crate::support::System;

/// The session the hand-made tokens name (opened in the test).
const SESSION: &str = "6f1c3a52-0d1e-4c47-9d55-3b8f0a7e9c21";

fn claims(exp_offset: i64, aud: &str) -> Claims {
    // Machine clock: token expiry is time passing, not the calendar (ADR 0021).
    let now = chrono::Utc::now().timestamp();
    Claims {
        sub: "1".to_owned(),
        sid: SESSION.to_owned(),
        name: "Ana Administradora".to_owned(),
        email: "admin@navalha.dev".to_owned(),
        aud: aud.to_owned(),
        iss: ISSUER.to_owned(),
        iat: now,
        exp: now + exp_offset,
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn only_fresh_eddsa_tokens_for_our_audience_signed_by_our_key_pass(pool: PgPool) {
    let system = System::start(pool.clone()).await;
    let keys = SigningKeys::load_or_create(&pool).await.expect("keys");
    sqlx::query(
        "insert into staff_session (session_id, professional_id, expires_at) values ($1::uuid, 1, now() + interval '1 hour')",
    )
    .bind(SESSION)
    .execute(&pool)
    .await
    .expect("session");
    let ours = EncodingKey::from_ed_der(&keys.private_pkcs8);
    let sign = |claims: &Claims, key: &EncodingKey, header: Header| {
        jsonwebtoken::encode(&header, claims, key).expect("token")
    };

    let good = sign(&claims(3600, AUDIENCE), &ours, Header::new(ALGORITHM));
    let check = |token: String| {
        let system = &system;
        async move { system.call(Method::GET, "/api/types-profile", Some(&token), None).await.status }
    };
    assert_eq!(check(good.clone()).await, StatusCode::OK);
    assert_eq!(
        check(sign(&claims(-3600, AUDIENCE), &ours, Header::new(ALGORITHM))).await,
        StatusCode::UNAUTHORIZED,
        "expired"
    );
    assert_eq!(
        check(sign(&claims(3600, "someone-else"), &ours, Header::new(ALGORITHM))).await,
        StatusCode::UNAUTHORIZED,
        "audience"
    );
    let hmac = sign(
        &claims(3600, AUDIENCE),
        &EncodingKey::from_secret(&keys.public_key),
        Header::new(jsonwebtoken::Algorithm::HS256),
    );
    assert_eq!(check(hmac).await, StatusCode::UNAUTHORIZED, "HS256 keyed with the public key");
    let other_pair =
        ring::signature::Ed25519KeyPair::generate_pkcs8(&ring::rand::SystemRandom::new()).expect("pair");
    let forged =
        sign(&claims(3600, AUDIENCE), &EncodingKey::from_ed_der(other_pair.as_ref()), Header::new(ALGORITHM));
    assert_eq!(check(forged).await, StatusCode::UNAUTHORIZED, "another key");
    let mut parts: Vec<String> = good.split('.').map(str::to_owned).collect();
    parts[0] = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0".to_owned(); // {"alg":"none"}
    assert_eq!(check(format!("{}.{}.", parts[0], parts[1])).await, StatusCode::UNAUTHORIZED, "alg none");
    assert_eq!(check("garbage".to_owned()).await, StatusCode::UNAUTHORIZED);
    let mut unknown_session = claims(3600, AUDIENCE);
    unknown_session.sid = "0b7e4d5c-1111-4c47-9d55-3b8f0a7e9c21".to_owned();
    assert_eq!(
        check(sign(&unknown_session, &ours, Header::new(ALGORITHM))).await,
        StatusCode::UNAUTHORIZED,
        "a session that was never opened"
    );
    let mut another_professional = claims(3600, AUDIENCE);
    another_professional.sub = "2".to_owned();
    assert_eq!(
        check(sign(&another_professional, &ours, Header::new(ALGORITHM))).await,
        StatusCode::UNAUTHORIZED,
        "someone else's session"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn the_signing_key_is_made_once_and_kept(pool: PgPool) {
    let first = SigningKeys::load_or_create(&pool).await.expect("first");
    let second = SigningKeys::load_or_create(&pool).await.expect("second");
    assert_eq!(first.public_key, second.public_key);
    assert_eq!(first.public_key.len(), 32);
    let rows: i64 =
        sqlx::query_scalar("select count(*) from signing_key").fetch_one(&pool).await.expect("count");
    assert_eq!(rows, 1);
}
