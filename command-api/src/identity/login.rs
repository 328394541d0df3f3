//! `POST session-professional/login`, with throttling of failed attempts.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use navalha_domain::values::{Email, PASSWORD_MIN_LENGTH};
use navalha_platform::http::{header_value, Json, RequestOrigin};
use navalha_platform::ApiError;
use serde::Deserialize;

use super::passwords;
use super::session::{load_account, session_response};
use crate::state::AppState;

/// Failed attempts for one account within [`WINDOW_MINUTES`] after which sign-in is refused.
pub const MAX_FAILURES: i64 = 10;
/// The throttling window.
pub const WINDOW_MINUTES: i64 = 15;

/// Wrong e-mail or password: one message for both, so it does not tell which accounts exist.
pub const MSG_WRONG_CREDENTIALS: &str = "E-mail ou senha incorretos.";

#[derive(Debug, Deserialize)]
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

#[tracing::instrument(skip_all, fields(email = %body.email))]
pub(crate) async fn login(
    State(state): State<AppState>,
    origin: RequestOrigin,
    Json(body): Json<LoginBody>,
) -> Result<Response, ApiError> {
    let email = validate(&body)?;
    let mut tx = state.pool.begin().await?;
    // One attempt at a time per typed e-mail, so parallel guesses cannot slip past the count.
    sqlx::query("select pg_advisory_xact_lock(hashtext('navalha-login:' || $1))")
        .bind(email.as_str())
        .execute(&mut *tx)
        .await?;
    let credential: Option<(i64, Option<String>)> =
        sqlx::query_as("select professional_id, password_hash from staff_credential where email = $1")
            .bind(email.as_str())
            .fetch_optional(&mut *tx)
            .await?;
    if let Some(retry_after) = throttled_for(&mut tx, email.as_str()).await? {
        tracing::warn!(client_ip = %origin.client_ip, "sign-in throttled");
        return Ok(throttled(retry_after));
    }
    let (professional_id, hash) = match credential {
        Some((id, hash)) => (Some(id), hash),
        None => (None, None),
    };
    let matches = passwords::verify(body.password, hash).await?;
    sqlx::query("insert into login_attempt (email, succeeded, client_ip) values ($1, $2, $3)")
        .bind(email.as_str())
        .bind(matches)
        .bind(&origin.client_ip)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    let Some(professional_id) = professional_id.filter(|_| matches) else {
        tracing::info!(client_ip = %origin.client_ip, "sign-in refused");
        return Err(ApiError::BadRequest(MSG_WRONG_CREDENTIALS.to_owned()));
    };
    let account = load_account(&state, professional_id).await?;
    tracing::info!(professional_id, "signed in");
    Ok(Json(session_response(&state, &account)?).into_response())
}

/// Seconds until the account may try again, when it has failed too often lately. Failures
/// before the last password reset do not count.
async fn throttled_for(conn: &mut sqlx::PgConnection, email: &str) -> Result<Option<i64>, ApiError> {
    let row: (i64, Option<f64>) = sqlx::query_as(
        "select count(*),
                extract(epoch from min(attempted_at) + make_interval(mins => $2::int) - now())::float8
           from (select attempted_at
                   from login_attempt
                  where email = $1 and not succeeded
                    and attempted_at > now() - make_interval(mins => $2::int)
                    and attempted_at > coalesce(
                          (select login_failures_reset_at from staff_credential where email = $1), '-infinity')
                  order by attempted_at desc
                  limit $3) recent",
    )
    .bind(email)
    .bind(WINDOW_MINUTES as i32)
    .bind(MAX_FAILURES)
    .fetch_one(conn)
    .await?;
    let (failures, seconds_left) = row;
    Ok((failures >= MAX_FAILURES).then(|| seconds_left.unwrap_or(60.0).ceil().max(1.0) as i64))
}

fn throttled(retry_after: i64) -> Response {
    let minutes = (retry_after + 59) / 60;
    let message = format!(
        "Muitas tentativas de login sem sucesso. Tente novamente em {minutes} minuto{} ou redefina sua senha em 'Esqueci minha senha'.",
        if minutes == 1 { "" } else { "s" }
    );
    let mut headers = HeaderMap::new();
    headers.insert(header::RETRY_AFTER, header_value(&retry_after.to_string()));
    (headers, ApiError::TooManyRequests(message)).into_response()
}
