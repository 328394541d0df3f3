//! Field rules of the back-office forms (spec 02 §5), with their exact pt-BR messages.
//! command-api answers 422 with these; the web app shows the same texts.

use std::collections::BTreeMap;
use std::fmt;

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

use crate::values::{only_digits, Address};

/// Messages per field, in field order; empty when the input is valid.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors(pub BTreeMap<String, String>);

impl FieldErrors {
    /// Records the first message of a field (later ones for the same field are dropped).
    pub fn add(&mut self, field: &str, message: &str) {
        self.0.entry(field.to_owned()).or_insert_with(|| message.to_owned());
    }

    /// Records `message` when `failed`.
    pub fn check(&mut self, failed: bool, field: &str, message: &str) {
        if failed {
            self.add(field, message);
        }
    }

    /// Records the bound's message ([`msg_too_long`]) when `text` has more than `max`
    /// characters. Call it before the field's other rules: the first message of a field is
    /// the one kept, and a text past its bound is refused for that, whatever else it breaks.
    pub fn check_length(&mut self, field: &str, text: &str, max: usize) {
        if too_long(text, max) {
            self.add(field, &msg_too_long(max));
        }
    }

    /// Whether no rule failed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The message of a field.
    pub fn get(&self, field: &str) -> Option<&str> {
        self.0.get(field).map(String::as_str)
    }
}

// Text bounds (issue 39): every text a form or page sends is bounded, so that no single
// input can grow a row, a token or an index entry without limit. A text past its bound is
// refused with 422 on its field, never cut. The specification's own bounds (plan name 60,
// plan description 150) keep their messages in `plan`. docs/back-office.md lists them all.

/// Longest name of a person or a unit (clients, professionals, units, the public page).
pub const MAX_NAME: usize = 120;
/// Longest e-mail address (RFC 5321: 256 for the path, less its angle brackets).
pub const MAX_EMAIL: usize = 254;
/// Longest free text: descriptions, observations and notes.
pub const MAX_TEXT: usize = 1000;
/// Longest street name.
pub const MAX_STREET: usize = 200;
/// Longest street number as typed; its value stays at most [`MAX_STREET_NUMBER`].
pub const MAX_NUMBER: usize = 20;
/// Longest address complement.
pub const MAX_COMPLEMENT: usize = 100;
/// Longest neighbourhood.
pub const MAX_DISTRICT: usize = 100;
/// Longest city.
pub const MAX_CITY: usize = 100;
/// Longest masked input as typed (CPF, CNPJ, mobile, CEP), mask and spaces included: only
/// its digits are kept, and the rest must not hide anything.
pub const MAX_MASKED: usize = 30;
/// Longest link (a unit's Facebook and Instagram).
pub const MAX_LINK: usize = 500;

/// Whether `text` has more than `max` characters (Unicode scalar values, as the forms'
/// `maxLength` counts them, not bytes).
pub fn too_long(text: &str, max: usize) -> bool {
    // A text of at most `max` bytes has at most `max` characters: no count needed.
    text.len() > max && text.chars().count() > max
}

/// The message of a text past its bound, in the wording of spec 01 §5's 'Mínimo de 6
/// caracteres.': 'Máximo de 120 caracteres.', 'Máximo de 1.000 caracteres.'.
pub fn msg_too_long(max: usize) -> String {
    let digits = max.to_string();
    let mut count = String::new();
    for (i, digit) in digits.chars().enumerate() {
        // pt-BR groups thousands with a dot.
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            count.push('.');
        }
        count.push(digit);
    }
    format!("Máximo de {count} caracteres.")
}

/// A wall-clock time of day, in whole minutes (HH:MM, 24-hour).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeOfDay(u16);

/// Message for a time that is not HH:MM.
pub const MSG_TIME_FORMAT: &str = "Formato incorreto.";

