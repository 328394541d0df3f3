//! Extractors and layers every service uses.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Request};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde::de::DeserializeOwned;
use serde::Serialize;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::error::{ApiError, MSG_NOT_JSON};

/// Header carrying the request id, set by the edge or made here.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Answer to text with control characters: PostgreSQL refuses NUL in text and JSON, and no
/// field of Navalha has a use for the others (line breaks and tabs in bodies excepted).
pub const MSG_CONTROL_CHARACTERS: &str = "O envio contém caracteres de controle, que não são aceitos.";

/// JSON body extractor and response whose rejections use [`ApiError`]'s shape: 400 for a
/// malformed body or one with control characters (other than line breaks and tabs), 413
/// past the body limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request<Body>, state: &S) -> Result<Self, ApiError> {
        if !is_json(request.headers()) {
            return Err(ApiError::BadRequest(MSG_NOT_JSON.to_owned()));
        }
        let bytes = Bytes::from_request(request, state).await?;
        if has_control_escape(&bytes) {
            return Err(ApiError::BadRequest(MSG_CONTROL_CHARACTERS.to_owned()));
        }
        let axum::Json(value) = axum::Json::<T>::from_bytes(&bytes)?;
        Ok(Json(value))
    }
}

/// The multipart reader, whose rejection (no multipart content type, no boundary) uses
/// [`ApiError`]'s shape instead of axum's plain text.
pub struct Multipart(pub axum::extract::Multipart);

/// A body that is not a readable multipart form.
pub const MSG_NOT_MULTIPART: &str = "Envio inválido: envie um formulário multipart/form-data.";

impl<S: Send + Sync> FromRequest<S> for Multipart {
    type Rejection = ApiError;

    async fn from_request(request: Request<Body>, state: &S) -> Result<Self, ApiError> {
        axum::extract::Multipart::from_request(request, state)
            .await
            .map(Self)
            .map_err(|_| ApiError::BadRequest(MSG_NOT_MULTIPART.to_owned()))
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    let Some(content_type) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Whether a JSON text escapes a control character (`\u0000`..`\u001f`, `\u007f`..`\u009f`)
/// other than tab, line feed and carriage return. Raw control characters are already invalid
/// JSON inside strings; escapes are where they hide.
fn has_control_escape(json: &[u8]) -> bool {
    let mut i = 0;
    while i < json.len() {
        if json[i] != b'\\' {
            i += 1;
            continue;
        }
        match json.get(i + 1) {
            Some(b'u') => {
                let code = json
                    .get(i + 2..i + 6)
                    .and_then(|hex| std::str::from_utf8(hex).ok())
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok());
                if code
                    .and_then(char::from_u32)
                    .is_some_and(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                {
                    return true;
                }
                i += 6;
            }
            // `\\`, `\"`, `\n` and the like: skip the escaped character.
            _ => i += 2,
        }
    }
    false
}

/// Whether percent-encoded text (a path or query string) holds a control character.
fn has_encoded_control(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                i += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).chars().any(char::is_control)
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// Query-string extractor whose rejections use [`ApiError`]'s shape; control characters
/// are refused with 400.
#[derive(Debug, Clone, Copy, Default)]
pub struct QueryParams<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if parts.uri.query().is_some_and(has_encoded_control) {
            return Err(ApiError::BadRequest(MSG_CONTROL_CHARACTERS.to_owned()));
        }
        let Query(value) = Query::<T>::from_request_parts(parts, state).await?;
        Ok(QueryParams(value))
    }
}

/// Path extractor whose rejections use [`ApiError`]'s shape; control characters are
/// refused with 400.
#[derive(Debug, Clone, Copy, Default)]
pub struct PathParam<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for PathParam<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if has_encoded_control(parts.uri.path()) {
            return Err(ApiError::BadRequest(MSG_CONTROL_CHARACTERS.to_owned()));
        }
        let axum::extract::Path(value) = axum::extract::Path::<T>::from_request_parts(parts, state).await?;
        Ok(PathParam(value))
    }
}

