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

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

/// The access calls of spec 01 §7.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login::login))
        .routes(routes!(google::login_social_media))
        .routes(routes!(recovery::request_code))
        .routes(routes!(recovery::validate_code))
        .routes(routes!(recovery::reset_password))
        .routes(routes!(session::logout))
        .routes(routes!(register::complete_register))
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
