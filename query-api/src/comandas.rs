//! Comandas (issue 41): `GET comanda/{id}` and `GET comanda?idCompany&date&status&page&pageSize`,
//! from the comanda read model, whose rows hold each comanda's state as the domain folds it.
//!
//! ADMIN and ATTENDANT see the comandas of their units; the barbers see those with a line or
//! a tip of their own, and no other (docs/money.md).

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::NaiveDate;
use navalha_domain::comanda::{Comanda, Discount, ItemKind};
use navalha_domain::money::reais;
use navalha_domain::role::Role;
use navalha_platform::auth::{AdminOnly, Auth, Principal};
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::as_of::{replayed, AdminAsOf};
use crate::consistency::ReadAfter;
use crate::history::HistoryEntry;
use crate::list_arguments;
use crate::paging::{one_of, page_of, ListQuery, Page, PageRequest};
use crate::professionals::{rate_fixed, rate_percent};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(one)).routes(routes!(history))
}

fn not_found() -> ApiError {
    ApiError::NotFound(navalha_domain::comanda::MSG_NOT_OPEN.to_owned())
}

/// Whether `principal` sees every comanda of their units, or only their own lines'.
fn sees_all(principal: &Principal) -> bool {
    principal.role.may_choose_any_professional()
}

/// A line of a comanda.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaItem {
    id_item: i64,
    /// service or product.
    kind: &'static str,
    /// The service or product.
    id: i64,
    description: String,
    id_professional: Option<i64>,
    quantity: i64,
    unit_price: f64,
    /// The line's own discount, in reais.
    discount: f64,
    /// The line's own discount as asked, when in percent.
    discount_percent: Option<f64>,
    /// Quantity times unit price, less the line's discount.
    total: f64,
    id_scheduling: Option<i64>,
    /// The client's club subscription covering part of the line, if one does.
    club: Option<ComandaClub>,
}

/// A line's club cover: the plan's discount, paid by 'Assinatura'.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaClub {
    id_subscription_user: i64,
    id_subscription_detail: i64,
    plan_name: String,
    /// The plan's discount on the service, percent.
    percent: i64,
    /// What the club pays of the line, in reais.
    covered: f64,
}

/// A payment taken.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaPayment {
    id_payment: i64,
    /// cash, pix, credit, debit or subscription.
    method: &'static str,
    value: f64,
    cash_received: Option<f64>,
    change: Option<f64>,
    installments: Option<i64>,
    brand: Option<String>,
    authorization_code: Option<String>,
    nsu: Option<String>,
    /// For a subscription payment: the line the club covers.
    id_item: Option<i64>,
}

/// A Pix charge at the payment provider (issue 41): pending until the client pays it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaPix {
    /// The payment it becomes once paid.
    id_payment: i64,
    galax_pay_id: i64,
    value: f64,
    /// PENDING, PAID, FAILED (expired, refused or cancelled) or TO_REFUND (paid after the
    /// comanda was cancelled: give it back).
    status: &'static str,
    /// The QR code's image.
    pix_qr_code: String,
    /// 'Pix copia e cola'.
    pix_copy_paste: String,
    /// The provider's page for the client's phone.
    pix_page: String,
}

/// A tip.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaTip {
    id_tip: i64,
    id_professional: i64,
    value: f64,
}

/// A comanda as its screen shows it (money in reais).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaAnswer {
    id_comanda: i64,
    id_company: i64,
    id_scheduling: Option<i64>,
    /// null: 'Cliente avulso'.
    id_user: Option<i64>,
    /// OPEN, CLOSED or CANCELED.
    status: &'static str,
    items: Vec<ComandaItem>,
    payments: Vec<ComandaPayment>,
    tips: Vec<ComandaTip>,
    /// The lines after their own discounts.
    subtotal: f64,
    /// The discount on the total, in reais.
    discount: f64,
    /// Subtotal less discount.
    total: f64,
    /// The tips, which add to what the client pays.
    tips_total: f64,
    paid: f64,
    /// What is left to pay: total plus tips, less what was paid.
    due: f64,
    /// Pix charges waiting for the client (part of what is left to pay).
    pending: f64,
    pix_charges: Vec<ComandaPix>,
    /// What its last close earned each professional at the rates then in force (issue 42):
    /// ADMIN sees everyone's, a professional their own, ATTENDANT none. Empty while open.
    commissions: Vec<ComandaCommission>,
    /// With `asOf` (ADMIN): the instant it was replayed to.
    as_of: Option<chrono::DateTime<chrono::Utc>>,
}

/// What a closed comanda earned one professional.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaCommission {
    id_professional: i64,
    /// The lines' commission.
    commission: f64,
    /// The card machine's fees they share, taken off the commission.
    card_fees: f64,
    /// Their tips, in full.
    tips: f64,
    lines: Vec<ComandaCommissionLine>,
}

/// A line's commission, with the rate in force at the close.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaCommissionLine {
    id_item: i64,
    /// What the client paid for the line.
    value: f64,
    /// The rate: a percent, or a fixed amount per unit in reais.
    percent: Option<f64>,
    fixed: Option<f64>,
    commission: f64,
    card_fee: f64,
    /// Covered by the club (priced by the unit's club rule).
    club: bool,
}

