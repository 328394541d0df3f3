//! A client of the GalaxPay (Celcoin) v2 REST API: what the club needs and nothing more.
//!
//! - `POST /token` with HTTP Basic `galaxId:galaxHash` and a client-credentials style body
//!   gives a bearer access token (kept in memory until shortly before it expires);
//! - `POST /plans` creates a plan;
//! - `POST /subscriptions` creates a subscription by `creditcard` or `boleto`;
//! - `GET /subscriptions?galaxPayIds=..` reads subscriptions with their `Transactions`;
//! - `DELETE /subscriptions/{id}/galaxPayId` cancels one;
//! - `POST /charges` creates a one-off Pix charge at the counter (issue 41), `GET
//!   /charges?galaxPayIds=..` reads it, `DELETE /charges/{id}/galaxPayId` cancels it.
//!
//! The Pix charge's fields follow GalaxPay's (Celcoin) public API reference: the body's
//! `mainPaymentMethodId: "pix"` with `PaymentMethodPix.Deadline`, and the answer's
//! `Charge.Transactions[0].Pix` with `qrCode` (copia e cola), `image` and `page`
//! (docs/money.md, 'Pix at the counter', lists the sources).
//!
//! The base address is configurable (`NAVALHA_GALAXPAY_URL`): the real API, its sandbox,
//! or the local simulator (`provider-sim`), which speaks the same protocol.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{NaiveDate, NaiveDateTime};
use navalha_domain::plan::PlanDetails;
use navalha_domain::subscription::{
    ProviderReport, ProviderTransaction, SubscriptionStatus, TransactionStatus,
};
use navalha_platform::ApiError;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Mutex;

/// Answer when the provider cannot be reached or refuses a call.
pub const MSG_PROVIDER_DOWN: &str = "Não foi possível comunicar com o provedor de pagamentos.";

/// The provider refused a card hash (spent, expired or from another account).
pub const MSG_CARD_HASH_REFUSED: &str =
    "Não foi possível usar os dados deste cartão. Digite-os novamente e tente outra vez.";

/// The scopes the club uses.
const SCOPES: &str = "customers.read customers.write plans.read plans.write transactions.read \
                      transactions.write webhooks.write cards.read cards.write subscriptions.read \
                      subscriptions.write charges.read charges.write boletos.read";

/// The provider's date-time format (its wall clock, Brasília).
pub const DATE_TIME: &str = "%Y-%m-%d %H:%M:%S";

/// A GalaxPay API client.
#[derive(Clone)]
pub struct GalaxPay {
    http: reqwest::Client,
    base: String,
    galax_id: String,
    galax_hash: String,
    token: Arc<Mutex<Option<(String, Instant)>>>,
}

impl std::fmt::Debug for GalaxPay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GalaxPay").field("base", &self.base).field("galax_id", &self.galax_id).finish()
    }
}

/// A subscription as the provider answers it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteSubscription {
    /// galaxPayId.
    pub galax_pay_id: i64,
    /// myId: our IdSubscriptionUser.
    #[serde(default)]
    pub my_id: Option<String>,
    /// status.
    #[serde(default)]
    pub status: Option<String>,
    /// Transactions.
    #[serde(rename = "Transactions", default)]
    pub transactions: Vec<Value>,
}

/// What the club sends to create a subscription.
#[derive(Debug, Clone)]
pub struct NewSubscription {
    /// Our id (myId).
    pub my_id: i64,
    /// The provider's plan id.
    pub plan_galax_pay_id: i64,
    /// First due date.
    pub first_pay_day: NaiveDate,
    /// `creditcard` or `boleto`.
    pub payment_method: String,
    /// The customer: our client id, name, CPF, e-mail, phone.
    pub customer: Value,
    /// The card, for `creditcard`: `{hash}` from the provider's browser-side tokenizer.
    pub card: Option<Value>,
}

