//! A read model whose version differs from the code's (the projector is rebuilding it)
//! is not read: query-api answers 503 for it, and the other models as usual.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use navalha_harness::in_process::System;

/// A model built by another version of the code (its tables or the states it stores
/// changed) is not read while the projector rebuilds it: 503 in pt-BR, not a 500 from rows
/// of another shape. Once rebuilt, it answers again.
#[tokio::test]
async fn a_model_of_another_version_answers_503_until_rebuilt() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    sqlx::query("update rm_club.checkpoint set schema_version = 'older code'")
        .execute(&system.pool)
        .await
        .expect("age the model");
    let list = system.call(Method::GET, "/api/subscription-details", Some(&admin), None).await;
    assert_eq!(
        (list.status, list.message()),
        (StatusCode::SERVICE_UNAVAILABLE, "Os dados estão sendo atualizados. Tente novamente em instantes.")
    );
    // Other models are read as usual.
    let units = system.call(Method::GET, "/api/company", Some(&admin), None).await;
    assert_eq!(units.status, StatusCode::OK, "{units:?}");

    let club = navalha_projector::models::find("club").expect("club");
    navalha_projector::rebuild::rebuild(&system.projector_pool, club.as_ref(), false).await.expect("rebuild");
    let list = system.call(Method::GET, "/api/subscription-details", Some(&admin), None).await;
    assert_eq!(list.status, StatusCode::OK, "{list:?}");
}
