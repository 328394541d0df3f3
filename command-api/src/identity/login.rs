//! `POST session-professional/login`, throttled per e-mail and address (throttle.rs).

use std::collections::BTreeMap;

use axum::extract::State;
use chrono::{DateTime, Utc};
use navalha_domain::validation::{msg_too_long, too_long, MAX_EMAIL};
use navalha_domain::values::{Email, PASSWORD_MIN_LENGTH};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::ApiError;
use serde::Deserialize;

use super::session::{load_account, session_response, SessionResponse};
use super::{passwords, throttle};
use crate::state::AppState;

/// Wrong e-mail or password: one message for both, so it does not tell which accounts exist.
pub const MSG_WRONG_CREDENTIALS: &str = "E-mail ou senha incorretos.";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub(crate) struct LoginBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
}

/// Validates the login form with spec 01 §5's messages.
fn validate(body: &LoginBody) -> Result<Email, ApiError> {
    let mut errors = BTreeMap::new();
    let email = if body.email.trim().is_empty() {
        errors.insert("email".to_owned(), "Digite seu e-mail.".to_owned());
        None
    } else if too_long(body.email.trim(), MAX_EMAIL) {
        // No account has such an e-mail; refused before it keys the throttle's index.
        errors.insert("email".to_owned(), msg_too_long(MAX_EMAIL));
        None
    } else {
        Email::parse(&body.email).map_err(|error| errors.insert("email".to_owned(), error.to_string())).ok()
    };
    if body.password.is_empty() {
        errors.insert("password".to_owned(), "Digite sua senha.".to_owned());
    } else if body.password.chars().count() < PASSWORD_MIN_LENGTH {
        errors.insert("password".to_owned(), "Mínimo de 6 caracteres.".to_owned());
    }
    match email {
        Some(email) if errors.is_empty() => Ok(email),
        _ => Err(validation(errors)),
    }
}

/// A 422 whose message is the first field's.
pub(crate) fn validation(errors: BTreeMap<String, String>) -> ApiError {
    let message = errors.values().next().cloned().unwrap_or_default();
    ApiError::Validation { message, errors }
}

#[utoipa::path(
    post,
    path = "/session-professional/login",
    tag = "Session",
    summary = "Sign in with e-mail and password",
    request_body = LoginBody,
    responses(
        (status = 200, description = "Signed in", body = SessionResponse),
        (status = 400, description = "Malformed input", body = ErrorBody),
        refused::Invalid,
        (status = 429, description = "Too many failed sign-ins from this address for this e-mail, from this address, or for this e-mail (issue 12)", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all, fields(email = %body.email))]
pub(crate) async fn login(
    State(state): State<AppState>,
    origin: RequestOrigin,
    Json(body): Json<LoginBody>,
) -> Result<Json<SessionResponse>, ApiError> {
    let email = validate(&body)?;
    let credential: Option<(i64, Option<String>, Option<DateTime<Utc>>)> = sqlx::query_as(
        "select professional_id, password_hash, nullif(login_failures_reset_at, '-infinity')
           from staff_credential where email = $1",
    )
    .bind(email.as_str())
    .fetch_optional(&state.pool)
    .await?;
    let (professional_id, hash, reset_at) = match credential {
        Some((id, hash, reset_at)) => (Some(id), hash, reset_at),
        None => (None, None, None),
    };
    // Keyed by the typed e-mail, so unknown accounts are throttled exactly like known ones.
    let attempt =
        throttle::enter(&state.pool, throttle::LOGIN, email.as_str(), &origin.client_ip, reset_at).await?;
    let matches = passwords::verify(body.password, hash).await?;
    let Some(professional_id) = professional_id.filter(|_| matches) else {
        tracing::info!(client_ip = %origin.client_ip, "sign-in refused");
        return Err(ApiError::BadRequest(MSG_WRONG_CREDENTIALS.to_owned()));
    };
    attempt.succeeded(&state.pool).await?;
    let account = load_account(&state, professional_id).await?;
    tracing::info!(professional_id, "signed in");
    Ok(Json(session_response(&state, &account).await?))
}
