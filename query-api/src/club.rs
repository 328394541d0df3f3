//! The subscription club's reads (spec 02 §7 'Plans and checkout', 'Subscribers'):
//!
//! - `GET subscription-details?page&pageSize&description&status&paymentMethod`,
//!   `GET subscription-details/all`, `GET subscription-details/{id}`;
//! - `GET partner-company`; `GET subscription-service/services/{subscriptionDetailId}`;
//! - `GET subscription-user?page&pageSize&internalStatus&idSubscriptionDetail&description`;
//! - `GET subscription-user/{id}`, and with `?asOf=<ISO time>` the subscription as it was
//!   then, replayed from its stream;
//! - `GET subscription-user/{id}/timeline`: every change, when and why.
//!
//! As-of and timeline replay the stream on purpose, like the audits (design.md). Plans are
//! read by ADMIN, ATTENDANT and DEFAULT; subscribers (and the plan names for their filter)
//! also by BARBER_LEADE (spec 02 §6).

use std::collections::HashMap;

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{DateTime, Utc};
use navalha_domain::plan::{Plan, PlanDetails};
use navalha_domain::subscription::{
    ReportSource, Subscription, SubscriptionEvent, MSG_NOT_FOUND as MSG_SUBSCRIPTION_NOT_FOUND,
};
use navalha_domain::{event_payload, Aggregate};
use navalha_platform::auth::{Auth, PlanStaff, Principal, SubscriberStaff};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use self::answers::SubscriptionSummary;
use self::answers::{
    money, ChargeChange, NamedCompany, PartnerCompany, PlanAnswer, PlanChoice, PlanItem, PlanService,
    PlanSubscription, StaffSource, SubscriberBrief, SubscriberItem, SubscriptionAnswer, TimelineEntry,
    TimelineSource, WebhookSource,
};
use crate::as_of::{parse_as_of, MSG_BAD_AS_OF};
use crate::consistency::{Consistency, ReadAfter};
use crate::history::Change;
use crate::paging::{Page, PageRequest};
use crate::scope;
use crate::search::search_pattern;
use crate::AppState;

/// Unknown plan.
pub const MSG_PLAN_NOT_FOUND: &str = "Plano não encontrado.";

mod answers;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(plans))
        .routes(routes!(all_plans))
        .routes(routes!(plan))
        .routes(routes!(partners))
        .routes(routes!(plan_services))
        .routes(routes!(subscribers))
        .routes(routes!(subscriber))
        .routes(routes!(timeline))
}

/// In what order a client's subscriptions are listed: those still in force first, then
/// newest first. Screens that show one subscription show the first. (A macro, so that
/// `concat!` can build the SQL that uses it.)
macro_rules! subscription_order {
    () => {
        "internal_status = 'CANCELED', created_at desc, subscription_id desc"
    };
}

/// A scalar subquery: the subscriptions of the client `a.client_id` of the enclosing query to
/// plans of its unit `a.company_id` (or of every unit), as a JSON array of
/// `SubscriptionSummary`, so a list reads them in its own statement.
pub const SUBSCRIPTIONS_OF_CLIENT: &str = concat!(
    "coalesce((select json_agg(json_build_object(
        'IdSubscriptionUser', subscription_id, 'IdSubscriptionDetail', plan_id,
        'PlanName', plan_name, 'InternalStatus', internal_status) order by ",
    subscription_order!(),
    ") from rm_club.subscription s
        where s.user_id = a.client_id
          and exists (select 1 from rm_club.plan p
                       where p.plan_id = s.plan_id
                         and ((p.state #>> '{details,all_companies}')::boolean
                              or exists (select 1 from jsonb_array_elements_text(p.state #> '{details,company_ids}') c
                                          where c::bigint = a.company_id)))), '[]')"
);

