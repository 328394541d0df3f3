//! Comandas (issue 41): `POST comanda` opens one for an appointment or a walk-in; items,
//! the discount on the total, tips and payments change it while open; `close`, `reopen`
//! (ADMIN) and `cancel` move it between states (docs/money.md, ADR 0025).
//!
//! ADMIN and ATTENDANT operate comandas of their units. Every value is read exactly from
//! the wire (`money::cents_from_reais`) and every rule is the aggregate's.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use cqrs_es::Aggregate;
use navalha_domain::appointment::{Appointment, Attendance, Standing};
use navalha_domain::comanda::{
    Comanda, ComandaCommand, ComandaError, Discount, ItemKind, NewItem, NewPayment, PaymentMethod, PixCharge,
    PixStatus,
};
use navalha_domain::commission::{CommissionRates, CommissionSettings};
use navalha_domain::company::Company;
use navalha_domain::money::reais;
use navalha_domain::product::Product;
use navalha_domain::professional::Professional;
use navalha_domain::role::Role;
use navalha_domain::service::{ProductUse, Service};
use navalha_domain::stock::msg_insufficient_of;
use navalha_event_store::log::Stream;
use navalha_platform::auth::{AdminOnly, AdminOrAttendant, Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdComanda;
use navalha_platform::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::caixas::{open_caixa_of, ReasonBody, MSG_NO_CAIXA};
use crate::club::cover::Club;
use crate::commands::{
    cents_field, claim_holder, execute_claiming, execute_on, load, load_stream, metadata_of, next_id,
    optional_cents_field, position_headers, trimmed, Claim, DomainError, Streams,
};
use crate::companies::{chosen_unit, clock_of, unit_now};
use crate::idempotency;
use crate::pix::PixWritten;
use crate::state::AppState;

/// The claim that keeps one comanda per appointment.
pub const COMANDA_OF_APPOINTMENT: &str = "comanda_appointment";
const MSG_NO_SHOW_HAS_NO_COMANDA: &str =
    "O cliente não compareceu: desfaça 'Não compareceu' antes de abrir a comanda.";
const MSG_APPOINTMENT_HAS_COMANDA: &str = "Este agendamento já tem uma comanda.";
const MSG_APPOINTMENT_NOT_FOUND: &str = "Agendamento não encontrado.";
const MSG_PROFESSIONAL_NOT_HERE: &str = "Escolha um profissional desta unidade.";
const MSG_SERVICE_NOT_OFFERED: &str = "Este profissional não oferece este serviço.";
const MSG_CHOOSE_PROFESSIONAL: &str = "Escolha o profissional.";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open))
        .routes(routes!(add_item))
        .routes(routes!(remove_item))
        .routes(routes!(set_discount))
        .routes(routes!(add_tip))
        .routes(routes!(remove_tip))
        .routes(routes!(take_payment))
        .routes(routes!(refund_payment))
        .routes(routes!(close))
        .routes(routes!(reopen))
        .routes(routes!(cancel))
}

impl DomainError for ComandaError {
    fn to_api(&self) -> ApiError {
        match self {
            ComandaError::NotOpen => ApiError::NotFound(self.to_string()),
            ComandaError::AlreadyOpen | ComandaError::Closed | ComandaError::Canceled => {
                ApiError::Conflict(self.to_string())
            }
            ComandaError::UnknownItem | ComandaError::UnknownTip | ComandaError::UnknownPayment => {
                ApiError::NotFound(self.to_string())
            }
            ComandaError::PaidCannotCancel => ApiError::Unprocessable(self.to_string()),
            other => match other.field() {
                Some(field) => ApiError::field(field, &other.to_string()),
                None => ApiError::Unprocessable(other.to_string()),
            },
        }
    }
}

/// The comanda's stream as read, when it is of a unit of the caller's: a change is decided
/// on it ([`change`]) without reading it again.
async fn visible(state: &AppState, principal: &Principal, id: i64) -> Result<Stream<Comanda>, ApiError> {
    let read: Stream<Comanda> = load_stream(&state.events, principal.business_id, &id.to_string()).await?;
    match read.aggregate.opening() {
        Some(opening) if principal.belongs_to(opening.company_id) => Ok(read),
        _ => Err(ApiError::NotFound(navalha_domain::comanda::MSG_NOT_OPEN.to_owned())),
    }
}

