//! Executing a command: metadata, bounded retries on concurrent changes, domain errors
//! mapped to HTTP, and the position of what was appended.

use std::collections::HashMap;

use axum::http::HeaderMap;
use cqrs_es::Aggregate;
use navalha_domain::metadata::EventMetadata;
use navalha_platform::auth::Principal;
use navalha_platform::error::MSG_CONCURRENT_CHANGE;
use navalha_platform::http::{header_value, RequestOrigin};
use navalha_platform::position::{Position, POSITION_HEADER};
use navalha_platform::ApiError;
use sqlx::PgPool;

use navalha_event_store::execute::{
    sqlstate, Refusal, SQLSTATE_DEADLOCK, SQLSTATE_EXCLUSION, SQLSTATE_OTHER_BUSINESS,
    SQLSTATE_SERIALIZATION, SQLSTATE_UNIQUE,
};
use navalha_event_store::log::{EventLog, Stream, Unread};

/// A domain error that knows its HTTP answer.
pub trait DomainError: std::error::Error {
    /// The answer for this error.
    fn to_api(&self) -> ApiError;
}

impl DomainError for navalha_domain::favorite_menu::FavoriteMenuError {
    fn to_api(&self) -> ApiError {
        ApiError::field("slug", &self.to_string())
    }
}

impl DomainError for navalha_domain::company::CompanyError {
    fn to_api(&self) -> ApiError {
        use navalha_domain::company::CompanyError;
        match self {
            CompanyError::AlreadyRegistered => ApiError::Conflict(self.to_string()),
            CompanyError::NotFound => ApiError::NotFound(self.to_string()),
            CompanyError::GalleryFull => ApiError::field("files", &self.to_string()),
        }
    }
}

impl DomainError for navalha_domain::professional::ProfessionalError {
    fn to_api(&self) -> ApiError {
        use navalha_domain::professional::ProfessionalError;
        match self {
            ProfessionalError::AlreadyRegistered | ProfessionalError::ServiceAlreadyOffered => {
                ApiError::Conflict(self.to_string())
            }
            ProfessionalError::NotFound | ProfessionalError::ServiceNotFound => {
                ApiError::NotFound(self.to_string())
            }
        }
    }
}

impl DomainError for navalha_domain::business::BusinessError {
    fn to_api(&self) -> ApiError {
        use navalha_domain::business::BusinessError;
        match self {
            BusinessError::AlreadyOpened => ApiError::Conflict(self.to_string()),
            BusinessError::NameMissing => ApiError::field("name", &self.to_string()),
            BusinessError::NotOpened => ApiError::NotFound(self.to_string()),
        }
    }
}

/// A 422 from field errors, its message the first field's.
pub fn invalid(errors: navalha_domain::validation::FieldErrors) -> ApiError {
    let message = errors.0.values().next().cloned().unwrap_or_default();
    ApiError::Validation { message, errors: errors.0 }
}

/// Metadata of something the system does within a request (no staff member acting), in
/// the business of what it works on.
pub fn system_metadata(reason: &str, business_id: i64, origin: &RequestOrigin) -> EventMetadata {
    EventMetadata {
        request_id: origin.request_id.clone(),
        client_ip: origin.client_ip.clone(),
        ..EventMetadata::system(reason, business_id)
    }
}

/// The metadata of a command sent by a signed-in user.
pub fn metadata_of(principal: &Principal, origin: &RequestOrigin) -> EventMetadata {
    EventMetadata {
        business_id: principal.business_id,
        user_id: Some(principal.professional_id),
        user_name: principal.name.clone(),
        role: Some(principal.role),
        request_id: origin.request_id.clone(),
        client_ip: origin.client_ip.clone(),
        at: navalha_platform::clock::now(),
        unique_claims: Vec::new(),
        released_claims: Vec::new(),
        extra: Vec::new(),
    }
}

/// Money from the wire for `field` (`money::cents_from_reais`), or its pt-BR refusal there.
pub fn cents_field(field: &str, value: &serde_json::Value) -> Result<i64, ApiError> {
    navalha_domain::money::cents_from_reais(value)
        .map_err(|not_money| ApiError::field(field, not_money.message()))
}

/// Money that may be left out (null or blank).
pub fn optional_cents_field(field: &str, value: &serde_json::Value) -> Result<Option<i64>, ApiError> {
    match value {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(text) if text.trim().is_empty() => Ok(None),
        other => cents_field(field, other).map(Some),
    }
}

