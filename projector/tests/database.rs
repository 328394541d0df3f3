//! The database's own defences (issue 12): what the services' roles may do to the event log,
//! and events restored from a cluster whose transaction counter was further on.
//! The whole restore, dump to compared read models, is `scripts/test-restore.sh`.

use std::process::Stdio;
use std::time::Duration;

use navalha_platform::db::{self, TransactionCounterBehind};
use navalha_projector::{models, worker};
use sqlx::{Connection, PgConnection, PgPool};

const SERVICES: [&str; 3] = ["navalha_command", "navalha_query", "navalha_projector"];

/// Runs `sql` as `role` in a transaction that is rolled back; the error's SQLSTATE, if any.
async fn as_role(conn: &mut PgConnection, role: &str, sql: &str) -> Option<String> {
    let mut tx = conn.begin().await.expect("begin");
    sqlx::query(&format!("set local role {role}")).execute(&mut *tx).await.expect("set role");
    let outcome = sqlx::raw_sql(sql).execute(&mut *tx).await;
    tx.rollback().await.expect("rollback");
    outcome
        .err()
        .map(|error| error.as_database_error().and_then(|e| e.code()).unwrap_or_default().into_owned())
}

const APPEND: &str = "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
                      values ('FavoriteMenu', '1', 1, 'FavoriteMenuMarked', '1.0',
                              '{\"FavoriteMenuMarked\": {\"slug\": \"client\"}}', '{\"business_id\": \"1\"}')";

#[sqlx::test(migrations = "../migrations")]
async fn no_service_role_can_change_the_event_log_or_switch_its_triggers_off(pool: PgPool) {
    let mut conn = pool.acquire().await.expect("connection");
    for role in SERVICES {
        for sql in [
            "alter table events disable trigger events_append_only",
            "alter table events disable trigger all",
            "drop trigger events_no_truncate on events",
            "set session_replication_role = replica",
            "update events set payload = '{}'",
            "delete from events",
            "truncate events",
            "alter table events owner to navalha_command",
        ] {
            assert_eq!(as_role(&mut conn, role, sql).await.as_deref(), Some("42501"), "{role}: {sql}");
        }
    }
    let enabled: Vec<String> = sqlx::query_scalar(
        "select tgenabled::text from pg_trigger where tgrelid = 'events'::regclass
            and tgname in ('events_append_only', 'events_no_truncate')",
    )
    .fetch_all(&pool)
    .await
    .expect("triggers");
    assert_eq!(enabled, ["A", "A"], "enabled ALWAYS, replica sessions included");

    // command-api appends and reads; the readers only read.
    assert_eq!(as_role(&mut conn, "navalha_command", APPEND).await, None);
    assert_eq!(as_role(&mut conn, "navalha_command", "select count(*) from events").await, None);
    for role in ["navalha_query", "navalha_projector"] {
        assert_eq!(as_role(&mut conn, role, APPEND).await.as_deref(), Some("42501"), "{role} appends");
        assert_eq!(as_role(&mut conn, role, "select count(*) from events").await, None, "{role} reads");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn each_service_role_reaches_only_what_its_service_uses(pool: PgPool) {
    let mut conn = pool.acquire().await.expect("connection");
    let allowed = [
        (
            "navalha_command",
            "insert into access_attempt (door, subject, client_ip) values ('login', 'a@b.c', '::1')",
        ),
        ("navalha_query", "select session_id, revoked_at from staff_session"),
        ("navalha_command", "select nextval('appointment_id_seq')"),
        ("navalha_command", "select private_key from signing_key"),
        ("navalha_query", "select signing_key_id, public_key from signing_key"),
        ("navalha_projector", "create schema rm_probe"),
    ];
    for (role, sql) in allowed {
        assert_eq!(as_role(&mut conn, role, sql).await, None, "{role}: {sql}");
    }
    let refused = [
        ("navalha_query", "select private_key from signing_key"),
        ("navalha_query", "select * from staff_credential"),
        ("navalha_query", "select * from recovery_code"),
        (
            "navalha_query",
            "insert into access_attempt (door, subject, client_ip) values ('login', 'a@b.c', '::1')",
        ),
        ("navalha_query", "update staff_session set revoked_at = null"),
        ("navalha_query", "select * from recovery_request"),
        ("navalha_projector", "select * from staff_credential"),
        ("navalha_projector", "select nextval('appointment_id_seq')"),
        ("navalha_command", "create schema rm_probe"),
        ("navalha_command", "select nextval(pg_get_serial_sequence('events', 'global_position'))"),
    ];
    for (role, sql) in refused {
        assert_eq!(as_role(&mut conn, role, sql).await.as_deref(), Some("42501"), "{role}: {sql}");
    }

    // A read model the projector makes is readable by both APIs and writable by nobody else.
    let mut tx = conn.begin().await.expect("begin");
    sqlx::raw_sql(
        "set local role navalha_projector;
         create schema rm_probe;
         create table rm_probe.item (id bigint primary key);
         insert into rm_probe.item values (1);",
    )
    .execute(&mut *tx)
    .await
    .expect("the projector builds a model");
    tx.commit().await.expect("commit");
    for role in ["navalha_command", "navalha_query"] {
        assert_eq!(as_role(&mut conn, role, "select id from rm_probe.item").await, None, "{role} reads");
        assert_eq!(
            as_role(&mut conn, role, "delete from rm_probe.item").await.as_deref(),
            Some("42501"),
            "{role} writes"
        );
    }
}

/// Appends an event whose `tx_id` lies `ahead` ids past the cluster's counter, as a restore
/// from a cluster further on leaves them.
async fn append_from_the_future(pool: &PgPool, ahead: i64) -> i64 {
    sqlx::query_scalar(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata, tx_id)
         values ('FavoriteMenu', '7', 1, 'FavoriteMenuMarked', '1.0',
                 '{\"FavoriteMenuMarked\": {\"slug\": \"holiday\"}}', '{\"business_id\": \"1\"}',
                 (pg_snapshot_xmax(pg_current_snapshot())::text::bigint + $1)::text::xid8)
         returning tx_id::text::bigint",
    )
    .bind(ahead)
    .fetch_one(pool)
    .await
    .expect("restored event")
}

#[sqlx::test(migrations = "../migrations")]
async fn the_projector_refuses_events_restored_from_a_cluster_further_on(pool: PgPool) {
    append_from_the_future(&pool, 5_000).await;
    let name: String = sqlx::query_scalar("select current_database()").fetch_one(&pool).await.expect("name");
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let (prefix, _) = base.rsplit_once('/').expect("a URL with a database");
    let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_projector"))
        .args(["run", "--health-listen", "127.0.0.1:0"])
        .env("DATABASE_URL", format!("{prefix}/{name}"))
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(30), run).await.expect("exits").expect("projector");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "it must not start: {stderr}");
    assert!(
        stderr.contains("restored from another cluster") && stderr.contains("command-api migrate"),
        "{stderr}"
    );
}

