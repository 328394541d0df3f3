//! Products (issues 41 and 43): `POST product` and `PUT product/{id}`, what a comanda sells
//! from, and `POST product/{id}/movements`, the stock movements recorded by hand. ADMIN edits
//! products and records every movement; an ATTENDANT records 'Entrada' and 'Uso interno' at
//! their units. Every role reads them (query-api).

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::company::Company;
use navalha_domain::product::{Product, ProductCommand, ProductDetails, ProductError, ProductForm};
use navalha_domain::role::Role;
use navalha_domain::service::{ProductUse, Service, ServiceCommand, ServiceError};
use navalha_domain::stock::{StockMovement, StockMovementForm};
use navalha_platform::auth::{AdminOnly, AdminOrAttendant, Auth, Principal};
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdProduct;
use navalha_platform::ApiError;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::commands::{
    execute_new, execute_on, invalid, load, load_stream, metadata_of, next_id, position_headers, DomainError,
};
use crate::gallery::{image_part, store, MAX_IMAGE_BYTES};
use crate::idempotency;
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(change))
        .routes(routes!(move_stock))
        .routes(routes!(set_use))
        .routes(routes!(set_image).layer(DefaultBodyLimit::max(MAX_IMAGE_BYTES + 1024 * 1024)))
        .routes(routes!(remove_image))
}

/// A unit named on a product's form or movement that is not one of the caller's.
pub const MSG_UNKNOWN_UNIT: &str = "Unidade não encontrada.";

/// The form's details, with each unit of its minimums one of the caller's.
fn validated(form: &ProductForm, principal: &Principal) -> Result<ProductDetails, ApiError> {
    let details = form.validate().map_err(invalid)?;
    if details.minimums.iter().any(|minimum| !principal.belongs_to(minimum.company_id)) {
        return Err(ApiError::field("minimums", MSG_UNKNOWN_UNIT));
    }
    Ok(details)
}

impl DomainError for ServiceError {
    fn to_api(&self) -> ApiError {
        match self {
            ServiceError::AlreadyCreated => ApiError::Conflict(self.to_string()),
            ServiceError::NotFound => ApiError::NotFound(self.to_string()),
            ServiceError::BadQuantity => ApiError::field("quantity", &self.to_string()),
        }
    }
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
    let details = validated(&form, &auth)?;
    let id = next_id(&state.pool, "product_id_seq").await?;
    let answer = IdProduct { id_product: id };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let position =
        execute_new::<Product>(&state.events, &id.to_string(), ProductCommand::Create(details), &metadata)
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
    let mut details = validated(&form, &auth)?;
    let read = load_stream::<Product>(&state.events, auth.business_id, &id.to_string()).await?;
    if let Some(current) = read.aggregate.details() {
        // The photo is changed on its own call; the form keeps it. So are the minimums of
        // units the caller does not belong to, which the form could not show.
        details.image = current.image.clone();
        let others = current.minimums.iter().filter(|minimum| !auth.belongs_to(minimum.company_id));
        details.minimums.extend(others.cloned());
        details.minimums.sort_by_key(|minimum| minimum.company_id);
    }
    let written = execute_on::<Product>(
        &state.events,
        &id.to_string(),
        read,
        ProductCommand::Change(details),
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(written.position), Json(IdProduct { id_product: id })))
}

/// A product's photo, as the list and the comanda's picker show it.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ProductImage {
    id_product: i64,
    /// Where the photo is served; none after a removal.
    url_image: Option<String>,
}

#[utoipa::path(
    post,
    path = "/product/{id}/image",
    tag = "Products",
    summary = "Set a product's photo (ADMIN): a multipart `file`, JPEG, PNG or WebP of at most 5 MB, as the plan's image",
    params(("id" = i64, Path)),
    request_body(content = Object, content_type = "multipart/form-data", description = "`file`: the photo"),
    responses(
        (status = 200, description = "Saved", body = ProductImage),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, product_id = id))]
