//! Browser-side card tokenization, as GalaxPay's checkout.js offers it: the page loads
//! `/checkout.min.js`, which sends the card from the browser to `POST /js/card-hash` and
//! hands the page a hash. The hash works once, for five minutes, in place of the card in
//! `PaymentMethodCreditCard.Card` (`{"hash": ...}`), so the shop's server never sees the
//! number. The real script's own calls are not public; only its JavaScript API is copied.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::{Duration, NaiveDateTime};
use rand::RngCore;
use serde_json::{json, Value};

use crate::{error, now, Simulator};

/// How long a hash can be used.
pub const HASH_LIFETIME_MINUTES: i64 = 5;

const SCRIPT: &str = include_str!("checkout.js");

/// The tokenizer's routes.
pub fn router() -> Router<Simulator> {
    Router::new().route("/checkout.min.js", get(script)).route("/js/card-hash", post(card_hash))
}

async fn script() -> Response {
    ([(header::CONTENT_TYPE, "application/javascript; charset=utf-8")], SCRIPT).into_response()
}

/// Card fields as the script sends them; `None` when one is missing or malformed.
fn valid_card(card: &Value) -> Option<Value> {
    let number: String = card["number"].as_str()?.chars().filter(char::is_ascii_digit).collect();
    let holder = card["holder"].as_str()?.trim();
    let expires_at = card["expiresAt"].as_str()?;
    let cvv = card["cvv"].as_str()?;
    let expiry_ok = expires_at.len() == 7
        && expires_at.as_bytes()[4] == b'-'
        && expires_at.chars().enumerate().all(|(i, c)| i == 4 || c.is_ascii_digit());
    let cvv_ok = (3..=4).contains(&cvv.len()) && cvv.chars().all(|c| c.is_ascii_digit());
    ((13..=19).contains(&number.len()) && !holder.is_empty() && expiry_ok && cvv_ok)
        .then(|| json!({ "number": number, "holder": holder, "expiresAt": expires_at, "cvv": cvv }))
}

/// `POST /js/card-hash` `{publicToken, Card}` (sent as text/plain by the script): `{hash}`.
async fn card_hash(State(sim): State<Simulator>, body: String) -> Response {
    // The page that calls this is on another origin (the shop's).
    let cors = [(header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")];
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    if body["publicToken"].as_str() != Some(sim.config.public_token.as_str()) {
        return (cors, error(StatusCode::UNAUTHORIZED, "Invalid publicToken.")).into_response();
    }
    let Some(card) = valid_card(&body["Card"]) else {
        return (cors, error(StatusCode::BAD_REQUEST, "Dados do cartão inválidos.")).into_response();
    };
    let mut bytes = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut bytes);
    let hash: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut inner = sim.inner.lock().await;
    let created = now();
    inner.card_hashes.retain(|_, (_, at)| expired_before(*at) < created);
    inner.card_hashes.insert(hash.clone(), (card, created));
    (cors, Json(json!({ "hash": hash }))).into_response()
}

fn expired_before(created: NaiveDateTime) -> NaiveDateTime {
    created + Duration::minutes(HASH_LIFETIME_MINUTES)
}

/// The card a hash stands for, spending the hash; `None` when unknown, used or expired.
pub(crate) fn redeem(
    hashes: &mut std::collections::HashMap<String, (Value, NaiveDateTime)>,
    hash: &str,
) -> Option<Value> {
    let (card, created) = hashes.remove(hash)?;
    (expired_before(created) >= now()).then_some(card)
}
