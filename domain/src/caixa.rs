//! The caixa: a unit's cash register for a shift. Opened with the float ('Fundo de troco'),
//! given 'Sangria' (cash taken out) and 'Reforço' (cash put in) with their reasons, and
//! closed with the cash counted: the cash expected and the difference are written into the
//! close, once (docs/money.md, ADR 0025). One caixa is open per unit at a time (a unique
//! claim command-api holds); a payment belongs to the caixa open when it was taken. Only
//! ADMIN reopens a closed caixa, with a reason.
//!
//! Aggregate id = the caixa's number. The cash a caixa's payments brought in lives in the
//! comandas' events: command-api sums it from the log when it decides a sangria or a close.

use chrono::NaiveDateTime;
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::comanda::{Comanda, PaymentMethod, Status};
use crate::money::{brl, check_amount};
use crate::validation::reason;

/// 'Sangria' or 'Reforço'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MovementKind {
    /// Cash taken out (to the safe, to the bank).
    Sangria,
    /// Cash put in (more change).
    Reforco,
}

impl MovementKind {
    /// The wire code (`kind` in the body).
    pub fn code(self) -> &'static str {
        match self {
            MovementKind::Sangria => "sangria",
            MovementKind::Reforco => "reforco",
        }
    }

    pub fn parse(code: &str) -> Option<MovementKind> {
        [Self::Sangria, Self::Reforco].into_iter().find(|kind| kind.code() == code.trim())
    }
}

/// A sangria or reforço.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    pub kind: MovementKind,
    pub cents: i64,
    pub reason: String,
}

/// What the close decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Closing {
    pub at: NaiveDateTime,
    /// The float, plus cash taken, plus reforços, less sangrias.
    pub expected_cents: i64,
    pub counted_cents: i64,
    /// Counted less expected: negative when cash is missing.
    pub difference_cents: i64,
    /// The card machine's totals, for the methods the desk read off it (optional).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub card_machine: Vec<CardCount>,
}

/// A card machine's total for one method at the close, beside what the caixa's payments
/// with that method came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardCount {
    pub method: PaymentMethod,
    /// The caixa's payments with this method.
    pub expected_cents: i64,
    /// The machine's total.
    pub counted_cents: i64,
}

/// The methods a card machine totals.
pub const CARD_MACHINE_METHODS: [PaymentMethod; 2] = [PaymentMethod::Credit, PaymentMethod::Debit];

/// Where a caixa stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CaixaStatus {
    #[default]
    New,
    Open,
    Closed,
}

impl CaixaStatus {
    /// The wire code: `OPEN` or `CLOSED`.
    pub fn code(self) -> &'static str {
        match self {
            CaixaStatus::New => "NEW",
            CaixaStatus::Open => "OPEN",
            CaixaStatus::Closed => "CLOSED",
        }
    }
}

/// A caixa.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Caixa {
    status: CaixaStatus,
    company_id: i64,
    opening_cents: i64,
    movements: Vec<Movement>,
    closing: Option<Closing>,
}

/// What a caixa's payments brought in with one method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub method: PaymentMethod,
    /// How many payments.
    pub count: i64,
    pub cents: i64,
}

/// A caixa's figures, from its own state and the comandas paid with it (docs/money.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    pub opening_cents: i64,
    /// Per method, in [`PaymentMethod::ALL`]'s order, only those with a payment.
    pub entries: Vec<Entry>,
    /// `(professional, cents)`: the tips of the comandas closed with their last payment in
    /// this caixa, by professional.
    pub tips: Vec<(i64, i64)>,
    pub sangrias_cents: i64,
    pub reforcos_cents: i64,
    /// The cash payments' part.
    pub cash_taken_cents: i64,
    /// The float, plus cash taken, plus reforços, less sangrias.
    pub expected_cents: i64,
    /// The last close's count, while closed.
    pub counted_cents: Option<i64>,
    /// Counted less expected (as the figures stand now), while closed.
    pub difference_cents: Option<i64>,
    /// The card machine's totals of the last close, beside the payments as they stand now.
    pub card_machine: Vec<CardCount>,
}

impl Caixa {
    /// The version of this state's serialized shape, which the caixa read model stores whole.
    /// Raise it whenever the shape changes (a test in this module says when).
    pub const STATE_VERSION: u32 = 1;

