//! The caixa (issue 41): `POST caixa` opens a unit's cash register with its float;
//! `movements` records a sangria or reforço; `close` writes the cash counted against the cash
//! expected; `reopen` (ADMIN) opens it again. One caixa is open per unit (the
//! `caixa_open` claim, released at the close), and a payment belongs to the caixa open when it
//! was taken (`open_caixa_of`).
//!
//! The cash a caixa's payments brought in is summed from the comandas' events themselves
//! ([`TAKEN`]), not from a read model: a close never decides on a lagging figure.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::caixa::{card_machine_field, taken_with, Caixa, CaixaCommand, CaixaError, MovementKind};
use navalha_domain::comanda::PaymentMethod;
use navalha_domain::money::reais;
use navalha_platform::auth::{AdminOnly, AdminOrAttendant, Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdCaixa;
use navalha_platform::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::PgPool;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{
    cents_field, claim_holder, execute_claiming, load, metadata_of, next_id, optional_cents_field,
    position_headers, Claim, DomainError,
};
use crate::companies::{chosen_unit, unit_now};
use crate::idempotency;
use crate::state::AppState;

/// The claim that keeps one open caixa per unit: its value is the unit.
pub const CAIXA_OPEN: &str = "caixa_open";
const MSG_ANOTHER_OPEN: &str = "Já há um caixa aberto nesta unidade.";
/// A payment with no caixa open in the comanda's unit.
pub const MSG_NO_CAIXA: &str = "Abra o caixa da unidade antes de receber pagamentos.";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open))
        .routes(routes!(movement))
        .routes(routes!(close))
        .routes(routes!(reopen))
}

impl DomainError for CaixaError {
    fn to_api(&self) -> ApiError {
        match self {
            CaixaError::NotFound => ApiError::NotFound(self.to_string()),
            CaixaError::AlreadyOpen | CaixaError::Closed => ApiError::Conflict(self.to_string()),
            CaixaError::NotClosed => ApiError::Unprocessable(self.to_string()),
            CaixaError::Invalid(field, message) => ApiError::field(field, message),
        }
    }
}

/// What a caixa's payments came to, per method: payments recorded with it and not refunded.
/// Reads the comandas' payloads (`event_payload::SQL_READS` pins the fields).
pub const TAKEN: &str = "
    select t.payload -> 'PaymentTaken' ->> 'method',
           sum((t.payload -> 'PaymentTaken' ->> 'cents')::bigint)::bigint
      from events t
     where t.aggregate_type = 'Comanda' and t.event_type = 'PaymentTaken'
       and t.payload -> 'PaymentTaken' ->> 'caixa_id' = $1
       and not exists (
           select 1 from events r
            where r.aggregate_type = 'Comanda' and r.aggregate_id = t.aggregate_id
              and r.event_type = 'PaymentRefunded'
              and r.payload -> 'PaymentRefunded' ->> 'payment_id' = t.payload -> 'PaymentTaken' ->> 'payment_id')
     group by 1";

/// What caixa `id`'s payments came to, per method ([`TAKEN`]).
pub async fn taken(pool: &PgPool, id: i64) -> Result<Vec<(PaymentMethod, i64)>, ApiError> {
    let rows: Vec<(String, i64)> = sqlx::query_as(TAKEN).bind(id.to_string()).fetch_all(pool).await?;
    Ok(rows.into_iter().filter_map(|(method, cents)| Some((PaymentMethod::parse(&method)?, cents))).collect())
}

/// The cash caixa `id`'s payments brought in.
pub async fn cash_taken(pool: &PgPool, id: i64) -> Result<i64, ApiError> {
    Ok(taken_with(&taken(pool, id).await?, PaymentMethod::Cash))
}

/// The claim of the one open caixa of `company_id`.
pub fn open_claim(company_id: i64) -> Claim {
    Claim { scope: CAIXA_OPEN, value: company_id.to_string(), duplicate: MSG_ANOTHER_OPEN, field: None }
}

/// The caixa open in `company_id`, if one is.
pub async fn open_caixa_of(pool: &PgPool, company_id: i64) -> Result<Option<i64>, ApiError> {
    let holder = claim_holder(pool, CAIXA_OPEN, &company_id.to_string()).await?;
    Ok(holder.and_then(|id| id.parse().ok()))
}

