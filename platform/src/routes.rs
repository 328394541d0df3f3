//! Every route of both services, as their OpenAPI documents give them (method, path
//! template under `/api`). The edge sends reads to query-api and writes to command-api, so
//! neither service alone knows whether a path it does not serve is served by the other. With
//! this table both answer a method a path does not serve (TRACE, PATCH, a GET of a write...)
//! with 405 and `Allow`, and only a path nobody serves with 404 (issue 39).
//! `command-api/tests/api/openapi.rs` fails when the table and the documents differ.

use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::error::ErrorBody;

/// A method on a path that does not take it.
pub const MSG_METHOD_NOT_ALLOWED: &str = "Método não permitido para este endereço.";
/// A path nobody serves.
pub const MSG_NOT_FOUND: &str = "Endereço não encontrado.";

/// `(method, template)` of every route, in path order.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/business"),
    ("GET", "/api/caixa"),
    ("POST", "/api/caixa"),
    ("GET", "/api/caixa/{id}"),
    ("POST", "/api/caixa/{id}/close"),
    ("POST", "/api/caixa/{id}/movements"),
    ("POST", "/api/caixa/{id}/reopen"),
    ("GET", "/api/changes"),
    ("POST", "/api/checkout/create-user-token"),
    ("POST", "/api/checkout/send-user-token-email"),
    ("POST", "/api/checkout/subscribe"),
    ("POST", "/api/checkout/summary"),
    ("GET", "/api/comanda"),
    ("POST", "/api/comanda"),
    ("GET", "/api/comanda/{id}"),
    ("POST", "/api/comanda/{id}/cancel"),
    ("POST", "/api/comanda/{id}/close"),
    ("PUT", "/api/comanda/{id}/discount"),
    ("GET", "/api/comanda/{id}/history"),
    ("POST", "/api/comanda/{id}/items"),
    ("DELETE", "/api/comanda/{id}/items/{idItem}"),
    ("POST", "/api/comanda/{id}/payments"),
    ("POST", "/api/comanda/{id}/payments/{idPayment}/refund"),
    ("POST", "/api/comanda/{id}/reopen"),
    ("POST", "/api/comanda/{id}/tips"),
    ("DELETE", "/api/comanda/{id}/tips/{idTip}"),
    ("POST", "/api/commission/entry"),
    ("POST", "/api/commission/period/close"),
    ("GET", "/api/commission/periods"),
    ("GET", "/api/commission/statement"),
    ("GET", "/api/commission/statement/changes"),
    ("GET", "/api/company"),
    ("POST", "/api/company"),
    ("GET", "/api/company-working-hours/{id}"),
    ("PUT", "/api/company-working-hours/{id}/day"),
    ("GET", "/api/company/filter"),
    ("GET", "/api/company/{id}"),
    ("PUT", "/api/company/{id}"),
    ("GET", "/api/company/{id}/history"),
    ("GET", "/api/dashboard"),
    ("POST", "/api/day-off"),
    ("GET", "/api/day-off/company/{idCompany}"),
    ("DELETE", "/api/day-off/{idDayOff}"),
    ("PUT", "/api/day-off/{idDayOff}"),
    ("GET", "/api/day-off/{idProfessional}"),
    ("POST", "/api/galaxpay/webhook"),
    ("GET", "/api/gallery-company/{id}"),
    ("PUT", "/api/gallery-company/{id}"),
    ("GET", "/api/health"),
    ("POST", "/api/holiday"),
    ("GET", "/api/holiday/filter"),
    ("DELETE", "/api/holiday/{id}"),
    ("GET", "/api/holiday/{id}"),
    ("PUT", "/api/holiday/{id}"),
    ("GET", "/api/media/gallery/{file}"),
    ("GET", "/api/message/day"),
    ("GET", "/api/message/summary"),
    ("GET", "/api/no-auth/online-booking/booking/{token}"),
    ("PUT", "/api/no-auth/online-booking/booking/{token}"),
    ("POST", "/api/no-auth/online-booking/booking/{token}/cancel"),
    ("GET", "/api/no-auth/online-booking/{idCompany}"),
    ("POST", "/api/no-auth/online-booking/{idCompany}/code"),
    ("POST", "/api/no-auth/online-booking/{idCompany}/scheduling"),
    ("POST", "/api/no-auth/online-booking/{idCompany}/verify"),
    ("PUT", "/api/no-auth/professional/complete-register"),
    ("GET", "/api/no-auth/scheduling/available-times"),
    ("GET", "/api/no-auth/whatsapp/webhook"),
    ("POST", "/api/no-auth/whatsapp/webhook"),
    ("GET", "/api/openapi/command.json"),
    ("GET", "/api/openapi/query.json"),
    ("GET", "/api/partner-company"),
    ("GET", "/api/product"),
    ("POST", "/api/product"),
    ("GET", "/api/product/{id}"),
    ("PUT", "/api/product/{id}"),
    ("DELETE", "/api/product/{id}/image"),
    ("POST", "/api/product/{id}/image"),
    ("GET", "/api/product/{id}/movements"),
    ("POST", "/api/product/{id}/movements"),
    ("POST", "/api/professional"),
    ("GET", "/api/professional-favorite-menu/"),
    ("POST", "/api/professional-favorite-menu/"),
    ("DELETE", "/api/professional-favorite-menu/slug/{slug}"),
    ("GET", "/api/professional-service/my-profile"),
    ("POST", "/api/professional-service/my-profile"),
    ("GET", "/api/professional-service/professional/{id}"),
    ("POST", "/api/professional-service/professional/{id}"),
    ("PUT", "/api/professional-service/{idCompanyProfessionalService}/my-profile"),
    ("PUT", "/api/professional-service/{idCompanyProfessionalService}/professional/{id}"),
    ("GET", "/api/professional-working-hours/my-profile"),
    ("PUT", "/api/professional-working-hours/my-profile/day"),
    ("GET", "/api/professional-working-hours/professional/{id}"),
    ("PUT", "/api/professional-working-hours/professional/{id}/day"),
    ("GET", "/api/professional/company/{id}"),
    ("GET", "/api/professional/filter"),
    ("GET", "/api/professional/my-profile"),
    ("PUT", "/api/professional/my-profile"),
    ("GET", "/api/professional/{id}"),
    ("PUT", "/api/professional/{id}"),
    ("GET", "/api/professional/{id}/commission"),
    ("PUT", "/api/professional/{id}/commission"),
    ("GET", "/api/professional/{id}/history"),
    ("GET", "/api/scheduling/company/{idCompany}/working-times"),
    ("GET", "/api/scheduling/professional"),
    ("POST", "/api/scheduling/professional"),
    ("PUT", "/api/scheduling/professional/{idScheduling}"),
    ("POST", "/api/scheduling/series"),
    ("POST", "/api/scheduling/series/check"),
    ("DELETE", "/api/scheduling/{idScheduling}"),
    ("GET", "/api/scheduling/{idScheduling}"),
    ("POST", "/api/scheduling/{idScheduling}/arrival"),
    ("POST", "/api/scheduling/{idScheduling}/cancel-online-origin"),
    ("PUT", "/api/scheduling/{idScheduling}/confirm"),
    ("GET", "/api/scheduling/{idScheduling}/history"),
    ("DELETE", "/api/scheduling/{idScheduling}/no-show"),
    ("POST", "/api/scheduling/{idScheduling}/no-show"),
    ("DELETE", "/api/scheduling/{idScheduling}/series"),
    ("PUT", "/api/scheduling/{idScheduling}/series"),
    ("GET", "/api/service/active"),
    ("GET", "/api/service/company/{id}"),
    ("PUT", "/api/service/{id}/products/{idProduct}"),
    ("POST", "/api/session-professional/login"),
    ("POST", "/api/session-professional/login-social-media"),
    ("POST", "/api/session-professional/logout"),
    ("POST", "/api/session-professional/recovery-code"),
    ("POST", "/api/session-professional/reset-password"),
    ("POST", "/api/session-professional/validate-recovery-code"),
    ("GET", "/api/stock"),
    ("GET", "/api/subscription-details"),
    ("POST", "/api/subscription-details"),
    ("GET", "/api/subscription-details/all"),
    ("GET", "/api/subscription-details/{id}"),
    ("PUT", "/api/subscription-details/{id}"),
    ("POST", "/api/subscription-service"),
    ("GET", "/api/subscription-service/services/{id}"),
    ("DELETE", "/api/subscription-service/{id}"),
    ("PUT", "/api/subscription-service/{id}"),
    ("GET", "/api/subscription-user"),
    ("DELETE", "/api/subscription-user/{id}"),
    ("GET", "/api/subscription-user/{id}"),
    ("POST", "/api/subscription-user/{id}/reminder"),
    ("GET", "/api/subscription-user/{id}/timeline"),
    ("GET", "/api/subscription-user/{id}/updateData"),
    ("GET", "/api/types-profile"),
    ("GET", "/api/user/filter"),
    ("POST", "/api/user/professional"),
    ("POST", "/api/user/quick"),
    ("PUT", "/api/user/remove-all-login-social"),
    ("GET", "/api/user/{id}"),
    ("PUT", "/api/user/{id}"),
    ("PUT", "/api/user/{id}/confirm"),
    ("GET", "/api/user/{id}/history"),
    ("GET", "/api/user/{id}/visits"),
];

