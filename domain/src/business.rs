//! The business (tenant): a barbershop company that owns its units, staff, clients,
//! services and plans. Nothing of one business is reachable from another (issue 12).
//!
//! Aggregate id = the business's numeric id. Businesses are opened by Navalha's operators
//! (`command-api open-business`); no screen of the specification edits them. Every event of
//! every aggregate names its business in its metadata (see [`crate::metadata`]).

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

/// A business.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Business {
    name: Option<String>,
}

impl Business {
    /// The name, `None` before it is opened.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

/// What can be done with a business.
#[derive(Debug, Clone, PartialEq)]
pub enum BusinessCommand {
    /// Start serving it.
    Open {
        /// Its name, for the operators.
        name: String,
    },
}

/// What happened to a business.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum BusinessEvent {
    /// Navalha started serving it.
    BusinessOpened {
        /// Its name.
        name: String,
    },
}

impl DomainEvent for BusinessEvent {
    fn event_type(&self) -> String {
        match self {
            BusinessEvent::BusinessOpened { .. } => "BusinessOpened".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a business command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BusinessError {
    /// The id is taken.
    #[error("Empresa já cadastrada.")]
    AlreadyOpened,
    /// No name.
    #[error("Informe o nome da empresa.")]
    NameMissing,
}

impl Aggregate for Business {
    const TYPE: &'static str = "Business";
    type Command = BusinessCommand;
    type Event = BusinessEvent;
    type Error = BusinessError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            BusinessCommand::Open { name } => {
                if self.name.is_some() {
                    return Err(BusinessError::AlreadyOpened);
                }
                let name = name.trim().to_owned();
                if name.is_empty() {
                    return Err(BusinessError::NameMissing);
                }
                sink.write(BusinessEvent::BusinessOpened { name }, self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            BusinessEvent::BusinessOpened { name } => self.name = Some(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    #[test]
    fn a_business_is_opened_once_with_a_name() {
        let opened = BusinessEvent::BusinessOpened { name: "Barbearia Vila Rica".into() };
        TestFramework::<Business>::with(())
            .given_no_previous_events()
            .when(BusinessCommand::Open { name: " Barbearia Vila Rica ".into() })
            .then_expect_events(vec![opened.clone()]);
        TestFramework::<Business>::with(())
            .given(vec![opened])
            .when(BusinessCommand::Open { name: "Outra".into() })
            .then_expect_error(BusinessError::AlreadyOpened);
        TestFramework::<Business>::with(())
            .given_no_previous_events()
            .when(BusinessCommand::Open { name: "  ".into() })
            .then_expect_error(BusinessError::NameMissing);
    }
}
