//! Professionals, their working hours and their services (spec 02 §7).
//!
//! ADMIN registers and edits professionals of the units they belong to, with their hours and
//! services (spec 02 §6). Every professional edits their own profile, hours and services
//! through the `my-profile` calls, which never take an id: the id is the caller's.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::commission::CommissionForm;
use navalha_domain::professional::{
    Employment, EmploymentInput, Membership, PersonalData, Professional, ProfessionalCommand,
    ProfessionalForm, ServiceForm, WorkingDayForm, CPF_SCOPE, EMAIL_SCOPE, MSG_DUPLICATE_CPF,
    MSG_DUPLICATE_EMAIL, MSG_NOT_FOUND,
};
use navalha_domain::service::Service;
use navalha_platform::auth::{AdminOnly, Auth, Principal};
use navalha_platform::clock::today;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdProfessional;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{
    execute, execute_claiming, invalid, load, metadata_of, next_id, position_headers, Claim,
};
use crate::companies::visible_company;
use crate::idempotency;
use crate::identity::{accounts, register};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register_professional))
        .routes(routes!(update_my_profile))
        .routes(routes!(update_professional))
        .routes(routes!(set_my_day))
        .routes(routes!(set_day))
        .routes(routes!(add_my_service))
        .routes(routes!(add_service))
        .routes(routes!(change_my_service))
        .routes(routes!(change_service))
        .routes(routes!(set_commission))
}

/// Loads a professional the caller may manage: one who works in a unit the caller belongs
/// to. Others are 404, so ids leak nothing.
pub(crate) async fn visible_professional(
    state: &AppState,
    principal: &Principal,
    id: i64,
) -> Result<Professional, ApiError> {
    let professional: Professional = load(&state.events, principal.business_id, &id.to_string()).await?;
    let visible = professional
        .employment()
        .is_some_and(|employment| principal.reaches_professional_of(&employment.company_ids()));
    if visible {
        Ok(professional)
    } else {
        Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned()))
    }
}

