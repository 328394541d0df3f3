//! Caixas (issue 41): `GET caixa?idCompany&date&status&page&pageSize`, the list, from the
//! caixa and comanda read models; and `GET caixa/{id}` (`?asOf=` for ADMIN), the caixa's
//! report. ADMIN and ATTENDANT only: the barbers do not touch the caixa.
//!
//! The report is the caixa's audit: as it stands (or stood at `asOf`), as it stood at its
//! first close, and every correction after that close, listed apart. It replays on purpose
//! (design.md: query-api reads `events` only for audits) the caixa's stream and those of the
//! comandas paid with it, which one shift bounds; `Caixa::figures` computes both sides from
//! the domain's own folds, like the list.

use std::collections::HashMap;

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{DateTime, NaiveDate, Utc};
use navalha_domain::caixa::{Caixa, CaixaEvent, CaixaStatus, Figures, MovementKind};
use navalha_domain::comanda::{Comanda, ComandaEvent};
use navalha_domain::event_payload;
use navalha_domain::money::{brl, reais};
use navalha_domain::Aggregate as _;
use navalha_platform::auth::{AdminOrAttendant, Auth};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::PgConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::as_of::AdminAsOf;
use crate::consistency::ReadAfter;
use crate::list_arguments;
use crate::paging::{one_of, page_of, ListQuery, Page, PageRequest};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(one))
}

const MSG_NOT_FOUND: &str = "Caixa não encontrado.";

fn not_found() -> ApiError {
    ApiError::NotFound(MSG_NOT_FOUND.to_owned())
}

/// What one method brought in.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaEntry {
    /// cash, pix, credit, debit or subscription.
    method: &'static str,
    /// How many payments.
    count: i64,
    value: f64,
}

/// A professional's tips.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaTip {
    id_professional: i64,
    value: f64,
}

/// A sangria or reforço.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaMovement {
    /// sangria or reforco.
    kind: &'static str,
    value: f64,
    reason: String,
}

/// A card machine's total for one method, read at the close, beside the caixa's payments.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaCardMachine {
    /// credit or debit.
    method: &'static str,
    /// The caixa's payments with the method (as they stand).
    expected: f64,
    /// The machine's total.
    counted: f64,
    /// Counted less expected.
    difference: f64,
}

/// A caixa's figures, in reais (docs/money.md).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaFigures {
    /// 'Fundo de troco'.
    opening_cash: f64,
    /// The payments taken with it and not refunded, per method.
    entries: Vec<CaixaEntry>,
    /// The tips of the comandas it took the last payment of, per professional.
    tips: Vec<CaixaTip>,
    sangrias: f64,
    reforcos: f64,
    movements: Vec<CaixaMovement>,
    /// The cash payments' part of the entries.
    cash_taken: f64,
    /// The float, plus cash taken, plus reforços, less sangrias.
    expected_cash: f64,
    /// At the last close, while closed.
    counted_cash: Option<f64>,
    /// Counted less expected (as the figures stand), while closed: negative when cash is missing.
    difference: Option<f64>,
    /// When it was last closed, while closed.
    closed_at: Option<DateTime<Utc>>,
    /// The card machine's totals the last close read, per method, while closed; empty when
    /// none was read.
    card_machine: Vec<CaixaCardMachine>,
}

impl CaixaFigures {
    fn of(caixa: &Caixa, figures: Figures, closed_at: Option<DateTime<Utc>>) -> Self {
        CaixaFigures {
            opening_cash: reais(figures.opening_cents),
            entries: figures
                .entries
                .iter()
                .map(|entry| CaixaEntry {
                    method: entry.method.code(),
                    count: entry.count,
                    value: reais(entry.cents),
                })
                .collect(),
            tips: figures
                .tips
                .iter()
                .map(|(professional, cents)| CaixaTip {
                    id_professional: *professional,
                    value: reais(*cents),
                })
                .collect(),
            sangrias: reais(figures.sangrias_cents),
            reforcos: reais(figures.reforcos_cents),
            movements: caixa
                .movements()
                .iter()
                .map(|movement| CaixaMovement {
                    kind: movement.kind.code(),
                    value: reais(movement.cents),
                    reason: movement.reason.clone(),
                })
                .collect(),
            cash_taken: reais(figures.cash_taken_cents),
            expected_cash: reais(figures.expected_cents),
            counted_cash: figures.counted_cents.map(reais),
            difference: figures.difference_cents.map(reais),
            closed_at: closed_at.filter(|_| caixa.status() == CaixaStatus::Closed),
            card_machine: figures
                .card_machine
                .iter()
                .map(|count| CaixaCardMachine {
                    method: count.method.code(),
                    expected: reais(count.expected_cents),
                    counted: reais(count.counted_cents),
                    difference: reais(count.counted_cents - count.expected_cents),
                })
                .collect(),
        }
    }
}

