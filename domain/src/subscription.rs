//! A club subscription ('Assinante'): one client on one plan, charged by the payment
//! provider (GalaxPay). The provider owns the truth about charges; this stream records
//! every report of it (webhook, reconciliation, checkout, cancellation) so the state at
//! any instant can be rebuilt, and says why each change happened.
//!
//! Aggregate id = IdSubscriptionUser (`subscription_user_id_seq`), sent to the provider as
//! the subscription's `myId`, so every webhook names its stream.
//!
//! Reports may arrive late, twice or out of order. Folding them is order-independent:
//! - per transaction, the report with the greatest (statusDate, status rank, content)
//!   wins, whatever order they came in;
//! - the subscription's status likewise, keyed by the report's observation time;
//! - a webhook id is applied once.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::plan::{Periodicity, PlanPaymentMethod};

/// Answer for an unknown subscription.
pub const MSG_NOT_FOUND: &str = "Assinatura não encontrada.";

/// The provider's subscription status (spec 02 §4). Unknown values are kept as sent.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum SubscriptionStatus {
    /// Ativa.
    Active,
    /// Cancelada.
    Canceled,
    /// Encerrada.
    Closed,
    /// Interrompida.
    Stopped,
    /// Aguardando pagamento.
    WaitingPayment,
    /// Inativa.
    Inactive,
    /// A value this version does not know, kept verbatim.
    Other(String),
}

impl SubscriptionStatus {
    /// The provider's spelling.
    pub fn code(&self) -> &str {
        match self {
            SubscriptionStatus::Active => "active",
            SubscriptionStatus::Canceled => "canceled",
            SubscriptionStatus::Closed => "closed",
            SubscriptionStatus::Stopped => "stopped",
            SubscriptionStatus::WaitingPayment => "waitingPayment",
            SubscriptionStatus::Inactive => "inactive",
            SubscriptionStatus::Other(other) => other,
        }
    }

    /// The pt-BR label of spec 02 §4 (the code itself when unknown).
    pub fn label(&self) -> &str {
        match self {
            SubscriptionStatus::Active => "Ativa",
            SubscriptionStatus::Canceled => "Cancelada",
            SubscriptionStatus::Closed => "Encerrada",
            SubscriptionStatus::Stopped => "Interrompida",
            SubscriptionStatus::WaitingPayment => "Aguardando pagamento",
            SubscriptionStatus::Inactive => "Inativa",
            SubscriptionStatus::Other(other) => other,
        }
    }

    /// No longer in force.
    pub fn is_ended(&self) -> bool {
        matches!(
            self,
            SubscriptionStatus::Canceled
                | SubscriptionStatus::Closed
                | SubscriptionStatus::Stopped
                | SubscriptionStatus::Inactive
        )
    }

    /// Tie-break between two reports observed at the same instant: ending wins.
    fn rank(&self) -> u8 {
        match self {
            SubscriptionStatus::WaitingPayment => 0,
            SubscriptionStatus::Active => 1,
            SubscriptionStatus::Other(_) => 2,
            SubscriptionStatus::Inactive => 3,
            SubscriptionStatus::Stopped => 4,
            SubscriptionStatus::Closed => 5,
            SubscriptionStatus::Canceled => 6,
        }
    }
}

impl From<String> for SubscriptionStatus {
    fn from(text: String) -> Self {
        match text.as_str() {
            "active" => SubscriptionStatus::Active,
            "canceled" => SubscriptionStatus::Canceled,
            "closed" => SubscriptionStatus::Closed,
            "stopped" => SubscriptionStatus::Stopped,
            "waitingPayment" => SubscriptionStatus::WaitingPayment,
            "inactive" => SubscriptionStatus::Inactive,
            _ => SubscriptionStatus::Other(text),
        }
    }
}

impl From<SubscriptionStatus> for String {
    fn from(status: SubscriptionStatus) -> Self {
        status.code().to_owned()
    }
}

/// The provider's transaction (charge) statuses, spec 02 §4. Unknown values are kept.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum TransactionStatus {
    /// notSend: not sent yet (to receive).
    NotSend,
    /// pendingBoleto: boleto open (to receive).
    PendingBoleto,
    /// pendingPix: Pix open (to receive).
    PendingPix,
    /// captured: card charge captured (received).
    Captured,
    /// payExternal: paid outside the provider (received).
    PayExternal,
    /// payedBoleto: boleto paid (received).
    PayedBoleto,
    /// lessValueBoleto: boleto paid with a lower value (received).
    LessValueBoleto,
    /// moreValueBoleto: boleto paid with a higher value (received).
    MoreValueBoleto,
    /// paidDuplicityBoleto: boleto paid twice (received).
    PaidDuplicityBoleto,
    /// payedPix: Pix paid (received).
    PayedPix,
    /// authorized: card charge authorized, not captured.
    Authorized,
    /// denied: denied by the card operator.
    Denied,
    /// reversed: reversed.
    Reversed,
    /// chargeback: charged back.
    Chargeback,
    /// cancel: cancelled manually.
    Cancel,
    /// cancelByContract: cancelled when the charge was cancelled.
    CancelByContract,
    /// free: exempt.
    Free,
    /// notCompensated: boleto written off for expiry.
    NotCompensated,
    /// unavailablePix: Pix unavailable.
    UnavailablePix,
    /// A value this version does not know, kept verbatim.
    Other(String),
}