impl ComandaAnswer {
    fn of(id: i64, comanda: &Comanda) -> Self {
        let opening = comanda.opening();
        let totals = comanda.totals();
        ComandaAnswer {
            id_comanda: id,
            id_company: opening.map_or(0, |o| o.company_id),
            id_scheduling: opening.and_then(|o| o.appointment_id),
            id_user: opening.and_then(|o| o.client_id),
            status: comanda.status().code(),
            items: comanda
                .items()
                .iter()
                .map(|item| ComandaItem {
                    id_item: item.item_id,
                    kind: match item.kind {
                        ItemKind::Service => "service",
                        ItemKind::Product => "product",
                    },
                    id: item.ref_id,
                    description: item.description.clone(),
                    id_professional: item.professional_id,
                    quantity: item.quantity,
                    unit_price: reais(item.unit_cents),
                    discount: reais(item.gross() - item.net()),
                    discount_percent: match item.discount {
                        Some(Discount::BasisPoints(points)) => Some(reais(points)),
                        _ => None,
                    },
                    total: reais(item.net()),
                    id_scheduling: item.appointment_id,
                    club: item.club.as_ref().map(|club| ComandaClub {
                        id_subscription_user: club.subscription_id,
                        id_subscription_detail: club.plan_id,
                        plan_name: club.plan_name.clone(),
                        percent: club.percent,
                        covered: reais(item.covered()),
                    }),
                })
                .collect(),
            payments: comanda
                .payments()
                .iter()
                .map(|payment| ComandaPayment {
                    id_payment: payment.payment_id,
                    method: payment.method.code(),
                    value: reais(payment.cents),
                    cash_received: payment.cash_received_cents.map(reais),
                    change: payment.cash_received_cents.map(|_| reais(payment.change())),
                    installments: payment.installments,
                    brand: payment.brand.clone(),
                    authorization_code: payment.authorization_code.clone(),
                    nsu: payment.nsu.clone(),
                    id_item: payment.item_id,
                })
                .collect(),
            tips: comanda
                .tips()
                .iter()
                .map(|tip| ComandaTip {
                    id_tip: tip.tip_id,
                    id_professional: tip.professional_id,
                    value: reais(tip.cents),
                })
                .collect(),
            subtotal: reais(totals.subtotal),
            discount: reais(totals.discount),
            total: reais(totals.total),
            tips_total: reais(totals.tips),
            paid: reais(totals.paid),
            due: reais(totals.remaining()),
            pending: reais(totals.pending),
            pix_charges: comanda
                .pix_charges()
                .iter()
                .map(|charge| ComandaPix {
                    id_payment: charge.payment_id,
                    galax_pay_id: charge.galax_pay_id,
                    value: reais(charge.cents),
                    status: charge.status.code(),
                    pix_qr_code: charge.image.clone(),
                    pix_copy_paste: charge.copy_paste.clone(),
                    pix_page: charge.page.clone(),
                })
                .collect(),
            commissions: comanda
                .earnings()
                .iter()
                .map(|earning| ComandaCommission {
                    id_professional: earning.professional_id,
                    commission: reais(earning.commission_cents()),
                    card_fees: reais(earning.card_fee_cents()),
                    tips: reais(earning.tips_cents),
                    lines: earning
                        .lines
                        .iter()
                        .map(|line| ComandaCommissionLine {
                            id_item: line.item_id,
                            value: reais(line.net_cents),
                            percent: rate_percent(line.rate),
                            fixed: rate_fixed(line.rate),
                            commission: reais(line.commission_cents),
                            card_fee: reais(line.card_fee_cents),
                            club: line.club,
                        })
                        .collect(),
                })
                .collect(),
            as_of: None,
        }
    }
}

/// Whether `comanda` has a line or a tip of `professional_id`.
fn is_of(comanda: &Comanda, professional_id: i64) -> bool {
    comanda.items().iter().any(|item| item.professional_id == Some(professional_id))
        || comanda.tips().iter().any(|tip| tip.professional_id == professional_id)
}

