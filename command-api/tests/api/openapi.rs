//! The OpenAPI documents, built from the handlers, describe the routes that exist, every
//! route that exists, and the answers the routes give.

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::Value;

use crate::support::System;

/// Both documents as the services build them.
pub(crate) fn documents() -> [(&'static str, Value); 2] {
    let json = |document: utoipa::openapi::OpenApi| serde_json::to_value(document).expect("json");
    [
        ("command", json(navalha_command_api::openapi::document())),
        ("query", json(navalha_query_api::openapi::document())),
    ]
}

/// The web app's types are generated from the documents (`web/src/api/generated.ts`, by
/// `npm run gen:api` in `web/`), so a copy of each is kept beside them. A document that
/// changed without its copy fails here, which writes the copy; the web unit tests then fail
/// until the types are generated again from it.
#[test]
fn the_web_apps_copies_of_the_documents_are_current() {
    let mut written = Vec::new();
    for (api, built) in documents() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../web/src/api/openapi/{api}.json"));
        let text = serde_json::to_string_pretty(&built).expect("json") + "\n";
        if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            std::fs::create_dir_all(file.parent().expect("dir")).expect("dir");
            std::fs::write(&file, &text).expect("write the copy");
            written.push(file.display().to_string());
        }
    }
    assert!(
        written.is_empty(),
        "the OpenAPI documents changed and their copies were written now: run `npm run gen:api` in web/ \
         and commit the copies and the types: {written:?}"
    );
}

/// `(method, path, operation)` of every operation of a document.
pub(crate) fn operations(document: &Value) -> Vec<(String, String, Value)> {
    let mut all = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("item") {
            if method != "parameters" {
                all.push((method.clone(), path.clone(), operation.clone()));
            }
        }
    }
    all
}

/// A documented path with its placeholders filled: `{slug}` by a menu slug, `{file}` by a
/// file name, any other (`{id}`, `{idDayOff}`, ...) by `1`.
fn concrete_path(path: &str) -> String {
    let mut concrete = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|close| open + close) else { break };
        concrete.push_str(&rest[..open]);
        concrete.push_str(match &rest[open..=close] {
            "{slug}" => "client",
            "{file}" => "a.jpg",
            _ => "1",
        });
        rest = &rest[close + 1..];
    }
    concrete.push_str(rest);
    concrete
}

/// Every documented operation of both services, as `("GET", "/api/user/{id}")`.
pub(crate) fn documented_routes() -> BTreeSet<(String, String)> {
    documents()
        .iter()
        .flat_map(|(_, document)| operations(document))
        .map(|(method, path, _)| (method.to_uppercase(), format!("/api{path}")))
        .collect()
}

/// The documented route a call to `path` (query string and all) takes, if any, matched as
/// the routers match (`navalha_platform::routes::fits`).
pub(crate) fn route_of(
    routes: &BTreeSet<(String, String)>,
    method: &Method,
    path: &str,
) -> Option<(String, String)> {
    let path = path.split('?').next().unwrap_or_default();
    routes
        .iter()
        .filter(|(m, _)| m == method.as_str())
        .filter_map(|route| Some((navalha_platform::routes::fits(&route.1, path)?, route.clone())))
        .max_by_key(|(fixed, _)| *fixed)
        .map(|(_, route)| route)
}

/// The route table both services answer 405 from is the documents' (issue 39).
#[test]
fn the_route_table_is_the_documents() {
    let table: BTreeSet<(String, String)> = navalha_platform::routes::ROUTES
        .iter()
        .map(|(method, path)| ((*method).to_owned(), (*path).to_owned()))
        .collect();
    let documented = documented_routes();
    let lines = |routes: &BTreeSet<(String, String)>| -> String {
        routes.iter().map(|(method, path)| format!("    (\"{method}\", \"{path}\"),\n")).collect()
    };
    assert!(
        table == documented,
        "platform/src/routes.rs's ROUTES differs from the documents; the documents have:\n{}",
        lines(&documented)
    );
}

