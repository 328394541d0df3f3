//! `Idempotency-Key` on every create: one layer over command-api's `POST` routes.
//!
//! The first request with a key runs; its answer (status, the headers a client reads, body)
//! is stored under (caller, key). A retry with the same key and body gets that answer again,
//! with `Idempotent-Replayed: true`, and nothing runs twice. A duplicate that arrives while
//! the first is still running waits for it rather than racing it (never a 409 for a create
//! that succeeded). The same key with another body is a 422; a form (multipart) is compared
//! by its fields, not its bytes, whose boundary a browser draws anew for each send. Keys
//! last 24 hours.
//!
//! The first request runs in its own task, so a client that hangs up cannot leave a create
//! half answered: the answer is stored whether or not anyone is still listening. A server
//! error is not stored (the row is removed), so a retry runs again; nor is a 401 or a 403
//! (issue 39): a request nobody may make writes nothing that lasts, whoever sends it.
//!
//! A process may also die mid-request (kill -9, a crash). Each command-api process holds
//! an advisory lock for as long as it lives ([`hold_instance_lock`]) and marks the runs it
//! claims with it: a retry takes over a run in flight as soon as its owner's lock is gone
//! (or after [`STALE_AFTER`] for a run without an owner). And a create that knows its
//! answer before appending (`{"IdScheduling": 12}`) puts it in the events' metadata
//! ([`answering`]), where a trigger stores it in the same transaction as the events: a
//! process killed between the commit and its own store still leaves the first answer to
//! the retry, which then gets it instead of running the create twice.

use std::time::Duration;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use navalha_domain::metadata::EventMetadata;
use navalha_platform::auth::{TokenVerifier, ONLINE_CLIENT_AUDIENCE};
use navalha_platform::http::{IdempotentRun, RequestOrigin};
use navalha_platform::ApiError;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use sqlx::PgPool;

use crate::state::AppState;

/// The request header.
pub const HEADER: &str = "idempotency-key";
/// Set on an answer given again.
pub const REPLAYED: &str = "idempotent-replayed";
/// How long a key is remembered.
pub const KEEP_HOURS: i32 = 24;
/// After this, a request still in flight is taken to be lost (the apps' timeout is 60 s).
pub const STALE_AFTER: Duration = Duration::from_secs(90);
/// The longest key taken.
pub const MAX_KEY_LEN: usize = 200;
/// How often a waiting duplicate looks for the first request's answer.
const POLL: Duration = Duration::from_millis(25);
/// The largest body the layer reads; the routes' own limits are smaller and still apply.
const MAX_BODY_BYTES: usize = 27 * 1024 * 1024;
/// The answer headers stored and given again.
const KEPT_HEADERS: [&str; 3] = ["content-type", "x-navalha-position", "location"];

pub const MSG_INVALID_KEY: &str = "Cabeçalho Idempotency-Key inválido.";
pub const MSG_OTHER_BODY: &str = "Esta Idempotency-Key já foi usada com outro pedido.";

/// Paths whose `POST` creates nothing to deduplicate: sign-in and recovery answer secrets
/// that must not be stored, and the provider's webhooks are deduplicated by their own ids.
pub fn exempt(path: &str) -> bool {
    path.starts_with("/api/session-professional/")
        || path.starts_with("/api/galaxpay/")
        // Online booking's code and its exchange for a token: a secret each.
        || (path.starts_with("/api/no-auth/online-booking/") && (path.ends_with("/code") || path.ends_with("/verify")))
}

/// The layer: `axum::middleware::from_fn_with_state(state, idempotency::layer)`.
pub async fn layer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST || exempt(request.uri().path()) {
        return next.run(request).await;
    }
    let Some(key) = request.headers().get(HEADER) else { return next.run(request).await };
    let key = match key.to_str().map(str::trim) {
        Ok(key) if !key.is_empty() && key.len() <= MAX_KEY_LEN => key.to_owned(),
        _ => return ApiError::BadRequest(MSG_INVALID_KEY.to_owned()).into_response(),
    };
    match run_once(&state, key, request, next).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    }
}

