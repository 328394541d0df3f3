//! Online booking (issue 18, docs/online-booking.md): what a client types on a unit's
//! public page, the rules the unit's defaults set, and the booking as that page shows it.

use chrono::{Duration, NaiveDateTime};
use serde::{Deserialize, Serialize};

use crate::appointment::Booking;
use crate::validation::{is_full_name, is_mobile, FieldErrors, MAX_EMAIL, MAX_MASKED, MAX_NAME};
use crate::values::{only_digits, Cpf, Email};

/// The author the events of an online booking name (no user id, no role).
pub const AUTHOR: &str = "cliente (online)";
/// The default cut-off: until how many hours before its start a client may cancel or
/// move a booking online.
pub const CANCEL_CUTOFF_HOURS: i64 = 2;
/// The longest cut-off a unit may set.
pub const MAX_CANCEL_CUTOFF_HOURS: i64 = 72;
/// The default limit: how many future bookings one client (by CPF, or by mobile) may
/// hold in one unit.
pub const MAX_FUTURE_BOOKINGS: i64 = 2;
/// The highest limit a unit may set.
pub const MAX_FUTURE_BOOKINGS_LIMIT: i64 = 10;
/// A cut-off out of bounds.
pub const MSG_BAD_CUTOFF: &str = "Informe um prazo de 0 a 72 horas";
/// A limit out of bounds.
pub const MSG_BAD_LIMIT: &str = "Informe de 1 a 10 agendamentos";
/// The default share of a unit's day (its professionals' working minutes) that bookings of
/// newcomers (clients whose record was made online and not confirmed by staff) may hold.
pub const NEWCOMER_SHARE_PERCENT: i64 = 30;
/// A share out of bounds.
pub const MSG_BAD_SHARE: &str = "Informe um percentual de 0 a 100";
/// How many bookings newcomers booking from one address (an IPv6 /64) may hold on one
/// unit's day.
pub const NEWCOMER_BOOKINGS_PER_ADDRESS: i64 = 2;
/// The newcomers' share of the day is taken.
pub const MSG_NEWCOMER_DAY_FULL: &str =
    "Não há mais horários online para novos clientes neste dia. Escolha outro dia ou fale com a barbearia.";
/// Newcomers from one address reached their bookings on the day.
pub const MSG_NEWCOMER_ADDRESS_FULL: &str =
    "Esta conexão já fez o máximo de agendamentos de novos clientes neste dia. Escolha outro dia ou fale com a barbearia.";
/// The days a client's 'Não compareceu' count for: the client form's recent count and the
/// online block (issue 44).
pub const NO_SHOW_DAYS: i64 = 90;
/// The highest no-show limit a unit may set (0 turns the block off).
pub const MAX_NO_SHOW_LIMIT: i64 = 20;
/// A no-show limit out of bounds.
pub const MSG_BAD_NO_SHOW_LIMIT: &str = "Informe de 0 a 20 faltas (0 não bloqueia)";
/// A client past the unit's no-show limit: the page asks them to call, with the shop's phone.
pub fn msg_blocked_by_no_shows(phone: &str) -> String {
    if phone.is_empty() {
        "Não é possível agendar online no momento. Ligue para a barbearia.".to_owned()
    } else {
        format!("Não é possível agendar online no momento. Ligue para a barbearia: {phone}.")
    }
}
/// How many days ahead the page offers, as the free times do.
pub const DAYS_AHEAD: i64 = 30;

/// A code asked for and a booking made are the same answer whether or not the CPF is a client.
pub const MSG_CODE_SENT: &str = "Enviamos um código de 6 dígitos para o seu e-mail.";
/// Every failed code check.
pub const MSG_BAD_CODE: &str = "Código inválido ou expirado. Solicite um novo código.";
/// The booking token is too old.
pub const MSG_VERIFICATION_EXPIRED: &str = "Sua verificação expirou. Peça um novo código.";
/// The time was taken between the page's look and the booking.
pub const MSG_TIME_TAKEN: &str = "Este horário acabou de ser reservado. Escolha outro horário.";
/// The client has another appointment at an overlapping time (issue 45: online bookings
/// never overlap).
pub const MSG_CLIENT_BUSY: &str = "Você já tem um agendamento neste horário. Escolha outro horário.";
/// The time is not free for another reason (hours, a day off, a holiday, the past).
pub const MSG_TIME_UNAVAILABLE: &str = "Este horário não está disponível. Escolha outro horário.";
/// After the cut-off.
pub const MSG_TOO_LATE: &str = "O prazo para alterar online terminou. Fale com a barbearia.";
/// Cancelling or moving a cancelled booking.
pub const MSG_ALREADY_CANCELLED: &str = "Este agendamento já foi cancelado.";
/// An unknown or inactive unit.
pub const MSG_UNIT_NOT_FOUND: &str = "Barbearia não encontrada.";
/// A bad manage link.
pub const MSG_BOOKING_NOT_FOUND: &str = "Agendamento não encontrado.";
/// A client the shop made inactive.
pub const MSG_CLIENT_BLOCKED: &str = "Não foi possível agendar online. Fale com a barbearia.";