/// A comanda's figures after a change, in reais.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ComandaWritten {
    id_comanda: i64,
    /// OPEN, CLOSED or CANCELED.
    status: &'static str,
    /// The lines after their own discounts.
    subtotal: f64,
    /// The discount on the total.
    discount: f64,
    /// Subtotal less discount.
    total: f64,
    tips: f64,
    paid: f64,
    /// What is left to pay: total plus tips, less what was paid.
    due: f64,
    /// Cash handed back, on a cash payment.
    #[serde(skip_serializing_if = "Option::is_none")]
    change: Option<f64>,
    /// The charge, on a Pix payment.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub(crate) pix: Option<PixWritten>,
}

impl ComandaWritten {
    fn of(id: i64, comanda: &Comanda) -> Self {
        let totals = comanda.totals();
        ComandaWritten {
            id_comanda: id,
            status: comanda.status().code(),
            subtotal: reais(totals.subtotal),
            discount: reais(totals.discount),
            total: reais(totals.total),
            tips: reais(totals.tips),
            paid: reais(totals.paid),
            due: reais(totals.remaining()),
            change: None,
            pix: None,
        }
    }
}

/// The most `principal` may discount in the unit, in basis points: the unit's cap for an
/// ATTENDANT (`attendantDiscountCapPercent` on the unit's form), none for ADMIN.
async fn discount_cap(
    state: &AppState,
    principal: &Principal,
    company_id: i64,
) -> Result<Option<i64>, ApiError> {
    if principal.role != Role::Attendant {
        return Ok(None);
    }
    let company: Company = load(&state.events, principal.business_id, &company_id.to_string()).await?;
    Ok(company
        .profile()
        .and_then(|profile| profile.attendant_discount_cap_percent)
        .map(|percent| percent * 100))
}

/// Runs `command` on comanda `id`, as `read` by [`visible`], and answers its figures from
/// the state the command left.
async fn change(
    state: &AppState,
    principal: &Principal,
    origin: &RequestOrigin,
    (id, read): (i64, Stream<Comanda>),
    command: ComandaCommand,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let written =
        execute_on::<Comanda>(&state.events, &id.to_string(), read, command, &metadata_of(principal, origin))
            .await?;
    Ok((position_headers(written.position), Json(ComandaWritten::of(id, &written.aggregate))))
}

/// A Pix at the counter: a charge at the payment provider for the client to pay from a
/// phone; the provider's webhook makes it a payment (`club::webhooks`). Nothing is written
/// when the provider cannot be reached, and a charge the comanda then refuses (a desk paid
/// the rest meanwhile) is cancelled at the provider.
async fn charge_pix(
    state: &AppState,
    principal: &Principal,
    origin: &RequestOrigin,
    (id, read): (i64, Stream<Comanda>),
    cents: i64,
    caixa_id: Option<i64>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let comanda = &read.aggregate;
    let payable = comanda.totals().payable();
    if cents > payable {
        return Err(ComandaError::Overpaid(payable.max(0)).to_api());
    }
    let customer = crate::pix::customer(state, principal, comanda).await?;
    let my_id = format!("{}{id}-{}", crate::pix::PIX_MY_ID, uuid::Uuid::new_v4().simple());
    let remote =
        state.galaxpay.create_pix_charge(&my_id, cents, customer, &format!("Comanda N.º {id}")).await?;
    let charge = PixCharge {
        payment_id: 0,
        galax_pay_id: remote.galax_pay_id,
        cents,
        caixa_id,
        copy_paste: remote.copy_paste.clone(),
        image: remote.image.clone(),
        page: remote.page.clone(),
        status: PixStatus::Pending,
    };
    let written = change(state, principal, origin, (id, read), ComandaCommand::ChargePix(charge)).await;
    let (headers, Json(mut answer)) = match written {
        Ok(written) => written,
        Err(refused) => {
            if let Err(error) = state.galaxpay.cancel_charge(remote.galax_pay_id).await {
                tracing::warn!(
                    ?error,
                    galax_pay_id = remote.galax_pay_id,
                    "a refused Pix charge stays at the provider"
                );
            }
            return Err(refused);
        }
    };
    tracing::info!(comanda_id = id, galax_pay_id = remote.galax_pay_id, "pix charged");
    answer.pix = Some(PixWritten {
        galax_pay_id: remote.galax_pay_id,
        pix_qr_code: remote.image,
        pix_copy_paste: remote.copy_paste,
        pix_page: remote.page,
    });
    Ok((headers, Json(answer)))
}

