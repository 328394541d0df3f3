//! Stock (issue 43): what each unit holds of a product, changed only by events.
//!
//! Every event that changes a count carries its `stock_moves`: signed quantities per product
//! and unit. A product's own events record 'Entrada', 'Uso interno', 'Ajuste' and
//! 'Transferência'; a comanda's close records its 'Venda', and its reopening gives it back.
//! The counts are kept in the append's own transaction by a trigger (`stock_level`, migration
//! `20261203000100_stock.sql`), which refuses a move below zero where the unit does not allow
//! negative stock: two desks selling the last pomade cannot both succeed.
//!
//! Value at cost is the moving weighted average (custo médio ponderado móvel), in centavos,
//! with the rules of [`Holding`] (docs/money.md 'Stock').

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::money::{cents_from_reais, check_amount, proportion};
use crate::validation::FieldErrors;

/// The most units one movement, count or minimum may name.
pub const MAX_QUANTITY: i64 = 100_000;
/// The longest supplier name and reason.
pub const MAX_TEXT: usize = 120;
/// Answer for a manual 'Venda'.
pub const MSG_SALE_BY_HAND: &str = "Vendas entram pelo fechamento da comanda.";

/// A movement's kind, as the wire names it (`kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MovementKind {
    Entrada,
    Venda,
    UsoInterno,
    Ajuste,
    Transferencia,
}

impl MovementKind {
    /// The wire's name.
    pub fn as_str(self) -> &'static str {
        match self {
            MovementKind::Entrada => "entrada",
            MovementKind::Venda => "venda",
            MovementKind::UsoInterno => "uso_interno",
            MovementKind::Ajuste => "ajuste",
            MovementKind::Transferencia => "transferencia",
        }
    }
}

/// How a product is counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MeasureUnit {
    /// Units: a pomade, a bottle.
    #[default]
    Un,
    /// Millilitres: a dye a service uses 10 ml of.
    Ml,
    /// Grams.
    G,
}

impl MeasureUnit {
    /// As the wire and the messages write it.
    pub fn as_str(self) -> &'static str {
        match self {
            MeasureUnit::Un => "un",
            MeasureUnit::Ml => "ml",
            MeasureUnit::G => "g",
        }
    }

    /// The unit the wire names, `None` for another text.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "un" => Some(MeasureUnit::Un),
            "ml" => Some(MeasureUnit::Ml),
            "g" => Some(MeasureUnit::G),
            _ => None,
        }
    }

    /// Whether it is the default, left out of payloads.
    pub fn is_default(&self) -> bool {
        *self == MeasureUnit::Un
    }
}

fn is_false(value: &bool) -> bool {
    !value
}

/// One change of one product's count at one unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StockMove {
    pub product_id: i64,
    pub company_id: i64,
    /// Signed: what comes in is positive.
    pub quantity: i64,
    /// The unit allows going below zero (its setting when the move was decided); otherwise
    /// the trigger refuses a move that would.
    #[serde(default, skip_serializing_if = "is_false")]
    pub allow_negative: bool,
    /// A comanda's move for a service that uses the product ('Pigmentação' uses a dye), not
    /// for a product line: the service's catalogue id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_id: Option<i64>,
}

/// What a unit holds of a product, and what it is worth at cost.
///
/// Rules (docs/money.md 'Stock'):
/// 1. What comes in adds its value: an 'Entrada' at its unit cost, a transfer at the value it
///    left its unit with, anything else (a count that found more, a sale given back) at the
///    average cost, or at the product's registered cost with nothing on hand.
/// 2. What goes out takes its share of the value at the average cost, rounded to the
///    centavo half up (`proportion`); the last units out take what is left, so the value
///    never keeps a centavo with nothing on hand.
/// 3. Below zero there is nothing to value: the value is zero, and what comes in first fills
///    the shortfall, its value kept only for the units above zero.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Holding {
    pub quantity: i64,
    pub value_cents: i64,
}

impl Holding {
    /// The average cost of one unit, to the centavo; `None` with nothing on hand.
    pub fn average_cents(&self) -> Option<i64> {
        (self.quantity > 0).then(|| proportion(self.value_cents, 1, self.quantity))
    }

    /// What `quantity` units coming in without a cost of their own are worth (rule 1).
    pub fn worth(&self, quantity: i64, registered_cost_cents: i64) -> i64 {
        if self.quantity > 0 {
            proportion(self.value_cents, quantity, self.quantity)
        } else {
            registered_cost_cents * quantity
        }
    }

    /// `quantity` units worth `value_cents` come in (rules 1 and 3).
    pub fn put(&mut self, quantity: i64, value_cents: i64) {
        let after = self.quantity + quantity;
        self.value_cents = if after <= 0 {
            0
        } else if self.quantity < 0 {
            proportion(value_cents, after, quantity)
        } else {
            self.value_cents + value_cents
        };
        self.quantity = after;
    }

