//! Logging setup: human-readable lines by default, JSON with `NAVALHA_LOG_FORMAT=json`.

use std::io::IsTerminal as _;

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. `RUST_LOG` filters (default `info`).
pub fn init(service: &str) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let json = std::env::var("NAVALHA_LOG_FORMAT").is_ok_and(|format| format == "json");
    let colours = colours(std::io::stdout().is_terminal(), std::env::var("NO_COLOR").ok().as_deref());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).with_ansi(colours);
    let result = if json { builder.json().try_init() } else { builder.try_init() };
    if result.is_ok() {
        tracing::info!(service, "logging started");
    }
}

/// Whether log lines carry colours: only on a terminal, and unless `NO_COLOR` is set
/// (<https://no-color.org>). A log written to a file or a pipe stays plain text, for
/// `grep` and log collectors.
fn colours(terminal: bool, no_color: Option<&str>) -> bool {
    terminal && no_color.is_none_or(str::is_empty)
}

#[cfg(test)]
mod tests {
    use super::colours;

    #[test]
    fn colours_only_on_a_terminal_without_no_color() {
        assert!(colours(true, None));
        assert!(colours(true, Some("")));
        assert!(!colours(true, Some("1")));
        assert!(!colours(false, None));
    }
}
