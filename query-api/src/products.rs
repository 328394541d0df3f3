//! Products (issue 41): `GET product?page&pageSize&search&status` and `GET product/{id}`, for
//! the product list and the comanda's picker. Every role reads them: they are the business's.

use axum::extract::State;
use axum::http::HeaderMap;
use navalha_platform::auth::Auth;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::ReadAfter;
use crate::list_arguments;
use crate::paging::{page_of, ListFilter, ListQuery, Page};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(filter)).routes(routes!(one))
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
}

const COLUMNS: &str = "product_id as id_product, name, price_cents::float8 / 100 as price, active";

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
