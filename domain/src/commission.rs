//! Commissions (issue 42): what each professional earns of the comandas they served.
//!
//! A professional's rates ([`CommissionRates`]) are set on their own stream
//! (`ProfessionalEvent::CommissionRatesSet`) and apply from the moment they are set: the
//! comanda's close writes, for each professional, the rate in force for each of their lines
//! and what it earned ([`Earning`], in `ComandaClosed`, by `comanda::earnings`), so that a later change of a rate
//! never reaches a closed comanda. docs/money.md, "Commissions".

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::money::{cents_from_reais, check_amount, percent_of, WHOLE};
use crate::sale::ItemKind;
use crate::validation::FieldErrors;

/// How much of a line a professional earns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rate {
    /// A share of what the client paid for the line, in basis points (40 % = 4000).
    BasisPoints(i64),
    /// A fixed amount for each unit of the line, whatever its price.
    FixedCents(i64),
}

impl Rate {
    /// What the rate earns of a line of `quantity` units that brought in `net_cents`.
    pub fn of(self, net_cents: i64, quantity: i64) -> i64 {
        match self {
            Rate::BasisPoints(points) => percent_of(net_cents, points),
            Rate::FixedCents(cents) => cents * quantity,
        }
    }
}

/// A service paid at another rate than the professional's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServiceRate {
    pub service_id: i64,
    pub rate: Rate,
}

/// A professional's commission rates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommissionRates {
    /// The default share of a service, in basis points.
    pub service_points: i64,
    /// The default share of a product sold, in basis points.
    pub product_points: i64,
    /// Services paid otherwise, at most one per service.
    pub services: Vec<ServiceRate>,
    /// Whether the card machine's fee is shared with the professional (its rates per method
    /// are the unit's).
    pub card_fee_shared: bool,
    /// A 'profissional-parceiro' (Lei 13.352/2016): their statement names their share and
    /// the salon's as the partnership contract's cota-partes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partner: bool,
}

impl CommissionRates {
    /// The rate of a line: the service's own when it has one, else the kind's default.
    pub fn rate_of(&self, kind: ItemKind, ref_id: i64) -> Rate {
        match kind {
            ItemKind::Service => self
                .services
                .iter()
                .find(|service| service.service_id == ref_id)
                .map_or(Rate::BasisPoints(self.service_points), |service| service.rate),
            ItemKind::Product => Rate::BasisPoints(self.product_points),
        }
    }
}

/// How a line the club covers earns (a unit setting).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClubRule {
    /// At the professional's rate over the line's price, as any other line: the club pays
    /// its share of that price and the client the rest.
    #[default]
    PlanShare,
    /// A fixed amount for each unit of the line, whatever the rate and the plan.
    FixedCents(i64),
}

/// The usual length of a commission period (a unit setting).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PeriodKind {
    Week,
    Fortnight,
    #[default]
    Month,
}

impl PeriodKind {
    /// The wire code: `week`, `fortnight` or `month`.
    pub fn code(self) -> &'static str {
        match self {
            PeriodKind::Week => "week",
            PeriodKind::Fortnight => "fortnight",
            PeriodKind::Month => "month",
        }
    }

    pub fn parse(code: &str) -> Option<PeriodKind> {
        [PeriodKind::Week, PeriodKind::Fortnight, PeriodKind::Month]
            .into_iter()
            .find(|k| k.code() == code.trim())
    }
}

/// A unit's commission settings: the card machine's fee per method, which professionals
/// whose rates say so share; how the club's covered lines earn; the usual period.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommissionSettings {
    /// The fee of a credit card payment, in basis points (3,49 % = 349).
    #[serde(default)]
    pub card_fee_credit_points: i64,
    /// The fee of a debit card payment, in basis points.
    #[serde(default)]
    pub card_fee_debit_points: i64,
    #[serde(default)]
    pub club_rule: ClubRule,
    #[serde(default)]
    pub period: PeriodKind,
}

impl CommissionSettings {
    /// Whether nothing was set.
    pub fn is_default(&self) -> bool {
        *self == CommissionSettings::default()
    }
}

