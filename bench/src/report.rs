//! The summary table: each figure, how it was measured, its value, its goal, and whether
//! the goal was met.

use serde_json::{json, Value};

/// One line of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// What is measured.
    pub figure: String,
    /// Under which load.
    pub condition: String,
    /// The value, formatted.
    pub value: String,
    /// The goal, formatted.
    pub goal: String,
    /// Met, missed, or not judged (no data).
    pub met: Option<bool>,
}

impl Row {
    /// A row.
    pub fn new(
        figure: &str,
        condition: impl Into<String>,
        value: impl Into<String>,
        goal: &str,
        met: Option<bool>,
    ) -> Row {
        Row {
            figure: figure.to_owned(),
            condition: condition.into(),
            value: value.into(),
            goal: goal.to_owned(),
            met,
        }
    }

    fn verdict(&self) -> &'static str {
        match self.met {
            Some(true) => "met",
            Some(false) => "MISSED",
            None => "n/a",
        }
    }

    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "figure": self.figure,
            "condition": self.condition,
            "value": self.value,
            "goal": self.goal,
            "met": self.met,
        })
    }
}

/// `12,345`.
pub fn thousands(n: f64) -> String {
    let rounded = n.round() as i64;
    let digits = rounded.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if rounded < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// Milliseconds with sensible precision, or `-`.
pub fn ms(value: Option<f64>) -> String {
    match value {
        None => "-".to_owned(),
        Some(v) if v < 10.0 => format!("{v:.2} ms"),
        Some(v) if v < 100.0 => format!("{v:.1} ms"),
        Some(v) => format!("{v:.0} ms"),
    }
}

/// The table as Markdown, columns aligned.
pub fn render(rows: &[Row]) -> String {
    let header = ["Figure", "Load", "Value", "Goal", ""];
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [r.figure.clone(), r.condition.clone(), r.value.clone(), r.goal.clone(), r.verdict().to_owned()]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
            .collect();
        format!("| {} |", padded.join(" | "))
    };
    let mut out = vec![line(&header.map(str::to_owned))];
    out.push(format!("|{}|", widths.iter().map(|w| "-".repeat(w + 2)).collect::<Vec<_>>().join("|")));
    out.extend(cells.iter().map(|c| line(c)));
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers_and_aligns_the_table() {
        assert_eq!(thousands(1234567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(-1000.0), "-1,000");
        assert_eq!(ms(Some(1.234)), "1.23 ms");
        assert_eq!(ms(Some(45.67)), "45.7 ms");
        assert_eq!(ms(Some(450.0)), "450 ms");
        assert_eq!(ms(None), "-");
        let table = render(&[
            Row::new("Booking commands/s", "64 clients", "1,234/s", "≥ 1,000/s", Some(true)),
            Row::new("Double bookings", "after the load", "0", "0", Some(false)),
            Row::new("Peak memory", "", "-", "< 150 MB", None),
        ]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(lines.iter().all(|l| l.chars().count() == lines[0].chars().count()), "{table}");
        assert!(lines[2].ends_with("| met    |"), "{table}");
        assert!(lines[3].contains("MISSED"));
        assert!(lines[4].contains("n/a"));
    }
}