    /// The figures of caixa `caixa_id`, given the comandas with a payment taken with it
    /// (others are ignored). Payments refunded are no longer in a comanda, so they count
    /// nowhere.
    pub fn figures(&self, caixa_id: i64, comandas: &[Comanda]) -> Figures {
        let here = Some(caixa_id);
        let mut entries: Vec<Entry> = Vec::new();
        let mut tips: Vec<(i64, i64)> = Vec::new();
        for comanda in comandas {
            for payment in comanda.payments().iter().filter(|payment| payment.caixa_id == here) {
                match entries.iter_mut().find(|entry| entry.method == payment.method) {
                    Some(entry) => {
                        entry.count += 1;
                        entry.cents += payment.cents;
                    }
                    None => entries.push(Entry { method: payment.method, count: 1, cents: payment.cents }),
                }
            }
            // A comanda's tips are paid out of the caixa that took its last payment.
            let last = comanda.payments().iter().max_by_key(|payment| payment.payment_id);
            if comanda.status() == Status::Closed && last.is_some_and(|payment| payment.caixa_id == here) {
                for tip in comanda.tips() {
                    match tips.iter_mut().find(|(professional, _)| *professional == tip.professional_id) {
                        Some((_, cents)) => *cents += tip.cents,
                        None => tips.push((tip.professional_id, tip.cents)),
                    }
                }
            }
        }
        entries.sort_by_key(|entry| PaymentMethod::ALL.iter().position(|method| *method == entry.method));
        let taken: Vec<(PaymentMethod, i64)> =
            entries.iter().map(|entry| (entry.method, entry.cents)).collect();
        tips.sort_unstable();
        let moved = |kind| self.movements.iter().filter(|m| m.kind == kind).map(|m| m.cents).sum::<i64>();
        let cash_taken_cents =
            entries.iter().filter(|entry| entry.method == PaymentMethod::Cash).map(|entry| entry.cents).sum();
        let expected_cents = self.expected_cash(cash_taken_cents);
        let closing = self.closing.as_ref().filter(|_| self.status == CaixaStatus::Closed);
        Figures {
            opening_cents: self.opening_cents,
            entries,
            tips,
            sangrias_cents: moved(MovementKind::Sangria),
            reforcos_cents: moved(MovementKind::Reforco),
            cash_taken_cents,
            expected_cents,
            counted_cents: closing.map(|closing| closing.counted_cents),
            difference_cents: closing.map(|closing| closing.counted_cents - expected_cents),
            card_machine: closing
                .map(|closing| card_counts(&closing.card_machine, &taken))
                .unwrap_or_default(),
        }
    }

    pub fn status(&self) -> CaixaStatus {
        self.status
    }

    /// The unit; 0 before it is opened.
    pub fn company_id(&self) -> i64 {
        self.company_id
    }

    pub fn opening_cents(&self) -> i64 {
        self.opening_cents
    }

    pub fn movements(&self) -> &[Movement] {
        &self.movements
    }

    /// The last close, if it was closed.
    pub fn closing(&self) -> Option<&Closing> {
        self.closing.as_ref()
    }

    /// The cash the caixa should hold, given what its payments brought in.
    pub fn expected_cash(&self, cash_taken_cents: i64) -> i64 {
        let moved: i64 = self
            .movements
            .iter()
            .map(|movement| match movement.kind {
                MovementKind::Sangria => -movement.cents,
                MovementKind::Reforco => movement.cents,
            })
            .sum();
        self.opening_cents + cash_taken_cents + moved
    }
}

/// The machine's totals `counted` beside what `taken` (per method) says the payments came to.
fn card_counts(counted: &[CardCount], taken: &[(PaymentMethod, i64)]) -> Vec<CardCount> {
    counted
        .iter()
        .map(|count| CardCount { expected_cents: taken_with(taken, count.method), ..*count })
        .collect()
}

/// What the payments with `method` came to.
pub fn taken_with(taken: &[(PaymentMethod, i64)], method: PaymentMethod) -> i64 {
    taken.iter().filter(|(with, _)| *with == method).map(|(_, cents)| cents).sum()
}