/// TRACE, PATCH or a method a path does not serve is 405 with `Allow`, reads included, in
/// the JSON shape; a path nobody serves is 404.
#[tokio::test]
async fn a_method_a_path_does_not_serve_is_405_with_allow() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let trace: Method = "TRACE".parse().expect("method");
    for (method, path, allow) in [
        (trace.clone(), "/api/company/filter", "GET, HEAD"),
        (trace.clone(), "/api/company", "GET, HEAD, POST"),
        (Method::PATCH, "/api/holiday/1", "DELETE, GET, HEAD, PUT"),
        (Method::DELETE, "/api/user/1", "GET, HEAD, PUT"),
        (Method::DELETE, "/api/company/filter", "GET, HEAD"),
        (Method::GET, "/api/session-professional/login", "POST"),
    ] {
        let answer = system.call(method.clone(), path, Some(&admin), None).await;
        assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}: {answer:?}");
        assert_eq!(answer.headers["allow"], allow, "{method} {path}");
        assert_eq!(answer.message(), navalha_platform::routes::MSG_METHOD_NOT_ALLOWED);
    }
    for method in [trace, Method::GET, Method::POST] {
        let answer = system.call(method.clone(), "/api/nothing-here", Some(&admin), None).await;
        assert_eq!(
            (answer.status, answer.message()),
            (StatusCode::NOT_FOUND, "Endereço não encontrado."),
            "{method}"
        );
    }
}

#[test]
fn a_call_finds_its_documented_route() {
    let routes = documented_routes();
    let of = |method: Method, path: &str| route_of(&routes, &method, path).map(|(_, template)| template);
    assert_eq!(of(Method::GET, "/api/holiday/filter?page=1").as_deref(), Some("/api/holiday/filter"));
    assert_eq!(of(Method::GET, "/api/holiday/7").as_deref(), Some("/api/holiday/{id}"));
    assert_eq!(of(Method::GET, "/api/user/7/visits").as_deref(), Some("/api/user/{id}/visits"));
    assert_eq!(
        of(Method::POST, "/api/professional-favorite-menu/").as_deref(),
        Some("/api/professional-favorite-menu/")
    );
    assert_eq!(of(Method::PATCH, "/api/holiday/7"), None);
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

/// Every documented operation is routed, and the answer to a request without a token or a
/// body is one of the statuses the operation documents.
#[tokio::test]
async fn every_documented_operation_is_routed_and_answers_as_documented() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    for (api, built) in documents() {
        let served = system.call(Method::GET, &format!("/api/openapi/{api}.json"), None, None).await;
        assert_eq!(served.status, StatusCode::OK, "{api}");
        assert_eq!(served.body, built, "the {api} document served is the one the code builds");
        for (method, path, operation) in operations(&built) {
            let method: Method = method.to_uppercase().parse().expect("method");
            let concrete = format!("/api{}", concrete_path(&path));
            let body =
                matches!(method, Method::POST | Method::PUT).then(|| Value::Object(Default::default()));
            let reply = system.call(method.clone(), &concrete, None, body).await;
            assert_ne!(reply.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {concrete}");
            assert_ne!(reply.message(), "Endereço não encontrado.", "{method} {concrete}");
            let status = reply.status.as_u16().to_string();
            assert!(
                operation["responses"].get(&status).is_some(),
                "{method} {path} answered {status} without a token, which it does not document"
            );
        }
    }
}

/// The reverse: every route the routers have is in a document. Routes added with
/// `routes!` are documented by construction; this finds any added with a plain `.route(`,
/// which only the trailing-slash aliases of documented paths and command-api's own
/// `/health` (outside `/api`) may use.
#[test]
fn every_route_is_documented() {
    let [(_, command), (_, query)] = documents();
    for (crate_dir, document) in [("../command-api/src", &command), ("../query-api/src", &query)] {
        let documented: BTreeSet<String> = operations(document)
            .into_iter()
            .map(|(method, path, _)| format!("{method} {}", path.trim_end_matches('/')))
            .collect();
        let mut sources = Vec::new();
        collect_sources(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(crate_dir), &mut sources);
        assert!(!sources.is_empty());
        for (file, text) in sources {
            for (index, _) in text.match_indices(".route(") {
                let rest = text[index + ".route(".len()..].trim_start();
                let rest = rest.strip_prefix('"').expect("a literal path");
                let path = &rest[..rest.find('"').expect("path literal")];
                let call = &rest[..rest.find(')').unwrap_or(rest.len())];
                let method = ["get", "post", "put", "delete"]
                    .into_iter()
                    .find(|method| call.contains(&format!("{method}(")))
                    .expect("a method router");
                let own_health = crate_dir.contains("command") && path == "/health";
                let key = format!("{method} {}", path.trim_end_matches('/'));
                assert!(
                    own_health || documented.contains(&key),
                    "{}: `.route(\"{path}\"` is not documented; add it with `routes!`",
                    file.display()
                );
            }
        }
    }
}

fn collect_sources(dir: std::path::PathBuf, into: &mut Vec<(std::path::PathBuf, String)>) {
    for entry in std::fs::read_dir(&dir).expect("src").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_sources(path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source");
            into.push((path, text));
        }
    }
}

