//! A company: one barbershop unit.
//!
//! Aggregate id = the company's numeric id.

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::values::Address;

/// The default IANA time zone of a unit.
pub const DEFAULT_TIME_ZONE: &str = "America/Sao_Paulo";

/// The registration data of a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanyProfile {
    /// Trade name.
    pub name: String,
    /// CNPJ digits.
    pub cnpj: String,
    /// Contact e-mail.
    pub email: String,
    /// Phone digits.
    pub phone: String,
    /// Whether the phone takes WhatsApp.
    pub whatsapp: bool,
    /// Active or not.
    pub status: bool,
    /// Facebook link.
    pub facebook: String,
    /// Instagram link.
    pub instagram: String,
    /// Free notes.
    pub observation: String,
    /// Where the unit is.
    pub address: Address,
    /// IANA time zone of the unit's wall clock.
    pub time_zone: String,
}

/// A barbershop unit.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Company {
    profile: Option<CompanyProfile>,
}

impl Company {
    /// The unit's data, `None` before registration.
    pub fn profile(&self) -> Option<&CompanyProfile> {
        self.profile.as_ref()
    }
}

/// What staff can do with a unit.
#[derive(Debug, Clone, PartialEq)]
pub enum CompanyCommand {
    /// Create the unit.
    RegisterCompany(CompanyProfile),
}

/// What happened to a unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CompanyEvent {
    /// The unit was created.
    CompanyRegistered(CompanyProfile),
}

impl DomainEvent for CompanyEvent {
    fn event_type(&self) -> String {
        match self {
            CompanyEvent::CompanyRegistered(_) => "CompanyRegistered".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a company command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompanyError {
    /// The id is taken.
    #[error("Empresa já cadastrada.")]
    AlreadyRegistered,
}

impl Aggregate for Company {
    const TYPE: &'static str = "Company";
    type Command = CompanyCommand;
    type Event = CompanyEvent;
    type Error = CompanyError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            CompanyCommand::RegisterCompany(profile) => {
                if self.profile.is_some() {
                    return Err(CompanyError::AlreadyRegistered);
                }
                sink.write(CompanyEvent::CompanyRegistered(profile), self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            CompanyEvent::CompanyRegistered(profile) => self.profile = Some(profile),
        }
    }
}
