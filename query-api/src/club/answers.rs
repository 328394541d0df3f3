//! The club's answers, typed: the fields each screen of spec 02 §3 reads, in its
//! PascalCase. Money is in reais (the read models keep cents).

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use navalha_domain::plan::{PlanDetails, Price};
use navalha_domain::subscription::{ProviderTransaction, Subscription};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::history::Change;

/// Cents to reais.
pub fn money(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// One of a client's subscriptions, as the clients list and form and the agenda's card show it.
/// Also read from JSON that PostgreSQL builds (`club::SUBSCRIPTIONS_OF_CLIENT`).
#[derive(Debug, Clone, Serialize, Deserialize, sqlx::FromRow, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SubscriptionSummary {
    /// The subscription.
    pub id_subscription_user: i64,
    /// Its plan.
    pub id_subscription_detail: i64,
    /// The plan's name when subscribed.
    pub plan_name: String,
    /// ACTIVE, PENDING_PAYMENT or CANCELED.
    pub internal_status: String,
}

/// A plan in the plans list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PlanItem {
    /// The plan.
    pub id_subscription_detail: i64,
    /// Its name.
    pub plan_name: String,
    /// Its description.
    pub description: String,
    /// Reais per charge by the main method.
    pub value: f64,
    /// 1 active, 0 inactive.
    pub status: i32,
    /// The main method: creditcard or boleto.
    pub payment_method: String,
    /// Every price.
    pub prices: Vec<Price>,
    /// How many subscriptions it has had.
    pub subscribers: i64,
}

impl PlanItem {
    /// The list's row of a plan with `subscribers` subscriptions.
    pub fn new(id: i64, details: &PlanDetails, subscribers: i64) -> Self {
        PlanItem {
            id_subscription_detail: id,
            plan_name: details.plan_name.clone(),
            description: details.description.clone(),
            value: money(details.value_cents),
            status: i32::from(details.active),
            payment_method: details.payment_method.code().to_owned(),
            prices: details.prices_answer(),
            subscribers,
        }
    }
}

/// A plan in a filter's choices.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PlanChoice {
    /// The plan.
    pub id_subscription_detail: i64,
    /// Its name.
    pub plan_name: String,
    /// Reais per charge by the main method.
    pub value: f64,
    /// 1 active, 0 inactive.
    pub status: i32,
}

/// A unit a plan is sold in.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct NamedCompany {
    /// The unit.
    pub id_company: i64,
    /// Its name; empty if it is gone.
    pub name: String,
}

/// `{Company: {...}}`, an item of `companiesList`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CompanyEntry {
    /// The unit.
    pub company: NamedCompany,
}

/// A partner company.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PartnerCompany {
    /// The partner.
    pub id_partner_company: i64,
    /// Its name; empty if it is gone.
    pub name: String,
}

/// `{PartnerCompany: {...}}`, an item of `partnerCompanyList`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PartnerEntry {
    /// The partner.
    pub partner_company: PartnerCompany,
}

/// A subscription of a plan, in `subscriptionsList`.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PlanSubscription {
    /// The subscription.
    pub id_subscription_user: i64,
    /// The subscriber.
    pub id_user: i64,
    /// Their name.
    pub name: String,
    /// ACTIVE, PENDING_PAYMENT or CANCELED.
    pub internal_status: String,
}

