//! A local payment provider that speaks the GalaxPay (Celcoin) v2 protocol as Navalha uses
//! it, so development and tests run without the real one and the product cannot tell the
//! difference:
//!
//! - `POST /v2/token` (HTTP Basic `galaxId:galaxHash`) gives a bearer token;
//! - `POST /v2/plans`, `POST /v2/subscriptions`, `GET /v2/subscriptions?galaxPayIds|myIds`,
//!   `DELETE /v2/subscriptions/{id}/{galaxPayId|myId}`;
//! - webhooks `subscription.addTransaction` and `transaction.updateStatus`, carrying
//!   `webhookId` and `confirmHash`, POSTed to the configured address.
//!
//! State lives in memory. The controls under `/sim` (not part of GalaxPay) move charges
//! through their statuses, add charges, show or change a subscription, list the webhooks
//! sent and send one again; each takes `"webhook": false` to simulate a lost webhook.
//!
//! It also serves GalaxPay's browser-side card tokenizer ([`cards`]) and answers ViaCEP's
//! postal-code lookups under `/ws` ([`viacep`]).

mod boleto;
pub mod cards;
mod charges;
pub mod viacep;
pub mod whatsapp;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use navalha_platform::Secret;
use rand::RngCore;
use serde_json::{json, Value};
use tokio::sync::Mutex;

/// The provider's date-time format (its wall clock, Brasília).
pub const DATE_TIME: &str = "%Y-%m-%d %H:%M:%S";

/// The simulator's settings.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Config {
    /// The account's GalaxId accepted at `/v2/token`.
    #[arg(long, env = "NAVALHA_GALAXPAY_ID", default_value = "5473")]
    pub galax_id: String,
    /// The account's GalaxHash accepted at `/v2/token`.
    #[arg(long, env = "NAVALHA_GALAXPAY_HASH", default_value = "sim-galax-hash", hide_env_values = true)]
    pub galax_hash: Secret,
    /// Where webhooks are POSTed; none are sent without it.
    #[arg(long, env = "NAVALHA_PROVIDER_SIM_WEBHOOK_URL")]
    pub webhook_url: Option<String>,
    /// The confirmation hash every webhook carries.
    #[arg(
        long,
        env = "NAVALHA_GALAXPAY_WEBHOOK_HASH",
        default_value = "sim-webhook-hash",
        hide_env_values = true
    )]
    pub webhook_hash: Secret,
    /// The address this simulator is reached at, for boleto and Pix links.
    #[arg(long, env = "NAVALHA_PROVIDER_SIM_PUBLIC_URL", default_value = "http://127.0.0.1:8090")]
    pub public_url: String,
    /// The account's public token, which the browser-side card tokenizer sends.
    #[arg(long, env = "NAVALHA_GALAXPAY_PUBLIC_TOKEN", default_value = "sim-public-token")]
    pub public_token: String,
    /// The WhatsApp twin's system-user token, which senders must bear.
    #[arg(
        long,
        env = "NAVALHA_WHATSAPP_TOKEN",
        default_value = "sim-whatsapp-token",
        hide_env_values = true
    )]
    pub whatsapp_token: Secret,
    /// The Meta app secret the WhatsApp twin signs its webhooks with.
    #[arg(
        long,
        env = "NAVALHA_WHATSAPP_APP_SECRET",
        default_value = "sim-whatsapp-secret",
        hide_env_values = true
    )]
    pub whatsapp_app_secret: Secret,
    /// Where the WhatsApp twin POSTs its webhooks; none are sent without it.
    #[arg(long, env = "NAVALHA_PROVIDER_SIM_WHATSAPP_WEBHOOK_URL")]
    pub whatsapp_webhook_url: Option<String>,
}

#[derive(Debug, Default)]
struct Inner {
    tokens: HashSet<String>,
    next_id: i64,
    next_webhook: i64,
    plans: BTreeMap<i64, Value>,
    subscriptions: BTreeMap<i64, Value>,
    /// One-off charges (`/v2/charges`), by galaxPayId.
    charges: BTreeMap<i64, Value>,
    webhooks: Vec<Value>,
    /// Card hashes the tokenizer handed out: the card and when.
    card_hashes: HashMap<String, (Value, NaiveDateTime)>,
    /// The WhatsApp twin's messages, in the order sent.
    whatsapp_messages: Vec<Value>,
    /// The WhatsApp twin's webhooks, in the order sent, with the answer each got.
    whatsapp_webhooks: Vec<Value>,
    /// How long the twin holds each send's answer after taking the message
    /// (`POST /sim/whatsapp/delay`): a slow provider, whose caller may die waiting.
    whatsapp_delay_ms: u64,
}

