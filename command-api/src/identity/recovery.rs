//! Password recovery (spec 01 §2, §7): a 6-digit code and a link, e-mailed together.
//!
//! Codes and link tokens are stored only as hashes, live 10 minutes, die after 5 wrong
//! tries, and work once. Asking for a code answers the same whether or not the account
//! exists.

use axum::extract::State;
use navalha_domain::values::RECOVERY_PASSWORD;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::ApiError;
use rand::Rng;
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;

use super::accounts::{find_by_email_or_cpf, set_password};
use super::session::{load_account, session_response, SessionResponse};
use crate::state::AppState;

/// How long a code and its link stay valid.
pub const CODE_MINUTES: i32 = 10;
/// Wrong tries after which a code is dead.
pub const MAX_WRONG_ATTEMPTS: i32 = 5;
/// The one answer to every failed code check: it tells nothing about which part was wrong.
pub const MSG_BAD_CODE: &str = "Código inválido ou expirado. Solicite um novo código.";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RequestCodeBody {
    #[serde(default)]
    cpf_or_email: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ValidateCodeBody {
    #[serde(default)]
    cpf_or_email: String,
    #[serde(default)]
    recovery_code: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResetBody {
    #[serde(default)]
    cpf_or_email: String,
    #[serde(default)]
    recovery_code: String,
    #[serde(default)]
    new_password: String,
    #[serde(default)]
    recovery_data: String,
}

fn sha256(parts: &[&[u8]]) -> Vec<u8> {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().to_vec()
}

fn random_token() -> String {
    let bytes: [u8; 32] = rand::thread_rng().gen();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[tracing::instrument(skip_all)]
pub(crate) async fn request_code(
    State(state): State<AppState>,
    origin: RequestOrigin,
    Json(body): Json<RequestCodeBody>,
) -> Result<Json<Value>, ApiError> {
    if body.cpf_or_email.trim().is_empty() {
        return Err(ApiError::field("cpfOrEmail", "Digite seu e-mail."));
    }
    if let Some(professional_id) = find_by_email_or_cpf(&state.pool, &body.cpf_or_email).await? {
        send_code(&state, professional_id).await?;
    } else {
        tracing::info!(client_ip = %origin.client_ip, "recovery asked for an unknown account");
    }
    Ok(Json(json!({ "message": "Código enviado com sucesso." })))
}

async fn send_code(state: &AppState, professional_id: i64) -> Result<(), ApiError> {
    let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000));
    let salt: [u8; 16] = rand::thread_rng().gen();
    let link_token = random_token();
    let mut tx = state.pool.begin().await?;
    // A new code replaces the ones before it.
    sqlx::query(
        "update recovery_code set superseded_at = now()
          where professional_id = $1 and used_at is null and superseded_at is null",
    )
    .bind(professional_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "insert into recovery_code (professional_id, code_salt, code_hash, link_token_hash, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(mins => $5))",
    )
    .bind(professional_id)
    .bind(salt.as_slice())
    .bind(sha256(&[&salt, code.as_bytes()]))
    .bind(sha256(&[link_token.as_bytes()]))
    .bind(CODE_MINUTES)
    .execute(&mut *tx)
    .await?;
    let email: String = sqlx::query_scalar("select email from staff_credential where professional_id = $1")
        .bind(professional_id)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    let link = format!(
        "{}/create-new-password?recovery-data={link_token}",
        state.settings.public_url.trim_end_matches('/')
    );
    let text = format!(
        "Olá!\n\nRecebemos um pedido para alterar a senha da sua conta Navalha.\n\n\
         Seu código: {code}\n\nOu abra este link: {link}\n\n\
         O código e o link valem por {CODE_MINUTES} minutos e podem ser usados uma vez.\n\
         Se você não fez este pedido, ignore este e-mail."
    );
    state.mailer.send(&email, "Navalha: código para alterar sua senha", &text).await?;
    Ok(())
}

/// An open recovery row, locked for the rest of the transaction.
struct OpenCode {
    id: i64,
    professional_id: i64,
    salt: Vec<u8>,
    hash: Vec<u8>,
}

/// The account's newest code that is still usable.
async fn open_code_for(conn: &mut PgConnection, professional_id: i64) -> Result<Option<OpenCode>, ApiError> {
    let row: Option<(i64, i64, Vec<u8>, Vec<u8>)> = sqlx::query_as(
        "select recovery_code_id, professional_id, code_salt, code_hash from recovery_code
          where professional_id = $1 and used_at is null and superseded_at is null
            and expires_at > now() and wrong_attempts < $2
          order by recovery_code_id desc limit 1 for update",
    )
    .bind(professional_id)
    .bind(MAX_WRONG_ATTEMPTS)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|(id, professional_id, salt, hash)| OpenCode { id, professional_id, salt, hash }))
}