/// A one-off Pix charge as the provider answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemotePix {
    /// The charge's galaxPayId.
    pub galax_pay_id: i64,
    /// The transaction's status: `pendingPix`, `payedPix`, `unavailablePix`, `cancel`...
    pub status: String,
    /// 'Pix copia e cola'.
    pub copy_paste: String,
    /// The QR code's image.
    pub image: String,
    /// The page a client opens on a phone.
    pub page: String,
}

impl RemotePix {
    /// Read from a `Charge` object; `None` without its id or Pix.
    pub fn of(charge: &Value) -> Option<RemotePix> {
        let transaction = &charge["Transactions"][0];
        let pix = &transaction["Pix"];
        Some(RemotePix {
            galax_pay_id: charge["galaxPayId"].as_i64()?,
            status: transaction["status"].as_str().unwrap_or_default().to_owned(),
            copy_paste: pix["qrCode"].as_str()?.to_owned(),
            image: pix["image"].as_str().unwrap_or_default().to_owned(),
            page: pix["page"].as_str().unwrap_or_default().to_owned(),
        })
    }

    /// Whether the provider says it was paid.
    pub fn paid(&self) -> bool {
        self.status == "payedPix"
    }

    /// Whether it ended without being paid.
    pub fn failed(&self) -> bool {
        matches!(self.status.as_str(), "unavailablePix" | "cancel" | "canceled" | "notCompensated")
    }
}

/// How long a counter Pix waits for the client before it expires at the provider.
pub const PIX_MINUTES: i64 = 30;

fn down(context: &str, error: impl std::fmt::Display) -> ApiError {
    tracing::warn!(%error, context, "payment provider call failed");
    ApiError::Unavailable(MSG_PROVIDER_DOWN.to_owned())
}

impl GalaxPay {
    /// A client of the API at `base` (e.g. `https://api.galaxpay.com.br/v2`).
    pub fn new(http: reqwest::Client, base: &str, galax_id: &str, galax_hash: &str) -> Self {
        Self {
            http,
            base: base.trim_end_matches('/').to_owned(),
            galax_id: galax_id.to_owned(),
            galax_hash: galax_hash.to_owned(),
            token: Arc::default(),
        }
    }

