//! Bearer tokens and the one mechanism that enforces roles on every endpoint.
//!
//! command-api signs tokens with an Ed25519 key it makes on first start; every service
//! verifies them with the public half, read from the `signing_key` table. A handler states
//! who may call it by the type of its [`Auth`] argument:
//!
//! ```text
//! async fn create_holiday(auth: Auth<AdminOnly>, ...) // 401 without a token, 403 for others
//! ```

use std::marker::PhantomData;
use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use chrono::Utc;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use navalha_domain::professional::status;
use navalha_domain::role::Role;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tokio::sync::OnceCell;

use crate::error::ApiError;

/// The audience every Navalha token is issued for and checked against.
pub const AUDIENCE: &str = "navalha-api";
/// The issuer of every Navalha token.
pub const ISSUER: &str = "navalha-command-api";
/// The only signing algorithm accepted.
pub const ALGORITHM: Algorithm = Algorithm::EdDSA;
/// The id of the signing key row.
pub const SIGNING_KEY_ID: &str = "primary";

/// What a token says about its bearer. Role and units are not in it: they are read on
/// every request, as they are now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claims {
    /// The professional's id, as text (JWT convention).
    pub sub: String,
    /// The sign-in session (a row of `staff_session`), which 'Sair' and a password reset end.
    pub sid: String,
    /// Display name.
    pub name: String,
    /// Sign-in e-mail.
    pub email: String,
    /// Always [`AUDIENCE`].
    pub aud: String,
    /// Always [`ISSUER`].
    pub iss: String,
    /// Issued at, seconds since the epoch.
    pub iat: i64,
    /// Expires at, seconds since the epoch.
    pub exp: i64,
}

/// The signed-in staff member behind a request.
#[derive(Debug, Clone, PartialEq)]
pub struct Principal {
    /// The professional's id.
    pub professional_id: i64,
    /// The sign-in session the token belongs to.
    pub session_id: uuid::Uuid,
    /// Display name.
    pub name: String,
    /// Sign-in e-mail.
    pub email: String,
    /// Role.
    pub role: Role,
    /// Units the professional belongs to.
    pub companies: Vec<i64>,
    /// The business (tenant) the professional works for: nothing of another is reachable.
    pub business_id: i64,
}

impl Principal {
    /// Whether the professional belongs to the unit: the one rule for reaching a unit's
    /// data (issue 12; spec 01 §6: only units the user belongs to can be selected). Ids of
    /// other units answer 404, as if they did not exist.
    pub fn belongs_to(&self, company_id: i64) -> bool {
        self.companies.contains(&company_id)
    }

    /// Whether every one of these units is the principal's: what writing something that
    /// covers several units (a holiday, a plan) takes.
    pub fn belongs_to_all(&self, company_ids: &[i64]) -> bool {
        company_ids.iter().all(|id| self.belongs_to(*id))
    }

    /// Whether the principal may see and book the agenda of `professional_id`: the roles
    /// that choose any professional (spec 01 §6) for anyone, the others only their own.
    pub fn may_act_for(&self, professional_id: i64) -> bool {
        self.role.may_choose_any_professional() || self.professional_id == professional_id
    }

    /// Whether a professional of these units is within reach: a unit in common.
    pub fn reaches_professional_of(&self, companies: &[i64]) -> bool {
        companies.iter().any(|id| self.belongs_to(*id))
    }
}

/// Verifies tokens with the public key, loaded from the database once.
#[derive(Clone)]
pub struct TokenVerifier {
    pool: PgPool,
    key: Arc<OnceCell<DecodingKey>>,
    signed: Arc<SignedTokens>,
}

/// Tokens whose signature, audience and issuer have been checked, with their claims.
///
/// An EdDSA signature check costs about 33 µs, a third of a day agenda read's CPU in
/// query-api (issue 15), and every request of a session sends the same token. The same
/// bytes verify the same way every time, so the check is done once per token; the expiry
/// is still checked on every request, and the session and the professional's access are
/// still read from the database (`verify`). Bounded: when full, it starts over.
#[derive(Default)]
struct SignedTokens {
    known: std::sync::Mutex<std::collections::HashMap<String, Claims>>,
}

/// How many tokens [`SignedTokens`] keeps: far more than the staff signed in at once.
const SIGNED_TOKENS_KEPT: usize = 10_000;
/// Seconds a token is still taken after its `exp` (clocks differ a little).
const EXPIRY_LEEWAY: i64 = 30;

impl SignedTokens {
    fn get(&self, token: &str) -> Option<Claims> {
        self.known.lock().expect("signed tokens lock").get(token).cloned()
    }