/// Every service reads the newest event's transaction id at its start: from the end of an
/// index, never by sorting the log.
#[sqlx::test(migrations = "../migrations")]
async fn the_newest_transaction_id_is_read_from_an_index_not_by_sorting_the_log(pool: PgPool) {
    let mut tx = pool.begin().await.expect("transaction");
    // A handful of test rows: only without scans of the table does the plan show what
    // a long log would get.
    sqlx::query("set local enable_seqscan = off").execute(&mut *tx).await.expect("set");
    let plan: Vec<String> = sqlx::query_scalar(&format!("explain {}", db::NEWEST_EVENT_TX_ID))
        .fetch_all(&mut *tx)
        .await
        .expect("explain");
    let plan = plan.join("\n");
    assert!(plan.contains("Index Only Scan Backward") || plan.contains("Index Scan Backward"), "{plan}");
    assert!(!plan.contains("Sort"), "{plan}");
}

#[sqlx::test(migrations = "../migrations")]
async fn migrate_advances_the_transaction_counter_past_restored_events(pool: PgPool) {
    let restored = append_from_the_future(&pool, 3_000).await;
    assert!(db::transaction_ids_behind(&pool).await.expect("behind") > 2_000);

    // Past its limit it stops, and says what to give pg_resetwal.
    let error = db::advance_transaction_counter(&pool, 10).await.expect_err("over the limit");
    let behind = error.downcast_ref::<TransactionCounterBehind>().expect("the counter's error");
    let target = (behind.epoch << 32) | behind.xid;
    assert!(target > restored && target % 0x10_0000 == 0, "{behind:?}");
    assert!(error
        .to_string()
        .contains(&format!("pg_resetwal -D <data directory> -e {} -x {:#x}", behind.epoch, behind.xid)));

    let advanced = db::advance_transaction_counter(&pool, 1_000_000).await.expect("advance");
    assert!((1..=3_001).contains(&advanced), "{advanced}");
    assert_eq!(db::transaction_ids_behind(&pool).await.expect("behind"), 0);
    assert_eq!(db::advance_transaction_counter(&pool, 0).await.expect("nothing to do"), 0);

    // A new event sorts after the restored one, and the projector sees both.
    let mut conn = pool.acquire().await.expect("connection");
    let appended: i64 = sqlx::query_scalar(&format!("{APPEND} returning tx_id::text::bigint"))
        .fetch_one(&mut *conn)
        .await
        .expect("append");
    assert!(appended > restored, "{appended} after {restored}");
    let model = models::find("favorite_menu").expect("model");
    worker::catch_up(&pool, model.as_ref()).await.expect("catch up");
    let slugs: Vec<String> =
        sqlx::query_scalar("select slug from rm_favorite_menu.favorite_menu order by slug")
            .fetch_all(&pool)
            .await
            .expect("rows");
    assert_eq!(slugs, ["client", "holiday"]);
}

#[tokio::test]
async fn a_service_names_its_connections_and_plans_as_it_asks_without_jit() {
    let url = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    for (plans, mode) in [(db::Plans::Generic, "force_generic_plan"), (db::Plans::PerExecution, "auto")] {
        let pool = db::connect(&url, 1, plans).await.expect("connect");
        let (name, actual, jit): (String, String, String) = sqlx::query_as(
            "select current_setting('application_name'), current_setting('plan_cache_mode'), current_setting('jit')",
        )
        .fetch_one(&pool)
        .await
        .expect("settings");
        assert_eq!((actual.as_str(), jit.as_str()), (mode, "off"), "{plans:?}");
        // This test's executable: tests/database.rs builds `database-<hash>`.
        assert!(name.starts_with("database"), "{name}");
    }
}
