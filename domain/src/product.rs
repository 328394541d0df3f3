//! A product the shop sells at the counter (a pomade, an oil) or uses in its services (a
//! dye): name and price (issue 41), brand, barcode, category, cost, how it is counted and the
//! minimum each unit keeps (issue 43), and the stock movements recorded by hand ('Entrada',
//! 'Uso interno', 'Ajuste', 'Transferência'; `crate::stock`).
//!
//! Aggregate id = the product's number (`product_id_seq`). Products are the business's, as
//! clients and the catalogue are: every unit sells them, and each counts its own stock.

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::money::{brl, cents_from_reais, MAX_CENTS};
use crate::stock::{is_gtin, MeasureUnit, StockMove, StockMovement, MAX_QUANTITY};
use crate::validation::FieldErrors;

/// Answer for an unknown product.
pub const MSG_NOT_FOUND: &str = "Produto não encontrado.";
/// The longest name.
pub const MAX_NAME: usize = 80;
/// The longest brand and category.
pub const MAX_LABEL: usize = 60;

/// A product as saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductDetails {
    pub name: String,
    /// Centavos per unit.
    pub price_cents: i64,
    /// Sold, or not any more.
    pub active: bool,
    /// Issue 43's fields, each left out of payloads while empty, so products saved before
    /// read the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brand: Option<String>,
    /// EAN/GTIN digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barcode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Centavos per unit of measure: the registered cost, which values stock that came in
    /// without one (`crate::stock::Holding`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "MeasureUnit::is_default")]
    pub unit: MeasureUnit,
    /// The least each unit should keep: below it, the product is to reorder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub minimums: Vec<Minimum>,
    /// Its photo's file name under the media dir's `gallery/` (content-addressed), set by
    /// `POST product/{id}/image`, kept by the form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// The least a unit should keep of a product.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Minimum {
    pub company_id: i64,
    pub minimum: i64,
}

/// A unit's minimum as the form sends it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct MinimumForm {
    pub id_company: i64,
    pub minimum: i64,
}

/// The product form as sent (`POST product`, `PUT product/{id}`).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ProductForm {
    pub name: Option<String>,
    /// Reais, as a number or as typed (`"29,90"`).
    #[schema(value_type = f64)]
    pub price: Value,
    /// Absent: sold.
    pub active: Option<bool>,
    pub brand: Option<String>,
    /// EAN/GTIN (8, 12, 13 or 14 digits, with its check digit); optional.
    pub barcode: Option<String>,
    pub category: Option<String>,
    /// Reais per unit of measure; optional.
    #[schema(value_type = Option<f64>)]
    pub cost: Value,
    /// `un` (default), `ml` or `g`.
    pub unit: Option<String>,
    /// The least each unit should keep (0 to 100.000).
    pub minimums: Vec<MinimumForm>,
}

