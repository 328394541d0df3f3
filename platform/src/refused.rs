//! The refusals most calls can answer, described once for the OpenAPI documents: a handler
//! lists them beside its own answers (`responses((status = 200, ...), refused::Forbidden,
//! refused::NotFound)`). A refusal that says something particular to its call (which role,
//! which record) stays a tuple in that call's `responses`.

use crate::error::ErrorBody;

/// 400: a body that is not JSON of the call's shape, or a malformed `Idempotency-Key`.
#[derive(utoipa::IntoResponses)]
#[response(status = 400, description = "A malformed body or Idempotency-Key")]
pub struct Malformed(pub ErrorBody);

/// 401: no token, or one whose session has ended.
#[derive(utoipa::IntoResponses)]
#[response(status = 401, description = "No token, or one whose session has ended")]
pub struct Unauthenticated(pub ErrorBody);

/// 403: the caller's role may not do this.
#[derive(utoipa::IntoResponses)]
#[response(status = 403, description = "Role not allowed")]
pub struct Forbidden(pub ErrorBody);

/// 404: an unknown id, or one of another business or of a unit the caller does not see.
#[derive(utoipa::IntoResponses)]
#[response(status = 404, description = "Unknown or invisible id")]
pub struct NotFound(pub ErrorBody);

/// 422: a field failed validation; `errors` names the fields.
#[derive(utoipa::IntoResponses)]
#[response(status = 422, description = "Validation failed: `errors` names the fields")]
pub struct Invalid(pub ErrorBody);
