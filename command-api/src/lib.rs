//! command-api: validates, authorizes, loads the aggregate, decides and appends events.
//! It never serves a read model; its answers carry the position of the events they
//! appended (`X-Navalha-Position`) so the next read can wait for them.

pub mod attendance;
pub mod booking_keys;
pub mod businesses;
pub mod caixas;
pub mod clients;
pub mod club;
pub mod comandas;
pub mod commands;
pub mod commissions;
pub mod companies;
pub mod config;
pub mod counter_demo;
pub mod days_off;
pub mod favorites;
pub mod gallery;
pub mod holidays;
pub mod idempotency;
pub mod identity;
pub mod jobs;
pub mod notice_snapshot;
pub mod notices;
pub mod online;
pub mod online_origin;
pub mod openapi;
pub mod pix;
pub mod products;
pub mod professionals;
pub mod read_models;
pub mod reminders;
pub mod scheduling;
pub mod seed;
pub mod state;
pub mod whatsapp;

use axum::routing::get;
use axum::Router;
use navalha_platform::{health, http};

pub use state::AppState;

/// The whole HTTP application; tests drive it with `oneshot`, `main` serves it.
pub fn app(state: AppState) -> Router {
    let (api, _) = openapi::api();
    let router = Router::new()
        .nest("/api", api)
        .route(
            "/health",
            get(|axum::extract::State(state): axum::extract::State<AppState>| async move {
                health::check("command-api", &state.pool).await
            }),
        )
        // A method a path does not serve is 405 with Allow, here or at query-api (issue 39).
        .fallback(navalha_platform::routes::unrouted)
        .method_not_allowed_fallback(navalha_platform::routes::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(state.clone(), idempotency::layer))
        .with_state(state);
    http::with_request_tracing(router)
}