    async fn access_token(&self) -> Result<String, ApiError> {
        let mut cached = self.token.lock().await;
        if let Some((token, until)) = cached.as_ref() {
            if Instant::now() < *until {
                return Ok(token.clone());
            }
        }
        let response = self
            .http
            .post(format!("{}/token", self.base))
            .basic_auth(&self.galax_id, Some(&self.galax_hash))
            .json(&json!({ "grant_type": "authorization_code", "scope": SCOPES }))
            .send()
            .await
            .map_err(|e| down("token", e))?;
        if !response.status().is_success() {
            return Err(down("token", response.status()));
        }
        let body: Value = response.json().await.map_err(|e| down("token", e))?;
        let token = body["access_token"].as_str().ok_or_else(|| down("token", "no access_token"))?.to_owned();
        let seconds = body["expires_in"].as_u64().unwrap_or(600);
        // Renew a minute early so a token never expires in flight.
        let until = Instant::now() + Duration::from_secs(seconds.saturating_sub(60).max(1));
        *cached = Some((token.clone(), until));
        Ok(token)
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, ApiError> {
        self.call_or_refused(method, path, body)
            .await?
            .map_err(|(status, body)| down(path, format!("{status}: {body}")))
    }

    /// Like [`Self::call`], but a 400 (the provider refused the request itself) comes back as
    /// `Ok(Err((status, body)))` for the caller to explain.
    async fn call_or_refused(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Result<Value, (reqwest::StatusCode, Value)>, ApiError> {
        let token = self.access_token().await?;
        let mut request = self.http.request(method, format!("{}{path}", self.base)).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| down(path, e))?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if status == reqwest::StatusCode::BAD_REQUEST || status == reqwest::StatusCode::NOT_FOUND {
            return Ok(Err((status, body)));
        }
        if !status.is_success() {
            if status == reqwest::StatusCode::UNAUTHORIZED {
                *self.token.lock().await = None;
            }
            return Err(down(path, format!("{status}: {body}")));
        }
        Ok(Ok(body))
    }

    /// `POST /plans`: creates the plan and answers its galaxPayId.
    pub async fn create_plan(&self, my_id: &str, plan: &PlanDetails) -> Result<i64, ApiError> {
        let body = json!({
            "myId": my_id,
            "name": plan.plan_name,
            "periodicity": plan.periodicity.code(),
            "quantity": plan.quantity,
            "additionalInfo": plan.description,
            "PlanPrices": plan.prices().iter()
                .map(|p| json!({ "payment": p.payment_method.code(), "value": p.value_cents }))
                .collect::<Vec<_>>(),
        });
        let answer = self.call(reqwest::Method::POST, "/plans", Some(body)).await?;
        answer["Plan"]["galaxPayId"].as_i64().ok_or_else(|| down("plans", "no Plan.galaxPayId"))
    }

    /// `POST /subscriptions`: creates a subscription on a plan.
    pub async fn create_subscription(&self, new: &NewSubscription) -> Result<RemoteSubscription, ApiError> {
        let mut body = json!({
            "myId": new.my_id.to_string(),
            "planGalaxPayId": new.plan_galax_pay_id,
            "firstPayDayDate": new.first_pay_day.to_string(),
            "mainPaymentMethodId": new.payment_method,
            "Customer": new.customer,
        });
        match new.payment_method.as_str() {
            "creditcard" => {
                body["PaymentMethodCreditCard"] = json!({ "Card": new.card.clone().unwrap_or(Value::Null) })
            }
            _ => body["PaymentMethodBoleto"] = json!({ "instructions": "Assinatura do clube" }),
        }
        let answer = match self.call_or_refused(reqwest::Method::POST, "/subscriptions", Some(body)).await? {
            Ok(answer) => answer,
            // A card hash lives minutes and works once: the client types the card again.
            Err((reqwest::StatusCode::BAD_REQUEST, refusal)) if new.card.is_some() => {
                tracing::warn!(%refusal, "the provider refused the card");
                return Err(ApiError::field("card", MSG_CARD_HASH_REFUSED));
            }
            Err((status, refusal)) => return Err(down("subscriptions", format!("{status}: {refusal}"))),
        };
        serde_json::from_value(answer["Subscription"].clone()).map_err(|e| down("subscriptions", e))
    }

    /// `GET /subscriptions?galaxPayIds=..`: one subscription with its transactions.
    pub async fn subscription(&self, galax_pay_id: i64) -> Result<Option<RemoteSubscription>, ApiError> {
        let path = format!("/subscriptions?galaxPayIds={galax_pay_id}&startAt=0&limit=1");
        let answer = self.call(reqwest::Method::GET, &path, None).await?;
        let list: Vec<RemoteSubscription> =
            serde_json::from_value(answer["Subscriptions"].clone()).map_err(|e| down("subscriptions", e))?;
        Ok(list.into_iter().find(|s| s.galax_pay_id == galax_pay_id))
    }

    /// `DELETE /subscriptions/{galaxPayId}/galaxPayId`: cancels it.
    /// A subscription the provider does not know is charged nowhere: cancelling it succeeds
    /// (e.g. a provider sandbox that was reset under Navalha's records).
    pub async fn cancel_subscription(&self, galax_pay_id: i64) -> Result<(), ApiError> {
        let path = format!("/subscriptions/{galax_pay_id}/galaxPayId");
        match self.call_or_refused(reqwest::Method::DELETE, &path, None).await? {
            Ok(_) => Ok(()),
            Err((reqwest::StatusCode::NOT_FOUND, body)) => {
                tracing::warn!(galax_pay_id, %body, "the provider does not know the subscription; cancelled here only");
                Ok(())
            }
            Err((status, body)) => Err(down(&path, format!("{status}: {body}"))),
        }
    }
}

impl GalaxPay {
    /// `POST /charges`: a one-off Pix charge of `cents` for `customer`, expiring in
    /// [`PIX_MINUTES`]; `my_id` names it for the webhook (`comanda-{id}-pix-{payment}`).
    pub async fn create_pix_charge(
        &self,
        my_id: &str,
        cents: i64,
        customer: Value,
        instructions: &str,
    ) -> Result<RemotePix, ApiError> {
        let body = json!({
            "myId": my_id,
            "value": cents,
            "additionalInfo": instructions,
            "payday": provider_now().date().to_string(),
            "mainPaymentMethodId": "pix",
            "Customer": customer,
            "PaymentMethodPix": {
                "instructions": instructions,
                "Deadline": { "type": "minutes", "value": PIX_MINUTES },
            },
        });
        let answer = self.call(reqwest::Method::POST, "/charges", Some(body)).await?;
        RemotePix::of(&answer["Charge"]).ok_or_else(|| down("charges", "no Charge.Transactions[0].Pix"))
    }

