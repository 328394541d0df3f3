//! Commissions (issue 42): what each professional earns of the comandas they served.
//!
//! A professional's rates ([`CommissionRates`]) are set on their own stream
//! (`ProfessionalEvent::CommissionRatesSet`) and apply from the moment they are set: the
//! comanda's close writes, for each professional, the rate in force for each of their lines
//! and what it earned ([`Earning`], in `ComandaClosed`, by `comanda::earnings`), so that a later change of a rate
//! never reaches a closed comanda. docs/money.md, "Commissions".

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
