//! The service catalogue: what the shop sells (haircut, beard, ...), with a default price
//! and time that pre-fill a professional's own when they start offering it.
//!
//! Aggregate id = the service's numeric id. The specification has no screen that edits the
//! catalogue; it is loaded by the demo loader and read through `GET service/active`.

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

/// A service of the catalogue.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Service {
    entry: Option<CatalogueEntry>,
}

impl Service {
    /// The entry, `None` before creation.
    pub fn entry(&self) -> Option<&CatalogueEntry> {
        self.entry.as_ref()
    }
}

/// What can be done with a catalogue service.
#[derive(Debug, Clone, PartialEq)]
pub enum ServiceCommand {
    /// Add it to the catalogue.
    Create(CatalogueEntry),
}

/// What happened to a catalogue service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ServiceEvent {
    /// It was added to the catalogue.
    ServiceCreated(CatalogueEntry),
}

impl DomainEvent for ServiceEvent {
    fn event_type(&self) -> String {
        match self {
            ServiceEvent::ServiceCreated(_) => "ServiceCreated".to_owned(),
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
}

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
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ServiceEvent::ServiceCreated(entry) => self.entry = Some(entry),
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
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<Service>(&[ServiceEvent::ServiceCreated(CatalogueEntry {
            description: "Corte".into(),
            default_cents: 4500,
            default_minutes: 30,
            active: true,
        })]);
    }
}
