//! The one error type of the HTTP services and its JSON shape:
//! `{"message": "..."}` plus `"errors": {field: message}` on validation failures.

use std::collections::BTreeMap;

use axum::extract::rejection::{BytesRejection, JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::bad_input;

/// Message for a missing, expired or forged token. The web app signs out silently on 401,
/// so users never read it; API clients do.
pub const MSG_UNAUTHORIZED: &str = "Sessão expirada. Faça login novamente.";
/// Message for a role that may not do what it asked.
pub const MSG_FORBIDDEN: &str = "Você não tem permissão para realizar esta ação.";
/// Message for an unknown id, or one the user may not see.
pub const MSG_NOT_FOUND: &str = "Registro não encontrado.";
/// Message for an aggregate that kept changing under the command.
pub const MSG_CONCURRENT_CHANGE: &str =
    "O registro foi alterado por outra pessoa ao mesmo tempo. Tente novamente.";
/// Message for a body that is not JSON where JSON is expected.
pub const MSG_NOT_JSON: &str = "Envie o corpo como JSON (Content-Type: application/json).";
/// Message for a body past the limit of its route.
pub const MSG_TOO_LARGE: &str = "O envio excede o tamanho máximo permitido.";
/// Message for any failure whose detail must not reach the client.
pub const MSG_INTERNAL: &str = "Ocorreu um erro inesperado. Tente novamente em instantes.";
/// Message when the database cannot be reached (down, restarting, failing over): a 503 the
/// apps retry, not a 500.
pub const MSG_UNAVAILABLE: &str = "Serviço indisponível no momento. Tente novamente em instantes.";

/// Whether `error`, or any error it was caused by, says the database cannot be reached
/// right now, rather than that the request or the code is at fault: no connection, a
/// connection cut, or PostgreSQL shutting down, crashed or still starting.
pub fn is_database_outage(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(error) = next {
        if let Some(error) = error.downcast_ref::<sqlx::Error>() {
            let outage = match error {
                sqlx::Error::Io(_)
                | sqlx::Error::PoolTimedOut
                | sqlx::Error::PoolClosed
                | sqlx::Error::WorkerCrashed => true,
                // A connection closed before it answered the TLS request (a proxy with no
                // primary behind it, mid-failover): sqlx 0.8 reports the end of the stream
                // as this byte (sqlx issue 4395, fixed after 0.8.6).
                sqlx::Error::Protocol(text) => text.starts_with("unexpected response from SSLRequest: 0x00 "),
                // Class 08: connection exception; 57P01-03: admin or crash shutdown, or
                // not accepting connections yet.
                sqlx::Error::Database(db) => db.code().is_some_and(|code| {
                    code.starts_with("08") || matches!(&*code, "57P01" | "57P02" | "57P03")
                }),
                _ => false,
            };
            if outage {
                return true;
            }
        }
        if let Some(error) = error.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind::*;
            if matches!(
                error.kind(),
                ConnectionRefused
                    | ConnectionReset
                    | ConnectionAborted
                    | BrokenPipe
                    | NotConnected
                    | UnexpectedEof
            ) {
                return true;
            }
        }
        next = error.source();
    }
    false
}

/// Everything an HTTP handler can answer besides success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request is malformed.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no token, or a bad one.
    #[error("{MSG_UNAUTHORIZED}")]
    Unauthorized,
    /// 401: a one-time verification (an online-booking token, not a staff session) is
    /// missing or too old; the message says what to do.
    #[error("{0}")]
    VerificationExpired(String),
    /// 403: the role may not do this.
    #[error("{MSG_FORBIDDEN}")]
    Forbidden,
    /// 404: unknown id, or one outside the user's units.
    #[error("{0}")]
    NotFound(String),
    /// 409: the request conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    /// 409 that a field of the form lifts when resent (e.g. `allowClientOverlap`, 'Agendar
    /// mesmo assim'): answered with `errors: {field: message}` so the form can offer it.
    #[error("{message}")]
    ConflictOn {
        /// The form's field that lifts the conflict.
        field: String,
        /// What to tell the user.
        message: String,
    },
    /// 422: field validation failed.
    #[error("{message}")]
    Validation {
        /// Summary shown as the toast.
        message: String,
        /// One message per offending field.
        errors: BTreeMap<String, String>,
    },
    /// 422: the request is well formed but cannot be carried out.
    #[error("{0}")]
    Unprocessable(String),
    /// 413: the body is larger than the route takes.
    #[error("{MSG_TOO_LARGE}")]
    PayloadTooLarge,
    /// 429: too many attempts; answered with `Retry-After`.
    #[error("{message}")]
    TooManyRequests {
        /// What to tell the user.
        message: String,
        /// Seconds until trying again may succeed.
        retry_after_seconds: u64,
    },
    /// 503: a dependency is down.
    #[error("{0}")]
    Unavailable(String),
    /// 500: logged in full, answered with a generic message.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The body of every error answer, whatever its status (the OpenAPI documents reference it