impl ProductForm {
    /// The form's rules, with their pt-BR messages on the fields.
    pub fn validate(&self) -> Result<ProductDetails, FieldErrors> {
        let mut errors = FieldErrors::default();
        let name = self.name.as_deref().unwrap_or_default().trim().to_owned();
        errors.check(name.is_empty(), "name", "Informe o nome do produto.");
        errors.check(
            name.chars().count() > MAX_NAME,
            "name",
            &format!("O nome deve ter no máximo {MAX_NAME} caracteres."),
        );
        let price_cents = match cents_from_reais(&self.price) {
            Ok(cents) if cents <= 0 => {
                errors.add("price", "Informe um preço maior que zero.");
                0
            }
            Ok(cents) if cents > MAX_CENTS => {
                errors.add("price", &format!("O preço deve ser de no máximo {}.", brl(MAX_CENTS)));
                0
            }
            Ok(cents) => cents,
            Err(not_money) => {
                errors.add("price", not_money.message());
                0
            }
        };
        let label = |field: &str, value: &Option<String>, errors: &mut FieldErrors| {
            let text = value.as_deref().unwrap_or_default().trim().to_owned();
            errors.check_length(field, &text, MAX_LABEL);
            (!text.is_empty()).then_some(text)
        };
        let brand = label("brand", &self.brand, &mut errors);
        let category = label("category", &self.category, &mut errors);
        let barcode = self.barcode.as_deref().unwrap_or_default().trim().to_owned();
        errors.check(!barcode.is_empty() && !is_gtin(&barcode), "barcode", "Código de barras inválido.");
        let cost_cents = match cents_from_reais(&self.cost) {
            _ if self.cost.is_null() || self.cost.as_str().is_some_and(|text| text.trim().is_empty()) => None,
            Ok(cents) if cents < 0 => {
                errors.add("cost", "O custo não pode ser negativo.");
                None
            }
            Ok(cents) if cents > MAX_CENTS => {
                errors.add("cost", &format!("O custo deve ser de no máximo {}.", brl(MAX_CENTS)));
                None
            }
            Ok(cents) => Some(cents),
            Err(not_money) => {
                errors.add("cost", not_money.message());
                None
            }
        };
        let unit = match self.unit.as_deref() {
            None | Some("") => MeasureUnit::Un,
            Some(text) => MeasureUnit::parse(text).unwrap_or_else(|| {
                errors.add("unit", "Escolha a unidade de medida.");
                MeasureUnit::Un
            }),
        };
        let mut minimums: Vec<Minimum> = Vec::new();
        for minimum in &self.minimums {
            errors.check(
                !(0..=MAX_QUANTITY).contains(&minimum.minimum),
                "minimums",
                "O estoque mínimo deve ser de 0 a 100.000.",
            );
            match minimums.iter_mut().find(|kept| kept.company_id == minimum.id_company) {
                Some(kept) => kept.minimum = minimum.minimum,
                None => minimums.push(Minimum { company_id: minimum.id_company, minimum: minimum.minimum }),
            }
        }
        // A minimum of zero is none: the unit does not reorder it.
        minimums.retain(|minimum| minimum.minimum > 0);
        minimums.sort_by_key(|minimum| minimum.company_id);
        if errors.is_empty() {
            Ok(ProductDetails {
                name,
                price_cents,
                active: self.active.unwrap_or(true),
                brand,
                barcode: (!barcode.is_empty()).then_some(barcode),
                category,
                cost_cents,
                unit,
                minimums,
                image: None,
            })
        } else {
            Err(errors)
        }
    }
}

/// A product.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Product {
    details: Option<ProductDetails>,
}

impl Product {
    /// The product, `None` before it is created.
    pub fn details(&self) -> Option<&ProductDetails> {
        self.details.as_ref()
    }
}

/// What can be done with a product.
#[derive(Debug, Clone, PartialEq)]
pub enum ProductCommand {
    Create(ProductDetails),
    Change(ProductDetails),
    /// A movement recorded by hand, with the moves command-api worked out from what the
    /// unit holds (`StockMovement::moves`).
    MoveStock {
        movement: StockMovement,
        stock_moves: Vec<StockMove>,
    },
}

/// What happened to a product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ProductEvent {
    ProductCreated(ProductDetails),
    ProductChanged(ProductDetails),
    /// 'Entrada': goods received from a supplier, at a cost per unit.
    StockReceived {
        stock_moves: Vec<StockMove>,
        unit_cost_cents: i64,
        supplier: String,
    },
    /// 'Uso interno': consumed in the shop.
    StockUsed {
        stock_moves: Vec<StockMove>,
        reason: String,
    },
    /// 'Ajuste': the unit counted `counted`; the move is the difference.
    StockCounted {
        stock_moves: Vec<StockMove>,
        counted: i64,
        reason: String,
    },
    /// 'Transferência': out of one unit, into another.
    StockTransferred {
        stock_moves: Vec<StockMove>,
    },
}

