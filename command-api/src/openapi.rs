//! command-api's OpenAPI document, built at start-up from the handlers' `#[utoipa::path]`
//! attributes (every route is added with `routes!`, so a route cannot go undocumented), and
//! served at `GET /api/openapi/command.json` (docs/api.md).

use axum::Extension;
use navalha_domain::validation::MAX_SERVICE_MINUTES;
use navalha_platform::openapi::{self, Document};
use utoipa::openapi::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::{
    attendance, caixas, clients, club, comandas, commissions, companies, days_off, favorites, gallery,
    holidays, idempotency, identity,
};
use crate::{online, online_origin, products, professionals, scheduling, whatsapp, AppState};

/// Every route under `/api` and the document that describes them.
pub fn api() -> (axum::Router<AppState>, OpenApi) {
    let (router, document) = OpenApiRouter::new()
        .merge(identity::router())
        .merge(favorites::router())
        .merge(clients::router())
        .merge(companies::router())
        .merge(gallery::router())
        .merge(professionals::router())
        .merge(scheduling::router())
        .merge(attendance::router())
        .merge(online::router())
        .merge(online_origin::router())
        .merge(days_off::router())
        .merge(holidays::router())
        .merge(club::router())
        .merge(caixas::router())
        .merge(comandas::router())
        .merge(commissions::router())
        .merge(products::router())
        .merge(whatsapp::router())
        .routes(routes!(command_document))
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
        "Navalha command API",
        "Every state change. Answers carry `X-Navalha-Position`: send it back to query-api \
         to read your own change. Every error answer has the `ErrorBody` shape.",
    );
    // Bounds from the constants the forms are checked with.
    openapi::bound_field(&mut document, "ServiceForm", "time", 1, MAX_SERVICE_MINUTES);
    let key = openapi::header_parameter(
        "Idempotency-Key",
        "A retry with the same key and request gets the first answer again (with \
         `Idempotent-Replayed: true`), even while the first is still running; another request \
         under the key is 422. Keys last 24 hours.",
        Some(idempotency::MAX_KEY_LEN),
    );
    openapi::for_each_operation(&mut document, |path, method, operation| {
        if method == "post" && !idempotency::exempt(&format!("/api{path}")) {
            operation.parameters.get_or_insert_with(Vec::new).push(key.clone());
            openapi::add_error(operation, "400", "A malformed body or Idempotency-Key");
            openapi::add_error(operation, "422", "The Idempotency-Key was used with another request");
        }
    });
    document
}

#[utoipa::path(
    get,
    path = "/openapi/command.json",
    tag = "Documents",
    summary = "This document",
    responses(
        (status = 200, description = "The OpenAPI 3.1 document of command-api", body = Object),
        (status = 400, description = "Never: nothing is read from the request", body = navalha_platform::error::ErrorBody),
    ),
)]
async fn command_document(Extension(document): Extension<Document>) -> Document {
    document
}