#[utoipa::path(
    get,
    path = "/comanda/{id}",
    tag = "Comandas",
    summary = "A comanda: items, payments, tips and figures (a barber: only one with a line or tip of theirs)",
    params(("id" = i64, Path), AdminAsOf, ReadAfter),
    responses(
        (status = 200, description = "The comanda; with asOf (ADMIN), as it stood then, replayed from its events", body = ComandaAnswer),
        (status = 403, description = "asOf for a role other than ADMIN", body = navalha_platform::error::ErrorBody),
        refused::Invalid,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
    QueryParams(as_of): QueryParams<AdminAsOf>,
) -> Result<(HeaderMap, Json<ComandaAnswer>), ApiError> {
    let as_of = as_of.instant(&auth)?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let (consistency, comanda) = match as_of {
        // The audit: replayed from its events.
        Some(until) => {
            let comanda: Comanda = replayed(&mut tx, id, until).await?.ok_or_else(not_found)?;
            (None, comanda)
        }
        None => {
            let consistency = read_after.wait(&state.watch, &read_models::COMANDA).await?;
            let row: Option<sqlx::types::Json<Comanda>> =
                sqlx::query_scalar("select state from rm_comanda.comanda where comanda_id = $1")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
            (Some(consistency), row.ok_or_else(not_found)?.0)
        }
    };
    let company_id = comanda.opening().map_or(0, |opening| opening.company_id);
    if !auth.belongs_to(company_id) || !(sees_all(&auth) || is_of(&comanda, auth.professional_id)) {
        return Err(not_found());
    }
    let headers = consistency.map(|consistency| consistency.headers()).unwrap_or_default();
    let mut answer = ComandaAnswer { as_of, ..ComandaAnswer::of(id, &comanda) };
    // Commissions are ADMIN's, and each professional's own.
    if auth.role != Role::Admin {
        answer.commissions.retain(|earned| earned.id_professional == auth.professional_id);
    }
    Ok((headers, Json(answer)))
}

/// `?idCompany&date&status&page&pageSize`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ComandaFilter {
    /// One of the caller's units; absent: all of them.
    id_company: Option<i64>,
    /// The day it was opened.
    date: Option<NaiveDate>,
    /// OPEN, CLOSED or CANCELED; absent: all.
    status: Option<String>,
    /// 1-based page.
    page: Option<i64>,
    /// Items per page.
    page_size: Option<i64>,
}

/// A comanda in the list.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaListItem {
    id_comanda: i64,
    id_company: i64,
    opened_on: NaiveDate,
    status: String,
    total: f64,
    paid: f64,
}

#[utoipa::path(
    get,
    path = "/comanda",
    tag = "Comandas",
    summary = "Comandas of the caller's units, newest first, paged (a barber: those with a line or tip of theirs)",
    params(ComandaFilter, ReadAfter),
    responses(
        (status = 200, description = "A page", body = Page<ComandaListItem>),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn list(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<ComandaFilter>,
) -> Result<(HeaderMap, Json<Page<ComandaListItem>>), ApiError> {
    let (limit, offset) = PageRequest { page: filter.page, page_size: filter.page_size }.limit_offset()?;
    let status = one_of("status", filter.status.as_deref(), &["OPEN", "CLOSED", "CANCELED"])?;
    let consistency = read_after.wait(&state.watch, &read_models::COMANDA).await?;
    let units: Vec<i64> = match filter.id_company {
        Some(id) => auth.companies.iter().copied().filter(|unit| *unit == id).collect(),
        None => auth.companies.clone(),
    };
    let own = (!sees_all(&auth)).then_some(auth.professional_id);
    let query = ListQuery {
        columns: "comanda_id as id_comanda, company_id as id_company, opened_on, status,
                  total_cents::float8 / 100 as total, paid_cents::float8 / 100 as paid",
        from: "rm_comanda.comanda",
        condition: "company_id = any($1) and ($2::date is null or opened_on = $2)
            and ($3::text is null or status = $3)
            and ($4::bigint is null
                 or exists (select 1 from json_array_elements(state -> 'items') i
                             where (i ->> 'professional_id')::bigint = $4)
                 or exists (select 1 from json_array_elements(state -> 'tips') t
                             where (t ->> 'professional_id')::bigint = $4))",
        order: "comanda_id desc",
    };
    let mut tx = scope::of(&state.pool, &auth).await?;
    let arguments = list_arguments![&units, filter.date, &status, own];
    let page = page_of(&mut tx, &query, arguments, (limit, offset)).await?;
    Ok((consistency.headers(), Json(page)))
}

#[utoipa::path(
    get,
    path = "/comanda/{id}/history",
    tag = "Comandas",
    summary = "Every event of a comanda: who added, discounted, paid, closed, reopened, and when (ADMIN)",
    params(("id" = i64, Path)),
    responses(
        (status = 200, description = "[{Sequence, At, UserId, UserName, Role, Event, Changes:[{Field, From, To}]}]", body = Vec<HistoryEntry>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn history(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    PathParam(id): PathParam<i64>,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    let mut tx = scope::of(&state.pool, &auth).await?;
    // The unit, from the stream itself: the audit does not wait for the read model.
    let company_id: Option<i64> = sqlx::query_scalar(&format!(
        "select (e.payload -> 'ComandaOpened' ->> 'company_id')::bigint from events e
          where e.aggregate_type = 'Comanda' and e.aggregate_id = $1 and e.event_type = 'ComandaOpened' and {}",
        scope::EVENT_IN_SCOPE
    ))
    .bind(id.to_string())
    .fetch_optional(&mut *tx)
    .await?;
    if !company_id.is_some_and(|company_id| auth.belongs_to(company_id)) {
        return Err(not_found());
    }
    crate::history::history(
        &mut tx,
        <Comanda as navalha_domain::Aggregate>::TYPE,
        id,
        navalha_domain::comanda::MSG_NOT_OPEN,
    )
    .await
}