/// The subscriptions of each of `users` to plans the caller reaches (`companies`, their
/// units: the subscribers list's rule), for the clients list and form's `SubscriptionUser`
/// and the agenda's cards, in `SUBSCRIPTION_ORDER`.
pub async fn subscriptions_of(
    conn: &mut PgConnection,
    users: &[i64],
    companies: &[i64],
) -> Result<HashMap<i64, Vec<SubscriptionSummary>>, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        user_id: i64,
        #[sqlx(flatten)]
        summary: SubscriptionSummary,
    }
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "select user_id, subscription_id as id_subscription_user, plan_id as id_subscription_detail,
                plan_name, internal_status
           from rm_club.subscription s where user_id = any($1) and {}
          order by {}",
        subscription_in_reach(2),
        subscription_order!()
    ))
    .bind(users)
    .bind(companies)
    .fetch_all(conn)
    .await?;
    let mut map: HashMap<i64, Vec<SubscriptionSummary>> = HashMap::new();
    for row in rows {
        map.entry(row.user_id).or_default().push(row.summary);
    }
    Ok(map)
}

async fn wait(state: &AppState, read_after: ReadAfter) -> Result<Consistency, ApiError> {
    read_after.wait(&state.watch, &read_models::CLUB).await
}

/// `?page&pageSize&description&status&paymentMethod`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanFilter {
    page: Option<i64>,
    page_size: Option<i64>,
    #[serde(default)]
    description: String,
    status: Option<String>,
    payment_method: Option<String>,
}

/// Plans the principal reaches (`$param` their units): plans of every unit, or of one of
/// theirs. Subscriptions are reached through their plan.
fn plan_in_reach(param: usize) -> String {
    format!(
        "((p.state #>> '{{details,all_companies}}')::boolean
          or exists (select 1 from jsonb_array_elements_text(p.state #> '{{details,company_ids}}') c
                      where c::bigint = any(${param})))"
    )
}

/// Subscriptions `s` the principal reaches (`$param` their units): those of a plan they reach.
pub fn subscription_in_reach(param: usize) -> String {
    format!("exists (select 1 from rm_club.plan p where p.plan_id = s.plan_id and {})", plan_in_reach(param))
}

/// 404 (`not_found`) unless the row of `from_where` (a `from … where` naming plan `p`, with
/// the id as `$1`) exists and the principal reaches its plan.
async fn ensure_reached(
    conn: &mut PgConnection,
    principal: &Principal,
    from_where: &str,
    id: i64,
    not_found: &str,
) -> Result<(), ApiError> {
    let reached: bool =
        sqlx::query_scalar(&format!("select exists (select 1 {from_where} and {})", plan_in_reach(2)))
            .bind(id)
            .bind(&principal.companies)
            .fetch_one(conn)
            .await?;
    if reached {
        Ok(())
    } else {
        Err(ApiError::NotFound(not_found.to_owned()))
    }
}

/// 404 unless the plan exists and the principal reaches it.
async fn ensure_plan_in_reach(
    conn: &mut PgConnection,
    principal: &Principal,
    id: i64,
) -> Result<(), ApiError> {
    ensure_reached(conn, principal, "from rm_club.plan p where p.plan_id = $1", id, MSG_PLAN_NOT_FOUND).await
}

/// 404 unless the subscription exists and the principal reaches its plan.
async fn ensure_subscription_in_reach(
    conn: &mut PgConnection,
    principal: &Principal,
    id: i64,
) -> Result<(), ApiError> {
    let from_where = "from rm_club.subscription s join rm_club.plan p on p.plan_id = s.plan_id
                      where s.subscription_id = $1";
    ensure_reached(conn, principal, from_where, id, MSG_SUBSCRIPTION_NOT_FOUND).await
}

