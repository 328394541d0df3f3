//! Plans: `POST subscription-details`, `PUT subscription-details/{id}` (multipart), and
//! plan services: `POST subscription-service/`, `PUT subscription-service/{id}`,
//! `DELETE subscription-service/{id}` (spec 02 §7). ADMIN only (spec 02 §6).
//!
//! The multipart body carries the form's fields as text parts, `companies` and
//! `partnerCompanies` as JSON lists (`[{"idCompany": 1, "idSubscriptionDetail": 3}]`; bare
//! ids are accepted too), `prices` as a JSON list of the other payment methods' prices
//! (`[{"paymentMethod": "boleto", "value": "79.90"}]`), an optional `file` (the advertising image: JPEG, PNG or WebP, at
//! most 5 MB, stored like the gallery's) and `excludeFile` (`true` removes the image).
//! `POST` takes an `Idempotency-Key`: a retry with the same key and body answers the first
//! plan's id and creates nothing.

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, State};
use axum::http::{header, Extensions, HeaderMap, StatusCode};
use axum::routing::post;
use navalha_domain::metadata::EventMetadata;
use navalha_domain::partner_company::PartnerCompany;
use navalha_domain::plan::{
    Plan, PlanCommand, PlanDetails, PlanForm, PlanService, PlanServiceForm, MSG_COMPANY_REQUIRED,
    MSG_NOT_FOUND, MSG_SERVICE_NOT_FOUND, MSG_TERMS_AT_PROVIDER, MSG_UNKNOWN_COMPANY, MSG_UNKNOWN_PARTNER,
    MSG_UNKNOWN_SERVICE, PLAN_SERVICE_SCOPE,
};
use navalha_domain::service::Service;
use navalha_domain::validation::FieldErrors;
use navalha_platform::auth::{AdminOnly, Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::position::Position;
use navalha_platform::refused;
use navalha_platform::written::{IdSubscriptionDetail, IdSubscriptionService};
use navalha_platform::ApiError;
use serde_json::Value;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::commands::{
    claim_holder, execute, execute_claiming, invalid, load, metadata_of, next_id, position_headers, Claim,
};
use crate::companies::{visible_company, within_own_units, writable_across_units, MSG_NOT_EVERY_COMPANY};
use crate::gallery::{image_part, store, MAX_IMAGE_BYTES};
use crate::idempotency;
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    let limit = DefaultBodyLimit::max(MAX_IMAGE_BYTES + 1024 * 1024);
    OpenApiRouter::new()
        .routes(routes!(create).layer(limit))
        .routes(routes!(change).layer(limit))
        .routes(routes!(add_service))
        .route("/subscription-service/", post(add_service))
        .routes(routes!(change_service, remove_service))
}

fn bad(error: impl std::fmt::Display) -> ApiError {
    ApiError::BadRequest(format!("Envio inválido: {error}"))
}

/// Reads `[{"idCompany": 1}, ...]`, `[1, 2]` or an empty text into ids.
fn ids(text: &str, key: &str, field: &str) -> Result<Vec<i64>, ApiError> {
    let text = text.trim();
    if text.is_empty() || text == "null" || text == "undefined" {
        return Ok(Vec::new());
    }
    let list: Vec<Value> = serde_json::from_str(text)
        .map_err(|_| ApiError::field(field, &format!("{field} deve ser uma lista JSON.")))?;
    list.iter()
        .map(|item| {
            item.as_i64()
                .or_else(|| item[key].as_i64())
                .or_else(|| item[key].as_str().and_then(|s| s.parse().ok()))
                .ok_or_else(|| ApiError::field(field, &format!("{field} deve ser uma lista JSON.")))
        })
        .collect()
}

