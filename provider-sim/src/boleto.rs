//! A boleto's linha digitável as a Brazilian bank prints it (FEBRABAN's layout): 47 digits
//! in five fields, each of the first three with its modulo-10 check digit, the fourth the
//! bar code's modulo-11 check digit, the fifth the due factor and the value. The simulated
//! bank is Itaú (341); the free field carries the charge's id.

use chrono::NaiveDate;

/// The linha digitável of a boleto for `value_cents` due on `due`, charge `id`.
pub fn bank_line(id: i64, value_cents: i64, due: NaiveDate) -> String {
    let free = format!("{:025}", id.rem_euclid(10_i64.pow(18)));
    let tail = format!("{:04}{:010}", due_factor(due), value_cents.clamp(0, 9_999_999_999));
    let without_check = format!("3419{tail}{free}");
    let check = modulo_11(&without_check);
    let field = |digits: &str| format!("{digits}{}", modulo_10(digits));
    let (one, two, three) = (field(&format!("3419{}", &free[..5])), field(&free[5..15]), field(&free[15..]));
    format!(
        "{}.{} {}.{} {}.{} {check} {tail}",
        &one[..5],
        &one[5..],
        &two[..5],
        &two[5..],
        &three[..5],
        &three[5..]
    )
}

/// Days since 1997-10-07, restarting at 1000 after 9999 (as banks did on 2025-02-22).
fn due_factor(due: NaiveDate) -> i64 {
    let base = NaiveDate::from_ymd_opt(1997, 10, 7).unwrap_or_default();
    let days = (due - base).num_days();
    if days < 1000 {
        days.max(0)
    } else {
        (days - 1000) % 9000 + 1000
    }
}

fn digits(text: &str) -> impl DoubleEndedIterator<Item = u32> + '_ {
    text.chars().filter_map(|c| c.to_digit(10))
}

/// Weights 2, 1, 2, ... from the right; the products' digits summed.
fn modulo_10(text: &str) -> u32 {
    let sum: u32 = digits(text)
        .rev()
        .enumerate()
        .map(|(at, d)| {
            let product = d * if at % 2 == 0 { 2 } else { 1 };
            product / 10 + product % 10
        })
        .sum();
    (10 - sum % 10) % 10
}

/// Weights 2 to 9 from the right; 0, 10 and 11 become 1.
fn modulo_11(text: &str) -> u32 {
    let sum: u32 = digits(text).rev().enumerate().map(|(at, d)| d * (2 + at as u32 % 8)).sum();
    match 11 - sum % 11 {
        0 | 10 | 11 => 1,
        check => check,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_checks_and_the_bar_code_rebuilt_from_the_line_checks() {
        let due = NaiveDate::from_ymd_opt(2026, 12, 1).unwrap_or_default();
        let line = bank_line(123_456, 8_990, due);
        let all: String = digits(&line).map(|d| char::from_digit(d, 10).unwrap_or('0')).collect();
        assert_eq!(all.len(), 47, "{line}");
        for (start, end) in [(0, 10), (10, 21), (21, 32)] {
            let field = &all[start..end];
            assert_eq!(modulo_10(&field[..field.len() - 1]), digits(&field[field.len() - 1..]).sum::<u32>());
        }
        assert!(all.ends_with("0000008990"), "the value in cents ends the line: {line}");
        // Bar code: bank and currency, check digit, factor and value, free field.
        let bar = format!("{}{}{}{}{}", &all[..4], &all[32..33], &all[33..], &all[4..9], &all[10..20]);
        let bar = format!("{bar}{}", &all[21..31]);
        assert_eq!(bar.len(), 44);
        assert_eq!(modulo_11(&format!("{}{}", &bar[..4], &bar[5..])), digits(&bar[4..5]).sum::<u32>());
        // 2025-02-22 is factor 1000 again; the day before, 9999.
        assert_eq!(due_factor(NaiveDate::from_ymd_opt(2025, 2, 22).unwrap_or_default()), 1000);
        assert_eq!(due_factor(NaiveDate::from_ymd_opt(2025, 2, 21).unwrap_or_default()), 9999);
    }

    #[test]
    fn the_check_digits_match_a_published_example() {
        // FEBRABAN's modulo-10 example: 0019050095 → 5 (field "00190.50095").
        assert_eq!(modulo_10("001905009"), 5);
    }
}
