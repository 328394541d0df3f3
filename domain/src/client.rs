//! A client of the barbershop: a record staff keep (clients do not sign in here).
//!
//! Aggregate id = the client's numeric id. One client per CPF, across all streams.

use chrono::NaiveDate;
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::validation::{
    is_full_name, is_mobile, is_valid_client_birth_date, FieldErrors, MAX_EMAIL, MAX_MASKED, MAX_NAME,
};
use crate::values::{only_digits, Cpf, Email};

/// The unique-claim scope of client CPFs.
pub const CPF_SCOPE: &str = "client_cpf";

/// The value a client's CPF claims in [`CPF_SCOPE`]: unique within the business, so the same
/// person may be a client of two businesses, and a 409 tells one nothing of the other's.
pub fn cpf_claim(business_id: i64, cpf: &str) -> String {
    format!("{business_id}:{cpf}")
}
/// Answer to a second client with the same CPF.
pub const MSG_DUPLICATE_CPF: &str = "Já existe um cliente cadastrado com este CPF.";

/// What staff can change about a client (the CPF is fixed at registration).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientDetails {
    /// Full name.
    pub name: String,
    /// E-mail.
    pub email: String,
    /// Mobile phone digits.
    pub phone: String,
    /// Whether the phone takes WhatsApp.
    pub whatsapp: bool,
    /// Birth date.
    pub birth_date: Option<NaiveDate>,
    /// Active or not.
    pub status: bool,
}

/// The client form as sent (`POST user/professional`, `PUT user/{id}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ClientForm {
    /// Full name.
    pub name: String,
    /// CPF (digits or masked); null when editing.
    pub cpf: Option<String>,
    /// E-mail.
    pub email: String,
    /// Phone (digits or masked).
    pub phone: String,
    /// WhatsApp flag.
    pub whats_app: bool,
    /// `YYYY-MM-DD`, `-`, empty or null.
    pub birth_date: Option<String>,
    /// Active or not.
    pub status: Option<bool>,
}

/// What the client form's CPF is to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CpfRule {
    /// Registration: required, checked and returned.
    Required,
    /// A record without a CPF being edited: checked and returned when given.
    Optional,
    /// A record with its CPF being edited: not read (the form sends null).
    Ignored,
}

impl ClientForm {
    /// Applies spec 02 §5 'Client', with the text bounds (name 120, e-mail 254, CPF and
    /// mobile as typed 30), reading the CPF by `cpf_rule`.
    pub fn validate(
        &self,
        cpf_rule: CpfRule,
        today: NaiveDate,
    ) -> Result<(Option<Cpf>, ClientDetails), FieldErrors> {
        let mut errors = FieldErrors::default();
        let name = checked_name(&self.name, &mut errors);
        errors.check_length("email", self.email.trim(), MAX_EMAIL);
        let email = if self.email.trim().is_empty() {
            errors.add("email", "Digite o e-mail");
            None
        } else {
            Email::parse(&self.email).map_err(|e| errors.add("email", &e.to_string())).ok()
        };
        let phone = checked_phone(&self.phone, &mut errors);
        let cpf = match cpf_rule {
            CpfRule::Ignored => None,
            rule => checked_cpf(self.cpf.as_deref(), rule == CpfRule::Required, &mut errors),
        };
        let birth_date =
            match self.birth_date.as_deref().map(str::trim).filter(|d| !d.is_empty() && *d != "-") {
                None => None,
                Some(text) => {
                    let date = NaiveDate::parse_from_str(text.get(..10).unwrap_or(text), "%Y-%m-%d").ok();
                    match date.filter(|d| is_valid_client_birth_date(*d, today)) {
                        Some(date) => Some(date),
                        None => {
                            errors.add("birthDate", "Digite uma data válida");
                            None
                        }
                    }
                }
            };
        errors.check(self.status.is_none(), "status", "Escolha um Status");
        match email {
            Some(email) if errors.is_empty() => Ok((
                cpf,
                ClientDetails {
                    name,
                    email: email.into(),
                    phone,
                    whatsapp: self.whats_app,
                    birth_date,
                    status: self.status.unwrap_or(true),
                },
            )),
            _ => Err(errors),
        }
    }
}