/// What a commission's line earned, with the rate that was in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EarnedLine {
    pub item_id: i64,
    pub kind: ItemKind,
    pub ref_id: i64,
    pub quantity: i64,
    /// What the client paid for the line (after every discount).
    pub net_cents: i64,
    pub rate: Rate,
    pub commission_cents: i64,
    /// The card machine's fee the professional shares on this line (their rate of the
    /// line's share of the comanda's card fees), taken off the commission.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub card_fee_cents: i64,
    /// Covered by the club (the unit's club rule priced it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub club: bool,
}

fn is_zero(cents: &i64) -> bool {
    *cents == 0
}

/// What one closed comanda earned one professional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Earning {
    pub professional_id: i64,
    pub lines: Vec<EarnedLine>,
    /// Their tips, in full.
    pub tips_cents: i64,
    /// A 'profissional-parceiro' when it was earned (their rates then said so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partner: bool,
}

impl Earning {
    /// The commission of the lines.
    pub fn commission_cents(&self) -> i64 {
        self.lines.iter().map(|line| line.commission_cents).sum()
    }

    /// The card fees shared.
    pub fn card_fee_cents(&self) -> i64 {
        self.lines.iter().map(|line| line.card_fee_cents).sum()
    }
}

/// An advance paid to a professional ('Vale'), taken off what they are due, or a bonus
/// ('Bônus'), added to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    Vale,
    Bonus,
}

impl EntryKind {
    /// The wire code: `vale` or `bonus`.
    pub fn code(self) -> &'static str {
        match self {
            EntryKind::Vale => "vale",
            EntryKind::Bonus => "bonus",
        }
    }

    pub fn parse(code: &str) -> Option<EntryKind> {
        [EntryKind::Vale, EntryKind::Bonus].into_iter().find(|kind| kind.code() == code.trim())
    }
}

/// A vale or a bonus, on the day it was recorded (the unit's clock): it enters the statement
/// of the period holding that day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Numbered within the professional's ledger.
    pub entry_id: i64,
    pub kind: EntryKind,
    pub cents: i64,
    pub reason: String,
    pub on: NaiveDate,
}

/// How a period was paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PayoutMethod {
    Cash,
    Pix,
    Transfer,
}

impl PayoutMethod {
    /// The wire code: `cash`, `pix` or `transfer`.
    pub fn code(self) -> &'static str {
        match self {
            PayoutMethod::Cash => "cash",
            PayoutMethod::Pix => "pix",
            PayoutMethod::Transfer => "transfer",
        }
    }

    pub fn parse(code: &str) -> Option<PayoutMethod> {
        [PayoutMethod::Cash, PayoutMethod::Pix, PayoutMethod::Transfer]
            .into_iter()
            .find(|method| method.code() == code.trim())
    }
}

/// A period closed and paid: what it settled is written down and never changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    pub period_id: i64,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub paid_on: NaiveDate,
    pub method: PayoutMethod,
    /// When it was closed: a statement of the period is the one as of this instant.
    pub closed_at: DateTime<Utc>,
    /// Each comanda settled (its own, and those it adjusted) with what it has earned the
    /// professional in all, commission and tips, as of the close.
    pub settled: Vec<(i64, i64)>,
    /// The vales and bonuses it settled.
    pub entries: Vec<i64>,
    /// What was paid.
    pub net_cents: i64,
}

/// A professional's commission ledger: their vales and bonuses, and the periods paid.
/// Aggregate id = the professional's id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CommissionLedger {
    entries: Vec<Entry>,
    #[serde(default)]
    periods: Vec<Period>,
}

impl CommissionLedger {
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The periods closed, in the order they were.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// What each comanda settled so far has earned the professional in all, as last paid.
    fn settled(&self) -> BTreeMap<i64, i64> {
        self.periods.iter().flat_map(|period| period.settled.iter().copied()).collect()
    }

    /// The last day of the periods paid, if any.
    fn paid_through(&self) -> Option<NaiveDate> {
        self.periods.iter().map(|period| period.to).max()
    }

    /// The period closed for exactly these days, if one was.
    pub fn period_of(&self, from: NaiveDate, to: NaiveDate) -> Option<&Period> {
        self.periods.iter().find(|period| period.from == from && period.to == to)
    }

