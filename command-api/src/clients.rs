//! Clients: `POST user/professional` and `PUT user/{id}` (spec 02 §7). ADMIN and
//! ATTENDANT open the client form (spec 02 §6).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{post, put};
use axum::Router;
use navalha_domain::client::{Client, ClientCommand, ClientForm, CPF_SCOPE, MSG_DUPLICATE_CPF};
use navalha_domain::validation::FieldErrors;
use navalha_platform::auth::{AdminOrAttendant, Auth};
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::ApiError;
use serde_json::{json, Value};

use crate::commands::{claim_holder, execute, load, metadata_of, next_id, position_headers, DomainError};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new().route("/user/professional", post(register)).route("/user/{id}", put(update))
}

impl DomainError for navalha_domain::client::ClientError {
    fn to_api(&self) -> ApiError {
        match self {
            navalha_domain::client::ClientError::NotFound => ApiError::NotFound(self.to_string()),
            navalha_domain::client::ClientError::AlreadyRegistered => ApiError::Conflict(self.to_string()),
        }
    }
}

/// A 422 from field errors, its message the first field's.
pub fn invalid(errors: FieldErrors) -> ApiError {
    let message = errors.0.values().next().cloned().unwrap_or_default();
    ApiError::Validation { message, errors: errors.0 }
}

fn today() -> chrono::NaiveDate {
    // Dates are the unit's wall clock (UTC-3, spec 01 §5).
    (chrono::Utc::now() - chrono::Duration::hours(3)).date_naive()
}

#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn register(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    Json(form): Json<ClientForm>,
) -> Result<(StatusCode, HeaderMap, Json<Value>), ApiError> {
    let (cpf, details) = form.validate(true, today()).map_err(invalid)?;
    let cpf = cpf.ok_or_else(|| ApiError::field("cpf", "Digite o CPF"))?;
    if claim_holder(&state.pool, CPF_SCOPE, cpf.as_str()).await?.is_some() {
        return Err(ApiError::Conflict(MSG_DUPLICATE_CPF.to_owned()));
    }
    let id = next_id(&state.pool, "client_id_seq").await?;
    let metadata = metadata_of(&auth, &origin).claiming(CPF_SCOPE, cpf.as_str());
    let cpf_digits = cpf.as_str().to_owned();
    let result = execute::<Client>(
        &state.clients,
        &state.pool,
        &id.to_string(),
        ClientCommand::RegisterClient { cpf, details },
        &metadata,
    )
    .await;
    let position = match result {
        // Another request registered the same CPF between the check and the append: the
        // database refused this one.
        Err(ApiError::Conflict(_)) if claim_holder(&state.pool, CPF_SCOPE, &cpf_digits).await?.is_some() => {
            return Err(ApiError::Conflict(MSG_DUPLICATE_CPF.to_owned()))
        }
        other => other?,
    };
    tracing::info!(client_id = id, "client registered");
    Ok((StatusCode::CREATED, position_headers(position), Json(json!({ "IdUser": id }))))
}

#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, client_id = id))]
async fn update(
    State(state): State<AppState>,
    auth: Auth<AdminOrAttendant>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    Json(form): Json<ClientForm>,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    let client: Client = load(&state.pool, &id.to_string()).await?;
    if client.details().is_none() {
        return Err(ApiError::NotFound("Cliente não encontrado.".to_owned()));
    }
    let (_, details) = form.validate(false, today()).map_err(invalid)?;
    let position = execute::<Client>(
        &state.clients,
        &state.pool,
        &id.to_string(),
        ClientCommand::UpdateClient(details),
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((position_headers(position), Json(json!({ "IdUser": id }))))
}
