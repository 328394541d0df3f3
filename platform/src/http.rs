//! Extractors and layers every service uses.

use axum::extract::{FromRequest, FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, Request};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde::Serialize;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::error::ApiError;

/// Header carrying the request id, set by the edge or made here.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// JSON body extractor and response whose rejections use [`ApiError`]'s shape.
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// Query-string extractor whose rejections use [`ApiError`]'s shape.
#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(Query), rejection(ApiError))]
pub struct QueryParams<T>(pub T);

/// Path extractor whose rejections use [`ApiError`]'s shape.
#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct PathParam<T>(pub T);

/// Who is on the other end of the request: its id and address, for logs and metadata.
#[derive(Debug, Clone)]
pub struct RequestOrigin {
    /// The request id.
    pub request_id: String,
    /// The client's IP: the first `X-Forwarded-For` hop set by the edge, else `X-Real-IP`.
    pub client_ip: String,
}

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
        Ok(Self { request_id, client_ip })
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
                path = %request.uri().path(),
                request_id = %request_id,
            )
        }))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
}

/// Builds a header value from text known to be visible ASCII.
pub fn header_value(text: &str) -> HeaderValue {
    HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static("invalid"))
}