/// A text field trimmed, `None` when blank.
pub fn trimmed(text: Option<String>) -> Option<String> {
    text.map(|text| text.trim().to_owned()).filter(|text| !text.is_empty())
}

/// Who owns a unique value, if anyone (see [`EventMetadata::claiming`]).
pub async fn claim_holder(pool: &PgPool, scope: &str, value: &str) -> Result<Option<String>, ApiError> {
    Ok(sqlx::query_scalar("select aggregate_id from unique_claim where scope = $1 and value = $2")
        .bind(scope)
        .bind(value)
        .fetch_optional(pool)
        .await?)
}

/// Executes `command` on the aggregate `aggregate_id`, retrying a bounded number of times
/// when a concurrent command wins the race, and returns the stream's position afterwards.
pub async fn execute<A>(
    log: &EventLog,
    aggregate_id: &str,
    command: A::Command,
    metadata: &EventMetadata,
) -> Result<Option<Position>, ApiError>
where
    A: Aggregate<Services = ()> + Clone + 'static,
    A::Command: Clone,
    A::Error: DomainError,
{
    Ok(run::<A>(log, aggregate_id, command, metadata, None).await?.position)
}

/// [`execute`] on an aggregate whose id was just taken from its sequence ([`next_id`]): its
/// stream is empty, so the first attempt does not read it. Should it not be, the append
/// loses the race for the first sequence and the retry reads it as [`execute`] does.
pub async fn execute_new<A>(
    log: &EventLog,
    aggregate_id: &str,
    command: A::Command,
    metadata: &EventMetadata,
) -> Result<Option<Position>, ApiError>
where
    A: Aggregate<Services = ()> + Clone + 'static,
    A::Command: Clone,
    A::Error: DomainError,
{
    Ok(run::<A>(log, aggregate_id, command, metadata, Some(Stream::default())).await?.position)
}

/// [`execute`] on a stream the handler has just read ([`load_stream`]) to check who may
/// change it: decided on that state without reading it again, and answering the state the
/// command left, so the handler answers from it without a third read. A stream that moved
/// on in between is read again, as [`execute`] reads it.
pub async fn execute_on<A>(
    log: &EventLog,
    aggregate_id: &str,
    read: Stream<A>,
    command: A::Command,
    metadata: &EventMetadata,
) -> Result<Stream<A>, ApiError>
where
    A: Aggregate<Services = ()> + Clone + 'static,
    A::Command: Clone,
    A::Error: DomainError,
{
    run::<A>(log, aggregate_id, command, metadata, Some(read)).await
}

async fn run<A>(
    log: &EventLog,
    aggregate_id: &str,
    command: A::Command,
    metadata: &EventMetadata,
    read: Option<Stream<A>>,
) -> Result<Stream<A>, ApiError>
where
    A: Aggregate<Services = ()> + Clone + 'static,
    A::Command: Clone,
    A::Error: DomainError,
{
    let metadata = serde_json::to_value(metadata.to_map()).map_err(|e| ApiError::Internal(e.into()))?;
    navalha_event_store::execute::<A>(log, aggregate_id, command, &metadata, read)
        .await
        .map_err(|refusal| refusal_answer::<A>(refusal, aggregate_id))
}

/// Runs each command on its aggregate (`read` as in [`execute_on`], an empty stream for a
/// new id) and appends all their events in one statement: all of them or none (a regulars'
/// series, issue 45). Answers the streams as the commands left them, in order.
pub async fn execute_all<A>(
    log: &EventLog,
    commands: Vec<(String, Option<Stream<A>>, A::Command)>,
    metadata: &EventMetadata,
) -> Result<Vec<Stream<A>>, ApiError>
where
    A: Aggregate<Services = ()> + Clone + 'static,
    A::Command: Clone,
    A::Error: DomainError,
{
    let metadata = serde_json::to_value(metadata.to_map()).map_err(|e| ApiError::Internal(e.into()))?;
    let ids = commands.iter().map(|(id, ..)| id.as_str()).collect::<Vec<_>>().join(",");
    navalha_event_store::execute_streams::<A>(log, commands, &metadata)
        .await
        .map_err(|refusal| refusal_answer::<A>(refusal, &ids))
}

fn refusal_answer<A>(refusal: Refusal<A::Error>, aggregate_id: &str) -> ApiError
where
    A: Aggregate,
    A::Error: DomainError,
{
    match refusal {
        Refusal::Domain(error) => error.to_api(),
        Refusal::Concurrent => ApiError::Conflict(MSG_CONCURRENT_CHANGE.to_owned()),
        Refusal::Database(error) => refused_append(error, A::TYPE, aggregate_id),
        Refusal::Internal(error) => ApiError::Internal(error),
    }
}

