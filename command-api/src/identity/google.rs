//! `POST session-professional/login-social-media`: sign-in with Google.
//!
//! The browser's word is not trusted: the server asks the provider's user-info address
//! who owns the access token, and keys the account by the answer's `sub`.

use axum::extract::State;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::ApiError;
use serde::Deserialize;

use super::session::{load_account, session_response, SessionResponse};
use crate::state::AppState;

/// When the provider does not vouch for the token (spec 01 §8's social sign-in message).
pub const MSG_PROVIDER_REFUSED: &str = "Ocorreu um erro ao buscar informações do usuário";
/// When the Google account is linked to no staff member.
pub const MSG_NO_ACCOUNT: &str = "Nenhum cadastro da barbearia está vinculado a esta conta Google.";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SocialLoginBody {
    /// The account id the browser read; checked against the provider's answer.
    #[serde(default)]
    id_user: Option<String>,
    #[serde(default)]
    social_media: String,
    /// The provider's access token, which the server verifies.
    #[serde(default)]
    access_token: String,
}

/// The fields of the provider's user-info answer that matter here. OpenID Connect names
/// the account `sub`; Google's older endpoint names it `id`.
#[derive(Debug, Deserialize)]
struct UserInfo {
    sub: Option<String>,
    id: Option<String>,
    email: Option<String>,
    email_verified: Option<bool>,
    verified_email: Option<bool>,
}

#[tracing::instrument(skip_all)]
pub(crate) async fn login_social_media(
    State(state): State<AppState>,
    origin: RequestOrigin,
    Json(body): Json<SocialLoginBody>,
) -> Result<Json<SessionResponse>, ApiError> {
    if !body.social_media.eq_ignore_ascii_case("google") {
        return Err(ApiError::field("socialMedia", "Rede social não suportada."));
    }
    if body.access_token.trim().is_empty() {
        return Err(ApiError::field("accessToken", "Informe o token de acesso do Google."));
    }
    let info = fetch_user_info(&state, body.access_token.trim()).await?;
    let Some(sub) = info.sub.clone().or(info.id.clone()).filter(|sub| !sub.is_empty()) else {
        return Err(ApiError::Unprocessable(MSG_PROVIDER_REFUSED.to_owned()));
    };
    if body.id_user.as_deref().is_some_and(|claimed| !claimed.is_empty() && claimed != sub) {
        tracing::warn!(client_ip = %origin.client_ip, "social id does not match the token's owner");
        return Err(ApiError::Unprocessable(MSG_PROVIDER_REFUSED.to_owned()));
    }
    let professional_id = match linked_account(&state, &sub).await? {
        Some(id) => id,
        None => link_by_verified_email(&state, &sub, &info)
            .await?
            .ok_or_else(|| ApiError::Unprocessable(MSG_NO_ACCOUNT.to_owned()))?,
    };
    let account = load_account(&state, professional_id).await?;
    tracing::info!(professional_id, "signed in with Google");
    Ok(Json(session_response(&state, &account)?))
}

async fn fetch_user_info(state: &AppState, access_token: &str) -> Result<UserInfo, ApiError> {
    let response =
        state.http.get(&state.settings.google_userinfo_url).bearer_auth(access_token).send().await.map_err(
            |error| {
                tracing::warn!(%error, "identity provider unreachable");
                ApiError::Unavailable(MSG_PROVIDER_REFUSED.to_owned())
            },
        )?;
    if !response.status().is_success() {
        tracing::info!(status = %response.status(), "identity provider refused the token");
        return Err(ApiError::Unprocessable(MSG_PROVIDER_REFUSED.to_owned()));
    }
    response.json::<UserInfo>().await.map_err(|_| ApiError::Unprocessable(MSG_PROVIDER_REFUSED.to_owned()))
}

async fn linked_account(state: &AppState, sub: &str) -> Result<Option<i64>, ApiError> {
    Ok(sqlx::query_scalar("select professional_id from staff_credential where google_sub = $1")
        .bind(sub)
        .fetch_optional(&state.pool)
        .await?)
}

/// The first Google sign-in of a staff member links the Google account to the staff
/// account with the same e-mail, but only when the provider says it verified that e-mail.
async fn link_by_verified_email(
    state: &AppState,
    sub: &str,
    info: &UserInfo,
) -> Result<Option<i64>, ApiError> {
    let verified = info.email_verified.or(info.verified_email).unwrap_or(false);
    let Some(email) = info.email.as_deref().filter(|_| verified) else {
        return Ok(None);
    };
    Ok(sqlx::query_scalar(
        "update staff_credential set google_sub = $2, updated_at = now()
          where email = lower($1) and google_sub is null
      returning professional_id",
    )
    .bind(email)
    .bind(sub)
    .fetch_optional(&state.pool)
    .await?)
}
