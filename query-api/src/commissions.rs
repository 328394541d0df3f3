//! A professional's commission statement (issue 42): `GET commission/statement`.
//!
//! The comandas of the days asked for that earned the professional something (what each
//! close wrote down at the rates then in force, `ComandaClosed.earnings`), their vales and
//! bonuses, and the totals, summed by the domain's `commission::statement`. Now, from the
//! comanda model's states; with `asOf`, every comanda of those days and the ledger replayed
//! from their events up to that instant. docs/money.md, "Commissions".

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{DateTime, NaiveDate, Utc};
use navalha_domain::comanda::{Comanda, ComandaEvent, ItemKind, Status};
use navalha_domain::commission::{CommissionLedger, EarnedComanda, Period};
use navalha_domain::money::reais;
use navalha_domain::role::Role;
use navalha_domain::Aggregate as _;
use navalha_platform::auth::{Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::as_of::{optional_as_of, parse_as_of, replayed, MSG_BAD_AS_OF};
use crate::consistency::ReadAfter;
use crate::professionals::{ensure_readable, rate_fixed, rate_percent};
use crate::{scope, AppState};

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(statement_of)).routes(routes!(changes_of)).routes(routes!(periods_of))
}

/// ADMIN reads any professional of their units (`ensure_readable` checks which); everyone
/// else only themself: another's is 404, as if they did not exist.
fn own_or_admin(principal: &Principal, id: i64) -> Result<(), ApiError> {
    if principal.role != Role::Admin && principal.professional_id != id {
        return Err(ApiError::NotFound("Profissional não encontrado.".to_owned()));
    }
    Ok(())
}

/// The professional and the days a statement is asked for: all three given, the days in
/// order and at most a year apart, and the professional one the caller may read.
fn statement_target(
    principal: &Principal,
    id_professional: Option<i64>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<(i64, NaiveDate, NaiveDate), ApiError> {
    let id = id_professional.ok_or_else(|| ApiError::field("idProfessional", "Escolha o profissional."))?;
    let from = from.ok_or_else(|| ApiError::field("from", "Informe a data inicial."))?;
    let to = to.ok_or_else(|| ApiError::field("to", "Informe a data final."))?;
    if to < from {
        return Err(ApiError::field("to", "A data final deve ser igual ou posterior à inicial."));
    }
    if (to - from).num_days() >= MAX_DAYS {
        return Err(ApiError::field("to", "O extrato cobre no máximo um ano."));
    }
    own_or_admin(principal, id)?;
    Ok((id, from, to))
}

/// The longest range a statement covers: a year.
const MAX_DAYS: i64 = 366;

/// `?idProfessional&from&to[&asOf]`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct StatementQuery {
    id_professional: Option<i64>,
    /// The first day.
    from: Option<NaiveDate>,
    /// The last day (inclusive).
    to: Option<NaiveDate>,
    /// As it stood at this instant (an RFC 3339 instant, a date-time without offset in UTC-3,
    /// or a date: its end).
    as_of: Option<String>,
}

/// A line of a comanda the professional served or sold.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StatementLine {
    id_comanda: i64,
    date: NaiveDate,
    id_item: i64,
    /// service or product.
    kind: &'static str,
    description: String,
    quantity: i64,
    /// What the client paid for the line.
    value: f64,
    /// The rate in force at the close: a percent, or a fixed amount per unit in reais.
    percent: Option<f64>,
    fixed: Option<f64>,
    commission: f64,
    /// The card machine's fee shared on the line.
    card_fee: f64,
    /// Covered by the club (priced by the unit's club rule).
    club: bool,
}

/// A comanda of the statement: what it earned and the tips.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StatementComanda {
    id_comanda: i64,
    date: NaiveDate,
    commission: f64,
    tips: f64,
}

/// A vale or bonus.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StatementEntry {
    id_entry: i64,
    /// vale or bonus.
    kind: &'static str,
    value: f64,
    reason: String,
    date: NaiveDate,
}

/// A comanda of a period already paid whose earning changed since: the difference.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StatementAdjustment {
    id_comanda: i64,
    value: f64,
}

/// A period closed and paid.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PeriodAnswer {
    id_period: i64,
    from: NaiveDate,
    to: NaiveDate,
    paid_at: NaiveDate,
    /// cash, pix or transfer.
    method: &'static str,
    closed_at: DateTime<Utc>,
    /// What was paid.
    net: f64,
}