/// The simulator's shared state.
#[derive(Clone)]
pub struct Simulator {
    config: Arc<Config>,
    inner: Arc<Mutex<Inner>>,
    http: reqwest::Client,
}

impl Simulator {
    /// A simulator with no data.
    pub fn new(config: Config) -> Self {
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(10))
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        // Ids continue from the clock, not from 1: the simulator keeps nothing across restarts
        // but command-api does, and it takes a webhook id seen before with another body for a
        // replay. GalaxPay's own ids never repeat either.
        let first_id = chrono::Utc::now().timestamp_millis();
        let inner = Inner { next_id: first_id, next_webhook: first_id, ..Inner::default() };
        Self { config: Arc::new(config), inner: Arc::new(Mutex::new(inner)), http }
    }

    /// Points the WhatsApp twin's webhooks at `url`.
    pub fn with_whatsapp_webhook_url(mut self, url: &str) -> Self {
        let mut config = (*self.config).clone();
        config.whatsapp_webhook_url = Some(url.to_owned());
        self.config = Arc::new(config);
        self
    }

    /// Points webhooks at `url` (tests learn the address after binding).
    pub fn with_webhook_url(mut self, url: &str) -> Self {
        let mut config = (*self.config).clone();
        config.webhook_url = Some(url.to_owned());
        self.config = Arc::new(config);
        self
    }
}

/// The simulator's HTTP application.
pub fn app(sim: Simulator) -> Router {
    Router::new()
        .route("/v2/token", post(token))
        .route("/v2/plans", post(create_plan))
        .route("/v2/subscriptions", post(create_subscription).get(list_subscriptions))
        .route("/v2/subscriptions/{id}/{type_id}", delete(cancel_subscription))
        .route("/sim/transactions/{id}/status", post(set_transaction_status))
        .route("/sim/subscriptions/{id}/charges", post(add_charge))
        .route("/sim/subscriptions/{id}", get(show_subscription))
        .route("/sim/subscriptions/{id}/status", post(set_subscription_status))
        .route("/sim/webhooks", get(list_webhooks))
        .route("/sim/webhooks/{id}/resend", post(resend_webhook))
        .route("/health", get(|| async { Json(json!({ "status": "ok", "service": "provider-sim" })) }))
        .merge(cards::router())
        .merge(charges::router())
        .merge(viacep::router())
        .merge(whatsapp::router())
        .with_state(sim)
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "error": { "message": message, "details": {} } }))).into_response()
}

/// The provider's wall clock (Brasília, UTC-3).
fn now() -> NaiveDateTime {
    navalha_platform::clock::now_in(navalha_platform::clock::DEFAULT_TIME_ZONE)
}

fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

async fn token(State(sim): State<Simulator>, headers: HeaderMap) -> Response {
    let expected = format!(
        "Basic {}",
        base64(format!("{}:{}", sim.config.galax_id, sim.config.galax_hash.expose()).as_bytes())
    );
    let sent = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if sent != expected {
        return error(StatusCode::UNAUTHORIZED, "Invalid credentials.");
    }
    let mut bytes = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    sim.inner.lock().await.tokens.insert(token.clone());
    Json(json!({ "access_token": token, "token_type": "Bearer", "expires_in": 600, "scope": "" }))
        .into_response()
}

async fn authorized(sim: &Simulator, headers: &HeaderMap) -> bool {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    sim.inner.lock().await.tokens.contains(token)
}

