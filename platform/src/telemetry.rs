//! Logging setup: human-readable lines by default, JSON with `NAVALHA_LOG_FORMAT=json`.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. `RUST_LOG` filters (default `info`).
pub fn init(service: &str) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let json = std::env::var("NAVALHA_LOG_FORMAT").is_ok_and(|format| format == "json");
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    let result = if json { builder.json().try_init() } else { builder.try_init() };
    if result.is_ok() {
        tracing::info!(service, "logging started");
    }
}