    /// `quantity` units go out; answers the value they take (rules 2 and 3).
    pub fn take(&mut self, quantity: i64) -> i64 {
        let taken = if self.quantity <= 0 {
            0
        } else if quantity >= self.quantity {
            self.value_cents
        } else {
            proportion(self.value_cents, quantity, self.quantity)
        };
        self.value_cents -= taken;
        self.quantity -= quantity;
        taken
    }
}

/// A movement recorded by hand, as validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StockMovement {
    /// 'Entrada': goods received.
    Receive { company_id: i64, quantity: i64, unit_cost_cents: i64, supplier: String },
    /// 'Uso interno': consumed in the shop.
    Use { company_id: i64, quantity: i64, reason: String },
    /// 'Ajuste': the quantity counted.
    Count { company_id: i64, counted: i64, reason: String },
    /// 'Transferência' to another unit of the business.
    Transfer { company_id: i64, to_company_id: i64, quantity: i64 },
}

impl StockMovement {
    /// The unit it is recorded at (the origin of a transfer).
    pub fn company_id(&self) -> i64 {
        match self {
            StockMovement::Receive { company_id, .. }
            | StockMovement::Use { company_id, .. }
            | StockMovement::Count { company_id, .. }
            | StockMovement::Transfer { company_id, .. } => *company_id,
        }
    }

    /// Its moves, given what the unit holds now and whether it may go below zero: 'Uso
    /// interno' and a transfer of more than there is are refused on `quantity` where it may
    /// not. A count moves the difference to what was counted.
    pub fn moves(
        &self,
        product_id: i64,
        on_hand: i64,
        allow_negative: bool,
        unit: MeasureUnit,
    ) -> Result<Vec<StockMove>, FieldErrors> {
        let at = |company_id: i64, quantity: i64| StockMove {
            product_id,
            company_id,
            quantity,
            allow_negative,
            service_id: None,
        };
        let out = |quantity: i64| {
            if !allow_negative && quantity > on_hand {
                let mut errors = FieldErrors::default();
                errors.add("quantity", &msg_insufficient(on_hand, unit));
                return Err(errors);
            }
            Ok(())
        };
        Ok(match *self {
            StockMovement::Receive { company_id, quantity, .. } => vec![at(company_id, quantity)],
            StockMovement::Use { company_id, quantity, .. } => {
                out(quantity)?;
                vec![at(company_id, -quantity)]
            }
            // What was counted is what there is: the difference may take it below zero only
            // if a sale slipped in between, and then the count was before that sale.
            StockMovement::Count { company_id, counted, .. } => {
                vec![StockMove { allow_negative: true, ..at(company_id, counted - on_hand) }]
            }
            StockMovement::Transfer { company_id, to_company_id, quantity } => {
                out(quantity)?;
                vec![at(company_id, -quantity), at(to_company_id, quantity)]
            }
        })
    }
}

/// "Estoque insuficiente: há 2 un nesta unidade."
pub fn msg_insufficient(on_hand: i64, unit: MeasureUnit) -> String {
    format!("Estoque insuficiente: há {} {} nesta unidade.", on_hand.max(0), unit.as_str())
}

/// "Estoque insuficiente de Pomada: há 0 un nesta unidade." (a comanda's close).
pub fn msg_insufficient_of(name: &str, on_hand: i64, unit: MeasureUnit) -> String {
    format!("Estoque insuficiente de {name}: há {} {} nesta unidade.", on_hand.max(0), unit.as_str())
}

/// The stock movement form (`POST product/{id}/movements`).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct StockMovementForm {
    /// `entrada`, `uso_interno`, `ajuste` or `transferencia` ('venda' comes from comandas).
    pub kind: Option<String>,
    /// The unit (the origin of a transfer).
    pub id_company: Option<i64>,
    /// Units moved; for `ajuste`, the quantity counted.
    pub quantity: Option<i64>,
    /// `entrada`: reais per unit.
    #[schema(value_type = Option<f64>)]
    pub unit_cost: Value,
    /// `entrada`: who sold it.
    pub supplier: Option<String>,
    /// Why: required for `ajuste`.
    pub reason: Option<String>,
    /// `transferencia`: the unit it goes to.
    pub id_company_to: Option<i64>,
}

