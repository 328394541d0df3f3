//! A partner company: a business outside the chain that honours a plan's benefits (spec 02
//! §3 'Partner company'). The specification has no screen that edits them; the demo loader
//! registers them and `GET partner-company` lists them for the plan form.
//!
//! Aggregate id = IdPartnerCompany (`partner_company_id_seq`).

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

/// A partner company.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartnerCompany {
    name: Option<String>,
}

impl PartnerCompany {
    /// Its name, `None` before registration.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

/// What can be done with a partner company.
#[derive(Debug, Clone, PartialEq)]
pub enum PartnerCompanyCommand {
    /// Register it.
    Register {
        /// Name.
        name: String,
    },
}

/// What happened to a partner company.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PartnerCompanyEvent {
    /// It was registered.
    PartnerCompanyRegistered {
        /// Name.
        name: String,
    },
}

impl DomainEvent for PartnerCompanyEvent {
    fn event_type(&self) -> String {
        "PartnerCompanyRegistered".to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a partner company command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartnerCompanyError {
    /// Already registered.
    #[error("Empresa parceira já cadastrada.")]
    AlreadyRegistered,
}

impl Aggregate for PartnerCompany {
    const TYPE: &'static str = "PartnerCompany";
    type Command = PartnerCompanyCommand;
    type Event = PartnerCompanyEvent;
    type Error = PartnerCompanyError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let PartnerCompanyCommand::Register { name } = command;
        if self.name.is_some() {
            return Err(PartnerCompanyError::AlreadyRegistered);
        }
        sink.write(PartnerCompanyEvent::PartnerCompanyRegistered { name }, self).await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        let PartnerCompanyEvent::PartnerCompanyRegistered { name } = event;
        self.name = Some(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<PartnerCompany>(&[
            PartnerCompanyEvent::PartnerCompanyRegistered { name: "Academia Forte".into() },
        ]);
    }
}
