//! Checkout links and the public checkout (spec 02 §7 'Plans and checkout'):
//!
//! - `POST checkout/create-user-token` {userId, planId}: a link token for one client and
//!   one plan (staff who reach the plans screen);
//! - `POST checkout/send-user-token-email` {userId, planId}: the same, e-mailed to the
//!   client; answers `true`;
//! - `POST checkout/summary` {token}: public; the plan and the client the link is for;
//! - `POST checkout/subscribe` {token, paymentMethod, card: {hash}}: public; subscribes
//!   through the payment provider at the price of the chosen method.
//!
//! Card numbers never reach Navalha: the page tokenizes the card in the browser with the
//! provider's checkout.js (`CardTokenizer` in the summary) and sends only the hash.
//!
//! A token is 32 random bytes; only its SHA-256 is stored (`checkout_token`, never in an
//! event). It expires after `NAVALHA_CHECKOUT_TOKEN_HOURS` and works once: subscribing
//! consumes it in one UPDATE, so two tabs cannot both subscribe. If the provider then
//! fails, the token is given back so the client can try again.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::business::Business;
use navalha_domain::client::Client;
use navalha_domain::plan::{
    Plan, PlanCommand, PlanDetails, PlanPaymentMethod, Price, MSG_NOT_FOUND as MSG_PLAN_NOT_FOUND,
};
use navalha_domain::subscription::{
    ProviderTransaction, ReportSource, Subscriber, Subscription, SubscriptionCommand, SubscriptionDetails,
};
use navalha_platform::auth::{Auth, PlanStaff, Principal};
use navalha_platform::clock::today;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::ApiError;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::galaxpay::{provider_now, NewSubscription};
use super::plans::{existing_plan, plan_in_reach};
use crate::commands::{execute, load, next_id, position_headers, system_metadata};
use crate::state::AppState;

/// Unknown client.
pub const MSG_CLIENT_NOT_FOUND: &str = "Cliente não encontrado.";
/// Inactive client.
pub const MSG_CLIENT_INACTIVE: &str = "Este cliente está inativo.";
/// Inactive plan.
pub const MSG_PLAN_INACTIVE: &str = "Este plano não está ativo.";
/// Unknown token.
pub const MSG_TOKEN_UNKNOWN: &str = "Link de assinatura inválido.";
/// Expired or used token.
pub const MSG_TOKEN_SPENT: &str = "Este link de assinatura expirou ou já foi usado.";
/// Payment method other than creditcard or boleto.
pub const MSG_PAYMENT_METHOD: &str = "Informe o método de pagamento.";
/// No card hash: the card was not tokenized.
pub const MSG_CARD: &str = "Informe os dados do cartão: número, nome impresso, validade (AAAA-MM) e CVV.";
/// A link for a client without a CPF: the provider needs the payer's document.
pub const MSG_CLIENT_CPF: &str = "Cadastre o CPF do cliente antes de enviar o link de assinatura.";
/// A checkout by a client without a CPF.
pub const MSG_SUBSCRIBER_CPF: &str =
    "Seu cadastro está sem CPF. Peça à barbearia para completá-lo e tente novamente.";
/// A payment method the plan does not accept.
pub const MSG_METHOD_NOT_OFFERED: &str = "Este plano não aceita este método de pagamento.";
/// Subject of the link e-mail.
pub const MAIL_SUBJECT: &str = "Seu link de assinatura";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_token))
        .routes(routes!(send_email))
        .routes(routes!(summary))
        .routes(routes!(subscribe))
}

/// `{userId, planId}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkRequest {
    user_id: i64,
    plan_id: i64,
}

fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Checks the client and plan, stores a new token and answers it with its link.
async fn new_link(
    state: &AppState,
    staff: &Principal,
    request: &LinkRequest,
) -> Result<(String, String, Client, PlanDetails), ApiError> {
    let client: Client = load(&state.events, staff.business_id, &request.user_id.to_string()).await?;
    let details = client.details().ok_or_else(|| ApiError::NotFound(MSG_CLIENT_NOT_FOUND.to_owned()))?;
    if !details.status {
        return Err(ApiError::Unprocessable(MSG_CLIENT_INACTIVE.to_owned()));
    }
    if client.cpf().is_none_or(str::is_empty) {
        return Err(ApiError::Unprocessable(MSG_CLIENT_CPF.to_owned()));
    }
    let plan = plan_in_reach(state, staff, request.plan_id).await?;
    let plan = plan.details().cloned().ok_or_else(|| ApiError::NotFound(MSG_PLAN_NOT_FOUND.to_owned()))?;
    if !plan.active {
        return Err(ApiError::Unprocessable(MSG_PLAN_INACTIVE.to_owned()));
    }
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    sqlx::query(
        "insert into checkout_token (token_hash, user_id, plan_id, created_by, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(hours => $5))",
    )
    .bind(hash(&token))
    .bind(request.user_id)
    .bind(request.plan_id)
    .bind(staff.professional_id)
    .bind(state.settings.checkout_token_hours as i32)
    .execute(&state.pool)
    .await?;
    let link = format!("{}/checkout?token={token}", state.settings.public_url.trim_end_matches('/'));
    Ok((token, link, client, plan))
}

/// A checkout link made.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CheckoutLink {
    token: String,
    /// The public checkout page with the token.
    link: String,
}

#[utoipa::path(
    post,
    path = "/checkout/create-user-token",
    tag = "Club",
    summary = "A checkout link token for one client and one plan (ADMIN, ATTENDANT, DEFAULT); expires after NAVALHA_CHECKOUT_TOKEN_HOURS, works once",
    request_body = LinkRequest,
    responses(
        (status = 201, description = "The link, and its token", body = CheckoutLink),
        refused::Malformed,
        refused::Forbidden,
        (status = 404, description = "Unknown client or plan", body = ErrorBody),
        (status = 422, description = "Inactive client or plan", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn create_token(
    State(state): State<AppState>,
    auth: Auth<PlanStaff>,
    Json(request): Json<LinkRequest>,
) -> Result<(StatusCode, Json<CheckoutLink>), ApiError> {
    let (token, link, _, _) = new_link(&state, &auth, &request).await?;
    Ok((StatusCode::CREATED, Json(CheckoutLink { token, link })))
}

#[utoipa::path(
    post,
    path = "/checkout/send-user-token-email",
    tag = "Club",
    summary = "E-mail a checkout link to the client (ADMIN, ATTENDANT, DEFAULT)",
    request_body = LinkRequest,
    responses(
        (status = 200, description = "Sent", body = bool, content_type = "application/json"),
        refused::Malformed,
        refused::Forbidden,
        (status = 404, description = "Unknown client or plan", body = ErrorBody),
        (status = 422, description = "Inactive client or plan", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn send_email(
    State(state): State<AppState>,
    auth: Auth<PlanStaff>,
    Json(request): Json<LinkRequest>,
) -> Result<Json<bool>, ApiError> {
    let (_, link, client, plan) = new_link(&state, &auth, &request).await?;
    let details = client.details().ok_or_else(|| ApiError::NotFound(MSG_CLIENT_NOT_FOUND.to_owned()))?;
    let text = format!(
        "Olá, {}!\n\nVocê foi convidado para o plano {} da barbearia.\n\
         Para assinar, acesse o link abaixo:\n\n{link}\n\n\
         O link vale por {} horas e pode ser usado uma vez.",
        details.name, plan.plan_name, state.settings.checkout_token_hours
    );
    state.mailer.send(&details.email, MAIL_SUBJECT, &text).await?;
    Ok(Json(true))
}

/// `{token}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct TokenRequest {
    token: String,
}

/// The client and plan of a token that can still be used.
/// The client, plan and business of a link that can still be used.
async fn usable(state: &AppState, token: &str) -> Result<(i64, i64, i64), ApiError> {
    let row: Option<(i64, i64, i64, bool)> = sqlx::query_as(
        "select t.user_id, t.plan_id, b.business_id, t.used_at is null and t.expires_at > now()
           from checkout_token t
           join aggregate_business b on b.aggregate_type = $2 and b.aggregate_id = t.plan_id::text
          where t.token_hash = $1",
    )
    .bind(hash(token))
    .bind(<Plan as navalha_domain::Aggregate>::TYPE)
    .fetch_optional(&state.pool)
    .await?;
    match row {
        None => Err(ApiError::NotFound(MSG_TOKEN_UNKNOWN.to_owned())),
        Some((.., false)) => Err(ApiError::Unprocessable(MSG_TOKEN_SPENT.to_owned())),
        Some((user_id, plan_id, business_id, true)) => Ok((user_id, plan_id, business_id)),
    }
}

/// The plan and client of a checkout link, as the checkout page shows them.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CheckoutSummary {
    id_subscription_detail: i64,
    plan_name: String,
    description: String,
    /// Reais per charge, by the main method.
    value: f64,
    periodicity: &'static str,
    quantity: i64,
    payment_method: &'static str,
    prices: Vec<Price>,
    items_detail: String,
    url_image: Option<String>,
    /// The barbershop selling the plan.
    business_name: String,
    /// The services the plan includes, at the subscriber's price.
    services: Vec<CheckoutService>,
    /// Days from subscribing to the first boleto's due date; a card is charged that day.
    first_due_days: i64,
    user: CheckoutClient,
    /// The provider's card tokenizer; null where none is configured.
    card_tokenizer: Option<CardTokenizer>,
}

/// A service a plan includes, as the checkout lists it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CheckoutService {
    description: String,
    /// Reais, the catalogue's price when added to the plan.
    original_value: f64,
    /// Percent.
    discount: i64,
    /// Reais, with the discount.
    value: f64,
}

/// The client a checkout link was made for.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CheckoutClient {
    id_user: i64,
    name: Option<String>,
    email: Option<String>,
}