/// A change after the caixa's first close.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaCorrection {
    at: DateTime<Utc>,
    /// Who made it.
    user_name: String,
    /// The event (`PaymentRefunded`, `ComandaReopened`, `CaixaReopened`, ...).
    event: String,
    /// The comanda it concerns; null for the caixa's own.
    id_comanda: Option<i64>,
    /// The amount it moves: a refund is negative.
    value: Option<f64>,
    reason: Option<String>,
    /// What happened, in a sentence.
    description: String,
}

/// The caixa's report.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaAnswer {
    id_caixa: i64,
    id_company: i64,
    /// OPEN or CLOSED.
    status: &'static str,
    /// The day it was opened, on the business's clock.
    opened_on: NaiveDate,
    /// With `asOf`: the instant it was replayed to.
    as_of: Option<DateTime<Utc>>,
    /// As it stands (or stood at `asOf`).
    #[serde(flatten)]
    figures: CaixaFigures,
    /// As it stood at its first close; null if it was never closed.
    at_close: Option<CaixaFigures>,
    /// Every change after the first close, oldest first.
    corrections: Vec<CaixaCorrection>,
}

/// One event of the replay, decoded.
struct Logged {
    at: DateTime<Utc>,
    /// The comanda's id; `None` for the caixa's own events.
    comanda_id: Option<i64>,
    event: Either,
    user_name: String,
}

enum Either {
    Caixa(CaixaEvent),
    Comanda(ComandaEvent),
}

/// A row of the replay: aggregate type and id, when, event type, version, payload, metadata.
type LogRow = (String, String, DateTime<Utc>, String, String, String, Value);

/// The caixa's events and those of the comandas with a payment taken with it, up to
/// `until`, in commit order. Uses the index `events_payment_caixa`.
async fn replay(
    conn: &mut PgConnection,
    id: i64,
    until: Option<DateTime<Utc>>,
) -> Result<Vec<Logged>, ApiError> {
    let rows: Vec<LogRow> = sqlx::query_as(&format!(
        "select e.aggregate_type, e.aggregate_id, e.recorded_at, e.event_type, e.event_version,
                e.payload::text, e.metadata
           from events e
          where ((e.aggregate_type = 'Caixa' and e.aggregate_id = $1)
                 or (e.aggregate_type = 'Comanda' and e.aggregate_id in (
                     select p.aggregate_id from events p
                      where p.aggregate_type = 'Comanda' and p.event_type = 'PaymentTaken'
                        and p.payload -> 'PaymentTaken' ->> 'caixa_id' = $1)))
            and ($2::timestamptz is null or e.recorded_at <= $2) and {}
          order by e.recorded_at, e.global_position",
        scope::EVENT_IN_SCOPE
    ))
    .bind(id.to_string())
    .bind(until)
    .fetch_all(conn)
    .await?;
    rows.into_iter()
        .map(|(aggregate_type, aggregate_id, at, event_type, version, payload, metadata)| {
            let internal = |e: event_payload::DecodeError| ApiError::Internal(e.into());
            let (comanda_id, event) = if aggregate_type == Caixa::TYPE {
                let event =
                    event_payload::decode(Caixa::TYPE, &event_type, &version, &payload).map_err(internal)?;
                (None, Either::Caixa(event))
            } else {
                let event = event_payload::decode(Comanda::TYPE, &event_type, &version, &payload)
                    .map_err(internal)?;
                (aggregate_id.parse().ok(), Either::Comanda(event))
            };
            let user_name = metadata["user_name"].as_str().unwrap_or_default().to_owned();
            Ok(Logged { at, comanda_id, event, user_name })
        })
        .collect()
}

/// The caixa and its comandas as the events up to `until` leave them, and when it was last
/// closed.
struct Folded {
    caixa: Caixa,
    comandas: HashMap<i64, Comanda>,
    closed_at: Option<DateTime<Utc>>,
}

impl Folded {
    fn new() -> Self {
        Folded { caixa: Caixa::default(), comandas: HashMap::new(), closed_at: None }
    }

    fn apply(&mut self, logged: &Logged) {
        match (&logged.event, logged.comanda_id) {
            (Either::Caixa(event), _) => {
                if matches!(event, CaixaEvent::CaixaClosed(_)) {
                    self.closed_at = Some(logged.at);
                }
                self.caixa.apply(event.clone());
            }
            (Either::Comanda(event), Some(id)) => self.comandas.entry(id).or_default().apply(event.clone()),
            (Either::Comanda(_), None) => {}
        }
    }