fn checked_name(typed: &str, errors: &mut FieldErrors) -> String {
    let name = typed.split_whitespace().collect::<Vec<_>>().join(" ");
    errors.check_length("name", &name, MAX_NAME);
    errors.check(name.is_empty(), "name", "Digite o nome completo");
    errors.check(!is_full_name(&name, 3), "name", "Digite o nome completo");
    name
}

fn checked_phone(typed: &str, errors: &mut FieldErrors) -> String {
    errors.check_length("phone", typed.trim(), MAX_MASKED);
    let phone = only_digits(typed);
    errors.check(phone.is_empty(), "phone", "Digite o número do celular");
    errors.check(!is_mobile(&phone), "phone", "Informe um número válido");
    phone
}

/// The CPF as typed: `None` when absent (an error if `required`) or invalid.
fn checked_cpf(typed: Option<&str>, required: bool, errors: &mut FieldErrors) -> Option<Cpf> {
    errors.check_length("cpf", typed.unwrap_or_default().trim(), MAX_MASKED);
    match typed.map(str::trim).filter(|c| !c.is_empty()) {
        None => {
            errors.check(required, "cpf", "Digite o CPF");
            None
        }
        Some(raw) => Cpf::parse(raw).map_err(|e| errors.add("cpf", &e.to_string())).ok(),
    }
}

/// The desk's new client (`POST user/quick`, issue 45): a name and a mobile, and the CPF
/// if the client says it. The e-mail and the rest are completed later in the client form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct QuickClientForm {
    /// Full name.
    pub name: String,
    /// Mobile (digits or masked).
    pub phone: String,
    /// CPF (digits or masked), optional.
    pub cpf: Option<String>,
    /// WhatsApp flag.
    pub whats_app: bool,
}

impl QuickClientForm {
    /// The client form's rules for the name, the mobile and a CPF when given.
    pub fn validate(&self) -> Result<(Option<Cpf>, ClientDetails), FieldErrors> {
        let mut errors = FieldErrors::default();
        let name = checked_name(&self.name, &mut errors);
        let phone = checked_phone(&self.phone, &mut errors);
        let cpf = checked_cpf(self.cpf.as_deref(), false, &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        let details = ClientDetails {
            name,
            email: String::new(),
            phone,
            whatsapp: self.whats_app,
            birth_date: None,
            status: true,
        };
        Ok((cpf, details))
    }
}

/// A client.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Client {
    cpf: Option<String>,
    details: Option<ClientDetails>,
    /// Social providers linked to the client's app login (`GOOGLE`, ...).
    social_logins: Vec<String>,
    /// Registered online and not confirmed by staff yet.
    unconfirmed: bool,
}

impl Client {
    /// The client's current details, `None` before registration.
    pub fn details(&self) -> Option<&ClientDetails> {
        self.details.as_ref()
    }

    /// Whether the record is one the client made online that staff have not confirmed: a
    /// newcomer, whose online bookings the unit's newcomer rules bound.
    pub fn is_unconfirmed(&self) -> bool {
        self.unconfirmed
    }

    /// The CPF digits; `None` before registration and for a client added without one.
    pub fn cpf(&self) -> Option<&str> {
        self.cpf.as_deref().filter(|cpf| !cpf.is_empty())
    }

    /// `PASSWORD`, or the social provider the client signs in with.
    pub fn login_type(&self) -> &str {
        self.social_logins.last().map_or(LOGIN_PASSWORD, String::as_str)
    }
}

/// The login type of a client without social logins.
pub const LOGIN_PASSWORD: &str = "PASSWORD";

/// What staff can do with a client.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientCommand {
    /// Create the client.
    RegisterClient {
        /// The CPF, unique across clients; none for a client added at the desk with only a
        /// name and a mobile (issue 45), until staff complete the record.
        cpf: Option<Cpf>,
        /// The rest.
        details: ClientDetails,
        /// Registered by the client on a unit's public page, not by staff.
        online: bool,
    },
    /// Change the client's details, and give a client registered without a CPF theirs (a
    /// CPF, once recorded, never changes).
    UpdateClient {
        /// The details.
        details: ClientDetails,
        /// The CPF for a client without one; ignored when they have one.
        cpf: Option<Cpf>,
    },
    /// Link a social login (`GOOGLE`, ...) to the client's app account.
    LinkSocialLogin(String),
    /// 'Remover login social': back to e-mail and password only.
    RemoveSocialLogins,
    /// 'Confirmar cadastro': staff vouch for a record the client made online (issue 39).
    ConfirmClient,
}