/// A discount as an amount (`field`) or a percentage (`percent_field`), not both. A
/// percentage with two decimals reads as basis points the way reais read as centavos.
fn discount_of(
    (field, value): (&str, &Value),
    (percent_field, percent): (&str, &Value),
) -> Result<Option<Discount>, ApiError> {
    match (optional_cents_field(field, value)?, optional_cents_field(percent_field, percent)?) {
        (Some(_), Some(_)) => {
            Err(ApiError::field(field, "Informe o desconto em reais ou em porcentagem, não os dois."))
        }
        (Some(cents), None) => Ok(Some(Discount::Cents(cents))),
        (None, Some(points)) => Ok(Some(Discount::BasisPoints(points))),
        (None, None) => Ok(None),
    }
}

/// The professional, when they work in the unit.
async fn professional_in(
    state: &AppState,
    principal: &Principal,
    company_id: i64,
    professional_id: Option<i64>,
) -> Result<(i64, Professional), ApiError> {
    let id = professional_id.ok_or_else(|| ApiError::field("idProfessional", MSG_CHOOSE_PROFESSIONAL))?;
    let professional: Professional = load(&state.events, principal.business_id, &id.to_string()).await?;
    working_in(company_id, id, professional)
}

/// The professional `id`, when they work in the unit.
fn working_in(company_id: i64, id: i64, professional: Professional) -> Result<(i64, Professional), ApiError> {
    let works_here =
        professional.employment().is_some_and(|employment| employment.company_ids().contains(&company_id));
    if !works_here {
        return Err(ApiError::field("idProfessional", MSG_PROFESSIONAL_NOT_HERE));
    }
    Ok((id, professional))
}

/// `POST comanda`: `{idCompany, idScheduling?, idUser?}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ComandaOpenBody)]
pub struct OpenBody {
    id_company: Option<i64>,
    /// The appointment served: its services, professional and booked prices come in.
    id_scheduling: Option<i64>,
    /// The client, for a walk-in ('Cliente avulso' when absent).
    id_user: Option<i64>,
}