/// Who a key belongs to: the signed-in staff member, or everyone without a session (the
/// checkout), whose bodies carry their own secret (the link's token).
async fn caller(verifier: &TokenVerifier, headers: &HeaderMap) -> Result<String, ApiError> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|token| !token.is_empty());
    match token {
        Some(token) => match verifier.verify(token).await {
            Ok(principal) => Ok(format!("staff:{}", principal.professional_id)),
            // A client booking on a unit's public page (online.rs).
            Err(ApiError::Unauthorized) => {
                match verifier.verify_online(token, ONLINE_CLIENT_AUDIENCE, || ApiError::Unauthorized).await {
                    Ok(client) => Ok(format!("online:{}:{}", client.biz, client.sub)),
                    // The route answers 401 itself; the key is not recorded for a bad token.
                    Err(ApiError::Unauthorized) => Ok(String::new()),
                    Err(error) => Err(error),
                }
            }
            // Not a verdict on the token (the database is away): the request must not run
            // without its key.
            Err(error) => Err(error),
        },
        None => Ok("anonymous".to_owned()),
    }
}

async fn run_once(state: &AppState, key: String, request: Request, next: Next) -> Result<Response, ApiError> {
    let caller = caller(&state.verifier, request.headers()).await?;
    if caller.is_empty() {
        return Ok(next.run(request).await);
    }
    let (parts, body) = request.into_parts();
    let bytes = to_bytes(body, MAX_BODY_BYTES).await.map_err(|_| ApiError::PayloadTooLarge)?;
    let mut hash = Sha256::new();
    hash.update(parts.method.as_str());
    hash.update(b" ");
    hash.update(parts.uri.path());
    hash.update(b"\n");
    match form_fields_digest(&parts.headers, &bytes).await {
        Some(fields) => hash.update(fields),
        None => hash.update(&bytes),
    }
    let hash = hash.finalize().to_vec();
    let mut request = Request::from_parts(parts, Body::from(bytes));
    let pool = &state.pool;
    loop {
        match claim(pool, &caller, &key, &hash).await? {
            Claimed::Mine(run) => {
                request.extensions_mut().insert(IdempotentRun(run));
                return Ok(run_and_store(pool, &caller, &key, run, request, next).await);
            }
            Claimed::OtherBody => return Err(ApiError::Unprocessable(MSG_OTHER_BODY.to_owned())),
            Claimed::Answered(response) => return Ok(response),
            Claimed::InFlight => tokio::time::sleep(POLL).await,
        }
    }
}

/// A form's fields in order (name, file name, content type and value of each), digested,
/// for a `multipart/form-data` body; `None` for any other body, or a form that does not
/// parse (the route answers it).
async fn form_fields_digest(headers: &HeaderMap, bytes: &Bytes) -> Option<Vec<u8>> {
    use axum::extract::{FromRequest, Multipart};
    let content_type = headers.get(header::CONTENT_TYPE)?;
    if !content_type.to_str().ok()?.trim_start().to_ascii_lowercase().starts_with("multipart/form-data") {
        return None;
    }
    let request =
        Request::builder().header(header::CONTENT_TYPE, content_type).body(Body::from(bytes.clone())).ok()?;
    let mut form = Multipart::from_request(request, &()).await.ok()?;
    let mut hash = Sha256::new();
    while let Some(field) = form.next_field().await.ok()? {
        for text in [field.name(), field.file_name(), field.content_type()] {
            hash.update(text.unwrap_or_default());
            hash.update([0]);
        }
        let value = field.bytes().await.ok()?;
        hash.update((value.len() as u64).to_le_bytes());
        hash.update(&value);
    }
    Some(hash.finalize().to_vec())
}

/// What the key's row says.
enum Claimed {
    /// This request runs: the row is new, expired, or its first request was lost. The value
    /// names this run, so a lost run that finishes late cannot overwrite the answer.
    Mine(i64),
    /// The first request's answer.
    Answered(Response),
    /// The first request is still running.
    InFlight,
    /// The key was used with another request.
    OtherBody,
}

/// A key's row: the request's hash, and the answer once there is one.
type StoredRow = (Vec<u8>, Option<i16>, Option<Value>, Option<Vec<u8>>);

async fn claim(pool: &PgPool, caller: &str, key: &str, hash: &[u8]) -> Result<Claimed, ApiError> {
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
        Some((_, Some(status), headers, body)) => Claimed::Answered(replay(status, headers, body)),
        Some(_) => Claimed::InFlight,
    })
}