/// Where the browser loads the provider's tokenizer, and with which key.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CardTokenizer {
    script_url: String,
    public_token: String,
    /// checkout.js takes `true` for production and `false` for the sandbox.
    production: bool,
}

#[utoipa::path(
    post,
    path = "/checkout/summary",
    tag = "Club",
    summary = "Public: the plan and client of a checkout token",
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The plan and the client", body = CheckoutSummary),
        refused::Malformed,
        (status = 404, description = "Unknown token", body = ErrorBody),
        (status = 422, description = "Expired or used token", body = ErrorBody),
    ),
)]
async fn summary(
    State(state): State<AppState>,
    Json(request): Json<TokenRequest>,
) -> Result<Json<CheckoutSummary>, ApiError> {
    let (user_id, plan_id, business_id) = usable(&state, &request.token).await?;
    let plan = existing_plan(&state, business_id, plan_id).await?;
    let client: Client = load(&state.events, business_id, &user_id.to_string()).await?;
    let business: Business = load(&state.events, business_id, &business_id.to_string()).await?;
    let details = plan.details().ok_or_else(ApiError::not_found)?;
    let settings = &state.settings;
    Ok(Json(CheckoutSummary {
        id_subscription_detail: plan_id,
        plan_name: details.plan_name.clone(),
        description: details.description.clone(),
        value: details.value_cents as f64 / 100.0,
        periodicity: details.periodicity.code(),
        quantity: details.quantity,
        payment_method: details.payment_method.code(),
        prices: details.prices_answer(),
        items_detail: details.items_detail.clone(),
        url_image: details.image.as_ref().map(|file| format!("/api/media/gallery/{file}")),
        business_name: business.name().unwrap_or_default().to_owned(),
        services: plan
            .services()
            .iter()
            .map(|s| CheckoutService {
                description: s.description.clone(),
                original_value: s.original_cents as f64 / 100.0,
                discount: s.discount,
                value: s.value_cents() as f64 / 100.0,
            })
            .collect(),
        first_due_days: details.first_due_days,
        user: CheckoutClient {
            id_user: user_id,
            name: client.details().map(|d| d.name.clone()),
            email: client.details().map(|d| d.email.clone()),
        },
        card_tokenizer: (!settings.galaxpay_public_token.is_empty()).then(|| CardTokenizer {
            script_url: settings.galaxpay_js_url.clone(),
            public_token: settings.galaxpay_public_token.clone(),
            production: !settings.galaxpay_url.contains("sandbox"),
        }),
    }))
}

