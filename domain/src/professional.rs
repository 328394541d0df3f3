//! A professional: a staff member who signs in and, if a barber, takes appointments. It
//! holds their personal data, their place in the shop (role, colour, units), their weekly
//! working hours and the services they perform with their own price and time.
//!
//! Aggregate id = the professional's numeric id. One professional per CPF and per e-mail.
//! Passwords never appear here: they live in command-api's credential table.

use chrono::NaiveDate;
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::commission::CommissionRates;
use crate::role::Role;
use crate::validation::{
    address, form_date, is_full_name, is_mobile, is_valid_professional_birth_date, money_cents,
    professional_service, working_day, AddressInput, FieldErrors, Period, WorkingDayInput, MAX_EMAIL,
    MAX_MASKED, MAX_NAME,
};
use crate::values::{only_digits, Address, Cpf, Email};

/// The unique-claim scope of professional CPFs.
pub const CPF_SCOPE: &str = "professional_cpf";
/// The unique-claim scope of professional e-mails.
pub const EMAIL_SCOPE: &str = "professional_email";
/// Answer to a second professional with the same CPF.
pub const MSG_DUPLICATE_CPF: &str = "Já existe um profissional cadastrado com este CPF.";
/// Answer to a second professional with the same e-mail.
pub const MSG_DUPLICATE_EMAIL: &str = "Já existe um profissional cadastrado com este e-mail.";
/// Answer for an unknown professional.
pub const MSG_NOT_FOUND: &str = "Profissional não encontrado.";

/// Generic status of a professional (spec 02 §4).
pub mod status {
    /// Registered, has not completed registration.
    pub const PENDING: i16 = 0;
    /// Working.
    pub const ACTIVE: i16 = 1;
    /// Gone.
    pub const INACTIVE: i16 = 2;
}

/// The 12 agenda colours (spec 02 §3): orange, yellow, light green, dark green, light
/// blue, dark blue, grey, pink, light pink, purple, black, red.
pub const PALETTE: [&str; 12] = [
    "#FF9800", "#FFEB3B", "#8BC34A", "#2E7D32", "#81D4FA", "#1565C0", "#9E9E9E", "#E91E63", "#F48FB1",
    "#7B1FA2", "#000000", "#D32F2F",
];

/// What a professional can change about themself (the my-profile form).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonalData {
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
}

/// A professional's membership in a unit; appointments point at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Membership {
    /// IdCompanyProfessional.
    pub id: i64,
    /// The unit.
    pub company_id: i64,
}

/// What only an admin changes: role, colour, status and units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Employment {
    /// Agenda colour, one of [`PALETTE`].
    pub color: String,
    /// The role (profile type).
    pub role: Role,
    /// Generic status: 0 pending, 1 active, 2 inactive.
    pub status: i16,
    /// Units the professional works in; the first is their own.
    pub memberships: Vec<Membership>,
}

impl Employment {
    /// The units, own unit first.
    pub fn company_ids(&self) -> Vec<i64> {
        self.memberships.iter().map(|m| m.company_id).collect()
    }
}

/// The professional and my-profile forms as sent. The admin's form adds `status`,
/// `idCompany`, `color` and `idTypeProfile` (and, optionally, `idsCompanies`: more units).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ProfessionalForm {
    /// Full name.
    pub name: String,
    /// CPF, masked or not.
    pub cpf: Option<String>,
    /// E-mail.
    pub email: String,
    /// Mobile phone.
    pub phone: String,
    /// WhatsApp flag.
    pub whats_app: bool,
    /// `YYYY-MM-DD`.
    pub birth_date: Option<String>,
    /// CEP.
    pub cep: String,
    /// Street.
    pub street: String,
    /// Number.
    pub number: String,
    /// Neighbourhood.
    pub district: String,
    /// City.
    pub city: String,
    /// UF.
    pub state: String,
    /// Complement.
    pub complement: Option<String>,
    /// Generic status (admin form).
    pub status: Option<i16>,
    /// Own unit (admin form).
    pub id_company: Option<i64>,
    /// More units (admin form, optional).
    pub ids_companies: Vec<i64>,
    /// Colour (admin form).
    pub color: Option<String>,
    /// Role id (admin form).
    pub id_type_profile: Option<i64>,
}

