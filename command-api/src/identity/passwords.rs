//! Password hashing with Argon2id (OWASP's minimum: 19 MiB, 2 iterations, 1 lane).

use std::sync::LazyLock;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use navalha_platform::ApiError;

/// Memory cost in KiB.
pub const MEMORY_KIB: u32 = 19 * 1024;
/// Iterations.
pub const ITERATIONS: u32 = 2;
/// Lanes.
pub const PARALLELISM: u32 = 1;

fn argon2() -> Argon2<'static> {
    // The parameters are constants within argon2's limits.
    let params = Params::new(MEMORY_KIB, ITERATIONS, PARALLELISM, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A hash to verify against when the account does not exist, so that the answer takes as
/// long as for a real account and timing reveals nothing.
static DUMMY_HASH: LazyLock<String> =
    LazyLock::new(|| hash_blocking("not-a-real-password").unwrap_or_default());

fn hash_blocking(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(&mut OsRng);
    Ok(argon2().hash_password(password.as_bytes(), &salt)?.to_string())
}

/// Hashes a password off the async threads (it costs tens of milliseconds by design).
pub async fn hash(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || hash_blocking(&password))
        .await
        .map_err(|error| ApiError::Internal(error.into()))?
        .map_err(|error| ApiError::Internal(anyhow::anyhow!("hashing a password: {error}")))
}

/// Checks a password against a stored hash; `None` verifies against a dummy and fails.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let stored = stored.unwrap_or_else(|| DUMMY_HASH.clone());
        let Ok(parsed) = PasswordHash::new(&stored) else { return false };
        argon2().verify_password(password.as_bytes(), &parsed).is_ok() && known
    })
    .await
    .map_err(|error| ApiError::Internal(error.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_with_the_required_cost_and_verify() {
        let hashed = hash("Navalha@2026".to_owned()).await.unwrap_or_default();
        assert!(hashed.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hashed}");
        assert!(verify("Navalha@2026".to_owned(), Some(hashed.clone())).await.unwrap_or(false));
        assert!(!verify("navalha@2026".to_owned(), Some(hashed)).await.unwrap_or(true));
        assert!(!verify("not-a-real-password".to_owned(), None).await.unwrap_or(true));
    }
}
