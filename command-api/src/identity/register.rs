//! Registration links: a new professional sets their password through
//! `PUT no-auth/professional/complete-register`.

use axum::extract::State;
use navalha_domain::values::REGISTRATION_PASSWORD;
use navalha_platform::http::Json;
use navalha_platform::refused;
use navalha_platform::ApiError;
use rand::Rng;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use sqlx::PgPool;

use super::accounts::set_password;
use super::session::{load_account, session_response, SessionResponse};
use crate::state::AppState;

/// How long a registration link lasts.
pub const INVITE_DAYS: i32 = 7;
/// A link that is unknown, used or expired.
pub const MSG_BAD_INVITE: &str = "Link de cadastro inválido ou expirado. Peça um novo ao administrador.";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CompleteRegisterBody {
    #[serde(default)]
    complete_register: String,
    #[serde(default)]
    password: String,
}

fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Makes a registration link token for a professional who has no password yet; only its
/// hash is stored.
pub async fn create_invite(pool: &PgPool, professional_id: i64) -> Result<String, ApiError> {
    let bytes: [u8; 32] = rand::thread_rng().gen();
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    sqlx::query(
        "insert into registration_invite (professional_id, token_hash, expires_at)
         values ($1, $2, now() + make_interval(days => $3))",
    )
    .bind(professional_id)
    .bind(hash(&token))
    .bind(INVITE_DAYS)
    .execute(pool)
    .await?;
    Ok(token)
}

#[utoipa::path(
    put,
    path = "/no-auth/professional/complete-register",
    tag = "Session",
    summary = "Set the password from a registration link",
    request_body = CompleteRegisterBody,
    responses(
        (status = 200, description = "Signed in", body = SessionResponse),
        refused::Invalid,
    ),
)]
#[tracing::instrument(skip_all)]
pub(crate) async fn complete_register(
    State(state): State<AppState>,
    Json(body): Json<CompleteRegisterBody>,
) -> Result<Json<SessionResponse>, ApiError> {
    if let Some(message) = REGISTRATION_PASSWORD.check(&body.password) {
        return Err(ApiError::field("password", message));
    }
    let mut tx = state.pool.begin().await?;
    let invite: Option<(i64, i64)> = sqlx::query_as(
        "select registration_invite_id, professional_id from registration_invite
          where token_hash = $1 and used_at is null and expires_at > now() for update",
    )
    .bind(hash(body.complete_register.trim()))
    .fetch_optional(&mut *tx)
    .await?;
    let Some((invite_id, professional_id)) = invite else {
        return Err(ApiError::Unprocessable(MSG_BAD_INVITE.to_owned()));
    };
    sqlx::query("update registration_invite set used_at = now() where registration_invite_id = $1")
        .bind(invite_id)
        .execute(&mut *tx)
        .await?;
    set_password(&mut tx, professional_id, &body.password).await?;
    tx.commit().await?;
    let account = load_account(&state, professional_id).await?;
    Ok(Json(session_response(&state, &account).await?))
}
