//! The club's demo data for `./navalha up` (issue 13): two plans and four subscribers in the
//! states staff meet every day (paid, boleto waiting, card denied on a later charge,
//! cancelled), made through the same code as checkout and through the running provider
//! simulator, whose controls pay and deny charges. The simulator's webhooks reach the running
//! command-api; each subscription is then read from the provider as reconciliation would, so
//! the result does not depend on them arriving.

use navalha_domain::client::Client;
use navalha_domain::metadata::EventMetadata;
use navalha_domain::plan::{MethodPrice, Periodicity, Plan, PlanCommand, PlanDetails, PlanPaymentMethod};
use navalha_domain::subscription::{ReportSource, Subscription};
use navalha_platform::clock::today;
use navalha_platform::http::RequestOrigin;
use navalha_platform::ApiError;
use serde_json::{json, Value};

use super::checkout::create_subscription;
use super::plans::{add_plan_service, existing_plan};
use super::subscribers::{cancel_everywhere, refresh};
use crate::commands::{execute, load, next_id};
use crate::seed::DEMO_BUSINESS_ID;
use crate::state::AppState;

/// What happens to a demo subscriber after subscribing.
#[derive(Clone, Copy)]
enum Story {
    /// Two charges, both paid.
    Paid,
    /// The first boleto is still open.
    BoletoWaiting,
    /// The first card charge captured, the second denied by the card operator.
    CardDenied,
    /// Cancelled by the shop.
    Cancelled,
}

/// Loads the club demo unless a subscription exists: answers whether it loaded.
pub async fn seed_demo_club(state: &AppState, sim_url: &str) -> Result<bool, ApiError> {
    let present: bool =
        sqlx::query_scalar("select exists (select 1 from events where aggregate_type = 'SubscriptionUser')")
            .fetch_one(&state.pool)
            .await?;
    if present {
        return Ok(false);
    }
    let metadata = EventMetadata::system("Carga de demonstração", DEMO_BUSINESS_ID);
    let start = today() - chrono::Duration::days(30);
    let plan =
        |name: &str, description: &str, cents: i64, method: PlanPaymentMethod, quantity: i64| PlanDetails {
            plan_name: name.to_owned(),
            description: description.to_owned(),
            value_cents: cents,
            active: true,
            discount: 0,
            image: None,
            advertising_start: None,
            advertising_end: None,
            validity_start: start,
            validity_end: start + chrono::Duration::days(730),
            all_companies: true,
            company_ids: Vec::new(),
            partner_company_ids: Vec::new(),
            periodicity: Periodicity::Monthly,
            quantity,
            items_detail: String::new(),
            payment_method: method,
            other_prices: Vec::new(),
            first_due_days: navalha_domain::plan::DEFAULT_FIRST_DUE_DAYS,
        };
    let boleto = create_plan(
        state,
        plan("Clube Navalha", "Corte e barba todo mês", 8990, PlanPaymentMethod::Boleto, 12),
        &[("Corte de cabelo", 100), ("Barba", 50)],
        &metadata,
    )
    .await?;
    let card = create_plan(
        state,
        PlanDetails {
            // Card by default, boleto accepted at a higher price.
            other_prices: vec![MethodPrice { payment_method: PlanPaymentMethod::Boleto, value_cents: 12990 }],
            first_due_days: navalha_domain::plan::DEFAULT_FIRST_DUE_DAYS,
            ..plan(
                "Clube Navalha Cartão",
                "Cortes ilimitados, cobrança no cartão",
                11990,
                PlanPaymentMethod::Creditcard,
                0,
            )
        },
        &[("Corte de cabelo", 100), ("Sobrancelha", 100)],
        &metadata,
    )
    .await?;

    let clients = active_clients_with_cpf(state).await?;
    let stories = [
        (boleto, Story::Paid),
        (boleto, Story::BoletoWaiting),
        (card, Story::CardDenied),
        (boleto, Story::Cancelled),
    ];
    let sim = Sim { http: reqwest::Client::new(), url: sim_url.trim_end_matches('/').to_owned() };
    for ((plan_id, story), client_id) in stories.into_iter().zip(clients) {
        subscribe(state, &sim, &metadata, plan_id, client_id, story).await?;
    }
    tracing::info!("club demo: two plans and four subscribers");
    Ok(true)
}

async fn create_plan(
    state: &AppState,
    details: PlanDetails,
    services: &[(&str, i64)],
    metadata: &EventMetadata,
) -> Result<i64, ApiError> {
    let id = next_id(&state.pool, "subscription_detail_id_seq").await?;
    execute::<Plan>(&state.events, &id.to_string(), PlanCommand::CreatePlan(details), metadata).await?;
    for (description, discount) in services {
        let service_id: i64 = sqlx::query_scalar(
            "select aggregate_id::bigint from events
              where aggregate_type = 'Service' and sequence = 1
                and payload #>> '{ServiceCreated,description}' = $1",
        )
        .bind(description)
        .fetch_one(&state.pool)
        .await?;
        add_plan_service(state, id, service_id, *discount, metadata, None).await?;
    }
    Ok(id)
}

