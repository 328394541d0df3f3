//! `POST session-professional/login-social-media`: sign-in with Google.
//!
//! The browser's word is not trusted: the server asks the provider's token-information
//! address who owns the access token and which app it was issued to, refuses tokens issued
//! to any app but Navalha (`NAVALHA_GOOGLE_CLIENT_ID`), and keys the account by `sub`.

use axum::extract::State;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::ApiError;
use serde::Deserialize;

use super::session::{load_account, session_response, SessionResponse};
use crate::state::AppState;

/// When the provider does not vouch for the token (spec 01 §8's social sign-in message).
pub const MSG_PROVIDER_REFUSED: &str = "Ocorreu um erro ao buscar informações do usuário";
/// When the Google account is linked to no staff member.
pub const MSG_NO_ACCOUNT: &str = "Nenhum cadastro da barbearia está vinculado a esta conta Google.";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
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

/// The fields of Google's token-information answer that matter here.
#[derive(Debug, Deserialize)]
struct TokenInfo {
    /// The app (OAuth client id) the token was issued to.
    aud: Option<String>,
    /// The app that asked for it; Google sets it equal to `aud` for the browser's tokens.
    azp: Option<String>,
    sub: Option<String>,
    email: Option<String>,
    /// Google answers the text "true"; a JSON boolean is taken too.
    email_verified: Option<Flag>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Flag {
    Bool(bool),
    Text(String),
}

impl Flag {
    fn is_true(&self) -> bool {
        match self {
            Flag::Bool(value) => *value,
            Flag::Text(text) => text == "true",
        }
    }
}

#[utoipa::path(
    post,
    path = "/session-professional/login-social-media",
    tag = "Session",
    summary = "Sign in with Google; the access token is checked at Google's token information, and must have been issued to Navalha's client id",
    request_body = SocialLoginBody,
    responses(
        (status = 200, description = "Signed in", body = SessionResponse),
        refused::Invalid,
        (status = 503, description = "Google could not be reached", body = ErrorBody),
    ),
)]
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
    let client_id = state.settings.google_client_id.as_str();
    if client_id.is_empty() {
        tracing::warn!("Google sign-in tried, but NAVALHA_GOOGLE_CLIENT_ID is not set");
        return Err(ApiError::Unprocessable(MSG_PROVIDER_REFUSED.to_owned()));
    }
    let info = fetch_token_info(&state, body.access_token.trim()).await?;
    // A token another app obtained from the same person must not open their account here.
    if info.aud.as_deref() != Some(client_id) || info.azp.as_deref().is_some_and(|azp| azp != client_id) {
        tracing::warn!(client_ip = %origin.client_ip, "Google token issued to another app refused");
        return Err(ApiError::Unprocessable(MSG_PROVIDER_REFUSED.to_owned()));
    }
    let Some(sub) = info.sub.clone().filter(|sub| !sub.is_empty()) else {
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
    Ok(Json(session_response(&state, &account).await?))
}

async fn fetch_token_info(state: &AppState, access_token: &str) -> Result<TokenInfo, ApiError> {
    let response = state
        .http
        .get(&state.settings.google_tokeninfo_url)
        .query(&[("access_token", access_token)])
        .send()
        .await
        .map_err(|error| {
            // Without the address: it carries the token.
            tracing::warn!(error = %error.without_url(), "identity provider unreachable");
            ApiError::Unavailable(MSG_PROVIDER_REFUSED.to_owned())
        })?;
    if !response.status().is_success() {
        tracing::info!(status = %response.status(), "identity provider refused the token");
        return Err(ApiError::Unprocessable(MSG_PROVIDER_REFUSED.to_owned()));
    }
    response.json::<TokenInfo>().await.map_err(|_| ApiError::Unprocessable(MSG_PROVIDER_REFUSED.to_owned()))
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
    info: &TokenInfo,
) -> Result<Option<i64>, ApiError> {
    let verified = info.email_verified.as_ref().is_some_and(Flag::is_true);
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
