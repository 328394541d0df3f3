//! Migrations over a database that already has events: what an older Navalha leaves.

use sqlx::PgPool;

/// The first migration that knows businesses; events before it name none.
const BUSINESSES: i64 = 20261124003000;

#[sqlx::test(migrations = false)]
async fn an_older_databases_first_business_is_opened_so_its_billing_can_be_recorded(pool: PgPool) {
    let all = sqlx::migrate!("../migrations");
    let mut before = sqlx::migrate!("../migrations");
    before.migrations =
        all.migrations.iter().filter(|m| m.version < BUSINESSES).cloned().collect::<Vec<_>>().into();
    before.run(&pool).await.expect("the migrations before businesses");
    // A unit registered by an older Navalha: no business in its metadata.
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ('FavoriteMenu', '7', 1, 'FavoriteMenuMarked', '1.0', '{\"FavoriteMenuMarked\": {\"slug\": \"client\"}}',
                 '{\"at\": \"2026-11-20T12:00:00+00:00\", \"client_ip\": \"\", \"user_name\": \"Ana\", \"request_id\": \"\"}')",
    )
    .execute(&pool)
    .await
    .expect("a legacy event");

    all.run(&pool).await.expect("the rest of the migrations");
    let opened: Vec<(String, String)> = sqlx::query_as(
        "select event_type, payload #>> '{BusinessOpened,name}' from events
          where aggregate_type = 'Business' and aggregate_id = '1'",
    )
    .fetch_all(&pool)
    .await
    .expect("business 1's stream");
    assert_eq!(opened, [("BusinessOpened".to_owned(), "Navalha".to_owned())]);
    let owner: i64 = sqlx::query_scalar(
        "select business_id from aggregate_business where aggregate_type = 'Business' and aggregate_id = '1'",
    )
    .fetch_one(&pool)
    .await
    .expect("its business");
    assert_eq!(owner, 1);
    // The event reads back as the domain wrote it: the aggregate replays.
    let metadata: serde_json::Value = sqlx::query_scalar(
        "select metadata from events where aggregate_type = 'Business' and aggregate_id = '1'",
    )
    .fetch_one(&pool)
    .await
    .expect("metadata");
    let at = metadata["at"].as_str().expect("at");
    assert!(chrono::DateTime::parse_from_rfc3339(at).is_ok(), "{at}");
}

/// A new database has no events when it is migrated: the demo loader or `open-business`
/// opens business 1 later, and the migration must not have done it first.
#[sqlx::test(migrations = "../migrations")]
async fn a_new_database_has_no_business_until_one_is_opened(pool: PgPool) {
    let streams: i64 = sqlx::query_scalar("select count(*) from events where aggregate_type = 'Business'")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(streams, 0);
}