impl PeriodAnswer {
    fn of(period: &Period) -> Self {
        PeriodAnswer {
            id_period: period.period_id,
            from: period.from,
            to: period.to,
            paid_at: period.paid_on,
            method: period.method.code(),
            closed_at: period.closed_at,
            net: reais(period.net_cents),
        }
    }
}

/// A professional's statement for a range of days, in reais.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StatementAnswer {
    id_professional: i64,
    from: NaiveDate,
    to: NaiveDate,
    /// With `asOf`: the instant it was replayed to.
    as_of: Option<DateTime<Utc>>,
    /// What the clients paid for the professional's services and products.
    services: f64,
    products: f64,
    gross: f64,
    commission: f64,
    /// The card machine's fees shared (taken off the commission).
    card_fees: f64,
    tips: f64,
    vales: f64,
    bonuses: f64,
    /// Corrections of comandas of periods already paid (`AdjustmentLines`).
    adjustments: f64,
    /// Commission less card fees, tips, bonuses and adjustments, less vales.
    net: f64,
    lines: Vec<StatementLine>,
    comandas: Vec<StatementComanda>,
    entries: Vec<StatementEntry>,
    adjustment_lines: Vec<StatementAdjustment>,
    /// A 'profissional-parceiro' (Lei 13.352/2016) when the statement's comandas were
    /// closed: then `PartnerShare` is their cota-parte
    /// (the commission less the card fees shared) and `SalonShare` the salon's, what it
    /// retains of the services and products they did and sold.
    partner: bool,
    partner_share: f64,
    salon_share: f64,
    /// When these days were closed as a period: the statement is the one it paid, frozen.
    period: Option<PeriodAnswer>,
}

