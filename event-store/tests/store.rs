//! The event store on a real database: appends and their races, commands and their
//! refusals, payloads of an older version, and the idempotency storage.

use navalha_domain::favorite_menu::{
    FavoriteMenu, FavoriteMenuCommand, FavoriteMenuError, FavoriteMenuEvent,
};
use navalha_domain::metadata::EventMetadata;
use navalha_domain::role::Role;
use navalha_event_store::idempotency::{self, Claimed, StoredAnswer};
use navalha_event_store::log::{self, AppendError, EventLog, ProjectorWaker};
use navalha_event_store::{execute, Refusal};
use serde_json::Value;
use sqlx::PgPool;

fn metadata() -> Value {
    serde_json::to_value(EventMetadata::system("teste", 1).to_map()).expect("metadata")
}

fn mark(slug: &str) -> FavoriteMenuCommand {
    FavoriteMenuCommand::MarkFavorite { slug: slug.to_owned(), role: Role::Admin }
}

fn event_log(pool: &PgPool) -> EventLog {
    EventLog::new(pool.clone(), ProjectorWaker::start(pool.clone()))
}

#[sqlx::test(migrations = "../migrations")]
async fn an_append_after_a_sequence_no_longer_last_loses_the_race(pool: PgPool) {
    let marked = [FavoriteMenuEvent::FavoriteMenuMarked { slug: "client".into() }];
    let first = log::append::<FavoriteMenu>(&pool, "9001", 0, &marked, &metadata()).await.expect("first");
    let raced = log::append::<FavoriteMenu>(&pool, "9001", 0, &marked, &metadata()).await;
    assert!(matches!(raced, Err(AppendError::Concurrent)), "{raced:?}");
    let next = log::append::<FavoriteMenu>(&pool, "9001", 1, &marked, &metadata()).await.expect("next");
    assert!(next > first, "positions grow in commit order");
    let stream = event_log(&pool).load::<FavoriteMenu>("9001").await.expect("load");
    assert_eq!((stream.sequence, stream.position), (2, Some(next)));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_command_appends_what_it_decides_and_its_refusal_is_the_aggregates(pool: PgPool) {
    let events = event_log(&pool);
    let position =
        execute::<FavoriteMenu>(&events, "9002", mark("client"), &metadata(), Some(Default::default()))
            .await
            .expect("mark")
            .position;
    assert!(position.is_some());
    // Deciding nothing appends nothing and answers the stream's position as it is.
    let again = execute::<FavoriteMenu>(&events, "9002", mark("client"), &metadata(), None)
        .await
        .expect("again")
        .position;
    assert_eq!(again, position);
    let count: i64 = sqlx::query_scalar("select count(*) from events where aggregate_id = '9002'")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(count, 1);
    // A stream believed new but not empty: the first append loses, the retry reads it.
    let other =
        execute::<FavoriteMenu>(&events, "9002", mark("holiday"), &metadata(), Some(Default::default()))
            .await
            .expect("retried")
            .position;
    assert!(other > position);
    let refused = execute::<FavoriteMenu>(&events, "9002", mark("payroll"), &metadata(), None).await;
    assert!(matches!(refused, Err(Refusal::Domain(FavoriteMenuError::UnknownMenuItem))), "{refused:?}");
}

/// The state kept after a command is the stream's state: each event counted once, as a
/// replay from the log counts it (a tip kept twice would be charged twice).
#[sqlx::test(migrations = "../migrations")]
async fn the_state_kept_after_a_command_equals_the_streams_replayed(pool: PgPool) {
    use navalha_domain::comanda::{Comanda, ComandaCommand};
    let events = event_log(&pool);
    let open =
        ComandaCommand::Open { company_id: 1, appointment_id: None, client_id: None, items: Vec::new() };
    let mut read =
        execute::<Comanda>(&events, "9004", open, &metadata(), Some(Default::default())).await.expect("open");
    for cents in [1000, 500] {
        let tip = ComandaCommand::AddTip { professional_id: 7, cents };
        // Decided on the state the last command answered, as a handler that read it does.
        read = execute::<Comanda>(&events, "9004", tip, &metadata(), Some(read)).await.expect("tip");
    }
    let kept = events.load::<Comanda>("9004").await.expect("kept");
    let replayed = event_log(&pool).load::<Comanda>("9004").await.expect("replayed");
    assert_eq!(kept.aggregate.totals().tips, 1500);
    for state in [&kept, &read] {
        assert_eq!(state.aggregate, replayed.aggregate);
        assert_eq!((state.sequence, state.position), (replayed.sequence, replayed.position));
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_payload_of_a_version_no_upcaster_knows_is_not_guessed(pool: PgPool) {
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ('FavoriteMenu', '9003', 1, 'FavoriteMenuMarked', '0.9', '{\"FavoriteMenuMarked\": {\"slug\": \"client\"}}', $1)",
    )
    .bind(metadata())
    .execute(&pool)
    .await
    .expect("an old event");
    let read = event_log(&pool).load::<FavoriteMenu>("9003").await;
    let error = read.err().map(|error| format!("{error:#}")).unwrap_or_default();
    assert!(error.contains("no upcaster for FavoriteMenu FavoriteMenuMarked v0.9"), "{error}");
}

#[sqlx::test(migrations = "../migrations")]
async fn an_idempotency_key_runs_once_answers_again_and_refuses_another_body(pool: PgPool) {
    let Claimed::Mine(run) = idempotency::claim(&pool, "staff:1", "k1", b"body").await.expect("claim") else {
        panic!("a new key is this request's");
    };
    assert_eq!(idempotency::claim(&pool, "staff:1", "k1", b"body").await.expect("claim"), Claimed::InFlight);
    assert_eq!(
        idempotency::claim(&pool, "staff:1", "k1", b"other").await.expect("claim"),
        Claimed::OtherBody
    );
    assert!(matches!(
        idempotency::claim(&pool, "staff:2", "k1", b"body").await.expect("claim"),
        Claimed::Mine(_)
    ));
    let answer = StoredAnswer {
        status: 201,
        headers: Some(serde_json::json!({"location": "/x/1"})),
        body: Some(b"{}".to_vec()),
    };
    // A late run that lost its claim cannot overwrite the answer.
    idempotency::store(&pool, "staff:1", "k1", run ^ 1, &answer).await.expect("late store");
    assert_eq!(idempotency::claim(&pool, "staff:1", "k1", b"body").await.expect("claim"), Claimed::InFlight);
    idempotency::store(&pool, "staff:1", "k1", run, &answer).await.expect("store");
    // Forgetting a run whose answer is stored leaves the answer.
    idempotency::forget_run(&pool, "staff:1", "k1", run).await.expect("forget");
    assert_eq!(
        idempotency::claim(&pool, "staff:1", "k1", b"body").await.expect("claim"),
        Claimed::Answered(answer)
    );
    sqlx::query("update idempotent_request set created_at = now() - interval '25 hours'")
        .execute(&pool)
        .await
        .expect("age");
    assert_eq!(idempotency::forget_expired(&pool).await.expect("expired"), 2);
}

/// A command decided on a state read before another command appended loses the race for
/// the next sequence and is decided again on the stream as it now is: nothing is lost.
#[sqlx::test(migrations = "../migrations")]
async fn a_command_decided_on_a_stale_read_is_decided_again_on_the_stream(pool: PgPool) {
    use navalha_domain::comanda::{Comanda, ComandaCommand};
    let events = event_log(&pool);
    let open =
        ComandaCommand::Open { company_id: 1, appointment_id: None, client_id: None, items: Vec::new() };
    let opened =
        execute::<Comanda>(&events, "9005", open, &metadata(), Some(Default::default())).await.expect("open");
    let tip = |cents| ComandaCommand::AddTip { professional_id: 7, cents };
    execute::<Comanda>(&events, "9005", tip(1000), &metadata(), Some(opened.clone()))
        .await
        .expect("first tip");
    let stale =
        execute::<Comanda>(&events, "9005", tip(500), &metadata(), Some(opened)).await.expect("second");
    assert_eq!(stale.aggregate.totals().tips, 1500);
    assert_eq!(stale.sequence, 3);
}