/// from every error status).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(example = json!({
    "message": "Nome completo é obrigatório",
    "errors": { "name": "Nome completo é obrigatório" }
}))]
pub struct ErrorBody {
    /// What went wrong, in Brazilian Portuguese, ready to show to the user.
    pub message: String,
    /// On 422 validation failures, one message per offending field (the form's field
    /// names); on a 409 a field of the form lifts, that field (e.g. `allowClientOverlap`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<BTreeMap<String, String>>,
}

impl ApiError {
    /// A 404 with the generic message.
    pub fn not_found() -> Self {
        Self::NotFound(MSG_NOT_FOUND.to_owned())
    }

    /// A 422 for a single field.
    pub fn field(field: &str, message: &str) -> Self {
        Self::Validation {
            message: message.to_owned(),
            errors: BTreeMap::from([(field.to_owned(), message.to_owned())]),
        }
    }

    /// The HTTP status of this error.
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::VerificationExpired(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) | ApiError::ConflictOn { .. } => StatusCode::CONFLICT,
            ApiError::Validation { .. } | ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(error) if outage(error) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Whether an internal error is a database outage (see [`is_database_outage`]).
fn outage(error: &anyhow::Error) -> bool {
    error.chain().any(is_database_outage)
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        Self::Internal(error.into())
    }
}

impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> Self {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Self::PayloadTooLarge
        } else {
            Self::BadRequest("Não foi possível ler o corpo da requisição.".to_owned())
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return Self::PayloadTooLarge;
        }
        let message = match rejection {
            JsonRejection::MissingJsonContentType(_) => MSG_NOT_JSON.to_owned(),
            JsonRejection::JsonDataError(error) => {
                // axum's text reads "...target type: [<field path>: ]<serde message>".
                let text = error.body_text();
                let detail = text.split_once("target type: ").map_or(text.as_str(), |(_, rest)| rest);
                match detail.split_once(": ") {
                    Some((path, serde_text)) if !path.contains(' ') => {
                        bad_input::body_message(path, serde_text)
                    }
                    _ => bad_input::body_message("", detail),
                }
            }
            _ => "O corpo da requisição não é um JSON válido.".to_owned(),
        };
        Self::BadRequest(message)
    }
}

impl From<PathRejection> for ApiError {
    fn from(_: PathRejection) -> Self {
        Self::BadRequest("Identificador inválido no endereço.".to_owned())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        Self::BadRequest(bad_input::query_message(&rejection.body_text()))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status_code();
        let message = match &self {
            ApiError::Internal(error) if outage(error) => {
                tracing::warn!(error = %format!("{error:#}"), "database unreachable: answered 503");
                MSG_UNAVAILABLE.to_owned()
            }
            ApiError::Internal(error) => {
                tracing::error!(error = ?error, "request failed");
                MSG_INTERNAL.to_owned()
            }
            other => other.to_string(),
        };
        let errors = match &self {
            ApiError::Validation { errors, .. } => Some(errors.clone()),
            ApiError::ConflictOn { field, message } => {
                Some(BTreeMap::from([(field.clone(), message.clone())]))
            }
            _ => None,
        };
        let mut response = (status, axum::Json(ErrorBody { message, errors })).into_response();
        if let ApiError::TooManyRequests { retry_after_seconds, .. } = self {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, retry_after_seconds.into());
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outage_of(error: sqlx::Error) -> bool {
        outage(&anyhow::Error::from(error).context("booking"))
    }

    #[test]
    fn a_lost_or_refused_connection_is_an_outage_and_a_bad_query_is_not() {
        let io = |kind| sqlx::Error::Io(std::io::Error::from(kind));
        assert!(outage_of(io(std::io::ErrorKind::ConnectionRefused)));
        assert!(outage_of(io(std::io::ErrorKind::UnexpectedEof)));
        assert!(outage_of(sqlx::Error::PoolTimedOut));
        // A proxy that closed the connection before any primary answered (issue 46, item 4).
        assert!(outage_of(sqlx::Error::Protocol(
            "unexpected response from SSLRequest: 0x00 (sqlx_postgres::connection::tls:95)".into()
        )));
        assert!(!outage_of(sqlx::Error::Protocol("unexpected response from SSLRequest: 0x45".into())));
        assert!(!outage_of(sqlx::Error::RowNotFound));
    }
}