#[utoipa::path(
    get,
    path = "/commission/statement",
    tag = "Commissions",
    summary = "A professional's commission statement for a range of days (issue 42): ADMIN's of any professional of their units, everyone's own; with asOf, as it stood then",
    params(StatementQuery, ReadAfter),
    responses(
        (status = 200, description = "The statement", body = StatementAnswer),
        refused::Forbidden,
        (status = 404, description = "A professional the caller may not see", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn statement_of(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(query): QueryParams<StatementQuery>,
) -> Result<(HeaderMap, Json<StatementAnswer>), ApiError> {
    let (id, from, to) = statement_target(&auth, query.id_professional, query.from, query.to)?;
    let as_of = optional_as_of(query.as_of.as_deref())?;
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::COMANDA, &read_models::PROFESSIONAL]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_readable(&mut tx, &auth, id).await?;
    let answer = compute(&mut tx, &auth.companies, id, (from, to), as_of).await?;
    let replayed = as_of.is_some() || answer.period.is_some();
    let headers = if replayed { HeaderMap::new() } else { consistency.headers() };
    Ok((headers, Json(answer)))
}

/// The statement of professional `id` for the days `from` to `to` in `companies`, now or as
/// of `as_of`; days closed as a period answer the statement it paid.
async fn compute(
    tx: &mut PgConnection,
    companies: &[i64],
    id: i64,
    (from, to): (NaiveDate, NaiveDate),
    as_of: Option<DateTime<Utc>>,
) -> Result<StatementAnswer, ApiError> {
    // Now: every event (the end of 9999 is past any recorded one).
    let mut until = as_of.or_else(|| DateTime::from_timestamp(253_402_300_799, 0)).unwrap_or_default();
    let mut ledger: CommissionLedger = replayed(&mut *tx, id, until).await?.unwrap_or_default();
    // Days closed as a period: the statement it paid, as it stood when it was closed.
    let period = ledger.period_of(from, to).map(PeriodAnswer::of);
    let frozen = period.as_ref().map(|period| period.closed_at);
    if let Some(closed_at) = frozen {
        until = closed_at;
        ledger = replayed(&mut *tx, id, until).await?.unwrap_or_default();
    }
    let paid: Vec<(NaiveDate, NaiveDate)> = ledger.periods().iter().map(|p| (p.from, p.to)).collect();
    let days = Days { companies, from, to, paid: &paid };
    let comandas = match as_of.or(frozen) {
        None => comandas_now(&mut *tx, &days, id).await?,
        Some(until) => comandas_then(&mut *tx, &days, id, until).await?,
    };
    let earned: Vec<EarnedComanda> = comandas
        .iter()
        .filter_map(|(comanda_id, on, comanda)| {
            let earning = comanda.earnings().iter().find(|earning| earning.professional_id == id)?;
            Some(EarnedComanda { comanda_id: *comanda_id, on: *on, earning: earning.clone() })
        })
        .collect();
    let figures = ledger.statement(&earned, from, to);
    // As the closes wrote it: a paid statement never changes with today's rates.
    let partner = figures.comandas.iter().any(|comanda| comanda.earning.partner);
    let partner_share = figures.commission_cents - figures.card_fees_cents;
    let description = |comanda_id: i64, item_id: i64| {
        comandas
            .iter()
            .find(|(id, _, _)| *id == comanda_id)
            .and_then(|(_, _, comanda)| comanda.items().iter().find(|item| item.item_id == item_id))
            .map(|item| item.description.clone())
            .unwrap_or_default()
    };
    let answer = StatementAnswer {
        id_professional: id,
        from,
        to,
        as_of,
        services: reais(figures.services_cents),
        products: reais(figures.products_cents),
        gross: reais(figures.gross_cents()),
        commission: reais(figures.commission_cents),
        card_fees: reais(figures.card_fees_cents),
        partner,
        partner_share: reais(partner_share),
        salon_share: reais(figures.gross_cents() - partner_share),
        adjustment_lines: figures
            .adjustments
            .iter()
            .map(|adjustment| StatementAdjustment {
                id_comanda: adjustment.comanda_id,
                value: reais(adjustment.cents),
            })
            .collect(),
        period,
        tips: reais(figures.tips_cents),
        vales: reais(figures.vales_cents),
        bonuses: reais(figures.bonuses_cents),
        adjustments: reais(figures.adjustments_cents),
        net: reais(figures.net_cents()),
        lines: figures
            .comandas
            .iter()
            .flat_map(|comanda| {
                comanda.earning.lines.iter().map(|line| StatementLine {
                    id_comanda: comanda.comanda_id,
                    date: comanda.on,
                    id_item: line.item_id,
                    kind: match line.kind {
                        ItemKind::Service => "service",
                        ItemKind::Product => "product",
                    },
                    description: description(comanda.comanda_id, line.item_id),
                    quantity: line.quantity,
                    value: reais(line.net_cents),
                    percent: rate_percent(line.rate),
                    fixed: rate_fixed(line.rate),
                    commission: reais(line.commission_cents),
                    card_fee: reais(line.card_fee_cents),
                    club: line.club,
                })
            })
            .collect(),
        comandas: figures
            .comandas
            .iter()
            .map(|comanda| StatementComanda {
                id_comanda: comanda.comanda_id,
                date: comanda.on,
                commission: reais(comanda.earning.commission_cents()),
                tips: reais(comanda.earning.tips_cents),
            })
            .collect(),
        entries: figures
            .entries
            .iter()
            .map(|entry| StatementEntry {
                id_entry: entry.entry_id,
                kind: entry.kind.code(),
                value: reais(entry.cents),
                reason: entry.reason.clone(),
                date: entry.on,
            })
            .collect(),
    };
    Ok(answer)
}

/// `(comanda, day, state)` of the comandas of the caller's units opened in `days`.
type DayComandas = Vec<(i64, NaiveDate, Comanda)>;

/// The days a statement reads: its own, and those of the periods already paid (whose
/// comandas may be adjustments), in the caller's units.
struct Days<'a> {
    companies: &'a [i64],
    from: NaiveDate,
    to: NaiveDate,
    paid: &'a [(NaiveDate, NaiveDate)],
}

impl Days<'_> {
    fn starts(&self) -> Vec<NaiveDate> {
        self.paid.iter().map(|(from, _)| *from).collect()
    }

    fn ends(&self) -> Vec<NaiveDate> {
        self.paid.iter().map(|(_, to)| *to).collect()
    }
}