#[utoipa::path(
    post,
    path = "/comanda",
    tag = "Comandas",
    summary = "Open a comanda for an appointment (its services at their booked prices) or a walk-in (ADMIN, ATTENDANT)",
    request_body = OpenBody,
    responses(
        (status = 201, description = "Opened", body = IdComanda, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        refused::Malformed,
        refused::Forbidden,
        (status = 404, description = "Unknown unit or appointment, or another unit's", body = ErrorBody),
        (status = 409, description = "The appointment already has a comanda (the message names it)", body = ErrorBody),
        (status = 422, description = "A cancelled appointment", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn open(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    Json(body): Json<OpenBody>,
) -> Result<(StatusCode, HeaderMap, Json<IdComanda>), ApiError> {
    let company_id = chosen_unit(&state, &auth, body.id_company).await?;
    let (mut client_id, mut items, mut claims) = (body.id_user, Vec::new(), Vec::new());
    if let Some(appointment_id) = body.id_scheduling {
        let appointment: Appointment =
            load(&state.events, auth.business_id, &appointment_id.to_string()).await?;
        let booking = appointment
            .booking()
            .filter(|booking| booking.company_id == company_id)
            .ok_or_else(|| ApiError::NotFound(MSG_APPOINTMENT_NOT_FOUND.to_owned()))?;
        if appointment.standing() == Standing::Cancelled {
            return Err(ApiError::field("idScheduling", "Este agendamento foi cancelado."));
        }
        if appointment.attendance() == Attendance::NoShow {
            return Err(ApiError::field("idScheduling", MSG_NO_SHOW_HAS_NO_COMANDA));
        }
        claims.push(appointment_claim(appointment_id));
        client_id = Some(booking.client_id);
        items = booked_items(appointment_id, booking);
        let today = unit_now(&state, auth.business_id, company_id).await?.date();
        let club = Club::of(&state, auth.business_id, client_id, company_id, today).await?;
        for item in &mut items {
            item.club = club.cover(item.ref_id);
        }
    }
    let id = next_id(&state.pool, "comanda_id_seq").await?;
    let answer = IdComanda { id_comanda: id };
    let command = ComandaCommand::Open { company_id, appointment_id: body.id_scheduling, client_id, items };
    let metadata = idempotency::answering(metadata_of(&auth, &origin), &origin, StatusCode::CREATED, &answer);
    let position =
        match execute_claiming::<Comanda>(&state.events, &id.to_string(), command, &metadata, &claims, &[])
            .await
        {
            // The 409 names the comanda the appointment already has.
            Err(ApiError::Conflict(message)) if message == MSG_APPOINTMENT_HAS_COMANDA => {
                let value = claims.first().map(|claim| claim.value.as_str()).unwrap_or_default();
                let holder =
                    claim_holder(&state.pool, COMANDA_OF_APPOINTMENT, value).await?.unwrap_or_default();
                return Err(ApiError::Conflict(format!("Este agendamento já tem a comanda N.º {holder}.")));
            }
            other => other?,
        };
    tracing::info!(comanda_id = id, "comanda opened");
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

/// The claim of an appointment's one comanda.
pub fn appointment_claim(appointment_id: i64) -> Claim {
    Claim {
        scope: COMANDA_OF_APPOINTMENT,
        value: appointment_id.to_string(),
        duplicate: MSG_APPOINTMENT_HAS_COMANDA,
        field: None,
    }
}

/// An appointment's services as a comanda's lines: at their booked prices, by its professional.
pub fn booked_items(appointment_id: i64, booking: &navalha_domain::appointment::Booking) -> Vec<NewItem> {
    booking
        .services
        .iter()
        .map(|service| NewItem {
            kind: ItemKind::Service,
            ref_id: service.service_id,
            description: service.description.clone(),
            professional_id: Some(booking.professional_id),
            quantity: 1,
            unit_cents: service.cents,
            discount: None,
            appointment_id: Some(appointment_id),
            club: None,
        })
        .collect()
}

/// `POST comanda/{id}/items`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemBody {
    /// `service` or `product`.
    kind: String,
    /// The catalogue service, or the product.
    id: Option<i64>,
    /// Who did the service (for a product: who sold it, optional).
    id_professional: Option<i64>,
    /// 1 when absent.
    quantity: Option<i64>,
    /// A discount in reais...
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    discount: Value,
    /// ...or in percent.
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    discount_percent: Value,
}

#[utoipa::path(
    post,
    path = "/comanda/{id}/items",
    tag = "Comandas",
    summary = "Add a service at the professional's price, or a product at its price (ADMIN, ATTENDANT)",
    params(("id" = i64, Path)),
    request_body = ItemBody,
    responses(
        (status = 200, description = "Added", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed or cancelled", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn add_item(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<ItemBody>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    let company_id = read.aggregate.opening().map(|opening| opening.company_id).unwrap_or_default();
    let discount = discount_of(("discount", &body.discount), ("discountPercent", &body.discount_percent))?;
    match body.kind.trim() {
        "service" => {}
        "product" => {
            let item = product_item(&state, &auth, company_id, &body, discount).await?;
            let cap = discount_cap(&state, &auth, company_id).await?;
            return change(&state, &auth, &origin, (id, read), ComandaCommand::AddItem { item, cap }).await;
        }
        _ => return Err(ApiError::field("kind", "Escolha um serviço ou um produto.")),
    }
    let professional_id =
        body.id_professional.ok_or_else(|| ApiError::field("idProfessional", MSG_CHOOSE_PROFESSIONAL))?;
    let service_id = body.id.ok_or_else(|| ApiError::field("id", "Escolha o serviço."))?;
    // The professional and the catalogue's service in one round trip.
    let streams = Streams::fetch(
        &state.events,
        auth.business_id,
        &[(Professional::TYPE, professional_id.to_string()), (Service::TYPE, service_id.to_string())],
    )
    .await?;
    let (professional_id, professional) =
        working_in(company_id, professional_id, streams.replay(&professional_id.to_string())?)?;
    let offered = professional
        .services()
        .iter()
        .find(|offered| offered.service_id == service_id && offered.active)
        .ok_or_else(|| ApiError::field("id", MSG_SERVICE_NOT_OFFERED))?;
    let catalogue: Service = streams.replay(&service_id.to_string())?;
    let client_id = read.aggregate.opening().and_then(|opening| opening.client_id);
    let club = match client_id {
        Some(_) => {
            let today = unit_now(&state, auth.business_id, company_id).await?.date();
            Club::of(&state, auth.business_id, client_id, company_id, today).await?.cover(service_id)
        }
        None => None,
    };
    let description = catalogue.entry().map(|entry| entry.description.clone()).unwrap_or_default();
    let item = NewItem {
        kind: ItemKind::Service,
        ref_id: service_id,
        description,
        professional_id: Some(professional_id),
        quantity: body.quantity.unwrap_or(1),
        unit_cents: offered.cents,
        discount,
        appointment_id: None,
        club,
    };
    let cap = discount_cap(&state, &auth, company_id).await?;
    change(&state, &auth, &origin, (id, read), ComandaCommand::AddItem { item, cap }).await
}

/// A product line at the product's price; who sold it, when named, works in the unit.
async fn product_item(
    state: &AppState,
    principal: &Principal,
    company_id: i64,
    body: &ItemBody,
    discount: Option<Discount>,
) -> Result<NewItem, ApiError> {
    let product_id = body.id.ok_or_else(|| ApiError::field("id", "Escolha o produto."))?;
    let product: Product = load(&state.events, principal.business_id, &product_id.to_string()).await?;
    let details = product
        .details()
        .filter(|details| details.active)
        .ok_or_else(|| ApiError::field("id", "Escolha um produto à venda."))?;
    let professional_id = match body.id_professional {
        Some(_) => Some(professional_in(state, principal, company_id, body.id_professional).await?.0),
        None => None,
    };
    Ok(NewItem {
        kind: ItemKind::Product,
        ref_id: product_id,
        description: details.name.clone(),
        professional_id,
        quantity: body.quantity.unwrap_or(1),
        unit_cents: details.price_cents,
        discount,
        appointment_id: None,
        club: None,
    })
}

#[utoipa::path(
    delete,
    path = "/comanda/{id}/items/{idItem}",
    tag = "Comandas",
    summary = "Take an item off (ADMIN, ATTENDANT)",
    params(("id" = i64, Path), ("idItem" = i64, Path)),
    responses(
        (status = 200, description = "Removed", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed or cancelled", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn remove_item(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam((id, item_id)): PathParam<(i64, i64)>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    change(&state, &auth, &origin, (id, read), ComandaCommand::RemoveItem { item_id }).await
}

/// `PUT comanda/{id}/discount`: `{value}` in reais or `{percent}`; neither takes it off.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct DiscountBody {
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    value: Value,
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    percent: Value,
}

#[utoipa::path(
    put,
    path = "/comanda/{id}/discount",
    tag = "Comandas",
    summary = "The discount on the total (ADMIN; ATTENDANT up to the unit's cap)",
    params(("id" = i64, Path)),
    request_body = DiscountBody,
    responses(
        (status = 200, description = "Set", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed or cancelled", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn set_discount(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<DiscountBody>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    let discount = discount_of(("value", &body.value), ("percent", &body.percent))?;
    let company_id = read.aggregate.opening().map_or(0, |opening| opening.company_id);
    let cap = discount_cap(&state, &auth, company_id).await?;
    change(&state, &auth, &origin, (id, read), ComandaCommand::SetDiscount { discount, cap }).await
}

/// `POST comanda/{id}/tips`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipBody {
    id_professional: Option<i64>,
    #[serde(default)]
    #[schema(value_type = f64)]
    value: Value,
}

#[utoipa::path(
    post,
    path = "/comanda/{id}/tips",
    tag = "Comandas",
    summary = "A tip for a professional of the unit: it adds to what the client pays (ADMIN, ATTENDANT)",
    params(("id" = i64, Path)),
    request_body = TipBody,
    responses(
        (status = 200, description = "Added", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed or cancelled", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn add_tip(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<TipBody>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    let company_id = read.aggregate.opening().map(|opening| opening.company_id).unwrap_or_default();
    let (professional_id, _) = professional_in(&state, &auth, company_id, body.id_professional).await?;
    let cents = cents_field("value", &body.value)?;
    change(&state, &auth, &origin, (id, read), ComandaCommand::AddTip { professional_id, cents }).await
}

#[utoipa::path(
    delete,
    path = "/comanda/{id}/tips/{idTip}",
    tag = "Comandas",
    summary = "Take a tip off (ADMIN, ATTENDANT)",
    params(("id" = i64, Path), ("idTip" = i64, Path)),
    responses(
        (status = 200, description = "Removed", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed or cancelled", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn remove_tip(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam((id, tip_id)): PathParam<(i64, i64)>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    change(&state, &auth, &origin, (id, read), ComandaCommand::RemoveTip { tip_id }).await
}

/// `POST comanda/{id}/payments`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentBody {
    /// cash, pix (a charge at the payment provider, paid when its webhook says so), credit or debit.
    method: String,
    /// What it pays, in reais.
    #[serde(default)]
    #[schema(value_type = f64)]
    value: Value,
    /// Cash handed over, for the change.
    #[serde(default)]
    #[schema(value_type = Option<f64>)]
    cash_received: Value,
    installments: Option<i64>,
    brand: Option<String>,
    authorization_code: Option<String>,
    nsu: Option<String>,
}

#[utoipa::path(
    post,
    path = "/comanda/{id}/payments",
    tag = "Comandas",
    summary = "Take a payment: cash (answers its Change); Pix (a charge at the payment provider, answering GalaxPayId, PixQrCode, PixCopyPaste and PixPage: the provider's webhook makes it a payment); credit or debit card (ADMIN, ATTENDANT)",
    params(("id" = i64, Path)),
    request_body = PaymentBody,
    responses(
        (status = 200, description = "Taken", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed or cancelled", body = ErrorBody),
        (status = 422, description = "Validation, more than is left to pay, or no caixa open in the unit", body = ErrorBody),
        (status = 503, description = "Pix: the payment provider could not be reached (nothing was written)", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn take_payment(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<PaymentBody>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    let company_id = read.aggregate.opening().map(|opening| opening.company_id).unwrap_or_default();
    let method = PaymentMethod::parse(&body.method)
        .filter(|method| *method != PaymentMethod::Subscription)
        .ok_or_else(|| {
        ApiError::field("method", "Escolha dinheiro, Pix, cartão de crédito ou de débito.")
    })?;
    let cents = cents_field("value", &body.value)?;
    let caixa_id = Some(
        open_caixa_of(&state.pool, company_id)
            .await?
            .ok_or_else(|| ApiError::field("method", MSG_NO_CAIXA))?,
    );
    if method == PaymentMethod::Pix {
        return charge_pix(&state, &auth, &origin, (id, read), cents, caixa_id).await;
    }
    let payment = NewPayment {
        method,
        cents,
        cash_received_cents: optional_cents_field("cashReceived", &body.cash_received)?,
        installments: body.installments,
        brand: trimmed(body.brand),
        authorization_code: trimmed(body.authorization_code),
        nsu: trimmed(body.nsu),
        caixa_id,
    };
    let change_cents = payment.cash_received_cents.map(|received| received - payment.cents);
    let (headers, Json(mut answer)) =
        change(&state, &auth, &origin, (id, read), ComandaCommand::TakePayment(payment)).await?;
    answer.change = change_cents.map(reais);
    Ok((headers, Json(answer)))
}

#[utoipa::path(
    post,
    path = "/comanda/{id}/payments/{idPayment}/refund",
    tag = "Comandas",
    summary = "'Estorno': give a payment back, with the reason, on an open comanda (a closed one is reopened first, by ADMIN); the payment's caixa lists it among its corrections (ADMIN, ATTENDANT)",
    params(("id" = i64, Path), ("idPayment" = i64, Path)),
    request_body = ReasonBody,
    responses(
        (status = 200, description = "Refunded", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed or cancelled", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn refund_payment(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam((id, payment_id)): PathParam<(i64, i64)>,
    Json(body): Json<ReasonBody>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    change(
        &state,
        &auth,
        &origin,
        (id, read),
        ComandaCommand::RefundPayment { payment_id, reason: body.reason },
    )
    .await
}

#[utoipa::path(
    post,
    path = "/comanda/{id}/close",
    tag = "Comandas",
    summary = "Close it: only when what was paid equals what is due; then it never changes (ADMIN, ATTENDANT)",
    params(("id" = i64, Path)),
    responses(
        (status = 200, description = "Closed", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Already closed, or cancelled", body = ErrorBody),
        (status = 422, description = "Paid differs from due, or no item", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn close(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    let company_id = read.aggregate.opening().map(|opening| opening.company_id).unwrap_or_default();
    let (at, rates, settings, allow_negative_stock, uses) =
        close_inputs(&state, auth.business_id, company_id, &read.aggregate).await?;
    let close = ComandaCommand::Close { at, rates, settings, allow_negative_stock, uses };
    change(&state, &auth, &origin, (id, read), close).await
}

/// The unit's clock now, the rates in force of the lines' professionals, the unit's
/// commission settings, whether it sells more than its stock, and what its services use.
pub(crate) type CloseInputs = (
    chrono::NaiveDateTime,
    Vec<(i64, CommissionRates)>,
    CommissionSettings,
    bool,
    Vec<(i64, Vec<ProductUse>)>,
);

/// What a close needs besides the comanda, read in one round trip: the unit's clock and
/// commission settings, and the commission rates in force now of the professionals of its
/// lines (issue 42), at which the close writes what each line earned. Where the unit does not
/// sell more than its stock, a product line it does not hold is refused here with its name
/// (issue 43); the append's trigger refuses one another sale took meanwhile.
pub(crate) async fn close_inputs(
    state: &AppState,
    business_id: i64,
    company_id: i64,
    comanda: &Comanda,
) -> Result<CloseInputs, ApiError> {
    let mut ids: Vec<i64> = comanda.items().iter().filter_map(|item| item.professional_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut wanted = vec![(Company::TYPE, company_id.to_string())];
    wanted.extend(ids.iter().map(|id| (Professional::TYPE, id.to_string())));
    let mut services: Vec<i64> = comanda
        .items()
        .iter()
        .filter(|item| item.kind == ItemKind::Service)
        .map(|item| item.ref_id)
        .collect();
    services.sort_unstable();
    services.dedup();
    wanted.extend(services.iter().map(|id| (Service::TYPE, id.to_string())));
    let streams = Streams::fetch(&state.events, business_id, &wanted).await?;
    let company: Company = streams.replay(&company_id.to_string())?;
    let at = clock_of(&company);
    let settings = company.profile().map(|profile| profile.commission).unwrap_or_default();
    let allow_negative_stock = company.profile().is_some_and(|profile| profile.allow_negative_stock);
    let mut uses = Vec::new();
    for id in services {
        let service: Service = streams.replay(&id.to_string())?;
        if !service.uses().is_empty() {
            uses.push((id, service.uses().to_vec()));
        }
    }
    if !allow_negative_stock {
        enough_stock(state, business_id, company_id, &comanda.sales(false, &uses)).await?;
    }
    let mut rates = Vec::new();
    for id in ids {
        let professional: Professional = streams.replay(&id.to_string())?;
        if let Some(commission) = professional.commission() {
            rates.push((id, commission.clone()));
        }
    }
    Ok((at, rates, settings, allow_negative_stock, uses))
}

/// Whether the unit holds what a close takes (its sales and what its services use), each
/// product counted once: 422 naming the first it lacks. The append's trigger refuses a sale
/// that raced this check (ADR 0026).
async fn enough_stock(
    state: &AppState,
    business_id: i64,
    company_id: i64,
    moves: &[navalha_domain::stock::StockMove],
) -> Result<(), ApiError> {
    let mut needed: Vec<(i64, i64)> = Vec::new();
    for taken in moves {
        match needed.iter_mut().find(|(product_id, _)| *product_id == taken.product_id) {
            Some((_, quantity)) => *quantity -= taken.quantity,
            None => needed.push((taken.product_id, -taken.quantity)),
        }
    }
    for (product_id, quantity) in needed {
        let on_hand = crate::products::on_hand(&state.pool, business_id, product_id, company_id).await?;
        if on_hand < quantity {
            let product: Product = load(&state.events, business_id, &product_id.to_string()).await?;
            let (name, unit) = product.details().map(|d| (d.name.clone(), d.unit)).unwrap_or_default();
            return Err(ApiError::field("items", &msg_insufficient_of(&name, on_hand, unit)));
        }
    }
    Ok(())
}

#[utoipa::path(
    post,
    path = "/comanda/{id}/reopen",
    tag = "Comandas",
    summary = "Reopen a closed comanda, with the reason (ADMIN); the history shows it",
    params(("id" = i64, Path)),
    request_body = ReasonBody,
    responses(
        (status = 200, description = "Reopened", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Cancelled", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn reopen(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<ReasonBody>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    change(&state, &auth, &origin, (id, read), ComandaCommand::Reopen { reason: body.reason }).await
}

#[utoipa::path(
    post,
    path = "/comanda/{id}/cancel",
    tag = "Comandas",
    summary = "Cancel an open comanda with no payment left, with the reason (ADMIN, ATTENDANT)",
    params(("id" = i64, Path)),
    request_body = ReasonBody,
    responses(
        (status = 200, description = "Cancelled", body = ComandaWritten),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "Closed or already cancelled", body = ErrorBody),
        (status = 422, description = "No reason, or payments to refund first", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, comanda_id = id))]
async fn cancel(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(body): Json<ReasonBody>,
) -> Result<(HeaderMap, Json<ComandaWritten>), ApiError> {
    let read = visible(&state, &auth, id).await?;
    // The appointment may have a comanda again.
    let released: Vec<(&'static str, String)> = read
        .aggregate
        .opening()
        .and_then(|opening| opening.appointment_id)
        .map(|appointment_id| (COMANDA_OF_APPOINTMENT, appointment_id.to_string()))
        .into_iter()
        .collect();
    let position = execute_claiming::<Comanda>(
        &state.events,
        &id.to_string(),
        ComandaCommand::Cancel { reason: body.reason },
        &metadata_of(&auth, &origin),
        &[],
        &released,
    )
    .await?;
    let comanda: Comanda = load(&state.events, auth.business_id, &id.to_string()).await?;
    Ok((position_headers(position), Json(ComandaWritten::of(id, &comanda))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_discount_is_an_amount_or_a_percentage_never_both() {
        let none = Value::Null;
        let ten = serde_json::json!(10);
        assert_eq!(
            discount_of(("discount", &ten), ("discountPercent", &none)).ok(),
            Some(Some(Discount::Cents(1000)))
        );
        assert_eq!(
            discount_of(("discount", &none), ("discountPercent", &ten)).ok(),
            Some(Some(Discount::BasisPoints(1000)))
        );
        assert!(discount_of(("discount", &ten), ("discountPercent", &ten)).is_err());
        assert_eq!(discount_of(("discount", &none), ("discountPercent", &none)).ok(), Some(None));
    }
}
