//! The OpenAPI documents describe routes that exist.

use axum::http::{Method, StatusCode};
use serde_json::Value;
use sqlx::PgPool;

use crate::support::System;

/// A documented path with its placeholders filled: `{slug}` by a menu slug, any other
/// (`{id}`, `{idDayOff}`, ...) by `1`.
fn concrete_path(path: &str) -> String {
    let mut concrete = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|close| open + close) else { break };
        concrete.push_str(&rest[..open]);
        concrete.push_str(if &rest[open..=close] == "{slug}" { "client" } else { "1" });
        rest = &rest[close + 1..];
    }
    concrete.push_str(rest);
    concrete
}

#[test]
fn placeholders_are_filled() {
    assert_eq!(concrete_path("/day-off/{idDayOff}"), "/day-off/1");
    assert_eq!(
        concrete_path("/professional-favorite-menu/slug/{slug}"),
        "/professional-favorite-menu/slug/client"
    );
    assert_eq!(concrete_path("/a/{x}/b/{y}"), "/a/1/b/1");
    assert_eq!(concrete_path("/holiday/filter"), "/holiday/filter");
}

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

/// The answers every operation can give are documented (fuzzing found them missing):
/// 400 for what cannot be read, 404 where a path names something, 401 where a token is
/// needed, 422 where a body is validated.
#[test]
fn every_operation_documents_the_answers_any_request_can_get() {
    for document in
        [include_str!("../../../docs/openapi/command.json"), include_str!("../../../docs/openapi/query.json")]
    {
        let document: Value = serde_json::from_str(document).expect("json");
        for (path, operations) in document["paths"].as_object().expect("paths") {
            for (method, operation) in operations.as_object().expect("operations") {
                if method == "parameters" {
                    continue;
                }
                let responses = operation["responses"].as_object().expect("responses");
                let mut wanted = vec!["400"];
                if path.contains('{') {
                    wanted.push("404");
                }
                if operation.get("security").is_some_and(|s| s.as_array().is_some_and(|s| !s.is_empty())) {
                    wanted.push("401");
                }
                if operation.get("requestBody").is_some() {
                    wanted.push("422");
                }
                for status in wanted {
                    assert!(responses.contains_key(status), "{method} {path} does not document {status}");
                }
            }
        }
    }
}
