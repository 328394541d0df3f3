//! A subscription plan of the club ('Planos'): what a subscriber pays, how often, which
//! units and partners honour it, and the services it discounts.
//!
//! Aggregate id = the plan's numeric id (`subscription_detail_id_seq`, the spec's
//! IdSubscriptionDetail). Plan services have their own global ids
//! (`subscription_service_id_seq`) because `PUT/DELETE subscription-service/{id}` name no
//! plan: the service's id is claimed (scope [`PLAN_SERVICE_SCOPE`]) by its plan's stream.

use chrono::NaiveDate;
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::validation::{form_date, money_cents, FieldErrors, MAX_TEXT};

/// Claim scope mapping a plan service id to its plan's stream.
pub const PLAN_SERVICE_SCOPE: &str = "plan_service";
/// Answer for an unknown plan.
pub const MSG_NOT_FOUND: &str = "Plano não encontrado.";
/// Answer for an unknown plan service.
pub const MSG_SERVICE_NOT_FOUND: &str = "Serviço do plano não encontrado.";
/// Answer for a unit that does not exist.
pub const MSG_UNKNOWN_COMPANY: &str = "Empresa não encontrada.";
/// Answer for a partner that does not exist.
pub const MSG_UNKNOWN_PARTNER: &str = "Empresa parceira não encontrada.";
/// Answer for a catalogue service that does not exist.
pub const MSG_UNKNOWN_SERVICE: &str = "Escolha um serviço";
/// Spec 02 §5 'Plan form' messages.
pub const MSG_DESCRIPTION: &str = "Digite a descrição.";
/// Description longer than 150 characters.
pub const MSG_DESCRIPTION_LONG: &str = "A descrição deve ter no máximo 150 caracteres.";
/// Missing or unreadable value.
pub const MSG_VALUE: &str = "Digite o valor.";
/// Missing status.
pub const MSG_STATUS: &str = "Selecione o status.";
/// Missing discount.
pub const MSG_DISCOUNT: &str = "Digite o desconto";
/// Discount outside 0 to 100.
pub const MSG_DISCOUNT_RANGE: &str = "O desconto deve estar entre 0 e 100.";
/// Missing plan name.
pub const MSG_PLAN_NAME: &str = "Informe o nome do plano";
/// Plan name longer than 60 characters.
pub const MSG_PLAN_NAME_LONG: &str = "O nome do plano deve ter no máximo 60 caracteres.";
/// Missing quantity.
pub const MSG_QUANTITY: &str = "Digite a quantidade";
/// Quantity outside 0 to 100.
pub const MSG_QUANTITY_RANGE: &str = "A quantidade deve estar entre 0 e 100.";
/// First boleto due outside 1 to 30 days after subscribing.
pub const MSG_FIRST_DUE_DAYS: &str =
    "O vencimento do primeiro boleto deve ser de 1 a 30 dias após a assinatura.";
/// Days from subscribing to the first boleto's due date for plans saved before the setting
/// existed and forms that do not send it: time to pay, even when the checkout is at 23:47.
pub const DEFAULT_FIRST_DUE_DAYS: i64 = 3;
/// Missing or unknown payment method.
pub const MSG_PAYMENT_METHOD: &str = "Informe o método de pagamento.";
/// A change to the charging terms of a plan the provider already has.
pub const MSG_TERMS_AT_PROVIDER: &str =
    "O plano já está no provedor de pagamentos: a cobrança não pode mais ser alterada.";
/// Unknown periodicity.
pub const MSG_PERIODICITY: &str = "Informe a periodicidade.";
/// Invalid date.
pub const MSG_DATE: &str = "Digite uma data válida";
/// Start after end.
pub const MSG_START_AFTER_END: &str = "Data deve ser menor que data fim";
/// End before start.
pub const MSG_END_BEFORE_START: &str = "Data deve ser maior que data inicio";
/// Advertising outside the validity.
pub const MSG_OUTSIDE_VALIDITY: &str = "Data deve estar entre as data de inicio e fim de validada";
/// No unit.
pub const MSG_COMPANY_REQUIRED: &str = "Informe pelo menos uma empresa";
/// Spec 02 §5 'Plan service form'.
pub const MSG_SERVICE_REQUIRED: &str = "Escolha um serviço";
/// Missing service discount.
pub const MSG_SERVICE_DISCOUNT: &str = "Informe o valor do desconto";

/// How often a plan charges (spec 02 §3), in the provider's spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Periodicity {
    /// Semanal.
    Weekly,
    /// Quinzenal.
    Biweekly,
    /// Mensal.
    Monthly,
    /// Bimestral.
    Bimonthly,
    /// Trimestral.
    Quarterly,
    /// Semestral.
    Biannual,
    /// Anual.
    Yearly,
}