/// `{token, paymentMethod, card: {hash}}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscribeRequest {
    token: String,
    payment_method: Option<String>,
    card: Option<CardInput>,
}

/// The card as the provider's tokenizer left it in the browser: only its hash. Card
/// fields sent alongside are not even read.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct CardInput {
    hash: Option<String>,
}

fn checked_card(card: Option<&CardInput>) -> Result<Value, ApiError> {
    let hash = card.and_then(|c| c.hash.as_deref()).map(str::trim).unwrap_or_default();
    let well_formed = (8..=512).contains(&hash.len()) && hash.chars().all(|c| c.is_ascii_graphic());
    if !well_formed {
        return Err(ApiError::field("card", MSG_CARD));
    }
    Ok(json!({ "hash": hash }))
}

/// Makes sure the provider knows the plan, creating it there on first use.
async fn provider_plan(
    state: &AppState,
    business_id: i64,
    plan_id: i64,
    plan: &Plan,
    origin: &RequestOrigin,
) -> Result<i64, ApiError> {
    if let Some(id) = plan.galax_pay_id() {
        return Ok(id);
    }
    let details = plan.details().ok_or_else(|| ApiError::NotFound(MSG_PLAN_NOT_FOUND.to_owned()))?;
    let galax_pay_id = state.galaxpay.create_plan(&format!("plan-{plan_id}"), details).await?;
    let metadata = system_metadata("Integração com o provedor de pagamentos", business_id, origin);
    execute::<Plan>(
        &state.events,
        &plan_id.to_string(),
        PlanCommand::LinkToProvider { galax_pay_id },
        &metadata,
    )
    .await?;
    Ok(galax_pay_id)
}

