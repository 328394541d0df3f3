//! Password hashing with Argon2id (OWASP's minimum: 19 MiB, 2 iterations, 1 lane).
//!
//! Each hash works in 19 MiB. At most [`AT_ONCE`] run together, each in a buffer kept for
//! the next (`MEMORY`): a burst of sign-ins queues instead of taking 19 MiB apiece, and the
//! memory is not handed back to the allocator, whose per-thread arenas kept each freed
//! buffer (command-api grew by 117 MB while the bench's 100 desks signed in, issue 46).

use std::sync::{Arc, LazyLock, Mutex};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use navalha_platform::ApiError;
use tokio::sync::Semaphore;

/// Memory cost in KiB.
pub const MEMORY_KIB: u32 = 19 * 1024;
/// Iterations.
pub const ITERATIONS: u32 = 2;
/// Lanes.
pub const PARALLELISM: u32 = 1;
/// Hashes computed at once (the machine's two cores); the others wait their turn.
pub const AT_ONCE: usize = 2;

static HASHING: LazyLock<Arc<Semaphore>> = LazyLock::new(|| Arc::new(Semaphore::new(AT_ONCE)));
/// The working memory of the hashes done so far, for the next ones: at most [`AT_ONCE`].
static MEMORY: Mutex<Vec<Vec<Block>>> = Mutex::new(Vec::new());

fn argon2() -> Argon2<'static> {
    // The parameters are constants within argon2's limits.
    let params = Params::new(MEMORY_KIB, ITERATIONS, PARALLELISM, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A hash to verify against when the account does not exist, so that the answer takes as
/// long as for a real account and timing reveals nothing.
static DUMMY_HASH: LazyLock<String> =
    LazyLock::new(|| hash_blocking("not-a-real-password").unwrap_or_default());

/// `argon2`'s output for `password` and the raw `salt`, of `len` bytes, in kept memory.
fn output(
    argon2: &Argon2<'_>,
    password: &[u8],
    salt: &[u8],
    len: usize,
) -> argon2::password_hash::Result<Output> {
    let kept = MEMORY.lock().map(|mut kept| kept.pop()).unwrap_or_default();
    let mut blocks = kept.unwrap_or_default();
    blocks.resize(argon2.params().block_count(), Block::default());
    let output = Output::init_with(len, |out| {
        Ok(argon2.hash_password_into_with_memory(password, salt, out, &mut blocks)?)
    });
    if let Ok(mut kept) = MEMORY.lock() {
        kept.push(blocks);
    }
    output
}

fn hash_blocking(password: &str) -> argon2::password_hash::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    let argon2 = argon2();
    let mut raw = [0_u8; 64];
    let raw = salt.as_salt().decode_b64(&mut raw)?;
    let hash = output(&argon2, password.as_bytes(), raw, Params::DEFAULT_OUTPUT_LEN)?;
    let hashed = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(argon2.params())?,
        salt: Some(salt.as_salt()),
        hash: Some(hash),
    };
    Ok(hashed.to_string())
}

/// Whether `password` hashes to `stored`, with the stored hash's own algorithm, version
/// and costs (a hash made with other costs still verifies); compared in constant time.
fn verify_blocking(password: &str, stored: &str) -> argon2::password_hash::Result<bool> {
    let parsed = PasswordHash::new(stored)?;
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else { return Ok(false) };
    let version = parsed.version.map(Version::try_from).transpose()?.unwrap_or_default();
    let argon2 = Argon2::new(Algorithm::try_from(parsed.algorithm)?, version, Params::try_from(&parsed)?);
    let mut raw = [0_u8; 64];
    let raw = salt.decode_b64(&mut raw)?;
    Ok(output(&argon2, password.as_bytes(), raw, expected.len())? == expected)
}

/// Runs `work` off the async threads, in its turn among the hashes. The turn goes with the
/// work: a request dropped while its hash runs does not let another start beside it.
async fn in_turn<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    let turn = HASHING.clone().acquire_owned().await.map_err(|error| ApiError::Internal(error.into()))?;
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        work()
    })
    .await
    .map_err(|error| ApiError::Internal(error.into()))
}

/// Hashes a password (it costs tens of milliseconds by design).
pub async fn hash(password: String) -> Result<String, ApiError> {
    in_turn(move || hash_blocking(&password))
        .await?
        .map_err(|error| ApiError::Internal(anyhow::anyhow!("hashing a password: {error}")))
}

/// Checks a password against a stored hash; `None` verifies against a dummy and fails.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, ApiError> {
    in_turn(move || {
        let known = stored.is_some();
        let stored = stored.unwrap_or_else(|| DUMMY_HASH.clone());
        verify_blocking(&password, &stored).unwrap_or(false) && known
    })
    .await
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

    /// This process's peak resident memory so far, in KiB.
    fn peak_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let line = status.lines().find(|line| line.starts_with("VmHWM:")).unwrap_or_default();
        line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).unwrap_or(0)
    }

    /// Eight sign-ins at once take the memory of [`AT_ONCE`] hashes, not of eight (152 MiB),
    /// and leave it kept for the next ones.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_sign_ins_takes_the_memory_of_the_hashes_in_turn() {
        let stored = hash("Navalha@2026".to_owned()).await.unwrap_or_default();
        let before = peak_kib();
        let mut burst = tokio::task::JoinSet::new();
        for attempt in 0..8 {
            let password = if attempt % 2 == 0 { "Navalha@2026" } else { "navalha@2026" };
            burst.spawn(verify(password.to_owned(), Some(stored.clone())));
        }
        let verified: Vec<bool> = burst.join_all().await.into_iter().map(|v| v.unwrap_or(false)).collect();
        assert_eq!(verified.iter().filter(|ok| **ok).count(), 4, "{verified:?}");
        let grown = peak_kib().saturating_sub(before);
        assert!(grown < (AT_ONCE as u64 + 1) * u64::from(MEMORY_KIB), "grew {grown} KiB");
        assert!(MEMORY.lock().map(|kept| kept.len()).unwrap_or(0) <= AT_ONCE);
    }
}
