//! The first thread end to end: a favourite is a command, an event, a projected row and a
//! query that waits for the user's own write.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::json;

use crate::support::System;

const FAVORITES: &str = "/api/professional-favorite-menu/";

fn slugs(body: &serde_json::Value) -> Vec<String> {
    body.as_array()
        .map(|list| list.iter().filter_map(|item| item["MenuSlug"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_favourite_is_appended_projected_and_read_back_after_its_position() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let token = system.sign_in("admin@navalha.dev").await;
    let marked =
        system.call(Method::POST, FAVORITES, Some(&token), Some(json!({ "slug": "scheduling" }))).await;
    assert_eq!(marked.status, StatusCode::CREATED);
    assert_eq!(marked.body["MenuSlug"], "scheduling");
    let position = marked.headers["x-navalha-position"].to_str().expect("position").to_owned();

    // Not projected yet: a read that asks for the position waits, then says it gave up.
    let stale = system
        .call_with(Method::GET, FAVORITES, Some(&token), None, &[("x-navalha-position", &position)])
        .await;
    let consistency = stale.headers["x-navalha-consistency"].to_str().unwrap_or_default().to_owned();
    assert!(consistency.starts_with("timeout; waited-ms="), "{consistency}");
    assert_eq!(slugs(&stale.body), Vec::<String>::new());

    // A read issued before the projector runs waits, and is answered as soon as it has.
    let waited = system.read_after(FAVORITES, &token, &marked).await;
    assert_eq!(slugs(&waited.body), ["scheduling"]);
    let fresh = system.call(Method::GET, FAVORITES, Some(&token), None).await;
    assert_eq!(slugs(&fresh.body), ["scheduling"]);
}

#[tokio::test]
async fn marking_twice_appends_one_event_and_unmarking_removes_it() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let token = system.sign_in("atendente@navalha.dev").await;
    for _ in 0..2 {
        let answer =
            system.call(Method::POST, FAVORITES, Some(&token), Some(json!({ "slug": "client" }))).await;
        assert_eq!(answer.status, StatusCode::CREATED);
    }
    let events: i64 = sqlx::query_scalar("select count(*) from events where aggregate_type = 'FavoriteMenu'")
        .fetch_one(&system.pool)
        .await
        .expect("count");
    assert_eq!(events, 1);
    let removed =
        system.call(Method::DELETE, "/api/professional-favorite-menu/slug/client", Some(&token), None).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT);
    assert!(removed.headers.contains_key("x-navalha-position"));
    system.project().await;
    let list = system.call(Method::GET, FAVORITES, Some(&token), None).await;
    assert_eq!(slugs(&list.body), Vec::<String>::new());
}

#[tokio::test]
async fn events_carry_who_did_it_from_where_and_in_which_request() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let token = system.sign_in("lider@navalha.dev").await;
    let answer = system
        .call_with(
            Method::POST,
            FAVORITES,
            Some(&token),
            Some(json!({ "slug": "holiday" })),
            &[("x-request-id", "req-123"), ("x-forwarded-for", "203.0.113.9, 10.0.0.1")],
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED);
    let metadata: serde_json::Value =
        sqlx::query_scalar("select metadata from events where aggregate_type = 'FavoriteMenu'")
            .fetch_one(&system.pool)
            .await
            .expect("event");
    assert_eq!(metadata["user_name"], "Caio Líder");
    assert_eq!(metadata["role"], "BARBER_LEADE");
    assert_eq!(metadata["request_id"], "req-123");
    assert_eq!(metadata["client_ip"], "203.0.113.9");
    assert!(metadata["user_id"].as_str().is_some_and(|id| id.parse::<i64>().is_ok()));
    assert!(metadata["at"].as_str().is_some_and(|at| chrono::DateTime::parse_from_rfc3339(at).is_ok()));
}

#[tokio::test]
async fn favourites_obey_the_roles_menus() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let barber = system.sign_in("barbeiro2@navalha.dev").await;
    let refused =
        system.call(Method::POST, FAVORITES, Some(&barber), Some(json!({ "slug": "professional" }))).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["errors"]["slug"], "Este item de menu não está disponível para o seu perfil.");
    let unknown = system.call(Method::POST, FAVORITES, Some(&barber), Some(json!({ "slug": "folha" }))).await;
    assert_eq!(unknown.message(), "Item de menu desconhecido.");
    let empty = system.call(Method::POST, FAVORITES, Some(&barber), Some(json!({}))).await;
    assert_eq!(empty.body["errors"]["slug"], "Informe o item de menu.");
    let anonymous = system.call(Method::POST, FAVORITES, None, Some(json!({ "slug": "client" }))).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let nothing: i64 =
        sqlx::query_scalar("select count(*) from events where aggregate_type = 'FavoriteMenu'")
            .fetch_one(&system.pool)
            .await
            .expect("count");
    assert_eq!(nothing, 0, "refused commands append nothing");
}

#[tokio::test]
async fn each_professional_sees_only_their_own_favourites() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    system.call(Method::POST, FAVORITES, Some(&admin), Some(json!({ "slug": "company" }))).await;
    system.call(Method::POST, FAVORITES, Some(&barber), Some(json!({ "slug": "scheduling" }))).await;
    system.project().await;
    assert_eq!(slugs(&system.call(Method::GET, FAVORITES, Some(&admin), None).await.body), ["company"]);
    assert_eq!(slugs(&system.call(Method::GET, FAVORITES, Some(&barber), None).await.body), ["scheduling"]);
}

#[tokio::test]
async fn a_malformed_position_header_is_a_400() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let token = system.sign_in("admin@navalha.dev").await;
    let answer = system
        .call_with(Method::GET, FAVORITES, Some(&token), None, &[("x-navalha-position", "ontem")])
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.message(), "Cabeçalho X-Navalha-Position inválido.");
}