    /// The statement of the days `from` to `to` as it stands (the range not closed):
    /// `comandas` are those that earned the professional something as they stand now (of
    /// those days, and any settled before); every total is a sum of lines' own centavos.
    ///
    /// - A comanda of a day a closed period covers belongs to that period, never to another.
    /// - A comanda settled before whose earning has since changed (reopened, refunded, closed
    ///   again) is an adjustment, the difference, in a statement that reaches past the days
    ///   already paid (`to` on or after the last paid day); the next period closed settles it.
    /// - A vale or bonus of those days, not settled yet.
    pub fn statement(&self, comandas: &[EarnedComanda], from: NaiveDate, to: NaiveDate) -> Statement {
        let closed_day = |on: NaiveDate| self.periods.iter().any(|p| p.from <= on && on <= p.to);
        let within = |on: NaiveDate| from <= on && on <= to && !closed_day(on);
        let settled = self.settled();
        let settled_entries: Vec<i64> = self.periods.iter().flat_map(|p| p.entries.iter().copied()).collect();
        let mut statement = Statement::default();
        let mut own: Vec<EarnedComanda> = comandas
            .iter()
            .filter(|c| within(c.on) && !settled.contains_key(&c.comanda_id))
            .cloned()
            .collect();
        own.sort_by_key(|c| (c.on, c.comanda_id));
        for comanda in &own {
            for line in &comanda.earning.lines {
                match line.kind {
                    ItemKind::Service => statement.services_cents += line.net_cents,
                    ItemKind::Product => statement.products_cents += line.net_cents,
                }
                statement.commission_cents += line.commission_cents;
                statement.card_fees_cents += line.card_fee_cents;
            }
            statement.tips_cents += comanda.earning.tips_cents;
        }
        statement.comandas = own;
        if self.paid_through().is_some_and(|paid| to >= paid) {
            for (comanda_id, paid) in &settled {
                let now = comandas
                    .iter()
                    .find(|c| c.comanda_id == *comanda_id)
                    .map_or(0, EarnedComanda::total_cents);
                if now != *paid {
                    statement.adjustments.push(Adjustment { comanda_id: *comanda_id, cents: now - paid });
                }
            }
        }
        statement.adjustments_cents = statement.adjustments.iter().map(|a| a.cents).sum();
        statement.entries = self
            .entries
            .iter()
            .filter(|entry| within(entry.on) && !settled_entries.contains(&entry.entry_id))
            .cloned()
            .collect();
        for entry in &statement.entries {
            match entry.kind {
                EntryKind::Vale => statement.vales_cents += entry.cents,
                EntryKind::Bonus => statement.bonuses_cents += entry.cents,
            }
        }
        statement
    }
}

/// What can be done with a ledger.
#[derive(Debug, Clone, PartialEq)]
pub enum LedgerCommand {
    /// `entry_id`: the entry's number, from the business's sequence; `on`: today, on the
    /// professional's unit's clock (a day already paid moves it to the next one).
    Record { entry_id: i64, kind: EntryKind, cents: i64, reason: String, on: NaiveDate },
    /// 'Fechar período': `comandas` as in [`CommissionLedger::statement`]; `today` on the
    /// unit's clock, `at` the instant.
    ClosePeriod {
        period_id: i64,
        from: NaiveDate,
        to: NaiveDate,
        paid_on: NaiveDate,
        method: PayoutMethod,
        comandas: Vec<EarnedComanda>,
        today: NaiveDate,
        at: DateTime<Utc>,
    },
}

/// What happened to a ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LedgerEvent {
    EntryRecorded(Entry),
    PeriodClosed(Period),
}