impl TimeOfDay {
    /// Parses `HH:MM` (hours 00-23, minutes 00-59); `HH:MM:SS` is accepted with seconds 00.
    pub fn parse(text: &str) -> Result<Self, &'static str> {
        let parts: Vec<&str> = text.trim().split(':').collect();
        let two_digits = |part: &str| part.len() == 2 && part.chars().all(|c| c.is_ascii_digit());
        let ok = match parts.as_slice() {
            [h, m] => two_digits(h) && two_digits(m),
            [h, m, s] => two_digits(h) && two_digits(m) && *s == "00",
            _ => false,
        };
        if !ok {
            return Err(MSG_TIME_FORMAT);
        }
        let hours: u16 = parts[0].parse().map_err(|_| MSG_TIME_FORMAT)?;
        let minutes: u16 = parts[1].parse().map_err(|_| MSG_TIME_FORMAT)?;
        if hours > 23 || minutes > 59 {
            return Err(MSG_TIME_FORMAT);
        }
        Ok(Self(hours * 60 + minutes))
    }

    /// Minutes since midnight.
    pub fn minutes(self) -> u16 {
        self.0
    }

    /// From minutes since midnight (at most 23:59).
    pub fn from_minutes(minutes: u16) -> Option<Self> {
        (minutes < 24 * 60).then_some(Self(minutes))
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.0 / 60, self.0 % 60)
    }
}

impl TryFrom<String> for TimeOfDay {
    type Error = &'static str;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<TimeOfDay> for chrono::NaiveTime {
    fn from(value: TimeOfDay) -> Self {
        chrono::NaiveTime::from_hms_opt(u32::from(value.0 / 60), u32::from(value.0 % 60), 0)
            .unwrap_or_default()
    }
}

impl From<TimeOfDay> for String {
    fn from(value: TimeOfDay) -> Self {
        value.to_string()
    }
}

/// Whether a name has at least two words of at least `min_len` characters.
pub fn is_full_name(name: &str, min_len: usize) -> bool {
    name.split_whitespace().filter(|word| word.chars().count() >= min_len).count() >= 2
}

/// The mobile rule of spec 02 §5: 11 digits, the area code does not start with 9, and the
/// number starts with 9.
pub fn is_mobile(phone: &str) -> bool {
    let digits: Vec<char> = only_digits(phone).chars().collect();
    digits.len() == 11 && digits[0] != '0' && digits[0] != '9' && digits[1] != '0' && digits[2] == '9'
}

/// The 27 states' two-letter codes.
pub const STATES: [&str; 27] = [
    "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE",
    "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
];

/// Whether a description has a word longer than 2 characters (days off, holidays).
pub fn has_long_word(text: &str) -> bool {
    text.split_whitespace().any(|word| word.chars().count() > 2)
}

/// A birth date the client form accepts: year above 1900 and not after `today`.
pub fn is_valid_client_birth_date(date: NaiveDate, today: NaiveDate) -> bool {
    date.year() > 1900 && date <= today
}

/// A professional's birth date: year above 1900 and earlier than the current year minus 10.
pub fn is_valid_professional_birth_date(date: NaiveDate, today: NaiveDate) -> bool {
    date.year() > 1900 && date.year() < today.year() - 10
}

/// One weekday of a professional's hours, as the form sends it (`None` = empty field).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkingDayInput {
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

/// A period of work within a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Period {
    /// Start, inclusive.
    pub start: TimeOfDay,
    /// End, exclusive.
    pub end: TimeOfDay,
}