/// The demo's active clients with a CPF, in the order they were registered.
async fn active_clients_with_cpf(state: &AppState) -> Result<Vec<i64>, ApiError> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "select aggregate_id::bigint from events where aggregate_type = 'Client' and sequence = 1
          order by global_position",
    )
    .fetch_all(&state.pool)
    .await?;
    let mut chosen = Vec::new();
    for id in ids {
        let client: Client = load(&state.events, DEMO_BUSINESS_ID, &id.to_string()).await?;
        if client.details().is_some_and(|d| d.status) && client.cpf().is_some_and(|c| !c.is_empty()) {
            chosen.push(id);
        }
    }
    Ok(chosen)
}

/// The simulator's controls (`/sim/...`, not GalaxPay's API).
struct Sim {
    http: reqwest::Client,
    url: String,
}

impl Sim {
    async fn post(&self, path: &str, body: Value) -> Result<Value, ApiError> {
        let failed = |error: String| ApiError::Internal(anyhow::anyhow!("provider-sim {path}: {error}"));
        let response = self
            .http
            .post(format!("{}{path}", self.url))
            .json(&body)
            .send()
            .await
            .map_err(|e| failed(e.to_string()))?;
        if !response.status().is_success() {
            return Err(failed(response.status().to_string()));
        }
        response.json().await.map_err(|e| failed(e.to_string()))
    }

    async fn set_status(&self, charge: i64, status: &str) -> Result<(), ApiError> {
        self.post(&format!("/sim/transactions/{charge}/status"), json!({ "status": status }))
            .await
            .map(|_| ())
    }

    /// The provider issues the subscription's next charge (in `status` when given): its
    /// galaxPayId.
    async fn next_charge(&self, subscription: i64, status: Option<&str>) -> Result<i64, ApiError> {
        let body = status.map(|status| json!({ "status": status })).unwrap_or_else(|| json!({}));
        let answer = self.post(&format!("/sim/subscriptions/{subscription}/charges"), body).await?;
        answer["Transaction"]["galaxPayId"]
            .as_i64()
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("provider-sim answered no charge id")))
    }
}

async fn subscribe(
    state: &AppState,
    sim: &Sim,
    metadata: &EventMetadata,
    plan_id: i64,
    client_id: i64,
    story: Story,
) -> Result<(), ApiError> {
    let origin = RequestOrigin { request_id: String::new(), client_ip: String::new(), idempotent_run: None };
    let plan = existing_plan(state, DEMO_BUSINESS_ID, plan_id).await?;
    let client: Client = load(&state.events, DEMO_BUSINESS_ID, &client_id.to_string()).await?;
    let person = client.details().cloned().ok_or_else(ApiError::not_found)?;
    let (method, card) = match story {
        Story::CardDenied => {
            // As the checkout page does: the card goes to the provider's tokenizer, Navalha
            // keeps only the hash.
            let card = json!({ "number": "4111111111111111", "holder": person.name.to_uppercase(),
                               "expiresAt": "2030-12", "cvv": "123" });
            let body = json!({ "publicToken": state.settings.galaxpay_public_token, "Card": card });
            let hash = sim.post("/js/card-hash", body).await?["hash"].as_str().map(str::to_owned);
            (PlanPaymentMethod::Creditcard, Some(json!({ "hash": hash })))
        }
        _ => (PlanPaymentMethod::Boleto, None),
    };
    let (id, _, answer) = create_subscription(
        state,
        &origin,
        DEMO_BUSINESS_ID,
        client_id,
        &client,
        &person,
        plan_id,
        &plan,
        method,
        card,
    )
    .await?;
    let galax_pay_id = answer.galax_pay_id;
    let first = || async {
        let subscription: Subscription = load(&state.events, DEMO_BUSINESS_ID, &id.to_string()).await?;
        subscription
            .transactions()
            .first()
            .map(|t| t.galax_pay_id)
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("subscription {id} has no charge")))
    };
    match story {
        Story::Paid => {
            sim.set_status(first().await?, "payedBoleto").await?;
            let second = sim.next_charge(galax_pay_id, None).await?;
            sim.set_status(second, "payedBoleto").await?;
        }
        Story::BoletoWaiting => {}
        Story::CardDenied => {
            sim.next_charge(galax_pay_id, Some("denied")).await?;
        }
        Story::Cancelled => {
            let subscription: Subscription = load(&state.events, DEMO_BUSINESS_ID, &id.to_string()).await?;
            cancel_everywhere(state, id, &subscription, metadata, &origin).await?;
        }
    }
    // Whatever the webhooks did not bring (command-api not running), reconciliation does.
    let subscription: Subscription = load(&state.events, DEMO_BUSINESS_ID, &id.to_string()).await?;
    refresh(state, id, &subscription, ReportSource::Reconciliation, metadata).await?;
    Ok(())
}