/// The answers every operation can give are documented (fuzzing found them missing):
/// 400 for what cannot be read, 404 where a path names something, 401 where a token is
/// needed, 422 where a body is validated; every error answer has the one error body.
#[test]
fn every_operation_documents_the_answers_any_request_can_get() {
    for (api, document) in documents() {
        let text = serde_json::to_string(&document).expect("json");
        let reread: Value = serde_json::from_str(&text).expect("valid JSON");
        assert!(reread["openapi"].as_str().is_some_and(|v| v.starts_with("3.")), "{api}");
        assert_eq!(reread["servers"][0]["url"], "/api");
        assert_eq!(reread["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
        assert!(reread["components"]["schemas"]["ErrorBody"]["properties"]["errors"].is_object());
        let mut ids = BTreeSet::new();
        for (method, path, operation) in operations(&document) {
            assert!(ids.insert(operation["operationId"].to_string()), "{method} {path}: operationId repeats");
            assert!(operation["summary"].is_string(), "{method} {path} has no summary");
            let responses = operation["responses"].as_object().expect("responses");
            let mut wanted = vec!["400", "503"];
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
            for (status, response) in responses {
                // `/health` answers its own body with 503: load balancers read it.
                let own_body = path == "/health" && status == "503";
                if (status.starts_with('4') || status.starts_with('5')) && !own_body {
                    let schema = &response["content"]["application/json"]["schema"]["$ref"];
                    assert_eq!(schema, "#/components/schemas/ErrorBody", "{method} {path} {status}");
                }
            }
        }
    }
}

/// Bounds come from the constants the code checks.
#[test]
fn bounds_are_the_codes() {
    let [(_, command), (_, query)] = documents();
    let page_size = operations(&query)
        .into_iter()
        .flat_map(|(_, _, operation)| operation["parameters"].as_array().cloned().unwrap_or_default())
        .find(|parameter| parameter["name"] == "pageSize")
        .expect("a paged list");
    assert_eq!(page_size["schema"]["maximum"], navalha_query_api::paging::MAX_PAGE_SIZE);
    assert_eq!(page_size["schema"]["minimum"], 1);
    let key = operations(&command)
        .into_iter()
        .flat_map(|(_, _, operation)| operation["parameters"].as_array().cloned().unwrap_or_default())
        .find(|parameter| parameter["name"] == "Idempotency-Key")
        .expect("a create");
    assert_eq!(key["schema"]["maxLength"], navalha_command_api::idempotency::MAX_KEY_LEN);
    let minutes = &command["components"]["schemas"]["ServiceForm"]["properties"]["time"];
    assert_eq!(minutes["maximum"], navalha_domain::validation::MAX_SERVICE_MINUTES);
}

/// Every `oneOf` of object schemas is one that a value matches only one way: each
/// alternative requires a property that no other alternative has. An alternative whose
/// properties are all optional matches any object, so a value of another alternative
/// matched both and broke the document's own promise (the fuzzer found the subscription
/// timeline's webhook source so).
#[test]
fn each_alternative_of_a_one_of_requires_a_property_of_its_own() {
    for (api, document) in documents() {
        let schemas = &document["components"]["schemas"];
        let resolve = |schema: &Value| -> Value {
            match schema["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/schemas/")) {
                Some(name) => schemas[name].clone(),
                None => schema.clone(),
            }
        };
        let text = serde_json::to_string(&document).expect("json");
        let mut one_ofs = Vec::new();
        collect_one_ofs(&serde_json::from_str(&text).expect("json"), &mut one_ofs);
        for alternatives in one_ofs {
            let objects: Vec<Value> =
                alternatives.iter().map(resolve).filter(|schema| schema["properties"].is_object()).collect();
            if objects.len() < 2 {
                continue;
            }
            for (i, object) in objects.iter().enumerate() {
                let required: Vec<&str> =
                    object["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                let own = required.iter().any(|name| {
                    objects
                        .iter()
                        .enumerate()
                        .all(|(j, other)| j == i || other["properties"].get(*name).is_none())
                });
                assert!(own, "{api}: an alternative of a oneOf requires no property of its own: {object}");
            }
        }
    }
}