/// The CPF and e-mail claims of personal data, and the old values an update gives back.
fn identity_claims(
    personal: &PersonalData,
    before: Option<&PersonalData>,
) -> (Vec<Claim>, Vec<(&'static str, String)>) {
    let claims = vec![
        Claim {
            scope: CPF_SCOPE,
            value: personal.cpf.clone(),
            duplicate: MSG_DUPLICATE_CPF,
            field: Some("cpf"),
        },
        Claim {
            scope: EMAIL_SCOPE,
            value: personal.email.clone(),
            duplicate: MSG_DUPLICATE_EMAIL,
            field: Some("email"),
        },
    ];
    let mut released = Vec::new();
    if let Some(before) = before {
        if before.cpf != personal.cpf {
            released.push((CPF_SCOPE, before.cpf.clone()));
        }
        if before.email != personal.email {
            released.push((EMAIL_SCOPE, before.email.clone()));
        }
    }
    (claims, released)
}

/// Keeps the sign-in keys of the credential table equal to the professional's data.
async fn sync_credential(state: &AppState, id: i64, personal: &PersonalData) -> Result<(), ApiError> {
    sqlx::query("update staff_credential set email = lower($2), cpf = $3, updated_at = now() where professional_id = $1")
        .bind(id)
        .bind(&personal.email)
        .bind(&personal.cpf)
        .execute(&state.pool)
        .await?;
    Ok(())
}

/// The employment an admin's form asks for, keeping the membership ids of units the
/// professional stays in (appointments point at them). The admin adds and removes only
/// units they belong to; the professional's other units stay as they are.
async fn employment_of(
    state: &AppState,
    principal: &Principal,
    input: EmploymentInput,
    current: Option<&Employment>,
) -> Result<Employment, ApiError> {
    let current_memberships = current.map(|e| e.memberships.as_slice()).unwrap_or_default();
    let mut memberships = Vec::with_capacity(input.company_ids.len());
    for company_id in input.company_ids {
        let kept = current_memberships.iter().find(|m| m.company_id == company_id).copied();
        let membership = match kept {
            Some(membership) => membership,
            None => {
                if visible_company(state, principal, company_id).await.is_err() {
                    return Err(ApiError::field("idCompany", "Escolha a empresa"));
                }
                Membership { id: next_id(&state.pool, "company_professional_id_seq").await?, company_id }
            }
        };
        memberships.push(membership);
    }
    let out_of_reach = current_memberships
        .iter()
        .filter(|m| !principal.belongs_to(m.company_id) && !memberships.contains(m))
        .copied()
        .collect::<Vec<_>>();
    memberships.extend(out_of_reach);
    Ok(Employment { color: input.color, role: input.role, status: input.status, memberships })
}

#[utoipa::path(
    post,
    path = "/professional",
    tag = "Professionals",
    summary = "Register a professional (ADMIN) and e-mail the registration link; 201 {IdProfessional}",
    request_body = ProfessionalForm,
    responses(
        (status = 201, description = "Created", body = IdProfessional, example = json!({ "IdProfessional": 1 })),
        refused::Malformed,
        refused::Forbidden,
        (status = 409, description = "Duplicate", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn register_professional(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    Json(form): Json<ProfessionalForm>,
) -> Result<(StatusCode, HeaderMap, Json<IdProfessional>), ApiError> {
    let (personal, input) = form.validate_admin(today()).map_err(invalid)?;
    let employment = employment_of(&state, &auth, input, None).await?;
    let id = next_id(&state.pool, "professional_id_seq").await?;
    let (claims, _) = identity_claims(&personal, None);
    let (email, cpf) = (personal.email.clone(), personal.cpf.clone());
    let name = personal.name.clone();
    let position = execute_claiming::<Professional>(
        &state.events,
        &id.to_string(),
        ProfessionalCommand::Register { personal, employment },
        &metadata_of(&auth, &origin),
        &claims,
        &[],
    )
    .await?;
    // The account has no password: the professional sets it through the e-mailed link.
    accounts::create_account(&state.pool, id, &email, Some(&cpf), None).await?;
    let token = register::create_invite(&state.pool, id).await?;
    let link = format!(
        "{}/sign-up-password?complete-register={token}",
        state.settings.public_url.trim_end_matches('/')
    );
    let text = format!(
        "Olá, {name}!\n\nVocê foi cadastrado no Navalha. Para criar sua senha e finalizar o cadastro, acesse:\n{link}\n\nO link vale por {} dias.",
        register::INVITE_DAYS
    );
    state.mailer.send(&email, "Navalha: finalize seu cadastro", &text).await?;
    tracing::info!(new_professional_id = id, "professional registered, invitation sent");
    Ok((StatusCode::CREATED, position_headers(position), Json(IdProfessional { id_professional: id })))
}

#[utoipa::path(
    put,
    path = "/professional/{id}",
    tag = "Professionals",
    summary = "Change a professional (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    request_body = ProfessionalForm,
    responses(
        (status = 200, description = "Saved", body = IdProfessional, example = json!({ "IdProfessional": 1 })),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "CPF or e-mail taken", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, target_id = id))]
async fn update_professional(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<ProfessionalForm>,
) -> Result<(HeaderMap, Json<IdProfessional>), ApiError> {
    let professional = visible_professional(&state, &auth, id).await?;
    let (personal, mut input) = form.validate_admin(today()).map_err(invalid)?;
    if form.status.is_none() {
        // The status selector only shows when editing; a form without it keeps the status.
        input.status = professional.employment().map_or(input.status, |e| e.status);
    }
    let employment = employment_of(&state, &auth, input, professional.employment()).await?;
    let (claims, released) = identity_claims(&personal, professional.personal());
    let position = execute_claiming::<Professional>(
        &state.events,
        &id.to_string(),
        ProfessionalCommand::Update { personal: personal.clone(), employment },
        &metadata_of(&auth, &origin),
        &claims,
        &released,
    )
    .await?;
    sync_credential(&state, id, &personal).await?;
    Ok((position_headers(position), Json(IdProfessional { id_professional: id })))
}

#[utoipa::path(
    put,
    path = "/professional/my-profile",
    tag = "Professionals",
    summary = "Change one's own personal data",
    request_body = ProfessionalForm,
    responses(
        (status = 200, description = "Saved", body = IdProfessional, example = json!({ "IdProfessional": 1 })),
        refused::Forbidden,
        refused::NotFound,
        (status = 409, description = "CPF or e-mail taken", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn update_my_profile(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    Json(form): Json<ProfessionalForm>,
) -> Result<(HeaderMap, Json<IdProfessional>), ApiError> {
    let id = auth.professional_id;
    let professional: Professional = load(&state.events, auth.business_id, &id.to_string()).await?;
    let personal = form.validate_personal(today()).map_err(invalid)?;
    let (claims, released) = identity_claims(&personal, professional.personal());
    let position = execute_claiming::<Professional>(
        &state.events,
        &id.to_string(),
        ProfessionalCommand::UpdatePersonal(personal.clone()),
        &metadata_of(&auth, &origin),
        &claims,
        &released,
    )
    .await?;
    sync_credential(&state, id, &personal).await?;
    Ok((position_headers(position), Json(IdProfessional { id_professional: id })))
}

/// A professional's weekday saved.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct WorkingDaySaved {
    id_professional: i64,
    week_day: u8,
}

async fn set_working_day(
    state: &AppState,
    principal: &Principal,
    origin: &RequestOrigin,
    id: i64,
    form: WorkingDayForm,
) -> Result<(HeaderMap, Json<WorkingDaySaved>), ApiError> {
    let (week_day, periods) = form.validate().map_err(invalid)?;
    let position = execute::<Professional>(
        &state.events,
        &id.to_string(),
        ProfessionalCommand::SetWorkingDay { week_day, periods },
        &metadata_of(principal, origin),
    )
    .await?;
    Ok((position_headers(position), Json(WorkingDaySaved { id_professional: id, week_day })))
}

#[utoipa::path(
    put,
    path = "/professional-working-hours/my-profile/day",
    tag = "Professionals",
    summary = "Set one's own weekday periods",
    request_body = WorkingDayForm,
    responses(
        (status = 200, description = "Saved", body = WorkingDaySaved),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn set_my_day(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    Json(form): Json<WorkingDayForm>,
) -> Result<(HeaderMap, Json<WorkingDaySaved>), ApiError> {
    set_working_day(&state, &auth, &origin, auth.professional_id, form).await
}

#[utoipa::path(
    put,
    path = "/professional-working-hours/professional/{id}/day",
    tag = "Professionals",
    summary = "Set a professional's weekday periods (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    request_body = WorkingDayForm,
    responses(
        (status = 200, description = "Saved", body = WorkingDaySaved),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn set_day(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<WorkingDayForm>,
) -> Result<(HeaderMap, Json<WorkingDaySaved>), ApiError> {
    visible_professional(&state, &auth, id).await?;
    set_working_day(&state, &auth, &origin, id, form).await
}

/// An offered service written, with its professional.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ServiceSaved {
    id_company_professional_service: i64,
    id_professional: i64,
}

/// Adds or changes an offered service. `service_id` is `None` to add one.
async fn save_service(
    state: &AppState,
    principal: &Principal,
    origin: &RequestOrigin,
    id: i64,
    service_id: Option<i64>,
    form: ServiceForm,
) -> Result<(StatusCode, HeaderMap, Json<ServiceSaved>), ApiError> {
    let professional: Professional = load(&state.events, principal.business_id, &id.to_string()).await?;
    if professional.personal().is_none() {
        return Err(ApiError::NotFound(MSG_NOT_FOUND.to_owned()));
    }
    if let Some(service_id) = service_id {
        if !professional.services().iter().any(|s| s.id == service_id) {
            return Err(ApiError::NotFound("Serviço não encontrado.".to_owned()));
        }
    }
    form.validate(0).map_err(invalid)?;
    let catalogue: Service =
        load(&state.events, principal.business_id, &form.id_service.unwrap_or_default().to_string()).await?;
    if !catalogue.entry().is_some_and(|entry| entry.active) {
        return Err(ApiError::field("idService", "Escolha um serviço"));
    }
    let (status, offered_id) = match service_id {
        Some(service_id) => (StatusCode::OK, service_id),
        None => (StatusCode::CREATED, next_id(&state.pool, "professional_service_id_seq").await?),
    };
    let offered = form.validate(offered_id).map_err(invalid)?;
    let command = if service_id.is_some() {
        ProfessionalCommand::ChangeService(offered)
    } else {
        ProfessionalCommand::AddService(offered)
    };
    let answer = ServiceSaved { id_company_professional_service: offered_id, id_professional: id };
    let position = execute::<Professional>(
        &state.events,
        &id.to_string(),
        command,
        &idempotency::answering(metadata_of(principal, origin), origin, status, &answer),
    )
    .await?;
    Ok((status, position_headers(position), Json(answer)))
}

#[utoipa::path(
    post,
    path = "/professional-service/my-profile",
    tag = "Professionals",
    summary = "Offer a catalogue service",
    request_body = ServiceForm,
    responses(
        (status = 201, description = "Created", body = ServiceSaved),
        refused::Malformed,
        refused::Forbidden,
        (status = 409, description = "Duplicate", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn add_my_service(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    Json(form): Json<ServiceForm>,
) -> Result<(StatusCode, HeaderMap, Json<ServiceSaved>), ApiError> {
    save_service(&state, &auth, &origin, auth.professional_id, None, form).await
}

#[utoipa::path(
    post,
    path = "/professional-service/professional/{id}",
    tag = "Professionals",
    summary = "Offer a service for a professional (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    request_body = ServiceForm,
    responses(
        (status = 201, description = "Created", body = ServiceSaved),
        refused::Malformed,
        refused::Forbidden,
        (status = 404, description = "Not found, or outside the caller's units", body = ErrorBody),
        (status = 409, description = "Duplicate", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn add_service(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<ServiceForm>,
) -> Result<(StatusCode, HeaderMap, Json<ServiceSaved>), ApiError> {
    visible_professional(&state, &auth, id).await?;
    save_service(&state, &auth, &origin, id, None, form).await
}

#[utoipa::path(
    put,
    path = "/professional-service/{idCompanyProfessionalService}/my-profile",
    tag = "Professionals",
    summary = "Change one's own offered service",
    params(
        ("idCompanyProfessionalService" = i64, Path),
    ),
    request_body = ServiceForm,
    responses(
        (status = 200, description = "Saved", body = ServiceSaved),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn change_my_service(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    PathParam(service_id): PathParam<i64>,
    Json(form): Json<ServiceForm>,
) -> Result<(StatusCode, HeaderMap, Json<ServiceSaved>), ApiError> {
    save_service(&state, &auth, &origin, auth.professional_id, Some(service_id), form).await
}

#[utoipa::path(
    put,
    path = "/professional-service/{idCompanyProfessionalService}/professional/{id}",
    tag = "Professionals",
    summary = "Change a professional's offered service (ADMIN)",
    params(
        ("idCompanyProfessionalService" = i64, Path),
        ("id" = i64, Path),
    ),
    request_body = ServiceForm,
    responses(
        (status = 200, description = "Saved", body = ServiceSaved),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
async fn change_service(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam((service_id, id)): PathParam<(i64, i64)>,
    Json(form): Json<ServiceForm>,
) -> Result<(StatusCode, HeaderMap, Json<ServiceSaved>), ApiError> {
    visible_professional(&state, &auth, id).await?;
    save_service(&state, &auth, &origin, id, Some(service_id), form).await
}

#[utoipa::path(
    put,
    path = "/professional/{id}/commission",
    tag = "Professionals",
    summary = "Set a professional's commission rates, in force from now on: comandas already closed keep what they earned (ADMIN; issue 42)",
    params(("id" = i64, Path)),
    request_body = CommissionForm,
    responses(
        (status = 200, description = "Saved", body = IdProfessional),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, target_id = id))]
async fn set_commission(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<CommissionForm>,
) -> Result<(HeaderMap, Json<IdProfessional>), ApiError> {
    let professional = visible_professional(&state, &auth, id).await?;
    let mut rates = form.validate();
    // A service's own rate is for a service the professional offers.
    if let Ok(valid) = &rates {
        let mut errors = navalha_domain::validation::FieldErrors::default();
        for (n, service) in valid.services.iter().enumerate() {
            if !professional.services().iter().any(|offered| offered.service_id == service.service_id) {
                errors.add(&format!("services.{n}.idService"), "Este profissional não oferece este serviço.");
            }
        }
        if !errors.is_empty() {
            rates = Err(errors);
        }
    }
    let rates = rates.map_err(invalid)?;
    let position = execute::<Professional>(
        &state.events,
        &id.to_string(),
        ProfessionalCommand::SetCommission(rates),
        &metadata_of(&auth, &origin),
    )
    .await?;
    tracing::info!(target_id = id, "commission rates set");
    Ok((position_headers(position), Json(IdProfessional { id_professional: id })))
}