impl StockMovementForm {
    /// The form's rules, with their pt-BR messages on the fields. Whether the units are the
    /// business's is command-api's check.
    pub fn validate(&self) -> Result<StockMovement, FieldErrors> {
        let mut errors = FieldErrors::default();
        let kind = match self.kind.as_deref() {
            Some("entrada") => Some(MovementKind::Entrada),
            Some("uso_interno") => Some(MovementKind::UsoInterno),
            Some("ajuste") => Some(MovementKind::Ajuste),
            Some("transferencia") => Some(MovementKind::Transferencia),
            Some("venda") => {
                errors.add("kind", MSG_SALE_BY_HAND);
                None
            }
            _ => {
                errors.add("kind", "Escolha o tipo de movimentação.");
                None
            }
        };
        let company_id = self.id_company.unwrap_or_default();
        errors.check(company_id <= 0, "idCompany", "Escolha a unidade.");
        let counting = kind == Some(MovementKind::Ajuste);
        let quantity = match self.quantity {
            None => {
                errors.add(
                    "quantity",
                    if counting { "Informe a quantidade contada." } else { "Informe a quantidade." },
                );
                0
            }
            Some(quantity) if quantity > MAX_QUANTITY => {
                errors.add("quantity", "A quantidade deve ser de no máximo 100.000.");
                0
            }
            Some(quantity) if counting && quantity < 0 => {
                errors.add("quantity", "A quantidade contada não pode ser negativa.");
                0
            }
            Some(quantity) if !counting && quantity <= 0 => {
                errors.add("quantity", "Informe uma quantidade maior que zero.");
                0
            }
            Some(quantity) => quantity,
        };
        let text = |field: &str, value: &Option<String>, errors: &mut FieldErrors| {
            let text = value.as_deref().unwrap_or_default().trim().to_owned();
            errors.check_length(field, &text, MAX_TEXT);
            text
        };
        let supplier = text("supplier", &self.supplier, &mut errors);
        let reason = text("reason", &self.reason, &mut errors);
        let movement = match kind {
            Some(MovementKind::Entrada) => {
                let unit_cost_cents = match cents_from_reais(&self.unit_cost) {
                    _ if self.unit_cost.is_null() => {
                        errors.add("unitCost", "Informe o custo unitário.");
                        0
                    }
                    Ok(cents) => match check_amount(cents, true) {
                        Ok(()) => cents,
                        Err(message) => {
                            errors.add("unitCost", &message);
                            0
                        }
                    },
                    Err(not_money) => {
                        errors.add("unitCost", not_money.message());
                        0
                    }
                };
                Some(StockMovement::Receive { company_id, quantity, unit_cost_cents, supplier })
            }
            Some(MovementKind::UsoInterno) => Some(StockMovement::Use { company_id, quantity, reason }),
            Some(MovementKind::Ajuste) => {
                errors.check(reason.is_empty(), "reason", "Informe o motivo do ajuste.");
                Some(StockMovement::Count { company_id, counted: quantity, reason })
            }
            Some(MovementKind::Transferencia) => {
                let to_company_id = self.id_company_to.unwrap_or_default();
                errors.check(to_company_id <= 0, "idCompanyTo", "Escolha a unidade de destino.");
                errors.check(
                    to_company_id > 0 && to_company_id == company_id,
                    "idCompanyTo",
                    "Escolha uma unidade de destino diferente da de origem.",
                );
                Some(StockMovement::Transfer { company_id, to_company_id, quantity })
            }
            Some(MovementKind::Venda) | None => None,
        };
        match movement {
            Some(movement) if errors.is_empty() => Ok(movement),
            _ => Err(errors),
        }
    }
}

