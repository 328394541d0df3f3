//! A company: one barbershop unit, with its opening hours (one period a day) and its
//! photo gallery.
//!
//! Aggregate id = the company's numeric id. One company per CNPJ, across all streams.

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::commission::{ClubRule, CommissionSettings, PeriodKind};
use crate::money::{cents_from_reais, check_amount};
use crate::online::OnlineRules;
use crate::time_zone::{is_unit_zone, zone_of_address, MSG_BAD_TIME_ZONE};
use crate::validation::{
    address, is_mobile, AddressInput, FieldErrors, Period, TimeOfDay, MAX_EMAIL, MAX_LINK, MAX_MASKED,
    MAX_NAME, MAX_TEXT,
};
use crate::values::{only_digits, Address, Cnpj, Email};

pub use crate::time_zone::DEFAULT_TIME_ZONE;
/// The unique-claim scope of company CNPJs.
pub const CNPJ_SCOPE: &str = "company_cnpj";
/// Answer to a second company with the same CNPJ.
pub const MSG_DUPLICATE_CNPJ: &str = "Já existe uma empresa cadastrada com este CNPJ.";
/// Answer for an unknown company.
pub const MSG_NOT_FOUND: &str = "Empresa não encontrada.";
/// Most images a gallery holds (spec 02 §9).
pub const MAX_GALLERY_IMAGES: usize = 5;

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
    /// Its online-booking rules (the defaults in events recorded before there were any).
    #[serde(default)]
    pub online: OnlineRules,
    /// The most an ATTENDANT may discount, in percent of what is discounted (issue 41);
    /// `None`: no cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendant_discount_cap_percent: Option<i64>,
    /// Commissions (issue 42): the card machine's fees shared, the club rule, the usual
    /// period. Left out while the defaults, so profiles written before read the same.
    #[serde(default, skip_serializing_if = "CommissionSettings::is_default")]
    pub commission: CommissionSettings,
    /// Whether it sells more than its stock, the count then going below zero (issue 43);
    /// off by default, and left out while off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_negative_stock: bool,
    /// Which WhatsApp reminders its clients get before an appointment (issue 44); off for
    /// a new unit, and left out while off.
    #[serde(default, skip_serializing_if = "Reminders::is_off")]
    pub reminders: Reminders,
}

/// A unit's reminders before an appointment ('Lembretes', issue 44).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reminders {
    /// 24 hours before.
    pub before_24h: bool,
    /// 2 hours before.
    pub before_2h: bool,
}

impl Reminders {
    /// Neither.
    pub fn is_off(&self) -> bool {
        !self.before_24h && !self.before_2h
    }
}