#[utoipa::path(
    post,
    path = "/checkout/subscribe",
    tag = "Club",
    summary = "Public: subscribe by card or boleto through the payment provider; consumes the token",
    request_body = SubscribeRequest,
    responses(
        (status = 201, description = "The subscription, and its first charge's boleto or Pix", body = Subscribed, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Malformed,
        (status = 404, description = "Unknown token", body = ErrorBody),
        (status = 422, description = "Expired or used token, payment method or card data", body = ErrorBody),
        (status = 503, description = "The payment provider could not be reached", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
async fn subscribe(
    State(state): State<AppState>,
    origin: RequestOrigin,
    Json(request): Json<SubscribeRequest>,
) -> Result<(StatusCode, HeaderMap, Json<Subscribed>), ApiError> {
    let (user_id, plan_id, business_id) = usable(&state, &request.token).await?;
    let plan = existing_plan(&state, business_id, plan_id).await?;
    let details = plan.details().cloned().ok_or_else(ApiError::not_found)?;
    let method = match request.payment_method.as_deref() {
        None => details.payment_method,
        Some(text) => PlanPaymentMethod::parse(text)
            .ok_or_else(|| ApiError::field("paymentMethod", MSG_PAYMENT_METHOD))?,
    };
    if details.price_for(method).is_none() {
        return Err(ApiError::field("paymentMethod", MSG_METHOD_NOT_OFFERED));
    }
    let card = match method {
        PlanPaymentMethod::Boleto => None,
        PlanPaymentMethod::Creditcard => Some(checked_card(request.card.as_ref())?),
    };
    let client: Client = load(&state.events, business_id, &user_id.to_string()).await?;
    let person =
        client.details().cloned().ok_or_else(|| ApiError::NotFound(MSG_CLIENT_NOT_FOUND.to_owned()))?;
    // Checked before anything reaches the provider, which refuses a payer without a document.
    if client.cpf().is_none_or(str::is_empty) {
        return Err(ApiError::Unprocessable(MSG_SUBSCRIBER_CPF.to_owned()));
    }
    // Consume the token first: of two concurrent requests only one gets past here.
    let consumed = sqlx::query(
        "update checkout_token set used_at = now()
          where token_hash = $1 and used_at is null and expires_at > now()",
    )
    .bind(hash(&request.token))
    .execute(&state.pool)
    .await?;
    if consumed.rows_affected() != 1 {
        return Err(ApiError::Unprocessable(MSG_TOKEN_SPENT.to_owned()));
    }
    let result = create_subscription(
        &state,
        &origin,
        business_id,
        user_id,
        &client,
        &person,
        plan_id,
        &plan,
        method,
        card,
    )
    .await;
    match result {
        Ok((id, position, answer)) => {
            sqlx::query("update checkout_token set subscription_id = $2 where token_hash = $1")
                .bind(hash(&request.token))
                .bind(id)
                .execute(&state.pool)
                .await?;
            Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
        }
        Err(error) => {
            sqlx::query(
                "update checkout_token set used_at = null where token_hash = $1 and subscription_id is null",
            )
            .bind(hash(&request.token))
            .execute(&state.pool)
            .await?;
            Err(error)
        }
    }
}

/// A first card charge the card operator denied: the attempt is recorded (not a subscriber,
/// see `Subscription::first_charge_denied`), the provider must not go on billing a card
/// that failed, so its subscription is cancelled there and the cancellation read back for
/// the history; the client is told why. The caller gives the link back for another try.
async fn first_charge_denied(
    state: &AppState,
    origin: &RequestOrigin,
    business_id: i64,
    id: i64,
    denied: &ProviderTransaction,
) -> ApiError {
    tracing::info!(subscription_id = id, "first card charge denied; cancelling at the provider");
    let metadata = system_metadata("Cartão recusado na primeira cobrança", business_id, origin);
    let cancelled = async {
        let attempt = load::<Subscription>(&state.events, business_id, &id.to_string()).await?;
        let galax_pay_id = attempt.details().map(|d| d.galax_pay_id).unwrap_or_default();
        state.galaxpay.cancel_subscription(galax_pay_id).await?;
        super::subscribers::refresh(state, id, &attempt, ReportSource::Cancellation, &metadata).await
    };
    if let Err(error) = cancelled.await {
        tracing::error!(subscription_id = id, %error, "cancelling after a denied first charge failed");
    }
    let reason = denied.status_description.as_deref().filter(|d| !d.trim().is_empty());
    ApiError::field("card", &card_denied_message(reason))
}

/// What the client reads when the card operator refuses the first charge.
pub fn card_denied_message(reason: Option<&str>) -> String {
    match reason {
        Some(reason) => format!(
            "O pagamento foi recusado pela operadora do cartão ({reason}). Confira os dados ou use outro cartão."
        ),
        None => "O pagamento foi recusado pela operadora do cartão. Confira os dados ou use outro cartão.".to_owned(),
    }
}

/// A subscription made, as the checkout answers it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Subscribed {
    pub id_subscription_user: i64,
    pub galax_pay_id: i64,
    /// The provider's status of the subscription, when it reported one.
    pub status: Option<String>,
    /// The first charge's value, in reais.
    pub value: f64,
    /// The first charge's due date (a card is charged on the day of subscribing; a boleto
    /// follows the plan's `FirstDueDays`).
    pub due_date: chrono::NaiveDate,
    /// The first charge's boleto, when it has one.
    pub boleto_pdf: Option<String>,
    /// The first boleto's linha digitável, to copy into a bank's app.
    pub boleto_bank_line: Option<String>,
    /// The first charge's Pix link, when it has one.
    pub pix_link: Option<String>,
}

/// Subscribes a client to a plan at the provider and records it: `(IdSubscriptionUser,
/// position, the checkout's answer)`. A denied first card charge is an error (see
/// [`first_charge_denied`]).
#[allow(clippy::too_many_arguments)]
pub async fn create_subscription(
    state: &AppState,
    origin: &RequestOrigin,
    business_id: i64,
    user_id: i64,
    client: &Client,
    person: &navalha_domain::client::ClientDetails,
    plan_id: i64,
    plan: &Plan,
    method: PlanPaymentMethod,
    card: Option<Value>,
) -> Result<(i64, Option<navalha_platform::position::Position>, Subscribed), ApiError> {
    let details = plan.details().cloned().ok_or_else(ApiError::not_found)?;
    let price_cents =
        details.price_for(method).ok_or_else(|| ApiError::field("paymentMethod", MSG_METHOD_NOT_OFFERED))?;
    let plan_galax_pay_id = provider_plan(state, business_id, plan_id, plan, origin).await?;
    let id = next_id(&state.pool, "subscription_user_id_seq").await?;
    let cpf = client.cpf().unwrap_or_default().to_owned();
    let first_pay_day = details.first_pay_day(method, today());
    let remote = state
        .galaxpay
        .create_subscription(&NewSubscription {
            my_id: id,
            plan_galax_pay_id,
            first_pay_day,
            payment_method: method.code().to_owned(),
            customer: json!({
                "myId": format!("client-{user_id}"),
                "name": person.name,
                "document": cpf,
                "emails": [person.email],
                "phones": [person.phone.parse::<i64>().unwrap_or_default()],
            }),
            card,
        })
        .await?;
    let subscription = SubscriptionDetails {
        user: Subscriber {
            user_id,
            name: person.name.clone(),
            email: person.email.clone(),
            cpf,
            phone: person.phone.clone(),
            birth_date: person.birth_date,
        },
        plan_id,
        plan_name: details.plan_name.clone(),
        plan_value_cents: price_cents,
        periodicity: details.periodicity,
        quantity: details.quantity,
        payment_method: method,
        galax_pay_id: remote.galax_pay_id,
        validity_start: details.validity_start,
        validity_end: details.validity_end,
        first_pay_day,
        created_at: navalha_platform::clock::now(),
    };
    let report = remote.report(provider_now());
    let metadata = system_metadata(&format!("Checkout de {}", person.name), business_id, origin);
    let position = execute::<Subscription>(
        &state.events,
        &id.to_string(),
        SubscriptionCommand::Create { details: subscription, report: report.clone() },
        &metadata,
    )
    .await?;
    tracing::info!(subscription_id = id, galax_pay_id = remote.galax_pay_id, "subscription created");
    let first = report.first_charge();
    if let Some(denied) = report.denied_first_charge() {
        return Err(first_charge_denied(state, origin, business_id, id, denied).await);
    }
    let answer = Subscribed {
        id_subscription_user: id,
        galax_pay_id: remote.galax_pay_id,
        status: report.subscription_status.as_ref().map(|s| s.code().to_owned()),
        value: price_cents as f64 / 100.0,
        due_date: first.and_then(|t| t.payday).unwrap_or(first_pay_day),
        boleto_pdf: first.and_then(|t| t.boleto_pdf.clone()),
        boleto_bank_line: first.and_then(|t| t.boleto_bank_line.clone()),
        pix_link: first.and_then(|t| t.pix_link.clone()),
    };
    Ok((id, position, answer))
}