    fn keep(&self, token: &str, claims: &Claims) {
        let mut known = self.known.lock().expect("signed tokens lock");
        if known.len() >= SIGNED_TOKENS_KEPT {
            known.clear();
        }
        known.insert(token.to_owned(), claims.clone());
    }
}

impl TokenVerifier {
    /// A verifier that reads the public key from `pool` on first use.
    pub fn new(pool: PgPool) -> Self {
        Self { pool, key: Arc::new(OnceCell::new()), signed: Arc::default() }
    }

    async fn key(&self) -> Result<&DecodingKey, ApiError> {
        self.key
            .get_or_try_init(|| async {
                let public_key: Option<Vec<u8>> =
                    sqlx::query_scalar("select public_key from signing_key where signing_key_id = $1")
                        .bind(SIGNING_KEY_ID)
                        .fetch_optional(&self.pool)
                        .await?;
                // No key yet means command-api never started, so no token can be valid.
                public_key.map(|bytes| DecodingKey::from_ed_der(&bytes)).ok_or(ApiError::Unauthorized)
            })
            .await
    }

    /// The claims of a token signed with our key, for our audience, by our issuer, and not
    /// expired; the signature checked once per token ([`SignedTokens`]).
    async fn signed_claims(&self, token: &str) -> Result<Claims, ApiError> {
        if let Some(claims) = self.signed.get(token) {
            if claims.exp + EXPIRY_LEEWAY < now_seconds() {
                tracing::debug!("token refused: expired");
                return Err(ApiError::Unauthorized);
            }
            return Ok(claims);
        }
        let mut validation = Validation::new(ALGORITHM);
        validation.set_audience(&[AUDIENCE]);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "aud", "iss", "sub", "sid"]);
        validation.leeway = EXPIRY_LEEWAY as u64;
        let claims = jsonwebtoken::decode::<Claims>(token, self.key().await?, &validation)
            .map_err(|error| {
                tracing::debug!(%error, "token refused");
                ApiError::Unauthorized
            })?
            .claims;
        self.signed.keep(token, &claims);
        Ok(claims)
    }

    /// Checks signature, algorithm, audience, issuer and expiry, then that the session is
    /// still open and the professional active.
    pub async fn verify(&self, token: &str) -> Result<Principal, ApiError> {
        let claims = self.signed_claims(token).await?;
        let professional_id = claims.sub.parse().map_err(|_| ApiError::Unauthorized)?;
        let session_id: uuid::Uuid = claims.sid.parse().map_err(|_| ApiError::Unauthorized)?;
        // The session still open, and role and units as they are now, not at sign-in.
        let access: Option<(String, i16, Vec<i64>, i64)> = sqlx::query_as(
            "select a.role, a.status, a.companies, a.business_id
               from staff_session s join staff_access a using (professional_id)
              where s.session_id = $1::uuid and s.professional_id = $2
                and s.revoked_at is null and s.expires_at > now()",
        )
        .bind(session_id.to_string())
        .bind(professional_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some((role, _, companies, business_id)) =
            access.filter(|(_, status, ..)| *status != status::INACTIVE)
        else {
            tracing::info!(professional_id, "token of an ended session or an inactive professional refused");
            return Err(ApiError::Unauthorized);
        };
        let role = Role::from_code(&role).ok_or_else(|| anyhow::anyhow!("unknown role {role}"))?;
        Ok(Principal {
            professional_id,
            session_id,
            name: claims.name,
            email: claims.email,
            role,
            companies,
            business_id,
        })
    }
}

/// The audience of the token a client gets for a confirmed e-mail code on a unit's public
/// page (issue 18): it books there for 30 minutes. Staff endpoints refuse it (wrong audience).
pub const ONLINE_CLIENT_AUDIENCE: &str = "navalha-online-client";
/// The audience of a booking's link token: it shows, cancels and moves that one booking.
pub const ONLINE_BOOKING_AUDIENCE: &str = "navalha-online-booking";

/// What an online-booking token says: who the client is (for [`ONLINE_CLIENT_AUDIENCE`])
/// or which booking it opens (for [`ONLINE_BOOKING_AUDIENCE`]), and the unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OnlineClaims {
    /// The client's CPF digits, or the appointment's id.
    pub sub: String,
    /// The business.
    pub biz: i64,
    /// The unit.
    pub unit: i64,
    /// The client's name as typed (client tokens).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The client's mobile digits as typed (client tokens).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phone: String,
    /// The e-mail the code was sent to (client tokens).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
    /// Whether the client ticked WhatsApp on the page (client tokens, issue 44).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whatsapp: bool,
    /// [`ONLINE_CLIENT_AUDIENCE`] or [`ONLINE_BOOKING_AUDIENCE`].
    pub aud: String,
    /// Always [`ISSUER`].
    pub iss: String,
    /// Issued at, seconds since the epoch.
    pub iat: i64,
    /// Expires at, seconds since the epoch.
    pub exp: i64,
}