    fn figures(&self, id: i64) -> CaixaFigures {
        let comandas: Vec<Comanda> = self.comandas.values().cloned().collect();
        CaixaFigures::of(&self.caixa, self.caixa.figures(id, &comandas), self.closed_at)
    }
}

/// The sentence and amount of a correction, read against the state before it; `None` for a
/// change that moves none of the caixa's figures (an item added to a reopened comanda).
fn correction(id: i64, before: &Folded, logged: &Logged) -> Option<(String, Option<i64>, Option<String>)> {
    let comanda = |n: i64| format!("comanda {n}");
    match (&logged.event, logged.comanda_id) {
        (Either::Caixa(CaixaEvent::CaixaReopened { reason }), _) => {
            Some(("Caixa reaberto".to_owned(), None, Some(reason.clone())))
        }
        (Either::Caixa(CaixaEvent::CaixaClosed(closing)), _) => Some((
            format!(
                "Caixa fechado de novo: esperado {}, contado {}",
                brl(closing.expected_cents),
                brl(closing.counted_cents)
            ),
            Some(closing.counted_cents),
            None,
        )),
        (Either::Caixa(CaixaEvent::CashMoved(movement)), _) => {
            let (what, sign) = match movement.kind {
                MovementKind::Sangria => ("Sangria", -1),
                MovementKind::Reforco => ("Reforço", 1),
            };
            Some((
                format!("{what} de {}", brl(movement.cents)),
                Some(sign * movement.cents),
                Some(movement.reason.clone()),
            ))
        }
        (Either::Comanda(ComandaEvent::PaymentTaken(payment)), Some(n)) if payment.caixa_id == Some(id) => {
            Some((
                format!("Pagamento de {} ({}) na {}", brl(payment.cents), payment.method.label(), comanda(n)),
                Some(payment.cents),
                None,
            ))
        }
        (Either::Comanda(ComandaEvent::PaymentRefunded { payment_id, reason }), Some(n)) => {
            let payment = before
                .comandas
                .get(&n)?
                .payments()
                .iter()
                .find(|payment| payment.payment_id == *payment_id && payment.caixa_id == Some(id))?;
            Some((
                format!("Estorno de {} ({}) na {}", brl(payment.cents), payment.method.label(), comanda(n)),
                Some(-payment.cents),
                Some(reason.clone()),
            ))
        }
        (Either::Comanda(ComandaEvent::ComandaReopened { reason, .. }), Some(n)) => {
            Some((format!("{} reaberta", capitalized(&comanda(n))), None, Some(reason.clone())))
        }
        (Either::Comanda(ComandaEvent::ComandaClosed { .. }), Some(n)) => {
            Some((format!("{} fechada de novo", capitalized(&comanda(n))), None, None))
        }
        (Either::Comanda(ComandaEvent::TipAdded(tip)), Some(n)) => {
            Some((format!("Gorjeta de {} na {}", brl(tip.cents), comanda(n)), Some(tip.cents), None))
        }
        (Either::Comanda(ComandaEvent::TipRemoved { tip_id }), Some(n)) => {
            let tip = before.comandas.get(&n)?.tips().iter().find(|tip| tip.tip_id == *tip_id)?;
            Some((
                format!("Gorjeta de {} retirada da {}", brl(tip.cents), comanda(n)),
                Some(-tip.cents),
                None,
            ))
        }
        _ => None,
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The report of caixa `id` from its replay.
fn report(id: i64, opened_on: NaiveDate, as_of: Option<DateTime<Utc>>, events: &[Logged]) -> CaixaAnswer {
    let mut folded = Folded::new();
    let mut at_close = None;
    let mut corrections = Vec::new();
    for logged in events {
        if at_close.is_some() {
            if let Some((description, cents, reason)) = correction(id, &folded, logged) {
                corrections.push(CaixaCorrection {
                    at: logged.at,
                    user_name: logged.user_name.clone(),
                    event: event_name(&logged.event),
                    id_comanda: logged.comanda_id,
                    value: cents.map(reais),
                    reason,
                    description,
                });
            }
        }
        folded.apply(logged);
        if at_close.is_none() && matches!(logged.event, Either::Caixa(CaixaEvent::CaixaClosed(_))) {
            at_close = Some(folded.figures(id));
        }
    }
    CaixaAnswer {
        id_caixa: id,
        id_company: folded.caixa.company_id(),
        status: folded.caixa.status().code(),
        opened_on,
        as_of,
        figures: folded.figures(id),
        at_close,
        corrections,
    }
}

fn event_name(event: &Either) -> String {
    use navalha_domain::DomainEvent as _;
    match event {
        Either::Caixa(event) => event.event_type(),
        Either::Comanda(event) => event.event_type(),
    }
}

#[utoipa::path(
    get,
    path = "/caixa/{id}",
    tag = "Caixa",
    summary = "The caixa's report: as it stands (or stood at asOf, ADMIN), as it stood at its first close, and every later correction apart (ADMIN, ATTENDANT)",
    params(("id" = i64, Path), AdminAsOf),
    responses(
        (status = 200, description = "The report", body = CaixaAnswer),
        refused::Forbidden,
        (status = 403, description = "asOf for a role other than ADMIN", body = ErrorBody),
        (status = 404, description = "Unknown, of another unit, or not yet opened at asOf", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn one(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    PathParam(id): PathParam<i64>,
    QueryParams(as_of): QueryParams<AdminAsOf>,
) -> Result<Json<CaixaAnswer>, ApiError> {
    let as_of = as_of.instant(&auth)?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let events = replay(&mut tx, id, as_of).await?;
    let opened =
        events.iter().find(|logged| matches!(logged.event, Either::Caixa(CaixaEvent::CaixaOpened { .. })));
    let Some(opened) = opened else { return Err(not_found()) };
    let opened_on =
        navalha_platform::clock::wall_clock(opened.at, navalha_platform::clock::DEFAULT_TIME_ZONE).date();
    let answer = report(id, opened_on, as_of, &events);
    if !auth.belongs_to(answer.id_company) {
        return Err(not_found());
    }
    Ok(Json(answer))
}

/// `?idCompany&date&status&page&pageSize`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct CaixaFilter {
    /// One of the caller's units; absent: all of them.
    id_company: Option<i64>,
    /// The day it was opened.
    date: Option<NaiveDate>,
    /// OPEN (the unit's open caixa) or CLOSED; absent: both.
    status: Option<String>,
    /// 1-based page.
    page: Option<i64>,
    /// Items per page.
    page_size: Option<i64>,
}

/// A caixa in the list, its figures as they stand.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CaixaListItem {
    id_caixa: i64,
    id_company: i64,
    opened_on: NaiveDate,
    /// OPEN or CLOSED.
    status: &'static str,
    opening_cash: f64,
    expected_cash: f64,
    counted_cash: Option<f64>,
    difference: Option<f64>,
}

#[derive(sqlx::FromRow)]
struct CaixaRow {
    caixa_id: i64,
    opened_on: NaiveDate,
    state: sqlx::types::Json<Caixa>,
}

#[utoipa::path(
    get,
    path = "/caixa",
    tag = "Caixa",
    summary = "Caixas of the caller's units, newest first, paged; status=OPEN gives a unit's open caixa (ADMIN, ATTENDANT)",
    params(CaixaFilter, ReadAfter),
    responses(
        (status = 200, description = "A page", body = Page<CaixaListItem>),
        refused::Forbidden,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn list(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<CaixaFilter>,
) -> Result<(HeaderMap, Json<Page<CaixaListItem>>), ApiError> {
    let (limit, offset) = PageRequest { page: filter.page, page_size: filter.page_size }.limit_offset()?;
    let status = one_of("status", filter.status.as_deref(), &["OPEN", "CLOSED"])?;
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::CAIXA, &read_models::COMANDA]).await?;
    let units: Vec<i64> = match filter.id_company {
        Some(id) => auth.companies.iter().copied().filter(|unit| *unit == id).collect(),
        None => auth.companies.clone(),
    };
    let query = ListQuery {
        columns: "caixa_id, opened_on, state",
        from: "rm_caixa.caixa",
        condition: "company_id = any($1) and ($2::date is null or opened_on = $2) and ($3::text is null or status = $3)",
        order: "caixa_id desc",
    };
    let mut tx = scope::of(&state.pool, &auth).await?;
    let page: Page<CaixaRow> =
        page_of(&mut tx, &query, list_arguments![&units, filter.date, &status], (limit, offset)).await?;
    let ids: Vec<i64> = page.content.iter().map(|row| row.caixa_id).collect();
    let comandas: Vec<sqlx::types::Json<Comanda>> =
        sqlx::query_scalar("select state from rm_comanda.comanda where caixa_ids && $1")
            .bind(&ids)
            .fetch_all(&mut *tx)
            .await?;
    let comandas: Vec<Comanda> = comandas.into_iter().map(|sqlx::types::Json(comanda)| comanda).collect();
    let page = page.map(|row| {
        let caixa = &row.state.0;
        let figures = caixa.figures(row.caixa_id, &comandas);
        CaixaListItem {
            id_caixa: row.caixa_id,
            id_company: caixa.company_id(),
            opened_on: row.opened_on,
            status: caixa.status().code(),
            opening_cash: reais(figures.opening_cents),
            expected_cash: reais(figures.expected_cents),
            counted_cash: figures.counted_cents.map(reais),
            difference: figures.difference_cents.map(reais),
        }
    });
    Ok((consistency.headers(), Json(page)))
}