/// The answer for an append PostgreSQL refused or could not take.
fn refused_append(error: sqlx::Error, aggregate_type: &str, aggregate_id: &str) -> ApiError {
    match sqlstate(&error).as_deref() {
        Some(SQLSTATE_EXCLUSION) => {
            use navalha_domain::appointment::AppointmentError;
            let constraint = error.as_database_error().and_then(|db| db.constraint());
            if constraint == Some(CLIENT_NO_OVERLAP) {
                AppointmentError::ClientBusy.to_api()
            } else {
                AppointmentError::SlotTaken.to_api()
            }
        }
        // A unique value another aggregate claimed first: `execute_claiming` names it. A
        // deadlock or serialization failure that outlasted the retries: a concurrent change.
        Some(SQLSTATE_UNIQUE | SQLSTATE_DEADLOCK | SQLSTATE_SERIALIZATION) => {
            ApiError::Conflict(MSG_CONCURRENT_CHANGE.to_owned())
        }
        Some(SQLSTATE_NOT_ENOUGH_STOCK) => ApiError::Conflict(MSG_STOCK_TAKEN.to_owned()),
        Some(SQLSTATE_OTHER_BUSINESS) => {
            // The second line: the handler should have answered 404 already.
            tracing::warn!(aggregate_type, aggregate_id, "command on another business's aggregate refused");
            ApiError::NotFound(MSG_NOT_FOUND.to_owned())
        }
        // 503 when the database is unreachable (`ApiError`'s status), else 500.
        _ => {
            ApiError::Internal(anyhow::Error::from(error).context(format!("{aggregate_type} {aggregate_id}")))
        }
    }
}

/// The constraint that keeps a client in one chair at a time (migration
/// `20261204000100_client_chair_and_intervals.sql`); the other exclusion is the professional's.
const CLIENT_NO_OVERLAP: &str = "appointment_slot_client_no_overlap";

/// What the stock trigger raises for a move below zero where the unit does not allow it
/// (migration `20261203000100_stock.sql`).
pub const SQLSTATE_NOT_ENOUGH_STOCK: &str = "NV409";
/// Answer when another sale took what was left between the check and the append.
pub const MSG_STOCK_TAKEN: &str =
    "Estoque insuficiente: outra venda acabou de levar o que restava. Confira o estoque.";

/// Answer when a command names another business's aggregate and its handler did not notice.
pub const MSG_NOT_FOUND: &str = "Registro não encontrado.";

/// The current state of an aggregate of `business_id`, replayed from its events. Another
/// business's aggregate is the default one, as if it did not exist: every handler's own
/// "not found" answers for it (issue 12).
pub async fn load<A: Aggregate + Clone + 'static>(
    log: &EventLog,
    business_id: i64,
    aggregate_id: &str,
) -> Result<A, ApiError> {
    Ok(load_stream(log, business_id, aggregate_id).await?.aggregate)
}

/// [`load`], with the stream's sequence and position: to decide a command on
/// ([`execute_on`]).
pub async fn load_stream<A: Aggregate + Clone + 'static>(
    log: &EventLog,
    business_id: i64,
    aggregate_id: &str,
) -> Result<Stream<A>, ApiError> {
    Streams::fetch(log, business_id, &[(A::TYPE, aggregate_id.to_owned())]).await?.replay_stream(aggregate_id)
}

/// The business an aggregate belongs to, `None` when it does not exist: for the system's own
/// work (provider webhooks, checkout links), which has no signed-in user to take it from.
pub async fn business_of(
    pool: &PgPool,
    aggregate_type: &str,
    aggregate_id: &str,
) -> Result<Option<i64>, ApiError> {
    Ok(sqlx::query_scalar(
        "select business_id from aggregate_business where aggregate_type = $1 and aggregate_id = $2",
    )
    .bind(aggregate_type)
    .bind(aggregate_id)
    .fetch_optional(pool)
    .await?)
}

/// The events of several streams, of any aggregate types, read in one round trip (a
/// command that checks a client, a professional, a unit and services reads them at once),
/// each from its kept state on ([`navalha_event_store::replayed`]).
pub struct Streams<'a> {
    log: &'a EventLog,
    unread: HashMap<(&'static str, String), Unread>,
}