/// The company form as sent (`POST company`, `PUT company/{id}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CompanyForm {
    /// Trade name.
    pub name: String,
    /// CNPJ, masked or not.
    pub cnpj: String,
    /// E-mail.
    pub email: String,
    /// Mobile phone.
    pub phone: String,
    /// WhatsApp flag.
    pub whats_app: bool,
    /// Active or not; required.
    pub status: Option<bool>,
    /// Facebook link.
    pub facebook: String,
    /// Instagram link.
    pub instagram: String,
    /// Free notes.
    pub observation: Option<String>,
    /// CEP.
    pub zip_code: String,
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
    /// Online booking: until how many hours before the start a client may cancel or move
    /// (0 to 72); left out keeps the current value (2 on create).
    #[schema(minimum = 0, maximum = 72)]
    pub online_cancel_cutoff_hours: Option<i64>,
    /// Online booking: how many future bookings one client may hold here (1 to 10); left
    /// out keeps the current value (2 on create).
    #[schema(minimum = 1, maximum = 10)]
    pub online_max_future_bookings: Option<i64>,
    /// Online booking: the percentage of a day's working minutes that newcomers (records
    /// made online, not confirmed by staff) may hold (0 to 100); left out keeps the current
    /// value (30 on create).
    #[schema(minimum = 0, maximum = 100)]
    pub online_newcomer_share_percent: Option<i64>,
    /// Online booking: after how many 'Não compareceu' in the last 90 days a client may
    /// no longer book online (0 to 20; 0 never blocks); left out keeps the current value (0
    /// on create, issue 44).
    #[schema(minimum = 0, maximum = 20)]
    pub online_no_show_limit: Option<i64>,
    /// The most an ATTENDANT may discount on a comanda, 0 to 100 (%); 100 is no cap. Left out
    /// keeps the current one.
    pub attendant_discount_cap_percent: Option<i64>,
    /// Commissions: the card machine's fee of a credit payment, percent with two decimals
    /// (3,49); left out keeps the current one (0 on create).
    #[schema(value_type = Option<f64>)]
    pub card_fee_credit_percent: Option<serde_json::Value>,
    /// The same for a debit payment.
    #[schema(value_type = Option<f64>)]
    pub card_fee_debit_percent: Option<serde_json::Value>,
    /// How a line the club covers earns: `plan` (the rate over its price, as any line) or
    /// `fixed` (`clubCommissionFixed` per unit); left out keeps the current one.
    pub club_commission_rule: Option<String>,
    /// With `clubCommissionRule: fixed`: the amount in reais.
    #[schema(value_type = Option<f64>)]
    pub club_commission_fixed: Option<serde_json::Value>,
    /// The usual commission period: `week`, `fortnight` or `month`; left out keeps it.
    pub commission_period: Option<String>,
    /// Whether the unit sells more than its stock (issue 43); left out keeps the current
    /// setting (off on create).
    pub allow_negative_stock: Option<bool>,
    /// 'Lembretes' (issue 44): a WhatsApp reminder 24 hours before; left out keeps the
    /// current setting (off on create).
    pub reminders_before_24h: Option<bool>,
    /// The same, 2 hours before.
    pub reminders_before_2h: Option<bool>,
    /// The unit's IANA time zone, one of Brazil's (`America/Manaus`...); left out or empty,
    /// the zone of its state and city (issue 39).
    pub time_zone: Option<String>,
}

/// A cap on an ATTENDANT's discount outside 0 to 100 %.
pub const MSG_BAD_DISCOUNT_CAP: &str = "Informe um desconto máximo de 0 a 100%";

impl CompanyForm {
    /// Applies spec 02 §5 'Company' and returns the profile, with the online and counter rules
    /// the form sets on top of the unit's `current` ones, in the zone the form names or else
    /// the zone of its state and city. Texts are bounded: name 120, e-mail 254, links 500,
    /// observation 1,000, CNPJ and mobile as typed 30, the address's own.
    pub fn validate(&self, current: Option<&CompanyProfile>) -> Result<CompanyProfile, FieldErrors> {
        let mut errors = FieldErrors::default();
        let name = self.name.split_whitespace().collect::<Vec<_>>().join(" ");
        let observation = self.observation.as_deref().unwrap_or_default().trim();
        errors.check_length("name", &name, MAX_NAME);
        errors.check_length("cnpj", self.cnpj.trim(), MAX_MASKED);
        errors.check_length("email", self.email.trim(), MAX_EMAIL);
        errors.check_length("phone", self.phone.trim(), MAX_MASKED);
        errors.check_length("facebook", self.facebook.trim(), MAX_LINK);
        errors.check_length("instagram", self.instagram.trim(), MAX_LINK);
        errors.check_length("observation", observation, MAX_TEXT);
        errors.check(name.is_empty(), "name", "Digite o nome da barbearia");
        let cnpj = Cnpj::parse(&self.cnpj).map_err(|e| errors.add("cnpj", &e.to_string())).ok();
        let email = if self.email.trim().is_empty() {
            errors.add("email", "Digite o e-mail");
            None
        } else {
            Email::parse(&self.email).map_err(|e| errors.add("email", &e.to_string())).ok()
        };
        let phone = only_digits(&self.phone);
        errors.check(phone.is_empty(), "phone", "Digite o número do celular");
        errors.check(!is_mobile(&phone), "phone", "Informe um número válido");
        errors.check(self.status.is_none(), "status", "Escolha um Status");
        errors.check(self.facebook.trim().is_empty(), "facebook", "Informe o link do Facebook");
        errors.check(self.instagram.trim().is_empty(), "instagram", "Informe o link do Instagram");
        let address = address(
            &AddressInput {
                zip_code: self.zip_code.clone(),
                street: self.street.clone(),
                number: self.number.clone(),
                district: self.district.clone(),
                city: self.city.clone(),
                state: self.state.clone(),
                complement: self.complement.clone().unwrap_or_default(),
            },
            "zipCode",
            &mut errors,
        );
        let chosen = self.time_zone.as_deref().map(str::trim).filter(|zone| !zone.is_empty());
        errors.check(chosen.is_some_and(|zone| !is_unit_zone(zone)), "timeZone", MSG_BAD_TIME_ZONE);
        let time_zone = chosen.unwrap_or_else(|| zone_of_address(&self.state, &self.city)).to_owned();
        let online = OnlineRules::with(
            current.map(|profile| profile.online).unwrap_or_default(),
            self.online_cancel_cutoff_hours,
            self.online_max_future_bookings,
            self.online_newcomer_share_percent,
            self.online_no_show_limit,
            &mut errors,
        );
        let attendant_discount_cap_percent = match self.attendant_discount_cap_percent {
            None => current.and_then(|profile| profile.attendant_discount_cap_percent),
            Some(100) => None,
            Some(cap) => {
                errors.check(!(0..=100).contains(&cap), "attendantDiscountCapPercent", MSG_BAD_DISCOUNT_CAP);
                Some(cap)
            }
        };
        let commission = self
            .commission_settings(current.map(|profile| profile.commission).unwrap_or_default(), &mut errors);
        match (cnpj, email) {
            (Some(cnpj), Some(email)) if errors.is_empty() => Ok(CompanyProfile {
                name,
                cnpj: cnpj.as_str().to_owned(),
                email: email.into(),
                phone,
                whatsapp: self.whats_app,
                status: self.status.unwrap_or(true),
                facebook: self.facebook.trim().to_owned(),
                instagram: self.instagram.trim().to_owned(),
                observation: observation.to_owned(),
                address,
                time_zone,
                online,
                attendant_discount_cap_percent,
                commission,
                allow_negative_stock: self
                    .allow_negative_stock
                    .unwrap_or_else(|| current.is_some_and(|profile| profile.allow_negative_stock)),
                reminders: {
                    let kept = current.map(|profile| profile.reminders).unwrap_or_default();
                    Reminders {
                        before_24h: self.reminders_before_24h.unwrap_or(kept.before_24h),
                        before_2h: self.reminders_before_2h.unwrap_or(kept.before_2h),
                    }
                },
            }),
            _ => Err(errors),
        }
    }

