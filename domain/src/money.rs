//! Money: integer centavos inside, reais on the wire (docs/money.md). Every rounding Navalha
//! does is one of the functions here, each with its rule written down and tested:
//!
//! - a value read from the wire has at most two decimals: more is refused, never rounded;
//! - a percentage of an amount is rounded to the nearest centavo, half up (R$ 0,125 is
//!   R$ 0,13), in integers: no floating point touches a centavo; so is a proportion of an
//!   amount (`proportion`: the value some units of a stock take);
//! - an amount shared out in proportion (a discount on the total spread over the items) goes
//!   by largest remainder, so the shares always add up to the amount exactly; ties go to the
//!   earlier share.

use serde_json::Value;

/// Basis points in 100 %: a percentage is kept as hundredths of a percent (12,5 % = 1250).
pub const WHOLE: i64 = 10_000;

/// The most a price, tip, payment or cash movement may be: R$ 100.000,00.
pub const MAX_CENTS: i64 = 10_000_000;

/// An amount within `1..=MAX_CENTS` (`0..` when `zero` is allowed), or the pt-BR message.
pub fn check_amount(cents: i64, zero: bool) -> Result<(), String> {
    if cents < i64::from(!zero) {
        return Err(if zero {
            "O valor não pode ser negativo."
        } else {
            "Informe um valor maior que zero."
        }
        .to_owned());
    }
    if cents > MAX_CENTS {
        return Err(format!("O valor deve ser de no máximo {}.", brl(MAX_CENTS)));
    }
    Ok(())
}

/// Why a value from the wire is not money.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotMoney {
    /// Not a number, or a text that does not read as one.
    Unreadable,
    /// More than two decimals.
    TooPrecise,
}

impl NotMoney {
    /// The pt-BR message for the field.
    pub fn message(self) -> &'static str {
        match self {
            NotMoney::Unreadable => "Informe um valor em reais.",
            NotMoney::TooPrecise => "Use no máximo duas casas decimais.",
        }
    }
}

/// The centavos of a value in reais as the wire sends it: a JSON number (`45.5`) or a text as
/// a person types it (`"45,50"`, `"R$ 1.234,56"`). Exact: a third decimal is refused, and the
/// number's text is read digit by digit, never through a float.
pub fn cents_from_reais(value: &Value) -> Result<i64, NotMoney> {
    let text = match value {
        Value::Number(number) => number.to_string(),
        Value::String(text) => {
            let kept: String =
                text.chars().filter(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '-')).collect();
            // pt-BR: '.' groups thousands and ',' separates the centavos.
            if kept.contains(',') {
                kept.replace('.', "").replace(',', ".")
            } else {
                kept
            }
        }
        _ => return Err(NotMoney::Unreadable),
    };
    parse_decimal(&text)
}

/// `-?digits(.digits)?` to centavos; an exponent (`1e2`) is refused as unreadable.
fn parse_decimal(text: &str) -> Result<i64, NotMoney> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |part: &str| part.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || whole.len() > 12 {
        return Err(NotMoney::Unreadable);
    }
    let fraction = fraction.trim_end_matches('0');
    if fraction.len() > 2 {
        return Err(NotMoney::TooPrecise);
    }
    let whole: i64 = whole.parse().map_err(|_| NotMoney::Unreadable)?;
    let centavos: i64 = format!("{fraction:0<2}").parse().map_err(|_| NotMoney::Unreadable)?;
    let cents = whole * 100 + centavos;
    Ok(if negative { -cents } else { cents })
}

/// Reais on the wire: what the specification's answers show (`45.5`).
pub fn reais(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// `basis_points` of `cents`, to the nearest centavo, half up.
pub fn percent_of(cents: i64, basis_points: i64) -> i64 {
    let scaled = i128::from(cents) * i128::from(basis_points);
    let whole = i128::from(WHOLE);
    // Half up on the magnitude, so that a refund rounds as its charge did.
    let rounded = (scaled.abs() + whole / 2) / whole;
    let rounded = if scaled < 0 { -rounded } else { rounded };
    i64::try_from(rounded).unwrap_or(if rounded < 0 { i64::MIN } else { i64::MAX })
}

/// `part / whole` of `cents`, to the nearest centavo, half up on the magnitude (the share of
/// a stock's value that some of its units take, docs/money.md 'Stock'). `whole` positive.
pub fn proportion(cents: i64, part: i64, whole: i64) -> i64 {
    let scaled = i128::from(cents) * i128::from(part);
    let whole = i128::from(whole.max(1));
    let rounded = (scaled.abs() * 2 + whole) / (whole * 2);
    let rounded = if scaled < 0 { -rounded } else { rounded };
    i64::try_from(rounded).unwrap_or(if rounded < 0 { i64::MIN } else { i64::MAX })
}

/// `amount` shared out in proportion to `weights` (non-negative), by largest remainder: the
/// shares add up to `amount` exactly; ties go to the earlier weight. All zero weights share
/// nothing but the first takes everything, so no centavo is lost.
pub fn share_out(amount: i64, weights: &[i64]) -> Vec<i64> {
    let total: i128 = weights.iter().map(|w| i128::from((*w).max(0))).sum();
    if weights.is_empty() {
        return Vec::new();
    }
    if total == 0 {
        let mut shares = vec![0; weights.len()];
        shares[0] = amount;
        return shares;
    }
    let amount_wide = i128::from(amount);
    let mut shares: Vec<i64> = Vec::with_capacity(weights.len());
    let mut remainders: Vec<(i128, usize)> = Vec::with_capacity(weights.len());
    for (index, weight) in weights.iter().enumerate() {
        let exact = amount_wide * i128::from((*weight).max(0));
        shares.push(i64::try_from(exact.div_euclid(total)).unwrap_or_default());
        remainders.push((exact.rem_euclid(total), index));
    }
    let mut left = amount - shares.iter().sum::<i64>();
    // Largest remainder first; on a tie, the earlier weight.
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, index) in remainders {
        if left == 0 {
            break;
        }
        shares[index] += 1;
        left -= 1;
    }
    shares
}

