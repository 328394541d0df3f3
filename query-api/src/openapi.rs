//! query-api's OpenAPI document, built at start-up from the handlers' `#[utoipa::path]`
//! attributes (every route is added with `routes!`, so a route cannot go undocumented), and
//! served at `GET /api/openapi/query.json`. command-api serves its own document
//! (docs/api.md).

use axum::Extension;
use navalha_platform::openapi::{self, Document};
use utoipa::openapi::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::paging::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};
use crate::{
    access, caixas, clients, club, comandas, commissions, companies, dashboard, days_off, history, holidays,
    live,
};
use crate::{messages, online, products, professionals, scheduling, AppState};

/// Every route under `/api` and the document that describes them.
pub fn api() -> (axum::Router<AppState>, OpenApi) {
    let (router, document) = OpenApiRouter::new()
        .merge(access::router())
        .merge(clients::router())
        .merge(dashboard::router())
        .merge(companies::router())
        .merge(professionals::router())
        .merge(days_off::router())
        .merge(holidays::router())
        .merge(scheduling::router())
        .merge(online::router())
        .merge(history::router())
        .merge(live::router())
        .merge(club::router())
        .merge(caixas::router())
        .merge(messages::router())
        .merge(comandas::router())
        .merge(commissions::router())
        .merge(products::router())
        .routes(routes!(crate::health_check))
        .routes(routes!(query_document))
        .split_for_parts();
    let document = finish(document);
    (router.layer(Extension(Document::new(&document))), document)
}

/// The document alone (tests, tools).
pub fn document() -> OpenApi {
    api().1
}

fn finish(document: OpenApi) -> OpenApi {
    let mut document = openapi::finish(
        document,
        "Navalha query API",
        "Read models: GET (and HEAD) only. Reads wait for `X-Navalha-Position` when sent. \
         Every error answer has the `ErrorBody` shape.",
    );
    // Paging bounds from the constants `PageRequest` checks.
    openapi::bound_parameter(&mut document, "page", "The page, from 1", (1, None, Some(1)));
    openapi::bound_parameter(
        &mut document,
        "pageSize",
        "Items per page",
        (1, Some(MAX_PAGE_SIZE), Some(DEFAULT_PAGE_SIZE)),
    );
    document
}

#[utoipa::path(
    get,
    path = "/openapi/query.json",
    tag = "Documents",
    summary = "This document",
    responses(
        (status = 200, description = "The OpenAPI 3.1 document of query-api", body = Object),
        (status = 400, description = "Never: nothing is read from the request", body = navalha_platform::error::ErrorBody),
    ),
)]
async fn query_document(Extension(document): Extension<Document>) -> Document {
    document
}