impl DomainEvent for LedgerEvent {
    fn event_type(&self) -> String {
        match self {
            LedgerEvent::EntryRecorded(_) => "EntryRecorded",
            LedgerEvent::PeriodClosed(_) => "PeriodClosed",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a ledger command was refused: (field, message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{1}")]
pub struct LedgerError(pub &'static str, pub String);

impl Aggregate for CommissionLedger {
    const TYPE: &'static str = "CommissionLedger";
    type Command = LedgerCommand;
    type Event = LedgerEvent;
    type Error = LedgerError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let event = match command {
            LedgerCommand::Record { entry_id, kind, cents, reason, on } => {
                check_amount(cents, false).map_err(|message| LedgerError("value", message))?;
                let reason = crate::validation::reason(&reason)
                    .map_err(|message| LedgerError("reason", message.to_owned()))?;
                // A day already paid: the next one, so that the vale is paid (or taken) once.
                let on = self.paid_through().map_or(on, |paid| on.max(paid + chrono::Duration::days(1)));
                LedgerEvent::EntryRecorded(Entry { entry_id, kind, cents, reason, on })
            }
            LedgerCommand::ClosePeriod { period_id, from, to, paid_on, method, comandas, today, at } => {
                if to < from {
                    return Err(LedgerError("to", MSG_TO_BEFORE_FROM.to_owned()));
                }
                if to > today {
                    return Err(LedgerError("to", MSG_PERIOD_IN_FUTURE.to_owned()));
                }
                if let Some(overlap) = self.periods.iter().find(|p| p.from <= to && from <= p.to) {
                    return Err(LedgerError(
                        "from",
                        format!(
                            "Este período se sobrepõe ao já fechado de {} a {}.",
                            overlap.from.format("%d/%m/%Y"),
                            overlap.to.format("%d/%m/%Y")
                        ),
                    ));
                }
                let statement = self.statement(&comandas, from, to);
                let mut settled: Vec<(i64, i64)> =
                    statement.comandas.iter().map(|c| (c.comanda_id, c.total_cents())).collect();
                let paid = self.settled();
                settled.extend(
                    statement
                        .adjustments
                        .iter()
                        .map(|a| (a.comanda_id, paid.get(&a.comanda_id).copied().unwrap_or(0) + a.cents)),
                );
                LedgerEvent::PeriodClosed(Period {
                    period_id,
                    from,
                    to,
                    paid_on,
                    method,
                    closed_at: at,
                    settled,
                    entries: statement.entries.iter().map(|entry| entry.entry_id).collect(),
                    net_cents: statement.net_cents(),
                })
            }
        };
        sink.write(event, self).await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            LedgerEvent::EntryRecorded(entry) => self.entries.push(entry),
            LedgerEvent::PeriodClosed(period) => self.periods.push(period),
        }
    }
}

/// A comanda as a statement reads it: its day (the day it was opened, as the home's
/// 'Recebido' counts it) and what its last close earned the professional.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EarnedComanda {
    pub comanda_id: i64,
    pub on: NaiveDate,
    pub earning: Earning,
}

impl EarnedComanda {
    /// Commission less card fees, and tips.
    pub fn total_cents(&self) -> i64 {
        self.earning.commission_cents() - self.earning.card_fee_cents() + self.earning.tips_cents
    }
}

/// A comanda paid in an earlier period whose earning has changed since: the difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjustment {
    pub comanda_id: i64,
    pub cents: i64,
}

pub const MSG_TO_BEFORE_FROM: &str = "A data final deve ser igual ou posterior à inicial.";
pub const MSG_PERIOD_IN_FUTURE: &str = "Só é possível fechar um período até hoje.";

/// A professional's statement for a range of days, in centavos.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Statement {
    /// The comandas of the range that earned them something, oldest first.
    pub comandas: Vec<EarnedComanda>,
    /// The vales and bonuses recorded in the range.
    pub entries: Vec<Entry>,
    /// What the clients paid for their services and for their products.
    pub services_cents: i64,
    pub products_cents: i64,
    pub commission_cents: i64,
    pub card_fees_cents: i64,
    pub tips_cents: i64,
    pub vales_cents: i64,
    pub bonuses_cents: i64,
    /// Comandas of periods already paid whose earning changed since.
    pub adjustments: Vec<Adjustment>,
    pub adjustments_cents: i64,
}

impl Statement {
    /// Services and products sold.
    pub fn gross_cents(&self) -> i64 {
        self.services_cents + self.products_cents
    }