/// Runs the request in its own task and stores its answer under the key.
async fn run_and_store(
    pool: &PgPool,
    caller: &str,
    key: &str,
    run: i64,
    request: Request,
    next: Next,
) -> Response {
    let (pool, caller, key) = (pool.clone(), caller.to_owned(), key.to_owned());
    let task = tokio::spawn(async move {
        let response = next.run(request).await;
        let (parts, body) = response.into_parts();
        let bytes = to_bytes(body, MAX_BODY_BYTES).await.unwrap_or_default();
        if let Err(error) = store(&pool, &caller, &key, run, parts.status, &parts.headers, &bytes).await {
            // Unstored, the run would look in flight for as long as this process lives, and
            // every retry would wait for it: keep trying while the database is away.
            tracing::warn!(%error, "could not store an idempotent answer yet, retrying");
            let (status, headers, bytes) = (parts.status, parts.headers.clone(), bytes.clone());
            tokio::spawn(async move {
                let started = std::time::Instant::now();
                let mut pause = Duration::from_millis(200);
                loop {
                    tokio::time::sleep(pause).await;
                    match store(&pool, &caller, &key, run, status, &headers, &bytes).await {
                        Ok(()) => break,
                        Err(error) if started.elapsed() > STALE_AFTER => {
                            tracing::error!(%error, "gave up storing an idempotent answer");
                            break;
                        }
                        Err(_) => pause = (pause * 2).min(Duration::from_secs(2)),
                    }
                }
            });
        }
        Response::from_parts(parts, Body::from(bytes))
    });
    match task.await {
        Ok(response) => response,
        Err(error) => {
            tracing::error!(%error, "an idempotent request failed");
            ApiError::Internal(anyhow::anyhow!("idempotent request: {error}")).into_response()
        }
    }
}

async fn store(
    pool: &PgPool,
    caller: &str,
    key: &str,
    run: i64,
    status: StatusCode,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<(), sqlx::Error> {
    if status.is_server_error() || matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
        // Unless the events' trigger stored an answer: the commit went through even though
        // this run saw it fail (its acknowledgement lost with the connection). A 401 or 403
        // wrote nothing, and keeping it would let anyone fill the table.
        sqlx::query(
            "delete from idempotent_request where caller = $1 and key = $2 and run = $3 and status is null",
        )
        .bind(caller)
        .bind(key)
        .bind(run)
        .execute(pool)
        .await?;
        return Ok(());
    }
    let kept: Map<String, Value> = KEPT_HEADERS
        .iter()
        .filter_map(|name| {
            let value = headers.get(*name)?.to_str().ok()?;
            Some(((*name).to_owned(), Value::String(value.to_owned())))
        })
        .collect();
    sqlx::query(
        "update idempotent_request set status = $4, headers = $5, body = $6
          where caller = $1 and key = $2 and run = $3 and status is null",
    )
    .bind(caller)
    .bind(key)
    .bind(run)
    .bind(status.as_u16() as i16)
    .bind(Value::Object(kept))
    .bind(body.to_vec())
    .execute(pool)
    .await?;
    Ok(())
}

/// The stored answer, given again.
fn replay(status: i16, headers: Option<Value>, body: Option<Vec<u8>>) -> Response {
    let status = u16::try_from(status).ok().and_then(|s| StatusCode::from_u16(s).ok());
    let mut response = Response::new(Body::from(body.unwrap_or_default()));
    *response.status_mut() = status.unwrap_or(StatusCode::OK);
    for (name, value) in headers.as_ref().and_then(Value::as_object).into_iter().flatten() {
        let (Ok(name), Some(Ok(value))) =
            (HeaderName::try_from(name.as_str()), value.as_str().map(HeaderValue::from_str))
        else {
            continue;
        };
        response.headers_mut().insert(name, value);
    }
    response.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
    response
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

/// `metadata` carrying the answer a create will give, when the request runs under an
/// Idempotency-Key: the events' trigger then stores it with them (see the module's docs).
/// Only for answers known before the events are appended; the position is added by the
/// trigger.
pub fn answering(
    metadata: EventMetadata,
    origin: &RequestOrigin,
    status: StatusCode,
    body: &Value,
) -> EventMetadata {
    match origin.idempotent_run {
        Some(IdempotentRun(run)) => metadata.with(
            "idempotency",
            serde_json::json!({ "run": run, "status": status.as_u16(), "body": body.to_string() })
                .to_string(),
        ),
        None => metadata,
    }
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
