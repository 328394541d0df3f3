//! Clients: `POST user/professional` and `PUT user/{id}` (spec 02 §7). ADMIN and
//! ATTENDANT open the client form (spec 02 §6). `POST user/quick` adds a client at the desk
//! with a name and a mobile (issue 45); the client form completes the record later, and
//! its CPF field takes a CPF for a record without one.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use navalha_domain::client::{
    cpf_claim, Client, ClientCommand, ClientForm, CpfRule, QuickClientForm, CPF_SCOPE, LOGIN_PASSWORD,
    MSG_DUPLICATE_CPF,
};
use navalha_domain::values::Cpf;
use navalha_platform::auth::{AdminOrAttendant, Auth, Principal};
use navalha_platform::clock::today;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::written::IdUser;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{
    execute, execute_claiming, invalid, load, metadata_of, next_id, position_headers, Claim, DomainError,
};
use crate::idempotency;
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(register_quick))
        .routes(routes!(remove_social_logins))
        .routes(routes!(update))
        .routes(routes!(confirm))
}

impl DomainError for navalha_domain::client::ClientError {
    fn to_api(&self) -> ApiError {
        match self {
            navalha_domain::client::ClientError::NotFound => ApiError::NotFound(self.to_string()),
            navalha_domain::client::ClientError::AlreadyRegistered => ApiError::Conflict(self.to_string()),
        }
    }
}

/// Loads a client of the caller's business; any other id is 404.
async fn visible_client(state: &AppState, principal: &Principal, id: i64) -> Result<Client, ApiError> {
    let client: Client = load(&state.events, principal.business_id, &id.to_string()).await?;
    match client.details() {
        Some(_) => Ok(client),
        None => Err(ApiError::NotFound("Cliente não encontrado.".to_owned())),
    }
}