    /// What is due: commission less card fees, tips, bonuses and adjustments, less vales.
    pub fn net_cents(&self) -> i64 {
        self.commission_cents - self.card_fees_cents
            + self.tips_cents
            + self.bonuses_cents
            + self.adjustments_cents
            - self.vales_cents
    }
}

/// `PUT professional/{id}/commission`: percentages with up to two decimals (12,5), a fixed
/// amount in reais.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommissionForm {
    /// The default share of a service, percent.
    #[serde(default)]
    #[schema(value_type = f64)]
    pub service_percent: Value,
    /// The default share of a product, percent.
    #[serde(default)]
    #[schema(value_type = f64)]
    pub product_percent: Value,
    /// Services paid otherwise: a percent or a fixed amount each.
    #[serde(default)]
    pub services: Vec<ServiceRateForm>,
    #[serde(default)]
    pub card_fee_shared: bool,
    /// A 'profissional-parceiro' (Lei 13.352/2016).
    #[serde(default)]
    pub partner: bool,
}

/// A service's own rate: `percent` or `fixed` (reais per unit), not both.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServiceRateForm {
    #[serde(default)]
    pub id_service: Option<i64>,
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    pub percent: Value,
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    pub fixed: Value,
}

pub const MSG_PERCENT: &str = "Informe uma porcentagem de 0 a 100, com até duas casas decimais.";
pub const MSG_PERCENT_OR_FIXED: &str = "Informe a porcentagem ou o valor fixo, não os dois.";
pub const MSG_SERVICE_TWICE: &str = "Este serviço já tem uma comissão própria.";
pub const MSG_CHOOSE_SERVICE: &str = "Escolha o serviço.";

fn blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.trim().is_empty(),
        _ => false,
    }
}

/// A percentage of 0 to 100 with two decimals, in basis points.
fn points_of(value: &Value) -> Option<i64> {
    cents_from_reais(value).ok().filter(|points| (0..=WHOLE).contains(points))
}