/// Who is on the other end of the request: its id and address, for logs and metadata.
#[derive(Debug, Clone)]
pub struct RequestOrigin {
    /// The request id.
    pub request_id: String,
    /// The client's IP: the first `X-Forwarded-For` hop set by the edge, else `X-Real-IP`.
    pub client_ip: String,
    /// The run of its Idempotency-Key, when it has one (command-api's idempotency layer).
    pub idempotent_run: Option<IdempotentRun>,
}

/// One run of a request under an Idempotency-Key, as command-api's idempotency layer
/// claimed it (a request extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdempotentRun(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for RequestOrigin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let header =
            |name: &str| parts.headers.get(name).and_then(|value| value.to_str().ok()).map(str::to_owned);
        let request_id = parts
            .extensions
            .get::<RequestId>()
            .and_then(|id| id.header_value().to_str().ok())
            .map(str::to_owned)
            .unwrap_or_default();
        let client_ip = header("x-forwarded-for")
            .and_then(|list| list.split(',').next().map(|ip| ip.trim().to_owned()))
            .or_else(|| header("x-real-ip"))
            .unwrap_or_default();
        let idempotent_run = parts.extensions.get::<IdempotentRun>().copied();
        Ok(Self { request_id, client_ip, idempotent_run })
    }
}

/// Adds request ids (made when missing, echoed in the answer) and a tracing span per
/// request that names the id, so every log line of a request can be found by it.
pub fn with_request_tracing<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    router
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
            let request_id =
                request.headers().get(REQUEST_ID).and_then(|value| value.to_str().ok()).unwrap_or("-");
            tracing::info_span!(
                "request",
                method = %request.method(),
                path = %loggable_path(request.uri().path()),
                request_id = %request_id,
            )
        }))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
}

/// The path as the logs show it: a segment that is a signed token (an online booking's
/// link carries one in its address) becomes `[token]`, so the logs never hold a secret.
pub fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    let is_token = |segment: &str| segment.starts_with("eyJ") && segment.matches('.').count() == 2;
    if !path.split('/').any(is_token) {
        return std::borrow::Cow::Borrowed(path);
    }
    path.split('/')
        .map(|segment| if is_token(segment) { "[token]" } else { segment })
        .collect::<Vec<_>>()
        .join("/")
        .into()
}

/// Builds a header value from text known to be visible ASCII.
pub fn header_value(text: &str) -> HeaderValue {
    HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static("invalid"))
}

#[cfg(test)]
mod tests {
    use super::{has_control_escape, has_encoded_control, loggable_path};

    #[test]
    fn tokens_in_paths_are_left_out_of_the_logs() {
        assert_eq!(
            loggable_path("/api/no-auth/online-booking/booking/eyJhbGc.eyJzdWIi.c2lnbmF0dXJl/cancel"),
            "/api/no-auth/online-booking/booking/[token]/cancel"
        );
        assert_eq!(loggable_path("/api/scheduling/12"), "/api/scheduling/12");
    }

    #[test]
    fn control_characters_are_found_where_they_hide() {
        assert!(has_control_escape(br#"{"name": "a\u0000b"}"#));
        assert!(has_control_escape(br#"{"name": "\u001B[31m"}"#));
        assert!(has_control_escape(br#"{"name": "\u0085"}"#), "C1 controls too");
        assert!(!has_control_escape(br#"{"text": "line\nbreak\ttab\u000a\u00e9"}"#));
        assert!(!has_control_escape(br#"{"path": "C:\\u0000"}"#), "an escaped backslash, then text");
        assert!(has_encoded_control("paymentMethod=boleto%00"));
        assert!(has_encoded_control("/api/x/%0a"));
        assert!(has_encoded_control("q=%C2%85"));
        assert!(!has_encoded_control("description=Jo%C3%A3o+da+Silva&page=1"));
        assert!(!has_encoded_control("q=100%"), "a stray percent sign is text");
    }
}