/// The limit of future bookings, reached.
pub fn msg_too_many_bookings(limit: i64) -> String {
    if limit == 1 {
        "Você já tem 1 agendamento futuro nesta unidade. Cancele-o para agendar outro.".to_owned()
    } else {
        format!("Você já tem {limit} agendamentos futuros nesta unidade. Cancele um para agendar outro.")
    }
}

/// A unit's online-booking rules, which its form sets (the defaults until it does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnlineRules {
    /// Until how many hours before its start a client may cancel or move a booking.
    pub cancel_cutoff_hours: i64,
    /// How many future bookings one client may hold in the unit.
    pub max_future_bookings: i64,
    /// The percentage of a day's working minutes newcomers' online bookings may hold.
    pub newcomer_share_percent: i64,
    /// After how many 'Não compareceu' in the last [`NO_SHOW_DAYS`] days a client may no
    /// longer book online (issue 44); 0, the default (and in payloads before 1.2), never
    /// blocks.
    pub no_show_limit: i64,
}

impl Default for OnlineRules {
    fn default() -> Self {
        Self {
            cancel_cutoff_hours: CANCEL_CUTOFF_HOURS,
            max_future_bookings: MAX_FUTURE_BOOKINGS,
            newcomer_share_percent: NEWCOMER_SHARE_PERCENT,
            no_show_limit: 0,
        }
    }
}

impl OnlineRules {
    /// `current` with what a form sent, checked: a field left out keeps its value.
    pub fn with(
        current: OnlineRules,
        cutoff: Option<i64>,
        limit: Option<i64>,
        share: Option<i64>,
        no_show_limit: Option<i64>,
        errors: &mut FieldErrors,
    ) -> OnlineRules {
        let cancel_cutoff_hours = cutoff.unwrap_or(current.cancel_cutoff_hours);
        let max_future_bookings = limit.unwrap_or(current.max_future_bookings);
        let newcomer_share_percent = share.unwrap_or(current.newcomer_share_percent);
        let no_show_limit = no_show_limit.unwrap_or(current.no_show_limit);
        errors.check(
            !(0..=MAX_CANCEL_CUTOFF_HOURS).contains(&cancel_cutoff_hours),
            "onlineCancelCutoffHours",
            MSG_BAD_CUTOFF,
        );
        errors.check(
            !(1..=MAX_FUTURE_BOOKINGS_LIMIT).contains(&max_future_bookings),
            "onlineMaxFutureBookings",
            MSG_BAD_LIMIT,
        );
        errors.check(
            !(0..=100).contains(&newcomer_share_percent),
            "onlineNewcomerSharePercent",
            MSG_BAD_SHARE,
        );
        errors.check(
            !(0..=MAX_NO_SHOW_LIMIT).contains(&no_show_limit),
            "onlineNoShowLimit",
            MSG_BAD_NO_SHOW_LIMIT,
        );
        OnlineRules { cancel_cutoff_hours, max_future_bookings, newcomer_share_percent, no_show_limit }
    }

    /// Whether a client with `no_shows` in the last [`NO_SHOW_DAYS`] days may book online.
    pub fn admits_after_no_shows(&self, no_shows: i64) -> bool {
        self.no_show_limit == 0 || no_shows < self.no_show_limit
    }

    /// Whether newcomers holding `held` minutes of a day of `working` minutes may take
    /// `more`: their total stays within the unit's share, rounded down to the minute.
    pub fn newcomers_may_take(&self, held: i64, more: i64, working: i64) -> bool {
        (held + more) * 100 <= working * self.newcomer_share_percent
    }

    /// The last moment `booking` may be cancelled or moved online.
    pub fn changeable_until(&self, booking: &Booking) -> NaiveDateTime {
        booking.starts_at() - Duration::hours(self.cancel_cutoff_hours)
    }
}

/// Who the client says they are (`POST no-auth/online-booking/{idCompany}/code`).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ClientIdentity {
    /// Full name.
    pub name: String,
    /// Mobile, digits or masked.
    pub phone: String,
    /// CPF, digits or masked.
    pub cpf: String,
    /// Optional for a client the shop already has with an e-mail.
    pub email: String,
    /// 'Quero receber confirmação e lembretes pelo WhatsApp' (issue 44): the consent a new
    /// record is made with. Off unless ticked.
    pub whats_app: bool,
}