fn filled(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// Validates up to three periods of one day (spec 02 §5 'Working-hours day') and returns
/// them in order. Field names are the body's (`firstStart`, ...).
pub fn working_day(input: &WorkingDayInput) -> Result<Vec<Period>, FieldErrors> {
    let mut errors = FieldErrors::default();
    let slots = [
        ("first", &input.first_start, &input.first_end),
        ("second", &input.second_start, &input.second_end),
        ("third", &input.third_start, &input.third_end),
    ];
    let mut periods: Vec<Period> = Vec::new();
    let mut previous_filled = true;
    for (index, (name, start, end)) in slots.iter().enumerate() {
        let (start_field, end_field) = (format!("{name}Start"), format!("{name}End"));
        let (start, end) = (filled(start), filled(end));
        if start.is_none() && end.is_none() {
            previous_filled = false;
            continue;
        }
        if !previous_filled {
            let message =
                if index == 1 { "Preencha o primeiro horário" } else { "Preencha o segundo horário" };
            errors.add(&start_field, message);
        }
        let parsed_start = match start {
            None => {
                errors.add(&start_field, "Preencha a horário de início");
                None
            }
            Some(text) => TimeOfDay::parse(text).map_err(|m| errors.add(&start_field, m)).ok(),
        };
        let parsed_end = match end {
            None => {
                errors.add(&end_field, "Preencha a horário de fim");
                None
            }
            Some(text) => TimeOfDay::parse(text).map_err(|m| errors.add(&end_field, m)).ok(),
        };
        if let (Some(start), Some(end)) = (parsed_start, parsed_end) {
            errors.check(end <= start, &end_field, "Horário final menor que inicial");
            if let Some(last) = periods.last() {
                let message = if index == 1 {
                    "Deve ser maior que final do primeiro"
                } else {
                    "Deve ser maior que final do segundo"
                };
                errors.check(start <= last.end, &start_field, message);
            }
            periods.push(Period { start, end });
        }
    }
    if errors.is_empty() {
        Ok(periods)
    } else {
        Err(errors)
    }
}

/// A date range with an optional time window, as days off and holidays have.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangeInput {
    /// First day.
    pub start_date: Option<NaiveDate>,
    /// Last day.
    pub end_date: Option<NaiveDate>,
    /// The whole day, or only the window.
    pub all_day: bool,
    /// Window start.
    pub start_time: Option<String>,
    /// Window end.
    pub end_time: Option<String>,
}

/// The messages of one range form, and its field names.
#[derive(Debug, Clone, Copy)]
pub struct RangeForm {
    /// Start date field.
    pub start_date_field: &'static str,
    /// End date field.
    pub end_date_field: &'static str,
    /// Start date missing.
    pub start_required: &'static str,
    /// End date missing.
    pub end_required: &'static str,
}

/// Days off: fields `dateStart`/`dateEnd`.
pub const DAY_OFF_RANGE: RangeForm = RangeForm {
    start_date_field: "dateStart",
    end_date_field: "dateEnd",
    start_required: "Digite a data de início",
    end_required: "Digite a data de fim",
};

/// Holidays: fields `startDate`/`endDate`.
pub const HOLIDAY_RANGE: RangeForm = RangeForm {
    start_date_field: "startDate",
    end_date_field: "endDate",
    start_required: "Digite o início",
    end_required: "Digite o fim",
};

/// Validates a day-off or holiday range (years after 2000, end not before start, a time
/// window unless all-day, the window's end after its start on a one-day range).
pub fn date_range(form: RangeForm, input: &RangeInput) -> Result<Option<Period>, FieldErrors> {
    let mut errors = FieldErrors::default();
    let after_2000 = |date: NaiveDate| date.year() > 2000;
    match input.start_date {
        None => errors.add(form.start_date_field, form.start_required),
        Some(date) => errors.check(!after_2000(date), form.start_date_field, "Digite uma data válida"),
    }
    match input.end_date {
        None => errors.add(form.end_date_field, form.end_required),
        Some(date) => {
            errors.check(!after_2000(date), form.end_date_field, "Digite uma data válida");
            if let Some(start) = input.start_date {
                errors.check(date < start, form.end_date_field, "Data deve ser maior ou igual à data inicio");
            }
        }
    }
    if input.all_day {
        return if errors.is_empty() { Ok(None) } else { Err(errors) };
    }
    let mut time = |field: &str, value: &Option<String>, required: &str| match filled(value) {
        None => {
            errors.add(field, required);
            None
        }
        Some(text) => TimeOfDay::parse(text).map_err(|m| errors.add(field, m)).ok(),
    };
    let start = time("startTime", &input.start_time, "Digite o horário inicial");
    let end = time("endTime", &input.end_time, "Digite o horário final");
    if let (Some(start), Some(end)) = (start, end) {
        if input.start_date.is_some() && input.start_date == input.end_date {
            errors.check(end <= start, "endTime", "Horário deve ser maior que horário início");
        }
        if errors.is_empty() {
            return Ok(Some(Period { start, end }));
        }
    }
    Err(errors)
}