/// Checks a code; a wrong one counts against the code's tries (committed even though the
/// answer is an error).
async fn check_code(state: &AppState, cpf_or_email: &str, code: &str) -> Result<Option<OpenCode>, ApiError> {
    let Some(professional_id) = find_by_email_or_cpf(&state.pool, cpf_or_email).await? else {
        return Ok(None);
    };
    let mut tx = state.pool.begin().await?;
    let Some(open) = open_code_for(&mut tx, professional_id).await? else {
        return Ok(None);
    };
    if sha256(&[&open.salt, code.trim().as_bytes()]) == open.hash {
        return Ok(Some(open));
    }
    sqlx::query("update recovery_code set wrong_attempts = wrong_attempts + 1 where recovery_code_id = $1")
        .bind(open.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(None)
}

#[tracing::instrument(skip_all)]
pub(crate) async fn validate_code(
    State(state): State<AppState>,
    Json(body): Json<ValidateCodeBody>,
) -> Result<Json<Value>, ApiError> {
    if body.recovery_code.trim().is_empty() {
        return Err(ApiError::field("recoveryCode", "Digite o código."));
    }
    match check_code(&state, &body.cpf_or_email, &body.recovery_code).await? {
        Some(_) => Ok(Json(json!({ "message": "Código validado com sucesso." }))),
        None => Err(ApiError::Unprocessable(MSG_BAD_CODE.to_owned())),
    }
}

#[tracing::instrument(skip_all)]
pub(crate) async fn reset_password(
    State(state): State<AppState>,
    Json(body): Json<ResetBody>,
) -> Result<Json<SessionResponse>, ApiError> {
    if let Some(message) = RECOVERY_PASSWORD.check(&body.new_password) {
        return Err(ApiError::field("newPassword", message));
    }
    let mut tx = state.pool.begin().await?;
    // The link identifies its code by itself; without it, the e-mail and code must match.
    let open = if !body.recovery_data.trim().is_empty() {
        let row: Option<(i64, i64)> = sqlx::query_as(
            "select recovery_code_id, professional_id from recovery_code
              where link_token_hash = $1 and used_at is null and superseded_at is null
                and expires_at > now() and wrong_attempts < $2
              for update",
        )
        .bind(sha256(&[body.recovery_data.trim().as_bytes()]))
        .bind(MAX_WRONG_ATTEMPTS)
        .fetch_optional(&mut *tx)
        .await?;
        row
    } else {
        drop(tx);
        let checked = check_code(&state, &body.cpf_or_email, &body.recovery_code).await?;
        tx = state.pool.begin().await?;
        match checked {
            // Lock it again in this transaction: only one reset may use it.
            Some(code) => open_code_for(&mut tx, code.professional_id)
                .await?
                .filter(|again| again.id == code.id)
                .map(|again| (again.id, again.professional_id)),
            None => None,
        }
    };
    let Some((code_id, professional_id)) = open else {
        return Err(ApiError::Unprocessable(MSG_BAD_CODE.to_owned()));
    };
    sqlx::query("update recovery_code set used_at = now() where recovery_code_id = $1")
        .bind(code_id)
        .execute(&mut *tx)
        .await?;
    set_password(&mut tx, professional_id, &body.new_password).await?;
    tx.commit().await?;
    tracing::info!(professional_id, "password reset");
    let account = load_account(&state, professional_id).await?;
    Ok(Json(session_response(&state, &account)?))
}
