//! Products (issues 41 and 43): `GET product?page&pageSize&search&status` and
//! `GET product/{id}`, for the product list, the form and the comanda's picker (every role
//! reads them: they are the business's); and their stock, per unit (ADMIN and ATTENDANT of
//! the unit): `GET stock?idCompany[&asOf]`, low stock first, as it is or as it stood at an
//! instant, and `GET product/{id}/movements`, who moved what, when and why.

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{DateTime, Utc};
use navalha_domain::money::{proportion, reais};
use navalha_platform::auth::{AdminOrAttendant, Auth};
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::as_of::optional_as_of;
use crate::consistency::ReadAfter;
use crate::list_arguments;
use crate::paging::{page_of, ListFilter, ListQuery, Page, PageRequest};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(filter))
        .routes(routes!(one))
        .routes(routes!(stock))
        .routes(routes!(movements))
}

/// A product.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ProductItem {
    id_product: i64,
    name: String,
    /// Reais per unit.
    price: f64,
    /// Sold, or not any more.
    active: bool,
    brand: Option<String>,
    /// EAN/GTIN digits.
    barcode: Option<String>,
    category: Option<String>,
    /// Reais per unit of measure, as registered.
    cost: Option<f64>,
    /// How it is counted: `un`, `ml` or `g`.
    unit: String,
    /// The least each unit should keep.
    #[schema(value_type = Vec<MinimumItem>)]
    minimums: sqlx::types::Json<Vec<MinimumItem>>,
    /// Where its photo is served, if it has one.
    url_image: Option<String>,
    /// The catalogue services that use it each time they are done.
    #[schema(value_type = Vec<UsedByItem>)]
    used_by: sqlx::types::Json<Vec<UsedByItem>>,
}

/// How much of a product a catalogue service uses each time.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct UsedByItem {
    id_service: i64,
    quantity: i64,
}

/// The least a unit should keep of a product.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct MinimumItem {
    id_company: i64,
    minimum: i64,
}

const COLUMNS: &str = "product_id as id_product, name, price_cents::float8 / 100 as price, active,
    case when image = '' then null else '/api/media/gallery/' || image end as url_image,
    nullif(brand, '') as brand, nullif(barcode, '') as barcode, nullif(category, '') as category,
    case when cost_cents < 0 then null else cost_cents::float8 / 100 end as cost, unit,
    (select coalesce(json_agg(json_build_object('IdCompany', (m ->> 'company_id')::bigint,
                                                 'Minimum', (m ->> 'minimum')::bigint)), '[]')
       from json_array_elements(minimums) m) as minimums,
    (select coalesce(json_agg(json_build_object('IdService', u.service_id, 'Quantity', u.quantity)
                              order by u.service_id), '[]')
       from rm_product.service_use u
      where u.product_id = rm_product.product.product_id and u.quantity > 0) as used_by";

#[utoipa::path(
    get,
    path = "/product",
    tag = "Products",
    summary = "The business's products by name, paged; `status` 1 sold, 2 not any more",
    params(ListFilter, ReadAfter),
    responses((status = 200, description = "A page", body = Page<ProductItem>)),
    security(("bearer" = [])),
)]
async fn filter(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<ListFilter>,
) -> Result<(HeaderMap, Json<Page<ProductItem>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::PRODUCT).await?;
    let Some(active) = filter.status()?.active_flag() else {
        return Ok((consistency.headers(), Json(Page::empty())));
    };
    let query = ListQuery {
        columns: COLUMNS,
        from: "rm_product.product",
        condition: "($1::boolean is null or active = $1)
            and ($2::text is null or lower(public.unaccent(name)) like lower(public.unaccent($2)))",
        order: "lower(public.unaccent(name)), product_id",
    };
    let mut tx = scope::of(&state.pool, &auth).await?;
    let arguments = list_arguments![active, filter.pattern()];
    let page = page_of(&mut tx, &query, arguments, filter.limit_offset()?).await?;
    Ok((consistency.headers(), Json(page)))
}

#[utoipa::path(
    get,
    path = "/product/{id}",
    tag = "Products",
    summary = "A product",
    params(("id" = i64, Path), ReadAfter),
    responses((status = 200, description = "The product", body = ProductItem), refused::NotFound),
    security(("bearer" = [])),
)]
async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<ProductItem>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::PRODUCT).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let product: Option<ProductItem> =
        sqlx::query_as(&format!("select {COLUMNS} from rm_product.product where product_id = $1"))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let product =
        product.ok_or_else(|| ApiError::NotFound(navalha_domain::product::MSG_NOT_FOUND.to_owned()))?;
    Ok((consistency.headers(), Json(product)))
}