/// What can be done with a caixa.
#[derive(Debug, Clone, PartialEq)]
pub enum CaixaCommand {
    Open {
        company_id: i64,
        opening_cents: i64,
    },
    /// A sangria or reforço; `cash_taken_cents` is what the caixa's payments brought in so far,
    /// so that a sangria never takes more than the drawer holds.
    Move {
        kind: MovementKind,
        cents: i64,
        reason: String,
        cash_taken_cents: i64,
    },
    /// `taken`: what the caixa's payments came to, per method; `card_machine`: the machine's
    /// totals the desk read off it, per method (credit, debit), if any.
    Close {
        at: NaiveDateTime,
        counted_cents: i64,
        taken: Vec<(PaymentMethod, i64)>,
        card_machine: Vec<(PaymentMethod, i64)>,
    },
    Reopen {
        reason: String,
    },
}

/// What happened to a caixa.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CaixaEvent {
    CaixaOpened { company_id: i64, opening_cents: i64 },
    CashMoved(Movement),
    CaixaClosed(Closing),
    CaixaReopened { reason: String },
}

impl DomainEvent for CaixaEvent {
    fn event_type(&self) -> String {
        match self {
            CaixaEvent::CaixaOpened { .. } => "CaixaOpened",
            CaixaEvent::CashMoved(_) => "CashMoved",
            CaixaEvent::CaixaClosed(_) => "CaixaClosed",
            CaixaEvent::CaixaReopened { .. } => "CaixaReopened",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a caixa command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaixaError {
    #[error("Este caixa já foi aberto.")]
    AlreadyOpen,
    #[error("Caixa não encontrado.")]
    NotFound,
    #[error("Este caixa está fechado.")]
    Closed,
    #[error("Só um caixa fechado pode ser reaberto.")]
    NotClosed,
    /// A field's value out of bounds: (field, message).
    #[error("{1}")]
    Invalid(&'static str, String),
}

fn invalid(field: &'static str, message: impl Into<String>) -> CaixaError {
    CaixaError::Invalid(field, message.into())
}

fn check_cents(field: &'static str, cents: i64, zero: bool) -> Result<(), CaixaError> {
    check_amount(cents, zero).map_err(|message| invalid(field, message))
}

/// The body's field of a card machine's total: `machineCredit` or `machineDebit`.
pub fn card_machine_field(method: PaymentMethod) -> Result<&'static str, CaixaError> {
    match method {
        PaymentMethod::Credit => Ok("machineCredit"),
        PaymentMethod::Debit => Ok("machineDebit"),
        _ => Err(invalid("machineCredit", "A maquininha totaliza só crédito e débito.")),
    }
}

fn reason_of(text: &str) -> Result<String, CaixaError> {
    reason(text).map_err(|message| invalid("reason", message))
}

impl Aggregate for Caixa {
    const TYPE: &'static str = "Caixa";
    type Command = CaixaCommand;
    type Event = CaixaEvent;
    type Error = CaixaError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let open = |caixa: &Caixa| match caixa.status {
            CaixaStatus::Open => Ok(()),
            CaixaStatus::New => Err(CaixaError::NotFound),
            CaixaStatus::Closed => Err(CaixaError::Closed),
        };
        let event = match command {
            CaixaCommand::Open { company_id, opening_cents } => {
                if self.status != CaixaStatus::New {
                    return Err(CaixaError::AlreadyOpen);
                }
                check_cents("openingCash", opening_cents, true)?;
                CaixaEvent::CaixaOpened { company_id, opening_cents }
            }
            CaixaCommand::Move { kind, cents, reason, cash_taken_cents } => {
                open(self)?;
                check_cents("value", cents, false)?;
                let reason = reason_of(&reason)?;
                let drawer = self.expected_cash(cash_taken_cents);
                if kind == MovementKind::Sangria && cents > drawer {
                    return Err(invalid(
                        "value",
                        format!("A sangria passa do dinheiro no caixa ({}).", brl(drawer)),
                    ));
                }
                CaixaEvent::CashMoved(Movement { kind, cents, reason })
            }
            CaixaCommand::Close { at, counted_cents, taken, card_machine } => {
                open(self)?;
                check_cents("countedCash", counted_cents, true)?;
                let mut counts = Vec::new();
                for (method, counted) in card_machine {
                    let field = card_machine_field(method)?;
                    check_cents(field, counted, true)?;
                    counts.push(CardCount { method, expected_cents: 0, counted_cents: counted });
                }
                let expected_cents = self.expected_cash(taken_with(&taken, PaymentMethod::Cash));
                CaixaEvent::CaixaClosed(Closing {
                    at,
                    expected_cents,
                    counted_cents,
                    difference_cents: counted_cents - expected_cents,
                    card_machine: card_counts(&counts, &taken),
                })
            }
            CaixaCommand::Reopen { reason } => {
                if self.status != CaixaStatus::Closed {
                    open(self)?;
                    return Err(CaixaError::NotClosed);
                }
                CaixaEvent::CaixaReopened { reason: reason_of(&reason)? }
            }
        };
        sink.write(event, self).await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            CaixaEvent::CaixaOpened { company_id, opening_cents } => {
                self.status = CaixaStatus::Open;
                self.company_id = company_id;
                self.opening_cents = opening_cents;
            }
            CaixaEvent::CashMoved(movement) => self.movements.push(movement),
            CaixaEvent::CaixaClosed(closing) => {
                self.status = CaixaStatus::Closed;
                self.closing = Some(closing);
            }
            CaixaEvent::CaixaReopened { .. } => self.status = CaixaStatus::Open,
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;
    use cqrs_es::test::TestFramework;

    use super::*;

    fn at() -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 27).and_then(|d| d.and_hms_opt(20, 0, 0)).expect("date")
    }

    fn opened() -> Vec<CaixaEvent> {
        vec![
            CaixaEvent::CaixaOpened { company_id: 2, opening_cents: 10_000 },
            CaixaEvent::CashMoved(Movement {
                kind: MovementKind::Reforco,
                cents: 5_000,
                reason: "Troco".into(),
            }),
        ]
    }

    /// A comanda paid with the given `(caixa, method, cents)`, tipping professional 7 R$ 5,00,
    /// closed when `closed`.
    fn comanda(payments: &[(i64, PaymentMethod, i64)], closed: bool) -> Comanda {
        use crate::comanda::{ComandaEvent, Opening, Payment, Tip};
        let mut comanda = Comanda::default();
        let opening = Opening { company_id: 2, appointment_id: None, client_id: None, items: vec![] };
        comanda.apply(ComandaEvent::ComandaOpened(opening));
        comanda.apply(ComandaEvent::TipAdded(Tip { tip_id: 1, professional_id: 7, cents: 500 }));
        for (n, (caixa, method, cents)) in payments.iter().enumerate() {
            comanda.apply(ComandaEvent::PaymentTaken(Payment {
                payment_id: n as i64 + 1,
                method: *method,
                cents: *cents,
                cash_received_cents: None,
                installments: None,
                brand: None,
                authorization_code: None,
                nsu: None,
                caixa_id: Some(*caixa),
                item_id: None,
            }));
        }
        if closed {
            comanda.apply(ComandaEvent::ComandaClosed {
                at: at(),
                lines: vec![],
                tips: vec![],
                subtotal_cents: 0,
                discount_cents: 0,
                total_cents: 0,
                tips_cents: 500,
                earnings: vec![],
                stock_moves: vec![],
            });
        }
        comanda
    }

    #[test]
    fn figures_count_this_caixas_payments_by_method_and_the_tips_of_comandas_it_finished() {
        let mut caixa = Caixa::default();
        opened().into_iter().for_each(|event| caixa.apply(event));
        caixa.apply(CaixaEvent::CashMoved(Movement {
            kind: MovementKind::Sangria,
            cents: 3_000,
            reason: "Cofre".into(),
        }));
        let comandas = [
            // Cash here, then Pix here: its tip is this caixa's.
            comanda(&[(1, PaymentMethod::Pix, 2_000), (1, PaymentMethod::Cash, 4_000)], true),
            // Started in caixa 9, finished here: its tip is this caixa's, caixa 9's payment is not.
            comanda(&[(9, PaymentMethod::Cash, 1_000), (1, PaymentMethod::Debit, 3_000)], true),
            // Finished in caixa 9: only its first payment is here, and its tip is not.
            comanda(&[(1, PaymentMethod::Cash, 500), (9, PaymentMethod::Cash, 700)], true),
            // Still open: its payment counts, its tip not yet.
            comanda(&[(1, PaymentMethod::Cash, 100)], false),
        ];
        let figures = caixa.figures(1, &comandas);
        let methods: Vec<(PaymentMethod, i64, i64)> =
            figures.entries.iter().map(|entry| (entry.method, entry.count, entry.cents)).collect();
        assert_eq!(
            methods,
            [
                (PaymentMethod::Cash, 3, 4_600),
                (PaymentMethod::Pix, 1, 2_000),
                (PaymentMethod::Debit, 1, 3_000)
            ]
        );
        assert_eq!(figures.tips, [(7, 1_000)]);
        assert_eq!((figures.sangrias_cents, figures.reforcos_cents), (3_000, 5_000));
        // R$ 100,00 of float + R$ 50,00 of reforço − R$ 30,00 of sangria + R$ 46,00 of cash.
        assert_eq!((figures.cash_taken_cents, figures.expected_cents), (4_600, 16_600));
        assert_eq!((figures.counted_cents, figures.difference_cents), (None, None));

        let debit = CardCount { method: PaymentMethod::Debit, expected_cents: 3_000, counted_cents: 3_000 };
        caixa.apply(CaixaEvent::CaixaClosed(Closing {
            at: at(),
            expected_cents: 16_600,
            counted_cents: 16_400,
            difference_cents: -200,
            card_machine: vec![debit],
        }));
        let closed = caixa.figures(1, &comandas);
        assert_eq!((closed.counted_cents, closed.difference_cents), (Some(16_400), Some(-200)));
        assert_eq!(closed.card_machine, [debit]);
        // A cash payment given back after the close: the difference now counts it.
        let corrected = caixa.figures(1, &comandas[..3]);
        assert_eq!((corrected.expected_cents, corrected.difference_cents), (16_500, Some(-100)));
        // The debit payment given back: the machine's total stays, the payments' falls.
        let debit_refunded =
            caixa.figures(1, &[comandas[0].clone(), comandas[2].clone(), comandas[3].clone()]);
        assert_eq!(debit_refunded.card_machine, [CardCount { expected_cents: 0, ..debit }]);
    }

    #[test]
    fn the_stored_state_keeps_its_recorded_shape() {
        let mut caixa = Caixa::default();
        opened().into_iter().for_each(|event| caixa.apply(event));
        caixa.apply(CaixaEvent::CaixaClosed(Closing {
            at: at(),
            expected_cents: 15_000,
            counted_cents: 15_000,
            difference_cents: 0,
            card_machine: vec![],
        }));
        let sample = serde_json::to_value(&caixa).unwrap_or_default();
        crate::state_shape::assert_recorded("caixa", Caixa::STATE_VERSION, &sample);
    }

    #[test]
    fn the_close_writes_what_was_expected_counted_and_missing() {
        // R$ 100,00 of float, R$ 50,00 of reforço, R$ 80,00 taken in cash: R$ 230,00 expected.
        // The machine says R$ 61,00 of credit where the payments came to R$ 60,00, and R$ 0,00
        // of debit where none was taken.
        let taken =
            vec![(PaymentMethod::Cash, 8_000), (PaymentMethod::Pix, 900), (PaymentMethod::Credit, 6_000)];
        let card_machine = vec![(PaymentMethod::Credit, 6_100), (PaymentMethod::Debit, 0)];
        TestFramework::<Caixa>::with(())
            .given(opened())
            .when(CaixaCommand::Close { at: at(), counted_cents: 22_800, taken, card_machine })
            .then_expect_events(vec![CaixaEvent::CaixaClosed(Closing {
                at: at(),
                expected_cents: 23_000,
                counted_cents: 22_800,
                difference_cents: -200,
                card_machine: vec![
                    CardCount { method: PaymentMethod::Credit, expected_cents: 6_000, counted_cents: 6_100 },
                    CardCount { method: PaymentMethod::Debit, expected_cents: 0, counted_cents: 0 },
                ],
            })]);
        let close = |method, counted| CaixaCommand::Close {
            at: at(),
            counted_cents: 0,
            taken: vec![],
            card_machine: vec![(method, counted)],
        };
        TestFramework::<Caixa>::with(())
            .given(opened())
            .when(close(PaymentMethod::Debit, -1))
            .then_expect_error(invalid("machineDebit", "O valor não pode ser negativo."));
        TestFramework::<Caixa>::with(())
            .given(opened())
            .when(close(PaymentMethod::Pix, 100))
            .then_expect_error(invalid("machineCredit", "A maquininha totaliza só crédito e débito."));
    }

    /// The machine's totals came with the close as an optional field: a close stored before
    /// it decodes with none, and one with them keeps them.
    #[test]
    fn a_close_without_the_card_machines_totals_decodes_with_none() {
        let pinned = include_str!("../event-payloads/Caixa/CaixaClosed.v1.0.json");
        let old: CaixaEvent = serde_json::from_str(pinned).expect("the pinned close decodes");
        assert!(matches!(&old, CaixaEvent::CaixaClosed(closing) if closing.card_machine.is_empty()));
        let with = CaixaEvent::CaixaClosed(Closing {
            at: at(),
            expected_cents: 0,
            counted_cents: 0,
            difference_cents: 0,
            card_machine: vec![CardCount {
                method: PaymentMethod::Debit,
                expected_cents: 1,
                counted_cents: 2,
            }],
        });
        let again: CaixaEvent =
            serde_json::from_value(serde_json::to_value(&with).expect("JSON")).expect("decodes");
        assert_eq!(again, with);
    }

    #[test]
    fn a_sangria_never_takes_more_than_the_drawer_holds() {
        let sangria = |cents| CaixaCommand::Move {
            kind: MovementKind::Sangria,
            cents,
            reason: "Cofre".into(),
            cash_taken_cents: 1_000,
        };
        TestFramework::<Caixa>::with(())
            .given(opened())
            .when(sangria(16_001))
            .then_expect_error(invalid("value", "A sangria passa do dinheiro no caixa (R$ 160,00)."));
        TestFramework::<Caixa>::with(()).given(opened()).when(sangria(16_000)).then_expect_events(vec![
            CaixaEvent::CashMoved(Movement {
                kind: MovementKind::Sangria,
                cents: 16_000,
                reason: "Cofre".into(),
            }),
        ]);
        TestFramework::<Caixa>::with(())
            .given(opened())
            .when(CaixaCommand::Move {
                kind: MovementKind::Reforco,
                cents: 100,
                reason: " ".into(),
                cash_taken_cents: 0,
            })
            .then_expect_error(invalid("reason", "Informe o motivo."));
    }

    #[test]
    fn a_closed_caixa_changes_only_by_a_reopen() {
        let mut closed = opened();
        closed.push(CaixaEvent::CaixaClosed(Closing {
            at: at(),
            expected_cents: 15_000,
            counted_cents: 15_000,
            difference_cents: 0,
            card_machine: vec![],
        }));
        TestFramework::<Caixa>::with(())
            .given(closed.clone())
            .when(CaixaCommand::Close { at: at(), counted_cents: 0, taken: vec![], card_machine: vec![] })
            .then_expect_error(CaixaError::Closed);
        TestFramework::<Caixa>::with(())
            .given(opened())
            .when(CaixaCommand::Reopen { reason: "Erro".into() })
            .then_expect_error(CaixaError::NotClosed);
        TestFramework::<Caixa>::with(())
            .given(closed)
            .when(CaixaCommand::Reopen { reason: "Contagem errada".into() })
            .then_expect_events(vec![CaixaEvent::CaixaReopened { reason: "Contagem errada".into() }]);
        TestFramework::<Caixa>::with(())
            .given_no_previous_events()
            .when(CaixaCommand::Open { company_id: 2, opening_cents: -1 })
            .then_expect_error(invalid("openingCash", "O valor não pode ser negativo."));
    }

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<Caixa>(&[
            CaixaEvent::CaixaOpened { company_id: 2, opening_cents: 10_000 },
            CaixaEvent::CashMoved(Movement {
                kind: MovementKind::Sangria,
                cents: 5_000,
                reason: "Cofre".into(),
            }),
            CaixaEvent::CaixaClosed(Closing {
                at: at(),
                expected_cents: 15_000,
                counted_cents: 14_800,
                difference_cents: -200,
                card_machine: vec![],
            }),
            CaixaEvent::CaixaReopened { reason: "Contagem errada".into() },
        ]);
    }
}
