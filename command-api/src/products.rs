//! Products (issue 41): `POST product` and `PUT product/{id}`, the plain list a comanda sells
//! from. ADMIN edits it; every role reads it (query-api).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::product::{Product, ProductCommand, ProductError, ProductForm};
use navalha_platform::auth::{AdminOnly, Auth};
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdProduct;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{execute, invalid, metadata_of, next_id, position_headers, DomainError};
use crate::idempotency;
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create)).routes(routes!(change))
}

impl DomainError for ProductError {
    fn to_api(&self) -> ApiError {
        match self {
            ProductError::AlreadyCreated => ApiError::Conflict(self.to_string()),
            ProductError::NotFound => ApiError::NotFound(self.to_string()),
        }
    }
}

#[utoipa::path(
    post,
    path = "/product",
    tag = "Products",
    summary = "Add a product the shop sells (ADMIN)",
    request_body = ProductForm,
    responses(
        (status = 201, description = "Created", body = IdProduct, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Malformed,
        refused::Forbidden,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn create(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(form): Json<ProductForm>,
) -> Result<(StatusCode, HeaderMap, Json<IdProduct>), ApiError> {
    let details = form.validate().map_err(invalid)?;
    let id = next_id(&state.pool, "product_id_seq").await?;
    let answer = IdProduct { id_product: id };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let position =
        execute::<Product>(&state.events, &id.to_string(), ProductCommand::Create(details), &metadata)
            .await?;
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

#[utoipa::path(
    put,
    path = "/product/{id}",
    tag = "Products",
    summary = "Change a product: name, price, or whether it is sold (ADMIN); comandas keep the price they were given",
    params(("id" = i64, Path)),
    request_body = ProductForm,
    responses(
        (status = 200, description = "Saved", body = IdProduct, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, product_id = id))]
async fn change(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<ProductForm>,
) -> Result<(HeaderMap, Json<IdProduct>), ApiError> {
    let details = form.validate().map_err(invalid)?;
    let position = execute::<Product>(
        &state.events,
        &id.to_string(),
        ProductCommand::Change(details),
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(IdProduct { id_product: id })))
}