/// A plan, as its form shows it (spec 02 §3 'Subscription detail').
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PlanAnswer {
    /// The plan.
    pub id_subscription_detail: i64,
    /// Its name.
    pub plan_name: String,
    /// Its description.
    pub description: String,
    /// Reais per charge by the main method.
    pub value: f64,
    /// 1 active, 0 inactive.
    pub status: i32,
    /// Discount in percent on the plan's services.
    pub discount: i64,
    /// Its picture, under `/api/media/gallery/`.
    pub url_image: Option<String>,
    /// First day it is advertised.
    pub advertising_start: Option<NaiveDate>,
    /// Last day it is advertised.
    pub advertising_end: Option<NaiveDate>,
    /// First day it can be subscribed.
    pub validity_start: NaiveDate,
    /// Last day it can be subscribed.
    pub validity_end: NaiveDate,
    /// Sold in every unit.
    pub all_companies: bool,
    /// Charge periodicity code.
    pub periodicity: String,
    /// Number of charges; 0 charges until cancelled.
    pub quantity: i64,
    /// Whether it charges until cancelled.
    pub infinite_charge: bool,
    /// The provider's id, once the provider has the plan.
    pub galax_pay_id: Option<i64>,
    /// The main method: creditcard or boleto.
    pub payment_method: String,
    /// Every price.
    pub prices: Vec<Price>,
    /// What the plan includes, as text.
    pub items_detail: String,
    /// Days from subscribing to the first boleto's due date.
    pub first_due_days: i64,
    /// The units it is sold in.
    #[serde(rename = "companiesList")]
    pub companies_list: Vec<CompanyEntry>,
    /// Its partner companies.
    #[serde(rename = "partnerCompanyList")]
    pub partner_company_list: Vec<PartnerEntry>,
    /// Its subscriptions, oldest first.
    #[serde(rename = "subscriptionsList")]
    pub subscriptions_list: Vec<PlanSubscription>,
}

impl PlanAnswer {
    /// A plan's form, from its details and the names and subscriptions read beside it.
    pub fn new(
        id: i64,
        details: &PlanDetails,
        galax_pay_id: Option<i64>,
        companies: Vec<NamedCompany>,
        partners: Vec<PartnerCompany>,
        subscriptions: Vec<PlanSubscription>,
    ) -> Self {
        PlanAnswer {
            id_subscription_detail: id,
            plan_name: details.plan_name.clone(),
            description: details.description.clone(),
            value: money(details.value_cents),
            status: i32::from(details.active),
            discount: details.discount,
            url_image: details.image.as_ref().map(|file| format!("/api/media/gallery/{file}")),
            advertising_start: details.advertising_start,
            advertising_end: details.advertising_end,
            validity_start: details.validity_start,
            validity_end: details.validity_end,
            all_companies: details.all_companies,
            periodicity: details.periodicity.code().to_owned(),
            quantity: details.quantity,
            infinite_charge: details.quantity == 0,
            galax_pay_id,
            payment_method: details.payment_method.code().to_owned(),
            prices: details.prices_answer(),
            items_detail: details.items_detail.clone(),
            first_due_days: details.first_due_days,
            companies_list: companies.into_iter().map(|company| CompanyEntry { company }).collect(),
            partner_company_list: partners
                .into_iter()
                .map(|partner_company| PartnerEntry { partner_company })
                .collect(),
            subscriptions_list: subscriptions,
        }
    }
}

/// A service a plan includes, with its price for subscribers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PlanService {
    /// The plan's service entry.
    pub id_subscription_service: i64,
    /// The service.
    pub id_service: i64,
    /// Its description.
    pub description: String,
    /// Reais without the discount.
    pub original_value: f64,
    /// Discount in percent.
    pub discount: i64,
    /// Reais with the discount.
    pub value: f64,
}

/// The subscriber, as a list row shows them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SubscriberBrief {
    /// The client.
    pub id_user: i64,
    /// Their name.
    pub name: String,
    /// Their phone digits.
    pub phone: String,
}

/// A subscription in the subscribers list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SubscriberItem {
    /// The subscription.
    pub id_subscription_user: i64,
    /// Its plan.
    pub id_subscription_detail: i64,
    /// The plan's name when subscribed.
    pub plan_name: String,
    /// Reais per charge.
    pub plan_value: f64,
    /// ACTIVE, PENDING_PAYMENT or CANCELED.
    pub internal_status: String,
    /// The provider's status code, once it reported one.
    pub status: Option<String>,
    /// When it was subscribed.
    pub created_at: DateTime<Utc>,
    /// The subscriber.
    pub user: SubscriberBrief,
}