/// Whether `template` takes `path` (a concrete path, no query string): a fixed segment
/// matches itself, a `{placeholder}` any one segment. `Some` with its count of fixed
/// segments, which decides between two templates that fit, as in the routers
/// (`/user/filter` is not `/user/{id}`).
pub fn fits(template: &str, path: &str) -> Option<usize> {
    let parts: Vec<&str> = template.trim_end_matches('/').split('/').collect();
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let fits = parts.len() == segments.len()
        && parts.iter().zip(&segments).all(|(part, segment)| part.starts_with('{') || part == segment);
    fits.then(|| parts.iter().filter(|part| !part.starts_with('{')).count())
}

/// The methods that serve `path`, sorted: those of the templates that fit it with the most
/// fixed segments.
pub fn methods_of(path: &str) -> Vec<&'static str> {
    let matching: Vec<(usize, &'static str)> =
        ROUTES.iter().filter_map(|(method, template)| Some((fits(template, path)?, *method))).collect();
    let most_fixed = matching.iter().map(|(fixed, _)| *fixed).max().unwrap_or_default();
    let mut methods: Vec<&'static str> =
        matching.into_iter().filter(|(fixed, _)| *fixed == most_fixed).map(|(_, method)| method).collect();
    methods.sort_unstable();
    methods.dedup();
    methods
}