/// The admin's part of the form, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmploymentInput {
    /// Colour.
    pub color: String,
    /// Role.
    pub role: Role,
    /// Status.
    pub status: i16,
    /// Units, own unit first, without repeats.
    pub company_ids: Vec<i64>,
}

impl ProfessionalForm {
    /// Applies spec 02 §5 'Professional and my profile' to the personal part.
    pub fn validate_personal(&self, today: NaiveDate) -> Result<PersonalData, FieldErrors> {
        let mut errors = FieldErrors::default();
        let personal = self.personal(today, &mut errors);
        match personal {
            Some(personal) if errors.is_empty() => Ok(personal),
            _ => Err(errors),
        }
    }

    /// Applies the whole admin form: personal data plus unit, colour, profile and status.
    /// `status` defaults to pending (0) on registration.
    pub fn validate_admin(&self, today: NaiveDate) -> Result<(PersonalData, EmploymentInput), FieldErrors> {
        let mut errors = FieldErrors::default();
        let personal = self.personal(today, &mut errors);
        let own = self.id_company.filter(|id| *id > 0);
        errors.check(own.is_none(), "idCompany", "Escolha a empresa");
        let color = self.color.as_deref().map(str::trim).unwrap_or_default().to_uppercase();
        errors.check(!PALETTE.contains(&color.as_str()), "color", "Informe uma cor");
        let role = self.id_type_profile.and_then(Role::from_id);
        errors.check(role.is_none(), "idTypeProfile", "Informe o perfil");
        let status = self.status.unwrap_or(status::PENDING);
        errors.check(!(0..=2).contains(&status), "status", "Escolha um Status");
        match (personal, own, role) {
            (Some(personal), Some(own), Some(role)) if errors.is_empty() => {
                let mut company_ids = vec![own];
                for id in &self.ids_companies {
                    if *id > 0 && !company_ids.contains(id) {
                        company_ids.push(*id);
                    }
                }
                Ok((personal, EmploymentInput { color, role, status, company_ids }))
            }
            _ => Err(errors),
        }
    }

    /// The personal part, with the text bounds (name 120, e-mail 254, CPF and mobile as
    /// typed 30, the address's own).
    fn personal(&self, today: NaiveDate, errors: &mut FieldErrors) -> Option<PersonalData> {
        let name = self.name.split_whitespace().collect::<Vec<_>>().join(" ");
        errors.check_length("name", &name, MAX_NAME);
        errors.check_length("email", self.email.trim(), MAX_EMAIL);
        errors.check_length("phone", self.phone.trim(), MAX_MASKED);
        errors.check_length("cpf", self.cpf.as_deref().unwrap_or_default().trim(), MAX_MASKED);
        errors.check(name.is_empty(), "name", "Digite o nome completo");
        errors.check(!is_full_name(&name, 2), "name", "Digite o nome completo");
        let email = if self.email.trim().is_empty() {
            errors.add("email", "Digite o e-mail");
            None
        } else {
            Email::parse(&self.email).map_err(|e| errors.add("email", &e.to_string())).ok()
        };
        let phone = only_digits(&self.phone);
        errors.check(phone.is_empty(), "phone", "Digite o número do celular");
        errors.check(!is_mobile(&phone), "phone", "Informe um número válido");
        let cpf = match self.cpf.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            None => {
                errors.add("cpf", "Digite o CPF");
                None
            }
            Some(raw) => Cpf::parse(raw).map_err(|e| errors.add("cpf", &e.to_string())).ok(),
        };
        let birth_date = form_date(self.birth_date.as_deref())
            .ok()
            .flatten()
            .filter(|date| is_valid_professional_birth_date(*date, today));
        errors.check(birth_date.is_none(), "birthDate", "Data de nascimento inválida");
        let address = address(
            &AddressInput {
                zip_code: self.cep.clone(),
                street: self.street.clone(),
                number: self.number.clone(),
                district: self.district.clone(),
                city: self.city.clone(),
                state: self.state.clone(),
                complement: self.complement.clone().unwrap_or_default(),
            },
            "cep",
            errors,
        );
        Some(PersonalData {
            name,
            cpf: cpf?.as_str().to_owned(),
            email: email?.into(),
            phone,
            whatsapp: self.whats_app,
            birth_date,
            address,
        })
    }
}