/// A checked identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// Name, spaces collapsed.
    pub name: String,
    /// Mobile digits.
    pub phone: String,
    /// The CPF.
    pub cpf: Cpf,
    /// The typed e-mail, when there is one.
    pub email: Option<String>,
    /// Whether they accept WhatsApp messages.
    pub whatsapp: bool,
}

impl ClientIdentity {
    /// Applies the client form's rules (spec 02 §5 'Client') and text bounds (name 120,
    /// e-mail 254, CPF and mobile as typed 30), the e-mail being optional. The page is
    /// anonymous: what it accepts becomes a client record, a code row and a token's claims.
    pub fn validate(&self) -> Result<Identity, FieldErrors> {
        let mut errors = FieldErrors::default();
        let name = self.name.split_whitespace().collect::<Vec<_>>().join(" ");
        errors.check_length("name", &name, MAX_NAME);
        errors.check_length("phone", self.phone.trim(), MAX_MASKED);
        errors.check_length("cpf", self.cpf.trim(), MAX_MASKED);
        errors.check_length("email", self.email.trim(), MAX_EMAIL);
        errors.check(!is_full_name(&name, 3), "name", "Digite o nome completo");
        let phone = only_digits(&self.phone);
        errors.check(phone.is_empty(), "phone", "Digite o número do celular");
        errors.check(!phone.is_empty() && !is_mobile(&phone), "phone", "Informe um número válido");
        let cpf = if self.cpf.trim().is_empty() {
            errors.add("cpf", "Digite o CPF");
            None
        } else {
            Cpf::parse(&self.cpf).map_err(|e| errors.add("cpf", &e.to_string())).ok()
        };
        let email = match self.email.trim() {
            "" => None,
            typed => {
                Email::parse(typed).map_err(|e| errors.add("email", &e.to_string())).ok().map(String::from)
            }
        };
        match cpf {
            Some(cpf) if errors.is_empty() => {
                Ok(Identity { name, phone, cpf, email, whatsapp: self.whats_app })
            }
            _ => Err(errors),
        }
    }
}

/// A service of a booking as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ServiceLine {
    /// The service.
    pub id_service: i64,
    /// Its name.
    pub name: String,
    /// The professional's price, in cents.
    pub cents: i64,
    /// The professional's time.
    pub minutes: i64,
}

/// One booking as the client's pages show it (the confirmation and the link's page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct BookingView {
    /// The appointment.
    pub id_scheduling: i64,
    /// The unit.
    pub id_company: i64,
    /// Its name.
    pub company_name: String,
    /// Its address on one line.
    pub address: String,
    /// The professional.
    pub id_professional: i64,
    /// Their name.
    pub professional_name: String,
    /// The day, on the unit's wall clock.
    #[schema(value_type = String, example = "2026-11-30")]
    pub date: chrono::NaiveDate,
    /// `HH:MM`.
    pub start_time: String,
    /// `HH:MM`.
    pub end_time: String,
    /// The services, with the professional's prices and times.
    pub services: Vec<ServiceLine>,
    /// The sum of the prices.
    pub total_cents: i64,
    /// `BOOKED` or `CANCELLED`.
    pub status: String,
    /// The last moment (unit's wall clock) to cancel or move it online.
    #[schema(value_type = String, example = "2026-11-30T08:00:00")]
    pub changeable_until: NaiveDateTime,
    /// Whether it can still be cancelled or moved online.
    pub changeable: bool,
}

/// The names a [`BookingView`] shows besides the booking.
#[derive(Debug, Clone, Default)]
pub struct Names {
    /// The unit's name.
    pub company: String,
    /// The unit's address on one line.
    pub address: String,
    /// The professional's name.
    pub professional: String,
}