async fn create_plan(State(sim): State<Simulator>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    if !authorized(&sim, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "Unauthorized.");
    }
    if body["name"].as_str().unwrap_or_default().is_empty() || body["PlanPrices"].as_array().is_none() {
        return error(StatusCode::BAD_REQUEST, "name and PlanPrices are required.");
    }
    let mut inner = sim.inner.lock().await;
    inner.next_id += 1;
    let id = inner.next_id;
    let mut plan = body.clone();
    plan["galaxPayId"] = json!(id);
    plan["createdAt"] = json!(now().format(DATE_TIME).to_string());
    inner.plans.insert(id, plan.clone());
    Json(json!({ "type": true, "Plan": plan })).into_response()
}

fn masked(number: &str) -> String {
    let digits: String = number.chars().filter(char::is_ascii_digit).collect();
    let tail = digits.get(digits.len().saturating_sub(4)..).unwrap_or_default();
    format!("{}{tail}", "*".repeat(digits.len().saturating_sub(4)))
}

fn next_payday(payday: NaiveDate, periodicity: &str) -> NaiveDate {
    let months = |n: u32| payday.checked_add_months(chrono::Months::new(n)).unwrap_or(payday);
    match periodicity {
        "weekly" => payday + Duration::days(7),
        "biweekly" => payday + Duration::days(15),
        "bimonthly" => months(2),
        "quarterly" => months(3),
        "biannual" => months(6),
        "yearly" => months(12),
        _ => months(1),
    }
}

/// A new charge of `subscription` (which must hold at least its id and payment method).
fn new_transaction(
    sim: &Simulator,
    inner: &mut Inner,
    subscription: &Value,
    installment: i64,
    payday: NaiveDate,
) -> Value {
    inner.next_id += 1;
    let id = inner.next_id;
    let stamp = now().format(DATE_TIME).to_string();
    let method = subscription["mainPaymentMethodId"].as_str().unwrap_or("boleto");
    let mut transaction = json!({
        "galaxPayId": id,
        "myId": format!("{}-{installment}", subscription["myId"].as_str().unwrap_or_default()),
        "value": subscription["value"],
        "payday": payday.to_string(),
        "installment": installment,
        "subscriptionGalaxPayId": subscription["galaxPayId"],
        "subscriptionMyId": subscription["myId"],
        "createdAt": stamp,
        "statusDate": stamp,
    });
    if method == "creditcard" {
        let card = &subscription["PaymentMethodCreditCard"]["Card"];
        let denied = card["number"].as_str().unwrap_or_default().ends_with("0000");
        transaction["status"] = json!(if denied { "denied" } else { "captured" });
        transaction["statusDescription"] = json!(if denied { "Negada" } else { "Capturada" });
        transaction["CreditCard"] = json!({ "Card": {
            "number": masked(card["number"].as_str().unwrap_or_default()),
            "expiresAt": card["expiresAt"],
            "Brand": { "id": "visa", "name": "Visa" },
        }});
    } else {
        transaction["status"] = json!("pendingBoleto");
        transaction["statusDescription"] = json!("Em aberto");
        transaction["Boleto"] = json!({
            "pdf": format!("{}/sim/boleto/{id}.pdf", sim.config.public_url.trim_end_matches('/')),
            "bankLine": boleto::bank_line(id, subscription["value"].as_i64().unwrap_or_default(), payday),
        });
    }
    transaction
}