/// Statuses counted as 'amount to receive' (spec 02 §4).
pub const TO_RECEIVE: [TransactionStatus; 3] =
    [TransactionStatus::NotSend, TransactionStatus::PendingBoleto, TransactionStatus::PendingPix];
/// Statuses counted as 'amount received' (spec 02 §4).
pub const RECEIVED: [TransactionStatus; 7] = [
    TransactionStatus::Captured,
    TransactionStatus::PayExternal,
    TransactionStatus::PayedBoleto,
    TransactionStatus::LessValueBoleto,
    TransactionStatus::MoreValueBoleto,
    TransactionStatus::PaidDuplicityBoleto,
    TransactionStatus::PayedPix,
];
/// The other statuses the provider sends (spec 02 §4): neither received nor to receive.
pub const OTHER_STATUSES: [TransactionStatus; 9] = [
    TransactionStatus::Authorized,
    TransactionStatus::Denied,
    TransactionStatus::Reversed,
    TransactionStatus::Chargeback,
    TransactionStatus::Cancel,
    TransactionStatus::CancelByContract,
    TransactionStatus::Free,
    TransactionStatus::NotCompensated,
    TransactionStatus::UnavailablePix,
];

impl TransactionStatus {
    /// A status by its provider spelling.
    pub fn of(code: &str) -> Self {
        Self::from(code.to_owned())
    }

    /// The provider's spelling.
    pub fn code(&self) -> &str {
        match self {
            TransactionStatus::NotSend => "notSend",
            TransactionStatus::PendingBoleto => "pendingBoleto",
            TransactionStatus::PendingPix => "pendingPix",
            TransactionStatus::Captured => "captured",
            TransactionStatus::PayExternal => "payExternal",
            TransactionStatus::PayedBoleto => "payedBoleto",
            TransactionStatus::LessValueBoleto => "lessValueBoleto",
            TransactionStatus::MoreValueBoleto => "moreValueBoleto",
            TransactionStatus::PaidDuplicityBoleto => "paidDuplicityBoleto",
            TransactionStatus::PayedPix => "payedPix",
            TransactionStatus::Authorized => "authorized",
            TransactionStatus::Denied => "denied",
            TransactionStatus::Reversed => "reversed",
            TransactionStatus::Chargeback => "chargeback",
            TransactionStatus::Cancel => "cancel",
            TransactionStatus::CancelByContract => "cancelByContract",
            TransactionStatus::Free => "free",
            TransactionStatus::NotCompensated => "notCompensated",
            TransactionStatus::UnavailablePix => "unavailablePix",
            TransactionStatus::Other(other) => other,
        }
    }

    /// Counted in the amount to receive.
    pub fn is_to_receive(&self) -> bool {
        TO_RECEIVE.contains(self)
    }

    /// Counted in the amount received.
    pub fn is_received(&self) -> bool {
        RECEIVED.contains(self)
    }

    /// One of the statuses spec 02 §4 lists.
    pub fn is_known(&self) -> bool {
        !matches!(self, TransactionStatus::Other(_))
    }

    /// Tie-break between two reports with the same statusDate: later stages win.
    fn rank(&self) -> u8 {
        match self {
            TransactionStatus::NotSend => 0,
            TransactionStatus::PendingBoleto | TransactionStatus::PendingPix => 1,
            TransactionStatus::Authorized => 2,
            status if status.is_received() || *status == TransactionStatus::Free => 4,
            _ => 3,
        }
    }

    /// The pt-BR description (StatusDescription when the provider sends none).
    pub fn label(&self) -> &str {
        match self {
            TransactionStatus::NotSend => "Ainda não enviada",
            TransactionStatus::PendingBoleto => "Boleto em aberto",
            TransactionStatus::PendingPix => "Pix em aberto",
            TransactionStatus::Captured => "Paga",
            TransactionStatus::PayExternal => "Paga fora do sistema",
            TransactionStatus::PayedBoleto => "Boleto pago",
            TransactionStatus::LessValueBoleto => "Boleto pago com valor menor",
            TransactionStatus::MoreValueBoleto => "Boleto pago com valor maior",
            TransactionStatus::PaidDuplicityBoleto => "Boleto pago em duplicidade",
            TransactionStatus::PayedPix => "Pix pago",
            TransactionStatus::Authorized => "Autorizada",
            TransactionStatus::Denied => "Negada pela operadora",
            TransactionStatus::Reversed => "Estornada",
            TransactionStatus::Chargeback => "Chargeback",
            TransactionStatus::Cancel => "Cancelada manualmente",
            TransactionStatus::CancelByContract => "Cancelada com a cobrança",
            TransactionStatus::Free => "Isenta",
            TransactionStatus::NotCompensated => "Baixa por decurso de prazo",
            TransactionStatus::UnavailablePix => "Pix indisponível",
            TransactionStatus::Other(other) => other,
        }
    }
}

impl From<String> for TransactionStatus {
    fn from(text: String) -> Self {
        TO_RECEIVE
            .into_iter()
            .chain(RECEIVED)
            .chain(OTHER_STATUSES)
            .find(|status| status.code() == text)
            .unwrap_or(TransactionStatus::Other(text))
    }
}

impl From<TransactionStatus> for String {
    fn from(status: TransactionStatus) -> Self {
        status.code().to_owned()
    }
}