    /// The commission settings the form sets on top of `current` ones.
    fn commission_settings(
        &self,
        current: CommissionSettings,
        errors: &mut FieldErrors,
    ) -> CommissionSettings {
        let mut settings = current;
        let mut fee = |field: &str, value: &Option<serde_json::Value>, into: &mut i64| {
            if let Some(value) = value.as_ref().filter(|value| !value.is_null()) {
                match cents_from_reais(value).ok().filter(|points| (0..=MAX_CARD_FEE_POINTS).contains(points))
                {
                    Some(points) => *into = points,
                    None => errors.add(field, MSG_BAD_CARD_FEE),
                }
            }
        };
        fee("cardFeeCreditPercent", &self.card_fee_credit_percent, &mut settings.card_fee_credit_points);
        fee("cardFeeDebitPercent", &self.card_fee_debit_percent, &mut settings.card_fee_debit_points);
        match self.club_commission_rule.as_deref().map(str::trim) {
            None => {}
            Some("plan") => settings.club_rule = ClubRule::PlanShare,
            Some("fixed") => {
                let fixed = self
                    .club_commission_fixed
                    .as_ref()
                    .and_then(|value| cents_from_reais(value).ok())
                    .filter(|cents| check_amount(*cents, true).is_ok());
                match fixed {
                    Some(cents) => settings.club_rule = ClubRule::FixedCents(cents),
                    None => errors.add("clubCommissionFixed", MSG_BAD_CLUB_FIXED),
                }
            }
            Some(_) => errors.add("clubCommissionRule", "Escolha pelo plano ou valor fixo."),
        }
        if let Some(code) = &self.commission_period {
            match PeriodKind::parse(code) {
                Some(period) => settings.period = period,
                None => errors.add("commissionPeriod", "Escolha semana, quinzena ou mês."),
            }
        }
        settings
    }
}

/// The most a card machine's fee may be: 20 %.
pub const MAX_CARD_FEE_POINTS: i64 = 2000;
pub const MSG_BAD_CARD_FEE: &str = "Informe uma taxa de 0 a 20%, com até duas casas decimais.";
pub const MSG_BAD_CLUB_FIXED: &str = "Informe o valor fixo por serviço do clube.";