/// Whether `code` is a GTIN (EAN-8, UPC-A, EAN-13 or GTIN-14): its digits and check digit.
pub fn is_gtin(code: &str) -> bool {
    let digits: Vec<u32> = code.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() != code.len() || ![8, 12, 13, 14].contains(&digits.len()) {
        return false;
    }
    let (check, body) = digits.split_last().unwrap_or((&0, &[]));
    // From the right, the digits next to the check digit weigh 3, then 1, alternately.
    let sum: u32 = body.iter().rev().enumerate().map(|(i, d)| if i % 2 == 0 { d * 3 } else { *d }).sum();
    (10 - sum % 10) % 10 == *check
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_average_cost_moves_with_what_comes_in_and_goes_out_exactly() {
        let mut pomade = Holding::default();
        pomade.put(10, 10 * 1500);
        pomade.put(5, 5 * 1800);
        assert_eq!(pomade, Holding { quantity: 15, value_cents: 24_000 });
        assert_eq!(pomade.average_cents(), Some(1600));
        // 7 of 15 take 7/15 of R$ 240,00 = R$ 112,00.
        assert_eq!(pomade.take(7), 11_200);
        // 1 of 8 takes R$ 128,00 / 8 = R$ 16,00.
        assert_eq!(pomade.take(1), 1600);
        // A third of a centavo rounds half up: 3 units at R$ 10,00 total: one takes R$ 3,33...
        let mut thirds = Holding { quantity: 3, value_cents: 1000 };
        assert_eq!(thirds.take(1), 333);
        assert_eq!(thirds.take(1), 334, "R$ 6,67 / 2 = 3,335, half up");
        assert_eq!(thirds.take(1), 333, "the last takes what is left");
        assert_eq!(thirds, Holding::default());
    }

    #[test]
    fn below_zero_there_is_no_value_and_what_comes_in_fills_the_shortfall_first() {
        let mut oil = Holding { quantity: 1, value_cents: 2000 };
        assert_eq!(oil.take(3), 2000, "more than there is takes all the value");
        assert_eq!(oil, Holding { quantity: -2, value_cents: 0 });
        assert_eq!(oil.take(1), 0);
        oil.put(5, 5 * 1000);
        assert_eq!(oil, Holding { quantity: 2, value_cents: 2000 }, "3 filled the shortfall");
        assert_eq!(oil.worth(1, 9999), 1000, "at the average");
        assert_eq!(Holding::default().worth(2, 1250), 2500, "nothing on hand: at the registered cost");
    }

    #[test]
    fn a_movement_moves_what_it_says_and_refuses_to_go_below_zero_unless_allowed() {
        let (product, unit, other) = (7, 1, 2);
        let used = StockMovement::Use { company_id: unit, quantity: 3, reason: String::new() };
        let refused = used.moves(product, 2, false, MeasureUnit::Un).err().unwrap_or_default();
        assert_eq!(refused.get("quantity"), Some("Estoque insuficiente: há 2 un nesta unidade."));
        let allowed = used.moves(product, 2, true, MeasureUnit::Un).unwrap_or_default();
        assert_eq!(
            allowed,
            vec![StockMove {
                product_id: product,
                company_id: unit,
                quantity: -3,
                allow_negative: true,
                service_id: None
            }]
        );
        let counted = StockMovement::Count { company_id: unit, counted: 4, reason: "Contagem".into() };
        assert_eq!(counted.moves(product, 6, false, MeasureUnit::Un).unwrap_or_default()[0].quantity, -2);
        let sent = StockMovement::Transfer { company_id: unit, to_company_id: other, quantity: 2 };
        let moves = sent.moves(product, 2, false, MeasureUnit::Ml).unwrap_or_default();
        assert_eq!(
            moves.iter().map(|m| (m.company_id, m.quantity)).collect::<Vec<_>>(),
            vec![(unit, -2), (other, 2)]
        );
        let too_many = sent.moves(product, 1, false, MeasureUnit::Ml).err().unwrap_or_default();
        assert_eq!(too_many.get("quantity"), Some("Estoque insuficiente: há 1 ml nesta unidade."));
    }

    #[test]
    fn the_form_names_its_fields_in_pt_br() {
        let form =
            |body: Value| serde_json::from_value::<StockMovementForm>(body).unwrap_or_default().validate();
        assert_eq!(
            form(
                json!({"kind": "entrada", "idCompany": 1, "quantity": 10, "unitCost": "15,90", "supplier": " Distribuidora "})
            ),
            Ok(StockMovement::Receive {
                company_id: 1,
                quantity: 10,
                unit_cost_cents: 1590,
                supplier: "Distribuidora".into()
            })
        );
        let sale = form(json!({"kind": "venda", "idCompany": 1, "quantity": 1})).err().unwrap_or_default();
        assert_eq!(sale.get("kind"), Some(MSG_SALE_BY_HAND));
        let bad =
            form(json!({"kind": "entrada", "quantity": -1, "unitCost": 1.999})).err().unwrap_or_default();
        assert_eq!(bad.get("idCompany"), Some("Escolha a unidade."));
        assert_eq!(bad.get("quantity"), Some("Informe uma quantidade maior que zero."));
        assert_eq!(bad.get("unitCost"), Some("Use no máximo duas casas decimais."));
        let count = form(json!({"kind": "ajuste", "idCompany": 1, "quantity": 0})).err().unwrap_or_default();
        assert_eq!(count.get("reason"), Some("Informe o motivo do ajuste."));
        assert_eq!(count.get("quantity"), None, "zero counted is a count");
        let transfer =
            form(json!({"kind": "transferencia", "idCompany": 1, "idCompanyTo": 1, "quantity": 100_001}))
                .err()
                .unwrap_or_default();
        assert_eq!(
            transfer.get("idCompanyTo"),
            Some("Escolha uma unidade de destino diferente da de origem.")
        );
        assert_eq!(transfer.get("quantity"), Some("A quantidade deve ser de no máximo 100.000."));
        assert!(form(json!({})).err().unwrap_or_default().get("kind").is_some());
    }

    #[test]
    fn a_barcode_is_a_gtin_with_its_check_digit() {
        assert!(is_gtin("7891000315507"));
        assert!(is_gtin("96385074"));
        assert!(is_gtin("036000291452"));
        assert!(!is_gtin("7891000315508"));
        assert!(!is_gtin("78910003155"));
        assert!(!is_gtin("789100031550a"));
    }
}
