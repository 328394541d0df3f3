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
        .route("/no-auth/professional/complete-register", put(register::complete_register))
}