/// A charge as the provider reported it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderTransaction {
    /// The provider's id of the charge.
    pub galax_pay_id: i64,
    /// Installment number, from 1.
    pub installment: i64,
    /// Value in cents.
    pub value_cents: i64,
    /// Due date.
    pub payday: Option<NaiveDate>,
    /// Status.
    pub status: TransactionStatus,
    /// The provider's description of the status.
    pub status_description: Option<String>,
    /// When the provider set this status (its wall clock, `YYYY-MM-DD HH:MM:SS`).
    pub status_date: Option<NaiveDateTime>,
    /// Masked card number.
    pub card_number: Option<String>,
    /// Card brand.
    pub card_brand: Option<String>,
    /// Card expiry (`YYYY-MM`).
    pub card_expires_at: Option<String>,
    /// Boleto PDF address.
    pub boleto_pdf: Option<String>,
    /// The boleto's linha digitável (GalaxPay's `Boleto.bankLine`), to pay it in a bank's app.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boleto_bank_line: Option<String>,
    /// Pix page address.
    pub pix_link: Option<String>,
    /// When the provider created the charge.
    pub created_at: Option<NaiveDateTime>,
}

impl ProviderTransaction {
    /// Whether this report of the charge beats `other` (a total order, so the winner does
    /// not depend on arrival order).
    pub fn supersedes(&self, other: &ProviderTransaction) -> bool {
        let key = |t: &ProviderTransaction| {
            (t.status_date, t.status.rank(), serde_json::to_string(t).unwrap_or_default())
        };
        key(self) > key(other)
    }
}

/// How far past its arrival a webhook's own times may reach: the provider's clock may run a
/// little ahead of ours, not more (issue 39).
pub const WEBHOOK_CLOCK_SKEW_MINUTES: i64 = 5;

/// What the provider said about a subscription at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderReport {
    /// When the provider's state was observed (a webhook's charge statusDate, or the time of
    /// a read).
    pub observed_at: NaiveDateTime,
    /// The subscription's status, when the report carries one.
    pub subscription_status: Option<SubscriptionStatus>,
    /// The charges it carries.
    pub transactions: Vec<ProviderTransaction>,
}

impl ProviderReport {
    /// The earliest charge it carries (lowest installment): at checkout, the first charge.
    pub fn first_charge(&self) -> Option<&ProviderTransaction> {
        self.transactions.iter().min_by_key(|t| (t.installment, t.galax_pay_id))
    }

    /// The first charge, if the card operator denied it: the checkout then was an attempt.
    pub fn denied_first_charge(&self) -> Option<&ProviderTransaction> {
        self.first_charge().filter(|t| t.status == TransactionStatus::Denied)
    }

    /// The report with no time later than `latest`: a webhook's times are the sender's
    /// word, and one dated in 2099 would otherwise outrank every report until then.
    pub fn no_later_than(mut self, latest: NaiveDateTime) -> Self {
        self.observed_at = self.observed_at.min(latest);
        for transaction in &mut self.transactions {
            transaction.status_date = transaction.status_date.map(|date| date.min(latest));
        }
        self
    }
}

/// Why a report was recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ReportSource {
    /// A provider webhook.
    Webhook {
        /// webhookId.
        webhook_id: i64,
        /// `transaction.updateStatus` or `subscription.addTransaction`.
        event: String,
    },
    /// The periodic reconciliation job.
    Reconciliation,
    /// `GET subscription-user/{id}/updateData` by staff.
    OnDemand,
    /// The subscription's creation at checkout.
    Checkout,
    /// The provider's answer to a cancellation.
    Cancellation,
}

/// The subscriber as at subscription time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscriber {
    /// IdUser.
    pub user_id: i64,
    /// Name.
    pub name: String,
    /// Email.
    pub email: String,
    /// Cpf digits.
    pub cpf: String,
    /// Phone digits.
    pub phone: String,
    /// BirthDate.
    pub birth_date: Option<NaiveDate>,
}

/// A subscription as created at checkout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionDetails {
    /// The subscriber.
    pub user: Subscriber,
    /// IdSubscriptionDetail.
    pub plan_id: i64,
    /// PlanName at the time.
    pub plan_name: String,
    /// PlanValue in cents at the time.
    pub plan_value_cents: i64,
    /// Periodicity.
    pub periodicity: Periodicity,
    /// Quantity of charges, 0 = infinite.
    pub quantity: i64,
    /// MainPaymentMethodId.
    pub payment_method: PlanPaymentMethod,
    /// The provider's id of the subscription.
    pub galax_pay_id: i64,
    /// ValidityStart.
    pub validity_start: NaiveDate,
    /// ValidityEnd.
    pub validity_end: NaiveDate,
    /// FirstPayDayDate.
    pub first_pay_day: NaiveDate,
    /// CreatedAt.
    pub created_at: DateTime<Utc>,
}

/// The contract status shown to staff (spec 02 §4), derived from the provider's state: see
/// [`Subscription::contract_status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ContractStatus {
    /// Ativo.
    Active,
    /// Pagamento pendente.
    PendingPayment,
    /// Cancelado.
    Canceled,
}

impl ContractStatus {
    /// `ACTIVE`, `PENDING_PAYMENT`, `CANCELED`.
    pub fn code(self) -> &'static str {
        match self {
            ContractStatus::Active => "ACTIVE",
            ContractStatus::PendingPayment => "PENDING_PAYMENT",
            ContractStatus::Canceled => "CANCELED",
        }
    }
}