#[utoipa::path(
    post,
    path = "/user/professional",
    tag = "Clients",
    summary = "Register a client (ADMIN, ATTENDANT)",
    request_body = ClientForm,
    responses(
        (status = 201, description = "Registered: {IdUser}", body = IdUser, example = json!({ "IdUser": 1 })),
        refused::Malformed,
        (status = 401, description = "No token", body = ErrorBody),
        refused::Forbidden,
        (status = 409, description = "CPF already registered", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn register(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    Json(form): Json<ClientForm>,
) -> Result<(StatusCode, HeaderMap, Json<IdUser>), ApiError> {
    let (cpf, details) = form.validate(CpfRule::Required, today()).map_err(invalid)?;
    let cpf = cpf.ok_or_else(|| ApiError::field("cpf", "Digite o CPF"))?;
    registered(&state, &auth, &origin, Some(cpf), details).await
}

/// The claim a client's CPF makes, unique in the business.
fn cpf_claimed(business_id: i64, cpf: &Cpf) -> Claim {
    Claim {
        scope: CPF_SCOPE,
        value: cpf_claim(business_id, cpf.as_str()),
        duplicate: MSG_DUPLICATE_CPF,
        field: Some("cpf"),
    }
}

/// Registers a checked client, claiming their CPF when they have one.
async fn registered(
    state: &AppState,
    auth: &Principal,
    origin: &RequestOrigin,
    cpf: Option<Cpf>,
    details: navalha_domain::client::ClientDetails,
) -> Result<(StatusCode, HeaderMap, Json<IdUser>), ApiError> {
    let id = next_id(&state.pool, "client_id_seq").await?;
    let claims: Vec<Claim> = cpf.iter().map(|cpf| cpf_claimed(auth.business_id, cpf)).collect();
    let answer = IdUser { id_user: id };
    let position = execute_claiming::<Client>(
        &state.events,
        &id.to_string(),
        ClientCommand::RegisterClient { cpf, details, online: false },
        &idempotency::answering(metadata_of(auth, origin), origin, StatusCode::CREATED, &answer),
        &claims,
        &[],
    )
    .await?;
    tracing::info!(client_id = id, "client registered");
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

#[utoipa::path(
    post,
    path = "/user/quick",
    tag = "Clients",
    summary = "Add a client at the desk with a name and a mobile, and the CPF if given (ADMIN, ATTENDANT); the client form completes the record",
    request_body = QuickClientForm,
    responses(
        (status = 201, description = "Registered: {IdUser}", body = IdUser, example = json!({ "IdUser": 1 })),
        refused::Malformed,
        (status = 401, description = "No token", body = ErrorBody),
        refused::Forbidden,
        (status = 409, description = "CPF already registered", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn register_quick(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    Json(form): Json<QuickClientForm>,
) -> Result<(StatusCode, HeaderMap, Json<IdUser>), ApiError> {
    let (cpf, details) = form.validate().map_err(invalid)?;
    registered(&state, &auth, &origin, cpf, details).await
}

#[utoipa::path(
    put,
    path = "/user/{id}",
    tag = "Clients",
    summary = "Change a client (cpf is sent null; for a client added without a CPF, it may carry theirs, recorded once)",
    params(
        ("id" = i64, Path),
    ),
    request_body = ClientForm,
    responses(
        (status = 200, description = "Saved", body = IdUser, example = json!({ "IdUser": 1 })),
        refused::Unauthenticated,
        (status = 404, description = "Unknown client", body = ErrorBody),
        (status = 409, description = "The CPF given is another client's", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, client_id = id))]
async fn update(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<ClientForm>,
) -> Result<(HeaderMap, Json<IdUser>), ApiError> {
    let client = visible_client(&state, &auth, id).await?;
    let rule = if client.cpf().is_some() { CpfRule::Ignored } else { CpfRule::Optional };
    let (cpf, details) = form.validate(rule, today()).map_err(invalid)?;
    let claims: Vec<Claim> = cpf.iter().map(|cpf| cpf_claimed(auth.business_id, cpf)).collect();
    let position = execute_claiming::<Client>(
        &state.events,
        &id.to_string(),
        ClientCommand::UpdateClient { details, cpf },
        &metadata_of(&auth, &origin),
        &claims,
        &[],
    )
    .await?;
    Ok((position_headers(position), Json(IdUser { id_user: id })))
}

/// `PUT user/{id}/confirm`'s answer.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ClientConfirmed {
    id_user: i64,
    /// Always true: confirming again changes nothing.
    confirmed: bool,
}

/// `PUT user/remove-all-login-social`'s answer: the client signs in by password only.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct SocialLoginsRemoved {
    id_user: i64,
    login_type: &'static str,
}

#[utoipa::path(
    put,
    path = "/user/{id}/confirm",
    tag = "Clients",
    summary = "'Confirmar cadastro': vouch for a record the client made on a unit's public page (ADMIN, ATTENDANT); its online bookings stop counting as a newcomer's",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 200, description = "Confirmed (again is no change)", body = ClientConfirmed),
        refused::Unauthenticated,
        (status = 403, description = "Not ADMIN or ATTENDANT", body = ErrorBody),
        (status = 404, description = "Unknown client", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, client_id = id))]
async fn confirm(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<ClientConfirmed>), ApiError> {
    visible_client(&state, &auth, id).await?;
    let position = execute::<Client>(
        &state.events,
        &id.to_string(),
        ClientCommand::ConfirmClient,
        &metadata_of(&auth, &origin),
    )
    .await?;
    tracing::info!("client record confirmed");
    Ok((position_headers(position), Json(ClientConfirmed { id_user: id, confirmed: true })))
}

/// `PUT user/remove-all-login-social`: body `{idUser}`.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct RemoveSocialBody {
    id_user: Option<i64>,
}

#[utoipa::path(
    put,
    path = "/user/remove-all-login-social",
    tag = "Clients",
    summary = "Remove a client's social logins (ADMIN, ATTENDANT)",
    request_body = RemoveSocialBody,
    responses(
        (status = 200, description = "Removed", body = SocialLoginsRemoved),
        refused::Unauthenticated,
        refused::Forbidden,
        (status = 404, description = "Unknown client", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn remove_social_logins(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    Json(body): Json<RemoveSocialBody>,
) -> Result<(HeaderMap, Json<SocialLoginsRemoved>), ApiError> {
    let id = body.id_user.ok_or_else(|| ApiError::field("idUser", "Informe o cliente."))?;
    visible_client(&state, &auth, id).await?;
    let position = execute::<Client>(
        &state.events,
        &id.to_string(),
        ClientCommand::RemoveSocialLogins,
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(SocialLoginsRemoved { id_user: id, login_type: LOGIN_PASSWORD })))
}