/// One day of a unit's hours as `PUT company-working-hours/{id}/day` sends it; both times
/// empty means closed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CompanyDayForm {
    /// 0 (Sunday) to 6.
    pub week_day: Option<i64>,
    /// Opening time.
    pub start: Option<String>,
    /// Closing time.
    pub end: Option<String>,
}

impl CompanyDayForm {
    /// Applies spec 02 §5 'Company day' and returns the weekday and its period.
    pub fn validate(&self) -> Result<(u8, Option<Period>), FieldErrors> {
        let mut errors = FieldErrors::default();
        let week_day = self.week_day.filter(|d| (0..=6).contains(d));
        errors.check(week_day.is_none(), "weekDay", "Dia da semana inválido");
        let filled =
            |v: &Option<String>| v.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
        let (start, end) = (filled(&self.start), filled(&self.end));
        let period = match (start, end) {
            (None, None) => None,
            (start, end) => {
                let start = match start {
                    None => {
                        errors.add("start", "Preencha a horário de início");
                        None
                    }
                    Some(text) => TimeOfDay::parse(&text).map_err(|m| errors.add("start", m)).ok(),
                };
                let end = match end {
                    None => {
                        errors.add("end", "Preencha a horário de fim");
                        None
                    }
                    Some(text) => TimeOfDay::parse(&text).map_err(|m| errors.add("end", m)).ok(),
                };
                if let (Some(start), Some(end)) = (start, end) {
                    errors.check(end <= start, "end", "Horário final menor que inicial");
                    Some(Period { start, end })
                } else {
                    None
                }
            }
        };
        match week_day {
            Some(day) if errors.is_empty() => Ok((day as u8, period)),
            _ => Err(errors),
        }
    }
}

/// An image of the gallery: its id, and the content-addressed file it is stored in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GalleryImage {
    /// IdGalleryCompany.
    pub id: i64,
    /// File name in the media folder (`<sha256>.<ext>`).
    pub file: String,
}

/// A barbershop unit.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Company {
    profile: Option<CompanyProfile>,
    hours: [Option<Period>; 7],
    gallery: Vec<GalleryImage>,
}

impl Company {
    /// The unit's data, `None` before registration.
    pub fn profile(&self) -> Option<&CompanyProfile> {
        self.profile.as_ref()
    }

    /// Opening hours per weekday (0 = Sunday); `None` is closed.
    pub fn hours(&self) -> &[Option<Period>; 7] {
        &self.hours
    }

    /// Its online-booking rules.
    pub fn online_rules(&self) -> OnlineRules {
        self.profile.as_ref().map(|p| p.online).unwrap_or_default()
    }

    /// The gallery, in order.
    pub fn gallery(&self) -> &[GalleryImage] {
        &self.gallery
    }
}

/// What staff can do with a unit.
#[derive(Debug, Clone, PartialEq)]
pub enum CompanyCommand {
    /// Create the unit.
    RegisterCompany(CompanyProfile),
    /// Change its data.
    UpdateCompany(CompanyProfile),
    /// Set one weekday's hours.
    SetDay {
        /// 0 (Sunday) to 6.
        week_day: u8,
        /// Open period; `None` is closed.
        period: Option<Period>,
    },
    /// Replace the gallery.
    SaveGallery(Vec<GalleryImage>),
}

/// What happened to a unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CompanyEvent {
    /// The unit was created.
    CompanyRegistered(CompanyProfile),
    /// Its data changed.
    CompanyUpdated(CompanyProfile),
    /// One weekday's hours were set.
    CompanyDaySet {
        /// 0 (Sunday) to 6.
        week_day: u8,
        /// Open period; `None` is closed.
        period: Option<Period>,
    },
    /// The gallery was saved, in this order.
    GallerySaved {
        /// The images.
        images: Vec<GalleryImage>,
    },
}