impl<'a> Streams<'a> {
    /// Reads the streams `(aggregate type, aggregate id)` that belong to `business_id`; the
    /// others read as empty.
    pub async fn fetch(
        log: &'a EventLog,
        business_id: i64,
        wanted: &[(&'static str, String)],
    ) -> Result<Self, ApiError> {
        let wanted: Vec<(&'static str, &str)> = wanted.iter().map(|(t, id)| (*t, id.as_str())).collect();
        Ok(Self { log, unread: log.unread(Some(business_id), &wanted).await? })
    }

    /// Replays one of the streams read; one that has no events is the aggregate's default.
    pub fn replay<A: Aggregate + Clone + 'static>(&self, aggregate_id: &str) -> Result<A, ApiError> {
        Ok(self.replay_stream(aggregate_id)?.aggregate)
    }

    /// [`Self::replay`], with the stream's sequence and position ([`execute_on`]).
    pub fn replay_stream<A: Aggregate + Clone + 'static>(
        &self,
        aggregate_id: &str,
    ) -> Result<Stream<A>, ApiError> {
        let unread = self.unread.get(&(A::TYPE, aggregate_id.to_owned()));
        self.log.replay::<A>(aggregate_id, unread).map_err(ApiError::Internal)
    }
}

/// The position of a stream's last event, `None` for an empty stream.
pub async fn stream_position(
    pool: &PgPool,
    aggregate_type: &str,
    aggregate_id: &str,
) -> Result<Option<Position>, ApiError> {
    let row: Option<(i64, i64)> = sqlx::query_as(
        "select tx_id::text::bigint, global_position from events
          where aggregate_type = $1 and aggregate_id = $2 order by sequence desc limit 1",
    )
    .bind(aggregate_type)
    .bind(aggregate_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(tx_id, global_position)| Position { tx_id, global_position }))
}

/// The `X-Navalha-Position` header for a command's answer.
pub fn position_headers(position: Option<Position>) -> HeaderMap {
    let mut headers = HeaderMap::new();
    if let Some(position) = position {
        headers.insert(POSITION_HEADER, header_value(&position.to_string()));
    }
    headers
}

/// Allocates the next id of a numeric aggregate from its sequence.
pub async fn next_id(pool: &PgPool, sequence: &str) -> Result<i64, ApiError> {
    Ok(sqlx::query_scalar("select nextval($1::regclass)").bind(sequence).fetch_one(pool).await?)
}

/// A value the command's events must own across all streams, and the answer when another
/// aggregate owns it.
#[derive(Debug, Clone)]
pub struct Claim {
    /// The claim's scope (`client_cpf`, `professional_email`, ...).
    pub scope: &'static str,
    /// The value.
    pub value: String,
    /// The 409 message for a duplicate.
    pub duplicate: &'static str,
    /// The form's field the value came from, which the 409 names (`errors: {cpf: …}`) so
    /// the form shows it there (issue 45 point 7); `None` for values no field holds.
    pub field: Option<&'static str>,
}

impl Claim {
    /// The 409 for a value another aggregate holds.
    fn refusal(&self) -> ApiError {
        match self.field {
            Some(field) => {
                ApiError::ConflictOn { field: field.to_owned(), message: self.duplicate.to_owned() }
            }
            None => ApiError::Conflict(self.duplicate.to_owned()),
        }
    }
}

/// Executes a command whose events claim unique values (and give back `released` ones). A
/// value held by another aggregate answers 409 with the claim's message, before the command
/// runs or, when a concurrent command took it first, after PostgreSQL refused the append.
pub async fn execute_claiming<A>(
    log: &EventLog,
    aggregate_id: &str,
    command: A::Command,
    metadata: &EventMetadata,
    claims: &[Claim],
    released: &[(&'static str, String)],
) -> Result<Option<Position>, ApiError>
where
    A: Aggregate<Services = ()> + Clone + 'static,
    A::Command: Clone,
    A::Error: DomainError,
{
    let held_by_other = || async {
        for claim in claims {
            if let Some(holder) = claim_holder(&log.pool, claim.scope, &claim.value).await? {
                if holder != aggregate_id {
                    return Ok::<_, ApiError>(Some(claim.refusal()));
                }
            }
        }
        Ok(None)
    };
    if let Some(conflict) = held_by_other().await? {
        return Err(conflict);
    }
    let mut metadata = metadata.clone();
    for claim in claims {
        metadata = metadata.claiming(claim.scope, &claim.value);
    }
    for (scope, value) in released {
        metadata = metadata.releasing(scope, value);
    }
    match execute::<A>(log, aggregate_id, command, &metadata).await {
        Err(ApiError::Conflict(message)) => {
            Err(held_by_other().await?.unwrap_or(ApiError::Conflict(message)))
        }
        other => other,
    }
}