/// The subscriber, as the subscription's screen shows them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SubscriberAnswer {
    /// The client.
    pub id_user: i64,
    /// Their name.
    pub name: String,
    /// Their e-mail.
    pub email: String,
    /// Their CPF digits.
    pub cpf: String,
    /// Their phone digits.
    pub phone: String,
    /// Their birth date.
    pub birth_date: Option<NaiveDate>,
}

/// A charge of a subscription, as the provider last reported it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct TransactionAnswer {
    /// The provider's id (the screens' key).
    pub id_subscription_user_transaction: i64,
    /// Which charge of the plan, from 1.
    pub installment: i64,
    /// The provider's id.
    pub galax_pay_id: i64,
    /// Reais.
    pub value: f64,
    /// Due day.
    pub payday: Option<NaiveDate>,
    /// Due day (the name the payments list reads).
    pub payday_date: Option<NaiveDate>,
    /// The provider's status code.
    pub status: String,
    /// The provider's text, or the status's pt-BR label.
    pub status_description: String,
    /// Masked card number.
    pub card_number: Option<String>,
    /// Card brand.
    pub card_brand: Option<String>,
    /// Card expiry.
    pub card_expires_at: Option<String>,
    /// The boleto's PDF.
    pub boleto_pdf: Option<String>,
    /// The Pix payment page.
    pub pix_link: Option<String>,
    /// When the provider created it (its wall clock).
    #[schema(value_type = Option<String>, example = "2026-11-24T10:00:00")]
    pub created_at: Option<NaiveDateTime>,
    /// When its status last changed (the provider's wall clock).
    #[schema(value_type = Option<String>, example = "2026-11-24T10:00:00")]
    pub updated_at: Option<NaiveDateTime>,
}

impl From<&ProviderTransaction> for TransactionAnswer {
    fn from(t: &ProviderTransaction) -> Self {
        TransactionAnswer {
            id_subscription_user_transaction: t.galax_pay_id,
            installment: t.installment,
            galax_pay_id: t.galax_pay_id,
            value: money(t.value_cents),
            payday: t.payday,
            payday_date: t.payday,
            status: t.status.code().to_owned(),
            status_description: t.status_description.clone().unwrap_or_else(|| t.status.label().to_owned()),
            card_number: t.card_number.clone(),
            card_brand: t.card_brand.clone(),
            card_expires_at: t.card_expires_at.clone(),
            boleto_pdf: t.boleto_pdf.clone(),
            pix_link: t.pix_link.clone(),
            created_at: t.created_at,
            updated_at: t.status_date,
        }
    }
}

/// A subscription, as its screen shows it (spec 02 §3 'Subscription user').
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SubscriptionAnswer {
    /// The subscription.
    pub id_subscription_user: i64,
    /// The provider's id.
    pub galax_pay_id: i64,
    /// Its plan.
    pub id_subscription_detail: i64,
    /// The plan's name when subscribed.
    pub plan_name: String,
    /// Reais per charge.
    pub plan_value: f64,
    /// First day in force.
    pub validity_start: NaiveDate,
    /// Last day in force.
    pub validity_end: NaiveDate,
    /// ACTIVE, PENDING_PAYMENT or CANCELED.
    pub internal_status: String,
    /// The provider's status code, once it reported one.
    pub status: Option<String>,
    /// That status's pt-BR label.
    pub status_description: Option<String>,
    /// The id as text (the provider's `myId`).
    pub my_id: String,
    /// The first charge's day.
    pub first_pay_day_date: NaiveDate,
    /// When it was subscribed.
    pub created_at: DateTime<Utc>,
    /// Number of charges; 0 charges until cancelled.
    pub quantity: i64,
    /// Charge periodicity code.
    pub periodicity: String,
    /// creditcard, boleto or pix.
    pub main_payment_method_id: String,
    /// Whether staff asked to cancel it.
    pub cancellation_requested: bool,
    /// Reais received.
    pub amount_received: f64,
    /// Reais still to receive.
    pub amount_to_receive: f64,
    /// The subscriber.
    pub user: SubscriberAnswer,
    /// Its charges.
    pub transactions: Vec<TransactionAnswer>,
    /// With `asOf`: the instant it was replayed to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_of: Option<DateTime<Utc>>,
}