/// Now: the closed comandas of those days whose last close earned the professional something.
async fn comandas_now(
    conn: &mut PgConnection,
    days: &Days<'_>,
    professional_id: i64,
) -> Result<DayComandas, ApiError> {
    let rows: Vec<(i64, NaiveDate, sqlx::types::Json<Comanda>)> = sqlx::query_as(&format!(
        "select c.comanda_id, c.opened_on, c.state from rm_comanda.comanda c
          where {} and c.status = 'CLOSED'
            and (c.state::jsonb -> 'earnings') @> jsonb_build_array(jsonb_build_object('professional_id', $6::bigint))
          order by c.opened_on, c.comanda_id",
        read_models::comanda::OF_DAYS
    ))
    .bind(days.companies)
    .bind(days.from)
    .bind(days.to)
    .bind(days.starts())
    .bind(days.ends())
    .bind(professional_id)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|(id, on, state)| (id, on, state.0)).collect())
}

/// As of `until`: every comanda of those days replayed from its events up to then (one
/// read), as each stood, closed or not.
async fn comandas_then(
    conn: &mut PgConnection,
    days: &Days<'_>,
    professional_id: i64,
    until: DateTime<Utc>,
) -> Result<DayComandas, ApiError> {
    let ids: Vec<(i64, NaiveDate)> = sqlx::query_as(&format!(
        "select c.comanda_id, c.opened_on from rm_comanda.comanda c where {}",
        read_models::comanda::OF_DAYS
    ))
    .bind(days.companies)
    .bind(days.from)
    .bind(days.to)
    .bind(days.starts())
    .bind(days.ends())
    .fetch_all(&mut *conn)
    .await?;
    let keys: Vec<String> = ids.iter().map(|(id, _)| id.to_string()).collect();
    let rows: Vec<(String, String, String, String)> = sqlx::query_as(&format!(
        "select e.aggregate_id, e.event_type, e.event_version, e.payload::text from events e
          where e.aggregate_type = $1 and e.aggregate_id = any($2) and e.recorded_at <= $3 and {}
          order by e.aggregate_id, e.sequence",
        scope::EVENT_IN_SCOPE
    ))
    .bind(Comanda::TYPE)
    .bind(&keys)
    .bind(until)
    .fetch_all(conn)
    .await?;
    let mut states: BTreeMap<String, Comanda> = BTreeMap::new();
    for (aggregate_id, event_type, version, payload) in rows {
        let event: ComandaEvent =
            navalha_domain::event_payload::decode(Comanda::TYPE, &event_type, &version, &payload)
                .map_err(|e| ApiError::Internal(e.into()))?;
        states.entry(aggregate_id).or_default().apply(event);
    }
    Ok(ids
        .into_iter()
        .filter_map(|(id, on)| {
            let comanda = states.remove(&id.to_string())?;
            let earned = comanda.status() == Status::Closed
                && comanda.earnings().iter().any(|earning| earning.professional_id == professional_id);
            earned.then_some((id, on, comanda))
        })
        .collect())
}

/// `?idProfessional`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct PeriodsQuery {
    id_professional: Option<i64>,
}

#[utoipa::path(
    get,
    path = "/commission/periods",
    tag = "Commissions",
    summary = "A professional's periods closed and paid, latest first (ADMIN's of any professional of their units, everyone's own)",
    params(PeriodsQuery),
    responses(
        (status = 200, description = "The periods", body = Vec<PeriodAnswer>),
        refused::Forbidden,
        (status = 404, description = "A professional the caller may not see", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn periods_of(
    State(state): State<AppState>,
    auth: Auth,
    QueryParams(query): QueryParams<PeriodsQuery>,
) -> Result<Json<Vec<PeriodAnswer>>, ApiError> {
    let id =
        query.id_professional.ok_or_else(|| ApiError::field("idProfessional", "Escolha o profissional."))?;
    own_or_admin(&auth, id)?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_readable(&mut tx, &auth, id).await?;
    let until = DateTime::from_timestamp(253_402_300_799, 0).unwrap_or_default();
    let ledger: CommissionLedger = replayed(&mut tx, id, until).await?.unwrap_or_default();
    let mut periods: Vec<PeriodAnswer> = ledger.periods().iter().map(PeriodAnswer::of).collect();
    periods.sort_by_key(|period| std::cmp::Reverse(period.to));
    Ok(Json(periods))
}

/// `?idProfessional&from&to&since`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ChangesQuery {
    id_professional: Option<i64>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    /// The instant to compare with now (as `asOf` reads it).
    since: Option<String>,
}

/// One figure of the statement that differs between then and now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StatementChange {
    /// line (a line's commission less its card fee), tip (a comanda's tips), entry (a vale,
    /// negative, or a bonus) or adjustment.
    kind: &'static str,
    id_comanda: Option<i64>,
    id_item: Option<i64>,
    id_entry: Option<i64>,
    description: String,
    then: f64,
    now: f64,
    difference: f64,
}