/// Reads `[{"paymentMethod": "boleto", "value": "79.90"}]` (value as text or number) into
/// `(method, value)` texts for the form's rules; an empty text is no other method.
fn method_prices(text: &str) -> Result<Vec<(String, String)>, ApiError> {
    let text = text.trim();
    if text.is_empty() || text == "null" || text == "undefined" {
        return Ok(Vec::new());
    }
    let refused = || ApiError::field("prices", "prices deve ser uma lista JSON.");
    let list: Vec<Value> = serde_json::from_str(text).map_err(|_| refused())?;
    list.iter()
        .map(|item| {
            let method = item["paymentMethod"].as_str().ok_or_else(refused)?;
            let value = match &item["value"] {
                Value::String(value) => value.clone(),
                Value::Number(value) => value.to_string(),
                _ => String::new(),
            };
            Ok((method.to_owned(), value))
        })
        .collect()
}

/// The plan form's multipart parts, as documented (read by [`read_body`]).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct PlanMultipart {
    /// Advertising image: JPEG, PNG or WebP, at most 5 MB.
    #[schema(format = Binary, value_type = Option<String>)]
    file: (),
    /// `true` removes the current image.
    exclude_file: Option<String>,
    #[schema(max_length = 60)]
    plan_name: String,
    #[schema(max_length = 150)]
    description: Option<String>,
    /// BRL, `89.90` or `89,90`.
    #[schema(max_length = 10)]
    value: String,
    /// `1` active, `0` inactive.
    status: Option<String>,
    /// 0 to 100.
    discount: Option<String>,
    #[schema(format = Date)]
    advertising_start: Option<String>,
    #[schema(format = Date)]
    advertising_end: Option<String>,
    #[schema(format = Date)]
    validity_start: Option<String>,
    #[schema(format = Date)]
    validity_end: Option<String>,
    /// `true` or `false`.
    all_companies: Option<String>,
    /// JSON list of `{idCompany, idSubscriptionDetail}`.
    companies: Option<String>,
    /// JSON list of `{idPartnerCompany, idSubscriptionDetail}`.
    partner_companies: Option<String>,
    /// `weekly`, `biweekly`, `monthly`, `bimonthly`, `quarterly`, `biannual` or `yearly`.
    periodicity: String,
    /// 0 to 100 charges, 0 = infinite.
    quantity: Option<String>,
    items_detail: Option<String>,
    /// `creditcard` or `boleto`.
    payment_method: String,
    /// Days from subscribing to the first boleto's due date, 1 to 30 (3 when absent); a
    /// card is charged on the day of subscribing.
    first_due_days: Option<String>,
}

/// The form, the new image (bytes and extension) and `excludeFile`.
struct Body {
    form: PlanForm,
    file: Option<(Vec<u8>, &'static str)>,
    exclude_file: bool,
}

async fn read_body(mut multipart: Multipart) -> Result<Body, ApiError> {
    let mut form = PlanForm::default();
    let mut file = None;
    let mut exclude_file = false;
    while let Some(mut field) = multipart.next_field().await.map_err(bad)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            if let Some(image) = image_part(&mut field, "file").await? {
                file = Some(image);
            }
            continue;
        }
        let text = field.text().await.map_err(bad)?;
        let slot = match name.as_str() {
            "description" => &mut form.description,
            "value" => &mut form.value,
            "status" => &mut form.status,
            "discount" => &mut form.discount,
            "advertisingStart" => &mut form.advertising_start,
            "advertisingEnd" => &mut form.advertising_end,
            "validityStart" => &mut form.validity_start,
            "validityEnd" => &mut form.validity_end,
            "allCompanies" => &mut form.all_companies,
            "planName" => &mut form.plan_name,
            "periodicity" => &mut form.periodicity,
            "quantity" => &mut form.quantity,
            "itemsDetail" => &mut form.items_detail,
            "paymentMethod" => &mut form.payment_method,
            "firstDueDays" => &mut form.first_due_days,
            "companies" => {
                form.company_ids = ids(&text, "idCompany", "companies")?;
                continue;
            }
            "partnerCompanies" => {
                form.partner_company_ids = ids(&text, "idPartnerCompany", "partnerCompanies")?;
                continue;
            }
            "prices" => {
                form.other_prices = method_prices(&text)?;
                continue;
            }
            "excludeFile" => {
                exclude_file = matches!(text.trim(), "true" | "1");
                continue;
            }
            _ => continue,
        };
        *slot = Some(text);
    }
    Ok(Body { form, file, exclude_file })
}