const PLAN_WHERE: &str = "($1::text is null or p.search like lower(public.unaccent($1)))
    and ($2::boolean is null or p.active = $2)
    and ($3::text is null or p.payment_method = $3
         or p.state #> '{details,other_prices}' @> jsonb_build_array(jsonb_build_object('payment_method', $3::text)))";

#[utoipa::path(
    get,
    path = "/subscription-details",
    tag = "Club",
    summary = "Plans, by name (ADMIN, ATTENDANT, DEFAULT)",
    params(
        PageRequest,
        ("description" = Option<String>, Query, description = "Name or description, ignoring accents and case"),
        ("status" = Option<String>, Query, description = "1 active, 0 inactive"),
        ("paymentMethod" = Option<String>, Query, description = "creditcard or boleto"),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "A page of plans", body = Page<PlanItem>),
        refused::Forbidden,
    ),
    security(("bearer" = [])),
)]
async fn plans(
    State(state): State<AppState>,
    auth: Auth<PlanStaff>,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<PlanFilter>,
) -> Result<(HeaderMap, Json<Page<PlanItem>>), ApiError> {
    let (limit, offset) = PageRequest { page: filter.page, page_size: filter.page_size }.limit_offset()?;
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let pattern = search_pattern(&filter.description);
    let active = match filter.status.as_deref().map(str::trim) {
        None | Some("") => None,
        Some("1") | Some("true") => Some(true),
        Some(_) => Some(false),
    };
    let method = filter.payment_method.filter(|m| !m.trim().is_empty());
    let total: i64 = sqlx::query_scalar(&format!(
        "select count(*) from rm_club.plan p where {PLAN_WHERE} and {}",
        plan_in_reach(4)
    ))
    .bind(&pattern)
    .bind(active)
    .bind(&method)
    .bind(&auth.companies)
    .fetch_one(&mut *tx)
    .await?;
    #[derive(sqlx::FromRow)]
    struct Row {
        plan_id: i64,
        subscribers: i64,
        details: sqlx::types::Json<PlanDetails>,
    }
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "select p.plan_id, (select count(*) from rm_club.subscription s where s.plan_id = p.plan_id) as subscribers,
                p.state -> 'details' as details
           from rm_club.plan p where {PLAN_WHERE} and {}
          order by p.plan_name, p.plan_id limit $4 offset $5",
        plan_in_reach(6)
    ))
    .bind(&pattern)
    .bind(active)
    .bind(&method)
    .bind(limit)
    .bind(offset)
    .bind(&auth.companies)
    .fetch_all(&mut *tx)
    .await?;
    let content = rows.iter().map(|row| PlanItem::new(row.plan_id, &row.details, row.subscribers)).collect();
    Ok((consistency.headers(), Json(Page::new(content, total))))
}

#[utoipa::path(
    get,
    path = "/subscription-details/all",
    tag = "Club",
    summary = "Every plan, for filters (subscriber staff)",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "Every plan the user reaches, by name", body = Vec<PlanChoice>),
        refused::Forbidden,
    ),
    security(("bearer" = [])),
)]
async fn all_plans(
    State(state): State<AppState>,
    auth: Auth<SubscriberStaff>,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<Vec<PlanChoice>>), ApiError> {
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let rows: Vec<(i64, String, i64, bool)> = sqlx::query_as(&format!(
        "select plan_id, plan_name, value_cents, active from rm_club.plan p where {}
          order by plan_name, plan_id",
        plan_in_reach(1)
    ))
    .bind(&auth.companies)
    .fetch_all(&mut *tx)
    .await?;
    let list = rows
        .into_iter()
        .map(|(id, plan_name, cents, active)| PlanChoice {
            id_subscription_detail: id,
            plan_name,
            value: money(cents),
            status: i32::from(active),
        })
        .collect();
    Ok((consistency.headers(), Json(list)))
}

