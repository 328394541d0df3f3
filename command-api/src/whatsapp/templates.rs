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
    /// The e-mail's subject, for clients who get it by e-mail instead.
    pub subject: &'static str,
    /// The e-mail's text, with the same variables (an e-mail has no buttons).
    pub email: &'static str,
}

const REMINDER_VARIABLES: &[&str] =
    &["o primeiro nome do cliente", "a unidade", "o dia e a hora", "o profissional", "os serviços"];
/// The same and the unit's phone, for messages that ask the client to call.
const WITH_PHONE_VARIABLES: &[&str] = &[
    "o primeiro nome do cliente",
    "a unidade",
    "o dia e a hora",
    "o profissional",
    "os serviços",
    "o telefone da unidade",
];

/// The reminder before an appointment (24 or 2 hours).
pub const REMINDER: Template = Template {
    name: "lembrete_agendamento",
    body: "Olá, {{1}}! Lembrete do seu horário na {{2}}: {{3}}, com {{4}} ({{5}}). Você confirma?",
    variables: REMINDER_VARIABLES,
    buttons: &["Confirmar", "Cancelar"],
    subject: "Lembrete do seu horário",
    email: "Olá, {{1}}!\n\nLembrete do seu horário na {{2}}: {{3}}, com {{4}} ({{5}}).\n\n\
            Se precisar cancelar ou remarcar, fale com a barbearia.\n",
};

/// The confirmation of a booking the client made on the unit's page.
pub const BOOKED: Template = Template {
    name: "agendamento_confirmado",
    body: "Olá, {{1}}! Seu horário na {{2}} está agendado: {{3}}, com {{4}} ({{5}}). \
           Para cancelar ou remarcar, use o link do e-mail de confirmação ou ligue: {{6}}.",
    variables: WITH_PHONE_VARIABLES,
    buttons: &[],
    subject: "Seu horário está agendado",
    email: "Olá, {{1}}!\n\nSeu horário na {{2}} está agendado: {{3}}, com {{4}} ({{5}}).\n\n\
            Para cancelar ou remarcar, use o link do e-mail de confirmação ou ligue: {{6}}.\n",
};

/// The shop moved the appointment (day, time or professional): a new promise to confirm.
pub const MOVED: Template = Template {
    name: "agendamento_alterado",
    body: "Olá, {{1}}! A {{2}} mudou seu horário para {{3}}, com {{4}} ({{5}}). Você confirma?",
    variables: REMINDER_VARIABLES,
    buttons: &["Confirmar", "Cancelar"],
    subject: "Seu horário mudou",
    email: "Olá, {{1}}!\n\nA {{2}} mudou seu horário para {{3}}, com {{4}} ({{5}}).\n\n\
            Se o novo horário não servir, fale com a barbearia.\n",
};

/// The shop cancelled the appointment.
pub const CANCELLED: Template = Template {
    name: "agendamento_cancelado",
    body: "Olá, {{1}}! A {{2}} cancelou seu horário de {{3}}, com {{4}} ({{5}}). \
           Para remarcar, fale com a barbearia: {{6}}.",
    variables: WITH_PHONE_VARIABLES,
    buttons: &[],
    subject: "Seu horário foi cancelado",
    email: "Olá, {{1}}!\n\nA {{2}} cancelou seu horário de {{3}}, com {{4}} ({{5}}).\n\n\
            Para remarcar, fale com a barbearia: {{6}}.\n",
};

/// Every template, for the e-mail of a message recorded under its name.
pub const ALL: [&Template; 4] = [&REMINDER, &BOOKED, &MOVED, &CANCELLED];

/// The template named `name`.
pub fn named(name: &str) -> Option<&'static Template> {
    ALL.into_iter().find(|template| template.name == name)
}

impl Template {
    /// The body with `values` in place, as the client reads it.
    pub fn render(&self, values: &[String]) -> String {
        fill(self.body, values)
    }

    /// The e-mail's text with `values` in place.
    pub fn render_email(&self, values: &[String]) -> String {
        fill(self.email, values)
    }
}

fn fill(text: &str, values: &[String]) -> String {
    values
        .iter()
        .enumerate()
        .fold(text.to_owned(), |text, (at, value)| text.replace(&format!("{{{{{}}}}}", at + 1), value))
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
        assert!(REMINDER.render_email(&values).contains("na Navalha Centro: terça-feira, 01/12 às 10:00"));
        assert_eq!(international("(11) 98765-0100"), "5511987650100");
        assert_eq!(international("5511987650100"), "5511987650100");
        assert_eq!(phone_text("1133334444"), "(11) 3333-4444");
        assert_eq!(phone_text("11987654321"), "(11) 98765-4321");
    }

    #[test]
    fn every_template_names_each_variable_it_uses_and_fills_them_all() {
        for template in ALL {
            let values: Vec<String> = (1..=template.variables.len()).map(|n| format!("<{n}>")).collect();
            for text in [template.render(&values), template.render_email(&values)] {
                assert!(!text.contains("{{"), "{}: a variable left unnamed: {text}", template.name);
                for value in &values {
                    assert!(text.contains(value.as_str()), "{}: {value} unused in {text}", template.name);
                }
            }
            assert_eq!(named(template.name), Some(template));
        }
    }
}