/// What happened to a client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ClientEvent {
    /// The client was created.
    ClientRegistered {
        /// CPF digits.
        cpf: String,
        /// The rest.
        details: ClientDetails,
        /// Registered by the client on a unit's public page: what they typed, proven only
        /// by an e-mailed code, until staff confirm it (docs/online-booking.md).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        online: bool,
    },
    /// The client's details changed.
    ClientUpdated(ClientDetails),
    /// A client registered without a CPF was given theirs.
    CpfAdded {
        /// CPF digits.
        cpf: String,
    },
    /// A social login was linked.
    SocialLoginLinked {
        /// The provider (`GOOGLE`, ...).
        provider: String,
    },
    /// Every social login was removed: the client signs in with e-mail and password.
    SocialLoginsRemoved,
    /// Staff confirmed a record the client made online.
    ClientConfirmed,
}

impl DomainEvent for ClientEvent {
    fn event_type(&self) -> String {
        match self {
            ClientEvent::ClientRegistered { .. } => "ClientRegistered",
            ClientEvent::ClientUpdated(_) => "ClientUpdated",
            ClientEvent::CpfAdded { .. } => "CpfAdded",
            ClientEvent::SocialLoginLinked { .. } => "SocialLoginLinked",
            ClientEvent::SocialLoginsRemoved => "SocialLoginsRemoved",
            ClientEvent::ClientConfirmed => "ClientConfirmed",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a client command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// The id is taken.
    #[error("Cliente já cadastrado.")]
    AlreadyRegistered,
    /// No such client.
    #[error("Cliente não encontrado.")]
    NotFound,
}

impl Aggregate for Client {
    const TYPE: &'static str = "Client";
    type Command = ClientCommand;
    type Event = ClientEvent;
    type Error = ClientError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            ClientCommand::RegisterClient { cpf, details, online } => {
                if self.details.is_some() {
                    return Err(ClientError::AlreadyRegistered);
                }
                // Without a CPF the payload keeps its shape, with an empty one.
                let cpf = cpf.map(|cpf| cpf.as_str().to_owned()).unwrap_or_default();
                sink.write(ClientEvent::ClientRegistered { cpf, details, online }, self).await;
            }
            ClientCommand::ConfirmClient => {
                if self.details.is_none() {
                    return Err(ClientError::NotFound);
                }
                // Confirming a confirmed record records nothing.
                if self.unconfirmed {
                    sink.write(ClientEvent::ClientConfirmed, self).await;
                }
            }
            ClientCommand::UpdateClient { details, cpf } => {
                let Some(current) = self.details.clone() else { return Err(ClientError::NotFound) };
                if let Some(cpf) = cpf.filter(|_| self.cpf().is_none()) {
                    sink.write(ClientEvent::CpfAdded { cpf: cpf.as_str().to_owned() }, self).await;
                }
                // Saving an unchanged form records nothing.
                if current != details {
                    sink.write(ClientEvent::ClientUpdated(details), self).await;
                }
            }
            ClientCommand::LinkSocialLogin(provider) => {
                if self.details.is_none() {
                    return Err(ClientError::NotFound);
                }
                if !self.social_logins.contains(&provider) {
                    sink.write(ClientEvent::SocialLoginLinked { provider }, self).await;
                }
            }
            ClientCommand::RemoveSocialLogins => {
                if self.details.is_none() {
                    return Err(ClientError::NotFound);
                }
                // Nothing to remove records nothing.
                if !self.social_logins.is_empty() {
                    sink.write(ClientEvent::SocialLoginsRemoved, self).await;
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ClientEvent::ClientRegistered { cpf, details, online } => {
                self.cpf = Some(cpf);
                self.details = Some(details);
                self.unconfirmed = online;
            }
            ClientEvent::ClientConfirmed => self.unconfirmed = false,
            ClientEvent::ClientUpdated(details) => self.details = Some(details),
            ClientEvent::CpfAdded { cpf } => self.cpf = Some(cpf),
            ClientEvent::SocialLoginLinked { provider } => self.social_logins.push(provider),
            ClientEvent::SocialLoginsRemoved => self.social_logins.clear(),
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

    fn form() -> ClientForm {
        ClientForm {
            name: "João  da Silva".into(),
            cpf: Some("529.982.247-25".into()),
            email: "Joao@Exemplo.com".into(),
            phone: "(11) 9 8765-4321".into(),
            whats_app: true,
            birth_date: Some("1990-04-01".into()),
            status: Some(true),
        }
    }

    fn details() -> ClientDetails {
        form().validate(CpfRule::Required, today()).map(|(_, d)| d).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn a_valid_form_is_normalised() {
        let (cpf, details) = form().validate(CpfRule::Required, today()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(cpf.map(String::from).as_deref(), Some("52998224725"));
        assert_eq!(details.name, "João da Silva");
        assert_eq!(details.email, "joao@exemplo.com");
        assert_eq!(details.phone, "11987654321");
    }

    #[test]
    fn each_client_rule_has_its_message() {
        let cases: Vec<(ClientForm, &str, &str)> = vec![
            (ClientForm { name: "".into(), ..form() }, "name", "Digite o nome completo"),
            (ClientForm { name: "Jo".into(), ..form() }, "name", "Digite o nome completo"),
            (ClientForm { email: "".into(), ..form() }, "email", "Digite o e-mail"),
            (ClientForm { email: "joao@".into(), ..form() }, "email", "E-mail inválido"),
            (ClientForm { phone: "".into(), ..form() }, "phone", "Digite o número do celular"),
            (ClientForm { phone: "(91) 9 8765-4321".into(), ..form() }, "phone", "Informe um número válido"),
            (ClientForm { cpf: None, ..form() }, "cpf", "Digite o CPF"),
            (ClientForm { cpf: Some("012.345.678-90".into()), ..form() }, "cpf", "CPF inválido"),
            (
                ClientForm { birth_date: Some("2030-01-01".into()), ..form() },
                "birthDate",
                "Digite uma data válida",
            ),
            (
                ClientForm { birth_date: Some("1899-01-01".into()), ..form() },
                "birthDate",
                "Digite uma data válida",
            ),
            (ClientForm { status: None, ..form() }, "status", "Escolha um Status"),
        ];
        for (form, field, message) in cases {
            let errors = form.validate(CpfRule::Required, today()).err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(message), "{field}");
        }
        assert!(ClientForm { birth_date: Some("-".into()), ..form() }
            .validate(CpfRule::Required, today())
            .is_ok());
        assert!(
            ClientForm { cpf: None, ..form() }.validate(CpfRule::Ignored, today()).is_ok(),
            "editing sends cpf null"
        );
    }

    #[test]
    fn each_client_text_has_its_bound() {
        use crate::validation::msg_too_long;
        let name = |n: usize| format!("João {}", "á".repeat(n - 5));
        let email = |n: usize| format!("{}@exemplo.com", "j".repeat(n - 12));
        let at_the_bounds = ClientForm {
            name: name(MAX_NAME),
            email: email(MAX_EMAIL),
            phone: format!("(11) 9 8765-4321{}", "-".repeat(MAX_MASKED - 16)),
            cpf: Some(format!("529.982.247-25{}", ".".repeat(MAX_MASKED - 14))),
            ..form()
        };
        let (_, details) =
            at_the_bounds.validate(CpfRule::Required, today()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(details.name.chars().count(), MAX_NAME);
        let cases: Vec<(ClientForm, &str, usize)> = vec![
            (ClientForm { name: name(MAX_NAME + 1), ..form() }, "name", MAX_NAME),
            (ClientForm { name: "x".repeat(4000), ..form() }, "name", MAX_NAME),
            (ClientForm { email: email(MAX_EMAIL + 1), ..form() }, "email", MAX_EMAIL),
            (
                ClientForm { phone: format!("(11) 9 8765-4321{}", "-".repeat(MAX_MASKED - 15)), ..form() },
                "phone",
                MAX_MASKED,
            ),
            (
                ClientForm { cpf: Some(format!("529.982.247-25{}", ".".repeat(MAX_MASKED - 13))), ..form() },
                "cpf",
                MAX_MASKED,
            ),
        ];
        for (form, field, max) in cases {
            let errors = form.validate(CpfRule::Required, today()).err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(msg_too_long(max).as_str()), "{field}: {errors:?}");
        }
    }

    #[test]
    fn registering_then_updating() {
        let cpf = Cpf::parse("52998224725").unwrap_or_else(|_| panic!("cpf"));
        TestFramework::<Client>::with(())
            .given_no_previous_events()
            .when(ClientCommand::RegisterClient { cpf: Some(cpf), details: details(), online: false })
            .then_expect_events(vec![ClientEvent::ClientRegistered {
                cpf: "52998224725".into(),
                details: details(),
                online: false,
            }]);
        let changed = ClientDetails { status: false, ..details() };
        TestFramework::<Client>::with(())
            .given(vec![ClientEvent::ClientRegistered {
                cpf: "52998224725".into(),
                details: details(),
                online: false,
            }])
            .when(ClientCommand::UpdateClient { details: changed.clone(), cpf: None })
            .then_expect_events(vec![ClientEvent::ClientUpdated(changed)]);
    }

    #[test]
    fn a_client_added_at_the_desk_without_a_cpf_is_given_it_once() {
        let quick = QuickClientForm {
            name: "  Pedro   Alves ".into(),
            phone: "(11) 9 8765-4321".into(),
            cpf: None,
            whats_app: true,
        };
        let (cpf, details) = quick.validate().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((cpf, details.name.as_str(), details.email.as_str()), (None, "Pedro Alves", ""));
        assert!(details.status && details.whatsapp);
        let refused = QuickClientForm {
            name: "Pedro".into(),
            phone: "123".into(),
            cpf: Some("111.111.111-11".into()),
            ..quick.clone()
        };
        let errors = refused.validate().err().unwrap_or_default();
        assert_eq!(
            (errors.get("name"), errors.get("phone"), errors.get("cpf")),
            (Some("Digite o nome completo"), Some("Informe um número válido"), Some("CPF inválido"))
        );
        let given = QuickClientForm { cpf: Some("529.982.247-25".into()), ..quick.clone() }.validate();
        assert_eq!(
            given.ok().and_then(|(cpf, _)| cpf).map(|c| c.as_str().to_owned()).as_deref(),
            Some("52998224725")
        );

        let registered =
            ClientEvent::ClientRegistered { cpf: String::new(), details: details.clone(), online: false };
        TestFramework::<Client>::with(())
            .given_no_previous_events()
            .when(ClientCommand::RegisterClient { cpf: None, details: details.clone(), online: false })
            .then_expect_events(vec![registered.clone()]);
        let mut client = Client::default();
        client.apply(registered.clone());
        assert_eq!(client.cpf(), None, "an empty CPF is none");
        let cpf = || Cpf::parse("52998224725").unwrap_or_else(|_| panic!("cpf"));
        let completed = ClientDetails { email: "pedro@exemplo.com".into(), ..details.clone() };
        TestFramework::<Client>::with(())
            .given(vec![registered.clone()])
            .when(ClientCommand::UpdateClient { details: completed.clone(), cpf: Some(cpf()) })
            .then_expect_events(vec![
                ClientEvent::CpfAdded { cpf: "52998224725".into() },
                ClientEvent::ClientUpdated(completed.clone()),
            ]);
        // Once recorded, a CPF does not change.
        TestFramework::<Client>::with(())
            .given(vec![registered, ClientEvent::CpfAdded { cpf: "52998224725".into() }])
            .when(ClientCommand::UpdateClient { details: completed, cpf: Some(cpf()) })
            .then_expect_events(vec![ClientEvent::ClientUpdated(ClientDetails {
                email: "pedro@exemplo.com".into(),
                ..details
            })]);
        let form = ClientForm { cpf: Some("529.982.247-25".into()), ..form() };
        assert!(form.validate(CpfRule::Optional, today()).is_ok_and(|(cpf, _)| cpf.is_some()));
        assert!(ClientForm { cpf: None, ..form.clone() }
            .validate(CpfRule::Optional, today())
            .is_ok_and(|(cpf, _)| cpf.is_none()));
        let bad = ClientForm { cpf: Some("123".into()), ..form }.validate(CpfRule::Optional, today());
        assert!(bad.is_err_and(|e| e.get("cpf").is_some()));
    }

    #[test]
    fn removing_social_logins_leaves_password_only() {
        let registered =
            ClientEvent::ClientRegistered { cpf: "52998224725".into(), details: details(), online: false };
        TestFramework::<Client>::with(())
            .given(vec![registered.clone(), ClientEvent::SocialLoginLinked { provider: "GOOGLE".into() }])
            .when(ClientCommand::RemoveSocialLogins)
            .then_expect_events(vec![ClientEvent::SocialLoginsRemoved]);
        TestFramework::<Client>::with(())
            .given(vec![registered])
            .when(ClientCommand::RemoveSocialLogins)
            .then_expect_events(vec![]);
        let mut client = Client::default();
        client.apply(ClientEvent::ClientRegistered {
            cpf: "52998224725".into(),
            details: details(),
            online: false,
        });
        client.apply(ClientEvent::SocialLoginLinked { provider: "GOOGLE".into() });
        assert_eq!(client.login_type(), "GOOGLE");
        client.apply(ClientEvent::SocialLoginsRemoved);
        assert_eq!(client.login_type(), LOGIN_PASSWORD);
    }

    #[test]
    fn an_unchanged_save_records_nothing_and_unknown_clients_cannot_be_updated() {
        TestFramework::<Client>::with(())
            .given(vec![ClientEvent::ClientRegistered {
                cpf: "52998224725".into(),
                details: details(),
                online: false,
            }])
            .when(ClientCommand::UpdateClient { details: details(), cpf: None })
            .then_expect_events(vec![]);
        TestFramework::<Client>::with(())
            .given_no_previous_events()
            .when(ClientCommand::UpdateClient { details: details(), cpf: None })
            .then_expect_error(ClientError::NotFound);
    }

    #[test]
    fn a_record_made_online_is_unconfirmed_until_staff_confirm_it_once() {
        let online =
            ClientEvent::ClientRegistered { cpf: "52998224725".into(), details: details(), online: true };
        let mut client = Client::default();
        client.apply(online.clone());
        assert!(client.is_unconfirmed());
        client.apply(ClientEvent::ClientConfirmed);
        assert!(!client.is_unconfirmed());
        TestFramework::<Client>::with(())
            .given(vec![online.clone()])
            .when(ClientCommand::ConfirmClient)
            .then_expect_events(vec![ClientEvent::ClientConfirmed]);
        TestFramework::<Client>::with(())
            .given(vec![online, ClientEvent::ClientConfirmed])
            .when(ClientCommand::ConfirmClient)
            .then_expect_events(vec![]);
        let by_staff =
            ClientEvent::ClientRegistered { cpf: "52998224725".into(), details: details(), online: false };
        TestFramework::<Client>::with(())
            .given(vec![by_staff])
            .when(ClientCommand::ConfirmClient)
            .then_expect_events(vec![]);
        TestFramework::<Client>::with(())
            .given_no_previous_events()
            .when(ClientCommand::ConfirmClient)
            .then_expect_error(ClientError::NotFound);
        // Events recorded before the field read as staff registrations.
        let old: ClientEvent = serde_json::from_value(serde_json::json!({
            "ClientRegistered": { "cpf": "52998224725", "details": details() }
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(old, ClientEvent::ClientRegistered { online: false, .. }));
    }

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<Client>(&[
            ClientEvent::ClientRegistered { cpf: "52998224725".into(), details: details(), online: true },
            ClientEvent::ClientUpdated(details()),
            ClientEvent::CpfAdded { cpf: "52998224725".into() },
            ClientEvent::SocialLoginLinked { provider: "GOOGLE".into() },
            ClientEvent::SocialLoginsRemoved,
            ClientEvent::ClientConfirmed,
        ]);
    }
}