/// Largest service time the form takes, in minutes.
pub const MAX_SERVICE_MINUTES: i64 = 999;
/// Largest price the money input takes (9 digits of cents).
pub const MAX_SERVICE_CENTS: i64 = 999_999_999;

/// Validates a professional's service: chosen, time 1..=999 minutes, value above 0.
pub fn professional_service(
    id_service: Option<i64>,
    minutes: Option<i64>,
    cents: Option<i64>,
) -> FieldErrors {
    let mut errors = FieldErrors::default();
    errors.check(id_service.unwrap_or(0) <= 0, "idService", "Escolha um serviço");
    match minutes {
        None => errors.add("time", "O campo Tempo é obrigatório"),
        Some(minutes) => {
            errors.check(minutes < 1, "time", "O tempo não pode ser 0");
            errors.check(minutes > MAX_SERVICE_MINUTES, "time", "O tempo deve ser de no máximo 999 minutos");
        }
    }
    match cents {
        None => errors.add("value", "O campo Valor é obrigatório"),
        Some(cents) => {
            errors.check(cents <= 0, "value", "O valor precisa ser maior que 0");
            errors.check(cents > MAX_SERVICE_CENTS, "value", "O valor deve ser de no máximo R$ 9.999.999,99");
        }
    }
    errors
}

/// Largest street number.
pub const MAX_STREET_NUMBER: u32 = 99_999;

/// Validates a street number: required, digits, at most 99999.
pub fn is_street_number(number: &str) -> bool {
    let number = number.trim();
    !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
        && number.parse::<u32>().is_ok_and(|n| n <= MAX_STREET_NUMBER)
}

/// An address as the professional and company forms send it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressInput {
    /// CEP, masked or not.
    pub zip_code: String,
    /// Street name.
    pub street: String,
    /// Street number.
    pub number: String,
    /// Neighbourhood.
    pub district: String,
    /// City.
    pub city: String,
    /// State code, or `--` for none.
    pub state: String,
    /// Complement.
    pub complement: String,
}

/// Validates an address (spec 02 §5 'Professional and my profile', 'Company'): CEP of 8
/// digits, a street of two words, a number up to 99999, neighbourhood, city and a state,
/// each text within its bound (street 200, number 20, complement, neighbourhood and city
/// 100, the CEP as typed 30). `zip_field` is the body's name for the CEP (`cep` or `zipCode`).
pub fn address(input: &AddressInput, zip_field: &str, errors: &mut FieldErrors) -> Address {
    let street = input.street.split_whitespace().collect::<Vec<_>>().join(" ");
    errors.check_length(zip_field, input.zip_code.trim(), MAX_MASKED);
    errors.check_length("street", &street, MAX_STREET);
    errors.check_length("number", input.number.trim(), MAX_NUMBER);
    errors.check_length("district", input.district.trim(), MAX_DISTRICT);
    errors.check_length("city", input.city.trim(), MAX_CITY);
    errors.check_length("complement", input.complement.trim(), MAX_COMPLEMENT);
    let zip_code = only_digits(&input.zip_code);
    errors.check(zip_code.is_empty(), zip_field, "Digite o CEP");
    errors.check(zip_code.len() != 8, zip_field, "CEP inválido");
    errors.check(
        street.split(' ').filter(|w| !w.is_empty()).count() < 2,
        "street",
        "Digite o nome da rua completo",
    );
    errors.check(!is_street_number(&input.number), "number", "Digite um número válido.");
    errors.check(input.district.trim().is_empty(), "district", "Digite o bairro");
    errors.check(input.city.trim().is_empty(), "city", "Digite a cidade");
    let state = input.state.trim().to_uppercase();
    errors.check(!STATES.contains(&state.as_str()), "state", "Escolha um estado");
    Address {
        zip_code,
        street,
        number: input.number.trim().to_owned(),
        district: input.district.trim().to_owned(),
        city: input.city.trim().to_owned(),
        state,
        complement: input.complement.trim().to_owned(),
    }
}

