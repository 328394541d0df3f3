//! What the OpenAPI documents of both APIs share. Each API builds its own document at run
//! time from its handlers' `#[utoipa::path]` attributes and its types' `ToSchema` derives
//! (docs/api.md); [`finish`] adds what every operation has in common: the bearer scheme,
//! the error body, and the answers any request can get.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa::openapi::path::{Operation, Parameter};
use utoipa::openapi::schema::{Object, Schema, SchemaType, Type};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, RefOr, ResponseBuilder, Server};
use utoipa::{PartialSchema, ToSchema};

use crate::error::ErrorBody;

/// The name of the bearer-token security scheme that operations reference
/// (`security(("bearer" = []))`).
pub const BEARER: &str = "bearer";

/// Completes a document built from handlers: its title and description, the `/api` prefix
/// every path is served under, the bearer scheme, the error body, and on every operation
/// the 400 of input that cannot be read, the 503 a database outage answers and, where a
/// token is needed, the 401. An operation that documents one of these itself keeps its own.
pub fn finish(mut document: OpenApi, title: &str, description: &str) -> OpenApi {
    document.info.title = title.to_owned();
    document.info.description = Some(description.to_owned());
    document.info.version = env!("CARGO_PKG_VERSION").to_owned();
    document.info.license = None;
    document.info.contact = None;
    document.servers = Some(vec![Server::new("/api")]);
    let components = document.components.get_or_insert_with(Default::default);
    components.add_security_scheme(
        BEARER,
        SecurityScheme::Http(
            Http::builder().scheme(HttpAuthScheme::Bearer).bearer_format("JWT (EdDSA)").build(),
        ),
    );
    components.schemas.insert(ErrorBody::name().into_owned(), <ErrorBody as PartialSchema>::schema());
    for_each_operation(&mut document, |_, _, operation| {
        // Handler names repeat across modules (`one`, `change`): the tag makes them unique.
        let tag = operation.tags.iter().flatten().next().map(|tag| camel(tag)).unwrap_or_default();
        if let Some(id) = &operation.operation_id {
            operation.operation_id = Some(format!("{}{}", tag, capitalized(&camel(id))));
        }
        let secured = operation.security.as_ref().is_some_and(|s| !s.is_empty());
        if secured {
            add_error(
                operation,
                "401",
                "No token, or one that is expired, forged or of a session that ended",
            );
        }
        add_error(operation, "400", MSG_MALFORMED_DOC);
        add_error(operation, "503", MSG_UNAVAILABLE_DOC);
    });
    document
}

const MSG_MALFORMED_DOC: &str = "Malformed input: an id, parameter or body that cannot be read";
const MSG_UNAVAILABLE_DOC: &str =
    "The database cannot be reached right now (down, restarting, failing over): retry shortly";

/// `days off` and `add_service` as `daysOff` and `addService`.
fn camel(text: &str) -> String {
    let mut words = text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty());
    let first = words.next().unwrap_or_default().to_lowercase();
    words.fold(first, |camel, word| camel + &capitalized(&word.to_lowercase()))
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// An error answer with the shared body, unless the operation documents that status already.
pub fn add_error(operation: &mut Operation, status: &str, description: &str) {
    if operation.responses.responses.contains_key(status) {
        return;
    }
    operation.responses.responses.insert(status.to_owned(), RefOr::T(error_response(description)));
}

/// A response whose body is the shared [`ErrorBody`].
pub fn error_response(description: &str) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content("application/json", ContentBuilder::new().schema(Some(ErrorBody::name_ref())).build())
        .build()
}

trait NameRef {
    fn name_ref() -> RefOr<Schema>;
}

impl<T: ToSchema> NameRef for T {
    fn name_ref() -> RefOr<Schema> {
        RefOr::Ref(utoipa::openapi::Ref::from_schema_name(T::name()))
    }
}

/// Calls `visit(path, method, operation)` for every operation of the document.
pub fn for_each_operation(document: &mut OpenApi, mut visit: impl FnMut(&str, &str, &mut Operation)) {
    for (path, item) in document.paths.paths.iter_mut() {
        let operations = [
            ("get", &mut item.get),
            ("put", &mut item.put),
            ("post", &mut item.post),
            ("delete", &mut item.delete),
            ("patch", &mut item.patch),
            ("head", &mut item.head),
        ];
        for (method, operation) in operations {
            if let Some(operation) = operation {
                visit(path, method, operation);
            }
        }
    }
}

/// Sets the bounds of every parameter named `name` (an integer), from the constants the
/// validation code uses, so the document cannot drift from them.
pub fn bound_parameter(
    document: &mut OpenApi,
    name: &str,
    description: &str,
    (minimum, maximum, default): (i64, Option<i64>, Option<i64>),
) {
    for_each_operation(document, |_, _, operation| {
        for parameter in operation.parameters.iter_mut().flatten() {
            if parameter.name == name {
                parameter.schema = Some(RefOr::T(bounded_integer(minimum, maximum, default)));
                parameter.description.get_or_insert_with(|| description.to_owned());
            }
        }
    });
}

/// Sets the bounds of an integer field of a named schema, from the constants the validation
/// code uses.
pub fn bound_field(document: &mut OpenApi, schema: &str, field: &str, minimum: i64, maximum: i64) {
    let Some(components) = document.components.as_mut() else { return };
    let Some(RefOr::T(Schema::Object(object))) = components.schemas.get_mut(schema) else { return };
    if let Some(RefOr::T(Schema::Object(property))) = object.properties.get_mut(field) {
        property.minimum = Some(minimum.into());
        property.maximum = Some(maximum.into());
    }
}

/// An integer schema with bounds, for fields and parameters whose bounds are constants.
pub fn bounded_integer(minimum: i64, maximum: Option<i64>, default: Option<i64>) -> Schema {
    let mut object = Object::with_type(SchemaType::Type(Type::Integer));
    object.format = Some(utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64));
    object.minimum = Some(minimum.into());
    object.maximum = maximum.map(Into::into);
    object.default = default.map(Into::into);
    Schema::Object(object)
}

/// A header parameter, for extractors and layers that read one.
pub fn header_parameter(name: &str, description: &str, max_length: Option<usize>) -> Parameter {
    let mut schema = Object::with_type(SchemaType::Type(Type::String));
    schema.max_length = max_length;
    Parameter::builder()
        .name(name)
        .parameter_in(utoipa::openapi::path::ParameterIn::Header)
        .required(utoipa::openapi::Required::False)
        .description(Some(description))
        .schema(Some(RefOr::T(Schema::Object(schema))))
        .build()
}

/// The answer of `GET /openapi/<api>.json`: the document, serialized once.
#[derive(Clone)]
pub struct Document(std::sync::Arc<str>);

impl Document {
    /// Serializes `document`.
    pub fn new(document: &OpenApi) -> Self {
        Self(document.to_pretty_json().unwrap_or_else(|_| "{}".to_owned()).into())
    }
}

impl IntoResponse for Document {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0.to_string()).into_response()
    }
}