/// The caixa, when it is of a unit of the caller's.
async fn visible(state: &AppState, principal: &Principal, id: i64) -> Result<Caixa, ApiError> {
    let caixa: Caixa = load(&state.events, principal.business_id, &id.to_string()).await?;
    if caixa.company_id() != 0 && principal.belongs_to(caixa.company_id()) {
        Ok(caixa)
    } else {
        Err(CaixaError::NotFound.to_api())
    }
}

/// A caixa's figures after a change, in reais.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaWritten {
    id_caixa: i64,
    id_company: i64,
    /// OPEN or CLOSED.
    status: &'static str,
    opening_cash: f64,
    /// Cash the caixa's payments brought in.
    cash_taken: f64,
    sangrias: f64,
    reforcos: f64,
    /// The cash the caixa should hold now (or held at its last close).
    expected_cash: f64,
    /// At the last close.
    counted_cash: Option<f64>,
    /// Counted less expected, at the last close: negative when cash was missing.
    difference: Option<f64>,
}

async fn written(state: &AppState, principal: &Principal, id: i64) -> Result<CaixaWritten, ApiError> {
    let caixa: Caixa = load(&state.events, principal.business_id, &id.to_string()).await?;
    let taken = cash_taken(&state.pool, id).await?;
    let moved = |kind| caixa.movements().iter().filter(|m| m.kind == kind).map(|m| m.cents).sum::<i64>();
    let closing = caixa.closing().filter(|_| caixa.status() == navalha_domain::caixa::CaixaStatus::Closed);
    Ok(CaixaWritten {
        id_caixa: id,
        id_company: caixa.company_id(),
        status: caixa.status().code(),
        opening_cash: reais(caixa.opening_cents()),
        cash_taken: reais(taken),
        sangrias: reais(moved(MovementKind::Sangria)),
        reforcos: reais(moved(MovementKind::Reforco)),
        expected_cash: reais(closing.map_or_else(|| caixa.expected_cash(taken), |c| c.expected_cents)),
        counted_cash: closing.map(|c| reais(c.counted_cents)),
        difference: closing.map(|c| reais(c.difference_cents)),
    })
}

/// `POST caixa`: `{idCompany, openingCash}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenBody {
    id_company: Option<i64>,
    /// 'Fundo de troco', in reais.
    #[serde(default)]
    #[schema(value_type = f64)]
    opening_cash: Value,
}

#[utoipa::path(
    post,
    path = "/caixa",
    tag = "Caixa",
    summary = "Open a unit's caixa with its float (ADMIN, ATTENDANT); one open per unit",
    request_body = OpenBody,
    responses(
        (status = 201, description = "Opened", body = IdCaixa, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Malformed,
        refused::Forbidden,
        refused::NotFound,
        (status = 422, description = "Validation, or a caixa already open in the unit", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn open(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    Json(body): Json<OpenBody>,
) -> Result<(StatusCode, HeaderMap, Json<IdCaixa>), ApiError> {
    let company_id = chosen_unit(&state, &auth, body.id_company).await?;
    let opening_cents = cents_field("openingCash", &body.opening_cash)?;
    let id = next_id(&state.pool, "caixa_id_seq").await?;
    let answer = IdCaixa { id_caixa: id };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let claim = open_claim(company_id);
    let command = CaixaCommand::Open { company_id, opening_cents };
    let position =
        execute_claiming::<Caixa>(&state.events, &id.to_string(), command, &metadata, &[claim], &[])
            .await
            .map_err(another_open)?;
    tracing::info!(caixa_id = id, company_id, "caixa opened");
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

/// A claim lost to another open caixa is a 422 on the unit, as the form shows it.
fn another_open(error: ApiError) -> ApiError {
    match error {
        ApiError::Conflict(message) if message == MSG_ANOTHER_OPEN => {
            ApiError::field("idCompany", MSG_ANOTHER_OPEN)
        }
        other => other,
    }
}

/// `POST caixa/{id}/movements`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct MovementBody {
    /// sangria or reforco.
    #[serde(default)]
    kind: String,
    #[serde(default)]
    #[schema(value_type = f64)]
    value: Value,
    #[serde(default)]
    reason: String,
}

#[utoipa::path(
    post,
    path = "/caixa/{id}/movements",
    tag = "Caixa",
    summary = "A sangria (cash out, never more than the drawer holds) or reforço (cash in), with its reason (ADMIN, ATTENDANT)",
    params(("id" = i64, Path)),
    request_body = MovementBody,
    responses(
        (status = 200, description = "Recorded", body = CaixaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, caixa_id = id))]
async fn movement(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<MovementBody>,
) -> Result<(HeaderMap, Json<CaixaWritten>), ApiError> {
    visible(&state, &auth, id).await?;
    let kind = MovementKind::parse(&body.kind)
        .ok_or_else(|| ApiError::field("kind", "Escolha sangria ou reforço."))?;
    let command = CaixaCommand::Move {
        kind,
        cents: cents_field("value", &body.value)?,
        reason: body.reason,
        cash_taken_cents: cash_taken(&state.pool, id).await?,
    };
    let position = crate::commands::execute::<Caixa>(
        &state.events,
        &id.to_string(),
        command,
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(written(&state, &auth, id).await?)))
}

/// `POST caixa/{id}/close`: `{countedCash, machineCredit?, machineDebit?}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CloseBody {
    /// The cash counted in the drawer, in reais.
    #[serde(default)]
    #[schema(value_type = f64)]
    counted_cash: Value,
    /// The card machine's credit total, in reais, when the desk read it off the machine.
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    machine_credit: Value,
    /// The card machine's debit total, in reais, when the desk read it off the machine.
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    machine_debit: Value,
}