/// Validates the form, checks the units exist and are the admin's and the partners exist,
/// and stores a new image.
async fn checked(
    state: &AppState,
    principal: &Principal,
    body: Body,
    current_image: Option<String>,
) -> Result<PlanDetails, ApiError> {
    let image = if body.exclude_file { None } else { current_image };
    let mut details = body.form.validate(image).map_err(invalid)?;
    for company_id in &details.company_ids {
        if visible_company(state, principal, *company_id).await.is_err() {
            return Err(ApiError::field("companies", MSG_UNKNOWN_COMPANY));
        }
    }
    if !within_own_units(state, principal, details.all_companies, &details.company_ids).await? {
        return Err(ApiError::field("allCompanies", MSG_NOT_EVERY_COMPANY));
    }
    if !details.all_companies && details.company_ids.is_empty() {
        return Err(ApiError::field("companies", MSG_COMPANY_REQUIRED));
    }
    for partner_id in &details.partner_company_ids {
        let partner: PartnerCompany =
            load(&state.events, principal.business_id, &partner_id.to_string()).await?;
        if partner.name().is_none() {
            return Err(ApiError::field("partnerCompanies", MSG_UNKNOWN_PARTNER));
        }
    }
    if let Some((bytes, extension)) = body.file {
        details.image = Some(store(&state.settings.media_dir.join("gallery"), &bytes, extension).await?);
    }
    Ok(details)
}

/// The plan of `business_id`, or 404.
pub async fn existing_plan(state: &AppState, business_id: i64, id: i64) -> Result<Plan, ApiError> {
    let plan: Plan = load(&state.events, business_id, &id.to_string()).await?;
    if plan.details().is_none() {
        return Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned()));
    }
    Ok(plan)
}

/// The plan, when staff reach it: 404 unless it is of every unit or of one of theirs.
pub async fn plan_in_reach(state: &AppState, principal: &Principal, id: i64) -> Result<Plan, ApiError> {
    let plan = existing_plan(state, principal.business_id, id).await?;
    let seen = plan
        .details()
        .is_some_and(|d| d.all_companies || d.company_ids.iter().any(|c| principal.belongs_to(*c)));
    if seen {
        Ok(plan)
    } else {
        Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned()))
    }
}

/// The plan, when the admin may change it: every unit it covers is theirs (404 when it
/// covers none of theirs, 403 when it covers others too).
async fn writable_plan(state: &AppState, principal: &Principal, id: i64) -> Result<Plan, ApiError> {
    let plan = existing_plan(state, principal.business_id, id).await?;
    if let Some(details) = plan.details() {
        writable_across_units(state, principal, details.all_companies, &details.company_ids, MSG_NOT_FOUND)
            .await?;
    }
    Ok(plan)
}

/// Reads a multipart body kept as bytes (so that an Idempotency-Key can hash it).
/// The multipart reader of a body already read (to hash it for the Idempotency-Key). The
/// request's extensions go along: they carry the route's body limit, without which the
/// reader falls back to axum's 2 MB.
async fn multipart_of(
    headers: &HeaderMap,
    extensions: Extensions,
    body: Bytes,
) -> Result<Multipart, ApiError> {
    let mut request = axum::http::Request::new(axum::body::Body::from(body));
    *request.extensions_mut() = extensions;
    if let Some(content_type) = headers.get(header::CONTENT_TYPE) {
        request.headers_mut().insert(header::CONTENT_TYPE, content_type.clone());
    }
    Multipart::from_request(request, &()).await.map_err(bad)
}