impl Periodicity {
    /// The provider's and the API's spelling.
    pub fn code(self) -> &'static str {
        match self {
            Periodicity::Weekly => "weekly",
            Periodicity::Biweekly => "biweekly",
            Periodicity::Monthly => "monthly",
            Periodicity::Bimonthly => "bimonthly",
            Periodicity::Quarterly => "quarterly",
            Periodicity::Biannual => "biannual",
            Periodicity::Yearly => "yearly",
        }
    }

    /// Reads the spelling.
    pub fn parse(text: &str) -> Option<Self> {
        [
            Periodicity::Weekly,
            Periodicity::Biweekly,
            Periodicity::Monthly,
            Periodicity::Bimonthly,
            Periodicity::Quarterly,
            Periodicity::Biannual,
            Periodicity::Yearly,
        ]
        .into_iter()
        .find(|p| p.code() == text.trim())
    }
}

/// How a plan is paid: plans accept only these two (spec 02 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanPaymentMethod {
    /// Cartão de crédito.
    Creditcard,
    /// Boleto.
    Boleto,
}

impl PlanPaymentMethod {
    /// The provider's and the API's spelling.
    pub fn code(self) -> &'static str {
        match self {
            PlanPaymentMethod::Creditcard => "creditcard",
            PlanPaymentMethod::Boleto => "boleto",
        }
    }

    /// Reads the spelling.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "creditcard" => Some(PlanPaymentMethod::Creditcard),
            "boleto" => Some(PlanPaymentMethod::Boleto),
            _ => None,
        }
    }
}

/// A plan as saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanDetails {
    /// PlanName.
    pub plan_name: String,
    /// Description.
    pub description: String,
    /// Value in cents, per charge.
    pub value_cents: i64,
    /// Active (1) or inactive (0).
    pub active: bool,
    /// Discount, percent.
    pub discount: i64,
    /// The stored image's file name under the media dir's `plan/`, if any.
    pub image: Option<String>,
    /// AdvertisingStart.
    pub advertising_start: Option<NaiveDate>,
    /// AdvertisingEnd.
    pub advertising_end: Option<NaiveDate>,
    /// ValidityStart.
    pub validity_start: NaiveDate,
    /// ValidityEnd.
    pub validity_end: NaiveDate,
    /// Every unit.
    pub all_companies: bool,
    /// Units, ascending, empty when `all_companies`.
    pub company_ids: Vec<i64>,
    /// Partner companies, ascending.
    pub partner_company_ids: Vec<i64>,
    /// Periodicity.
    pub periodicity: Periodicity,
    /// Number of charges, 0 = infinite.
    pub quantity: i64,
    /// ItemsDetail: free text of what the plan includes.
    pub items_detail: String,
    /// PaymentMethod: the main method, charged `value_cents`.
    pub payment_method: PlanPaymentMethod,
    /// The other method the plan accepts, at its own price (GalaxPay's PlanPrices hold one
    /// price per method). Empty for plans saved before prices per method existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_prices: Vec<MethodPrice>,
    /// firstDueDays: days from subscribing to the first boleto's due date (1 to 30). A card
    /// is charged on the day of subscribing, so the checkout knows at once if it was denied.
    #[serde(default = "default_first_due_days")]
    pub first_due_days: i64,
}

fn default_first_due_days() -> i64 {
    DEFAULT_FIRST_DUE_DAYS
}

/// A payment method a plan accepts and its price per charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodPrice {
    /// The method.
    pub payment_method: PlanPaymentMethod,
    /// Its price in cents, per charge.
    pub value_cents: i64,
}

/// A plan's price for one payment method, as the plan answers show it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Price {
    /// creditcard, boleto or pix.
    pub payment_method: &'static str,
    /// Reais per charge.
    pub value: f64,
}

impl PlanDetails {
    /// Every method the plan accepts with its price, the main one first.
    pub fn prices(&self) -> Vec<MethodPrice> {
        let main = MethodPrice { payment_method: self.payment_method, value_cents: self.value_cents };
        std::iter::once(main).chain(self.other_prices.iter().copied()).collect()
    }

    /// `Prices` as the plan answers (query-api's and the checkout's) show them: in reais,
    /// the main method first.
    pub fn prices_answer(&self) -> Vec<Price> {
        self.prices()
            .iter()
            .map(|p| Price { payment_method: p.payment_method.code(), value: p.value_cents as f64 / 100.0 })
            .collect()
    }

    /// The form fields of the charging terms (prices, methods, periodicity, number of
    /// charges) that differ in `new`: once the provider has the plan, these are its.
    pub fn charging_changes(&self, new: &PlanDetails) -> Vec<&'static str> {
        [
            ("value", self.value_cents != new.value_cents),
            ("paymentMethod", self.payment_method != new.payment_method),
            ("prices", self.other_prices != new.other_prices),
            ("periodicity", self.periodicity != new.periodicity),
            ("quantity", self.quantity != new.quantity),
        ]
        .into_iter()
        .filter_map(|(field, changed)| changed.then_some(field))
        .collect()
    }

    /// The first charge's due date for a client subscribing on `today` by `method`.
    pub fn first_pay_day(&self, method: PlanPaymentMethod, today: NaiveDate) -> NaiveDate {
        match method {
            PlanPaymentMethod::Creditcard => today,
            PlanPaymentMethod::Boleto => today + chrono::Duration::days(self.first_due_days),
        }
    }

    /// The price of a charge by `method`, if the plan accepts it.
    pub fn price_for(&self, method: PlanPaymentMethod) -> Option<i64> {
        self.prices().into_iter().find(|p| p.payment_method == method).map(|p| p.value_cents)
    }
}