impl BookingView {
    /// The view of booking `id`, `active` or cancelled, at `now` on the unit's wall clock,
    /// under the unit's `rules`.
    pub fn new(
        id: i64,
        booking: &Booking,
        active: bool,
        names: Names,
        rules: &OnlineRules,
        now: NaiveDateTime,
    ) -> Self {
        let changeable_until = rules.changeable_until(booking);
        Self {
            id_scheduling: id,
            id_company: booking.company_id,
            company_name: names.company,
            address: names.address,
            id_professional: booking.professional_id,
            professional_name: names.professional,
            date: booking.date,
            start_time: booking.start.to_string(),
            end_time: booking.end.to_string(),
            services: booking
                .services
                .iter()
                .map(|s| ServiceLine {
                    id_service: s.service_id,
                    name: s.description.clone(),
                    cents: s.cents,
                    minutes: s.minutes,
                })
                .collect(),
            total_cents: booking.services.iter().map(|s| s.cents).sum(),
            status: if active { "BOOKED" } else { "CANCELLED" }.to_owned(),
            changeable_until,
            changeable: active && now < changeable_until,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newcomers_hold_at_most_the_share_of_the_day_to_the_minute() {
        let rules = OnlineRules::default();
        // A day of 600 working minutes: 30 % is 180.
        assert!(rules.newcomers_may_take(150, 30, 600));
        assert!(!rules.newcomers_may_take(150, 31, 600));
        assert!(!rules.newcomers_may_take(0, 1, 0), "a day nobody works takes nobody");
        let closed = OnlineRules { newcomer_share_percent: 0, ..rules };
        assert!(!closed.newcomers_may_take(0, 15, 600));
        let open = OnlineRules { newcomer_share_percent: 100, ..rules };
        assert!(open.newcomers_may_take(570, 30, 600));
    }

    #[test]
    fn the_no_show_limit_blocks_from_the_nth_and_zero_never_blocks() {
        let off = OnlineRules::default();
        assert!(off.admits_after_no_shows(50), "the default never blocks");
        let two = OnlineRules { no_show_limit: 2, ..off };
        assert!(two.admits_after_no_shows(1));
        assert!(!two.admits_after_no_shows(2));
        let mut errors = FieldErrors::default();
        let kept = OnlineRules::with(two, None, None, None, None, &mut errors);
        assert_eq!(kept.no_show_limit, 2, "a form without the field keeps it");
        OnlineRules::with(two, None, None, None, Some(MAX_NO_SHOW_LIMIT + 1), &mut errors);
        OnlineRules::with(two, None, None, None, Some(-1), &mut errors);
        assert_eq!(errors.0.len(), 1, "one field, named once");
        assert_eq!(errors.get("onlineNoShowLimit"), Some(MSG_BAD_NO_SHOW_LIMIT));
    }

    #[test]
    fn the_blocked_client_is_given_the_shops_phone_when_there_is_one() {
        assert!(
            msg_blocked_by_no_shows("(11) 3333-4444").ends_with("Ligue para a barbearia: (11) 3333-4444.")
        );
        assert!(msg_blocked_by_no_shows("").ends_with("Ligue para a barbearia."));
    }

    fn identity(name: &str, phone: &str, cpf: &str, email: &str) -> ClientIdentity {
        ClientIdentity {
            name: name.into(),
            phone: phone.into(),
            cpf: cpf.into(),
            email: email.into(),
            whats_app: false,
        }
    }

    #[test]
    fn the_email_is_optional_and_the_rest_follows_the_client_form() {
        let ok = identity(" Ana   Souza ", "(11) 98765-4321", "529.982.247-25", "").validate();
        let ok = ok.unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((ok.name.as_str(), ok.phone.as_str(), ok.email), ("Ana Souza", "11987654321", None));
        let errors = identity("Ana", "1234", "111.111.111-11", "ana@").validate().err().map(|e| e.0);
        let errors = errors.unwrap_or_default();
        assert_eq!(errors.get("name").map(String::as_str), Some("Digite o nome completo"));
        assert_eq!(errors.get("phone").map(String::as_str), Some("Informe um número válido"));
        assert!(errors.contains_key("cpf") && errors.contains_key("email"), "{errors:?}");
    }

    #[test]
    fn the_page_bounds_every_text() {
        use crate::validation::msg_too_long;
        let name = |n: usize| format!("Ana {}", "ú".repeat(n - 4));
        let email = |n: usize| format!("{}@example.com", "a".repeat(n - 12));
        let phone = |n: usize| format!("(11) 98765-4321{}", "-".repeat(n - 15));
        let cpf = |n: usize| format!("529.982.247-25{}", ".".repeat(n - 14));
        let ok =
            identity(&name(MAX_NAME), &phone(MAX_MASKED), &cpf(MAX_MASKED), &email(MAX_EMAIL)).validate();
        assert_eq!(ok.map(|i| i.name.chars().count()), Ok(MAX_NAME));
        let long = "x".repeat(4000);
        let cases = [
            (identity(&name(MAX_NAME + 1), "11987654321", "52998224725", ""), "name", MAX_NAME),
            (identity(&format!("Ana {long}"), "11987654321", "52998224725", ""), "name", MAX_NAME),
            (identity(&long, "11987654321", "52998224725", ""), "name", MAX_NAME),
            (identity("Ana Souza", &phone(MAX_MASKED + 1), "52998224725", ""), "phone", MAX_MASKED),
            (identity("Ana Souza", "11987654321", &cpf(MAX_MASKED + 1), ""), "cpf", MAX_MASKED),
            (identity("Ana Souza", "11987654321", "52998224725", &email(MAX_EMAIL + 1)), "email", MAX_EMAIL),
        ];
        for (who, field, max) in cases {
            let errors = who.validate().err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(msg_too_long(max).as_str()), "{field}: {errors:?}");
        }
    }
}