/// Every `oneOf` list of `value`, depth first.
fn collect_one_ofs(value: &Value, into: &mut Vec<Vec<Value>>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Array(alternatives)) = map.get("oneOf") {
                into.push(alternatives.clone());
            }
            map.values().for_each(|v| collect_one_ofs(v, into));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_one_ofs(v, into)),
        _ => {}
    }
}

/// utoipa keeps one schema per name, so two `ToSchema` types of one service that share a
/// name make the document describe one of the answers wrongly (the fuzzer once caught it as
/// a response violating its schema). Every type a service's document can name must have a
/// name of its own: its Rust name, or the one `#[schema(as = ...)]` gives it.
#[test]
fn no_two_schema_types_of_a_service_share_a_name() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shared = ["domain/src", "platform/src"];
    for service in ["command-api/src", "query-api/src"] {
        let mut seen: std::collections::BTreeMap<String, String> = Default::default();
        let mut clashes = Vec::new();
        for dir in shared.iter().chain([&service]) {
            for (file, name) in schema_type_names(&root.join(dir)) {
                if let Some(other) = seen.insert(name.clone(), file.clone()) {
                    clashes.push(format!("{name}: {other} and {file}"));
                }
            }
        }
        assert!(clashes.is_empty(), "{service}: schema names used twice: {clashes:#?}");
    }
}

/// `(file, schema name)` of every type deriving `ToSchema` under `dir`.
fn schema_type_names(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read the sources").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source");
            let lines: Vec<&str> = text.lines().collect();
            for (at, line) in lines.iter().enumerate() {
                if !(line.trim_start().starts_with("#[derive(") && line.contains("ToSchema")) {
                    continue;
                }
                let mut renamed = None;
                for next in lines.iter().skip(at + 1).take(12) {
                    let next = next.trim_start();
                    if let Some(rest) = next.strip_prefix("#[schema(as = ") {
                        renamed = rest.split([')', ',']).next().map(str::to_owned);
                    }
                    let declared = ["pub struct ", "pub enum ", "struct ", "enum ", "pub(crate) struct "]
                        .iter()
                        .find_map(|start| next.strip_prefix(start));
                    if let Some(rest) = declared {
                        let own: String =
                            rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        found.push((path.display().to_string(), renamed.unwrap_or(own)));
                        break;
                    }
                }
            }
        }
    }
    found
}