/// `?idCompany[&asOf]`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct StockQuery {
    /// The unit.
    id_company: i64,
    /// An instant (or a day, its end): the stock as it stood then, from the movements.
    as_of: Option<String>,
}

/// A unit's stock.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StockAnswer {
    id_company: i64,
    /// With `asOf`: the instant it stood so.
    as_of: Option<DateTime<Utc>>,
    /// Whether the unit sells more than it holds.
    allows_negative: bool,
    /// Reais at cost of everything held.
    total_value: f64,
    /// Below their minimum first, then by name.
    items: Vec<StockRow>,
}

/// What a unit holds of a product.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StockRow {
    id_product: i64,
    name: String,
    brand: Option<String>,
    category: Option<String>,
    unit: String,
    /// Below zero where the unit sells more than it holds.
    quantity: i64,
    /// The unit's minimum, if it keeps one.
    minimum: Option<i64>,
    /// Below its minimum: to reorder.
    low: bool,
    /// Reais at cost (moving weighted average).
    value: f64,
    /// Reais per unit of measure; none with nothing on hand.
    average_cost: Option<f64>,
    active: bool,
}

#[derive(sqlx::FromRow)]
struct StockLine {
    id_product: i64,
    name: String,
    brand: Option<String>,
    category: Option<String>,
    unit: String,
    quantity: i64,
    minimum: Option<i64>,
    value_cents: i64,
    active: bool,
}

/// Products with stock or still sold, at the unit, now (`stock_level`) or as the last
/// movement before `$2` left them.
const STOCK: &str = "
    select p.product_id as id_product, p.name, nullif(p.brand, '') as brand, nullif(p.category, '') as category,
           p.unit, coalesce(l.quantity, 0) as quantity, m.minimum, coalesce(l.value_cents, 0) as value_cents, p.active
      from rm_product.product p
      left join lateral (
               select quantity, value_cents from rm_product.stock_level
                where $2::timestamptz is null and product_id = p.product_id and company_id = $1
               union all
               (select quantity_after, value_after from rm_product.stock_movement
                 where $2::timestamptz is not null and product_id = p.product_id and company_id = $1 and at <= $2
                 order by global_position desc, line desc
                 limit 1)
           ) l on true
      left join lateral (
               select (e ->> 'minimum')::bigint as minimum from json_array_elements(p.minimums) e
                where (e ->> 'company_id')::bigint = $1
           ) m on true
     where case when $2::timestamptz is null then p.active or coalesce(l.quantity, 0) <> 0
                else l.quantity is not null end
     order by coalesce(l.quantity, 0) < coalesce(m.minimum, 0) desc, lower(public.unaccent(p.name)), p.product_id";

#[utoipa::path(
    get,
    path = "/stock",
    tag = "Products",
    summary = "A unit's stock: each product's count and value at cost, below the minimum first; with asOf, as it stood then (ADMIN, ATTENDANT of the unit)",
    params(StockQuery, ReadAfter),
    responses(
        (status = 200, description = "The stock", body = StockAnswer),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn stock(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    read_after: ReadAfter,
    QueryParams(query): QueryParams<StockQuery>,
) -> Result<(HeaderMap, Json<StockAnswer>), ApiError> {
    if !auth.belongs_to(query.id_company) {
        return Err(ApiError::NotFound(navalha_domain::company::MSG_NOT_FOUND.to_owned()));
    }
    let as_of = optional_as_of(query.as_of.as_deref())?;
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PRODUCT, &read_models::COMPANY]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let lines: Vec<StockLine> =
        sqlx::query_as(STOCK).bind(query.id_company).bind(as_of).fetch_all(&mut *tx).await?;
    let allows_negative: Option<bool> = sqlx::query_scalar(
        "select coalesce((profile ->> 'allow_negative_stock')::boolean, false)
           from rm_company.company where company_id = $1",
    )
    .bind(query.id_company)
    .fetch_optional(&mut *tx)
    .await?;
    let total_cents: i64 = lines.iter().map(|line| line.value_cents).sum();
    let items = lines
        .into_iter()
        .map(|line| StockRow {
            low: line.minimum.is_some_and(|minimum| line.quantity < minimum),
            average_cost: (line.quantity > 0).then(|| reais(proportion(line.value_cents, 1, line.quantity))),
            value: reais(line.value_cents),
            id_product: line.id_product,
            name: line.name,
            brand: line.brand,
            category: line.category,
            unit: line.unit,
            quantity: line.quantity,
            minimum: line.minimum,
            active: line.active,
        })
        .collect();
    let answer = StockAnswer {
        id_company: query.id_company,
        as_of,
        allows_negative: allows_negative.unwrap_or(false),
        total_value: reais(total_cents),
        items,
    };
    Ok((consistency.headers(), Json(answer)))
}

