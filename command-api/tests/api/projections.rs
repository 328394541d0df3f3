//! A read model built in bulk (a rebuild's batches of thousands of events, folded in
//! memory by the models that override `apply_all`) equals the same model built one event
//! at a time, as the live projector may apply them.

use axum::http::{Method, StatusCode};
use navalha_projector::{engine, models};
use serde_json::json;
use sqlx::PgPool;

use crate::support::System;

/// `count|md5` of every table of `schema` but the checkpoint, by table name.
async fn digest(pool: &PgPool, schema: &str) -> Vec<String> {
    let tables: Vec<String> = sqlx::query_scalar(
        "select table_name::text from information_schema.tables
          where table_schema = $1 and table_name <> 'checkpoint' order by 1",
    )
    .bind(schema)
    .fetch_all(pool)
    .await
    .expect("tables");
    assert!(!tables.is_empty(), "{schema} has no tables");
    let mut lines = Vec::new();
    for table in tables {
        let (count, md5): (i64, String) = sqlx::query_as(&format!(
            "select count(*), md5(coalesce(string_agg(r::text, E'\\n' order by r::text), '')) from {schema}.{table} r"
        ))
        .fetch_one(pool)
        .await
        .expect("digest");
        lines.push(format!("{table}|{count}|{md5}"));
    }
    lines
}

#[sqlx::test(migrations = "../migrations")]
async fn a_model_built_in_bulk_equals_one_built_event_by_event(pool: PgPool) {
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    // Changes on top of the demo data: a client registered and changed twice in a row, so
    // that one batch holds several events of one client.
    let registered = system
        .call(
            Method::POST,
            "/api/user/professional",
            Some(&admin),
            Some(json!({"name": "Célia Lima", "cpf": "390.533.447-05", "email": "celia@exemplo.com",
                        "phone": "(11) 9 8765-1111", "whatsApp": true, "birthDate": "1991-02-03", "status": true})),
        )
        .await;
    assert_eq!(registered.status, StatusCode::CREATED, "{registered:?}");
    let id = registered.body["IdUser"].as_i64().expect("id");
    for (name, status) in [("Célia Lima Souza", true), ("Célia Souza", false)] {
        let changed = system
            .call(
                Method::PUT,
                &format!("/api/user/{id}"),
                Some(&admin),
                Some(json!({"name": name, "email": "celia@exemplo.com", "phone": "(11) 9 8765-2222",
                            "whatsApp": false, "birthDate": null, "status": status})),
            )
            .await;
        assert_eq!(changed.status, StatusCode::OK, "{changed:?}");
    }
    system.project().await;

    for model in models::all() {
        let live = engine::live_schema(model.as_ref());
        let next = engine::next_schema(model.as_ref());
        let mut tx = system.projector_pool.begin().await.expect("tx");
        engine::create_schema(&mut tx, model.as_ref(), &next).await.expect("schema");
        let mut applied = 0;
        loop {
            let outcome = engine::apply_batch(&mut tx, model.as_ref(), &next, 1).await.expect("batch");
            if outcome.events == 0 {
                break;
            }
            applied += outcome.events;
        }
        tx.commit().await.expect("commit");
        assert!(applied > 0 || ["favorite_menu", "holiday"].contains(&model.name()), "{}", model.name());
        assert_eq!(digest(&system.pool, &live).await, digest(&system.pool, &next).await, "{}", model.name());
        sqlx::query(&format!("drop schema {next} cascade")).execute(&system.pool).await.expect("drop");
    }
}