/// One weekday of working hours as the form sends it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkingDayForm {
    /// 0 (Sunday) to 6.
    pub week_day: Option<i64>,
    /// First period's start.
    pub first_start: Option<String>,
    /// First period's end.
    pub first_end: Option<String>,
    /// Second period's start.
    pub second_start: Option<String>,
    /// Second period's end.
    pub second_end: Option<String>,
    /// Third period's start.
    pub third_start: Option<String>,
    /// Third period's end.
    pub third_end: Option<String>,
}

impl WorkingDayForm {
    /// Applies spec 02 §5 'Working-hours day'; no period at all is a day off.
    pub fn validate(&self) -> Result<(u8, Vec<Period>), FieldErrors> {
        let week_day = self.week_day.filter(|d| (0..=6).contains(d));
        let periods = working_day(&WorkingDayInput {
            first_start: self.first_start.clone(),
            first_end: self.first_end.clone(),
            second_start: self.second_start.clone(),
            second_end: self.second_end.clone(),
            third_start: self.third_start.clone(),
            third_end: self.third_end.clone(),
        });
        match (week_day, periods) {
            (Some(day), Ok(periods)) => Ok((day as u8, periods)),
            (day, result) => {
                let mut errors = result.err().unwrap_or_default();
                errors.check(day.is_none(), "weekDay", "Dia da semana inválido");
                Err(errors)
            }
        }
    }
}

/// A service the professional performs, with their own time and price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferedService {
    /// IdCompanyProfessionalService.
    pub id: i64,
    /// The catalogue service.
    pub service_id: i64,
    /// Minutes it takes.
    pub minutes: i64,
    /// Price in cents.
    pub cents: i64,
    /// Sold as a combo.
    pub combo: bool,
    /// Offered or not.
    pub active: bool,
    /// 'Intervalo após': minutes the professional stays busy after it (cleaning after a
    /// 'Pigmentação'), 0 to [`MAX_INTERVAL_AFTER`] (issue 45).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub interval_after: i64,
}

fn is_zero(minutes: &i64) -> bool {
    *minutes == 0
}

/// The longest 'Intervalo após', in minutes.
pub const MAX_INTERVAL_AFTER: i64 = 120;

/// The professional-service form as sent: idService, value, time, status (and combo).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceForm {
    /// Catalogue service.
    pub id_service: Option<i64>,
    /// Price: a number or a pt-BR money text.
    pub value: serde_json::Value,
    /// Minutes.
    pub time: Option<i64>,
    /// Active or not.
    pub status: Option<bool>,
    /// Combo flag.
    pub combo: bool,
    /// 'Intervalo após', in minutes; absent is 0.
    pub interval_after: Option<i64>,
}

impl ServiceForm {
    /// Applies spec 02 §5 'Service' and returns the service as offered under `id`.
    pub fn validate(&self, id: i64) -> Result<OfferedService, FieldErrors> {
        let cents = money_cents(&self.value);
        let mut errors = professional_service(self.id_service, self.time, cents);
        errors.check(self.status.is_none(), "status", "Escolha um Status");
        let interval_after = self.interval_after.unwrap_or(0);
        errors.check(
            !(0..=MAX_INTERVAL_AFTER).contains(&interval_after),
            "intervalAfter",
            "O intervalo deve ser de 0 a 120 minutos",
        );
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(OfferedService {
            id,
            service_id: self.id_service.unwrap_or_default(),
            minutes: self.time.unwrap_or_default(),
            cents: cents.unwrap_or_default(),
            combo: self.combo,
            active: self.status.unwrap_or(true),
            interval_after,
        })
    }
}