/// A subscription.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Subscription {
    details: Option<SubscriptionDetails>,
    /// The winning status report: (observed at, status).
    status: Option<(NaiveDateTime, SubscriptionStatus)>,
    transactions: BTreeMap<i64, ProviderTransaction>,
    webhook_ids: BTreeSet<i64>,
    cancellation_requested: bool,
    /// A checkout attempt whose first card charge was denied: never a subscriber.
    #[serde(default)]
    first_charge_denied: bool,
}

impl Subscription {
    /// The version of this state's serialized shape, which the club read model stores whole.
    /// Raise it whenever the shape changes (a test in this module says when): the projector
    /// then rebuilds that model instead of failing to read its rows. Raised to 2 when reads
    /// began to win over webhooks (issue 39): same shape, states folded anew. 3: denied first
    /// charges and boletos' lines.
    pub const STATE_VERSION: u32 = 3;

    /// The subscription, `None` before creation.
    pub fn details(&self) -> Option<&SubscriptionDetails> {
        self.details.as_ref()
    }

    /// The provider's status of the subscription, as last known.
    pub fn status(&self) -> Option<&SubscriptionStatus> {
        self.status.as_ref().map(|(_, status)| status)
    }

    /// The charges, by installment then id.
    pub fn transactions(&self) -> Vec<&ProviderTransaction> {
        let mut list: Vec<_> = self.transactions.values().collect();
        list.sort_by_key(|t| (t.installment, t.galax_pay_id));
        list
    }

    /// Whether this was a checkout attempt whose first card charge the operator denied: the
    /// provider's subscription was cancelled and the client was never a subscriber, so no
    /// list, figure or cover counts it; its events stay in the log.
    pub fn first_charge_denied(&self) -> bool {
        self.first_charge_denied
    }

    /// Whether staff asked for cancellation.
    pub fn cancellation_requested(&self) -> bool {
        self.cancellation_requested
    }

    /// Sum of the charges in the 'received' statuses, in cents.
    pub fn received_cents(&self) -> i64 {
        self.transactions.values().filter(|t| t.status.is_received()).map(|t| t.value_cents).sum()
    }

    /// Sum of the charges in the 'to receive' statuses, in cents.
    pub fn to_receive_cents(&self) -> i64 {
        self.transactions.values().filter(|t| t.status.is_to_receive()).map(|t| t.value_cents).sum()
    }

    /// The contract status. CANCELED once staff asked for cancellation or the provider
    /// ended the subscription (canceled, closed, stopped, inactive). Otherwise ACTIVE when
    /// the latest charge (highest installment) is paid or exempt, PENDING_PAYMENT when there
    /// is no charge yet or the latest one is open, refused or written off.
    pub fn contract_status(&self) -> ContractStatus {
        if self.first_charge_denied
            || self.cancellation_requested
            || self.status().is_some_and(SubscriptionStatus::is_ended)
        {
            return ContractStatus::Canceled;
        }
        match self.transactions().last() {
            Some(latest) if latest.status.is_received() || latest.status == TransactionStatus::Free => {
                ContractStatus::Active
            }
            _ => ContractStatus::PendingPayment,
        }
    }

    /// Folds a report in. Webhooks are ordered by their times: the latest word wins. A read
    /// of the provider (`read`: the checkout's answer, reconciliation, 'Atualizar dados', the
    /// cancellation's confirmation) is the provider's state now, fetched with our own
    /// credentials: it wins over whatever webhooks said, so a forged or future-dated webhook
    /// lasts until the next read (issue 39).
    fn fold(&mut self, report: &ProviderReport, read: bool) {
        if let Some(status) = &report.subscription_status {
            let newer = read
                || match &self.status {
                    None => true,
                    Some((at, current)) => {
                        (report.observed_at, status.rank(), status.code())
                            > (*at, current.rank(), current.code())
                    }
                };
            if newer {
                self.status = Some((report.observed_at, status.clone()));
            }
        }
        for transaction in &report.transactions {
            match self.transactions.get(&transaction.galax_pay_id) {
                Some(current) if !read && !transaction.supersedes(current) => {}
                _ => {
                    self.transactions.insert(transaction.galax_pay_id, transaction.clone());
                }
            }
        }
    }

    /// Whether folding a read's `report` would change what is known.
    pub fn would_change(&self, report: &ProviderReport) -> bool {
        let mut next = self.clone();
        next.fold(report, true);
        next.status() != self.status() || next.transactions != self.transactions
    }
}

/// What can happen to a subscription.
#[derive(Debug, Clone, PartialEq)]
pub enum SubscriptionCommand {
    /// Record a subscription created at the provider, with the provider's first report. When
    /// that report's first charge is a denied card, it is recorded as a denied attempt.
    Create {
        /// The subscription.
        details: SubscriptionDetails,
        /// The provider's answer to its creation.
        report: ProviderReport,
    },
    /// Record an authenticated webhook; a webhook id already recorded changes nothing.
    RecordWebhook {
        /// webhookId.
        webhook_id: i64,
        /// The webhook's event name.
        event: String,
        /// What it says.
        report: ProviderReport,
    },
    /// Record a read of the provider (reconciliation, on demand, cancellation); recorded
    /// only when it tells something not yet known.
    Reconcile {
        /// Why the provider was read.
        source: ReportSource,
        /// What it said.
        report: ProviderReport,
    },
    /// Staff asked to cancel (the provider already accepted it).
    RequestCancellation,
    /// Staff sent the client a reminder of a pending payment (the WhatsApp charge reminder).
    RecordReminder,
}