#[utoipa::path(
    get,
    path = "/subscription-details/{id}",
    tag = "Club",
    summary = "A plan with companiesList, partnerCompanyList and subscriptionsList",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The plan (spec 02 §3 'Subscription detail')", body = PlanAnswer),
        refused::Forbidden,
        (status = 404, description = "Unknown plan", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn plan(
    State(state): State<AppState>,
    auth: Auth<PlanStaff>,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<PlanAnswer>), ApiError> {
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_plan_in_reach(&mut tx, &auth, id).await?;
    let sqlx::types::Json(plan): sqlx::types::Json<Plan> =
        sqlx::query_scalar("select state from rm_club.plan where plan_id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| ApiError::NotFound(MSG_PLAN_NOT_FOUND.to_owned()))?;
    let details = plan.details().ok_or_else(|| ApiError::NotFound(MSG_PLAN_NOT_FOUND.to_owned()))?;
    let companies: Vec<NamedCompany> = sqlx::query_as(
        "select id as id_company, coalesce(c.name, '') as name from unnest($1::bigint[]) id
           left join rm_company.company c on c.company_id = id order by c.name, id",
    )
    .bind(&details.company_ids)
    .fetch_all(&mut *tx)
    .await?;
    let partners: Vec<PartnerCompany> = sqlx::query_as(
        "select id as id_partner_company, coalesce(p.name, '') as name from unnest($1::bigint[]) id
           left join rm_club.partner_company p on p.partner_company_id = id order by p.name, id",
    )
    .bind(&details.partner_company_ids)
    .fetch_all(&mut *tx)
    .await?;
    let subscriptions: Vec<PlanSubscription> = sqlx::query_as(
        "select subscription_id as id_subscription_user, user_id as id_user, user_name as name, internal_status
           from rm_club.subscription where plan_id = $1 order by subscription_id",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    let answer = PlanAnswer::new(id, details, plan.galax_pay_id(), companies, partners, subscriptions);
    Ok((consistency.headers(), Json(answer)))
}

#[utoipa::path(
    get,
    path = "/partner-company",
    tag = "Club",
    summary = "Partner companies",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "Every partner company, by name", body = Vec<PartnerCompany>),
        refused::Forbidden,
    ),
    security(("bearer" = [])),
)]
async fn partners(
    State(state): State<AppState>,
    auth: Auth<PlanStaff>,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<Vec<PartnerCompany>>), ApiError> {
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let list = sqlx::query_as(
        "select partner_company_id as id_partner_company, name from rm_club.partner_company order by name",
    )
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(list)))
}

