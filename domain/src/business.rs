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
    billing: BillingStatus,
}

impl Business {
    /// The name, `None` before it is opened.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Whether the business is paying Navalha.
    pub fn billing(&self) -> BillingStatus {
        self.billing
    }
}

/// The business's own standing with Navalha (its subscription to the system, not its
/// clients' plans). While payment is pending, the staff see spec 01's 'Pagamento pendente !'
/// notice after signing in; nothing is blocked (docs/operations.md, "Billing a business").
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BillingStatus {
    /// Paid up.
    #[default]
    Active,
    /// A payment is due.
    PendingPayment,
}

impl BillingStatus {
    /// `ACTIVE` or `PENDING_PAYMENT`, as the API and the read model say it.
    pub fn code(self) -> &'static str {
        match self {
            BillingStatus::Active => "ACTIVE",
            BillingStatus::PendingPayment => "PENDING_PAYMENT",
        }
    }

    /// The status of a code, `None` for an unknown one.
    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "ACTIVE" => Some(BillingStatus::Active),
            "PENDING_PAYMENT" => Some(BillingStatus::PendingPayment),
            _ => None,
        }
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
    /// Record whether it is paying Navalha (the operators' billing).
    SetBilling {
        /// The new standing.
        status: BillingStatus,
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
    /// Its standing with Navalha changed.
    BusinessBillingChanged {
        /// The new standing.
        status: BillingStatus,
    },
}

impl DomainEvent for BusinessEvent {
    fn event_type(&self) -> String {
        match self {
            BusinessEvent::BusinessOpened { .. } => "BusinessOpened".to_owned(),
            BusinessEvent::BusinessBillingChanged { .. } => "BusinessBillingChanged".to_owned(),
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
    /// No such business.
    #[error("Empresa não encontrada.")]
    NotOpened,
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
            BusinessCommand::SetBilling { status } => {
                if self.name.is_none() {
                    return Err(BusinessError::NotOpened);
                }
                // Saying it again records nothing.
                if status != self.billing {
                    sink.write(BusinessEvent::BusinessBillingChanged { status }, self).await;
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            BusinessEvent::BusinessOpened { name } => self.name = Some(name),
            BusinessEvent::BusinessBillingChanged { status } => self.billing = status,
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

    #[test]
    fn billing_changes_only_when_it_does_and_only_for_an_open_business() {
        let opened = BusinessEvent::BusinessOpened { name: "Barbearia Vila Rica".into() };
        let pending = BusinessEvent::BusinessBillingChanged { status: BillingStatus::PendingPayment };
        TestFramework::<Business>::with(())
            .given(vec![opened.clone()])
            .when(BusinessCommand::SetBilling { status: BillingStatus::PendingPayment })
            .then_expect_events(vec![pending.clone()]);
        TestFramework::<Business>::with(())
            .given(vec![opened.clone(), pending.clone()])
            .when(BusinessCommand::SetBilling { status: BillingStatus::PendingPayment })
            .then_expect_events(vec![]);
        TestFramework::<Business>::with(())
            .given(vec![opened])
            .when(BusinessCommand::SetBilling { status: BillingStatus::Active })
            .then_expect_events(vec![]);
        TestFramework::<Business>::with(())
            .given_no_previous_events()
            .when(BusinessCommand::SetBilling { status: BillingStatus::Active })
            .then_expect_error(BusinessError::NotOpened);
        assert_eq!(
            serde_json::to_value(pending).expect("json")["BusinessBillingChanged"]["status"],
            "PENDING_PAYMENT"
        );
        for status in [BillingStatus::Active, BillingStatus::PendingPayment] {
            assert_eq!(BillingStatus::from_code(status.code()), Some(status));
        }
    }

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<Business>(&[
            BusinessEvent::BusinessOpened { name: "Barbearia Vila Rica".into() },
            BusinessEvent::BusinessBillingChanged { status: BillingStatus::PendingPayment },
        ]);
    }
}
