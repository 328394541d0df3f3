//! The OpenAPI documents of both APIs. Both are served here because the edge sends every
//! GET to query-api.

use axum::http::header;
use axum::routing::get;
use axum::Router;

use crate::AppState;

const COMMAND: &str = include_str!("../../docs/openapi/command.json");
const QUERY: &str = include_str!("../../docs/openapi/query.json");

/// `GET /openapi/command.json` and `GET /openapi/query.json`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/openapi/command.json",
            get(|| async { ([(header::CONTENT_TYPE, "application/json")], COMMAND) }),
        )
        .route("/openapi/query.json", get(|| async { ([(header::CONTENT_TYPE, "application/json")], QUERY) }))
}