#[utoipa::path(
    get,
    path = "/subscription-service/services/{id}",
    tag = "Club",
    summary = "A plan's services",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The plan's services, with their prices for subscribers", body = Vec<PlanService>),
        refused::Forbidden,
        (status = 404, description = "Unknown plan", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn plan_services(
    State(state): State<AppState>,
    auth: Auth<PlanStaff>,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Vec<PlanService>>), ApiError> {
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_plan_in_reach(&mut tx, &auth, id).await?;
    #[derive(sqlx::FromRow)]
    struct Row {
        plan_service_id: i64,
        service_id: i64,
        description: String,
        original_cents: i64,
        discount: i64,
        value_cents: i64,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "select plan_service_id, service_id, description, original_cents, discount, value_cents
           from rm_club.plan_service where plan_id = $1 order by plan_service_id",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    let list = rows
        .into_iter()
        .map(|row| PlanService {
            id_subscription_service: row.plan_service_id,
            id_service: row.service_id,
            description: row.description,
            original_value: money(row.original_cents),
            discount: row.discount,
            value: money(row.value_cents),
        })
        .collect();
    Ok((consistency.headers(), Json(list)))
}

/// `?page&pageSize&internalStatus&idSubscriptionDetail&description`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriberFilter {
    page: Option<i64>,
    page_size: Option<i64>,
    internal_status: Option<String>,
    id_subscription_detail: Option<String>,
    #[serde(default)]
    description: String,
}

/// A row of the subscribers list.
#[derive(sqlx::FromRow)]
struct SubscriberRow {
    subscription_id: i64,
    plan_id: i64,
    plan_name: String,
    value_cents: i64,
    internal_status: String,
    status: Option<String>,
    user_id: i64,
    user_name: String,
    phone: String,
    created_at: DateTime<Utc>,
}

impl From<SubscriberRow> for SubscriberItem {
    fn from(row: SubscriberRow) -> Self {
        SubscriberItem {
            id_subscription_user: row.subscription_id,
            id_subscription_detail: row.plan_id,
            plan_name: row.plan_name,
            plan_value: money(row.value_cents),
            internal_status: row.internal_status,
            status: row.status,
            created_at: row.created_at,
            user: SubscriberBrief { id_user: row.user_id, name: row.user_name, phone: row.phone },
        }
    }
}

const SUBSCRIBER_WHERE: &str = "($1::text is null or s.internal_status = $1)
    and ($2::bigint is null or s.plan_id = $2)
    and ($3::text is null or s.search like lower(public.unaccent($3)) or s.search like $4)
    and";

#[utoipa::path(
    get,
    path = "/subscription-user",
    tag = "Club",
    summary = "Subscribers, newest first (ADMIN, ATTENDANT, DEFAULT, BARBER_LEADE)",
    params(
        PageRequest,
        ("internalStatus" = Option<String>, Query, description = "ACTIVE, PENDING_PAYMENT or CANCELED"),
        ("idSubscriptionDetail" = Option<i64>, Query, description = "A plan; 0 or absent for all"),
        ("description" = Option<String>, Query, description = "Name, e-mail, CPF or phone"),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "A page of subscriptions, newest first", body = Page<SubscriberItem>),
        refused::Forbidden,
    ),
    security(("bearer" = [])),
)]
async fn subscribers(
    State(state): State<AppState>,
    auth: Auth<SubscriberStaff>,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<SubscriberFilter>,
) -> Result<(HeaderMap, Json<Page<SubscriberItem>>), ApiError> {
    let (limit, offset) = PageRequest { page: filter.page, page_size: filter.page_size }.limit_offset()?;
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let status = filter.internal_status.filter(|s| !s.trim().is_empty() && s != "0");
    // 'Todos' sends 0 or nothing.
    let plan = filter.id_subscription_detail.and_then(|p| p.trim().parse::<i64>().ok()).filter(|p| *p != 0);
    let pattern = search_pattern(&filter.description);
    let digits: String = filter.description.chars().filter(char::is_ascii_digit).collect();
    let digits_pattern = (!digits.is_empty()).then(|| format!("%{digits}%"));
    let total: i64 = sqlx::query_scalar(&format!(
        "select count(*) from rm_club.subscription s where {SUBSCRIBER_WHERE} {}",
        subscription_in_reach(5)
    ))
    .bind(&status)
    .bind(plan)
    .bind(&pattern)
    .bind(&digits_pattern)
    .bind(&auth.companies)
    .fetch_one(&mut *tx)
    .await?;
    let rows: Vec<SubscriberRow> = sqlx::query_as(&format!(
        "select s.subscription_id, s.plan_id, s.plan_name, s.value_cents, s.internal_status, s.status,
                    s.user_id, s.user_name, s.phone, s.created_at
               from rm_club.subscription s where {SUBSCRIBER_WHERE} {}
              order by s.created_at desc, s.subscription_id desc limit $5 offset $6",
        subscription_in_reach(7)
    ))
    .bind(&status)
    .bind(plan)
    .bind(&pattern)
    .bind(&digits_pattern)
    .bind(limit)
    .bind(offset)
    .bind(&auth.companies)
    .fetch_all(&mut *tx)
    .await?;
    let content = rows.into_iter().map(SubscriberItem::from).collect();
    Ok((consistency.headers(), Json(Page::new(content, total))))
}

/// `?asOf`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AsOfParams {
    as_of: Option<String>,
}

/// An event of a subscription's stream.
struct EventRow {
    sequence: i64,
    recorded_at: DateTime<Utc>,
    payload: SubscriptionEvent,
    metadata: Value,
}