/// The plan form's text fields as sent in the multipart body of
/// `POST subscription-details` and `PUT subscription-details/{id}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanForm {
    /// description.
    pub description: Option<String>,
    /// value (`"49.90"`, `"49,90"`).
    pub value: Option<String>,
    /// status (`1`/`0`, `true`/`false`).
    pub status: Option<String>,
    /// discount.
    pub discount: Option<String>,
    /// advertisingStart.
    pub advertising_start: Option<String>,
    /// advertisingEnd.
    pub advertising_end: Option<String>,
    /// validityStart.
    pub validity_start: Option<String>,
    /// validityEnd.
    pub validity_end: Option<String>,
    /// allCompanies.
    pub all_companies: Option<String>,
    /// planName.
    pub plan_name: Option<String>,
    /// periodicity.
    pub periodicity: Option<String>,
    /// quantity.
    pub quantity: Option<String>,
    /// itemsDetail.
    pub items_detail: Option<String>,
    /// paymentMethod.
    pub payment_method: Option<String>,
    /// firstDueDays (optional: [`DEFAULT_FIRST_DUE_DAYS`] when absent).
    pub first_due_days: Option<String>,
    /// companies, already read from their JSON list.
    pub company_ids: Vec<i64>,
    /// partnerCompanies, already read from their JSON list.
    pub partner_company_ids: Vec<i64>,
    /// prices: the other methods' prices, already read from their JSON list as
    /// `(paymentMethod, value)` texts.
    pub other_prices: Vec<(String, String)>,
}

fn present(text: &Option<String>) -> Option<&str> {
    text.as_deref().map(str::trim).filter(|t| !t.is_empty() && *t != "null" && *t != "undefined")
}

