//! Where `Idempotency-Key` runs and their answers are kept (ADR 0012): the table
//! `idempotent_request`, keyed by (caller, key), and this process's instance lock, which
//! tells a retry whether a run in flight still has a live owner. command-api's layer
//! decides what a request is and what is answered; this module only stores.

use std::time::Duration;

use serde_json::Value;
use sqlx::PgPool;

/// How long a key is remembered.
pub const KEEP_HOURS: i32 = 24;
/// After this, a request still in flight is taken to be lost (the apps' timeout is 60 s).
pub const STALE_AFTER: Duration = Duration::from_secs(90);

/// A stored answer: status, the headers kept (name to value), body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAnswer {
    pub status: i16,
    pub headers: Option<Value>,
    pub body: Option<Vec<u8>>,
}

/// What the key's row says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claimed {
    /// This request runs: the row is new, expired, or its first request was lost. The value
    /// names this run, so a lost run that finishes late cannot overwrite the answer.
    Mine(i64),
    /// The first request's answer.
    Answered(StoredAnswer),
    /// The first request is still running.
    InFlight,
    /// The key was used with another request.
    OtherBody,
}

/// A key's row: the request's hash, and the answer once there is one.
type StoredRow = (Vec<u8>, Option<i16>, Option<Value>, Option<Vec<u8>>);

/// Claims `key` of `caller` for a request whose content hashes to `hash`.
pub async fn claim(pool: &PgPool, caller: &str, key: &str, hash: &[u8]) -> Result<Claimed, sqlx::Error> {
    let run: i64 = rand::random::<i64>() & i64::MAX;
    // New, expired (another body may take it), or lost in flight (the same body only): its
    // owner's process is gone, or it has no owner and went stale.
    let mine: Option<i64> = sqlx::query_scalar(
        "insert into idempotent_request (caller, key, request_hash, run, owner)
         values ($1, $2, $3, $6, $7)
         on conflict (caller, key) do update
            set request_hash = excluded.request_hash, started_at = now(), created_at = now(),
                status = null, headers = null, body = null, run = excluded.run, owner = excluded.owner
          where idempotent_request.created_at < now() - make_interval(hours => $4)
             or (idempotent_request.status is null
                 and idempotent_request.request_hash = excluded.request_hash
                 and (idempotent_request.started_at < now() - make_interval(secs => $5)
                      or (idempotent_request.owner is not null
                          and not exists (select 1 from pg_locks l
                                           where l.locktype = 'advisory' and l.granted and l.objsubid = 1
                                             and l.classid = (idempotent_request.owner >> 32)::oid
                                             and l.objid = (idempotent_request.owner & 4294967295)::oid))))
         returning run",
    )
    .bind(caller)
    .bind(key)
    .bind(hash)
    .bind(KEEP_HOURS)
    .bind(STALE_AFTER.as_secs_f64())
    .bind(run)
    .bind(INSTANCE.get().copied())
    .fetch_optional(pool)
    .await?;
    if let Some(run) = mine {
        return Ok(Claimed::Mine(run));
    }
    let row: Option<StoredRow> = sqlx::query_as(
        "select request_hash, status, headers, body from idempotent_request where caller = $1 and key = $2",
    )
    .bind(caller)
    .bind(key)
    .fetch_optional(pool)
    .await?;
    Ok(match row {
        // Removed after a server error between the two statements: claim it again.
        None => Claimed::InFlight,
        Some((stored, _, _, _)) if stored != hash => Claimed::OtherBody,
        Some((_, Some(status), headers, body)) => Claimed::Answered(StoredAnswer { status, headers, body }),
        Some(_) => Claimed::InFlight,
    })
}

/// Stores run `run`'s answer under the key, unless the events' trigger stored one first.
pub async fn store(
    pool: &PgPool,
    caller: &str,
    key: &str,
    run: i64,
    answer: &StoredAnswer,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update idempotent_request set status = $4, headers = $5, body = $6
          where caller = $1 and key = $2 and run = $3 and status is null",
    )
    .bind(caller)
    .bind(key)
    .bind(run)
    .bind(answer.status)
    .bind(&answer.headers)
    .bind(&answer.body)
    .execute(pool)
    .await?;
    Ok(())
}

/// Forgets run `run` (a retry then runs again), unless the events' trigger stored its
/// answer: the commit went through even though the run saw it fail.
pub async fn forget_run(pool: &PgPool, caller: &str, key: &str, run: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "delete from idempotent_request where caller = $1 and key = $2 and run = $3 and status is null",
    )
    .bind(caller)
    .bind(key)
    .bind(run)
    .execute(pool)
    .await?;
    Ok(())
}

/// The advisory-lock key this process holds while it lives (see [`hold_instance_lock`]);
/// unset in processes that never serve (tests that build the router alone), whose runs then
/// fall back to [`STALE_AFTER`].
static INSTANCE: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
/// The high half of every instance's lock key: apart from the projector's locks, whose keys
/// are `hashtext` values (0 or all ones in the high half).
const INSTANCE_LOCK_SPACE: i64 = 0x4E41 << 32;

/// Takes this process's instance lock on a dedicated connection and keeps it (taking it
/// again after the connection breaks) for as long as the process runs. Call once, before
/// serving.
pub async fn hold_instance_lock(database_url: String) -> anyhow::Result<()> {
    let key = INSTANCE_LOCK_SPACE | i64::from(rand::random::<u32>());
    let mut connection = lock_instance(&database_url, key).await?;
    INSTANCE.set(key).map_err(|_| anyhow::anyhow!("the instance lock is taken already"))?;
    tokio::spawn(async move {
        loop {
            // Often: while the lock is gone (the database restarted), retries may take over
            // this process's runs.
            tokio::time::sleep(Duration::from_secs(1)).await;
            if sqlx::query("select 1").execute(&mut connection).await.is_ok() {
                continue;
            }
            tracing::warn!("instance lock connection lost: taking the lock again");
            loop {
                match lock_instance(&database_url, key).await {
                    Ok(fresh) => break connection = fresh,
                    Err(_) => tokio::time::sleep(Duration::from_secs(1)).await,
                }
            }
        }
    });
    Ok(())
}

async fn lock_instance(database_url: &str, key: i64) -> anyhow::Result<sqlx::PgConnection> {
    use sqlx::Connection;
    let mut connection = sqlx::PgConnection::connect(database_url).await?;
    sqlx::query("select pg_advisory_lock($1)").bind(key).execute(&mut connection).await?;
    Ok(connection)
}

/// Forgets expired keys every hour, for as long as the process runs.
pub fn spawn_forgetting(pool: PgPool) {
    tokio::spawn(async move {
        let mut hourly = tokio::time::interval(Duration::from_secs(3600));
        loop {
            hourly.tick().await;
            match forget_expired(&pool).await {
                Ok(0) => {}
                Ok(forgotten) => tracing::info!(forgotten, "expired idempotency keys forgotten"),
                Err(error) => tracing::warn!(%error, "could not forget expired idempotency keys"),
            }
        }
    });
}

/// Forgets keys older than [`KEEP_HOURS`]; answers how many.
pub async fn forget_expired(pool: &PgPool) -> Result<u64, sqlx::Error> {
    let done =
        sqlx::query("delete from idempotent_request where created_at < now() - make_interval(hours => $1)")
            .bind(KEEP_HOURS)
            .execute(pool)
            .await?;
    Ok(done.rows_affected())
}
