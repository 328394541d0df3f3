//! Contains-search over the read models' normalised `search` columns.

/// Turns what a user typed into a LIKE pattern over the normalised search column: masked
/// documents and phones are matched by their digits.
pub fn search_pattern(search: &str) -> Option<String> {
    let term = search.trim();
    if term.is_empty() {
        return None;
    }
    let has_letters = term.chars().any(char::is_alphabetic);
    let term = if has_letters || term.contains('@') {
        term.to_owned()
    } else {
        navalha_domain::values::only_digits(term)
    };
    let escaped = term.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    Some(format!("%{escaped}%"))
}

#[cfg(test)]
mod tests {
    use super::search_pattern;

    #[test]
    fn masked_documents_search_by_digits_and_wildcards_are_literal() {
        assert_eq!(search_pattern("529.982.247-25").as_deref(), Some("%52998224725%"));
        assert_eq!(search_pattern("(11) 98765").as_deref(), Some("%1198765%"));
        assert_eq!(search_pattern(" João ").as_deref(), Some("%João%"));
        assert_eq!(search_pattern("100%_x").as_deref(), Some("%100\\%\\_x%"));
        assert_eq!(search_pattern("  "), None);
    }
}
