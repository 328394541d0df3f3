//! Commissions (issue 42): vales and bonuses recorded on a professional's commission ledger
//! (`POST commission/entry`, ADMIN). The rates are the professional's
//! (`PUT professional/{id}/commission`, `professionals`), and what a comanda earned is written
//! at its close (`comandas`). docs/money.md, "Commissions".

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use chrono::NaiveDate;
use navalha_domain::comanda::{Comanda, Status};
use navalha_domain::commission::{
    CommissionLedger, EarnedComanda, EntryKind, LedgerCommand, LedgerError, PayoutMethod,
};
use navalha_domain::professional::Professional;
use navalha_domain::Aggregate as _;
use navalha_platform::auth::{AdminOnly, Auth};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::{IdEntry, IdPeriod};
use navalha_platform::ApiError;
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{
    cents_field, execute, execute_on, load_stream, metadata_of, next_id, position_headers, DomainError,
    Streams,
};
use crate::companies::unit_now;
use crate::idempotency;
use crate::professionals::visible_professional;
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(record_entry)).routes(routes!(close_period))
}

impl DomainError for LedgerError {
    fn to_api(&self) -> ApiError {
        ApiError::field(self.0, &self.1)
    }
}

/// Today on the clock of the professional's own unit (the first of their units).
async fn today_of(
    state: &AppState,
    business_id: i64,
    professional: &Professional,
) -> Result<NaiveDate, ApiError> {
    let unit = professional.employment().and_then(|e| e.company_ids().first().copied()).unwrap_or_default();
    Ok(unit_now(state, business_id, unit).await?.date())
}

/// `POST commission/entry`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryBody {
    id_professional: Option<i64>,
    /// vale (an advance, taken off what is due) or bonus (added to it).
    #[serde(default)]
    kind: String,
    /// In reais.
    #[serde(default)]
    #[schema(value_type = f64)]
    value: Value,
    #[serde(default)]
    reason: String,
}

#[utoipa::path(
    post,
    path = "/commission/entry",
    tag = "Commissions",
    summary = "Record a vale ('Vale': an advance) or a bonus ('Bônus') for a professional, with the reason: it enters the statement of today's period (ADMIN)",
    request_body = EntryBody,
    responses(
        (status = 201, description = "Recorded", body = IdEntry),
        refused::Forbidden,
        (status = 404, description = "A professional not of the caller's units", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn record_entry(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(body): Json<EntryBody>,
) -> Result<(StatusCode, HeaderMap, Json<IdEntry>), ApiError> {
    let id =
        body.id_professional.ok_or_else(|| ApiError::field("idProfessional", "Escolha o profissional."))?;
    let professional = visible_professional(&state, &auth, id).await?;
    let kind =
        EntryKind::parse(&body.kind).ok_or_else(|| ApiError::field("kind", "Escolha vale ou bônus."))?;
    let cents = cents_field("value", &body.value)?;
    let on = today_of(&state, auth.business_id, &professional).await?;
    let entry_id = next_id(&state.pool, "commission_entry_id_seq").await?;
    let answer = IdEntry { id_entry: entry_id };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let command = LedgerCommand::Record { entry_id, kind, cents, reason: body.reason, on };
    let position = execute::<CommissionLedger>(&state.events, &id.to_string(), command, &metadata).await?;
    tracing::info!(target_id = id, entry_id, kind = kind.code(), "commission entry recorded");
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

/// `POST commission/period/close`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClosePeriodBody {
    id_professional: Option<i64>,
    /// The first day.
    from: Option<NaiveDate>,
    /// The last day: today at the latest.
    to: Option<NaiveDate>,
    /// The day it was paid.
    paid_at: Option<NaiveDate>,
    /// cash, pix or transfer.
    #[serde(default)]
    method: String,
}

#[utoipa::path(
    post,
    path = "/commission/period/close",
    tag = "Commissions",
    summary = "'Fechar período': close a professional's days and record their payout; what it settled never changes, and later changes to its comandas are adjustments of the next period (ADMIN)",
    request_body = ClosePeriodBody,
    responses(
        (status = 201, description = "Closed", body = IdPeriod),
        refused::Forbidden,
        (status = 404, description = "A professional not of the caller's units", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn close_period(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(body): Json<ClosePeriodBody>,
) -> Result<(StatusCode, HeaderMap, Json<IdPeriod>), ApiError> {
    let id =
        body.id_professional.ok_or_else(|| ApiError::field("idProfessional", "Escolha o profissional."))?;
    let professional = visible_professional(&state, &auth, id).await?;
    let from = body.from.ok_or_else(|| ApiError::field("from", "Informe a data inicial."))?;
    let to = body.to.ok_or_else(|| ApiError::field("to", "Informe a data final."))?;
    let paid_on = body.paid_at.ok_or_else(|| ApiError::field("paidAt", "Informe a data do pagamento."))?;
    let method = PayoutMethod::parse(&body.method)
        .ok_or_else(|| ApiError::field("method", "Escolha dinheiro, Pix ou transferência."))?;
    let today = today_of(&state, auth.business_id, &professional).await?;

    // The ledger as it stands, and the comandas of those days and of the days already paid:
    // candidates from the comanda model, figures from their own streams.
    let ledger = load_stream::<CommissionLedger>(&state.events, auth.business_id, &id.to_string()).await?;
    let paid: Vec<(NaiveDate, NaiveDate)> =
        ledger.aggregate.periods().iter().map(|p| (p.from, p.to)).collect();
    let candidates = crate::read_models::comandas_of_days(
        &state.pool,
        auth.business_id,
        &auth.companies,
        (from, to),
        &paid,
    )
    .await?;
    let wanted: Vec<(&'static str, String)> =
        candidates.iter().map(|(comanda_id, _)| (Comanda::TYPE, comanda_id.to_string())).collect();
    let streams = Streams::fetch(&state.events, auth.business_id, &wanted).await?;
    let mut comandas = Vec::new();
    for (comanda_id, on) in candidates {
        let comanda: Comanda = streams.replay(&comanda_id.to_string())?;
        if comanda.status() != Status::Closed {
            continue;
        }
        if let Some(earning) = comanda.earnings().iter().find(|earning| earning.professional_id == id) {
            comandas.push(EarnedComanda { comanda_id, on, earning: earning.clone() });
        }
    }

    let period_id = next_id(&state.pool, "commission_period_id_seq").await?;
    let answer = IdPeriod { id_period: period_id };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let command = LedgerCommand::ClosePeriod {
        period_id,
        from,
        to,
        paid_on,
        method,
        comandas,
        today,
        at: navalha_platform::clock::now(),
    };
    let written =
        execute_on::<CommissionLedger>(&state.events, &id.to_string(), ledger, command, &metadata).await?;
    tracing::info!(target_id = id, period_id, %from, %to, "commission period closed");
    Ok((StatusCode::CREATED, position_headers(written.position), Json(answer)))
}
