//! A professional: a staff member who signs in and, if a barber, takes appointments.
//!
//! Aggregate id = the professional's numeric id. Passwords never appear here: they live in
//! command-api's credential table.

use chrono::NaiveDate;
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::role::Role;
use crate::values::Address;

/// The registration data of a professional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfessionalProfile {
    /// Full name.
    pub name: String,
    /// CPF digits.
    pub cpf: String,
    /// Sign-in e-mail.
    pub email: String,
    /// Phone digits.
    pub phone: String,
    /// Whether the phone takes WhatsApp.
    pub whatsapp: bool,
    /// Birth date.
    pub birth_date: Option<NaiveDate>,
    /// Home address.
    pub address: Address,
    /// Agenda colour, one of the palette's hex values.
    pub color: String,
    /// The role (profile type).
    pub role: Role,
    /// Units the professional belongs to; the first is their own.
    pub companies: Vec<i64>,
    /// Generic status: 0 pending, 1 active, 2 inactive.
    pub status: i16,
}

/// A staff member.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Professional {
    profile: Option<ProfessionalProfile>,
}

impl Professional {
    /// The professional's data, `None` before registration.
    pub fn profile(&self) -> Option<&ProfessionalProfile> {
        self.profile.as_ref()
    }
}

/// What can be done with a professional.
#[derive(Debug, Clone, PartialEq)]
pub enum ProfessionalCommand {
    /// Create the professional.
    RegisterProfessional(ProfessionalProfile),
}

/// What happened to a professional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ProfessionalEvent {
    /// The professional was created.
    ProfessionalRegistered(ProfessionalProfile),
}

impl DomainEvent for ProfessionalEvent {
    fn event_type(&self) -> String {
        match self {
            ProfessionalEvent::ProfessionalRegistered(_) => "ProfessionalRegistered".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a professional command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfessionalError {
    /// The id is taken.
    #[error("Profissional já cadastrado.")]
    AlreadyRegistered,
}

impl Aggregate for Professional {
    const TYPE: &'static str = "Professional";
    type Command = ProfessionalCommand;
    type Event = ProfessionalEvent;
    type Error = ProfessionalError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            ProfessionalCommand::RegisterProfessional(profile) => {
                if self.profile.is_some() {
                    return Err(ProfessionalError::AlreadyRegistered);
                }
                sink.write(ProfessionalEvent::ProfessionalRegistered(profile), self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ProfessionalEvent::ProfessionalRegistered(profile) => self.profile = Some(profile),
        }
    }
}