/// A statement then and now, and what changed between them, line by line.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ChangesAnswer {
    since: DateTime<Utc>,
    net_then: f64,
    net_now: f64,
    changes: Vec<StatementChange>,
}

#[utoipa::path(
    get,
    path = "/commission/statement/changes",
    tag = "Commissions",
    summary = "What changed in a professional's statement since an instant, line by line (issue 42): each comanda line, tip, vale, bonus and adjustment whose figure differs",
    params(ChangesQuery, ReadAfter),
    responses(
        (status = 200, description = "The changes", body = ChangesAnswer),
        refused::Forbidden,
        (status = 404, description = "A professional the caller may not see", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn changes_of(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(query): QueryParams<ChangesQuery>,
) -> Result<(HeaderMap, Json<ChangesAnswer>), ApiError> {
    let (id, from, to) = statement_target(&auth, query.id_professional, query.from, query.to)?;
    let since = query
        .since
        .as_deref()
        .and_then(parse_as_of)
        .ok_or_else(|| ApiError::field("since", MSG_BAD_AS_OF))?;
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::COMANDA, &read_models::PROFESSIONAL]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_readable(&mut tx, &auth, id).await?;
    let then = compute(&mut tx, &auth.companies, id, (from, to), Some(since)).await?;
    let now = compute(&mut tx, &auth.companies, id, (from, to), None).await?;
    let answer =
        ChangesAnswer { since, net_then: then.net, net_now: now.net, changes: changes_between(&then, &now) };
    Ok((consistency.headers(), Json(answer)))
}

/// Every figure of `now` that differs from `then`, and every one that is gone, in the order
/// lines, tips, entries, adjustments.
fn changes_between(then: &StatementAnswer, now: &StatementAnswer) -> Vec<StatementChange> {
    type Key = (&'static str, Option<i64>, Option<i64>, Option<i64>);
    let figures = |statement: &StatementAnswer| -> Vec<(Key, String, f64)> {
        let mut figures = Vec::new();
        for line in &statement.lines {
            let key = ("line", Some(line.id_comanda), Some(line.id_item), None);
            let text = format!("Comanda N.º {} · {}", line.id_comanda, line.description);
            figures.push((key, text, line.commission - line.card_fee));
        }
        for comanda in statement.comandas.iter().filter(|comanda| comanda.tips != 0.0) {
            let key = ("tip", Some(comanda.id_comanda), None, None);
            figures.push((key, format!("Gorjetas da comanda N.º {}", comanda.id_comanda), comanda.tips));
        }
        for entry in &statement.entries {
            let (label, value) =
                if entry.kind == "vale" { ("Vale", -entry.value) } else { ("Bônus", entry.value) };
            figures.push((
                ("entry", None, None, Some(entry.id_entry)),
                format!("{label}: {}", entry.reason),
                value,
            ));
        }
        for adjustment in &statement.adjustment_lines {
            let key = ("adjustment", Some(adjustment.id_comanda), None, None);
            figures.push((key, format!("Ajuste da comanda N.º {}", adjustment.id_comanda), adjustment.value));
        }
        figures
    };
    let (before, after) = (figures(then), figures(now));
    let mut changes = Vec::new();
    let mut push = |(kind, id_comanda, id_item, id_entry): Key, description: &str, was: f64, is: f64| {
        if (was - is).abs() >= 0.005 {
            let difference = ((is - was) * 100.0).round() / 100.0;
            changes.push(StatementChange {
                kind,
                id_comanda,
                id_item,
                id_entry,
                description: description.to_owned(),
                then: was,
                now: is,
                difference,
            });
        }
    };
    for (key, text, value) in &after {
        let was = before.iter().find(|(k, _, _)| k == key).map_or(0.0, |(_, _, v)| *v);
        push(*key, text, was, *value);
    }
    for (key, text, value) in &before {
        if !after.iter().any(|(k, _, _)| k == key) {
            push(*key, text, *value, 0.0);
        }
    }
    changes
}