/// A staff member.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Professional {
    personal: Option<PersonalData>,
    employment: Option<Employment>,
    hours: [Vec<Period>; 7],
    services: Vec<OfferedService>,
    /// Commission rates (issue 42), `None` until first set.
    commission: Option<CommissionRates>,
}

impl Professional {
    /// Personal data, `None` before registration.
    pub fn personal(&self) -> Option<&PersonalData> {
        self.personal.as_ref()
    }

    /// Commission rates in force, `None` until first set.
    pub fn commission(&self) -> Option<&CommissionRates> {
        self.commission.as_ref()
    }

    /// Role, colour, status and units, `None` before registration.
    pub fn employment(&self) -> Option<&Employment> {
        self.employment.as_ref()
    }

    /// Working periods per weekday (0 = Sunday).
    pub fn hours(&self) -> &[Vec<Period>; 7] {
        &self.hours
    }

    /// Services offered, in the order they were added.
    pub fn services(&self) -> &[OfferedService] {
        &self.services
    }
}

/// What can be done with a professional.
#[derive(Debug, Clone, PartialEq)]
pub enum ProfessionalCommand {
    /// Create the professional.
    Register {
        /// Personal data.
        personal: PersonalData,
        /// Place in the shop.
        employment: Employment,
    },
    /// Change personal data (admin form or my-profile).
    UpdatePersonal(PersonalData),
    /// Change role, colour, status or units (admin only).
    UpdateEmployment(Employment),
    /// The admin's form: personal data and employment at once.
    Update {
        /// Personal data.
        personal: PersonalData,
        /// Place in the shop.
        employment: Employment,
    },
    /// Set one weekday's periods (none = day off).
    SetWorkingDay {
        /// 0 (Sunday) to 6.
        week_day: u8,
        /// Up to three ordered periods.
        periods: Vec<Period>,
    },
    /// Start offering a catalogue service.
    AddService(OfferedService),
    /// Change an offered service's time, price, combo flag or status.
    ChangeService(OfferedService),
    /// Set the commission rates, in force from now on (issue 42).
    SetCommission(CommissionRates),
}

/// What happened to a professional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ProfessionalEvent {
    /// The professional was created.
    ProfessionalRegistered {
        /// Personal data.
        personal: PersonalData,
        /// Place in the shop.
        employment: Employment,
    },
    /// Personal data changed.
    PersonalDataChanged(PersonalData),
    /// Role, colour, status or units changed.
    EmploymentChanged(Employment),
    /// One weekday's working periods were set.
    WorkingDaySet {
        /// 0 (Sunday) to 6.
        week_day: u8,
        /// The periods; empty is a day off.
        periods: Vec<Period>,
    },
    /// A service is now offered.
    ServiceAdded(OfferedService),
    /// An offered service changed.
    ServiceChanged(OfferedService),
    /// The commission rates in force from now on (issue 42).
    CommissionRatesSet(CommissionRates),
}