impl DomainEvent for CompanyEvent {
    fn event_type(&self) -> String {
        match self {
            CompanyEvent::CompanyRegistered(_) => "CompanyRegistered",
            CompanyEvent::CompanyUpdated(_) => "CompanyUpdated",
            CompanyEvent::CompanyDaySet { .. } => "CompanyDaySet",
            CompanyEvent::GallerySaved { .. } => "GallerySaved",
        }
        .to_owned()
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
    /// No such company.
    #[error("Empresa não encontrada.")]
    NotFound,
    /// Too many images.
    #[error("A galeria aceita no máximo 5 imagens.")]
    GalleryFull,
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
        if let CompanyCommand::RegisterCompany(profile) = command {
            if self.profile.is_some() {
                return Err(CompanyError::AlreadyRegistered);
            }
            sink.write(CompanyEvent::CompanyRegistered(profile), self).await;
            return Ok(());
        }
        let Some(current) = &self.profile else { return Err(CompanyError::NotFound) };
        // Saving what is already there records nothing.
        let event = match command {
            CompanyCommand::RegisterCompany(_) => unreachable!("handled above"),
            CompanyCommand::UpdateCompany(profile) => {
                (*current != profile).then_some(CompanyEvent::CompanyUpdated(profile))
            }
            CompanyCommand::SetDay { week_day, period } => (self.hours[usize::from(week_day)] != period)
                .then_some(CompanyEvent::CompanyDaySet { week_day, period }),
            CompanyCommand::SaveGallery(images) => {
                if images.len() > MAX_GALLERY_IMAGES {
                    return Err(CompanyError::GalleryFull);
                }
                (self.gallery != images).then_some(CompanyEvent::GallerySaved { images })
            }
        };
        if let Some(event) = event {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            CompanyEvent::CompanyRegistered(profile) | CompanyEvent::CompanyUpdated(profile) => {
                self.profile = Some(profile)
            }
            CompanyEvent::CompanyDaySet { week_day, period } => {
                if let Some(day) = self.hours.get_mut(usize::from(week_day)) {
                    *day = period;
                }
            }
            CompanyEvent::GallerySaved { images } => self.gallery = images,
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    pub(crate) fn form() -> CompanyForm {
        CompanyForm {
            name: "Navalha  Centro".into(),
            cnpj: "11.222.333/0001-81".into(),
            email: "Centro@Navalha.dev".into(),
            phone: "(11) 9 8765-4321".into(),
            whats_app: true,
            status: Some(true),
            facebook: "https://facebook.com/navalha".into(),
            instagram: "https://instagram.com/navalha".into(),
            observation: None,
            zip_code: "01042-001".into(),
            street: "Rua Barão de Itapetininga".into(),
            number: "120".into(),
            district: "República".into(),
            city: "São Paulo".into(),
            state: "sp".into(),
            complement: None,
            online_cancel_cutoff_hours: None,
            online_max_future_bookings: None,
            online_newcomer_share_percent: None,
            online_no_show_limit: None,
            attendant_discount_cap_percent: None,
            time_zone: None,
            ..CompanyForm::default()
        }
    }

    fn profile() -> CompanyProfile {
        form().validate(None).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn a_valid_form_is_normalised() {
        let profile = profile();
        assert_eq!(profile.name, "Navalha Centro");
        assert_eq!(profile.cnpj, "11222333000181");
        assert_eq!(profile.email, "centro@navalha.dev");
        assert_eq!(profile.address.zip_code, "01042001");
        assert_eq!(profile.address.state, "SP");
    }

    #[test]
    fn each_company_rule_has_its_message() {
        let cases: Vec<(CompanyForm, &str, &str)> = vec![
            (CompanyForm { name: " ".into(), ..form() }, "name", "Digite o nome da barbearia"),
            (CompanyForm { cnpj: "11.222.333/0001-80".into(), ..form() }, "cnpj", "CNPJ inválido"),
            (CompanyForm { cnpj: "".into(), ..form() }, "cnpj", "CNPJ inválido"),
            (CompanyForm { email: "".into(), ..form() }, "email", "Digite o e-mail"),
            (CompanyForm { email: "a@b".into(), ..form() }, "email", "E-mail inválido"),
            (CompanyForm { phone: "".into(), ..form() }, "phone", "Digite o número do celular"),
            (CompanyForm { phone: "1187654321".into(), ..form() }, "phone", "Informe um número válido"),
            (CompanyForm { status: None, ..form() }, "status", "Escolha um Status"),
            (CompanyForm { facebook: "".into(), ..form() }, "facebook", "Informe o link do Facebook"),
            (CompanyForm { instagram: "".into(), ..form() }, "instagram", "Informe o link do Instagram"),
            (CompanyForm { zip_code: "".into(), ..form() }, "zipCode", "Digite o CEP"),
            (CompanyForm { street: "Barão".into(), ..form() }, "street", "Digite o nome da rua completo"),
            (CompanyForm { number: "100000".into(), ..form() }, "number", "Digite um número válido."),
            (CompanyForm { district: "".into(), ..form() }, "district", "Digite o bairro"),
            (CompanyForm { city: "".into(), ..form() }, "city", "Digite a cidade"),
            (CompanyForm { state: "--".into(), ..form() }, "state", "Escolha um estado"),
            (
                CompanyForm { online_cancel_cutoff_hours: Some(73), ..form() },
                "onlineCancelCutoffHours",
                "Informe um prazo de 0 a 72 horas",
            ),
            (
                CompanyForm { online_cancel_cutoff_hours: Some(-1), ..form() },
                "onlineCancelCutoffHours",
                "Informe um prazo de 0 a 72 horas",
            ),
            (
                CompanyForm { online_max_future_bookings: Some(0), ..form() },
                "onlineMaxFutureBookings",
                "Informe de 1 a 10 agendamentos",
            ),
            (
                CompanyForm { online_newcomer_share_percent: Some(101), ..form() },
                "onlineNewcomerSharePercent",
                "Informe um percentual de 0 a 100",
            ),
            (
                CompanyForm { online_newcomer_share_percent: Some(-1), ..form() },
                "onlineNewcomerSharePercent",
                "Informe um percentual de 0 a 100",
            ),
            (
                CompanyForm { online_max_future_bookings: Some(11), ..form() },
                "onlineMaxFutureBookings",
                "Informe de 1 a 10 agendamentos",
            ),
        ];
        for (form, field, message) in cases {
            let errors = form.validate(None).err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(message), "{field}");
        }
    }

    #[test]
    fn each_company_text_has_its_bound() {
        use crate::validation::{msg_too_long, MAX_DISTRICT, MAX_NUMBER, MAX_STREET};
        let link = |n: usize| format!("https://facebook.com/{}", "n".repeat(n - 21));
        let at_the_bounds = CompanyForm {
            name: "N".repeat(MAX_NAME),
            email: format!("{}@navalha.dev", "c".repeat(MAX_EMAIL - 12)),
            facebook: link(MAX_LINK),
            instagram: link(MAX_LINK),
            observation: Some("ó".repeat(MAX_TEXT)),
            street: format!("Rua {}", "b".repeat(MAX_STREET - 4)),
            number: format!("{}120", "0".repeat(MAX_NUMBER - 3)),
            district: "r".repeat(MAX_DISTRICT),
            ..form()
        };
        let profile = at_the_bounds.validate(None);
        assert_eq!(profile.map(|p| p.observation.chars().count()), Ok(MAX_TEXT));
        let cases: Vec<(CompanyForm, &str, usize)> = vec![
            (CompanyForm { name: "N".repeat(MAX_NAME + 1), ..form() }, "name", MAX_NAME),
            (
                CompanyForm { cnpj: format!("11.222.333/0001-81{}", " ".repeat(20) + "."), ..form() },
                "cnpj",
                MAX_MASKED,
            ),
            (
                CompanyForm { email: format!("{}@navalha.dev", "c".repeat(MAX_EMAIL - 11)), ..form() },
                "email",
                MAX_EMAIL,
            ),
            (
                CompanyForm { phone: format!("11987654321{}", "-".repeat(MAX_MASKED)), ..form() },
                "phone",
                MAX_MASKED,
            ),
            (CompanyForm { facebook: link(MAX_LINK + 1), ..form() }, "facebook", MAX_LINK),
            (CompanyForm { instagram: link(MAX_LINK + 1), ..form() }, "instagram", MAX_LINK),
            (CompanyForm { observation: Some("ó".repeat(MAX_TEXT + 1)), ..form() }, "observation", MAX_TEXT),
            (
                CompanyForm { zip_code: format!("01042001{}", "-".repeat(MAX_MASKED)), ..form() },
                "zipCode",
                MAX_MASKED,
            ),
            (
                CompanyForm { street: format!("Rua {}", "b".repeat(MAX_STREET)), ..form() },
                "street",
                MAX_STREET,
            ),
            (CompanyForm { number: "1".repeat(MAX_NUMBER + 1), ..form() }, "number", MAX_NUMBER),
            (CompanyForm { district: "r".repeat(MAX_DISTRICT + 1), ..form() }, "district", MAX_DISTRICT),
        ];
        for (form, field, max) in cases {
            let errors = form.validate(None).err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(msg_too_long(max).as_str()), "{field}: {errors:?}");
        }
    }

    #[test]
    fn a_unit_is_in_its_addresss_zone_unless_the_form_names_one() {
        let zone = |form: CompanyForm| form.validate(None).map(|p| p.time_zone);
        assert_eq!(zone(form()), Ok("America/Sao_Paulo".to_owned()));
        let manaus = CompanyForm { state: "AM".into(), city: "Manaus".into(), ..form() };
        assert_eq!(zone(manaus.clone()), Ok("America/Manaus".to_owned()));
        let chosen = CompanyForm { time_zone: Some("America/Eirunepe".into()), ..manaus.clone() };
        assert_eq!(zone(chosen), Ok("America/Eirunepe".to_owned()));
        let empty = CompanyForm { time_zone: Some(" ".into()), ..manaus };
        assert_eq!(zone(empty), Ok("America/Manaus".to_owned()));
        let unknown = CompanyForm { time_zone: Some("Europe/Lisbon".into()), ..form() };
        let errors = unknown.validate(None).err().unwrap_or_default();
        assert_eq!(errors.get("timeZone"), Some(crate::time_zone::MSG_BAD_TIME_ZONE));
    }

    #[test]
    fn rules_left_out_keep_the_current_ones() {
        let rules = OnlineRules {
            cancel_cutoff_hours: 5,
            max_future_bookings: 1,
            newcomer_share_percent: 10,
            no_show_limit: 0,
        };
        let current = CompanyProfile { online: rules, attendant_discount_cap_percent: Some(10), ..profile() };
        let kept = form().validate(Some(&current)).ok().map(|p| (p.online, p.attendant_discount_cap_percent));
        assert_eq!(kept, Some((rules, Some(10))));
        let changed = CompanyForm { online_cancel_cutoff_hours: Some(0), ..form() };
        let changed = changed.validate(Some(&current)).ok().map(|p| p.online);
        assert_eq!(changed, Some(OnlineRules { cancel_cutoff_hours: 0, ..rules }));
        // The cap: 100 % lifts it; beyond is refused.
        let cap = |percent| {
            CompanyForm { attendant_discount_cap_percent: Some(percent), ..form() }.validate(Some(&current))
        };
        assert_eq!(cap(15).ok().map(|p| p.attendant_discount_cap_percent), Some(Some(15)));
        assert_eq!(cap(100).ok().map(|p| p.attendant_discount_cap_percent), Some(None));
        let refused = cap(101).err().unwrap_or_default();
        assert_eq!(refused.get("attendantDiscountCapPercent"), Some(MSG_BAD_DISCOUNT_CAP));
    }

    #[test]
    fn a_profile_recorded_before_online_rules_reads_with_the_defaults() {
        let mut old = serde_json::to_value(profile()).unwrap_or_default();
        old.as_object_mut().map(|o| o.remove("online"));
        let read: CompanyProfile = serde_json::from_value(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            read.online,
            OnlineRules {
                cancel_cutoff_hours: 2,
                max_future_bookings: 2,
                newcomer_share_percent: 30,
                no_show_limit: 0
            }
        );
    }

    #[test]
    fn a_day_has_one_ordered_period_or_none() {
        let day = |start: &str, end: &str| CompanyDayForm {
            week_day: Some(1),
            start: Some(start.into()),
            end: Some(end.into()),
        };
        let (week_day, period) = day("09:00", "19:00").validate().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((week_day, period.map(|p| p.end.to_string())), (1, Some("19:00".to_owned())));
        assert_eq!(day("", "").validate().ok(), Some((1, None)), "both empty: closed");
        let message = |form: CompanyDayForm, field: &str| {
            form.validate().err().unwrap_or_default().get(field).map(str::to_owned)
        };
        assert_eq!(message(day("19:00", "09:00"), "end").as_deref(), Some("Horário final menor que inicial"));
        assert_eq!(message(day("9h", "19:00"), "start").as_deref(), Some("Formato incorreto."));
        assert_eq!(message(day("", "19:00"), "start").as_deref(), Some("Preencha a horário de início"));
        assert_eq!(message(day("09:00", ""), "end").as_deref(), Some("Preencha a horário de fim"));
        assert_eq!(
            message(CompanyDayForm { week_day: Some(7), ..day("09:00", "10:00") }, "weekDay").as_deref(),
            Some("Dia da semana inválido")
        );
    }

    #[test]
    fn registering_updating_and_unchanged_saves() {
        TestFramework::<Company>::with(())
            .given_no_previous_events()
            .when(CompanyCommand::RegisterCompany(profile()))
            .then_expect_events(vec![CompanyEvent::CompanyRegistered(profile())]);
        let closed = CompanyProfile { status: false, ..profile() };
        TestFramework::<Company>::with(())
            .given(vec![CompanyEvent::CompanyRegistered(profile())])
            .when(CompanyCommand::UpdateCompany(closed.clone()))
            .then_expect_events(vec![CompanyEvent::CompanyUpdated(closed)]);
        TestFramework::<Company>::with(())
            .given(vec![CompanyEvent::CompanyRegistered(profile())])
            .when(CompanyCommand::UpdateCompany(profile()))
            .then_expect_events(vec![]);
        TestFramework::<Company>::with(())
            .given_no_previous_events()
            .when(CompanyCommand::SetDay { week_day: 1, period: None })
            .then_expect_error(CompanyError::NotFound);
    }

    #[test]
    fn hours_and_gallery() {
        let period = Period {
            start: TimeOfDay::parse("09:00").unwrap_or_else(|e| panic!("{e}")),
            end: TimeOfDay::parse("19:00").unwrap_or_else(|e| panic!("{e}")),
        };
        TestFramework::<Company>::with(())
            .given(vec![
                CompanyEvent::CompanyRegistered(profile()),
                CompanyEvent::CompanyDaySet { week_day: 2, period: Some(period) },
            ])
            .when(CompanyCommand::SetDay { week_day: 2, period: Some(period) })
            .then_expect_events(vec![]);
        let image = |id: i64| GalleryImage { id, file: format!("{id}.png") };
        TestFramework::<Company>::with(())
            .given(vec![CompanyEvent::CompanyRegistered(profile())])
            .when(CompanyCommand::SaveGallery((1..=6).map(image).collect()))
            .then_expect_error(CompanyError::GalleryFull);
        TestFramework::<Company>::with(())
            .given(vec![
                CompanyEvent::CompanyRegistered(profile()),
                CompanyEvent::GallerySaved { images: vec![image(1), image(2)] },
            ])
            .when(CompanyCommand::SaveGallery(vec![image(2), image(1)]))
            .then_expect_events(vec![CompanyEvent::GallerySaved { images: vec![image(2), image(1)] }]);
    }

    #[test]
    fn events_are_pinned() {
        let filled = CompanyForm {
            observation: Some("Estacionamento no local".into()),
            complement: Some("Loja 2".into()),
            online_cancel_cutoff_hours: Some(2),
            online_max_future_bookings: Some(3),
            online_newcomer_share_percent: Some(30),
            online_no_show_limit: None,
            time_zone: Some("America/Sao_Paulo".into()),
            allow_negative_stock: Some(true),
            reminders_before_24h: Some(true),
            reminders_before_2h: Some(true),
            ..form()
        };
        let profile = filled.validate(None).unwrap_or_else(|e| panic!("{e:?}"));
        let period = Period {
            start: crate::validation::TimeOfDay::from_minutes(8 * 60).unwrap_or_else(|| panic!("a time")),
            end: crate::validation::TimeOfDay::from_minutes(18 * 60).unwrap_or_else(|| panic!("a time")),
        };
        crate::event_payload::assert_pinned::<Company>(&[
            CompanyEvent::CompanyRegistered(profile.clone()),
            CompanyEvent::CompanyUpdated(profile),
            CompanyEvent::CompanyDaySet { week_day: 2, period: Some(period) },
            CompanyEvent::GallerySaved { images: vec![GalleryImage { id: 1, file: "1.png".into() }] },
        ]);
    }
}