impl TokenVerifier {
    /// Checks an online-booking token's signature, algorithm, `audience`, issuer and expiry;
    /// `refused` is the answer to a token that fails any of them.
    pub async fn verify_online(
        &self,
        token: &str,
        audience: &str,
        refused: impl Fn() -> ApiError,
    ) -> Result<OnlineClaims, ApiError> {
        let mut validation = Validation::new(ALGORITHM);
        validation.set_audience(&[audience]);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        validation.leeway = 5;
        let key = self.key().await.map_err(|error| match error {
            ApiError::Unauthorized => refused(),
            other => other,
        })?;
        jsonwebtoken::decode::<OnlineClaims>(token, key, &validation).map(|data| data.claims).map_err(
            |error| {
                tracing::debug!(%error, audience, "online token refused");
                refused()
            },
        )
    }

    /// The booking a link token opens: the token's claims and the appointment's id. Any bad
    /// link is 404, as an unknown booking is.
    pub async fn booking_link(&self, token: &str) -> Result<(OnlineClaims, i64), ApiError> {
        let not_found = || ApiError::NotFound(navalha_domain::online::MSG_BOOKING_NOT_FOUND.to_owned());
        let claims = self.verify_online(token, ONLINE_BOOKING_AUDIENCE, not_found).await?;
        let id = claims.sub.parse().map_err(|_| not_found())?;
        Ok((claims, id))
    }
}

/// Who may call an endpoint.
pub trait Policy: Send + Sync + 'static {
    /// The roles allowed.
    const ROLES: &'static [Role];
}

/// Any signed-in staff member.
pub struct AnyStaff;
impl Policy for AnyStaff {
    const ROLES: &'static [Role] = &Role::ALL;
}

/// Only administrators (spec 02 §6: "Only ADMIN may ...").
pub struct AdminOnly;
impl Policy for AdminOnly {
    const ROLES: &'static [Role] = &[Role::Admin];
}

/// Administrators and attendants (client social logins, spec 02 §6).
pub struct AdminOrAttendant;
impl Policy for AdminOrAttendant {
    const ROLES: &'static [Role] = &[Role::Admin, Role::Attendant];
}

/// Who works with plans and checkout links: ADMIN, ATTENDANT and DEFAULT reach the plans
/// screens (spec 02 §6); writes to plans are ADMIN only.
pub struct PlanStaff;
impl Policy for PlanStaff {
    const ROLES: &'static [Role] = &[Role::Admin, Role::Attendant, Role::Default];
}

/// Who reaches the subscribers screens: the plan staff and BARBER_LEADE (spec 02 §6).
pub struct SubscriberStaff;
impl Policy for SubscriberStaff {
    const ROLES: &'static [Role] = &[Role::Admin, Role::Attendant, Role::Default, Role::BarberLeade];
}

/// The token of an `Authorization: Bearer <token>` header, if there is a non-empty one.
pub fn bearer_token(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|token| !token.is_empty())
}

/// The signed-in principal of a request whose role satisfies `P`: 401 without a valid
/// token, 403 when the role is not allowed.
pub struct Auth<P: Policy = AnyStaff> {
    /// Who is calling.
    pub principal: Principal,
    policy: PhantomData<P>,
}

impl<P: Policy> std::ops::Deref for Auth<P> {
    type Target = Principal;
    fn deref(&self) -> &Principal {
        &self.principal
    }
}

impl<S, P> FromRequestParts<S> for Auth<P>
where
    S: Send + Sync,
    P: Policy,
    TokenVerifier: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let token = bearer_token(&parts.headers).ok_or(ApiError::Unauthorized)?;
        let principal = TokenVerifier::from_ref(state).verify(token).await?;
        if !P::ROLES.contains(&principal.role) {
            return Err(ApiError::Forbidden);
        }
        if let Some(seen) = parts.extensions.get::<BusinessSeen>() {
            let _ = seen.0.set(principal.business_id);
        }
        Ok(Self { principal, policy: PhantomData })
    }
}