impl DomainEvent for ProfessionalEvent {
    fn event_type(&self) -> String {
        match self {
            ProfessionalEvent::ProfessionalRegistered { .. } => "ProfessionalRegistered",
            ProfessionalEvent::PersonalDataChanged(_) => "PersonalDataChanged",
            ProfessionalEvent::EmploymentChanged(_) => "EmploymentChanged",
            ProfessionalEvent::WorkingDaySet { .. } => "WorkingDaySet",
            ProfessionalEvent::ServiceAdded(_) => "ServiceAdded",
            ProfessionalEvent::ServiceChanged(_) => "ServiceChanged",
            ProfessionalEvent::CommissionRatesSet(_) => "CommissionRatesSet",
        }
        .to_owned()
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
    /// No such professional.
    #[error("Profissional não encontrado.")]
    NotFound,
    /// The service is offered already.
    #[error("Este serviço já está cadastrado para o profissional.")]
    ServiceAlreadyOffered,
    /// No such offered service.
    #[error("Serviço não encontrado.")]
    ServiceNotFound,
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
        if let ProfessionalCommand::Register { personal, employment } = command {
            if self.personal.is_some() {
                return Err(ProfessionalError::AlreadyRegistered);
            }
            sink.write(ProfessionalEvent::ProfessionalRegistered { personal, employment }, self).await;
            return Ok(());
        }
        let (Some(personal), Some(employment)) = (&self.personal, &self.employment) else {
            return Err(ProfessionalError::NotFound);
        };
        if let ProfessionalCommand::Update { personal: new_personal, employment: new_employment } = command {
            // One append for both, so the form is saved whole or not at all.
            let personal_changed = *personal != new_personal;
            let employment_changed = *employment != new_employment;
            if personal_changed {
                sink.write(ProfessionalEvent::PersonalDataChanged(new_personal), self).await;
            }
            if employment_changed {
                sink.write(ProfessionalEvent::EmploymentChanged(new_employment), self).await;
            }
            return Ok(());
        }
        // Saving what is already there records nothing.
        let event = match command {
            ProfessionalCommand::Register { .. } | ProfessionalCommand::Update { .. } => {
                unreachable!("handled above")
            }
            ProfessionalCommand::UpdatePersonal(data) => {
                (*personal != data).then_some(ProfessionalEvent::PersonalDataChanged(data))
            }
            ProfessionalCommand::UpdateEmployment(data) => {
                (*employment != data).then_some(ProfessionalEvent::EmploymentChanged(data))
            }
            ProfessionalCommand::SetWorkingDay { week_day, periods } => (self.hours[usize::from(week_day)]
                != periods)
                .then_some(ProfessionalEvent::WorkingDaySet { week_day, periods }),
            ProfessionalCommand::AddService(service) => {
                if self.services.iter().any(|s| s.service_id == service.service_id) {
                    return Err(ProfessionalError::ServiceAlreadyOffered);
                }
                Some(ProfessionalEvent::ServiceAdded(service))
            }
            ProfessionalCommand::ChangeService(service) => {
                let Some(current) = self.services.iter().find(|s| s.id == service.id) else {
                    return Err(ProfessionalError::ServiceNotFound);
                };
                if self.services.iter().any(|s| s.id != service.id && s.service_id == service.service_id) {
                    return Err(ProfessionalError::ServiceAlreadyOffered);
                }
                (*current != service).then_some(ProfessionalEvent::ServiceChanged(service))
            }
            ProfessionalCommand::SetCommission(rates) => (self.commission.as_ref() != Some(&rates))
                .then_some(ProfessionalEvent::CommissionRatesSet(rates)),
        };
        if let Some(event) = event {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ProfessionalEvent::ProfessionalRegistered { personal, employment } => {
                self.personal = Some(personal);
                self.employment = Some(employment);
            }
            ProfessionalEvent::PersonalDataChanged(personal) => self.personal = Some(personal),
            ProfessionalEvent::EmploymentChanged(employment) => self.employment = Some(employment),
            ProfessionalEvent::WorkingDaySet { week_day, periods } => {
                if let Some(day) = self.hours.get_mut(usize::from(week_day)) {
                    *day = periods;
                }
            }
            ProfessionalEvent::ServiceAdded(service) => self.services.push(service),
            ProfessionalEvent::ServiceChanged(service) => {
                if let Some(current) = self.services.iter_mut().find(|s| s.id == service.id) {
                    *current = service;
                }
            }
            ProfessionalEvent::CommissionRatesSet(rates) => self.commission = Some(rates),
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 22).unwrap_or_default()
    }

    fn form() -> ProfessionalForm {
        ProfessionalForm {
            name: "Diego  Barbeiro".into(),
            cpf: Some("529.982.247-25".into()),
            email: "Diego@Navalha.dev".into(),
            phone: "(11) 9 8765-4321".into(),
            whats_app: true,
            birth_date: Some("1990-04-01".into()),
            cep: "01042-001".into(),
            street: "Rua Barão de Itapetininga".into(),
            number: "50".into(),
            district: "República".into(),
            city: "São Paulo".into(),
            state: "SP".into(),
            complement: None,
            status: None,
            id_company: Some(1),
            ids_companies: vec![2, 1],
            color: Some("#ff9800".into()),
            id_type_profile: Some(4),
        }
    }