fn truthy(text: Option<&str>) -> Option<bool> {
    match text? {
        "1" | "true" | "True" | "TRUE" => Some(true),
        "0" | "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// A plan price as typed (`"49.90"`, `"49,90"`, at most 10 characters), in cents above zero.
fn price_cents(text: &str) -> Option<i64> {
    Some(text)
        .filter(|v| v.chars().count() <= 10)
        .and_then(|v| money_cents(&serde_json::Value::String(v.to_owned())))
        .filter(|cents| *cents > 0)
}

fn integer(text: Option<&str>) -> Option<i64> {
    text?.parse::<f64>().ok().filter(|v| v.fract() == 0.0 && v.is_finite()).map(|v| v as i64)
}

fn plan_date(text: Option<&str>, field: &str, errors: &mut FieldErrors) -> Option<NaiveDate> {
    use chrono::Datelike;
    match form_date(text) {
        Ok(Some(date)) if date.year() > 1900 => Some(date),
        Ok(None) => None,
        _ => {
            errors.add(field, MSG_DATE);
            None
        }
    }
}

impl PlanForm {
    /// Applies spec 02 §5 'Plan form', and bounds `itemsDetail` at 1,000 characters. The
    /// image is command-api's; whether units and partners exist is command-api's check too.
    pub fn validate(&self, image: Option<String>) -> Result<PlanDetails, FieldErrors> {
        let mut errors = FieldErrors::default();
        let description = present(&self.description).unwrap_or_default().to_owned();
        errors.check(description.is_empty(), "description", MSG_DESCRIPTION);
        errors.check(description.chars().count() > 150, "description", MSG_DESCRIPTION_LONG);
        let plan_name = present(&self.plan_name).unwrap_or_default().to_owned();
        errors.check(plan_name.is_empty(), "planName", MSG_PLAN_NAME);
        errors.check(plan_name.chars().count() > 60, "planName", MSG_PLAN_NAME_LONG);
        let items_detail = present(&self.items_detail).unwrap_or_default().to_owned();
        errors.check_length("itemsDetail", &items_detail, MAX_TEXT);
        let value_cents = present(&self.value).and_then(price_cents);
        errors.check(value_cents.is_none(), "value", MSG_VALUE);
        let active = truthy(present(&self.status));
        errors.check(active.is_none(), "status", MSG_STATUS);
        let discount = match present(&self.discount) {
            None => {
                errors.add("discount", MSG_DISCOUNT);
                0
            }
            Some(text) => match integer(Some(text)).filter(|d| (0..=100).contains(d)) {
                Some(d) => d,
                None => {
                    errors.add("discount", MSG_DISCOUNT_RANGE);
                    0
                }
            },
        };
        let quantity = match present(&self.quantity) {
            None => {
                errors.add("quantity", MSG_QUANTITY);
                0
            }
            Some(text) => match integer(Some(text)).filter(|q| (0..=100).contains(q)) {
                Some(q) => q,
                None => {
                    errors.add("quantity", MSG_QUANTITY_RANGE);
                    0
                }
            },
        };
        let first_due_days = match present(&self.first_due_days) {
            None => DEFAULT_FIRST_DUE_DAYS,
            Some(text) => integer(Some(text)).filter(|d| (1..=30).contains(d)).unwrap_or_else(|| {
                errors.add("firstDueDays", MSG_FIRST_DUE_DAYS);
                DEFAULT_FIRST_DUE_DAYS
            }),
        };
        let payment_method = present(&self.payment_method).and_then(PlanPaymentMethod::parse);
        errors.check(payment_method.is_none(), "paymentMethod", MSG_PAYMENT_METHOD);
        let other_prices = self.checked_other_prices(payment_method, &mut errors);
        // The form always sends one; absent means monthly, the provider's default.
        let periodicity = match present(&self.periodicity) {
            None => Some(Periodicity::Monthly),
            Some(text) => Periodicity::parse(text),
        };
        errors.check(periodicity.is_none(), "periodicity", MSG_PERIODICITY);

        let validity_start = plan_date(present(&self.validity_start), "validityStart", &mut errors);
        let validity_end = plan_date(present(&self.validity_end), "validityEnd", &mut errors);
        if present(&self.validity_start).is_none() {
            errors.add("validityStart", MSG_DATE);
        }
        if present(&self.validity_end).is_none() {
            errors.add("validityEnd", MSG_DATE);
        }
        if let (Some(start), Some(end)) = (validity_start, validity_end) {
            if start > end {
                errors.add("validityStart", MSG_START_AFTER_END);
                errors.add("validityEnd", MSG_END_BEFORE_START);
            }
        }
        let advertising_start = plan_date(present(&self.advertising_start), "advertisingStart", &mut errors);
        let advertising_end = plan_date(present(&self.advertising_end), "advertisingEnd", &mut errors);
        if let (Some(start), Some(end)) = (advertising_start, advertising_end) {
            if start > end {
                errors.add("advertisingStart", MSG_START_AFTER_END);
                errors.add("advertisingEnd", MSG_END_BEFORE_START);
            }
        }
        if let (Some(from), Some(to)) = (validity_start, validity_end) {
            for (field, date) in
                [("advertisingStart", advertising_start), ("advertisingEnd", advertising_end)]
            {
                if let Some(date) = date {
                    if (date < from || date > to) && errors.get(field).is_none() {
                        errors.add(field, MSG_OUTSIDE_VALIDITY);
                    }
                }
            }
        }

        let all_companies = truthy(present(&self.all_companies)).unwrap_or(false);
        let mut company_ids = if all_companies { Vec::new() } else { self.company_ids.clone() };
        company_ids.sort_unstable();
        company_ids.dedup();
        errors.check(!all_companies && company_ids.is_empty(), "companies", MSG_COMPANY_REQUIRED);
        let mut partner_company_ids = self.partner_company_ids.clone();
        partner_company_ids.sort_unstable();
        partner_company_ids.dedup();

        match (value_cents, active, payment_method, periodicity, validity_start, validity_end) {
            (
                Some(value_cents),
                Some(active),
                Some(payment_method),
                Some(periodicity),
                Some(vs),
                Some(ve),
            ) if errors.is_empty() => Ok(PlanDetails {
                plan_name,
                description,
                value_cents,
                active,
                discount,
                image,
                advertising_start,
                advertising_end,
                validity_start: vs,
                validity_end: ve,
                all_companies,
                company_ids,
                partner_company_ids,
                periodicity,
                quantity,
                items_detail,
                payment_method,
                other_prices,
                first_due_days,
            }),
            _ => Err(errors),
        }
    }
}

impl PlanForm {
    /// The other methods' prices: one per method, the main method's entry ignored (its
    /// price is `value`).
    fn checked_other_prices(
        &self,
        main: Option<PlanPaymentMethod>,
        errors: &mut FieldErrors,
    ) -> Vec<MethodPrice> {
        let mut prices: Vec<MethodPrice> = Vec::new();
        for (method, value) in &self.other_prices {
            let Some(payment_method) = PlanPaymentMethod::parse(method) else {
                errors.add("prices", MSG_PAYMENT_METHOD);
                continue;
            };
            let Some(value_cents) = price_cents(value.trim()) else {
                errors.add("prices", MSG_VALUE);
                continue;
            };
            if Some(payment_method) != main && prices.iter().all(|p| p.payment_method != payment_method) {
                prices.push(MethodPrice { payment_method, value_cents });
            }
        }
        prices
    }
}

/// The plan service form (`POST subscription-service/`, `PUT subscription-service/{id}`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct PlanServiceForm {
    /// idService.
    pub id_service: Option<i64>,
    /// idSubscriptionDetail.
    pub id_subscription_detail: Option<i64>,
    /// discount, percent.
    pub discount: Option<serde_json::Value>,
}

impl PlanServiceForm {
    /// Applies spec 02 §5 'Plan service form': `(service id, discount)`.
    pub fn validate(&self) -> Result<(i64, i64), FieldErrors> {
        let mut errors = FieldErrors::default();
        let service = self.id_service.filter(|id| *id != 0);
        errors.check(service.is_none(), "idService", MSG_SERVICE_REQUIRED);
        let discount = match &self.discount {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(s)) if s.trim().is_empty() => None,
            Some(value) => Some(
                money_cents(value)
                    .filter(|c| c % 100 == 0)
                    .map(|c| c / 100)
                    .filter(|d| (0..=100).contains(d)),
            ),
        };
        let discount = match discount {
            None => {
                errors.add("discount", MSG_SERVICE_DISCOUNT);
                None
            }
            Some(None) => {
                errors.add("discount", MSG_DISCOUNT_RANGE);
                None
            }
            Some(Some(d)) => Some(d),
        };
        match (service, discount) {
            (Some(service), Some(discount)) if errors.is_empty() => Ok((service, discount)),
            _ => Err(errors),
        }
    }
}

