//! Value types parsed at the edge: once built, they are valid.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An e-mail address matching the specification's pattern: a local part, `@`, and a
/// domain whose top-level domain has at least two letters, or an IP in brackets.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Email(String);

/// Why a text is not an e-mail address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("E-mail inválido")]
pub struct InvalidEmail;

impl Email {
    /// Parses and normalises (trims, lowercases) an e-mail address.
    pub fn parse(raw: &str) -> Result<Self, InvalidEmail> {
        let email = raw.trim().to_lowercase();
        let (local, domain) = email.rsplit_once('@').ok_or(InvalidEmail)?;
        let local_ok = !local.is_empty()
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && local.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
        if !local_ok || !(domain_is_hostname(domain) || domain_is_bracketed_ip(domain)) {
            return Err(InvalidEmail);
        }
        Ok(Self(email))
    }

    /// The normalised address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn domain_is_hostname(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let Some(tld) = labels.last() else { return false };
    labels.len() >= 2
        && tld.len() >= 2
        && tld.chars().all(|c| c.is_ascii_alphabetic())
        && labels.iter().all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

fn domain_is_bracketed_ip(domain: &str) -> bool {
    domain
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|ip| ip.parse::<std::net::Ipv4Addr>().is_ok())
}

impl TryFrom<String> for Email {
    type Error = InvalidEmail;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<Email> for String {
    fn from(value: Email) -> Self {
        value.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A CPF (individual taxpayer number): 11 digits, not all equal, both check digits right.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Cpf(String);

/// Why a text is not a CPF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("CPF inválido")]
pub struct InvalidCpf;

impl Cpf {
    /// Parses a CPF, with or without its mask.
    pub fn parse(raw: &str) -> Result<Self, InvalidCpf> {
        let digits = only_digits(raw);
        // The sample value of the mask's placeholder is valid by the digits, not a person.
        if digits.len() != 11 || all_same(&digits) || digits == "01234567890" {
            return Err(InvalidCpf);
        }
        let d: Vec<u32> = digits.chars().filter_map(|c| c.to_digit(10)).collect();
        let check = |len: usize| {
            let sum: u32 = (0..len).map(|i| d[i] * (len as u32 + 1 - i as u32)).sum();
            let rest = (sum * 10) % 11;
            if rest == 10 {
                0
            } else {
                rest
            }
        };
        if check(9) != d[9] || check(10) != d[10] {
            return Err(InvalidCpf);
        }
        Ok(Self(digits))
    }

    /// The 11 digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Cpf {
    type Error = InvalidCpf;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<Cpf> for String {
    fn from(value: Cpf) -> Self {
        value.0
    }
}

/// A CNPJ (company taxpayer number): 14 characters with both check digits right. Since July
/// 2026 the first 12 may be upper-case letters too (the alphanumeric CNPJ); the two check
/// digits stay digits. Stored without punctuation, letters upper-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Cnpj(String);

/// Why a text is not a CNPJ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("CNPJ inválido")]
pub struct InvalidCnpj;

impl Cnpj {
    /// Parses a CNPJ, with or without its mask (dots, slash, hyphen, spaces). Any other
    /// character is refused rather than dropped.
    pub fn parse(raw: &str) -> Result<Self, InvalidCnpj> {
        if !raw.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-' | ' ')) {
            return Err(InvalidCnpj);
        }
        let chars: Vec<u8> =
            raw.bytes().filter(u8::is_ascii_alphanumeric).map(|b| b.to_ascii_uppercase()).collect();
        if chars.len() != 14 || !chars[12..].iter().all(u8::is_ascii_digit) {
            return Err(InvalidCnpj);
        }
        let text = String::from_utf8(chars.clone()).map_err(|_| InvalidCnpj)?;
        if all_same(&text) && chars[0].is_ascii_digit() {
            return Err(InvalidCnpj);
        }
        // Receita Federal's rule: each character weighs its ASCII code minus 48, so digits
        // keep their value and 'A' is 17; then the usual modulus 11.
        let worth = |c: u8| u32::from(c) - 48;
        let check = |len: usize| {
            let weights: &[u32] = if len == 12 {
                &[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
            } else {
                &[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
            };
            let sum: u32 = (0..len).map(|i| worth(chars[i]) * weights[i]).sum();
            let rest = sum % 11;
            if rest < 2 {
                0
            } else {
                11 - rest
            }
        };
        if check(12) != worth(chars[12]) || check(13) != worth(chars[13]) {
            return Err(InvalidCnpj);
        }
        Ok(Self(text))
    }

    /// The 14 characters, without punctuation.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Cnpj {
    type Error = InvalidCnpj;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<Cnpj> for String {
    fn from(value: Cnpj) -> Self {
        value.0
    }
}

/// Keeps only the ASCII digits of a masked input.
pub fn only_digits(raw: &str) -> String {
    raw.chars().filter(char::is_ascii_digit).collect()
}

fn all_same(digits: &str) -> bool {
    digits.chars().all(|c| digits.starts_with(c))
}

/// The password rules of spec 01 §5: at least six characters with a lowercase letter, an
/// uppercase letter, a digit and one of `! @ # $ % ^ & *`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PasswordChecklist {
    /// At least six characters.
    pub min_length: bool,
    /// At least one uppercase letter.
    pub uppercase: bool,
    /// At least one lowercase letter.
    pub lowercase: bool,
    /// At least one digit.
    pub digit: bool,
    /// At least one of `! @ # $ % ^ & *`.
    pub special: bool,
}

/// Shortest password accepted anywhere.
pub const PASSWORD_MIN_LENGTH: usize = 6;

impl PasswordChecklist {
    /// Checks a candidate password.
    pub fn of(password: &str) -> Self {
        Self {
            min_length: password.chars().count() >= PASSWORD_MIN_LENGTH,
            uppercase: password.chars().any(|c| c.is_uppercase()),
            lowercase: password.chars().any(|c| c.is_lowercase()),
            digit: password.chars().any(|c| c.is_ascii_digit()),
            special: password.chars().any(|c| "!@#$%^&*".contains(c)),
        }
    }

    /// Whether every rule holds.
    pub fn all(self) -> bool {
        self.min_length && self.uppercase && self.lowercase && self.digit && self.special
    }
}

/// The messages one password form shows (spec 01 §5 words them differently per form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PasswordMessages {
    /// The field is empty.
    pub required: &'static str,
    /// Shorter than six characters.
    pub too_short: &'static str,
    /// Missing an uppercase, lowercase, digit or special character.
    pub weak: &'static str,
}

/// 'Set password (registration)'.
pub const REGISTRATION_PASSWORD: PasswordMessages = PasswordMessages {
    required: "Digite sua senha.",
    too_short: "Sua senha precisa ter ao menos 6 dígitos",
    weak: "Digite uma senha válida.",
};

/// 'New password (recovery)'.
pub const RECOVERY_PASSWORD: PasswordMessages = PasswordMessages {
    required: "Digite a senha nova.",
    too_short: "Mínimo de 6 caracteres.",
    weak: "Digite uma senha válida.",
};

impl PasswordMessages {
    /// The message for a new password that breaks a rule, `None` when it is acceptable.
    pub fn check(&self, password: &str) -> Option<&'static str> {
        let checklist = PasswordChecklist::of(password);
        if password.is_empty() {
            Some(self.required)
        } else if !checklist.min_length {
            Some(self.too_short)
        } else if !checklist.all() {
            Some(self.weak)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_passwords_get_each_forms_own_messages() {
        assert_eq!(REGISTRATION_PASSWORD.check(""), Some("Digite sua senha."));
        assert_eq!(RECOVERY_PASSWORD.check("Ab1@"), Some("Mínimo de 6 caracteres."));
        assert_eq!(REGISTRATION_PASSWORD.check("abcdef1@"), Some("Digite uma senha válida."));
        assert_eq!(RECOVERY_PASSWORD.check("Navalha@2026"), None);
    }

    #[test]
    fn emails_follow_the_specification_pattern() {
        for ok in ["ana@navalha.dev", " Ana.Souza@Barbearia.com.br ", "x@[127.0.0.1]"] {
            assert!(Email::parse(ok).is_ok(), "{ok}");
        }
        for bad in ["", "ana", "ana@", "@x.com", "ana@x", "ana@x.c", "ana@x.c0m", "a b@x.com", "ana@[1.2.3]"]
        {
            assert_eq!(Email::parse(bad), Err(InvalidEmail), "{bad}");
        }
        assert_eq!(Email::parse("Ana@X.COM").map(String::from), Ok("ana@x.com".to_owned()));
    }

    #[test]
    fn cpf_check_digits_are_verified() {
        assert!(Cpf::parse("529.982.247-25").is_ok());
        assert!(Cpf::parse("52998224725").is_ok());
        assert_eq!(Cpf::parse("529.982.247-24"), Err(InvalidCpf));
        assert_eq!(Cpf::parse("111.111.111-11"), Err(InvalidCpf));
        assert_eq!(Cpf::parse("012.345.678-90"), Err(InvalidCpf));
        assert_eq!(Cpf::parse("5299822472"), Err(InvalidCpf));
    }

    #[test]
    fn cnpj_check_digits_are_verified() {
        assert!(Cnpj::parse("11.222.333/0001-81").is_ok());
        assert_eq!(Cnpj::parse("11.222.333/0001-82"), Err(InvalidCnpj));
        assert_eq!(Cnpj::parse("00000000000000"), Err(InvalidCnpj));
    }

    #[test]
    fn alphanumeric_cnpj_is_accepted_with_its_check_digits() {
        // Receita Federal's published example of the alphanumeric CNPJ (from July 2026).
        assert_eq!(
            Cnpj::parse("12.ABC.345/01DE-35").map(|c| c.as_str().to_owned()),
            Ok("12ABC34501DE35".to_owned())
        );
        assert_eq!(
            Cnpj::parse("12abc34501de35").map(|c| c.as_str().to_owned()),
            Ok("12ABC34501DE35".to_owned())
        );
        assert_eq!(Cnpj::parse("12.ABC.345/01DE-36"), Err(InvalidCnpj));
        assert_eq!(Cnpj::parse("12.ABC.345/01DE-3X"), Err(InvalidCnpj));
        assert_eq!(Cnpj::parse("12.ABC.345/01DE-35\u{0}"), Err(InvalidCnpj));
        assert_eq!(Cnpj::parse("12.ÁBC.345/01DE-35"), Err(InvalidCnpj));
    }

    /// python-stdnum's published vectors (tests/test_br_cnpj.doctest, test_br_cpf.doctest and
    /// the doctests of stdnum/br/cnpj.py and cpf.py), with Receita Federal's alphanumeric
    /// example.
    #[test]
    fn documents_match_python_stdnum_test_vectors() {
        let valid_cnpjs = [
            "07.195.358/0001-66",
            "08.807.432/0001-10",
            "11.015.248/0001-42",
            "11.017.153/0001-68",
            "11.017.153/0002-49",
            "11.017.153/0003-20",
            "11.017.153/0005-91",
            "11.980.459/0001-15",
            "14.847.283/0001-16",
            "14.847.283/0002-05",
            "14.847.283/0003-88",
            "14.847.283/0004-69",
            "14.847.283/0005-40",
            "16.727.230.0001-97",
            "18.090.575/0001-08",
            "18.090.575/0002-99",
            "18.090.575/0003-70",
            "18.090.575/0004-50",
            "18.090.575/0005-31",
            "22.610.961/0001-50",
            "44.407.989/0001-28",
            "47.080.619/0001-17",
            "53.612.734/0001-98",
            "61882613000194",
            "69.435.154/0001-02",
            "16.727.230/0001-97",
            "12.ABC.345/01DE-35",
        ];
        for cnpj in valid_cnpjs {
            assert!(Cnpj::parse(cnpj).is_ok(), "{cnpj}");
        }
        assert_eq!(Cnpj::parse("16.727.230.0001-98"), Err(InvalidCnpj), "wrong check digit");
        assert_eq!(Cnpj::parse("16.727.230/0001=97"), Err(InvalidCnpj), "invalid delimiter");
        for cpf in ["39053344705", "390.533.447-05"] {
            assert!(Cpf::parse(cpf).is_ok(), "{cpf}");
        }
        for cpf in ["23100299900", "231.002.999-00", ""] {
            assert_eq!(Cpf::parse(cpf), Err(InvalidCpf), "{cpf}");
        }
    }

    #[test]
    fn password_checklist_reports_each_rule() {
        assert!(PasswordChecklist::of("Navalha@2026").all());
        let weak = PasswordChecklist::of("abc");
        assert!(!weak.min_length && !weak.uppercase && weak.lowercase && !weak.digit && !weak.special);
        assert!(!PasswordChecklist::of("Navalha2026").all());
    }
}

/// A postal address as the forms collect it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Address {
    /// CEP, 8 digits.
    pub zip_code: String,
    /// Street name.
    pub street: String,
    /// Street number (at most 99999).
    pub number: String,
    /// Neighbourhood.
    pub district: String,
    /// City.
    pub city: String,
    /// Two-letter state code.
    pub state: String,
    /// Complement (apartment, block, ...).
    pub complement: String,
}

impl Address {
    /// "Rua Augusta, 100, sala 2 - Consolação, São Paulo/SP": what a page shows on one line,
    /// leaving out the parts that are empty.
    pub fn one_line(&self) -> String {
        let street: Vec<&str> = [&self.street, &self.number, &self.complement]
            .into_iter()
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
            .collect();
        let city = match (self.city.trim(), self.state.trim()) {
            ("", state) => state.to_owned(),
            (city, "") => city.to_owned(),
            (city, state) => format!("{city}/{state}"),
        };
        [street.join(", "), self.district.trim().to_owned(), city]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" - ")
    }
}