/// Where the signed-in principal's business is left for a layer that answers after the
/// handler (query-api's word on stuck businesses, ADR 0022). A layer puts one in the
/// request's extensions; [`Auth`] fills it.
#[derive(Debug, Clone, Default)]
pub struct BusinessSeen(Arc<std::sync::OnceLock<i64>>);

impl BusinessSeen {
    /// The business of the principal the request was answered for, if one signed in.
    pub fn get(&self) -> Option<i64> {
        self.0.get().copied()
    }
}

/// The principal when the request carries a token, for public endpoints that narrow what
/// they answer for signed-in staff. No `Authorization` header, or an empty one (what the web
/// app sends without a session), is anonymous; a token that is present but bad is 401.
pub struct MaybeAuth(pub Option<Principal>);

impl<S> FromRequestParts<S> for MaybeAuth
where
    S: Send + Sync,
    TokenVerifier: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .map(str::trim)
            .unwrap_or_default();
        if header.is_empty() || header == "Bearer" {
            return Ok(Self(None));
        }
        Auth::<AnyStaff>::from_request_parts(parts, state).await.map(|auth| Self(Some(auth.principal)))
    }
}

/// Seconds since the epoch, now.
pub fn now_seconds() -> i64 {
    Utc::now().timestamp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn principal(role: Role, companies: Vec<i64>) -> Principal {
        Principal {
            professional_id: 1,
            session_id: uuid::Uuid::nil(),
            name: "Ana".into(),
            email: "ana@navalha.dev".into(),
            role,
            companies,
            business_id: 1,
        }
    }

    #[test]
    fn units_are_reached_by_membership_whatever_the_role() {
        for role in Role::ALL {
            assert!(principal(role, vec![1, 2]).belongs_to(2));
            assert!(!principal(role, vec![2]).belongs_to(1), "{role:?}");
            assert!(principal(role, vec![1, 2]).belongs_to_all(&[2, 1]));
            assert!(!principal(role, vec![1]).belongs_to_all(&[1, 3]));
        }
        assert!(principal(Role::BarberLeade, vec![1]).may_act_for(9));
        assert!(!principal(Role::Barber2, vec![1]).may_act_for(9));
        assert!(!principal(Role::Default, vec![1]).may_act_for(9));
        assert!(principal(Role::Default, vec![1]).may_act_for(1));
    }

    #[test]
    fn professionals_are_reached_through_a_shared_unit() {
        assert!(principal(Role::Default, vec![2]).reaches_professional_of(&[1, 2]));
        assert!(!principal(Role::Default, vec![2]).reaches_professional_of(&[1, 3]));
        assert!(!principal(Role::Barber1, vec![1]).reaches_professional_of(&[]));
        assert!(!principal(Role::Admin, vec![2]).reaches_professional_of(&[1]));
        assert!(!principal(Role::Admin, vec![2]).reaches_professional_of(&[]));
    }

    fn claims(exp: i64) -> Claims {
        Claims {
            sub: "1".into(),
            sid: uuid::Uuid::nil().to_string(),
            name: "Ana".into(),
            email: "ana@navalha.dev".into(),
            aud: AUDIENCE.into(),
            iss: ISSUER.into(),
            iat: exp - 3_600,
            exp,
        }
    }

    /// A token whose signature was checked is not checked again, but its expiry is: a kept
    /// token that expired meanwhile is refused (nothing here reaches the database, whose
    /// address does not exist).
    #[tokio::test]
    async fn a_kept_token_still_expires() {
        let verifier =
            TokenVerifier::new(PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").expect("lazy"));
        let fresh = claims(now_seconds() + 60);
        verifier.signed.keep("fresh", &fresh);
        assert_eq!(verifier.signed_claims("fresh").await.ok(), Some(fresh));
        // Within the leeway, then past it.
        verifier.signed.keep("just-expired", &claims(now_seconds() - EXPIRY_LEEWAY + 5));
        assert!(verifier.signed_claims("just-expired").await.is_ok());
        verifier.signed.keep("expired", &claims(now_seconds() - EXPIRY_LEEWAY - 5));
        assert!(matches!(verifier.signed_claims("expired").await, Err(ApiError::Unauthorized)));
    }

    #[test]
    fn kept_tokens_are_bounded() {
        let signed = SignedTokens::default();
        for n in 0..SIGNED_TOKENS_KEPT + 1 {
            signed.keep(&n.to_string(), &claims(0));
        }
        assert_eq!(signed.known.lock().expect("lock").len(), 1, "full, so it started over");
        assert!(signed.get(&SIGNED_TOKENS_KEPT.to_string()).is_some());
    }
}