#[utoipa::path(
    post,
    path = "/subscription-details",
    tag = "Club",
    summary = "Create a plan (ADMIN), multipart",
    request_body(content = PlanMultipart, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Created: {IdSubscriptionDetail}", body = IdSubscriptionDetail, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdSubscriptionDetail": 1 })),
        refused::Malformed,
        refused::Forbidden,
        (status = 422, description = "Validation (spec 02 §5 'Plan form'), an unknown unit or partner, or an image refused", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn create(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    headers: HeaderMap,
    extensions: Extensions,
    body: Bytes,
) -> Result<(StatusCode, HeaderMap, Json<IdSubscriptionDetail>), ApiError> {
    let form = read_body(multipart_of(&headers, extensions, body).await?).await?;
    let details = checked(&state, &auth, form, None).await?;
    let id = next_id(&state.pool, "subscription_detail_id_seq").await?;
    let answer = IdSubscriptionDetail { id_subscription_detail: id };
    let position = execute::<Plan>(
        &state.events,
        &id.to_string(),
        PlanCommand::CreatePlan(details),
        &idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer),
    )
    .await?;
    tracing::info!(plan_id = id, "plan created");
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

#[utoipa::path(
    put,
    path = "/subscription-details/{id}",
    tag = "Club",
    summary = "Change a plan (ADMIN), multipart as for POST",
    params(
        ("id" = i64, Path),
    ),
    request_body(content = PlanMultipart, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Saved: {IdSubscriptionDetail}", body = IdSubscriptionDetail, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdSubscriptionDetail": 1 })),
        refused::Forbidden,
        (status = 404, description = "Unknown plan", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, plan_id = id))]
async fn change(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    navalha_platform::http::Multipart(multipart): navalha_platform::http::Multipart,
) -> Result<(HeaderMap, Json<IdSubscriptionDetail>), ApiError> {
    let plan = writable_plan(&state, &auth, id).await?;
    let body = read_body(multipart).await?;
    let details = checked(&state, &auth, body, plan.details().and_then(|d| d.image.clone())).await?;
    // The provider charges what it was given when the plan was created there; Navalha's
    // copy must not say otherwise.
    if let (Some(_), Some(current)) = (plan.galax_pay_id(), plan.details()) {
        let mut errors = FieldErrors::default();
        for field in current.charging_changes(&details) {
            errors.add(field, MSG_TERMS_AT_PROVIDER);
        }
        if !errors.is_empty() {
            return Err(invalid(errors));
        }
    }
    let position = execute::<Plan>(
        &state.events,
        &id.to_string(),
        PlanCommand::ChangePlan(details),
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(IdSubscriptionDetail { id_subscription_detail: id })))
}

/// The catalogue entry of a chosen service, or 422 'Escolha um serviço'.
async fn catalogue(state: &AppState, business_id: i64, service_id: i64) -> Result<(String, i64), ApiError> {
    let service: Service = load(&state.events, business_id, &service_id.to_string()).await?;
    let entry = service.entry().ok_or_else(|| ApiError::field("idService", MSG_UNKNOWN_SERVICE))?;
    Ok((entry.description.clone(), entry.default_cents))
}

/// The plan holding a plan service, when the admin may change it; or 404.
async fn plan_of_service(
    state: &AppState,
    principal: &Principal,
    id: i64,
) -> Result<(String, Plan), ApiError> {
    let plan_id = claim_holder(&state.pool, PLAN_SERVICE_SCOPE, &id.to_string())
        .await?
        .and_then(|plan_id| plan_id.parse::<i64>().ok())
        .ok_or_else(|| ApiError::NotFound(MSG_SERVICE_NOT_FOUND.to_owned()))?;
    let plan = writable_plan(state, principal, plan_id).await?;
    let plan_id = plan_id.to_string();
    if !plan.services().iter().any(|s| s.id == id) {
        return Err(ApiError::NotFound(MSG_SERVICE_NOT_FOUND.to_owned()));
    }
    Ok((plan_id, plan))
}