impl DomainEvent for ProductEvent {
    fn event_type(&self) -> String {
        match self {
            ProductEvent::ProductCreated(_) => "ProductCreated",
            ProductEvent::ProductChanged(_) => "ProductChanged",
            ProductEvent::StockReceived { .. } => "StockReceived",
            ProductEvent::StockUsed { .. } => "StockUsed",
            ProductEvent::StockCounted { .. } => "StockCounted",
            ProductEvent::StockTransferred { .. } => "StockTransferred",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a product command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProductError {
    #[error("Produto já cadastrado.")]
    AlreadyCreated,
    #[error("{MSG_NOT_FOUND}")]
    NotFound,
}

impl Aggregate for Product {
    const TYPE: &'static str = "Product";
    type Command = ProductCommand;
    type Event = ProductEvent;
    type Error = ProductError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let event = match command {
            ProductCommand::Create(details) if self.details.is_none() => {
                ProductEvent::ProductCreated(details)
            }
            ProductCommand::Create(_) => return Err(ProductError::AlreadyCreated),
            ProductCommand::Change(details) if self.details.is_some() => {
                ProductEvent::ProductChanged(details)
            }
            ProductCommand::Change(_) => return Err(ProductError::NotFound),
            ProductCommand::MoveStock { .. } if self.details.is_none() => return Err(ProductError::NotFound),
            ProductCommand::MoveStock { movement, stock_moves } => match movement {
                StockMovement::Receive { unit_cost_cents, supplier, .. } => {
                    ProductEvent::StockReceived { stock_moves, unit_cost_cents, supplier }
                }
                StockMovement::Use { reason, .. } => ProductEvent::StockUsed { stock_moves, reason },
                StockMovement::Count { counted, reason, .. } => {
                    ProductEvent::StockCounted { stock_moves, counted, reason }
                }
                StockMovement::Transfer { .. } => ProductEvent::StockTransferred { stock_moves },
            },
        };
        sink.write(event, self).await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ProductEvent::ProductCreated(details) | ProductEvent::ProductChanged(details) => {
                self.details = Some(details)
            }
            // The counts are kept by the append's trigger and the read model, across the
            // product's and the comandas' events: nothing here decides on them.
            ProductEvent::StockReceived { .. }
            | ProductEvent::StockUsed { .. }
            | ProductEvent::StockCounted { .. }
            | ProductEvent::StockTransferred { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;
    use serde_json::json;

    use super::*;

    fn pomade() -> ProductDetails {
        ProductDetails {
            name: "Pomada modeladora".into(),
            price_cents: 2990,
            active: true,
            brand: None,
            barcode: None,
            category: None,
            cost_cents: None,
            unit: MeasureUnit::Un,
            minimums: Vec::new(),
            image: None,
        }
    }

    fn stocked() -> ProductDetails {
        ProductDetails {
            brand: Some("Barba Forte".into()),
            barcode: Some("7891000315507".into()),
            category: Some("Finalizadores".into()),
            cost_cents: Some(1450),
            minimums: vec![Minimum { company_id: 1, minimum: 5 }],
            ..pomade()
        }
    }

    #[test]
    fn the_form_reads_the_price_exactly_and_names_its_fields() {
        let form = |name: &str, price: Value| ProductForm {
            name: Some(name.into()),
            price,
            ..ProductForm::default()
        };
        assert_eq!(form(" Pomada modeladora ", json!("29,90")).validate(), Ok(pomade()));
        let errors = form("", json!(29.999)).validate().err().unwrap_or_default();
        assert_eq!(errors.0.get("name").map(String::as_str), Some("Informe o nome do produto."));
        assert_eq!(errors.0.get("price").map(String::as_str), Some("Use no máximo duas casas decimais."));
        let free = form("Brinde", json!(0)).validate().err().unwrap_or_default();
        assert_eq!(free.0.get("price").map(String::as_str), Some("Informe um preço maior que zero."));
        let dear = form("Ouro", json!(100_000.01)).validate().err().unwrap_or_default();
        assert_eq!(
            dear.0.get("price").map(String::as_str),
            Some("O preço deve ser de no máximo R$ 100.000,00.")
        );
    }

    #[test]
    fn the_form_checks_the_barcode_the_cost_the_unit_and_the_minimums() {
        let body = json!({"name": "Pomada modeladora", "price": "29,90", "brand": " Barba Forte ",
            "barcode": "7891000315507", "category": "Finalizadores", "cost": "14,50",
            "minimums": [{"idCompany": 1, "minimum": 5}, {"idCompany": 2, "minimum": 0}]});
        let form: ProductForm = serde_json::from_value(body).unwrap_or_default();
        assert_eq!(form.validate(), Ok(stocked()));
        let bad = json!({"name": "Tinta", "price": 10, "barcode": "7891000315508", "cost": -1,
            "unit": "litro", "minimums": [{"idCompany": 1, "minimum": 100_001}]});
        let errors = serde_json::from_value::<ProductForm>(bad)
            .unwrap_or_default()
            .validate()
            .err()
            .unwrap_or_default();
        assert_eq!(errors.get("barcode"), Some("Código de barras inválido."));
        assert_eq!(errors.get("cost"), Some("O custo não pode ser negativo."));
        assert_eq!(errors.get("unit"), Some("Escolha a unidade de medida."));
        assert_eq!(errors.get("minimums"), Some("O estoque mínimo deve ser de 0 a 100.000."));
    }

    #[test]
    fn every_movement_is_recorded_as_its_own_event_on_an_existing_product() {
        let moves = |company_id: i64, quantity: i64| {
            vec![StockMove { product_id: 7, company_id, quantity, allow_negative: false, service_id: None }]
        };
        let recorded = |movement: StockMovement, stock_moves: Vec<StockMove>, event: ProductEvent| {
            TestFramework::<Product>::with(())
                .given(vec![ProductEvent::ProductCreated(stocked())])
                .when(ProductCommand::MoveStock { movement, stock_moves })
                .then_expect_events(vec![event]);
        };
        let received = StockMovement::Receive {
            company_id: 1,
            quantity: 10,
            unit_cost_cents: 1450,
            supplier: "Dist".into(),
        };
        recorded(
            received.clone(),
            moves(1, 10),
            ProductEvent::StockReceived {
                stock_moves: moves(1, 10),
                unit_cost_cents: 1450,
                supplier: "Dist".into(),
            },
        );
        recorded(
            StockMovement::Use { company_id: 1, quantity: 1, reason: "Teste".into() },
            moves(1, -1),
            ProductEvent::StockUsed { stock_moves: moves(1, -1), reason: "Teste".into() },
        );
        recorded(
            StockMovement::Count { company_id: 1, counted: 8, reason: "Contagem".into() },
            moves(1, -1),
            ProductEvent::StockCounted { stock_moves: moves(1, -1), counted: 8, reason: "Contagem".into() },
        );
        let both = [moves(1, -2), moves(2, 2)].concat();
        recorded(
            StockMovement::Transfer { company_id: 1, to_company_id: 2, quantity: 2 },
            both.clone(),
            ProductEvent::StockTransferred { stock_moves: both },
        );
        TestFramework::<Product>::with(())
            .given_no_previous_events()
            .when(ProductCommand::MoveStock { movement: received, stock_moves: moves(1, 10) })
            .then_expect_error(ProductError::NotFound);
    }

    #[test]
    fn a_product_is_created_once_and_changed_after() {
        TestFramework::<Product>::with(())
            .given_no_previous_events()
            .when(ProductCommand::Change(pomade()))
            .then_expect_error(ProductError::NotFound);
        TestFramework::<Product>::with(())
            .given(vec![ProductEvent::ProductCreated(pomade())])
            .when(ProductCommand::Create(pomade()))
            .then_expect_error(ProductError::AlreadyCreated);
        let cheaper = ProductDetails { price_cents: 2490, ..pomade() };
        TestFramework::<Product>::with(())
            .given(vec![ProductEvent::ProductCreated(pomade())])
            .when(ProductCommand::Change(cheaper.clone()))
            .then_expect_events(vec![ProductEvent::ProductChanged(cheaper)]);
    }

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<Product>(&[
            ProductEvent::ProductCreated(pomade()),
            ProductEvent::ProductChanged(ProductDetails { active: false, ..pomade() }),
            ProductEvent::StockReceived {
                stock_moves: vec![StockMove {
                    product_id: 7,
                    company_id: 1,
                    quantity: 10,
                    allow_negative: false,
                    service_id: None,
                }],
                unit_cost_cents: 1450,
                supplier: "Distribuidora Sul".into(),
            },
            ProductEvent::StockUsed {
                stock_moves: vec![StockMove {
                    product_id: 7,
                    company_id: 1,
                    quantity: -1,
                    allow_negative: true,
                    service_id: None,
                }],
                reason: "Mostruário".into(),
            },
            ProductEvent::StockCounted {
                stock_moves: vec![StockMove {
                    product_id: 7,
                    company_id: 1,
                    quantity: -2,
                    allow_negative: true,
                    service_id: None,
                }],
                counted: 7,
                reason: "Contagem do mês".into(),
            },
            ProductEvent::StockTransferred {
                stock_moves: vec![
                    StockMove {
                        product_id: 7,
                        company_id: 1,
                        quantity: -2,
                        allow_negative: false,
                        service_id: None,
                    },
                    StockMove {
                        product_id: 7,
                        company_id: 2,
                        quantity: 2,
                        allow_negative: false,
                        service_id: None,
                    },
                ],
            },
        ]);
    }
}
