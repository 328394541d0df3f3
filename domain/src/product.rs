//! A product the shop sells at the counter (a pomade, an oil): for now a plain list of name,
//! price and whether it is sold (issue 41); the stock issue (43) adds brand, barcode, cost
//! and stock per unit.
//!
//! Aggregate id = the product's number (`product_id_seq`). Products are the business's, as
//! clients and the catalogue are: every unit sells them.

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::money::{brl, cents_from_reais, MAX_CENTS};
use crate::validation::FieldErrors;

/// Answer for an unknown product.
pub const MSG_NOT_FOUND: &str = "Produto não encontrado.";
/// The longest name.
pub const MAX_NAME: usize = 80;

/// A product as saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductDetails {
    pub name: String,
    /// Centavos per unit.
    pub price_cents: i64,
    /// Sold, or not any more.
    pub active: bool,
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
        if errors.is_empty() {
            Ok(ProductDetails { name, price_cents, active: self.active.unwrap_or(true) })
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
}

/// What happened to a product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ProductEvent {
    ProductCreated(ProductDetails),
    ProductChanged(ProductDetails),
}

impl DomainEvent for ProductEvent {
    fn event_type(&self) -> String {
        match self {
            ProductEvent::ProductCreated(_) => "ProductCreated",
            ProductEvent::ProductChanged(_) => "ProductChanged",
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
        };
        sink.write(event, self).await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ProductEvent::ProductCreated(details) | ProductEvent::ProductChanged(details) => {
                self.details = Some(details)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;
    use serde_json::json;

    use super::*;

    fn pomade() -> ProductDetails {
        ProductDetails { name: "Pomada modeladora".into(), price_cents: 2990, active: true }
    }

    #[test]
    fn the_form_reads_the_price_exactly_and_names_its_fields() {
        let form = |name: &str, price: Value| ProductForm { name: Some(name.into()), price, active: None };
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
        ]);
    }
}
