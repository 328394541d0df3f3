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
//! an advisory lock for as long as it lives ([`storage::hold_instance_lock`]) and marks the runs it
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

use navalha_event_store::idempotency::{self as storage, Claimed, StoredAnswer, STALE_AFTER};

use crate::state::AppState;

/// The request header.
pub const HEADER: &str = "idempotency-key";
/// Set on an answer given again.
pub const REPLAYED: &str = "idempotent-replayed";
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
        || path.starts_with("/api/no-auth/whatsapp/")
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
        match storage::claim(pool, &caller, &key, &hash).await? {
            Claimed::Mine(run) => {
                request.extensions_mut().insert(IdempotentRun(run));
                return Ok(run_and_store(pool, &caller, &key, run, request, next).await);
            }
            Claimed::OtherBody => return Err(ApiError::Unprocessable(MSG_OTHER_BODY.to_owned())),
            Claimed::Answered(answer) => return Ok(replay(answer)),
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

/// Stores a run's answer: a server error, a 401 or a 403 is not kept (the run is forgotten,
/// so a retry runs again; a request nobody may make writes nothing that lasts), every
/// other answer is, with the headers a client reads.
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
        return storage::forget_run(pool, caller, key, run).await;
    }
    let kept: Map<String, Value> = KEPT_HEADERS
        .iter()
        .filter_map(|name| {
            let value = headers.get(*name)?.to_str().ok()?;
            Some(((*name).to_owned(), Value::String(value.to_owned())))
        })
        .collect();
    let answer = StoredAnswer {
        status: status.as_u16() as i16,
        headers: Some(Value::Object(kept)),
        body: Some(body.to_vec()),
    };
    storage::store(pool, caller, key, run, &answer).await
}

/// The stored answer, given again.
fn replay(StoredAnswer { status, headers, body }: StoredAnswer) -> Response {
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

/// `metadata` carrying the answer a create will give, when the request runs under an
/// Idempotency-Key: the events' trigger then stores it with them (see the module's docs).
/// Only for answers known before the events are appended; the position is added by the
/// trigger.
pub fn answering(
    metadata: EventMetadata,
    origin: &RequestOrigin,
    status: StatusCode,
    body: &impl serde::Serialize,
) -> EventMetadata {
    match origin.idempotent_run {
        Some(IdempotentRun(run)) => metadata.with(
            "idempotency",
            serde_json::json!({
                "run": run,
                "status": status.as_u16(),
                // The answer as the client gets it: compact JSON.
                "body": serde_json::to_string(body).unwrap_or_default(),
            })
            .to_string(),
        ),
        None => metadata,
    }
}
