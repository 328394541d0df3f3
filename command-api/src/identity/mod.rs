//! Identity: staff accounts, sign-in, tokens, password recovery and registration links.
//! Secrets live in ordinary tables of command-api and never in events
//! (docs/adr/0002-identity.md).

pub mod accounts;
pub mod google;
pub mod keys;
pub mod login;
pub mod mailer;
pub mod passwords;
pub mod recovery;
pub mod register;
pub mod session;
pub mod throttle;
pub mod tokens;

use axum::routing::{post, put};
use axum::Router;

use crate::state::AppState;

/// The access calls of spec 01 §7.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/session-professional/login", post(login::login))
        .route("/session-professional/login-social-media", post(google::login_social_media))
        .route("/session-professional/recovery-code", post(recovery::request_code))
        .route("/session-professional/validate-recovery-code", post(recovery::validate_code))
        .route("/session-professional/reset-password", post(recovery::reset_password))
        .route("/session-professional/logout", post(session::logout))
        .route("/no-auth/professional/complete-register", put(register::complete_register))
}

/// Starts identity's background work: the recovery mailer, and an hourly sweep of expired
/// sessions and old attempts.
pub fn spawn_background(state: AppState) {
    recovery::spawn_mailer(state.clone());
    tokio::spawn(async move {
        let mut hourly = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            hourly.tick().await;
            let swept = async {
                Ok::<_, sqlx::Error>((
                    session::forget_expired_sessions(&state.pool).await?,
                    throttle::forget_old_attempts(&state.pool).await?,
                    recovery::forget_old_requests(&state.pool).await?,
                ))
            };
            match swept.await {
                Ok((sessions, attempts, requests)) => {
                    tracing::debug!(sessions, attempts, requests, "expired identity rows forgotten")
                }
                Err(error) => tracing::warn!(%error, "could not forget expired identity rows"),
            }
        }
    });
}