/// A service the plan includes at a discount.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanService {
    /// IdSubscriptionService.
    pub id: i64,
    /// IdService of the catalogue.
    pub service_id: i64,
    /// The catalogue description when added.
    pub description: String,
    /// The catalogue's default price when added, in cents (OriginalValue).
    pub original_cents: i64,
    /// Discount, percent.
    pub discount: i64,
}

impl PlanService {
    /// The price with the discount, in cents (Value).
    pub fn value_cents(&self) -> i64 {
        (self.original_cents * (100 - self.discount) + 50) / 100
    }
}

/// A plan.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    details: Option<PlanDetails>,
    services: Vec<PlanService>,
    galax_pay_id: Option<i64>,
}

impl Plan {
    /// The version of this state's serialized shape, which the club read model stores whole.
    /// Raise it whenever the shape changes (a test in this module says when): the projector
    /// then rebuilds that model instead of failing to read its rows.
    pub const STATE_VERSION: u32 = 2;

    /// The plan, `None` before creation.
    pub fn details(&self) -> Option<&PlanDetails> {
        self.details.as_ref()
    }

    /// Its services, in the order added.
    pub fn services(&self) -> &[PlanService] {
        &self.services
    }

    /// The provider's id of the plan, once created there.
    pub fn galax_pay_id(&self) -> Option<i64> {
        self.galax_pay_id
    }
}

/// What an admin (or the provider link) can do with a plan.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanCommand {
    /// Create it.
    CreatePlan(PlanDetails),
    /// Change it.
    ChangePlan(PlanDetails),
    /// Record the provider's id of the plan.
    LinkToProvider {
        /// GalaxPayId.
        galax_pay_id: i64,
    },
    /// Add a service.
    AddService(PlanService),
    /// Change a service's catalogue entry or discount.
    ChangeService(PlanService),
    /// Remove a service.
    RemoveService {
        /// IdSubscriptionService.
        id: i64,
    },
}

/// What happened to a plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PlanEvent {
    /// It was created.
    PlanCreated(PlanDetails),
    /// It changed.
    PlanChanged(PlanDetails),
    /// The provider knows it by this id.
    PlanLinkedToProvider {
        /// GalaxPayId.
        galax_pay_id: i64,
    },
    /// A service was added.
    PlanServiceAdded(PlanService),
    /// A service changed.
    PlanServiceChanged(PlanService),
    /// A service was removed.
    PlanServiceRemoved {
        /// IdSubscriptionService.
        id: i64,
    },
}

