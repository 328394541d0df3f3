//! One business's event that a model cannot apply stops that business only (issue 39
//! point 1, ADR 0022): live, after the fix, and in a rebuild.

use std::time::{Duration, Instant};

use navalha_platform::health;
use navalha_projector::{engine, models, rebuild, worker, Projection};
use sqlx::PgPool;

const SCHEMA: &str = "rm_favorite_menu";

/// Appends a favourite of `professional` in `business`; `slug` is the payload's value as
/// JSON (a number cannot be decoded: a payload no code can apply).
async fn append(pool: &PgPool, business: i64, professional: i64, slug: serde_json::Value) {
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         select 'FavoriteMenu', $1, coalesce(max(sequence), 0) + 1, 'FavoriteMenuMarked', '1.0',
                jsonb_build_object('FavoriteMenuMarked', jsonb_build_object('slug', $2::jsonb)),
                jsonb_build_object('business_id', $3::text)
           from events where aggregate_type = 'FavoriteMenu' and aggregate_id = $1",
    )
    .bind(professional.to_string())
    .bind(slug)
    .bind(business.to_string())
    .execute(pool)
    .await
    .expect("append");
}

/// Live batches, as the worker runs them, until the model has passed every committed event.
async fn follow(pool: &PgPool, model: &dyn Projection) {
    let mut conn = pool.acquire().await.expect("conn");
    let target = engine::last_committed(&mut conn).await.expect("newest");
    drop(conn);
    let started = Instant::now();
    loop {
        let outcome =
            engine::live_batch(pool, model, SCHEMA, 1000, Duration::ZERO, false).await.expect("live batch");
        if outcome.checkpoint >= target {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the checkpoint stays at {}",
            outcome.checkpoint
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Each professional's favourites, `professional:slug`, in order.
async fn favourites(pool: &PgPool) -> Vec<String> {
    sqlx::query_scalar(&format!(
        "select professional_id || ':' || slug from {SCHEMA}.favorite_menu order by professional_id, slug"
    ))
    .fetch_all(pool)
    .await
    .expect("favourites")
}

async fn stuck_rows(pool: &PgPool) -> Vec<(i64, String, String)> {
    sqlx::query_as(&format!("select business_id, event_type, error from {SCHEMA}.stuck order by business_id"))
        .fetch_all(pool)
        .await
        .expect("stuck")
}

#[sqlx::test(migrations = "../migrations")]
async fn a_business_whose_event_fails_waits_alone_then_catches_up_after_the_fix(pool: PgPool) {
    let model = models::find("favorite_menu").expect("model");
    worker::catch_up(&pool, model.as_ref()).await.expect("the model, built");
    append(&pool, 1, 10, "client".into()).await;
    follow(&pool, model.as_ref()).await;
    assert_eq!(favourites(&pool).await, ["10:client"]);

    // The fault: the model's table refuses business 2's rows, as the client model's index
    // refused a row too long for it.
    sqlx::query(
        "create function refuse_business_2() returns trigger language plpgsql as $$
         begin
             if new.business_id = 2 then raise exception 'index row requires 11520 bytes'; end if;
             return new;
         end $$",
    )
    .execute(&pool)
    .await
    .expect("function");
    sqlx::query(&format!(
        "create trigger refuse before insert on {SCHEMA}.favorite_menu
         for each row execute function refuse_business_2()"
    ))
    .execute(&pool)
    .await
    .expect("trigger");

    // Business 2's event in the same batch as business 1's: 1's are applied, 2 waits.
    append(&pool, 1, 11, "agenda".into()).await;
    append(&pool, 2, 20, "home".into()).await;
    append(&pool, 1, 12, "clients".into()).await;
    follow(&pool, model.as_ref()).await;
    assert_eq!(favourites(&pool).await, ["10:client", "11:agenda", "12:clients"]);
    let rows = stuck_rows(&pool).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0].0, rows[0].1.as_str()), (2, "FavoriteMenuMarked"));
    assert!(rows[0].2.contains("index row requires"), "{rows:?}");

    // /health names the model, the business and the event.
    let lags = health::projection_lag(&pool).await.expect("health");
    let lag = lags.iter().find(|lag| lag.model == "favorite_menu").expect("the model's lag");
    assert_eq!(lag.stuck.len(), 1, "{lag:?}");
    assert_eq!((lag.stuck[0].business_id, lag.stuck[0].event_type.as_str()), (2, "FavoriteMenuMarked"));

    // Business 2's later events wait behind the first, in order; business 1's go on.
    append(&pool, 2, 21, "plans".into()).await;
    append(&pool, 1, 13, "home".into()).await;
    follow(&pool, model.as_ref()).await;
    assert_eq!(favourites(&pool).await, ["10:client", "11:agenda", "12:clients", "13:home"]);

    // A retry before the fix changes nothing.
    let retried = worker::retry_stuck(&pool, model.as_ref(), SCHEMA).await.expect("retry");
    assert_eq!((retried.freed, retried.still), (vec![], vec![2]));

    // The fix, then the retry: business 2 catches up with both its events.
    sqlx::query(&format!("drop trigger refuse on {SCHEMA}.favorite_menu")).execute(&pool).await.expect("fix");
    let retried = worker::retry_stuck(&pool, model.as_ref(), SCHEMA).await.expect("retry");
    assert_eq!((retried.freed, retried.still), (vec![2], vec![]));
    assert_eq!(
        favourites(&pool).await,
        ["10:client", "11:agenda", "12:clients", "13:home", "20:home", "21:plans"]
    );
    assert!(stuck_rows(&pool).await.is_empty());

    // And it follows the log as any business does again.
    append(&pool, 2, 22, "stock".into()).await;
    follow(&pool, model.as_ref()).await;
    assert!(favourites(&pool).await.contains(&"22:stock".to_owned()));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_rebuild_leaves_the_business_of_an_event_no_code_can_apply_stuck_and_builds_the_others(
    pool: PgPool,
) {
    let model = models::find("favorite_menu").expect("model");
    worker::catch_up(&pool, model.as_ref()).await.expect("the model, built");
    append(&pool, 1, 10, "client".into()).await;
    append(&pool, 3, 30, "agenda".into()).await;
    // A payload no code reads (the slug is a number), then more of both businesses.
    append(&pool, 3, 31, 42.into()).await;
    append(&pool, 3, 32, "home".into()).await;
    append(&pool, 1, 11, "plans".into()).await;

    // Live: business 3 waits from the bad event on.
    follow(&pool, model.as_ref()).await;
    assert_eq!(favourites(&pool).await, ["10:client", "11:plans", "30:agenda"]);
    let rows = stuck_rows(&pool).await;
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [3], "{rows:?}");
    assert!(rows[0].2.contains("decode"), "{rows:?}");

    // Rebuilt: the same rows and the same stuck business; the rebuild does not fail.
    rebuild::rebuild(&pool, model.as_ref(), false).await.expect("rebuild");
    let rebuilt = favourites(&pool).await;
    assert!(
        rebuilt.contains(&"10:client".to_owned()) && rebuilt.contains(&"11:plans".to_owned()),
        "{rebuilt:?}"
    );
    assert!(!rebuilt.iter().any(|row| row.starts_with("31:") || row.starts_with("32:")), "{rebuilt:?}");
    assert_eq!(stuck_rows(&pool).await.iter().map(|r| r.0).collect::<Vec<_>>(), [3]);
    follow(&pool, model.as_ref()).await;
    assert_eq!(favourites(&pool).await, ["10:client", "11:plans", "30:agenda"]);
}