    fn personal() -> PersonalData {
        form().validate_personal(today()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn employment() -> Employment {
        Employment {
            color: "#FF9800".into(),
            role: Role::Barber1,
            status: status::PENDING,
            memberships: vec![Membership { id: 10, company_id: 1 }],
        }
    }

    fn registered() -> Vec<ProfessionalEvent> {
        vec![ProfessionalEvent::ProfessionalRegistered { personal: personal(), employment: employment() }]
    }

    #[test]
    fn the_admin_form_is_normalised_with_pending_status_and_own_unit_first() {
        let (personal, employment) = form().validate_admin(today()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(personal.name, "Diego Barbeiro");
        assert_eq!(personal.cpf, "52998224725");
        assert_eq!(personal.email, "diego@navalha.dev");
        assert_eq!(employment.color, "#FF9800");
        assert_eq!(employment.role, Role::Barber1);
        assert_eq!(employment.status, status::PENDING);
        assert_eq!(employment.company_ids, vec![1, 2]);
    }

    #[test]
    fn each_professional_rule_has_its_message() {
        let cases: Vec<(ProfessionalForm, &str, &str)> = vec![
            (ProfessionalForm { name: "".into(), ..form() }, "name", "Digite o nome completo"),
            (ProfessionalForm { name: "Diego".into(), ..form() }, "name", "Digite o nome completo"),
            (ProfessionalForm { email: "".into(), ..form() }, "email", "Digite o e-mail"),
            (ProfessionalForm { email: "x@y".into(), ..form() }, "email", "E-mail inválido"),
            (ProfessionalForm { phone: "".into(), ..form() }, "phone", "Digite o número do celular"),
            (
                ProfessionalForm { phone: "(11) 8765-4321".into(), ..form() },
                "phone",
                "Informe um número válido",
            ),
            (ProfessionalForm { cpf: None, ..form() }, "cpf", "Digite o CPF"),
            (ProfessionalForm { cpf: Some("111.111.111-11".into()), ..form() }, "cpf", "CPF inválido"),
            (ProfessionalForm { birth_date: None, ..form() }, "birthDate", "Data de nascimento inválida"),
            (
                ProfessionalForm { birth_date: Some("-".into()), ..form() },
                "birthDate",
                "Data de nascimento inválida",
            ),
            (
                ProfessionalForm { birth_date: Some("2016-01-01".into()), ..form() },
                "birthDate",
                "Data de nascimento inválida",
            ),
            (
                ProfessionalForm { birth_date: Some("1900-12-31".into()), ..form() },
                "birthDate",
                "Data de nascimento inválida",
            ),
            (ProfessionalForm { cep: "".into(), ..form() }, "cep", "Digite o CEP"),
            (
                ProfessionalForm { street: "Barão".into(), ..form() },
                "street",
                "Digite o nome da rua completo",
            ),
            (ProfessionalForm { number: "".into(), ..form() }, "number", "Digite um número válido."),
            (ProfessionalForm { number: "100000".into(), ..form() }, "number", "Digite um número válido."),
            (ProfessionalForm { district: "".into(), ..form() }, "district", "Digite o bairro"),
            (ProfessionalForm { city: " ".into(), ..form() }, "city", "Digite a cidade"),
            (ProfessionalForm { state: "--".into(), ..form() }, "state", "Escolha um estado"),
            (ProfessionalForm { id_company: Some(0), ..form() }, "idCompany", "Escolha a empresa"),
            (ProfessionalForm { color: Some("#123456".into()), ..form() }, "color", "Informe uma cor"),
            (ProfessionalForm { color: None, ..form() }, "color", "Informe uma cor"),
            (ProfessionalForm { id_type_profile: None, ..form() }, "idTypeProfile", "Informe o perfil"),
            (ProfessionalForm { id_type_profile: Some(9), ..form() }, "idTypeProfile", "Informe o perfil"),
            (ProfessionalForm { status: Some(5), ..form() }, "status", "Escolha um Status"),
        ];
        for (form, field, message) in cases {
            let errors = form.validate_admin(today()).err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(message), "{field}");
        }
    }

    #[test]
    fn each_professional_text_has_its_bound() {
        use crate::validation::{msg_too_long, MAX_CITY, MAX_COMPLEMENT, MAX_DISTRICT, MAX_STREET};
        let name = |n: usize| format!("Diego {}", "b".repeat(n - 6));
        let email = |n: usize| format!("{}@navalha.dev", "d".repeat(n - 12));
        let at_the_bounds = ProfessionalForm {
            name: name(MAX_NAME),
            email: email(MAX_EMAIL),
            street: format!("Rua {}", "c".repeat(MAX_STREET - 4)),
            district: "d".repeat(MAX_DISTRICT),
            city: "c".repeat(MAX_CITY),
            complement: Some("e".repeat(MAX_COMPLEMENT)),
            ..form()
        };
        assert!(at_the_bounds.validate_admin(today()).is_ok());
        let cases: Vec<(ProfessionalForm, &str, usize)> = vec![
            (ProfessionalForm { name: name(MAX_NAME + 1), ..form() }, "name", MAX_NAME),
            (ProfessionalForm { email: email(MAX_EMAIL + 1), ..form() }, "email", MAX_EMAIL),
            (
                ProfessionalForm { phone: format!("11987654321{}", "-".repeat(MAX_MASKED)), ..form() },
                "phone",
                MAX_MASKED,
            ),
            (
                ProfessionalForm { cpf: Some(format!("52998224725{}", "-".repeat(MAX_MASKED))), ..form() },
                "cpf",
                MAX_MASKED,
            ),
            (
                ProfessionalForm { cep: format!("01042001{}", ".".repeat(MAX_MASKED)), ..form() },
                "cep",
                MAX_MASKED,
            ),
            (ProfessionalForm { city: "c".repeat(MAX_CITY + 1), ..form() }, "city", MAX_CITY),
            (
                ProfessionalForm { complement: Some("e".repeat(MAX_COMPLEMENT + 1)), ..form() },
                "complement",
                MAX_COMPLEMENT,
            ),
        ];
        for (form, field, max) in cases {
            let errors = form.validate_personal(today()).err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(msg_too_long(max).as_str()), "{field}: {errors:?}");
        }
    }

    #[test]
    fn working_days_and_services_are_checked() {
        let day = WorkingDayForm {
            week_day: Some(7),
            first_start: Some("09:00".into()),
            first_end: Some("12:00".into()),
            ..WorkingDayForm::default()
        };
        assert_eq!(day.validate().err().unwrap_or_default().get("weekDay"), Some("Dia da semana inválido"));
        let day = WorkingDayForm { week_day: Some(1), second_start: Some("13:00".into()), ..day };
        assert_eq!(
            day.validate().err().unwrap_or_default().get("secondEnd"),
            Some("Preencha a horário de fim")
        );
        let service = ServiceForm {
            id_service: Some(3),
            value: serde_json::json!("1.234,50"),
            time: Some(30),
            status: Some(true),
            combo: false,
            interval_after: None,
        };
        assert_eq!(service.validate(7).map(|s| (s.cents, s.interval_after)), Ok((123_450, 0)));
        let cleaning = ServiceForm { interval_after: Some(120), ..service.clone() };
        assert_eq!(cleaning.validate(7).map(|s| s.interval_after), Ok(120));
        for out_of_range in [-1, 121] {
            let form = ServiceForm { interval_after: Some(out_of_range), ..service.clone() };
            assert_eq!(
                form.validate(7).err().unwrap_or_default().get("intervalAfter"),
                Some("O intervalo deve ser de 0 a 120 minutos")
            );
        }
        assert_eq!(
            ServiceForm { value: serde_json::json!(0), ..service.clone() }
                .validate(7)
                .err()
                .unwrap_or_default()
                .get("value"),
            Some("O valor precisa ser maior que 0")
        );
        assert_eq!(
            ServiceForm { value: serde_json::Value::Null, ..service.clone() }
                .validate(7)
                .err()
                .unwrap_or_default()
                .get("value"),
            Some("O campo Valor é obrigatório")
        );
        assert_eq!(
            ServiceForm { status: None, ..service }.validate(7).err().unwrap_or_default().get("status"),
            Some("Escolha um Status")
        );
    }

    #[test]
    fn registering_and_updating() {
        TestFramework::<Professional>::with(())
            .given_no_previous_events()
            .when(ProfessionalCommand::Register { personal: personal(), employment: employment() })
            .then_expect_events(registered());
        TestFramework::<Professional>::with(())
            .given(registered())
            .when(ProfessionalCommand::UpdatePersonal(personal()))
            .then_expect_events(vec![]);
        let active = Employment { status: status::ACTIVE, ..employment() };
        TestFramework::<Professional>::with(())
            .given(registered())
            .when(ProfessionalCommand::UpdateEmployment(active.clone()))
            .then_expect_events(vec![ProfessionalEvent::EmploymentChanged(active)]);
        TestFramework::<Professional>::with(())
            .given_no_previous_events()
            .when(ProfessionalCommand::UpdatePersonal(personal()))
            .then_expect_error(ProfessionalError::NotFound);
        let renamed = PersonalData { name: "Diego Navalha".into(), ..personal() };
        let inactive = Employment { status: status::INACTIVE, ..employment() };
        TestFramework::<Professional>::with(())
            .given(registered())
            .when(ProfessionalCommand::Update { personal: renamed.clone(), employment: inactive.clone() })
            .then_expect_events(vec![
                ProfessionalEvent::PersonalDataChanged(renamed),
                ProfessionalEvent::EmploymentChanged(inactive),
            ]);
    }

    #[test]
    fn a_service_is_offered_once_and_changed_by_its_id() {
        let haircut = OfferedService {
            id: 1,
            service_id: 3,
            minutes: 30,
            cents: 4500,
            combo: false,
            active: true,
            interval_after: 0,
        };
        let mut events = registered();
        events.push(ProfessionalEvent::ServiceAdded(haircut));
        TestFramework::<Professional>::with(())
            .given(events.clone())
            .when(ProfessionalCommand::AddService(OfferedService { id: 2, ..haircut }))
            .then_expect_error(ProfessionalError::ServiceAlreadyOffered);
        TestFramework::<Professional>::with(())
            .given(events.clone())
            .when(ProfessionalCommand::ChangeService(OfferedService { id: 9, ..haircut }))
            .then_expect_error(ProfessionalError::ServiceNotFound);
        let longer = OfferedService { minutes: 45, ..haircut };
        TestFramework::<Professional>::with(())
            .given(events)
            .when(ProfessionalCommand::ChangeService(longer))
            .then_expect_events(vec![ProfessionalEvent::ServiceChanged(longer)]);
    }

    #[test]
    fn events_are_pinned() {
        let period = Period {
            start: crate::validation::TimeOfDay::from_minutes(9 * 60).unwrap_or_else(|| panic!("a time")),
            end: crate::validation::TimeOfDay::from_minutes(12 * 60).unwrap_or_else(|| panic!("a time")),
        };
        let offered = OfferedService {
            id: 3,
            service_id: 1,
            minutes: 30,
            cents: 4500,
            combo: true,
            active: true,
            interval_after: 0,
        };
        crate::event_payload::assert_pinned::<Professional>(&[
            ProfessionalEvent::ProfessionalRegistered { personal: personal(), employment: employment() },
            ProfessionalEvent::PersonalDataChanged(personal()),
            ProfessionalEvent::EmploymentChanged(employment()),
            ProfessionalEvent::WorkingDaySet { week_day: 2, periods: vec![period] },
            ProfessionalEvent::ServiceAdded(offered),
            ProfessionalEvent::ServiceChanged(offered),
            ProfessionalEvent::CommissionRatesSet(crate::commission::CommissionRates {
                service_points: 4000,
                product_points: 1000,
                services: vec![crate::commission::ServiceRate {
                    service_id: 5,
                    rate: crate::commission::Rate::FixedCents(3000),
                }],
                card_fee_shared: true,
                partner: false,
            }),
        ]);
    }
}
