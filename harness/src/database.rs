//! Test databases that start with the demo: copies of a template migrated, seeded and
//! projected once per test binary, instead of `sqlx::test`'s empty database that each test
//! migrated and seeded again. A copy takes about 0.2 s where the migrations, the demo and
//! its projection took about 3 s per test, most of the Rust suite's time.
//!
//! Tests that need an empty database (the migrations, a first business, a clock placed
//! before the demo exists) keep `#[sqlx::test]`; [`System::start`] loads the demo there.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Connection, Executor, PgConnection, PgPool};

use crate::in_process::System;

const TEMPLATE_PREFIX: &str = "navalha_demo_";
const COPY_PREFIX: &str = "navalha_test_";

/// A new database of this process on `DATABASE_URL`'s server, holding the demo as
/// [`System::start`] leaves it. Databases of finished processes are dropped on the way.
///
/// # Panics
/// When the server cannot be reached or the template cannot be built.
pub async fn demo_database() -> PgPool {
    static COPIES: AtomicU32 = AtomicU32::new(0);
    let url = std::env::var("DATABASE_URL").expect("DATABASE_URL names the test server");
    let server: PgConnectOptions = url.parse().expect("DATABASE_URL");
    let mut admin = PgConnection::connect_with(&server).await.expect("connecting to the test server");
    drop_copies_of_finished_processes(&mut admin).await;
    let template = template_name().await;
    ensure_template(&mut admin, &server, &template).await;
    let name = format!("{COPY_PREFIX}{}_{}", std::process::id(), COPIES.fetch_add(1, Ordering::Relaxed));
    copy(&mut admin, &template, &name).await;
    // A database's own rights are not copied with it: the projector's, from the migrations.
    let grant = format!(r#"grant create on database "{name}" to navalha_projector"#);
    admin.execute(grant.as_str()).await.expect("the projector's right to create its schemas");
    let _ = admin.close().await;
    // As `sqlx::test`'s pools: a test needs few connections, and closes idle ones soon.
    PgPoolOptions::new()
        .max_connections(5)
        .idle_timeout(Some(Duration::from_secs(1)))
        .connect_with(server.database(&name))
        .await
        .expect("connecting to the test database")
}

fn migrations_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations"))
}

/// One template per build of the test binary, migrations and placed clock: a rebuilt
/// binary may seed differently, and a template must never outlive the code that made it.
async fn template_name() -> String {
    let migrator = Migrator::new(migrations_dir()).await.expect("reading the migrations");
    let mut hasher = DefaultHasher::new();
    for migration in migrator.iter() {
        migration.version.hash(&mut hasher);
        migration.checksum.hash(&mut hasher);
    }
    let exe = std::env::current_exe().expect("the test binary");
    exe.hash(&mut hasher);
    if let Ok(metadata) = std::fs::metadata(&exe) {
        metadata.len().hash(&mut hasher);
        metadata.modified().ok().hash(&mut hasher);
    }
    std::env::var("NAVALHA_CLOCK_OFFSET_SECONDS").ok().hash(&mut hasher);
    format!("{TEMPLATE_PREFIX}{:016x}", hasher.finish())
}

/// Builds the template unless a finished one exists; one builder at a time across the
/// test processes (a session advisory lock), the others wait and then copy it.
async fn ensure_template(admin: &mut PgConnection, server: &PgConnectOptions, template: &str) {
    let lock = format!("select pg_advisory_lock(hashtext('{template}'))");
    admin.execute(lock.as_str()).await.expect("locking the template");
    let finished: Option<bool> =
        sqlx::query_scalar("select datistemplate from pg_database where datname = $1")
            .bind(template)
            .fetch_optional(&mut *admin)
            .await
            .expect("looking for the template");
    if finished != Some(true) {
        // A builder that died half-way left an unfinished one.
        admin
            .execute(format!(r#"drop database if exists "{template}" with (force)"#).as_str())
            .await
            .expect("drop");
        admin
            .execute(format!(r#"create database "{template}""#).as_str())
            .await
            .expect("creating the template");
        build(server.clone().database(template)).await;
        // Nothing may stay connected to a template that is copied.
        admin
            .execute(
                format!(
                    "select pg_terminate_backend(pid) from pg_stat_activity where datname = '{template}';
                     alter database \"{template}\" with is_template true allow_connections false"
                )
                .as_str(),
            )
            .await
            .expect("finishing the template");
    }
    let unlock = format!("select pg_advisory_unlock(hashtext('{template}'))");
    admin.execute(unlock.as_str()).await.expect("unlocking the template");
}

/// Migrates, seeds and projects the template in a runtime of its own, so that every task
/// and connection the system started ends with it.
async fn build(options: PgConnectOptions) {
    tokio::task::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async move {
            let pool = PgPoolOptions::new().max_connections(5).connect_with(options).await.expect("template");
            Migrator::new(migrations_dir())
                .await
                .expect("reading the migrations")
                .run(&pool)
                .await
                .expect("migrating the template");
            let system = System::start(pool.clone()).await;
            drop(system);
            pool.close().await;
        });
        runtime.shutdown_timeout(Duration::from_secs(5));
    })
    .await
    .expect("building the template");
}

/// `create database … template …`, retried while a connection to the template is still
/// closing.
async fn copy(admin: &mut PgConnection, template: &str, name: &str) {
    let create = format!(r#"create database "{name}" template "{template}""#);
    for attempt in 0.. {
        match admin.execute(create.as_str()).await {
            Ok(_) => return,
            Err(error) if attempt < 50 && error.to_string().contains("being accessed by other users") => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("copying the demo template: {error}"),
        }
    }
}

/// Drops the copies whose process is gone (a test's copy lives as long as its process:
/// nextest runs each test in one).
async fn drop_copies_of_finished_processes(admin: &mut PgConnection) {
    let copies: Vec<String> = sqlx::query_scalar("select datname from pg_database where datname like $1")
        .bind(format!("{COPY_PREFIX}%"))
        .fetch_all(&mut *admin)
        .await
        .unwrap_or_default();
    for name in copies {
        let pid = name.trim_start_matches(COPY_PREFIX).split('_').next().unwrap_or_default();
        if pid.is_empty() || Path::new("/proc").join(pid).exists() {
            continue;
        }
        // Another process may be dropping it too: either way it goes.
        let _ = admin.execute(format!(r#"drop database if exists "{name}" with (force)"#).as_str()).await;
    }
}