async fn set_image(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    navalha_platform::http::Multipart(mut multipart): navalha_platform::http::Multipart,
) -> Result<(HeaderMap, Json<ProductImage>), ApiError> {
    let read = load_stream::<Product>(&state.events, auth.business_id, &id.to_string()).await?;
    // Another business's product is unknown here, before its body is read.
    read.aggregate.details().ok_or(ProductError::NotFound).map_err(|e| e.to_api())?;
    let mut image = None;
    while let Some(mut field) =
        multipart.next_field().await.map_err(|e| ApiError::BadRequest(format!("Envio inválido: {e}")))?
    {
        if field.name() == Some("file") {
            image = image_part(&mut field, "file").await?;
        }
    }
    let (bytes, extension) = image.ok_or_else(|| ApiError::field("file", "Escolha a foto do produto."))?;
    let file = store(&state.settings.media_dir.join("gallery"), &bytes, extension).await?;
    photo(&state, &auth, &origin, (id, read), Some(file)).await
}

#[utoipa::path(
    delete,
    path = "/product/{id}/image",
    tag = "Products",
    summary = "Remove a product's photo (ADMIN)",
    params(("id" = i64, Path)),
    responses((status = 200, description = "Removed", body = ProductImage), refused::Forbidden, refused::NotFound),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, product_id = id))]
async fn remove_image(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<ProductImage>), ApiError> {
    let read = load_stream::<Product>(&state.events, auth.business_id, &id.to_string()).await?;
    photo(&state, &auth, &origin, (id, read), None).await
}

/// The product with this photo (`None`: none), as a change of its details.
async fn photo(
    state: &AppState,
    principal: &Principal,
    origin: &RequestOrigin,
    (id, read): (i64, navalha_event_store::log::Stream<Product>),
    image: Option<String>,
) -> Result<(HeaderMap, Json<ProductImage>), ApiError> {
    let mut details =
        read.aggregate.details().cloned().ok_or(ProductError::NotFound).map_err(|e| e.to_api())?;
    details.image = image;
    let url_image = details.image.as_ref().map(|file| format!("/api/media/gallery/{file}"));
    let written = execute_on::<Product>(
        &state.events,
        &id.to_string(),
        read,
        ProductCommand::Change(details),
        &metadata_of(principal, origin),
    )
    .await?;
    Ok((position_headers(written.position), Json(ProductImage { id_product: id, url_image })))
}

/// What a movement left at its unit.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct StockMoved {
    id_product: i64,
    id_company: i64,
    /// The unit's count as this movement left it.
    quantity: i64,
}

#[utoipa::path(
    post,
    path = "/product/{id}/movements",
    tag = "Products",
    summary = "Record a stock movement: `entrada`, `uso_interno`, `ajuste` (the quantity counted) or `transferencia` (ADMIN; an ATTENDANT, entrada and uso_interno at their units). 'venda' comes only from a comanda's close",
    params(("id" = i64, Path)),
    request_body = StockMovementForm,
    responses(
        (status = 201, description = "Recorded", body = StockMoved, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Malformed,
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Another sale took what was left meanwhile", body = navalha_platform::error::ErrorBody),
        (status = 422, description = "Validation, a unit that is not the caller's, or more than the unit holds where it may not go below zero", body = navalha_platform::error::ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, product_id = id))]