async fn create_subscription(
    State(sim): State<Simulator>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !authorized(&sim, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "Unauthorized.");
    }
    let mut inner = sim.inner.lock().await;
    let plan = body["planGalaxPayId"].as_i64().and_then(|id| inner.plans.get(&id).cloned()).or_else(|| {
        inner.plans.values().find(|p| p["myId"] == body["planMyId"] && !p["myId"].is_null()).cloned()
    });
    let Some(plan) = plan else { return error(StatusCode::NOT_FOUND, "Plan not found.") };
    let method = body["mainPaymentMethodId"].as_str().unwrap_or_default().to_owned();
    if method != "boleto" && method != "creditcard" {
        return error(StatusCode::BAD_REQUEST, "mainPaymentMethodId must be creditcard or boleto.");
    }
    if body["Customer"]["document"].as_str().unwrap_or_default().is_empty() {
        return error(StatusCode::BAD_REQUEST, "Customer.document is required.");
    }
    let Some(first_payday) =
        body["firstPayDayDate"].as_str().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
    else {
        return error(StatusCode::BAD_REQUEST, "firstPayDayDate is required.");
    };
    // A card comes as a tokenizer hash (spent here) or, as GalaxPay also accepts, in full.
    let mut card_payment = body["PaymentMethodCreditCard"].clone();
    if method == "creditcard" {
        if let Some(hash) = card_payment["Card"]["hash"].as_str() {
            let Some(card) = cards::redeem(&mut inner.card_hashes, hash) else {
                return error(StatusCode::BAD_REQUEST, "Card hash is invalid, used or expired.");
            };
            card_payment["Card"] = card;
        }
        if card_payment["Card"]["number"].as_str().is_none() {
            return error(StatusCode::BAD_REQUEST, "PaymentMethodCreditCard.Card is required.");
        }
    }
    // Each method has its price in the plan's PlanPrices.
    let prices = plan["PlanPrices"].as_array().cloned().unwrap_or_default();
    let Some(price) = prices.iter().find(|p| p["payment"] == method.as_str()) else {
        return error(StatusCode::BAD_REQUEST, "The plan has no price for this payment method.");
    };
    let value = price["value"].clone();
    inner.next_id += 1;
    let id = inner.next_id;
    let mut subscription = json!({
        "galaxPayId": id,
        "myId": body["myId"].as_str().map(str::to_owned).unwrap_or_else(|| id.to_string()),
        "planGalaxPayId": plan["galaxPayId"],
        "planMyId": plan["myId"],
        "value": value,
        "quantity": plan["quantity"],
        "periodicity": plan["periodicity"],
        "firstPayDayDate": first_payday.to_string(),
        "mainPaymentMethodId": method,
        "status": "active",
        "createdAt": now().format(DATE_TIME).to_string(),
        "Customer": body["Customer"],
        "PaymentMethodCreditCard": card_payment,
    });
    let first = new_transaction(&sim, &mut inner, &subscription, 1, first_payday);
    subscription["Transactions"] = json!([first]);
    // The card itself is never answered back.
    let mut answer = subscription.clone();
    answer.as_object_mut().map(|o| o.remove("PaymentMethodCreditCard"));
    inner.subscriptions.insert(id, subscription);
    Json(json!({ "type": true, "Subscription": answer })).into_response()
}

fn public(subscription: &Value) -> Value {
    let mut public = subscription.clone();
    public.as_object_mut().map(|o| o.remove("PaymentMethodCreditCard"));
    public
}

async fn list_subscriptions(
    State(sim): State<Simulator>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    if !authorized(&sim, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "Unauthorized.");
    }
    let split = |key: &str| -> Option<Vec<String>> {
        query.get(key).map(|list| list.split(',').map(|s| s.trim().to_owned()).collect())
    };
    let (ids, my_ids) = (split("galaxPayIds"), split("myIds"));
    let start: usize = query.get("startAt").and_then(|s| s.parse().ok()).unwrap_or(0);
    let limit: usize = query.get("limit").and_then(|s| s.parse().ok()).unwrap_or(100);
    let inner = sim.inner.lock().await;
    let found: Vec<Value> = inner
        .subscriptions
        .values()
        .filter(|s| ids.as_ref().is_none_or(|ids| ids.contains(&s["galaxPayId"].to_string())))
        .filter(|s| my_ids.as_ref().is_none_or(|ids| ids.iter().any(|id| s["myId"].as_str() == Some(id))))
        .skip(start)
        .take(limit)
        .map(public)
        .collect();
    Json(json!({ "totalQtdFoundInPage": found.len(), "Subscriptions": found })).into_response()
}

/// Finds a subscription's galaxPayId by galaxPayId or myId.
fn find(inner: &Inner, id: &str, type_id: &str) -> Option<i64> {
    match type_id {
        "myId" => inner.subscriptions.iter().find(|(_, s)| s["myId"].as_str() == Some(id)).map(|(k, _)| *k),
        _ => id.parse().ok().filter(|id| inner.subscriptions.contains_key(id)),
    }
}