    /// `GET /charges?galaxPayIds=..`: a charge as the provider has it now.
    pub async fn pix_charge(&self, galax_pay_id: i64) -> Result<Option<RemotePix>, ApiError> {
        let path = format!("/charges?galaxPayIds={galax_pay_id}&startAt=0&limit=1");
        let answer = self.call(reqwest::Method::GET, &path, None).await?;
        let charges = answer["Charges"].as_array().cloned().unwrap_or_default();
        Ok(charges.iter().filter_map(RemotePix::of).find(|charge| charge.galax_pay_id == galax_pay_id))
    }

    /// `DELETE /charges/{galaxPayId}/galaxPayId`: cancels a charge nobody should pay any more.
    pub async fn cancel_charge(&self, galax_pay_id: i64) -> Result<(), ApiError> {
        let path = format!("/charges/{galax_pay_id}/galaxPayId");
        self.call(reqwest::Method::DELETE, &path, None).await.map(|_| ())
    }
}

fn text(value: &Value) -> Option<String> {
    value.as_str().filter(|s| !s.is_empty()).map(str::to_owned)
}

/// Reads the provider's `YYYY-MM-DD HH:MM:SS` (or ISO) date-time.
pub fn date_time(value: &Value) -> Option<NaiveDateTime> {
    let text = value.as_str()?;
    NaiveDateTime::parse_from_str(text, DATE_TIME)
        .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S"))
        .ok()
        .or_else(|| chrono::DateTime::parse_from_rfc3339(text).ok().map(|d| d.naive_local()))
}

/// A provider `Transaction` object as the domain records it.
pub fn transaction(value: &Value) -> Option<ProviderTransaction> {
    let card = &value["CreditCard"]["Card"];
    Some(ProviderTransaction {
        galax_pay_id: value["galaxPayId"].as_i64()?,
        installment: value["installment"].as_i64().unwrap_or(1),
        value_cents: value["value"].as_i64().unwrap_or(0),
        payday: value["payday"].as_str().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()),
        status: TransactionStatus::of(value["status"].as_str().unwrap_or_default()),
        status_description: text(&value["statusDescription"]),
        status_date: date_time(&value["statusDate"]),
        card_number: text(&card["number"]),
        card_brand: text(&card["Brand"]["name"]).or_else(|| text(&card["brand"])),
        card_expires_at: text(&card["expiresAt"]),
        boleto_pdf: text(&value["Boleto"]["pdf"]),
        boleto_bank_line: text(&value["Boleto"]["bankLine"]),
        pix_link: text(&value["Pix"]["page"]),
        created_at: date_time(&value["createdAt"]),
    })
}

/// The provider's wall clock now (Brasília time, the default zone), to date reads of its
/// state.
pub fn provider_now() -> NaiveDateTime {
    navalha_platform::clock::now_in(navalha_platform::clock::DEFAULT_TIME_ZONE)
}

impl RemoteSubscription {
    /// What this read says, observed at `observed_at`.
    pub fn report(&self, observed_at: NaiveDateTime) -> ProviderReport {
        ProviderReport {
            observed_at,
            subscription_status: self.status.clone().map(SubscriptionStatus::from),
            transactions: self.transactions.iter().filter_map(transaction).collect(),
        }
    }
}