async fn move_stock(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<StockMovementForm>,
) -> Result<(StatusCode, HeaderMap, Json<StockMoved>), ApiError> {
    // Another business's product answers 404 before its form is read.
    let read = load_stream::<Product>(&state.events, auth.business_id, &id.to_string()).await?;
    let unit = read.aggregate.details().ok_or(ProductError::NotFound).map_err(|e| e.to_api())?.unit;
    let movement = form.validate().map_err(invalid)?;
    if auth.role == Role::Attendant
        && matches!(movement, StockMovement::Count { .. } | StockMovement::Transfer { .. })
    {
        return Err(ApiError::Forbidden);
    }
    let company_id = movement.company_id();
    if !auth.belongs_to(company_id) {
        return Err(ApiError::field("idCompany", MSG_UNKNOWN_UNIT));
    }
    if let StockMovement::Transfer { to_company_id, .. } = movement {
        if !auth.belongs_to(to_company_id) {
            return Err(ApiError::field("idCompanyTo", MSG_UNKNOWN_UNIT));
        }
    }
    let company: Company = load(&state.events, auth.business_id, &company_id.to_string()).await?;
    let allow_negative = company.profile().is_some_and(|profile| profile.allow_negative_stock);
    let on_hand = on_hand(&state.pool, auth.business_id, id, company_id).await?;
    let stock_moves = movement.moves(id, on_hand, allow_negative, unit).map_err(invalid)?;
    let left =
        on_hand + stock_moves.iter().filter(|m| m.company_id == company_id).map(|m| m.quantity).sum::<i64>();
    let answer = StockMoved { id_product: id, id_company: company_id, quantity: left };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let written = execute_on::<Product>(
        &state.events,
        &id.to_string(),
        read,
        ProductCommand::MoveStock { movement, stock_moves },
        &metadata,
    )
    .await?;
    Ok((StatusCode::CREATED, position_headers(written.position), Json(answer)))
}

/// What a unit holds of a product now, as the appends keep it (`stock_count`).
pub async fn on_hand(
    pool: &sqlx::PgPool,
    business_id: i64,
    product_id: i64,
    company_id: i64,
) -> Result<i64, ApiError> {
    let quantity: Option<i64> = sqlx::query_scalar(
        "select quantity from stock_count where business_id = $1 and product_id = $2 and company_id = $3",
    )
    .bind(business_id)
    .bind(product_id)
    .bind(company_id)
    .fetch_optional(pool)
    .await?;
    Ok(quantity.unwrap_or(0))
}

/// `{quantity}`: how much of the product the service uses each time, in its unit of measure.
#[derive(Debug, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ProductUseForm {
    /// 0 to 100.000; 0: none any more.
    quantity: Option<i64>,
}

/// The service's answer: what it uses now.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ServiceUses {
    id_service: i64,
    uses: Vec<ProductUseItem>,
}

/// How much of a product a service uses each time.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ProductUseItem {
    id_product: i64,
    quantity: i64,
}

#[utoipa::path(
    put,
    path = "/service/{id}/products/{idProduct}",
    tag = "Products",
    summary = "How much of a product a catalogue service uses each time it is done (0: none); closing a comanda takes it from the unit's stock (ADMIN)",
    params(("id" = i64, Path), ("idProduct" = i64, Path)),
    request_body = ProductUseForm,
    responses(
        (status = 200, description = "Saved", body = ServiceUses, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, service_id = id, product_id))]
async fn set_use(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam((id, product_id)): PathParam<(i64, i64)>,
    Json(form): Json<ProductUseForm>,
) -> Result<(HeaderMap, Json<ServiceUses>), ApiError> {
    let product: Product = load(&state.events, auth.business_id, &product_id.to_string()).await?;
    product.details().ok_or(ProductError::NotFound).map_err(|e| e.to_api())?;
    let read = load_stream::<Service>(&state.events, auth.business_id, &id.to_string()).await?;
    let quantity = form.quantity.ok_or_else(|| ApiError::field("quantity", "Informe a quantidade usada."))?;
    let written = execute_on::<Service>(
        &state.events,
        &id.to_string(),
        read,
        ServiceCommand::SetProductUse(ProductUse { product_id, quantity }),
        &metadata_of(&auth, &origin),
    )
    .await?;
    let uses = written
        .aggregate
        .uses()
        .iter()
        .map(|used| ProductUseItem { id_product: used.product_id, quantity: used.quantity })
        .collect();
    Ok((position_headers(written.position), Json(ServiceUses { id_service: id, uses })))
}