async fn stream(
    conn: &mut PgConnection,
    id: i64,
    until: Option<DateTime<Utc>>,
) -> Result<Vec<EventRow>, ApiError> {
    let rows: Vec<(i64, DateTime<Utc>, String, String, String, Value)> = sqlx::query_as(&format!(
        "select e.sequence, e.recorded_at, e.event_type, e.event_version, e.payload::text, e.metadata from events e
          where e.aggregate_type = $1 and e.aggregate_id = $2
            and ($3::timestamptz is null or e.recorded_at <= $3) and {}
          order by e.sequence",
        scope::EVENT_IN_SCOPE
    ))
    .bind(Subscription::TYPE)
    .bind(id.to_string())
    .bind(until)
    .fetch_all(conn)
    .await?;
    rows.into_iter()
        .map(|(sequence, recorded_at, event_type, version, payload, metadata)| {
            let payload = event_payload::decode(Subscription::TYPE, &event_type, &version, &payload)
                .map_err(|e| ApiError::Internal(e.into()))?;
            Ok(EventRow { sequence, recorded_at, payload, metadata })
        })
        .collect()
}

#[utoipa::path(
    get,
    path = "/subscription-user/{id}",
    tag = "Club",
    summary = "A subscription with User, Transactions, AmountReceived and AmountToReceive; with asOf, as it was at that instant, replayed from its events",
    params(
        ("id" = i64, Path),
        ("asOf" = Option<String>, Query, description = "An RFC 3339 instant; a date-time without offset (UTC-3 wall clock); or a date (the end of that day)"),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The subscription (spec 02 §3 'Subscription user')", body = SubscriptionAnswer),
        (status = 400, description = "Unreadable asOf", body = ErrorBody),
        refused::Forbidden,
        (status = 404, description = "Unknown subscription, or not yet created at asOf", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn subscriber(
    State(state): State<AppState>,
    auth: Auth<SubscriberStaff>,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
    QueryParams(params): QueryParams<AsOfParams>,
) -> Result<(HeaderMap, Json<SubscriptionAnswer>), ApiError> {
    let not_found = || ApiError::NotFound(MSG_SUBSCRIPTION_NOT_FOUND.to_owned());
    let consistency = wait(&state, read_after).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_subscription_in_reach(&mut tx, &auth, id).await?;
    if let Some(text) = params.as_of.as_deref().filter(|t| !t.trim().is_empty()) {
        let as_of = parse_as_of(text).ok_or_else(|| ApiError::BadRequest(MSG_BAD_AS_OF.to_owned()))?;
        let mut subscription = Subscription::default();
        for event in stream(&mut tx, id, Some(as_of)).await? {
            subscription.apply(event.payload);
        }
        let answer = SubscriptionAnswer::new(id, &subscription).ok_or_else(not_found)?;
        return Ok((HeaderMap::new(), Json(SubscriptionAnswer { as_of: Some(as_of), ..answer })));
    }
    let sqlx::types::Json(subscription): sqlx::types::Json<Subscription> =
        sqlx::query_scalar("select state from rm_club.subscription where subscription_id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(not_found)?;
    let answer = SubscriptionAnswer::new(id, &subscription).ok_or_else(not_found)?;
    Ok((consistency.headers(), Json(answer)))
}

fn change(field: String, from: Value, to: Value) -> Option<Change> {
    (from != to).then_some(Change { field, from, to })
}

/// The charges that appeared (`From` null) or changed status between two states.
fn charge_changes(before: &Subscription, after: &Subscription) -> Vec<ChargeChange> {
    after
        .transactions()
        .into_iter()
        .filter_map(|charge| {
            let old = before.transactions().into_iter().find(|t| t.galax_pay_id == charge.galax_pay_id);
            let from = old.map(|t| t.status.code().to_owned());
            (from.as_deref() != Some(charge.status.code())).then(|| ChargeChange {
                galax_pay_id: charge.galax_pay_id,
                installment: charge.installment,
                value: money(charge.value_cents),
                from,
                to: charge.status.code().to_owned(),
            })
        })
        .collect()
}

/// What changed between two states of a subscription, its charges' statuses included.
fn changes(before: &Subscription, after: &Subscription, charges: &[ChargeChange]) -> Vec<Change> {
    let status = |s: &Subscription| json!(s.status().map(|s| s.code()));
    let contract = |s: &Subscription| json!(s.details().map(|_| s.contract_status().code()));
    let amount = |cents: i64| json!(money(cents));
    let mut list: Vec<Change> = [
        change("Status".into(), status(before), status(after)),
        change("InternalStatus".into(), contract(before), contract(after)),
        change("AmountReceived".into(), amount(before.received_cents()), amount(after.received_cents())),
        change("AmountToReceive".into(), amount(before.to_receive_cents()), amount(after.to_receive_cents())),
    ]
    .into_iter()
    .flatten()
    .collect();
    for charge in charges {
        let field = format!("Transaction {} (parcela {})", charge.galax_pay_id, charge.installment);
        list.extend(change(field, json!(charge.from), json!(charge.to)));
    }
    list
}

#[utoipa::path(
    get,
    path = "/subscription-user/{id}/timeline",
    tag = "Club",
    summary = "Every change of a subscription: when, why (webhook, reconciliation, checkout, cancellation, or staff and who) and what changed",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 200, description = "Every event of the subscription, oldest first, with the state after it", body = Vec<TimelineEntry>),
        refused::Forbidden,
        (status = 404, description = "Unknown subscription", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn timeline(
    State(state): State<AppState>,
    auth: Auth<SubscriberStaff>,
    PathParam(id): PathParam<i64>,
) -> Result<Json<Vec<TimelineEntry>>, ApiError> {
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_subscription_in_reach(&mut tx, &auth, id).await?;
    let rows = stream(&mut tx, id, None).await?;
    if rows.is_empty() {
        return Err(ApiError::NotFound(MSG_SUBSCRIPTION_NOT_FOUND.to_owned()));
    }
    let mut subscription = Subscription::default();
    let mut entries = Vec::with_capacity(rows.len());
    for EventRow { sequence, recorded_at, payload: event, metadata } in rows {
        let text = |key: &str| metadata[key].as_str().map(str::to_owned);
        let staff = || {
            Some(TimelineSource::Staff(StaffSource {
                user_id: text("user_id").and_then(|id| id.parse::<i64>().ok()),
                user_name: text("user_name"),
                role: text("role"),
            }))
        };
        let (event_name, reason, source) = match &event {
            SubscriptionEvent::SubscriptionCreated(_) => ("SubscriptionCreated", "checkout", None),
            SubscriptionEvent::FirstChargeDenied { .. } => ("FirstChargeDenied", "checkout", None),
            // Staff cancel; the checkout cancels on its own when the first card charge is denied.
            SubscriptionEvent::CancellationRequested if metadata.get("user_id").is_some() => {
                ("CancellationRequested", "staff", staff())
            }
            SubscriptionEvent::CancellationRequested => ("CancellationRequested", "checkout", None),
            SubscriptionEvent::ReminderSent => ("ReminderSent", "staff", staff()),
            SubscriptionEvent::ProviderReported { source, .. } => match source {
                ReportSource::Webhook { webhook_id, event } => (
                    "ProviderReported",
                    "webhook",
                    Some(TimelineSource::Webhook(WebhookSource {
                        webhook_id: *webhook_id,
                        webhook_event: event.clone(),
                    })),
                ),
                ReportSource::Reconciliation => ("ProviderReported", "reconciliation", None),
                ReportSource::OnDemand => ("ProviderReported", "staff", staff()),
                ReportSource::Checkout => ("ProviderReported", "checkout", None),
                ReportSource::Cancellation => ("ProviderReported", "cancellation", None),
            },
        };
        let before = subscription.clone();
        subscription.apply(event);
        let charges = charge_changes(&before, &subscription);
        entries.push(TimelineEntry {
            sequence,
            at: recorded_at,
            event: event_name.to_owned(),
            reason: reason.to_owned(),
            source,
            user_name: text("user_name"),
            changes: changes(&before, &subscription, &charges),
            charges,
            internal_status: subscription.contract_status().code().to_owned(),
            status: subscription.status().map(|s| s.code().to_owned()),
            amount_received: money(subscription.received_cents()),
            amount_to_receive: money(subscription.to_receive_cents()),
        });
    }
    Ok(Json(entries))
}