/// Sets a charge's status, its statusDate strictly after the previous one.
fn set_status(transaction: &mut Value, status: &str) {
    let previous =
        transaction["statusDate"].as_str().and_then(|d| NaiveDateTime::parse_from_str(d, DATE_TIME).ok());
    let mut stamp = now();
    if let Some(previous) = previous {
        if stamp <= previous {
            stamp = previous + Duration::seconds(1);
        }
    }
    transaction["status"] = json!(status);
    transaction["statusDescription"] = json!(status);
    transaction["statusDate"] = json!(stamp.format(DATE_TIME).to_string());
}

/// Builds a webhook, records it and (unless held back) sends it.
async fn webhook(
    sim: &Simulator,
    event: &str,
    subscription: &Value,
    transaction: &Value,
    send: bool,
) -> Value {
    let mut summary = public(subscription);
    summary.as_object_mut().map(|o| o.remove("Transactions"));
    let body = {
        let mut inner = sim.inner.lock().await;
        inner.next_webhook += 1;
        let body = json!({
            "id": inner.next_webhook,
            "event": event,
            "webhookId": inner.next_webhook,
            "confirmHash": sim.config.webhook_hash.expose(),
            "Transaction": transaction,
            "Subscription": summary,
        });
        inner.webhooks.push(json!({ "body": body, "sent": send, "answer": Value::Null }));
        body
    };
    if send {
        deliver(sim, &body).await;
    }
    body
}

async fn deliver(sim: &Simulator, body: &Value) -> Option<u16> {
    let url = sim.config.webhook_url.as_deref()?;
    let answer = match sim.http.post(url).json(body).send().await {
        Ok(response) => Some(response.status().as_u16()),
        Err(error) => {
            tracing::warn!(%error, url, "webhook delivery failed");
            None
        }
    };
    let mut inner = sim.inner.lock().await;
    if let Some(entry) = inner.webhooks.iter_mut().rev().find(|w| w["body"]["webhookId"] == body["webhookId"])
    {
        entry["answer"] = json!(answer);
    }
    answer
}

async fn cancel_subscription(
    State(sim): State<Simulator>,
    headers: HeaderMap,
    Path((id, type_id)): Path<(String, String)>,
) -> Response {
    if !authorized(&sim, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "Unauthorized.");
    }
    let (subscription, changed) = {
        let mut inner = sim.inner.lock().await;
        let Some(key) = find(&inner, &id, &type_id) else {
            return error(StatusCode::NOT_FOUND, "Subscription not found.");
        };
        let Some(subscription) = inner.subscriptions.get_mut(&key) else {
            return error(StatusCode::NOT_FOUND, "Subscription not found.");
        };
        subscription["status"] = json!("canceled");
        let mut changed = Vec::new();
        if let Some(list) = subscription["Transactions"].as_array_mut() {
            for transaction in list {
                if matches!(transaction["status"].as_str(), Some("notSend" | "pendingBoleto" | "pendingPix"))
                {
                    set_status(transaction, "cancelByContract");
                    changed.push(transaction.clone());
                }
            }
        }
        (subscription.clone(), changed)
    };
    for transaction in changed {
        webhook(&sim, "transaction.updateStatus", &subscription, &transaction, true).await;
    }
    Json(json!({ "type": true })).into_response()
}

fn send_flag(body: &Value) -> bool {
    body["webhook"].as_bool().unwrap_or(true)
}

async fn set_transaction_status(
    State(sim): State<Simulator>,
    Path(id): Path<i64>,
    Json(body): Json<Value>,
) -> Response {
    let Some(status) = body["status"].as_str().filter(|s| !s.is_empty()) else {
        return error(StatusCode::BAD_REQUEST, "status is required.");
    };
    let found = {
        let mut inner = sim.inner.lock().await;
        inner.subscriptions.values_mut().find_map(|subscription| {
            let list = subscription["Transactions"].as_array_mut()?;
            let transaction = list.iter_mut().find(|t| t["galaxPayId"].as_i64() == Some(id))?;
            set_status(transaction, status);
            let transaction = transaction.clone();
            Some((subscription.clone(), transaction))
        })
    };
    let Some((subscription, transaction)) = found else {
        return error(StatusCode::NOT_FOUND, "Transaction not found.");
    };
    let hook = webhook(&sim, "transaction.updateStatus", &subscription, &transaction, send_flag(&body)).await;
    Json(json!({ "Transaction": transaction, "webhook": hook })).into_response()
}