/// `R$ 1.234,56`, as the screens and messages write money.
pub fn brl(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let magnitude = cents.unsigned_abs();
    let whole = (magnitude / 100).to_string();
    let mut grouped = String::new();
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(digit);
    }
    format!("{sign}R$ {grouped},{:02}", magnitude % 100)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn wire_values_are_read_exactly_and_a_third_decimal_is_refused() {
        assert_eq!(cents_from_reais(&json!(45.5)), Ok(4550));
        assert_eq!(cents_from_reais(&json!(0.1)), Ok(10));
        assert_eq!(cents_from_reais(&json!(19.99)), Ok(1999), "no float on the way");
        assert_eq!(cents_from_reais(&json!(3)), Ok(300));
        assert_eq!(cents_from_reais(&json!("R$ 1.234,56")), Ok(123_456));
        assert_eq!(cents_from_reais(&json!("45,5")), Ok(4550));
        assert_eq!(cents_from_reais(&json!("-2,00")), Ok(-200));
        assert_eq!(cents_from_reais(&json!(10.005)), Err(NotMoney::TooPrecise));
        assert_eq!(cents_from_reais(&json!("10,001")), Err(NotMoney::TooPrecise));
        assert_eq!(cents_from_reais(&json!(10.10)), Ok(1010), "trailing zeros are no precision");
        assert_eq!(cents_from_reais(&json!("abc")), Err(NotMoney::Unreadable));
        assert_eq!(cents_from_reais(&json!(1e20)), Err(NotMoney::Unreadable));
        assert_eq!(cents_from_reais(&json!(null)), Err(NotMoney::Unreadable));
        assert_eq!(cents_from_reais(&json!(12.5)), Ok(1250), "a percentage's basis points, read alike");
    }

    #[test]
    fn a_percentage_rounds_half_up_to_the_centavo() {
        assert_eq!(percent_of(1000, 1250), 125);
        assert_eq!(percent_of(1, 5000), 1, "R$ 0,005 is R$ 0,01");
        assert_eq!(percent_of(3, 5000), 2, "R$ 0,015 is R$ 0,02");
        assert_eq!(percent_of(4999, 1000), 500, "R$ 49,99 at 10 % is R$ 5,00 (4,999)");
        assert_eq!(percent_of(4994, 1000), 499);
        assert_eq!(percent_of(-3, 5000), -2, "a refund rounds as its charge did");
        assert_eq!(percent_of(4550, WHOLE), 4550);
        assert_eq!(percent_of(i64::MAX, WHOLE), i64::MAX, "no overflow");
    }

    #[test]
    fn a_shared_amount_adds_up_exactly_by_largest_remainder() {
        assert_eq!(share_out(100, &[1, 1, 1]), [34, 33, 33], "the tie goes to the first");
        assert_eq!(share_out(1000, &[4500, 3000, 2500]), [450, 300, 250]);
        assert_eq!(share_out(7, &[2, 5]), [2, 5]);
        assert_eq!(share_out(10, &[1, 2]), [3, 7], "3.33 and 6.67: the larger remainder gets it");
        assert_eq!(share_out(5, &[0, 0]), [5, 0], "nothing to weigh: the first keeps it");
        assert!(share_out(5, &[]).is_empty());
        for (amount, weights) in [(999, vec![1, 2, 3, 4]), (1, vec![7, 7, 7]), (12_345, vec![100, 1, 1])] {
            assert_eq!(share_out(amount, &weights).iter().sum::<i64>(), amount);
        }
    }

    #[test]
    fn money_is_written_as_in_brazil() {
        assert_eq!(brl(123_456), "R$ 1.234,56");
        assert_eq!(brl(5), "R$ 0,05");
        assert_eq!(brl(-200), "-R$ 2,00");
        assert_eq!(brl(100_000_000), "R$ 1.000.000,00");
    }
}
