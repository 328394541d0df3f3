//! The templates' texts, in one place: each is approved at Meta under its `name` with these
//! pt-BR texts, `{{n}}` being the n-th body variable (docs/messages.md, "Templates").

use chrono::{Datelike, NaiveDateTime};

/// A message template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Template {
    /// Its name at Meta.
    pub name: &'static str,
    /// Its body, `{{1}}`… its variables.
    pub body: &'static str,
    /// What each variable is, in order.
    pub variables: &'static [&'static str],
    /// Its quick-reply buttons' texts, in order.
    pub buttons: &'static [&'static str],
}

/// The reminder before an appointment (24 or 2 hours).
pub const REMINDER: Template = Template {
    name: "lembrete_agendamento",
    body: "Olá, {{1}}! Lembrete do seu horário na {{2}}: {{3}}, com {{4}} ({{5}}). Você confirma?",
    variables: &[
        "o primeiro nome do cliente",
        "a unidade",
        "o dia e a hora",
        "o profissional",
        "os serviços",
    ],
    buttons: &["Confirmar", "Cancelar"],
};

impl Template {
    /// The body with `values` in place, as the client reads it.
    pub fn render(&self, values: &[String]) -> String {
        values.iter().enumerate().fold(self.body.to_owned(), |text, (at, value)| {
            text.replace(&format!("{{{{{}}}}}", at + 1), value)
        })
    }
}

const WEEKDAYS: [&str; 7] =
    ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"];

/// 'terça-feira, 01/12 às 10:00'.
pub fn day_and_time(at: NaiveDateTime) -> String {
    let weekday = WEEKDAYS[at.weekday().num_days_from_sunday() as usize];
    format!("{weekday}, {} às {}", at.format("%d/%m"), at.format("%H:%M"))
}

/// The first name, as a greeting uses it.
pub fn first_name(name: &str) -> String {
    name.split_whitespace().next().unwrap_or(name).to_owned()
}

/// A Brazilian phone as people write it: '(11) 3333-4444', '(11) 98765-4321'.
pub fn phone_text(phone: &str) -> String {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    match digits.len() {
        10 => format!("({}) {}-{}", &digits[..2], &digits[2..6], &digits[6..]),
        11 => format!("({}) {}-{}", &digits[..2], &digits[2..7], &digits[7..]),
        _ => phone.to_owned(),
    }
}

/// A Brazilian mobile as the API takes it: `55` and the digits.
pub fn international(phone: &str) -> String {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    if digits.starts_with("55") && digits.len() > 11 {
        digits
    } else {
        format!("55{digits}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reminder_reads_in_pt_br_with_its_variables() {
        let at = NaiveDateTime::parse_from_str("2026-12-01 10:00", "%Y-%m-%d %H:%M").unwrap_or_default();
        assert_eq!(day_and_time(at), "terça-feira, 01/12 às 10:00");
        let values = [
            first_name("João Conceição"),
            "Navalha Centro".to_owned(),
            day_and_time(at),
            "Diego Barbeiro".to_owned(),
            "Corte de cabelo, Barba".to_owned(),
        ];
        assert_eq!(values.len(), REMINDER.variables.len());
        assert_eq!(
            REMINDER.render(&values),
            "Olá, João! Lembrete do seu horário na Navalha Centro: terça-feira, 01/12 às 10:00, com Diego Barbeiro (Corte de cabelo, Barba). Você confirma?"
        );
        assert_eq!(international("(11) 98765-0100"), "5511987650100");
        assert_eq!(international("5511987650100"), "5511987650100");
        assert_eq!(phone_text("1133334444"), "(11) 3333-4444");
        assert_eq!(phone_text("11987654321"), "(11) 98765-4321");
    }
}