/// The reason a correction gives (a reopen, a refund, a sangria): trimmed, required, at most
/// 500 characters; else the pt-BR message.
pub fn reason(text: &str) -> Result<String, &'static str> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Informe o motivo.");
    }
    if text.chars().count() > 500 {
        return Err("O motivo deve ter no máximo 500 caracteres.");
    }
    Ok(text.to_owned())
}

/// Reads a money amount as the forms send it (a number such as `45.5`, or a text such as
/// `"45,50"` or `"R$ 1.234,56"`) into cents; `None` when empty or unreadable.
pub fn money_cents(value: &serde_json::Value) -> Option<i64> {
    match value {
        serde_json::Value::Number(number) => {
            number.as_f64().filter(|v| v.is_finite() && v.abs() < 1e12).map(|v| (v * 100.0).round() as i64)
        }
        serde_json::Value::String(text) => {
            let cleaned: String =
                text.chars().filter(|c| c.is_ascii_digit() || *c == ',' || *c == '.' || *c == '-').collect();
            if cleaned.is_empty() {
                return None;
            }
            // pt-BR: '.' groups thousands and ',' separates the cents.
            let normalised =
                if cleaned.contains(',') { cleaned.replace('.', "").replace(',', ".") } else { cleaned };
            normalised
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && v.abs() < 1e12)
                .map(|v| (v * 100.0).round() as i64)
        }
        _ => None,
    }
}

