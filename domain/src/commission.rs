//! Commissions (issue 42): what each professional earns of the comandas they served.
//!
//! A professional's rates ([`CommissionRates`]) are set on their own stream
//! (`ProfessionalEvent::CommissionRatesSet`) and apply from the moment they are set: the
//! comanda's close writes, for each professional, the rate in force for each of their lines
//! and what it earned ([`Earning`], in `ComandaClosed`, by `comanda::earnings`), so that a later change of a rate
//! never reaches a closed comanda. docs/money.md, "Commissions".

use chrono::NaiveDate;
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
}

/// What one closed comanda earned one professional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Earning {
    pub professional_id: i64,
    pub lines: Vec<EarnedLine>,
    /// Their tips, in full.
    pub tips_cents: i64,
}

impl Earning {
    /// The commission of the lines.
    pub fn commission_cents(&self) -> i64 {
        self.lines.iter().map(|line| line.commission_cents).sum()
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

/// A professional's commission ledger: their vales and bonuses (and, next, the periods
/// paid). Aggregate id = the professional's id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CommissionLedger {
    entries: Vec<Entry>,
}

impl CommissionLedger {
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
}

/// What can be done with a ledger.
#[derive(Debug, Clone, PartialEq)]
pub enum LedgerCommand {
    /// `entry_id`: the entry's number, from the business's sequence.
    Record { entry_id: i64, kind: EntryKind, cents: i64, reason: String, on: NaiveDate },
}

/// What happened to a ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LedgerEvent {
    EntryRecorded(Entry),
}

impl DomainEvent for LedgerEvent {
    fn event_type(&self) -> String {
        match self {
            LedgerEvent::EntryRecorded(_) => "EntryRecorded",
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
        let LedgerCommand::Record { entry_id, kind, cents, reason, on } = command;
        check_amount(cents, false).map_err(|message| LedgerError("value", message))?;
        let reason = crate::validation::reason(&reason)
            .map_err(|message| LedgerError("reason", message.to_owned()))?;
        sink.write(LedgerEvent::EntryRecorded(Entry { entry_id, kind, cents, reason, on }), self).await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            LedgerEvent::EntryRecorded(entry) => self.entries.push(entry),
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
    pub tips_cents: i64,
    pub vales_cents: i64,
    pub bonuses_cents: i64,
}

impl Statement {
    /// Services and products sold.
    pub fn gross_cents(&self) -> i64 {
        self.services_cents + self.products_cents
    }

    /// What is due: commission, tips and bonuses, less vales.
    pub fn net_cents(&self) -> i64 {
        self.commission_cents + self.tips_cents + self.bonuses_cents - self.vales_cents
    }
}

/// The statement of the days `from` to `to` (inclusive) from the comandas that earned the
/// professional something and their ledger's entries. Every total is a sum of lines, so it
/// adds up to the centavo.
pub fn statement(comandas: &[EarnedComanda], entries: &[Entry], from: NaiveDate, to: NaiveDate) -> Statement {
    let within = |on: NaiveDate| from <= on && on <= to;
    let mut statement = Statement::default();
    let mut comandas: Vec<EarnedComanda> = comandas.iter().filter(|c| within(c.on)).cloned().collect();
    comandas.sort_by_key(|c| (c.on, c.comanda_id));
    for comanda in &comandas {
        for line in &comanda.earning.lines {
            match line.kind {
                ItemKind::Service => statement.services_cents += line.net_cents,
                ItemKind::Product => statement.products_cents += line.net_cents,
            }
            statement.commission_cents += line.commission_cents;
        }
        statement.tips_cents += comanda.earning.tips_cents;
    }
    statement.comandas = comandas;
    statement.entries = entries.iter().filter(|entry| within(entry.on)).cloned().collect();
    for entry in &statement.entries {
        match entry.kind {
            EntryKind::Vale => statement.vales_cents += entry.cents,
            EntryKind::Bonus => statement.bonuses_cents += entry.cents,
        }
    }
    statement
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
            })
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap_or_default()
    }

    #[test]
    fn a_vale_or_bonus_needs_a_value_and_a_reason() {
        use cqrs_es::test::TestFramework;
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
                    })
                    .collect(),
                tips_cents,
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
        let s = statement(&comandas, &entries, day(15), day(30));
        assert_eq!(s.comandas.iter().map(|c| c.comanda_id).collect::<Vec<_>>(), [10, 12]);
        assert_eq!((s.services_cents, s.products_cents, s.gross_cents()), (8999, 2990, 11_989));
        assert_eq!((s.commission_cents, s.tips_cents), (3899, 500));
        assert_eq!((s.vales_cents, s.bonuses_cents), (5000, 1000));
        // R$ 38,99 + R$ 5,00 + R$ 10,00 − R$ 50,00.
        assert_eq!(s.net_cents(), 399);
    }

    #[test]
    fn ledger_events_are_pinned() {
        crate::event_payload::assert_pinned::<CommissionLedger>(&[LedgerEvent::EntryRecorded(Entry {
            entry_id: 1,
            kind: EntryKind::Vale,
            cents: 5000,
            reason: "Adiantamento".into(),
            on: day(20),
        })]);
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