/// `?page&pageSize[&idCompany]`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct MovementFilter {
    page: Option<i64>,
    page_size: Option<i64>,
    /// One of the caller's units; absent, all of them.
    id_company: Option<i64>,
}

/// One change of a product's count at a unit.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct MovementItem {
    /// `entrada`, `venda`, `uso_interno`, `ajuste` or `transferencia`.
    kind: String,
    /// When it was recorded.
    at: DateTime<Utc>,
    id_company: i64,
    company_name: String,
    /// Signed: what came in is positive (a reopened comanda's sale comes back).
    quantity: i64,
    /// The unit's count after it.
    quantity_after: i64,
    /// Signed reais at cost.
    value: f64,
    /// An entrada's reais per unit.
    unit_cost: Option<f64>,
    supplier: Option<String>,
    reason: Option<String>,
    /// A sale's comanda.
    id_comanda: Option<i64>,
    /// A transfer's other unit.
    id_company_other: Option<i64>,
    other_company_name: Option<String>,
    /// Who recorded it (the seed's reason for the demo's).
    user_name: String,
}

#[utoipa::path(
    get,
    path = "/product/{id}/movements",
    tag = "Products",
    summary = "A product's stock movements at the caller's units, newest first, paged (ADMIN, ATTENDANT)",
    params(("id" = i64, Path), MovementFilter, ReadAfter),
    responses(
        (status = 200, description = "A page", body = Page<MovementItem>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn movements(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
    QueryParams(filter): QueryParams<MovementFilter>,
) -> Result<(HeaderMap, Json<Page<MovementItem>>), ApiError> {
    let limits = PageRequest { page: filter.page, page_size: filter.page_size }.limit_offset()?;
    let units: Vec<i64> = match filter.id_company {
        Some(unit) if !auth.belongs_to(unit) => {
            return Err(ApiError::NotFound(navalha_domain::company::MSG_NOT_FOUND.to_owned()))
        }
        Some(unit) => vec![unit],
        None => auth.companies.clone(),
    };
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::PRODUCT, &read_models::COMPANY]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let known: Option<i64> =
        sqlx::query_scalar("select product_id from rm_product.product where product_id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    if known.is_none() {
        return Err(ApiError::NotFound(navalha_domain::product::MSG_NOT_FOUND.to_owned()));
    }
    let query = ListQuery {
        columns: "s.kind, s.at, s.company_id as id_company, coalesce(c.name, '') as company_name,
                  s.quantity, s.quantity_after, s.value_cents::float8 / 100 as value,
                  case when s.kind = 'entrada' then s.unit_cost_cents::float8 / 100 end as unit_cost,
                  nullif(s.supplier, '') as supplier,
                  coalesce(nullif(s.reason, ''), 'Usado em ' || u.description) as reason,
                  nullif(s.comanda_id, 0) as id_comanda, nullif(s.other_company_id, 0) as id_company_other,
                  o.name as other_company_name, coalesce(e.metadata ->> 'user_name', '') as user_name",
        from: "rm_product.stock_movement s
               left join rm_company.company c on c.company_id = s.company_id
               left join rm_company.company o on o.company_id = s.other_company_id
               left join rm_professional.catalogue_service u on u.service_id = s.service_id
               left join public.events e on e.aggregate_type = s.aggregate_type
                                        and e.aggregate_id = s.aggregate_id and e.sequence = s.sequence",
        condition: "s.product_id = $1 and s.company_id = any($2)",
        order: "s.global_position desc, s.line desc",
    };
    let page = page_of(&mut tx, &query, list_arguments![id, &units], limits).await?;
    Ok((consistency.headers(), Json(page)))
}