async fn add_charge(
    State(sim): State<Simulator>,
    Path(id): Path<i64>,
    body: Option<Json<Value>>,
) -> Response {
    let body = body.map(|Json(b)| b).unwrap_or(Value::Null);
    let created = {
        let mut inner = sim.inner.lock().await;
        let Some(subscription) = inner.subscriptions.get(&id).cloned() else {
            return error(StatusCode::NOT_FOUND, "Subscription not found.");
        };
        let list = subscription["Transactions"].as_array().cloned().unwrap_or_default();
        let last = list.iter().max_by_key(|t| t["installment"].as_i64().unwrap_or(0));
        let installment = last.and_then(|t| t["installment"].as_i64()).unwrap_or(0) + 1;
        let payday = last
            .and_then(|t| t["payday"].as_str())
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
            .map(|d| next_payday(d, subscription["periodicity"].as_str().unwrap_or("monthly")))
            .unwrap_or_else(|| now().date());
        let mut transaction = new_transaction(&sim, &mut inner, &subscription, installment, payday);
        // `{"status": "denied"}`: the charge starts in that status (a card refused on renewal).
        if let Some(status) = body["status"].as_str() {
            transaction["status"] = json!(status);
            transaction["statusDescription"] = json!(status);
        }
        let Some(stored) = inner.subscriptions.get_mut(&id) else {
            return error(StatusCode::NOT_FOUND, "Subscription not found.");
        };
        if let Some(list) = stored["Transactions"].as_array_mut() {
            list.push(transaction.clone());
        }
        (stored.clone(), transaction)
    };
    let (subscription, transaction) = created;
    let hook =
        webhook(&sim, "subscription.addTransaction", &subscription, &transaction, send_flag(&body)).await;
    (StatusCode::CREATED, Json(json!({ "Transaction": transaction, "webhook": hook }))).into_response()
}

async fn set_subscription_status(
    State(sim): State<Simulator>,
    Path(id): Path<i64>,
    Json(body): Json<Value>,
) -> Response {
    let Some(status) = body["status"].as_str() else {
        return error(StatusCode::BAD_REQUEST, "status is required.");
    };
    let mut inner = sim.inner.lock().await;
    let Some(subscription) = inner.subscriptions.get_mut(&id) else {
        return error(StatusCode::NOT_FOUND, "Subscription not found.");
    };
    subscription["status"] = json!(status);
    Json(public(subscription)).into_response()
}

async fn show_subscription(State(sim): State<Simulator>, Path(id): Path<i64>) -> Response {
    match sim.inner.lock().await.subscriptions.get(&id) {
        Some(subscription) => Json(public(subscription)).into_response(),
        None => error(StatusCode::NOT_FOUND, "Subscription not found."),
    }
}

async fn list_webhooks(State(sim): State<Simulator>) -> Json<Value> {
    Json(json!(sim.inner.lock().await.webhooks))
}

async fn resend_webhook(State(sim): State<Simulator>, Path(id): Path<i64>) -> Response {
    let body = {
        let inner = sim.inner.lock().await;
        inner.webhooks.iter().find(|w| w["body"]["webhookId"].as_i64() == Some(id)).map(|w| w["body"].clone())
    };
    let Some(body) = body else { return error(StatusCode::NOT_FOUND, "Webhook not found.") };
    let answer = deliver(&sim, &body).await;
    Json(json!({ "answer": answer })).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_credentials_are_base64() {
        assert_eq!(base64(b"5473:abc"), "NTQ3MzphYmM=");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"abc"), "YWJj");
    }

    #[test]
    fn paydays_follow_the_periodicity() {
        let day = NaiveDate::from_ymd_opt(2027, 1, 31).unwrap_or_default();
        assert_eq!(next_payday(day, "monthly").to_string(), "2027-02-28");
        assert_eq!(next_payday(day, "weekly").to_string(), "2027-02-07");
    }

    #[test]
    fn a_debug_print_of_the_settings_shows_no_hash() {
        let config = Config {
            galax_hash: "galax-hash-1".into(),
            webhook_hash: "webhook-hash-2".into(),
            ..Config::default()
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("galax-hash-1") && !printed.contains("webhook-hash-2"), "{printed}");
    }
}