#[utoipa::path(
    post,
    path = "/subscription-service",
    tag = "Club",
    summary = "Add a service to a plan (ADMIN); also at `/subscription-service/`",
    request_body = PlanServiceForm,
    responses(
        (status = 201, description = "Created: {IdSubscriptionService}", body = IdSubscriptionService, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdSubscriptionService": 1 })),
        refused::Malformed,
        refused::Forbidden,
        (status = 404, description = "Unknown plan", body = ErrorBody),
        (status = 409, description = "The service is already in the plan", body = ErrorBody),
        (status = 422, description = "Validation (spec 02 §5 'Plan service form')", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn add_service(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(form): Json<PlanServiceForm>,
) -> Result<(StatusCode, HeaderMap, Json<IdSubscriptionService>), ApiError> {
    let (service_id, discount) = form.validate().map_err(invalid)?;
    let plan_id = form.id_subscription_detail.ok_or_else(|| ApiError::NotFound(MSG_NOT_FOUND.to_owned()))?;
    writable_plan(&state, &auth, plan_id).await?;
    let (id, position) =
        add_plan_service(&state, plan_id, service_id, discount, &metadata_of(&auth, &origin), Some(&origin))
            .await?;
    Ok((StatusCode::CREATED, position_headers(position), Json(answer_of(id))))
}

fn answer_of(id: i64) -> IdSubscriptionService {
    IdSubscriptionService { id_subscription_service: id }
}

/// Adds a catalogue service to a plan at its default price: the new IdSubscriptionService.
/// With the request's `origin`, its answer rides with the events (ADR 0012).
pub async fn add_plan_service(
    state: &AppState,
    plan_id: i64,
    service_id: i64,
    discount: i64,
    metadata: &EventMetadata,
    origin: Option<&RequestOrigin>,
) -> Result<(i64, Option<Position>), ApiError> {
    existing_plan(state, metadata.business_id, plan_id).await?;
    let (description, original_cents) = catalogue(state, metadata.business_id, service_id).await?;
    let id = next_id(&state.pool, "subscription_service_id_seq").await?;
    let metadata = &match origin {
        Some(origin) => idempotency::answering(metadata.clone(), origin, StatusCode::CREATED, &answer_of(id)),
        None => metadata.clone(),
    };
    let service = PlanService { id, service_id, description, original_cents, discount };
    let claim = Claim {
        scope: PLAN_SERVICE_SCOPE,
        value: id.to_string(),
        duplicate: "Serviço do plano já cadastrado.",
        field: Some("idService"),
    };
    let position = execute_claiming::<Plan>(
        &state.events,
        &plan_id.to_string(),
        PlanCommand::AddService(service),
        metadata,
        &[claim],
        &[],
    )
    .await?;
    Ok((id, position))
}

#[utoipa::path(
    put,
    path = "/subscription-service/{id}",
    tag = "Club",
    summary = "Change a plan service (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    request_body = PlanServiceForm,
    responses(
        (status = 200, description = "Saved: {IdSubscriptionService}", body = IdSubscriptionService, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them")), example = json!({ "IdSubscriptionService": 1 })),
        refused::Forbidden,
        (status = 404, description = "Unknown plan service", body = ErrorBody),
        (status = 409, description = "The service is already in the plan", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, plan_service_id = id))]
async fn change_service(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<PlanServiceForm>,
) -> Result<(HeaderMap, Json<IdSubscriptionService>), ApiError> {
    let (plan_id, plan) = plan_of_service(&state, &auth, id).await?;
    let (service_id, discount) = form.validate().map_err(invalid)?;
    let current = plan.services().iter().find(|s| s.id == id).cloned();
    // The same catalogue service keeps the price it had when added.
    let service = match current {
        Some(current) if current.service_id == service_id => PlanService { discount, ..current },
        _ => {
            let (description, original_cents) = catalogue(&state, auth.business_id, service_id).await?;
            PlanService { id, service_id, description, original_cents, discount }
        }
    };
    let position = execute::<Plan>(
        &state.events,
        &plan_id,
        PlanCommand::ChangeService(service),
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(IdSubscriptionService { id_subscription_service: id })))
}

#[utoipa::path(
    delete,
    path = "/subscription-service/{id}",
    tag = "Club",
    summary = "Remove a plan service (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 204, description = "Removed", headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Forbidden,
        (status = 404, description = "Unknown plan service", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, plan_service_id = id))]
async fn remove_service(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(StatusCode, HeaderMap), ApiError> {
    let (plan_id, _) = plan_of_service(&state, &auth, id).await?;
    let position = execute::<Plan>(
        &state.events,
        &plan_id,
        PlanCommand::RemoveService { id },
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((StatusCode::NO_CONTENT, position_headers(position)))
}