/// Reads a date as the forms send it: `YYYY-MM-DD`, or an ISO date-time whose first ten
/// characters are the date; `-` and empty count as none.
pub fn form_date(text: Option<&str>) -> Result<Option<NaiveDate>, chrono::ParseError> {
    match text.map(str::trim).filter(|t| !t.is_empty() && *t != "-") {
        None => Ok(None),
        Some(text) => NaiveDate::parse_from_str(text.get(..10).unwrap_or(text), "%Y-%m-%d").map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(values: [&str; 6]) -> WorkingDayInput {
        let some = |v: &str| (!v.is_empty()).then(|| v.to_owned());
        WorkingDayInput {
            first_start: some(values[0]),
            first_end: some(values[1]),
            second_start: some(values[2]),
            second_end: some(values[3]),
            third_start: some(values[4]),
            third_end: some(values[5]),
        }
    }

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
    }

    #[test]
    fn times_are_24_hour_hh_mm() {
        assert_eq!(TimeOfDay::parse("09:30").map(TimeOfDay::minutes), Ok(570));
        assert_eq!(TimeOfDay::parse("23:59:00").map(|t| t.to_string()), Ok("23:59".to_owned()));
        for bad in ["24:00", "9:30", "09:60", "0930", "aa:bb", "09:30:15", ""] {
            assert_eq!(TimeOfDay::parse(bad), Err("Formato incorreto."), "{bad}");
        }
    }

    #[test]
    fn three_ordered_periods_are_accepted() {
        let periods =
            working_day(&day(["08:00", "12:00", "13:00", "18:00", "19:00", "21:00"])).unwrap_or_default();
        assert_eq!(periods.len(), 3);
        assert_eq!(working_day(&day(["", "", "", "", "", ""])), Ok(vec![]));
    }

    #[test]
    fn each_working_hours_rule_has_its_message() {
        let message = |values, field: &str| {
            working_day(&day(values)).err().and_then(|e| e.get(field).map(str::to_owned))
        };
        assert_eq!(
            message(["08:00", "", "", "", "", ""], "firstEnd").as_deref(),
            Some("Preencha a horário de fim")
        );
        assert_eq!(
            message(["", "12:00", "", "", "", ""], "firstStart").as_deref(),
            Some("Preencha a horário de início")
        );
        assert_eq!(
            message(["12:00", "08:00", "", "", "", ""], "firstEnd").as_deref(),
            Some("Horário final menor que inicial")
        );
        assert_eq!(
            message(["08:00", "12:00", "11:00", "18:00", "", ""], "secondStart").as_deref(),
            Some("Deve ser maior que final do primeiro")
        );
        assert_eq!(
            message(["08:00", "12:00", "13:00", "18:00", "17:00", "20:00"], "thirdStart").as_deref(),
            Some("Deve ser maior que final do segundo")
        );
        assert_eq!(
            message(["", "", "13:00", "18:00", "", ""], "secondStart").as_deref(),
            Some("Preencha o primeiro horário")
        );
        assert_eq!(
            message(["08:00", "12:00", "", "", "19:00", "20:00"], "thirdStart").as_deref(),
            Some("Preencha o segundo horário")
        );
        assert_eq!(
            message(["8h", "12:00", "", "", "", ""], "firstStart").as_deref(),
            Some("Formato incorreto.")
        );
    }

    #[test]
    fn ranges_follow_the_day_off_and_holiday_rules() {
        let all_day = RangeInput {
            start_date: Some(date(2026, 12, 24)),
            end_date: Some(date(2026, 12, 26)),
            all_day: true,
            ..Default::default()
        };
        assert_eq!(date_range(HOLIDAY_RANGE, &all_day), Ok(None));
        let backwards = RangeInput { end_date: Some(date(2026, 12, 20)), ..all_day.clone() };
        let errors = date_range(HOLIDAY_RANGE, &backwards).err().unwrap_or_default();
        assert_eq!(errors.get("endDate"), Some("Data deve ser maior ou igual à data inicio"));
        let old = RangeInput { start_date: Some(date(1999, 1, 1)), ..all_day.clone() };
        assert_eq!(
            date_range(DAY_OFF_RANGE, &old).err().unwrap_or_default().get("dateStart"),
            Some("Digite uma data válida")
        );
        let window = RangeInput {
            start_date: Some(date(2026, 12, 24)),
            end_date: Some(date(2026, 12, 24)),
            all_day: false,
            start_time: Some("14:00".into()),
            end_time: Some("12:00".into()),
        };
        assert_eq!(
            date_range(DAY_OFF_RANGE, &window).err().unwrap_or_default().get("endTime"),
            Some("Horário deve ser maior que horário início")
        );
        let missing = RangeInput { start_time: None, ..window.clone() };
        assert_eq!(
            date_range(DAY_OFF_RANGE, &missing).err().unwrap_or_default().get("startTime"),
            Some("Digite o horário inicial")
        );
        let fine = RangeInput { end_time: Some("18:00".into()), ..window };
        assert!(matches!(date_range(DAY_OFF_RANGE, &fine), Ok(Some(_))));
        let empty = date_range(HOLIDAY_RANGE, &RangeInput { all_day: true, ..Default::default() })
            .err()
            .unwrap_or_default();
        assert_eq!(
            (empty.get("startDate"), empty.get("endDate")),
            (Some("Digite o início"), Some("Digite o fim"))
        );
    }

    #[test]
    fn people_rules() {
        assert!(is_full_name("Ana Souza", 2));
        assert!(!is_full_name("Ana", 2));
        assert!(!is_full_name("Ana S", 2));
        assert!(is_mobile("(11) 9 8765-4321"));
        assert!(!is_mobile("(91) 9 8765-4321"), "area code starting with 9");
        assert!(!is_mobile("(11) 8 8765-4321"), "not a mobile");
        assert!(!is_mobile("1198765432"));
        let today = date(2026, 11, 22);
        assert!(is_valid_client_birth_date(date(1990, 5, 1), today));
        assert!(!is_valid_client_birth_date(date(1900, 5, 1), today));
        assert!(!is_valid_client_birth_date(date(2026, 11, 23), today));
        assert!(is_valid_professional_birth_date(date(2015, 12, 31), today));
        assert!(!is_valid_professional_birth_date(date(2016, 1, 1), today));
        assert!(has_long_word("Férias de verão") && !has_long_word("a b"));
        assert!(STATES.contains(&"SP") && !STATES.contains(&"--"));
        assert!(is_street_number("99999") && !is_street_number("100000") && !is_street_number("12a"));
    }

    /// A text of `n` characters, none of them ASCII (two bytes each), to count characters
    /// rather than bytes.
    fn text(n: usize) -> String {
        "é".repeat(n)
    }

    #[test]
    fn bounds_count_characters_and_say_so_in_pt_br() {
        assert!(!too_long(&text(120), MAX_NAME), "240 bytes, 120 characters");
        assert!(too_long(&text(121), MAX_NAME));
        assert!(!too_long("", 0) && too_long("a", 0));
        assert_eq!(msg_too_long(MAX_NAME), "Máximo de 120 caracteres.");
        assert_eq!(msg_too_long(MAX_EMAIL), "Máximo de 254 caracteres.");
        assert_eq!(msg_too_long(MAX_TEXT), "Máximo de 1.000 caracteres.");
        assert_eq!(msg_too_long(1_234_567), "Máximo de 1.234.567 caracteres.");
        let mut errors = FieldErrors::default();
        errors.check_length("name", &text(MAX_NAME), MAX_NAME);
        assert!(errors.is_empty());
        errors.check_length("name", &text(MAX_NAME + 1), MAX_NAME);
        errors.check(true, "name", "Digite o nome completo");
        assert_eq!(errors.get("name"), Some("Máximo de 120 caracteres."), "the bound's message is kept");
    }

    fn address_input() -> AddressInput {
        AddressInput {
            zip_code: "01042-001".into(),
            street: "Rua Barão de Itapetininga".into(),
            number: "50".into(),
            district: "República".into(),
            city: "São Paulo".into(),
            state: "SP".into(),
            complement: "Sala 2".into(),
        }
    }

    #[test]
    fn each_address_field_has_its_bound() {
        let checked = |input: AddressInput| {
            let mut errors = FieldErrors::default();
            address(&input, "cep", &mut errors);
            errors
        };
        assert!(checked(address_input()).is_empty());
        let street = |n: usize| format!("Rua {}", "b".repeat(n - 4));
        let at_the_bounds = AddressInput {
            zip_code: format!("01042-001{}", "-".repeat(MAX_MASKED - 9)),
            street: street(MAX_STREET),
            number: format!("{}50", "0".repeat(MAX_NUMBER - 2)),
            district: text(MAX_DISTRICT),
            city: text(MAX_CITY),
            complement: text(MAX_COMPLEMENT),
            ..address_input()
        };
        assert!(checked(at_the_bounds.clone()).is_empty(), "{:?}", checked(at_the_bounds));
        let cases: Vec<(AddressInput, &str, usize)> = vec![
            (
                AddressInput {
                    zip_code: format!("01042-001{}", "-".repeat(MAX_MASKED - 8)),
                    ..address_input()
                },
                "cep",
                MAX_MASKED,
            ),
            (AddressInput { street: street(MAX_STREET + 1), ..address_input() }, "street", MAX_STREET),
            (
                AddressInput { number: format!("{}50", "0".repeat(MAX_NUMBER - 1)), ..address_input() },
                "number",
                MAX_NUMBER,
            ),
            (AddressInput { district: text(MAX_DISTRICT + 1), ..address_input() }, "district", MAX_DISTRICT),
            (AddressInput { city: text(MAX_CITY + 1), ..address_input() }, "city", MAX_CITY),
            (
                AddressInput { complement: text(MAX_COMPLEMENT + 1), ..address_input() },
                "complement",
                MAX_COMPLEMENT,
            ),
        ];
        for (input, field, max) in cases {
            let errors = checked(input);
            assert_eq!(errors.get(field), Some(msg_too_long(max).as_str()), "{field}: {errors:?}");
            assert_eq!(errors.0.len(), 1, "{field}: only the bound fails: {errors:?}");
        }
    }

    #[test]
    fn service_rules() {
        assert!(professional_service(Some(1), Some(30), Some(4500)).is_empty());
        let errors = professional_service(None, Some(0), Some(0));
        assert_eq!(errors.get("idService"), Some("Escolha um serviço"));
        assert_eq!(errors.get("time"), Some("O tempo não pode ser 0"));
        assert_eq!(errors.get("value"), Some("O valor precisa ser maior que 0"));
        let missing = professional_service(Some(1), None, None);
        assert_eq!(missing.get("time"), Some("O campo Tempo é obrigatório"));
        assert_eq!(missing.get("value"), Some("O campo Valor é obrigatório"));
        assert!(professional_service(Some(1), Some(1000), Some(1)).get("time").is_some());
    }
}