/// What happened to a subscription.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SubscriptionEvent {
    /// It was created at checkout.
    SubscriptionCreated(SubscriptionDetails),
    /// A checkout attempt: the provider created the subscription but the card operator
    /// denied its first charge, so it is cancelled there and the client may try again.
    FirstChargeDenied {
        /// What the client tried to subscribe to.
        details: SubscriptionDetails,
        /// The provider's answer, with the denied charge.
        report: ProviderReport,
    },
    /// The provider reported its state.
    ProviderReported {
        /// Why.
        source: ReportSource,
        /// What.
        report: ProviderReport,
    },
    /// Staff asked for cancellation.
    CancellationRequested,
    /// Staff reminded the client of a pending payment.
    ReminderSent,
}

impl DomainEvent for SubscriptionEvent {
    fn event_type(&self) -> String {
        match self {
            SubscriptionEvent::SubscriptionCreated(_) => "SubscriptionCreated",
            SubscriptionEvent::FirstChargeDenied { .. } => "FirstChargeDenied",
            SubscriptionEvent::ProviderReported { .. } => "ProviderReported",
            SubscriptionEvent::CancellationRequested => "CancellationRequested",
            SubscriptionEvent::ReminderSent => "ReminderSent",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a subscription command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubscriptionError {
    /// The id is taken.
    #[error("Assinatura já cadastrada.")]
    AlreadyCreated,
    /// Never created.
    #[error("Assinatura não encontrada.")]
    NotFound,
    /// Already cancelled.
    #[error("Esta assinatura já está cancelada.")]
    AlreadyCanceled,
    /// A reminder for a subscription whose payments are up to date.
    #[error("Esta assinatura não tem pagamento pendente.")]
    NothingPending,
}

impl Aggregate for Subscription {
    const TYPE: &'static str = "SubscriptionUser";
    type Command = SubscriptionCommand;
    type Event = SubscriptionEvent;
    type Error = SubscriptionError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        if let SubscriptionCommand::Create { details, report } = command {
            if self.details.is_some() {
                return Err(SubscriptionError::AlreadyCreated);
            }
            if report.denied_first_charge().is_some() {
                sink.write(SubscriptionEvent::FirstChargeDenied { details, report }, self).await;
                return Ok(());
            }
            sink.write(SubscriptionEvent::SubscriptionCreated(details), self).await;
            sink.write(SubscriptionEvent::ProviderReported { source: ReportSource::Checkout, report }, self)
                .await;
            return Ok(());
        }
        if self.details.is_none() {
            return Err(SubscriptionError::NotFound);
        }
        match command {
            SubscriptionCommand::Create { .. } => {}
            SubscriptionCommand::RecordWebhook { webhook_id, event, report } => {
                if !self.webhook_ids.contains(&webhook_id) {
                    let source = ReportSource::Webhook { webhook_id, event };
                    sink.write(SubscriptionEvent::ProviderReported { source, report }, self).await;
                }
            }
            SubscriptionCommand::Reconcile { source, report } => {
                if self.would_change(&report) {
                    sink.write(SubscriptionEvent::ProviderReported { source, report }, self).await;
                }
            }
            SubscriptionCommand::RequestCancellation | SubscriptionCommand::RecordReminder
                if self.first_charge_denied =>
            {
                return Err(SubscriptionError::NotFound);
            }
            SubscriptionCommand::RequestCancellation => {
                // The provider may report its cancellation (a webhook) before it answers the
                // request to cancel: the request is still recorded, once, with who made it.
                // Callers refuse to cancel what had already ended before they asked.
                if self.cancellation_requested {
                    return Err(SubscriptionError::AlreadyCanceled);
                }
                sink.write(SubscriptionEvent::CancellationRequested, self).await;
            }
            SubscriptionCommand::RecordReminder => {
                if self.contract_status() != ContractStatus::PendingPayment {
                    return Err(SubscriptionError::NothingPending);
                }
                sink.write(SubscriptionEvent::ReminderSent, self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            SubscriptionEvent::SubscriptionCreated(details) => self.details = Some(details),
            SubscriptionEvent::FirstChargeDenied { details, report } => {
                self.details = Some(details);
                self.first_charge_denied = true;
                self.fold(&report, true);
            }
            SubscriptionEvent::ProviderReported { source, report } => {
                let read = match source {
                    ReportSource::Webhook { webhook_id, .. } => {
                        self.webhook_ids.insert(webhook_id);
                        false
                    }
                    _ => true,
                };
                self.fold(&report, read);
            }
            SubscriptionEvent::CancellationRequested => self.cancellation_requested = true,
            // A reminder changes nothing of the payment state; it is there for the history.
            SubscriptionEvent::ReminderSent => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    fn at(day: u32, hour: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2027, 3, day).and_then(|d| d.and_hms_opt(hour, 0, 0)).unwrap_or_default()
    }

    fn details() -> SubscriptionDetails {
        SubscriptionDetails {
            user: Subscriber {
                user_id: 1,
                name: "Ana Souza".into(),
                email: "ana@example.com".into(),
                cpf: "52998224725".into(),
                phone: "11987654321".into(),
                birth_date: None,
            },
            plan_id: 1,
            plan_name: "Clube".into(),
            plan_value_cents: 8990,
            periodicity: Periodicity::Monthly,
            quantity: 12,
            payment_method: PlanPaymentMethod::Boleto,
            galax_pay_id: 77,
            validity_start: at(1, 0).date(),
            validity_end: at(31, 0).date(),
            first_pay_day: at(1, 0).date(),
            created_at: DateTime::<Utc>::default(),
        }
    }

    fn charge(id: i64, installment: i64, status: &str, when: NaiveDateTime) -> ProviderTransaction {
        ProviderTransaction {
            galax_pay_id: id,
            installment,
            value_cents: 8990,
            payday: Some(when.date()),
            status: TransactionStatus::of(status),
            status_description: None,
            status_date: Some(when),
            card_number: None,
            card_brand: None,
            card_expires_at: None,
            boleto_pdf: None,
            boleto_bank_line: None,
            pix_link: None,
            created_at: Some(when),
        }
    }

    fn report(when: NaiveDateTime, status: &str, transactions: Vec<ProviderTransaction>) -> ProviderReport {
        ProviderReport {
            observed_at: when,
            subscription_status: Some(SubscriptionStatus::from(status.to_owned())),
            transactions,
        }
    }

    fn created() -> Vec<SubscriptionEvent> {
        vec![
            SubscriptionEvent::SubscriptionCreated(details()),
            SubscriptionEvent::ProviderReported {
                source: ReportSource::Checkout,
                report: report(at(1, 8), "waitingPayment", vec![charge(1, 1, "pendingBoleto", at(1, 8))]),
            },
        ]
    }

    fn state(events: Vec<SubscriptionEvent>) -> Subscription {
        let mut subscription = Subscription::default();
        for event in events {
            subscription.apply(event);
        }
        subscription
    }

    /// A subscription's life with every optional part filled: created, paid as a webhook
    /// reported it, cancellation requested.
    fn filled_events() -> Vec<SubscriptionEvent> {
        let mut created = details();
        created.user.birth_date = Some(at(1, 0).date());
        let filled = ProviderTransaction {
            status_description: Some("Pago".into()),
            card_number: Some("4111********1111".into()),
            card_brand: Some("visa".into()),
            card_expires_at: Some("2030-01".into()),
            boleto_pdf: Some("https://exemplo.com/boleto.pdf".into()),
            boleto_bank_line: Some("34191.79001 01043.510047 91020.150008 1 89900000008990".into()),
            pix_link: Some("https://exemplo.com/pix".into()),
            ..charge(1, 1, "payedBoleto", at(2, 9))
        };
        vec![
            SubscriptionEvent::SubscriptionCreated(created),
            SubscriptionEvent::ProviderReported {
                source: ReportSource::Webhook { webhook_id: 5, event: "transaction.updateStatus".into() },
                report: report(at(2, 9), "active", vec![filled]),
            },
            SubscriptionEvent::CancellationRequested,
        ]
    }

    #[test]
    fn the_stored_state_has_the_shape_of_its_version() {
        let sample = serde_json::to_value(state(filled_events())).unwrap_or_default();
        crate::state_shape::assert_recorded("subscription", Subscription::STATE_VERSION, &sample);
    }

    #[test]
    fn statuses_are_modelled_exactly_and_unknown_values_kept() {
        for code in ["active", "canceled", "closed", "stopped", "waitingPayment", "inactive", "paused"] {
            let status = SubscriptionStatus::from(code.to_owned());
            assert_eq!(status.code(), code);
            let json = serde_json::to_value(&status).unwrap_or_default();
            assert_eq!(json, serde_json::json!(code));
        }
        assert_eq!(SubscriptionStatus::from("paused".to_owned()), SubscriptionStatus::Other("paused".into()));
        assert!(TransactionStatus::of("payedBoleto").is_received());
        assert!(TransactionStatus::of("pendingPix").is_to_receive());
        assert!(
            !TransactionStatus::of("denied").is_received()
                && !TransactionStatus::of("denied").is_to_receive()
        );
        assert!(!TransactionStatus::of("somethingNew").is_known());
        assert_eq!(TransactionStatus::of("somethingNew"), TransactionStatus::Other("somethingNew".into()));
        for status in TO_RECEIVE.into_iter().chain(RECEIVED).chain(OTHER_STATUSES) {
            assert!(status.is_known());
            assert_eq!(TransactionStatus::of(status.code()), status);
            assert_eq!(serde_json::to_value(&status).unwrap_or_default(), serde_json::json!(status.code()));
        }
        assert_eq!(TO_RECEIVE.len() + RECEIVED.len() + OTHER_STATUSES.len(), 19);
    }

    #[test]
    fn amounts_and_contract_status_follow_the_charges() {
        let pending = state(created());
        assert_eq!((pending.received_cents(), pending.to_receive_cents()), (0, 8990));
        assert_eq!(pending.contract_status(), ContractStatus::PendingPayment);
        let mut events = created();
        events.push(SubscriptionEvent::ProviderReported {
            source: ReportSource::Reconciliation,
            report: report(at(2, 9), "active", vec![charge(1, 1, "payedBoleto", at(2, 9))]),
        });
        let paid = state(events.clone());
        assert_eq!((paid.received_cents(), paid.to_receive_cents()), (8990, 0));
        assert_eq!(paid.contract_status(), ContractStatus::Active);
        events.push(SubscriptionEvent::CancellationRequested);
        assert_eq!(state(events).contract_status(), ContractStatus::Canceled);
    }

    #[test]
    fn a_repeated_webhook_id_changes_nothing() {
        let mut events = created();
        events.push(SubscriptionEvent::ProviderReported {
            source: ReportSource::Webhook { webhook_id: 5, event: "transaction.updateStatus".into() },
            report: report(at(2, 9), "active", vec![charge(1, 1, "payedBoleto", at(2, 9))]),
        });
        TestFramework::<Subscription>::with(())
            .given(events)
            .when(SubscriptionCommand::RecordWebhook {
                webhook_id: 5,
                event: "transaction.updateStatus".into(),
                report: report(at(3, 9), "active", vec![charge(1, 1, "chargeback", at(3, 9))]),
            })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_reconciliation_that_tells_nothing_new_records_nothing() {
        TestFramework::<Subscription>::with(())
            .given(created())
            .when(SubscriptionCommand::Reconcile {
                source: ReportSource::Reconciliation,
                report: report(at(1, 7), "waitingPayment", vec![charge(1, 1, "pendingBoleto", at(1, 8))]),
            })
            .then_expect_events(vec![]);
        let newer = report(at(2, 9), "active", vec![charge(1, 1, "payedBoleto", at(2, 9))]);
        TestFramework::<Subscription>::with(())
            .given(created())
            .when(SubscriptionCommand::Reconcile {
                source: ReportSource::Reconciliation,
                report: newer.clone(),
            })
            .then_expect_events(vec![SubscriptionEvent::ProviderReported {
                source: ReportSource::Reconciliation,
                report: newer,
            }]);
    }

    fn denied_attempt() -> SubscriptionEvent {
        let denied = ProviderTransaction {
            status_description: Some("Negada".into()),
            ..charge(1, 1, "denied", at(1, 8))
        };
        SubscriptionEvent::FirstChargeDenied {
            details: SubscriptionDetails { payment_method: PlanPaymentMethod::Creditcard, ..details() },
            report: report(at(1, 8), "active", vec![denied]),
        }
    }

    #[test]
    fn a_denied_first_card_charge_is_an_attempt_not_a_subscriber() {
        let SubscriptionEvent::FirstChargeDenied { details, report: answer } = denied_attempt() else {
            unreachable!("an attempt")
        };
        TestFramework::<Subscription>::with(())
            .given_no_previous_events()
            .when(SubscriptionCommand::Create { details, report: answer })
            .then_expect_events(vec![denied_attempt()]);
        let attempt = state(vec![denied_attempt()]);
        assert!(attempt.first_charge_denied());
        assert_eq!(attempt.contract_status(), ContractStatus::Canceled);
        for command in [SubscriptionCommand::RequestCancellation, SubscriptionCommand::RecordReminder] {
            TestFramework::<Subscription>::with(())
                .given(vec![denied_attempt()])
                .when(command)
                .then_expect_error(SubscriptionError::NotFound);
        }
        // The provider's later word about it is still recorded, for the history.
        let later = report(at(1, 9), "canceled", vec![]);
        TestFramework::<Subscription>::with(())
            .given(vec![denied_attempt()])
            .when(SubscriptionCommand::Reconcile {
                source: ReportSource::Cancellation,
                report: later.clone(),
            })
            .then_expect_events(vec![SubscriptionEvent::ProviderReported {
                source: ReportSource::Cancellation,
                report: later,
            }]);
        // A denied later charge is an ordinary pending payment of a subscriber.
        assert!(!state(created()).first_charge_denied());
    }

    #[test]
    fn cancelling_twice_is_refused() {
        let mut events = created();
        events.push(SubscriptionEvent::CancellationRequested);
        TestFramework::<Subscription>::with(())
            .given(created())
            .when(SubscriptionCommand::RequestCancellation)
            .then_expect_events(vec![SubscriptionEvent::CancellationRequested]);
        TestFramework::<Subscription>::with(())
            .given(events)
            .when(SubscriptionCommand::RequestCancellation)
            .then_expect_error(SubscriptionError::AlreadyCanceled);
        TestFramework::<Subscription>::with(())
            .given_no_previous_events()
            .when(SubscriptionCommand::RequestCancellation)
            .then_expect_error(SubscriptionError::NotFound);
    }

    #[test]
    fn a_cancellation_the_provider_reported_first_is_still_recorded() {
        let mut reported = created();
        reported.push(SubscriptionEvent::ProviderReported {
            source: ReportSource::Webhook { webhook_id: 9, event: "transaction.updateStatus".into() },
            report: report(at(2, 9), "canceled", vec![charge(1, 1, "cancelByContract", at(2, 9))]),
        });
        TestFramework::<Subscription>::with(())
            .given(reported)
            .when(SubscriptionCommand::RequestCancellation)
            .then_expect_events(vec![SubscriptionEvent::CancellationRequested]);
    }

    #[test]
    fn a_reminder_is_recorded_only_while_a_payment_is_pending() {
        TestFramework::<Subscription>::with(())
            .given(created())
            .when(SubscriptionCommand::RecordReminder)
            .then_expect_events(vec![SubscriptionEvent::ReminderSent]);
        let mut paid = created();
        paid.push(SubscriptionEvent::ProviderReported {
            source: ReportSource::Reconciliation,
            report: report(at(2, 9), "active", vec![charge(1, 1, "payedBoleto", at(2, 9))]),
        });
        TestFramework::<Subscription>::with(())
            .given(paid)
            .when(SubscriptionCommand::RecordReminder)
            .then_expect_error(SubscriptionError::NothingPending);
        let mut cancelled = created();
        cancelled.push(SubscriptionEvent::CancellationRequested);
        TestFramework::<Subscription>::with(())
            .given(cancelled)
            .when(SubscriptionCommand::RecordReminder)
            .then_expect_error(SubscriptionError::NothingPending);
    }

    /// Issue 39: a webhook dated 2099 is clamped to its arrival; and a read of the provider
    /// wins over any webhook, so what a forged one set lasts until the next read.
    #[test]
    fn a_read_of_the_provider_wins_over_webhooks_and_webhook_times_are_clamped() {
        let arrival = at(5, 12);
        let far =
            NaiveDate::from_ymd_opt(2099, 1, 1).and_then(|d| d.and_hms_opt(0, 0, 0)).unwrap_or_default();
        let unclamped = report(far, "canceled", vec![charge(1, 1, "chargeback", far)]);
        let forged = unclamped.clone().no_later_than(arrival);
        assert_eq!(forged.observed_at, arrival);
        assert_eq!(forged.transactions[0].status_date, Some(arrival));

        let paid = report(at(3, 10), "active", vec![charge(1, 1, "payedBoleto", at(3, 10))]);
        let mut events = created();
        events.push(SubscriptionEvent::ProviderReported {
            source: ReportSource::Webhook { webhook_id: 1, event: "transaction.updateStatus".into() },
            report: paid.clone(),
        });
        // A forged webhook, even unclamped, rules only until the next read.
        events.push(SubscriptionEvent::ProviderReported {
            source: ReportSource::Webhook { webhook_id: 2, event: "transaction.updateStatus".into() },
            report: unclamped,
        });
        let pinned = state(events.clone());
        assert_eq!(pinned.contract_status(), ContractStatus::Canceled);
        // The read says what the provider has: active, paid. It is recorded (it changes what
        // is known) and wins.
        let read = report(at(5, 12), "active", vec![charge(1, 1, "payedBoleto", at(3, 10))]);
        assert!(pinned.would_change(&read));
        events.push(SubscriptionEvent::ProviderReported {
            source: ReportSource::OnDemand,
            report: read.clone(),
        });
        let repaired = state(events.clone());
        assert_eq!(repaired.contract_status(), ContractStatus::Active);
        assert_eq!(repaired.transactions()[0].status.code(), "payedBoleto");
        assert!(!repaired.would_change(&read), "read again, nothing new");
        // A later real webhook still moves it on.
        events.push(SubscriptionEvent::ProviderReported {
            source: ReportSource::Webhook { webhook_id: 3, event: "subscription.addTransaction".into() },
            report: report(at(6, 8), "active", vec![charge(2, 2, "pendingBoleto", at(6, 8))]),
        });
        assert_eq!(state(events).contract_status(), ContractStatus::PendingPayment);
    }

    /// Five webhooks in every one of their 120 orders reach one final state.
    #[test]
    fn every_order_of_five_reports_reaches_the_same_state() {
        let hook = |id: i64, event: &str, report: ProviderReport| SubscriptionEvent::ProviderReported {
            source: ReportSource::Webhook { webhook_id: id, event: event.into() },
            report,
        };
        let five = [
            hook(
                1,
                "subscription.addTransaction",
                report(at(1, 8), "active", vec![charge(1, 1, "pendingBoleto", at(1, 8))]),
            ),
            hook(
                2,
                "transaction.updateStatus",
                report(at(3, 10), "active", vec![charge(1, 1, "payedBoleto", at(3, 10))]),
            ),
            hook(
                3,
                "subscription.addTransaction",
                report(at(4, 8), "active", vec![charge(2, 2, "pendingBoleto", at(4, 8))]),
            ),
            hook(
                4,
                "transaction.updateStatus",
                report(at(6, 10), "active", vec![charge(2, 2, "notCompensated", at(6, 10))]),
            ),
            hook(
                5,
                "transaction.updateStatus",
                report(at(6, 10), "stopped", vec![charge(2, 2, "notCompensated", at(6, 10))]),
            ),
        ];
        let mut finals = Vec::new();
        permute(&mut (0..five.len()).collect(), 0, &mut |order| {
            let mut events = vec![SubscriptionEvent::SubscriptionCreated(details())];
            events.extend(order.iter().map(|i| five[*i].clone()));
            let s = state(events);
            finals.push((
                s.status().cloned(),
                s.transactions().into_iter().cloned().collect::<Vec<_>>(),
                s.contract_status(),
            ));
        });
        assert_eq!(finals.len(), 120);
        assert!(finals.windows(2).all(|w| w[0] == w[1]));
        let (status, transactions, contract) = &finals[0];
        assert_eq!(status, &Some(SubscriptionStatus::Stopped));
        assert_eq!(transactions[0].status.code(), "payedBoleto");
        assert_eq!(transactions[1].status.code(), "notCompensated");
        assert_eq!(*contract, ContractStatus::Canceled);
    }

    fn permute(items: &mut Vec<usize>, k: usize, visit: &mut impl FnMut(&[usize])) {
        if k == items.len() {
            visit(items);
            return;
        }
        for i in k..items.len() {
            items.swap(k, i);
            permute(items, k + 1, visit);
            items.swap(k, i);
        }
    }

    #[test]
    fn events_are_pinned() {
        let mut events = filled_events();
        events.push(SubscriptionEvent::ReminderSent);
        events.push(denied_attempt());
        crate::event_payload::assert_pinned::<Subscription>(&events);
    }
}