/// The answer to a request no route of this service took: 405 with `Allow` when another
/// method serves the path (here or in the other service), else 404. Both in the JSON shape.
pub async fn unrouted(method: Method, uri: Uri) -> Response {
    let allowed = methods_of(uri.path());
    if allowed.is_empty() || allowed.contains(&method.as_str()) {
        let body = ErrorBody { message: MSG_NOT_FOUND.to_owned(), errors: None };
        return (StatusCode::NOT_FOUND, axum::Json(body)).into_response();
    }
    not_allowed(allowed)
}

/// The answer to a method a route of this service does not take: 405, with `Allow` from
/// the table when it knows the path (`/health`, outside `/api`, it does not).
pub async fn method_not_allowed(uri: Uri) -> Response {
    not_allowed(methods_of(uri.path()))
}

fn not_allowed(mut allowed: Vec<&'static str>) -> Response {
    if allowed.contains(&"GET") {
        allowed.push("HEAD");
        allowed.sort_unstable();
    }
    let body = ErrorBody { message: MSG_METHOD_NOT_ALLOWED.to_owned(), errors: None };
    let mut response = (StatusCode::METHOD_NOT_ALLOWED, axum::Json(body)).into_response();
    let allow = HeaderValue::from_str(&allowed.join(", ")).ok().filter(|_| !allowed.is_empty());
    if let Some(allow) = allow {
        response.headers_mut().insert(header::ALLOW, allow);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_served_by_the_methods_of_its_templates() {
        assert_eq!(methods_of("/api/user/7"), vec!["GET", "PUT"]);
        assert_eq!(methods_of("/api/user/filter"), vec!["GET"]);
        assert_eq!(methods_of("/api/session-professional/login"), vec!["POST"]);
        assert_eq!(methods_of("/api/professional-favorite-menu/"), vec!["GET", "POST"]);
        assert!(methods_of("/api/nothing-here").is_empty());
        assert!(methods_of("/api/user/7/8/9").is_empty());
    }
}