impl DomainEvent for PlanEvent {
    fn event_type(&self) -> String {
        match self {
            PlanEvent::PlanCreated(_) => "PlanCreated",
            PlanEvent::PlanChanged(_) => "PlanChanged",
            PlanEvent::PlanLinkedToProvider { .. } => "PlanLinkedToProvider",
            PlanEvent::PlanServiceAdded(_) => "PlanServiceAdded",
            PlanEvent::PlanServiceChanged(_) => "PlanServiceChanged",
            PlanEvent::PlanServiceRemoved { .. } => "PlanServiceRemoved",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a plan command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The id is taken.
    #[error("Plano já cadastrado.")]
    AlreadyCreated,
    /// Never created.
    #[error("Plano não encontrado.")]
    NotFound,
    /// The catalogue service is already in the plan.
    #[error("Este serviço já faz parte do plano.")]
    ServiceAlreadyIncluded,
    /// No such plan service.
    #[error("Serviço do plano não encontrado.")]
    ServiceNotFound,
}

impl Aggregate for Plan {
    const TYPE: &'static str = "SubscriptionDetail";
    type Command = PlanCommand;
    type Event = PlanEvent;
    type Error = PlanError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        if !matches!(command, PlanCommand::CreatePlan(_)) && self.details.is_none() {
            return Err(PlanError::NotFound);
        }
        match command {
            PlanCommand::CreatePlan(details) => {
                if self.details.is_some() {
                    return Err(PlanError::AlreadyCreated);
                }
                sink.write(PlanEvent::PlanCreated(details), self).await;
            }
            PlanCommand::ChangePlan(details) => {
                if self.details.as_ref() != Some(&details) {
                    sink.write(PlanEvent::PlanChanged(details), self).await;
                }
            }
            PlanCommand::LinkToProvider { galax_pay_id } => {
                if self.galax_pay_id != Some(galax_pay_id) {
                    sink.write(PlanEvent::PlanLinkedToProvider { galax_pay_id }, self).await;
                }
            }
            PlanCommand::AddService(service) => {
                if self.services.iter().any(|s| s.service_id == service.service_id) {
                    return Err(PlanError::ServiceAlreadyIncluded);
                }
                sink.write(PlanEvent::PlanServiceAdded(service), self).await;
            }
            PlanCommand::ChangeService(service) => {
                let Some(current) = self.services.iter().find(|s| s.id == service.id) else {
                    return Err(PlanError::ServiceNotFound);
                };
                if self.services.iter().any(|s| s.id != service.id && s.service_id == service.service_id) {
                    return Err(PlanError::ServiceAlreadyIncluded);
                }
                if *current != service {
                    sink.write(PlanEvent::PlanServiceChanged(service), self).await;
                }
            }
            PlanCommand::RemoveService { id } => {
                if !self.services.iter().any(|s| s.id == id) {
                    return Err(PlanError::ServiceNotFound);
                }
                sink.write(PlanEvent::PlanServiceRemoved { id }, self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            PlanEvent::PlanCreated(details) | PlanEvent::PlanChanged(details) => self.details = Some(details),
            PlanEvent::PlanLinkedToProvider { galax_pay_id } => self.galax_pay_id = Some(galax_pay_id),
            PlanEvent::PlanServiceAdded(service) => self.services.push(service),
            PlanEvent::PlanServiceChanged(service) => {
                if let Some(current) = self.services.iter_mut().find(|s| s.id == service.id) {
                    *current = service;
                }
            }
            PlanEvent::PlanServiceRemoved { id } => self.services.retain(|s| s.id != id),
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    pub(crate) fn form() -> PlanForm {
        let some = |s: &str| Some(s.to_owned());
        PlanForm {
            description: some("Cortes ilimitados no mês"),
            value: some("89,90"),
            status: some("1"),
            discount: some("10"),
            advertising_start: some("2027-01-10"),
            advertising_end: some("2027-02-10"),
            validity_start: some("2027-01-01"),
            validity_end: some("2027-12-31"),
            all_companies: some("false"),
            plan_name: some("Clube do corte"),
            periodicity: some("monthly"),
            quantity: some("12"),
            items_detail: some("4 cortes"),
            payment_method: some("boleto"),
            company_ids: vec![2, 1, 2],
            partner_company_ids: vec![],
            other_prices: vec![],
            first_due_days: some("5"),
        }
    }

    fn details() -> PlanDetails {
        form().validate(None).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn service(id: i64, service_id: i64) -> PlanService {
        PlanService { id, service_id, description: "Corte".into(), original_cents: 5000, discount: 10 }
    }

    /// A plan's details with every optional part filled.
    fn filled_details() -> PlanDetails {
        let mut filled = details();
        filled.image = Some("1.png".into());
        filled.partner_company_ids = vec![3];
        filled.other_prices =
            vec![MethodPrice { payment_method: PlanPaymentMethod::Creditcard, value_cents: 7990 }];
        filled
    }

    #[test]
    fn the_stored_state_has_the_shape_of_its_version() {
        let created = filled_details();
        let mut plan = Plan::default();
        for event in [
            PlanEvent::PlanCreated(created),
            PlanEvent::PlanLinkedToProvider { galax_pay_id: 9 },
            PlanEvent::PlanServiceAdded(service(1, 2)),
        ] {
            plan.apply(event);
        }
        let sample = serde_json::to_value(&plan).unwrap_or_default();
        crate::state_shape::assert_recorded("plan", Plan::STATE_VERSION, &sample);
    }

    #[test]
    fn the_first_boleto_is_due_days_after_subscribing_and_a_card_is_charged_that_day() {
        let today = NaiveDate::from_ymd_opt(2027, 1, 31).unwrap_or_default();
        let plan = details();
        assert_eq!(plan.first_due_days, 5);
        assert_eq!(plan.first_pay_day(PlanPaymentMethod::Boleto, today).to_string(), "2027-02-05");
        assert_eq!(plan.first_pay_day(PlanPaymentMethod::Creditcard, today), today);
        let unset = PlanForm { first_due_days: None, ..form() }.validate(None).map(|d| d.first_due_days);
        assert_eq!(unset, Ok(DEFAULT_FIRST_DUE_DAYS));
        for bad in ["0", "31", "2.5", "amanhã"] {
            let refused = PlanForm { first_due_days: Some(bad.into()), ..form() }.validate(None).err();
            assert_eq!(
                refused.and_then(|e| e.get("firstDueDays").map(str::to_owned)).as_deref(),
                Some(MSG_FIRST_DUE_DAYS),
                "{bad}"
            );
        }
        // Plans saved before the setting existed read as the default.
        let mut stored = serde_json::to_value(&plan).unwrap_or_default();
        stored.as_object_mut().map(|o| o.remove("first_due_days"));
        let read: PlanDetails = serde_json::from_value(stored).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.first_due_days, DEFAULT_FIRST_DUE_DAYS);
    }

    #[test]
    fn a_valid_form_is_normalised() {
        let details = details();
        assert_eq!(details.value_cents, 8990);
        assert_eq!(details.company_ids, [1, 2]);
        assert_eq!(details.periodicity, Periodicity::Monthly);
        assert!(details.active);
        let all = PlanForm { all_companies: Some("true".into()), ..form() }.validate(None);
        assert_eq!(all.map(|d| d.company_ids), Ok(vec![]), "every unit clears the list");
    }

    #[test]
    fn a_plan_may_accept_a_second_method_at_its_own_price() {
        let pair = |m: &str, v: &str| (m.to_owned(), v.to_owned());
        let both =
            PlanForm { other_prices: vec![pair("creditcard", "99,90"), pair("boleto", "1")], ..form() }
                .validate(None)
                .unwrap_or_else(|e| panic!("{e:?}"));
        let boleto = MethodPrice { payment_method: PlanPaymentMethod::Boleto, value_cents: 8990 };
        let card = MethodPrice { payment_method: PlanPaymentMethod::Creditcard, value_cents: 9990 };
        assert_eq!(both.prices(), [boleto, card], "the main method first; its own entry is ignored");
        assert_eq!(both.price_for(PlanPaymentMethod::Creditcard), Some(9990));
        assert_eq!(details().price_for(PlanPaymentMethod::Creditcard), None);
        for (entry, message) in [
            (pair("pix", "10"), MSG_PAYMENT_METHOD),
            (pair("creditcard", "0"), MSG_VALUE),
            (pair("creditcard", ""), MSG_VALUE),
        ] {
            let refused = PlanForm { other_prices: vec![entry], ..form() }.validate(None).err();
            assert_eq!(refused.as_ref().and_then(|e| e.get("prices")), Some(message));
        }
        // Plans saved before prices per method existed still read.
        let mut stored = serde_json::to_value(details()).unwrap_or_default();
        assert!(stored.get("other_prices").is_none(), "an empty list is not written");
        stored["other_prices"] = serde_json::Value::Null;
        stored.as_object_mut().map(|o| o.remove("other_prices"));
        let read: PlanDetails = serde_json::from_value(stored).unwrap_or_else(|e| panic!("{e}"));
        assert!(read.other_prices.is_empty());
    }

    #[test]
    fn each_plan_rule_has_its_message() {
        let none = None;
        let s = |v: &str| Some(v.to_owned());
        let cases: Vec<(PlanForm, &str, &str)> = vec![
            (PlanForm { description: none.clone(), ..form() }, "description", MSG_DESCRIPTION),
            (PlanForm { description: Some("x".repeat(151)), ..form() }, "description", MSG_DESCRIPTION_LONG),
            (PlanForm { value: none.clone(), ..form() }, "value", MSG_VALUE),
            (PlanForm { value: s("12345678901"), ..form() }, "value", MSG_VALUE),
            (PlanForm { status: none.clone(), ..form() }, "status", MSG_STATUS),
            (PlanForm { discount: none.clone(), ..form() }, "discount", MSG_DISCOUNT),
            (PlanForm { discount: s("101"), ..form() }, "discount", MSG_DISCOUNT_RANGE),
            (PlanForm { plan_name: none.clone(), ..form() }, "planName", MSG_PLAN_NAME),
            (PlanForm { plan_name: Some("x".repeat(61)), ..form() }, "planName", MSG_PLAN_NAME_LONG),
            (PlanForm { quantity: none.clone(), ..form() }, "quantity", MSG_QUANTITY),
            (PlanForm { quantity: s("101"), ..form() }, "quantity", MSG_QUANTITY_RANGE),
            (PlanForm { payment_method: none.clone(), ..form() }, "paymentMethod", MSG_PAYMENT_METHOD),
            (PlanForm { payment_method: s("pix"), ..form() }, "paymentMethod", MSG_PAYMENT_METHOD),
            (PlanForm { validity_start: s("1900-05-01"), ..form() }, "validityStart", MSG_DATE),
            (PlanForm { validity_end: s("31/12/2027"), ..form() }, "validityEnd", MSG_DATE),
            (PlanForm { validity_start: s("2028-01-01"), ..form() }, "validityStart", MSG_START_AFTER_END),
            (PlanForm { validity_end: s("2026-12-01"), ..form() }, "validityEnd", MSG_END_BEFORE_START),
            (
                PlanForm { advertising_start: s("2027-03-01"), ..form() },
                "advertisingStart",
                MSG_START_AFTER_END,
            ),
            (PlanForm { advertising_end: s("2027-01-05"), ..form() }, "advertisingEnd", MSG_END_BEFORE_START),
            (
                PlanForm { advertising_start: s("2026-12-01"), ..form() },
                "advertisingStart",
                MSG_OUTSIDE_VALIDITY,
            ),
            (PlanForm { advertising_end: s("2028-01-05"), ..form() }, "advertisingEnd", MSG_OUTSIDE_VALIDITY),
            (PlanForm { company_ids: vec![], ..form() }, "companies", MSG_COMPANY_REQUIRED),
        ];
        for (form, field, message) in cases {
            let errors = form.validate(None).err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(message), "{field}: {errors:?}");
        }
    }

    #[test]
    fn the_items_detail_has_its_bound_and_the_spec_keeps_its_own() {
        let at_the_bound = PlanForm { items_detail: Some("ç".repeat(MAX_TEXT)), ..form() }.validate(None);
        assert_eq!(at_the_bound.map(|d| d.items_detail.chars().count()), Ok(MAX_TEXT));
        let over = PlanForm { items_detail: Some("ç".repeat(MAX_TEXT + 1)), ..form() }.validate(None);
        assert_eq!(over.err().unwrap_or_default().get("itemsDetail"), Some("Máximo de 1.000 caracteres."));
        let name =
            PlanForm { plan_name: Some("ç".repeat(60)), description: Some("ç".repeat(150)), ..form() };
        assert!(name.validate(None).is_ok(), "60 and 150 characters, not bytes");
    }

    #[test]
    fn each_plan_service_rule_has_its_message() {
        let ok = PlanServiceForm {
            id_service: Some(3),
            id_subscription_detail: Some(1),
            discount: Some(10.into()),
        };
        assert_eq!(ok.validate(), Ok((3, 10)));
        let no_service = PlanServiceForm { id_service: Some(0), ..ok.clone() };
        assert_eq!(
            no_service.validate().err().unwrap_or_default().get("idService"),
            Some(MSG_SERVICE_REQUIRED)
        );
        let no_discount = PlanServiceForm { discount: None, ..ok.clone() };
        assert_eq!(
            no_discount.validate().err().unwrap_or_default().get("discount"),
            Some(MSG_SERVICE_DISCOUNT)
        );
        let too_much = PlanServiceForm { discount: Some(120.into()), ..ok };
        assert_eq!(too_much.validate().err().unwrap_or_default().get("discount"), Some(MSG_DISCOUNT_RANGE));
    }

    #[test]
    fn a_service_appears_at_most_once_per_plan() {
        TestFramework::<Plan>::with(())
            .given(vec![PlanEvent::PlanCreated(details()), PlanEvent::PlanServiceAdded(service(1, 3))])
            .when(PlanCommand::AddService(service(2, 3)))
            .then_expect_error(PlanError::ServiceAlreadyIncluded);
        TestFramework::<Plan>::with(())
            .given(vec![
                PlanEvent::PlanCreated(details()),
                PlanEvent::PlanServiceAdded(service(1, 3)),
                PlanEvent::PlanServiceAdded(service(2, 4)),
            ])
            .when(PlanCommand::ChangeService(service(2, 3)))
            .then_expect_error(PlanError::ServiceAlreadyIncluded);
        TestFramework::<Plan>::with(())
            .given(vec![PlanEvent::PlanCreated(details()), PlanEvent::PlanServiceAdded(service(1, 3))])
            .when(PlanCommand::ChangeService(PlanService { discount: 20, ..service(1, 3) }))
            .then_expect_events(vec![PlanEvent::PlanServiceChanged(PlanService {
                discount: 20,
                ..service(1, 3)
            })]);
        TestFramework::<Plan>::with(())
            .given(vec![PlanEvent::PlanCreated(details()), PlanEvent::PlanServiceAdded(service(1, 3))])
            .when(PlanCommand::RemoveService { id: 1 })
            .then_expect_events(vec![PlanEvent::PlanServiceRemoved { id: 1 }]);
        assert_eq!(service(1, 3).value_cents(), 4500);
    }

    #[test]
    fn plans_are_created_once_and_unknown_plans_refuse_everything() {
        TestFramework::<Plan>::with(())
            .given_no_previous_events()
            .when(PlanCommand::CreatePlan(details()))
            .then_expect_events(vec![PlanEvent::PlanCreated(details())]);
        TestFramework::<Plan>::with(())
            .given(vec![PlanEvent::PlanCreated(details())])
            .when(PlanCommand::CreatePlan(details()))
            .then_expect_error(PlanError::AlreadyCreated);
        TestFramework::<Plan>::with(())
            .given_no_previous_events()
            .when(PlanCommand::ChangePlan(details()))
            .then_expect_error(PlanError::NotFound);
        TestFramework::<Plan>::with(())
            .given(vec![PlanEvent::PlanCreated(details())])
            .when(PlanCommand::ChangePlan(details()))
            .then_expect_events(vec![]);
    }

    #[test]
    fn events_are_pinned() {
        let filled = filled_details();
        crate::event_payload::assert_pinned::<Plan>(&[
            PlanEvent::PlanCreated(filled.clone()),
            PlanEvent::PlanChanged(filled),
            PlanEvent::PlanLinkedToProvider { galax_pay_id: 9 },
            PlanEvent::PlanServiceAdded(service(1, 2)),
            PlanEvent::PlanServiceChanged(service(1, 2)),
            PlanEvent::PlanServiceRemoved { id: 1 },
        ]);
    }
}
