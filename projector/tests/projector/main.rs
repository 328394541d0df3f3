//! The projector on real PostgreSQL: commit order, crashes, standby, rebuilds, and the
//! append-only log.

mod stuck;
mod support;

use std::time::{Duration, Instant};

use navalha_projector::{engine, models, rebuild};
use sqlx::PgPool;
use support::{append_favorite, catch_up, dump, spawn_projector, wait_until};

#[sqlx::test(migrations = "../migrations")]
async fn two_appends_committing_out_of_position_order_are_both_projected(pool: PgPool) {
    let model = models::find("favorite_menu").expect("model");
    catch_up(&pool, model.as_ref()).await;

    // The first transaction takes the smaller position but commits last.
    let mut slow = pool.begin().await.expect("slow tx");
    append_favorite(&mut slow, 1, "client").await;
    let mut fast = pool.begin().await.expect("fast tx");
    append_favorite(&mut fast, 2, "holiday").await;
    fast.commit().await.expect("fast commit");

    let positions: Vec<(i64, i64)> =
        sqlx::query_as("select tx_id::text::bigint, global_position from events order by global_position")
            .fetch_all(&pool)
            .await
            .expect("positions");
    let mut tx = pool.begin().await.expect("batch tx");
    let outcome =
        engine::apply_batch(&mut tx, model.as_ref(), "rm_favorite_menu", 1000).await.expect("batch");
    tx.commit().await.expect("batch commit");
    assert_eq!(outcome.events, 0, "nothing is read past the open transaction");
    // The committed event waits behind the open transaction instead of being passed over.
    assert_eq!(dump(&pool, "rm_favorite_menu.favorite_menu").await, "[]");

    slow.commit().await.expect("slow commit");
    catch_up(&pool, model.as_ref()).await;
    let rows = dump(&pool, "rm_favorite_menu.favorite_menu").await;
    assert!(rows.contains("\"client\"") && rows.contains("\"holiday\""), "{rows}");
    assert!(positions.len() == 1, "only the fast event was visible before the slow commit: {positions:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_projector_killed_mid_batch_ends_equal_to_a_full_rebuild(pool: PgPool) {
    for i in 0..20 {
        let mut tx = pool.begin().await.expect("tx");
        append_favorite(
            &mut tx,
            i % 4 + 1,
            ["client", "holiday", "company", "profile", "scheduling"][i as usize % 5],
        )
        .await;
        tx.commit().await.expect("commit");
    }
    let mut first = spawn_projector(&pool, None).await;
    wait_until(Duration::from_secs(30), || async { support::lag(&pool).await == Some(0) }).await;
    first.kill().await.expect("stop");
    let before = dump(&pool, "rm_favorite_menu.favorite_menu").await;

    for i in 0..40 {
        let mut tx = pool.begin().await.expect("tx");
        append_favorite(&mut tx, 10 + i, "client").await;
        tx.commit().await.expect("commit");
    }
    // Other tests share the cluster, and their open transactions hold the commit horizon
    // back: wait until it passes all 40, so that they form one batch, the torn one.
    wait_until(Duration::from_secs(30), || async {
        sqlx::query_scalar::<_, bool>(
            "select pg_snapshot_xmin(pg_current_snapshot()) > (select tx_id from events order by tx_id desc limit 1)",
        )
        .fetch_one(&pool)
        .await
        .expect("horizon")
    })
    .await;
    let mut crashing = spawn_projector(&pool, Some(7)).await;
    let status = tokio::time::timeout(Duration::from_secs(30), crashing.wait())
        .await
        .expect("it crashes")
        .expect("status");
    assert!(!status.success(), "the projector aborted");
    assert_eq!(
        dump(&pool, "rm_favorite_menu.favorite_menu").await,
        before,
        "nothing of the torn batch is visible"
    );

    let mut healed = spawn_projector(&pool, None).await;
    wait_until(Duration::from_secs(30), || async { support::lag(&pool).await == Some(0) }).await;
    healed.kill().await.expect("stop");
    let after_restart = dump(&pool, "rm_favorite_menu.favorite_menu").await;
    let model = models::find("favorite_menu").expect("model");
    rebuild::rebuild(&pool, model.as_ref(), false).await.expect("rebuild");
    catch_up(&pool, model.as_ref()).await;
    assert_eq!(after_restart, dump(&pool, "rm_favorite_menu.favorite_menu").await);
    assert!(after_restart.matches("professional_id").count() >= 44, "{after_restart}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_standby_takes_over_within_five_seconds_when_the_active_projector_dies(pool: PgPool) {
    let mut active = spawn_projector(&pool, None).await;
    wait_until(Duration::from_secs(30), || async { support::lag(&pool).await == Some(0) }).await;
    let mut standby = spawn_projector(&pool, None).await;
    // Both models' leadership locks stay with the first process.
    wait_until(Duration::from_secs(10), || async { support::waiting_for_lead(&pool).await }).await;

    active.kill().await.expect("kill -9 the active one");
    let killed_at = Instant::now();
    let mut tx = pool.begin().await.expect("tx");
    append_favorite(&mut tx, 77, "client").await;
    tx.commit().await.expect("commit");
    wait_until(Duration::from_secs(5), || async {
        dump(&pool, "rm_favorite_menu.favorite_menu").await.contains("\"professional_id\":77")
    })
    .await;
    assert!(killed_at.elapsed() < Duration::from_secs(5));
    standby.kill().await.expect("stop");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_event_log_refuses_update_delete_and_truncate(pool: PgPool) {
    let mut tx = pool.begin().await.expect("tx");
    append_favorite(&mut tx, 1, "client").await;
    tx.commit().await.expect("commit");
    for statement in ["update events set payload = '{}'", "delete from events", "truncate events"] {
        let error = sqlx::query(statement).execute(&pool).await.expect_err(statement);
        assert!(error.to_string().contains("append-only"), "{statement}: {error}");
    }
    // Even a session replaying as a replica cannot bypass it.
    let mut conn = pool.acquire().await.expect("conn");
    sqlx::query("set session_replication_role = replica").execute(&mut *conn).await.expect("replica");
    assert!(sqlx::query("delete from events").execute(&mut *conn).await.is_err());
    let count: i64 = sqlx::query_scalar("select count(*) from events").fetch_one(&pool).await.expect("count");
    assert_eq!(count, 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_rebuild_swaps_in_tables_equal_to_the_live_ones(pool: PgPool) {
    let model = models::find("favorite_menu").expect("model");
    for i in 0..30 {
        let mut tx = pool.begin().await.expect("tx");
        append_favorite(&mut tx, i % 3, &format!("slug-{i}")).await;
        tx.commit().await.expect("commit");
    }
    catch_up(&pool, model.as_ref()).await;
    let live = dump(&pool, "rm_favorite_menu.favorite_menu").await;
    let checkpoint = dump(&pool, "(select last_tx_id, last_position from rm_favorite_menu.checkpoint)").await;
    let report = rebuild::rebuild(&pool, model.as_ref(), false).await.expect("rebuild");
    assert!(report.events <= 30);
    // A rebuild stops at the commit horizon, which other databases' transactions can hold
    // back; from its checkpoint the live worker goes on.
    catch_up(&pool, model.as_ref()).await;
    assert_eq!(dump(&pool, "rm_favorite_menu.favorite_menu").await, live);
    assert_eq!(
        dump(&pool, "(select last_tx_id, last_position from rm_favorite_menu.checkpoint)").await,
        checkpoint
    );
    let leftovers: i64 =
        sqlx::query_scalar("select count(*) from pg_namespace where nspname like '%\\_next'")
            .fetch_one(&pool)
            .await
            .expect("count");
    assert_eq!(leftovers, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_model_built_with_older_tables_is_rebuilt_on_start(pool: PgPool) {
    let model = models::find("favorite_menu").expect("model");
    let mut tx = pool.begin().await.expect("tx");
    append_favorite(&mut tx, 5, "client").await;
    tx.commit().await.expect("commit");
    catch_up(&pool, model.as_ref()).await;
    sqlx::query("update rm_favorite_menu.checkpoint set schema_version = 'old'")
        .execute(&pool)
        .await
        .expect("age");
    let mut conn = pool.acquire().await.expect("conn");
    assert_eq!(
        engine::live_state(&mut conn, model.as_ref()).await.expect("state"),
        engine::LiveState::Outdated
    );
    let mut projector = spawn_projector(&pool, None).await;
    wait_until(Duration::from_secs(30), || async {
        let mut conn = pool.acquire().await.expect("conn");
        engine::live_state(&mut conn, model.as_ref()).await.ok() == Some(engine::LiveState::Current)
    })
    .await;
    projector.kill().await.expect("stop");
    assert!(dump(&pool, "rm_favorite_menu.favorite_menu").await.contains("\"client\""));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_model_moves_its_checkpoint_past_other_models_events_without_reading_them(pool: PgPool) {
    let holidays = models::find("holiday").expect("model");
    catch_up(&pool, holidays.as_ref()).await;
    let mut tx = pool.begin().await.expect("tx");
    append_favorite(&mut tx, 1, "client").await;
    tx.commit().await.expect("commit");
    let written: (i64, i64) = sqlx::query_as(
        "select tx_id::text::bigint, global_position from events order by global_position desc limit 1",
    )
    .fetch_one(&pool)
    .await
    .expect("position");

    // Yet a reader waiting for the favourite's position is not kept waiting by this model
    // (once the commit horizon, which other tests' transactions may hold back, passes it).
    let started = Instant::now();
    loop {
        let mut tx = pool.begin().await.expect("batch tx");
        let outcome =
            engine::apply_batch(&mut tx, holidays.as_ref(), "rm_holiday", 1000).await.expect("batch");
        tx.commit().await.expect("batch commit");
        assert_eq!(outcome.events, 0, "a favourite is none of the holiday model's business");
        if (outcome.checkpoint.tx_id, outcome.checkpoint.global_position) == written {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the checkpoint stays at {}",
            outcome.checkpoint
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The indexes a rebuild builds first (`LOOKED_UP_WHILE_BUILDING`) are in each model's next
/// schema while it fills, and the model's other secondary indexes are deferred: a listed
/// name that no longer matches (a renamed index) would silently be deferred again, and the
/// rebuild's look-ups would scan their whole tables (issue 46: a 10,000-business rebuild
/// that had not ended after 22 minutes).
#[sqlx::test(migrations = "../migrations")]
async fn the_indexes_a_rebuild_looks_rows_up_by_are_there_while_it_fills(pool: PgPool) {
    for model in models::all() {
        let first: Vec<&str> = navalha_read_models::LOOKED_UP_WHILE_BUILDING
            .iter()
            .filter(|(name, _)| *name == model.name())
            .map(|(_, index)| *index)
            .collect();
        let next = engine::next_schema(model.as_ref());
        let mut tx = pool.begin().await.expect("begin");
        engine::create_schema(&mut tx, model.as_ref(), &next).await.expect("schema");
        let deferred = rebuild::defer_indexes(&mut tx, model.name(), &next).await.expect("defer");
        let there: Vec<String> =
            sqlx::query_scalar("select indexname::text from pg_indexes where schemaname = $1")
                .bind(&next)
                .fetch_all(&mut *tx)
                .await
                .expect("indexes");
        for index in &first {
            assert!(there.iter().any(|name| name == index), "{next} is filled without {index}: {there:?}");
            assert!(!deferred.iter().any(|definition| definition.contains(&format!(" {index} "))), "{index}");
        }
        for definition in &deferred {
            assert!(
                !there.iter().any(|name| definition.contains(&format!(" {name} "))),
                "{definition} is there"
            );
        }
        tx.rollback().await.expect("rollback");
    }
    // And the others are deferred: the agenda has secondary indexes built at the end.
    let agenda = models::find("agenda").expect("agenda");
    let mut tx = pool.begin().await.expect("begin");
    let next = engine::next_schema(agenda.as_ref());
    engine::create_schema(&mut tx, agenda.as_ref(), &next).await.expect("schema");
    let deferred = rebuild::defer_indexes(&mut tx, "agenda", &next).await.expect("defer");
    assert!(!deferred.is_empty(), "the agenda's other indexes are built at the end");
}

/// The checkpoint row's version (`xmin`, the transaction that last wrote it) and position.
async fn checkpoint_row(pool: &PgPool, schema: &str) -> (String, i64, i64) {
    sqlx::query_as(&format!(
        "select xmin::text, last_tx_id::text::bigint, last_position from {schema}.checkpoint"
    ))
    .fetch_one(pool)
    .await
    .expect("checkpoint")
}

/// One live batch (`engine::live_batch`), looking first as after an idle batch; also
/// answers whether it wrote the checkpoint row (a transaction that did writes WAL and
/// flushes it at commit).
async fn live_batch(
    pool: &PgPool,
    model: &dyn navalha_projector::Projection,
    quiet: Duration,
) -> (usize, bool) {
    live_batch_looking(pool, model, quiet, true).await
}

/// [`live_batch`], with or without the look.
async fn live_batch_looking(
    pool: &PgPool,
    model: &dyn navalha_projector::Projection,
    quiet: Duration,
    look_first: bool,
) -> (usize, bool) {
    let schema = engine::live_schema(model);
    let before = checkpoint_row(pool, &schema).await;
    let outcome = engine::live_batch(pool, model, &schema, 1000, quiet, look_first).await.expect("batch");
    (outcome.events, checkpoint_row(pool, &schema).await != before)
}

#[sqlx::test(migrations = "../migrations")]
async fn a_model_without_events_of_its_own_commits_nothing_until_its_idle_checkpoint_is_due(pool: PgPool) {
    let holidays = models::find("holiday").expect("model");
    let favorites = models::find("favorite_menu").expect("model");
    catch_up(&pool, holidays.as_ref()).await;
    catch_up(&pool, favorites.as_ref()).await;
    let idle_before = checkpoint_row(&pool, "rm_holiday").await;

    // Another model's events arrive and are applied, wake-up after wake-up.
    let hour = Duration::from_secs(3600);
    for slug in ["client", "agenda", "company"] {
        let mut tx = pool.begin().await.expect("tx");
        append_favorite(&mut tx, 5, slug).await;
        tx.commit().await.expect("commit");
        let started = Instant::now();
        while live_batch(&pool, favorites.as_ref(), hour).await.0 == 0 {
            assert!(started.elapsed() < Duration::from_secs(30), "the favourite is never applied");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let (events, wrote) = live_batch(&pool, holidays.as_ref(), hour).await;
        assert_eq!((events, wrote), (0, false), "the idle model wrote its checkpoint");
    }
    assert_eq!(checkpoint_row(&pool, "rm_holiday").await, idle_before, "the idle model wrote its checkpoint");
    assert!(dump(&pool, "rm_favorite_menu.favorite_menu").await.contains("\"company\""));

    // Once due, the idle checkpoint moves past the other model's events, once.
    let head: (i64, i64) = sqlx::query_as(
        "select tx_id::text::bigint, global_position from events order by tx_id desc, global_position desc limit 1",
    )
    .fetch_one(&pool)
    .await
    .expect("head");
    let started = Instant::now();
    loop {
        live_batch(&pool, holidays.as_ref(), Duration::ZERO).await;
        let (_, tx_id, position) = checkpoint_row(&pool, "rm_holiday").await;
        if (tx_id, position) == head {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the idle checkpoint never moves");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        live_batch(&pool, holidays.as_ref(), Duration::ZERO).await,
        (0, false),
        "nothing more to move past"
    );

    // Without the look (the worker's batch after one that applied events): nothing new writes
    // nothing; another model's event is moved past at once, quiet or not.
    assert_eq!(live_batch_looking(&pool, holidays.as_ref(), hour, false).await, (0, false));
    let mut tx = pool.begin().await.expect("tx");
    append_favorite(&mut tx, 5, "professional").await;
    tx.commit().await.expect("commit");
    let started = Instant::now();
    while live_batch_looking(&pool, holidays.as_ref(), hour, false).await != (0, true) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the look-less batch never moves the checkpoint"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let started = Instant::now();
    while live_batch_looking(&pool, favorites.as_ref(), hour, false).await.0 == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the look-less batch never applies the favourite"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(dump(&pool, "rm_favorite_menu.favorite_menu").await.contains("\"professional\""));
}

/// `name|definition` of every index of `schema`, the schema's name left out.
async fn indexes(pool: &PgPool, schema: &str) -> Vec<String> {
    sqlx::query_scalar(
        "select indexname || '|' || replace(indexdef, $1 || '.', '') from pg_indexes where schemaname = $1 order by 1",
    )
    .bind(schema)
    .fetch_all(pool)
    .await
    .expect("indexes")
}

#[sqlx::test(migrations = "../migrations")]
async fn a_rebuilt_model_has_every_index_its_tables_are_created_with(pool: PgPool) {
    for name in ["agenda", "client"] {
        let model = models::find(name).expect("model");
        rebuild::rebuild(&pool, model.as_ref(), false).await.expect("rebuild");
        let mut tx = pool.begin().await.expect("tx");
        engine::create_schema(&mut tx, model.as_ref(), "probe").await.expect("schema");
        tx.commit().await.expect("commit");
        let created = indexes(&pool, "probe").await;
        assert!(created.iter().any(|index| !index.contains("UNIQUE")), "{name} has secondary indexes");
        assert_eq!(indexes(&pool, &engine::live_schema(model.as_ref())).await, created, "{name}");
        sqlx::query("drop schema probe cascade").execute(&pool).await.expect("drop");
    }
}

const HELD: navalha_read_models::ReadModel = navalha_read_models::ReadModel {
    name: "held",
    aggregate_types: &["FavoriteMenu"],
    stored_states: &[],
    tables: &[],
    ddl: "create table seen (
             business_id bigint not null default public.navalha_event_business(),
             global_position bigint primary key
         )",
};

/// A model that, once armed, holds its batch open inside `apply` until released: a live
/// batch caught between its first statement and its commit.
#[derive(Default)]
struct Held {
    armed: std::sync::atomic::AtomicBool,
    entered: tokio::sync::Notify,
    release: tokio::sync::Notify,
}

#[async_trait::async_trait]
impl engine::Projection for Held {
    fn model(&self) -> &'static navalha_read_models::ReadModel {
        &HELD
    }
    async fn apply(
        &self,
        conn: &mut sqlx::PgConnection,
        event: &navalha_projector::event::StoredEvent,
    ) -> anyhow::Result<()> {
        if self.armed.load(std::sync::atomic::Ordering::SeqCst) {
            self.entered.notify_one();
            self.release.notified().await;
        }
        sqlx::query("insert into seen (global_position) values ($1)")
            .bind(event.position.global_position)
            .execute(conn)
            .await?;
        Ok(())
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_live_batch_left_open_holds_back_no_other_model_of_its_process(pool: PgPool) {
    let held = std::sync::Arc::new(Held::default());
    let favorites = models::find("favorite_menu").expect("model");
    catch_up(&pool, held.as_ref()).await;
    catch_up(&pool, favorites.as_ref()).await;

    let mut tx = pool.begin().await.expect("tx");
    append_favorite(&mut tx, 1, "client").await;
    tx.commit().await.expect("commit");
    held.armed.store(true, std::sync::atomic::Ordering::SeqCst);
    let entered = held.entered.notified();
    // Other tests' transactions may hold the horizon below the event for a while: the held
    // model's batches find nothing until one reads it, and holds.
    let batch = tokio::spawn({
        let (pool, held) = (pool.clone(), held.clone());
        async move {
            loop {
                let outcome =
                    engine::live_batch(&pool, held.as_ref(), "rm_held", 1000, Duration::from_secs(1), false)
                        .await?;
                if outcome.events > 0 {
                    return anyhow::Ok(outcome);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    });
    tokio::time::timeout(Duration::from_secs(30), entered).await.expect("the held batch reads the event");

    // Committed after the held batch took its transaction id, so below no horizon that
    // counts that transaction as running.
    let mut tx = pool.begin().await.expect("tx");
    append_favorite(&mut tx, 2, "holiday").await;
    tx.commit().await.expect("commit");
    // Other tests' transactions hold the horizon back for a while too.
    wait_until(Duration::from_secs(30), || async {
        engine::live_batch(
            &pool,
            favorites.as_ref(),
            "rm_favorite_menu",
            1000,
            Duration::from_secs(1),
            false,
        )
        .await
        .expect("batch");
        dump(&pool, "rm_favorite_menu.favorite_menu").await.contains("\"holiday\"")
    })
    .await;

    held.release.notify_one();
    let outcome = batch.await.expect("join").expect("held batch");
    assert_eq!(outcome.events, 1, "the held batch applied the event it had read");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_commit_horizon_waits_for_an_open_transaction_unless_told_to_leave_it_out(pool: PgPool) {
    let mut open = pool.begin().await.expect("open tx");
    let open_xid: i64 = sqlx::query_scalar("select pg_current_xact_id()::text::bigint")
        .fetch_one(&mut *open)
        .await
        .expect("xid");
    let mut tx = pool.begin().await.expect("tx");
    append_favorite(&mut tx, 1, "client").await;
    tx.commit().await.expect("commit");
    let appended: i64 =
        sqlx::query_scalar("select tx_id::text::bigint from events order by global_position desc limit 1")
            .fetch_one(&pool)
            .await
            .expect("appended");

    let mut conn = pool.acquire().await.expect("conn");
    assert!(engine::commit_horizon(&mut conn, &[]).await.expect("horizon") <= open_xid);
    // Other tests' transactions hold the horizon back for a while too.
    wait_until(Duration::from_secs(30), || async {
        let mut conn = pool.acquire().await.expect("conn");
        engine::commit_horizon(&mut conn, &[open_xid]).await.expect("horizon") > appended
    })
    .await;
    assert!(engine::commit_horizon(&mut conn, &[]).await.expect("horizon") <= open_xid, "still open");
    open.rollback().await.expect("rollback");
}
