//! The service catalogue: what the shop sells (haircut, beard, ...), with a default price
//! and time that pre-fill a professional's own when they start offering it.
//!
//! Aggregate id = the service's numeric id. The specification has no screen that edits the
//! catalogue; it is loaded by the demo loader and read through `GET service/active`. Issue 43
//! adds the products a service uses each time it is done ('Pigmentação' uses 10 ml of a
//! dye), which a comanda's close takes from the unit's stock.

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

/// A catalogue entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogueEntry {
    /// Description.
    pub description: String,
    /// Default price in cents.
    pub default_cents: i64,
    /// Default time in minutes.
    pub default_minutes: i64,
    /// Offered or not.
    pub active: bool,
}

/// How much of a product a service uses each time it is done, in the product's unit of
/// measure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductUse {
    pub product_id: i64,
    pub quantity: i64,
}

/// A service of the catalogue.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Service {
    entry: Option<CatalogueEntry>,
    /// The products it uses, by product.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    uses: Vec<ProductUse>,
}

impl Service {
    /// The entry, `None` before creation.
    pub fn entry(&self) -> Option<&CatalogueEntry> {
        self.entry.as_ref()
    }

    /// The products it uses each time it is done.
    pub fn uses(&self) -> &[ProductUse] {
        &self.uses
    }
}

/// What can be done with a catalogue service.
#[derive(Debug, Clone, PartialEq)]
pub enum ServiceCommand {
    /// Add it to the catalogue.
    Create(CatalogueEntry),
    /// How much of a product it uses; 0: none any more.
    SetProductUse(ProductUse),
}

/// What happened to a catalogue service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ServiceEvent {
    /// It was added to the catalogue.
    ServiceCreated(CatalogueEntry),
    /// It uses this much of a product each time it is done from now on (0: none).
    ProductUseSet(ProductUse),
}

impl DomainEvent for ServiceEvent {
    fn event_type(&self) -> String {
        match self {
            ServiceEvent::ServiceCreated(_) => "ServiceCreated".to_owned(),
            ServiceEvent::ProductUseSet(_) => "ProductUseSet".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a catalogue command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServiceError {
    /// The id is taken.
    #[error("Serviço já cadastrado.")]
    AlreadyCreated,
    #[error("{MSG_NOT_FOUND}")]
    NotFound,
    /// A use outside 0 to 100.000.
    #[error("A quantidade usada deve ser de 0 a 100.000.")]
    BadQuantity,
}

/// Answer for an unknown service.
pub const MSG_NOT_FOUND: &str = "Serviço não encontrado.";

impl Aggregate for Service {
    const TYPE: &'static str = "Service";
    type Command = ServiceCommand;
    type Event = ServiceEvent;
    type Error = ServiceError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            ServiceCommand::Create(entry) => {
                if self.entry.is_some() {
                    return Err(ServiceError::AlreadyCreated);
                }
                sink.write(ServiceEvent::ServiceCreated(entry), self).await;
            }
            ServiceCommand::SetProductUse(_) if self.entry.is_none() => return Err(ServiceError::NotFound),
            ServiceCommand::SetProductUse(used) => {
                if !(0..=crate::stock::MAX_QUANTITY).contains(&used.quantity) {
                    return Err(ServiceError::BadQuantity);
                }
                let now =
                    self.uses.iter().find(|u| u.product_id == used.product_id).map_or(0, |u| u.quantity);
                // Said again: nothing changes.
                if now != used.quantity {
                    sink.write(ServiceEvent::ProductUseSet(used), self).await;
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ServiceEvent::ServiceCreated(entry) => self.entry = Some(entry),
            ServiceEvent::ProductUseSet(used) => {
                self.uses.retain(|u| u.product_id != used.product_id);
                if used.quantity > 0 {
                    self.uses.push(used);
                    self.uses.sort_by_key(|u| u.product_id);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    #[test]
    fn a_service_is_created_once() {
        let entry = CatalogueEntry {
            description: "Corte".into(),
            default_cents: 4500,
            default_minutes: 30,
            active: true,
        };
        TestFramework::<Service>::with(())
            .given_no_previous_events()
            .when(ServiceCommand::Create(entry.clone()))
            .then_expect_events(vec![ServiceEvent::ServiceCreated(entry.clone())]);
        TestFramework::<Service>::with(())
            .given(vec![ServiceEvent::ServiceCreated(entry.clone())])
            .when(ServiceCommand::Create(entry))
            .then_expect_error(ServiceError::AlreadyCreated);
    }

    #[test]
    fn a_service_uses_products_set_one_by_one() {
        let entry = CatalogueEntry {
            description: "Pigmentação".into(),
            default_cents: 6000,
            default_minutes: 40,
            active: true,
        };
        let dye = |quantity| ProductUse { product_id: 6, quantity };
        TestFramework::<Service>::with(())
            .given_no_previous_events()
            .when(ServiceCommand::SetProductUse(dye(10)))
            .then_expect_error(ServiceError::NotFound);
        let created = vec![ServiceEvent::ServiceCreated(entry)];
        TestFramework::<Service>::with(())
            .given(created.clone())
            .when(ServiceCommand::SetProductUse(dye(10)))
            .then_expect_events(vec![ServiceEvent::ProductUseSet(dye(10))]);
        TestFramework::<Service>::with(())
            .given(created.clone())
            .when(ServiceCommand::SetProductUse(dye(100_001)))
            .then_expect_error(ServiceError::BadQuantity);
        let using = [created, vec![ServiceEvent::ProductUseSet(dye(10))]].concat();
        TestFramework::<Service>::with(())
            .given(using.clone())
            .when(ServiceCommand::SetProductUse(dye(10)))
            .then_expect_events(vec![]);
        let mut service = Service::default();
        for event in [using, vec![ServiceEvent::ProductUseSet(dye(0))]].concat() {
            service.apply(event);
        }
        assert!(service.uses().is_empty(), "0 is none");
    }

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<Service>(&[
            ServiceEvent::ServiceCreated(CatalogueEntry {
                description: "Corte".into(),
                default_cents: 4500,
                default_minutes: 30,
                active: true,
            }),
            ServiceEvent::ProductUseSet(ProductUse { product_id: 6, quantity: 10 }),
        ]);
    }
}
