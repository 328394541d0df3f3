//! Signing sign-in tokens.

use std::sync::Arc;

use jsonwebtoken::{EncodingKey, Header};
use navalha_platform::auth::{Claims, OnlineClaims, ALGORITHM, AUDIENCE, ISSUER};
use navalha_platform::ApiError;

use super::keys::SigningKeys;

/// Signs tokens with the private key.
#[derive(Clone)]
pub struct TokenIssuer {
    key: Arc<EncodingKey>,
    lifetime_seconds: i64,
}

impl TokenIssuer {
    /// An issuer for the given key pair and token lifetime.
    pub fn new(keys: &SigningKeys, lifetime_hours: i64) -> anyhow::Result<Self> {
        Ok(Self {
            key: Arc::new(EncodingKey::from_ed_der(&keys.private_pkcs8)),
            lifetime_seconds: lifetime_hours * 3600,
        })
    }

    /// How long a token lasts.
    pub fn lifetime_seconds(&self) -> i64 {
        self.lifetime_seconds
    }

    /// A signed token for the professional's session `session_id`, issued at `now`.
    pub fn issue(
        &self,
        professional_id: i64,
        name: &str,
        email: &str,
        session_id: uuid::Uuid,
        now: i64,
    ) -> Result<String, ApiError> {
        let claims = Claims {
            sub: professional_id.to_string(),
            sid: session_id.to_string(),
            name: name.to_owned(),
            email: email.to_owned(),
            aud: AUDIENCE.to_owned(),
            iss: ISSUER.to_owned(),
            iat: now,
            exp: now + self.lifetime_seconds,
        };
        self.sign(&claims)
    }

    /// A signed online-booking token (the claims name their audience and expiry).
    pub fn issue_online(&self, claims: &OnlineClaims) -> Result<String, ApiError> {
        self.sign(claims)
    }

    fn sign(&self, claims: &impl serde::Serialize) -> Result<String, ApiError> {
        jsonwebtoken::encode(&Header::new(ALGORITHM), claims, &self.key)
            .map_err(|error| ApiError::Internal(anyhow::anyhow!("signing a token: {error}")))
    }
}
