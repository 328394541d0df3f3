//! ADR 0022 (issue 39 point 1): an event the projector cannot apply stops its business
//! only; that business's reads say so, and every other business's go on.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::json;

use crate::support::{another_business, cpf, names, System};

const CONSISTENCY: &str = "x-navalha-consistency";

#[tokio::test]
async fn a_business_stuck_in_a_model_is_told_so_and_another_business_goes_on() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let (other, _, _) = another_business(&system).await;

    // An event of the demo business that no code can apply (a payload of no known shape),
    // as one with a 4,000-letter name could not be written into its index.
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ('Client', '990001', 1, 'ClientRegistered', '1.0', '{\"ClientRegistered\": 42}',
                 jsonb_build_object('business_id', $1::text))",
    )
    .bind(navalha_command_api::seed::DEMO_BUSINESS_ID.to_string())
    .execute(&system.pool)
    .await
    .expect("a bad event");
    system.project().await;

    let stuck = system.call(Method::GET, "/api/user/filter?page=1&pageSize=5", Some(&admin), None).await;
    assert_eq!(stuck.status, StatusCode::OK, "{stuck:?}");
    let said = stuck.headers.get(CONSISTENCY).and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert!(said.contains("stuck=") && said.contains("client"), "the demo business is told: {said:?}");

    // The other business registers a client and reads it, with nothing said.
    let form = json!({
        "name": "Bruno Vila Rica", "cpf": cpf(420_000_777), "email": "bruno@vilarica.dev",
        "phone": "(31) 9 8765-0777", "whatsApp": true, "birthDate": "1990-04-01", "status": true,
    });
    let made = system.call(Method::POST, "/api/user/professional", Some(&other), Some(form)).await;
    assert_eq!(made.status, StatusCode::CREATED, "{made:?}");
    system.project().await;
    let read = system.call(Method::GET, "/api/user/filter?page=1&pageSize=5", Some(&other), None).await;
    assert_eq!(read.status, StatusCode::OK, "{read:?}");
    assert_eq!(names(&read), ["Bruno Vila Rica"]);
    assert!(read.headers.get(CONSISTENCY).is_none(), "{:?}", read.headers);

    // /health names the model, the business and the event.
    let health = system.call(Method::GET, "/health", None, None).await;
    let client = health.body["projections"]
        .as_array()
        .and_then(|models| models.iter().find(|m| m["model"] == "client"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(client["stuck"][0]["businessId"], navalha_command_api::seed::DEMO_BUSINESS_ID, "{health:?}");
    assert_eq!(client["stuck"][0]["eventType"], "ClientRegistered", "{health:?}");
}
