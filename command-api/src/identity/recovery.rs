//! Password recovery (spec 01 §2, §7): a 6-digit code and a link, e-mailed together.
//!
//! Codes and link tokens are stored only as hashes, live 10 minutes, die after 5 wrong
//! tries, and work once; wrong codes also count per account across codes (throttle.rs), so
//! asking for a new code gives no fresh guesses.
//!
//! Asking for a code only records the request: [`spawn_mailer`] makes the code and sends
//! the e-mail after the answer. So the answer is the same, in body and in time, whether or
//! not the account exists and whether or not the mail server is up.

use axum::extract::State;
use navalha_domain::validation::{msg_too_long, too_long, MAX_EMAIL};
use navalha_domain::values::RECOVERY_PASSWORD;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::Message;
use navalha_platform::ApiError;
use rand::Rng;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;

use super::accounts::{find_by_email_or_cpf, identifier_key, set_password};
use super::session::{load_account, session_response, SessionResponse};
use super::throttle;
use crate::state::AppState;

/// How long a code and its link stay valid.
pub const CODE_MINUTES: i32 = 10;
/// Wrong tries after which a code is dead.
pub const MAX_WRONG_ATTEMPTS: i32 = 5;
/// The one answer to every failed code check: it tells nothing about which part was wrong.
pub const MSG_BAD_CODE: &str = "Código inválido ou expirado. Solicite um novo código.";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RequestCodeBody {
    #[serde(default)]
    cpf_or_email: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ValidateCodeBody {
    #[serde(default)]
    cpf_or_email: String,
    #[serde(default)]
    recovery_code: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
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

/// SHA-256 of the parts, one after another: how codes and link tokens are stored.
pub(crate) fn sha256(parts: &[&[u8]]) -> Vec<u8> {
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

#[utoipa::path(
    post,
    path = "/session-professional/recovery-code",
    tag = "Session",
    summary = "Queue a recovery code and link; e-mailed after the answer (same answer, in body and time, for unknown accounts)",
    request_body = RequestCodeBody,
    responses(
        (status = 200, description = "Sent", body = Message),
        refused::Invalid,
        (status = 429, description = "Too many codes asked for this CPF or e-mail, or from this address; the same for unknown accounts", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
pub(crate) async fn request_code(
    State(state): State<AppState>,
    origin: RequestOrigin,
    Json(body): Json<RequestCodeBody>,
) -> Result<Json<Message>, ApiError> {
    if body.cpf_or_email.trim().is_empty() {
        return Err(ApiError::field("cpfOrEmail", "Digite seu e-mail."));
    }
    bounded_identifier(&body.cpf_or_email)?;
    // Every request counts: each one may be an e-mail to someone's inbox.
    let key = identifier_key(&body.cpf_or_email);
    throttle::enter(&state.pool, throttle::RECOVERY_REQUEST, &key, &origin.client_ip, None).await?;
    sqlx::query("insert into recovery_request (cpf_or_email) values ($1)")
        .bind(body.cpf_or_email.trim())
        .execute(&state.pool)
        .await?;
    sqlx::query("select pg_notify($1, '')").bind(MAILER_CHANNEL).execute(&state.pool).await?;
    Ok(Json(Message::new("Código enviado com sucesso.")))
}

/// Where a new recovery request wakes the mailer.
const MAILER_CHANNEL: &str = "navalha_recovery_request";
/// How often the mailer looks for requests whose e-mail failed, to try again.
const MAILER_POLL: std::time::Duration = std::time::Duration::from_secs(5);

/// Makes the codes asked for and e-mails them, after the answers: at once when woken,
/// and every few seconds for e-mails that failed. Instances share the work through
/// `for update skip locked`.
pub fn spawn_mailer(state: AppState) {
    tokio::spawn(async move {
        loop {
            let listener = async {
                let mut listener = sqlx::postgres::PgListener::connect_with(&state.pool).await?;
                listener.listen(MAILER_CHANNEL).await?;
                Ok::<_, sqlx::Error>(listener)
            };
            let mut listener = match listener.await {
                Ok(listener) => listener,
                Err(error) => {
                    tracing::warn!(%error, "recovery mailer cannot listen; retrying");
                    tokio::time::sleep(MAILER_POLL).await;
                    continue;
                }
            };
            loop {
                while let Some(handled) = handle_next_request(&state).await.transpose() {
                    if let Err(error) = handled {
                        tracing::warn!(%error, "recovery e-mail failed; it will be tried again");
                        break;
                    }
                }
                if let Ok(Err(error)) = tokio::time::timeout(MAILER_POLL, listener.recv()).await {
                    tracing::warn!(%error, "recovery mailer lost its listener");
                    break;
                }
            }
        }
    });
}

/// Handles the oldest pending request: `Ok(None)` when there is none, an error when its
/// e-mail could not be sent (then it waits a little longer before each new try).
pub async fn handle_next_request(state: &AppState) -> Result<Option<()>, ApiError> {
    let mut tx = state.pool.begin().await?;
    let request: Option<(i64, String, bool)> = sqlx::query_as(
        "select recovery_request_id, cpf_or_email, requested_at < now() - make_interval(mins => $1)
           from recovery_request
          where done_at is null and next_attempt_at <= now()
          order by recovery_request_id limit 1
            for update skip locked",
    )
    .bind(CODE_MINUTES)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((request_id, cpf_or_email, too_old)) = request else {
        return Ok(None);
    };
    let outcome = match find_by_email_or_cpf(&state.pool, &cpf_or_email).await? {
        // A code mailed after it would have expired helps nobody.
        _ if too_old => {
            tracing::warn!(request_id, "recovery request given up: its code would have expired");
            Ok(())
        }
        None => {
            tracing::info!(request_id, "recovery asked for an unknown account; nothing sent");
            Ok(())
        }
        Some(professional_id) => send_code(state, &mut tx, professional_id).await,
    };
    match outcome {
        Ok(()) => {
            sqlx::query("update recovery_request set done_at = now() where recovery_request_id = $1")
                .bind(request_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(Some(()))
        }
        Err(error) => {
            drop(tx); // the code made for the failed e-mail goes with it
            sqlx::query(
                "update recovery_request
                    set attempts = attempts + 1,
                        next_attempt_at = now() + make_interval(secs => least(60, power(2, attempts)))
                  where recovery_request_id = $1",
            )
            .bind(request_id)
            .execute(&state.pool)
            .await?;
            Err(error)
        }
    }
}

/// Forgets requests handled more than a day ago.
pub async fn forget_old_requests(pool: &sqlx::PgPool) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("delete from recovery_request where requested_at < now() - interval '1 day'")
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

async fn send_code(state: &AppState, tx: &mut PgConnection, professional_id: i64) -> Result<(), ApiError> {
    let email: String = sqlx::query_scalar("select email from staff_credential where professional_id = $1")
        .bind(professional_id)
        .fetch_one(&mut *tx)
        .await?;
    if !throttle::code_mail_allowed(&state.pool, &email).await? {
        // The codes already sent this hour still work; no new one replaces them.
        tracing::info!(professional_id, "recovery code not sent: its recipient's hourly cap is reached");
        return Ok(());
    }
    let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000));
    let salt: [u8; 16] = rand::thread_rng().gen();
    let link_token = random_token();
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
    tracing::info!(professional_id, "recovery code e-mailed");
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

/// A "CPF or e-mail" past the e-mail's bound names no account: 422 on the field, before it
/// keys the throttle's index or a stored request.
fn bounded_identifier(cpf_or_email: &str) -> Result<(), ApiError> {
    if too_long(cpf_or_email.trim(), MAX_EMAIL) {
        return Err(ApiError::field("cpfOrEmail", &msg_too_long(MAX_EMAIL)));
    }
    Ok(())
}

/// Checks a code; a wrong one counts against the code's tries and the account's
/// (committed even though the answer is an error).
async fn check_code(
    state: &AppState,
    client_ip: &str,
    cpf_or_email: &str,
    code: &str,
) -> Result<Option<OpenCode>, ApiError> {
    bounded_identifier(cpf_or_email)?;
    let account = find_by_email_or_cpf(&state.pool, cpf_or_email).await?;
    // Per account, whether typed as e-mail or CPF; unknown ones by what was typed.
    let subject = match account {
        Some(professional_id) => format!("account:{professional_id}"),
        None => identifier_key(cpf_or_email),
    };
    let attempt = throttle::enter(&state.pool, throttle::RECOVERY_GUESS, &subject, client_ip, None).await?;
    let Some(professional_id) = account else {
        return Ok(None);
    };
    let mut tx = state.pool.begin().await?;
    let Some(open) = open_code_for(&mut tx, professional_id).await? else {
        return Ok(None);
    };
    if sha256(&[&open.salt, code.trim().as_bytes()]) == open.hash {
        attempt.succeeded(&state.pool).await?;
        return Ok(Some(open));
    }
    sqlx::query("update recovery_code set wrong_attempts = wrong_attempts + 1 where recovery_code_id = $1")
        .bind(open.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(None)
}

#[utoipa::path(
    post,
    path = "/session-professional/validate-recovery-code",
    tag = "Session",
    summary = "Check a recovery code",
    request_body = ValidateCodeBody,
    responses(
        (status = 200, description = "Valid", body = Message),
        refused::Invalid,
        (status = 429, description = "Too many wrong codes for this account (across codes) or from this address", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
pub(crate) async fn validate_code(
    State(state): State<AppState>,
    origin: RequestOrigin,
    Json(body): Json<ValidateCodeBody>,
) -> Result<Json<Message>, ApiError> {
    if body.recovery_code.trim().is_empty() {
        return Err(ApiError::field("recoveryCode", "Digite o código."));
    }
    match check_code(&state, &origin.client_ip, &body.cpf_or_email, &body.recovery_code).await? {
        Some(_) => Ok(Json(Message::new("Código validado com sucesso."))),
        None => Err(ApiError::Unprocessable(MSG_BAD_CODE.to_owned())),
    }
}

/// A new password equal to the current one.
pub const MSG_SAME_PASSWORD: &str = "A nova senha deve ser diferente da senha atual.";

#[utoipa::path(
    post,
    path = "/session-professional/reset-password",
    tag = "Session",
    summary = "Set a new password with the code or the link's recoveryData",
    request_body = ResetBody,
    responses(
        (status = 200, description = "Signed in", body = SessionResponse),
        refused::Invalid,
        (status = 429, description = "Too many wrong codes for this account (across codes) or from this address", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
pub(crate) async fn reset_password(
    State(state): State<AppState>,
    origin: RequestOrigin,
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
        let checked = check_code(&state, &origin.client_ip, &body.cpf_or_email, &body.recovery_code).await?;
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
    // The code stays unused: the same code takes another password.
    let current: Option<String> =
        sqlx::query_scalar("select password_hash from staff_credential where professional_id = $1")
            .bind(professional_id)
            .fetch_one(&mut *tx)
            .await?;
    if current.is_some() && super::passwords::verify(body.new_password.clone(), current).await? {
        return Err(ApiError::field("newPassword", MSG_SAME_PASSWORD));
    }
    sqlx::query("update recovery_code set used_at = now() where recovery_code_id = $1")
        .bind(code_id)
        .execute(&mut *tx)
        .await?;
    set_password(&mut tx, professional_id, &body.new_password).await?;
    tx.commit().await?;
    tracing::info!(professional_id, "password reset");
    let account = load_account(&state, professional_id).await?;
    Ok(Json(session_response(&state, &account).await?))
}