#[utoipa::path(
    post,
    path = "/caixa/{id}/close",
    tag = "Caixa",
    summary = "Close the caixa with the cash counted (and, optionally, the card machine's credit and debit totals): what was expected and the differences are written once (ADMIN, ATTENDANT)",
    params(("id" = i64, Path)),
    request_body = CloseBody,
    responses(
        (status = 200, description = "Closed", body = CaixaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Already closed", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, caixa_id = id))]
async fn close(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<CloseBody>,
) -> Result<(HeaderMap, Json<CaixaWritten>), ApiError> {
    let caixa = visible(&state, &auth, id).await?;
    let counted_cents = cents_field("countedCash", &body.counted_cash)?;
    let mut card_machine = Vec::new();
    for (method, value) in
        [(PaymentMethod::Credit, &body.machine_credit), (PaymentMethod::Debit, &body.machine_debit)]
    {
        let field = card_machine_field(method).map_err(|refused| refused.to_api())?;
        if let Some(cents) = optional_cents_field(field, value)? {
            card_machine.push((method, cents));
        }
    }
    let command = CaixaCommand::Close {
        at: unit_now(&state, auth.business_id, caixa.company_id()).await?,
        counted_cents,
        taken: taken(&state.pool, id).await?,
        card_machine,
    };
    // The unit may open its next caixa.
    let released = [(CAIXA_OPEN, caixa.company_id().to_string())];
    let position = execute_claiming::<Caixa>(
        &state.events,
        &id.to_string(),
        command,
        &metadata_of(&auth, &origin),
        &[],
        &released,
    )
    .await?;
    tracing::info!(caixa_id = id, "caixa closed");
    Ok((position_headers(position), Json(written(&state, &auth, id).await?)))
}

/// `{reason}`: why a closed comanda or caixa is reopened or a comanda cancelled.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ReasonBody {
    #[serde(default)]
    pub(crate) reason: String,
}

#[utoipa::path(
    post,
    path = "/caixa/{id}/reopen",
    tag = "Caixa",
    summary = "Reopen a closed caixa, with the reason (ADMIN); not while another is open in the unit",
    params(("id" = i64, Path)),
    request_body = ReasonBody,
    responses(
        (status = 200, description = "Reopened", body = CaixaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 422, description = "No reason, not closed, or another caixa open in the unit", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, caixa_id = id))]
async fn reopen(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<ReasonBody>,
) -> Result<(HeaderMap, Json<CaixaWritten>), ApiError> {
    let caixa = visible(&state, &auth, id).await?;
    let claim = open_claim(caixa.company_id());
    let command = CaixaCommand::Reopen { reason: body.reason };
    let position = execute_claiming::<Caixa>(
        &state.events,
        &id.to_string(),
        command,
        &metadata_of(&auth, &origin),
        &[claim],
        &[],
    )
    .await
    .map_err(another_open)?;
    Ok((position_headers(position), Json(written(&state, &auth, id).await?)))
}
