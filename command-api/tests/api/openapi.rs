//! The OpenAPI documents describe routes that exist.

use axum::http::{Method, StatusCode};
use serde_json::Value;
use sqlx::PgPool;

use crate::support::System;

#[sqlx::test(migrations = "../migrations")]
async fn every_documented_operation_is_routed(pool: PgPool) {
    let system = System::start(pool).await;
    for document in ["/api/openapi/command.json", "/api/openapi/query.json"] {
        let answer = system.call(Method::GET, document, None, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{document}");
        assert_eq!(answer.body["openapi"], "3.0.3");
        let paths = answer.body["paths"].as_object().expect("paths").clone();
        assert!(!paths.is_empty());
        for (path, operations) in paths {
            for method in operations.as_object().expect("operations").keys().filter(|k| *k != "parameters") {
                let method: Method = method.to_uppercase().parse().expect("method");
                let concrete = format!("/api{}", concrete_path(&path));
                let body =
                    matches!(method, Method::POST | Method::PUT).then(|| Value::Object(Default::default()));
                let reply = system.call(method.clone(), &concrete, None, body).await;
                assert_ne!(reply.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {concrete}");
                assert_ne!(reply.message(), "Endereço não encontrado.", "{method} {concrete}");
            }
        }
    }
}

/// A documented path with its placeholders filled: `{slug}` with a menu slug, any other
/// `{name}` with 1.
fn concrete_path(path: &str) -> String {
    let mut concrete = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        concrete.push_str(&rest[..start]);
        let end = rest[start..].find('}').map_or(rest.len(), |end| start + end + 1);
        concrete.push_str(if &rest[start..end] == "{slug}" { "client" } else { "1" });
        rest = &rest[end..];
    }
    concrete.push_str(rest);
    concrete
}