impl CommissionForm {
    /// The rates, or every field's pt-BR message (`services.0.percent` for a service's).
    pub fn validate(&self) -> Result<CommissionRates, FieldErrors> {
        let mut errors = FieldErrors::default();
        let mut percent = |field: &str, value: &Value| match points_of(value) {
            Some(points) if !blank(value) => points,
            _ => {
                errors.add(field, MSG_PERCENT);
                0
            }
        };
        let service_points = percent("servicePercent", &self.service_percent);
        let product_points = percent("productPercent", &self.product_percent);
        let mut services: Vec<ServiceRate> = Vec::new();
        for (n, form) in self.services.iter().enumerate() {
            let field = |name: &str| format!("services.{n}.{name}");
            let Some(service_id) = form.id_service.filter(|id| *id > 0) else {
                errors.add(&field("idService"), MSG_CHOOSE_SERVICE);
                continue;
            };
            if services.iter().any(|rate| rate.service_id == service_id) {
                errors.add(&field("idService"), MSG_SERVICE_TWICE);
                continue;
            }
            let rate = match (blank(&form.percent), blank(&form.fixed)) {
                (false, false) | (true, true) => {
                    errors.add(&field("percent"), MSG_PERCENT_OR_FIXED);
                    continue;
                }
                (false, true) => match points_of(&form.percent) {
                    Some(points) => Rate::BasisPoints(points),
                    None => {
                        errors.add(&field("percent"), MSG_PERCENT);
                        continue;
                    }
                },
                (true, false) => {
                    let fixed = cents_from_reais(&form.fixed)
                        .map_err(|not_money| not_money.message().to_owned())
                        .and_then(|cents| check_amount(cents, true).map(|()| cents));
                    match fixed {
                        Ok(cents) => Rate::FixedCents(cents),
                        Err(message) => {
                            errors.add(&field("fixed"), &message);
                            continue;
                        }
                    }
                }
            };
            services.push(ServiceRate { service_id, rate });
        }
        if errors.is_empty() {
            Ok(CommissionRates {
                service_points,
                product_points,
                services,
                card_fee_shared: self.card_fee_shared,
                partner: self.partner,
            })
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;
    use serde_json::json;

    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap_or_default()
    }

    #[test]
    fn a_vale_or_bonus_needs_a_value_and_a_reason() {
        let record = |cents, reason: &str| LedgerCommand::Record {
            entry_id: 2,
            kind: EntryKind::Vale,
            cents,
            reason: reason.into(),
            on: day(20),
        };
        TestFramework::<CommissionLedger>::with(())
            .given_no_previous_events()
            .when(record(0, "Adiantamento"))
            .then_expect_error(LedgerError("value", "Informe um valor maior que zero.".into()));
        TestFramework::<CommissionLedger>::with(())
            .given_no_previous_events()
            .when(record(5000, " "))
            .then_expect_error(LedgerError("reason", "Informe o motivo.".into()));
        let first =
            Entry { entry_id: 1, kind: EntryKind::Bonus, cents: 100, reason: "Meta".into(), on: day(2) };
        TestFramework::<CommissionLedger>::with(())
            .given(vec![LedgerEvent::EntryRecorded(first)])
            .when(record(5000, " Adiantamento "))
            .then_expect_events(vec![LedgerEvent::EntryRecorded(Entry {
                entry_id: 2,
                kind: EntryKind::Vale,
                cents: 5000,
                reason: "Adiantamento".into(),
                on: day(20),
            })]);
    }

    #[test]
    fn a_statement_sums_its_days_comandas_and_entries_to_the_centavo() {
        let earned = |comanda_id, on, lines: Vec<(ItemKind, i64, i64)>, tips_cents| EarnedComanda {
            comanda_id,
            on,
            earning: Earning {
                professional_id: 7,
                lines: lines
                    .into_iter()
                    .enumerate()
                    .map(|(n, (kind, net_cents, commission_cents))| EarnedLine {
                        item_id: n as i64 + 1,
                        kind,
                        ref_id: 1,
                        quantity: 1,
                        net_cents,
                        rate: Rate::BasisPoints(4000),
                        commission_cents,
                        card_fee_cents: 0,
                        club: false,
                    })
                    .collect(),
                tips_cents,
                partner: false,
            },
        };
        let comandas = [
            earned(12, day(16), vec![(ItemKind::Service, 4500, 1800)], 0),
            earned(10, day(15), vec![(ItemKind::Service, 4499, 1800), (ItemKind::Product, 2990, 299)], 500),
            // Outside the range: the day before.
            earned(9, day(14), vec![(ItemKind::Service, 9000, 3600)], 1000),
        ];
        let entries = [
            Entry {
                entry_id: 1,
                kind: EntryKind::Vale,
                cents: 5000,
                reason: "Adiantamento".into(),
                on: day(15),
            },
            Entry { entry_id: 2, kind: EntryKind::Bonus, cents: 1000, reason: "Meta".into(), on: day(30) },
            Entry { entry_id: 3, kind: EntryKind::Vale, cents: 700, reason: "Fora".into(), on: day(1) },
        ];
        let mut ledger = CommissionLedger::default();
        entries.into_iter().for_each(|entry| ledger.apply(LedgerEvent::EntryRecorded(entry)));
        let s = ledger.statement(&comandas, day(15), day(30));
        assert_eq!(s.comandas.iter().map(|c| c.comanda_id).collect::<Vec<_>>(), [10, 12]);
        assert_eq!((s.services_cents, s.products_cents, s.gross_cents()), (8999, 2990, 11_989));
        assert_eq!((s.commission_cents, s.tips_cents), (3899, 500));
        assert_eq!((s.vales_cents, s.bonuses_cents), (5000, 1000));
        // R$ 38,99 + R$ 5,00 + R$ 10,00 − R$ 50,00.
        assert_eq!(s.net_cents(), 399);
    }

    /// A comanda of `on` that earned professional 7 `commission` on a R$ 100,00 haircut and
    /// `tips`.
    fn haircut(comanda_id: i64, on: NaiveDate, commission_cents: i64, tips_cents: i64) -> EarnedComanda {
        EarnedComanda {
            comanda_id,
            on,
            earning: Earning {
                professional_id: 7,
                lines: vec![EarnedLine {
                    item_id: 1,
                    kind: ItemKind::Service,
                    ref_id: 1,
                    quantity: 1,
                    net_cents: 10_000,
                    rate: Rate::BasisPoints(commission_cents),
                    commission_cents,
                    card_fee_cents: 0,
                    club: false,
                }],
                tips_cents,
                partner: false,
            },
        }
    }

    fn instant() -> DateTime<Utc> {
        DateTime::from_timestamp(1_795_000_000, 0).unwrap_or_default()
    }

    fn close(period_id: i64, from: u32, to: u32, comandas: Vec<EarnedComanda>) -> LedgerCommand {
        LedgerCommand::ClosePeriod {
            period_id,
            from: day(from),
            to: day(to),
            paid_on: day(to),
            method: PayoutMethod::Pix,
            comandas,
            today: day(27),
            at: instant(),
        }
    }

    #[test]
    fn a_closed_period_settles_what_it_paid_and_later_changes_are_adjustments_in_the_next() {
        let vale = Entry {
            entry_id: 1,
            kind: EntryKind::Vale,
            cents: 2000,
            reason: "Adiantamento".into(),
            on: day(10),
        };
        let given = vec![LedgerEvent::EntryRecorded(vale.clone())];
        // 1 to 15: comandas 10 (R$ 40,00 + R$ 5,00 of tip) and 11 (R$ 40,00), less the vale.
        let first = vec![
            haircut(10, day(10), 4000, 500),
            haircut(11, day(12), 4000, 0),
            haircut(12, day(20), 4000, 0),
        ];
        let paid = Period {
            period_id: 1,
            from: day(1),
            to: day(15),
            paid_on: day(15),
            method: PayoutMethod::Pix,
            closed_at: instant(),
            settled: vec![(10, 4500), (11, 4000)],
            entries: vec![1],
            net_cents: 6500,
        };
        TestFramework::<CommissionLedger>::with(())
            .given(given.clone())
            .when(close(1, 1, 15, first))
            .then_expect_events(vec![LedgerEvent::PeriodClosed(paid.clone())]);

        // Comanda 10 reopened and closed again at R$ 30,00; comanda 11 reopened, still open.
        let mut ledger = CommissionLedger::default();
        given.into_iter().chain([LedgerEvent::PeriodClosed(paid.clone())]).for_each(|e| ledger.apply(e));
        let now = vec![haircut(10, day(10), 3000, 500), haircut(12, day(20), 4000, 0)];
        let next = ledger.statement(&now, day(16), day(30));
        assert_eq!(next.comandas.iter().map(|c| c.comanda_id).collect::<Vec<_>>(), [12]);
        assert_eq!(
            next.adjustments,
            [Adjustment { comanda_id: 10, cents: -1000 }, Adjustment { comanda_id: 11, cents: -4000 }]
        );
        assert_eq!(next.net_cents(), 4000 - 5000);
        // The paid days stay the paid period's: asked again, nothing of theirs is due.
        let again = ledger.statement(&now, day(1), day(15));
        assert!(again.comandas.is_empty() && again.entries.is_empty());
        // A report of days before the paid ones carries no adjustment.
        assert!(ledger.statement(&now, day(1), day(5)).adjustments.is_empty());

        // The next period settles the adjustments at what they now are.
        TestFramework::<CommissionLedger>::with(())
            .given(vec![LedgerEvent::EntryRecorded(vale), LedgerEvent::PeriodClosed(paid.clone())])
            .when(close(2, 16, 27, now))
            .then_expect_events(vec![LedgerEvent::PeriodClosed(Period {
                period_id: 2,
                from: day(16),
                to: day(27),
                paid_on: day(27),
                method: PayoutMethod::Pix,
                closed_at: instant(),
                settled: vec![(12, 4000), (10, 3500), (11, 0)],
                entries: vec![],
                net_cents: -1000,
            })]);
    }

    #[test]
    fn periods_never_overlap_nor_reach_past_today_and_a_late_vale_goes_to_the_next_day() {
        let paid = Period {
            period_id: 1,
            from: day(1),
            to: day(15),
            paid_on: day(15),
            method: PayoutMethod::Cash,
            closed_at: instant(),
            settled: vec![],
            entries: vec![],
            net_cents: 0,
        };
        let given = || vec![LedgerEvent::PeriodClosed(paid.clone())];
        TestFramework::<CommissionLedger>::with(())
            .given(given())
            .when(close(1, 10, 20, vec![]))
            .then_expect_error(LedgerError(
                "from",
                "Este período se sobrepõe ao já fechado de 01/11/2026 a 15/11/2026.".into(),
            ));
        TestFramework::<CommissionLedger>::with(())
            .given_no_previous_events()
            .when(close(1, 20, 28, vec![]))
            .then_expect_error(LedgerError("to", MSG_PERIOD_IN_FUTURE.into()));
        TestFramework::<CommissionLedger>::with(())
            .given_no_previous_events()
            .when(close(1, 20, 19, vec![]))
            .then_expect_error(LedgerError("to", MSG_TO_BEFORE_FROM.into()));
        TestFramework::<CommissionLedger>::with(())
            .given(given())
            .when(LedgerCommand::Record {
                entry_id: 4,
                kind: EntryKind::Bonus,
                cents: 100,
                reason: "Meta".into(),
                on: day(15),
            })
            .then_expect_events(vec![LedgerEvent::EntryRecorded(Entry {
                entry_id: 4,
                kind: EntryKind::Bonus,
                cents: 100,
                reason: "Meta".into(),
                on: day(16),
            })]);
    }

    #[test]
    fn ledger_events_are_pinned() {
        crate::event_payload::assert_pinned::<CommissionLedger>(&[
            LedgerEvent::EntryRecorded(Entry {
                entry_id: 1,
                kind: EntryKind::Vale,
                cents: 5000,
                reason: "Adiantamento".into(),
                on: day(20),
            }),
            LedgerEvent::PeriodClosed(Period {
                period_id: 1,
                from: day(1),
                to: day(15),
                paid_on: day(16),
                method: PayoutMethod::Transfer,
                closed_at: instant(),
                settled: vec![(10, 4500)],
                entries: vec![1],
                net_cents: 2500,
            }),
        ]);
    }

    #[test]
    fn a_fixed_rate_counts_each_unit() {
        assert_eq!(Rate::FixedCents(1500).of(10_000, 3), 4500);
        assert_eq!(Rate::BasisPoints(3333).of(100, 1), 33);
        assert_eq!(Rate::BasisPoints(5000).of(3, 1), 2);
    }

    #[test]
    fn the_form_reads_percentages_to_two_decimals_and_one_rate_per_service() {
        let form = |value: Value| serde_json::from_value::<CommissionForm>(value).expect("form");
        let rates = form(json!({
            "servicePercent": 40, "productPercent": "12,5", "cardFeeShared": true,
            "services": [{"idService": 5, "fixed": 30}, {"idService": 6, "percent": 50}]
        }))
        .validate()
        .expect("valid");
        assert_eq!(
            rates,
            CommissionRates {
                service_points: 4000,
                product_points: 1250,
                services: vec![
                    ServiceRate { service_id: 5, rate: Rate::FixedCents(3000) },
                    ServiceRate { service_id: 6, rate: Rate::BasisPoints(5000) },
                ],
                card_fee_shared: true,
                partner: false,
            }
        );
        let errors = form(json!({
            "servicePercent": 100.5, "productPercent": null,
            "services": [{"idService": 5, "percent": 10, "fixed": 3}, {"idService": 6, "percent": 10},
                         {"idService": 6, "fixed": 1}, {"percent": 1}, {"idService": 7, "fixed": -1}]
        }))
        .validate()
        .expect_err("invalid");
        assert_eq!(errors.get("servicePercent"), Some(MSG_PERCENT));
        assert_eq!(errors.get("productPercent"), Some(MSG_PERCENT));
        assert_eq!(errors.get("services.0.percent"), Some(MSG_PERCENT_OR_FIXED));
        assert_eq!(errors.get("services.1.percent"), None);
        assert_eq!(errors.get("services.2.idService"), Some(MSG_SERVICE_TWICE));
        assert_eq!(errors.get("services.3.idService"), Some(MSG_CHOOSE_SERVICE));
        assert_eq!(errors.get("services.4.fixed"), Some("O valor não pode ser negativo."));
    }
}
