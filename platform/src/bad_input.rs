//! What a body or query string that does not fit its type is told, in pt-BR.
//!
//! serde's refusals are English and name Rust types (`invalid type: string "a", expected
//! i64 at line 1 column 9`); users and API clients read these answers, so each kind of
//! refusal is said again in Portuguese, with the field it names.

/// The pt-BR reason for a serde refusal (`serde_json`'s or `serde_urlencoded`'s text),
/// without the field and position.
pub fn reason(serde_text: &str) -> String {
    let text = serde_text.split(" at line ").next().unwrap_or(serde_text).trim();
    if let Some(field) = quoted_after(text, "missing field ") {
        return format!("o campo '{field}' é obrigatório");
    }
    if let Some(field) = quoted_after(text, "unknown field ") {
        return format!("o campo '{field}' não existe");
    }
    if let Some(field) = quoted_after(text, "duplicate field ") {
        return format!("o campo '{field}' foi enviado duas vezes");
    }
    if let Some(value) = quoted_after(text, "unknown variant ") {
        return format!("o valor '{value}' não é aceito");
    }
    if let Some(expected) = text.split(", expected ").nth(1) {
        if text.starts_with("invalid type")
            || text.starts_with("invalid value")
            || text.starts_with("invalid length")
        {
            return format!("esperado {}", expected_in_portuguese(expected));
        }
    }
    if text.contains("number out of range") || text.contains("number too large") {
        return "número fora do intervalo aceito".to_owned();
    }
    if text.contains("invalid digit") || text.contains("cannot parse integer") {
        return "esperado um número inteiro".to_owned();
    }
    if text.contains("invalid float") {
        return "esperado um número".to_owned();
    }
    if text.contains("provided string was not `true` or `false`") {
        return "esperado verdadeiro ou falso (true ou false)".to_owned();
    }
    "formato inválido".to_owned()
}

/// What serde's `expected ...` names, in words.
fn expected_in_portuguese(expected: &str) -> &'static str {
    let expected = expected.trim();
    let is = |prefixes: &[&str]| prefixes.iter().any(|prefix| expected.starts_with(prefix));
    if is(&[
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "usize",
        "isize",
        "an integer",
    ]) {
        "um número inteiro"
    } else if is(&["f32", "f64", "a number", "a float"]) {
        "um número"
    } else if is(&["a boolean"]) {
        "verdadeiro ou falso (true ou false)"
    } else if is(&["a string", "a borrowed string", "a character", "a char"]) {
        "um texto"
    } else if is(&["a sequence", "a tuple", "a list", "an array"]) || expected.contains("element") {
        "uma lista"
    } else if is(&["struct", "a map", "an object"]) {
        "um objeto"
    } else if expected.contains("date") || expected.contains("time") {
        "uma data ou hora válida"
    } else {
        "outro formato"
    }
}

/// The text between backticks right after `prefix`, when `text` has it.
fn quoted_after<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = &text[text.find(prefix)? + prefix.len()..];
    let rest = rest.strip_prefix('`')?;
    rest.split('`').next()
}

/// The message for a body whose field `path` (`dot.separated`, empty for the body itself)
/// serde refused with `serde_text`.
pub fn body_message(path: &str, serde_text: &str) -> String {
    let reason = reason(serde_text);
    if path.is_empty() || path == "." {
        format!("Dados inválidos: {reason}.")
    } else {
        format!("Dados inválidos no campo '{path}': {reason}.")
    }
}

/// The message for a query string serde refused with `serde_text`.
pub fn query_message(serde_text: &str) -> String {
    let text = serde_text.strip_prefix("Failed to deserialize query string: ").unwrap_or(serde_text);
    format!("Parâmetros inválidos: {}.", reason(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_refusals_are_said_in_portuguese() {
        let cases = [
            ("invalid type: string \"a\", expected i64 at line 1 column 9", "esperado um número inteiro"),
            ("invalid type: integer `1`, expected a string", "esperado um texto"),
            (
                "invalid type: string \"x\", expected a boolean",
                "esperado verdadeiro ou falso (true ou false)",
            ),
            ("invalid type: map, expected a sequence", "esperado uma lista"),
            ("invalid type: sequence, expected struct SchedulingBody", "esperado um objeto"),
            ("invalid value: integer `-1`, expected u32", "esperado um número inteiro"),
            ("missing field `name`", "o campo 'name' é obrigatório"),
            ("unknown field `nmae`, expected one of `name`, `cpf`", "o campo 'nmae' não existe"),
            ("unknown variant `weekly`, expected `monthly` or `yearly`", "o valor 'weekly' não é aceito"),
            ("invalid digit found in string", "esperado um número inteiro"),
            ("number out of range at line 1 column 40", "número fora do intervalo aceito"),
            ("something serde may say one day", "formato inválido"),
        ];
        for (serde_text, expected) in cases {
            assert_eq!(reason(serde_text), expected, "{serde_text}");
        }
    }

    #[test]
    fn real_serde_errors_are_translated_with_their_field() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Body {
            quantity: i64,
        }
        let error = serde_json::from_str::<Body>(r#"{"quantity": "dez"}"#).err().map(|e| e.to_string());
        assert_eq!(
            body_message("quantity", &error.unwrap_or_default()),
            "Dados inválidos no campo 'quantity': esperado um número inteiro."
        );
        let error = serde_json::from_str::<Body>("{}").err().map(|e| e.to_string());
        assert_eq!(
            body_message("", &error.unwrap_or_default()),
            "Dados inválidos: o campo 'quantity' é obrigatório."
        );
        assert!(!query_message("Failed to deserialize query string: invalid digit found in string")
            .contains("digit"));
    }
}