impl SubscriptionAnswer {
    /// The screen's view of a subscription; `None` before it was created.
    pub fn new(id: i64, subscription: &Subscription) -> Option<Self> {
        let details = subscription.details()?;
        let user = &details.user;
        Some(SubscriptionAnswer {
            id_subscription_user: id,
            galax_pay_id: details.galax_pay_id,
            id_subscription_detail: details.plan_id,
            plan_name: details.plan_name.clone(),
            plan_value: money(details.plan_value_cents),
            validity_start: details.validity_start,
            validity_end: details.validity_end,
            internal_status: subscription.contract_status().code().to_owned(),
            status: subscription.status().map(|s| s.code().to_owned()),
            status_description: subscription.status().map(|s| s.label().to_owned()),
            my_id: id.to_string(),
            first_pay_day_date: details.first_pay_day,
            created_at: details.created_at,
            quantity: details.quantity,
            periodicity: details.periodicity.code().to_owned(),
            main_payment_method_id: details.payment_method.code().to_owned(),
            cancellation_requested: subscription.cancellation_requested(),
            amount_received: money(subscription.received_cents()),
            amount_to_receive: money(subscription.to_receive_cents()),
            user: SubscriberAnswer {
                id_user: user.user_id,
                name: user.name.clone(),
                email: user.email.clone(),
                cpf: user.cpf.clone(),
                phone: user.phone.clone(),
                birth_date: user.birth_date,
            },
            transactions: subscription.transactions().into_iter().map(TransactionAnswer::from).collect(),
            as_of: None,
        })
    }
}

/// Who or what made a change of the timeline.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
pub enum TimelineSource {
    /// A staff member.
    Staff(StaffSource),
    /// A webhook of the provider.
    Webhook(WebhookSource),
}

/// The staff member who made a change, as they were then. Its fields are always sent (null
/// when unknown) and documented as required: with all of them optional, the schema matched
/// any object, a webhook source too, and the source's `oneOf` matched twice.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StaffSource {
    /// Their id.
    #[schema(required = true)]
    pub user_id: Option<i64>,
    /// Their name.
    #[schema(required = true)]
    pub user_name: Option<String>,
    /// Their role.
    #[schema(required = true)]
    pub role: Option<String>,
}

/// The webhook that reported a change.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct WebhookSource {
    /// The provider's webhookId.
    pub webhook_id: i64,
    /// Its event name.
    pub webhook_event: String,
}

/// A charge that appeared (`From` null) or changed status.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ChargeChange {
    /// The provider's id.
    pub galax_pay_id: i64,
    /// Which charge of the plan, from 1.
    pub installment: i64,
    /// Reais.
    pub value: f64,
    /// Its status code before.
    pub from: Option<String>,
    /// Its status code after.
    pub to: String,
}

/// One change of a subscription's timeline.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct TimelineEntry {
    /// The event's number within the stream, from 1.
    pub sequence: i64,
    /// When it was committed.
    pub at: DateTime<Utc>,
    /// What happened (`ProviderReported`, ...).
    pub event: String,
    /// Why: checkout, webhook, reconciliation, staff or cancellation.
    pub reason: String,
    /// Who (staff) or which webhook; null for the system.
    pub source: Option<TimelineSource>,
    /// The acting staff member's name, if any.
    pub user_name: Option<String>,
    /// The fields it changed.
    pub changes: Vec<Change>,
    /// The charges it added or moved.
    pub charges: Vec<ChargeChange>,
    /// ACTIVE, PENDING_PAYMENT or CANCELED after it.
    pub internal_status: String,
    /// The provider's status code after it.
    pub status: Option<String>,
    /// Reais received after it.
    pub amount_received: f64,
    /// Reais still to receive after it.
    pub amount_to_receive: f64,
}
