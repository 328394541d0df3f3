//! Backups that restore to any instant (issue 46, item 5; docs/operations.md, "Backups"):
//! pgBackRest archives every WAL segment beside a full backup, and a restore to an instant
//! into a new cluster holds exactly the bookings acknowledged before it.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use navalha_harness::checks::{read_model_digest, wait_for_read_models};
use navalha_harness::cluster::{on_path, owned_dir, Cluster, ScratchDir};
use navalha_harness::load::{self, Load};
use navalha_harness::system::{System, DATABASE};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

use crate::booking_load;

const STANZA: &str = "navalha";

/// Books, notes an instant, books more, and restores the backup and its archived WAL to
/// that instant into a new cluster: the bookings before it are there, none after it, and
/// the read models the projector then brings up to date equal a rebuild from the log.
#[tokio::test]
async fn a_backup_restores_to_an_instant_with_exactly_the_bookings_acknowledged_before_it(
) -> anyhow::Result<()> {
    let pgbackrest =
        on_path("pgbackrest").context("pgbackrest is not installed (./navalha test's setup installs it)")?;
    let backups = ScratchDir::new("navalha-backups")?;
    let run_dir = backups.path.join("run");
    for dir in ["repo", "lock", "log", "run"] {
        owned_dir(&backups.path.join(dir))?;
    }
    let config = backups.path.join("pgbackrest.conf");
    let archive_command = format!(
        "archive_command = '{} --config={} --stanza={STANZA} archive-push %p'",
        pgbackrest.display(),
        config.display()
    );
    let socket = format!("unix_socket_directories = '{}'", run_dir.display());
    let system = System::start("backups", &["archive_mode = on", &archive_command, &socket]).await?;
    write_config(&config, &backups.path, &system.primary)?;
    let tool = |args: &[&str]| {
        let mut all = vec![format!("--config={}", config.display()), format!("--stanza={STANZA}")];
        all.extend(args.iter().map(|arg| (*arg).to_owned()));
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        system.primary.run(&pgbackrest, &all)
    };
    tool(&["stanza-create"])?;
    tool(&["check"])?;
    tool(&["--type=full", "backup"])?;

    let _projector = system.service("projector", "projector", &[], &[]).await?;
    let command = system.service("command-api", "command-api", &[], &[]).await?;
    let load = booking_load(&system, vec![format!("http://{}/api", command.addr)], 1, 1).await?;
    let before = book(&system, &load, 0, 5).await?;
    // The instant the restore aims at: after every acknowledged booking of the first batch,
    // before any of the second.
    let instant: String =
        sqlx::query_scalar("select clock_timestamp()::text").fetch_one(&system.pool).await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = book(&system, &load, 1_000, 5).await?;
    archive_everything(&system.pool).await?;

    let target = format!("--target={instant}");
    let restored = Cluster::restored(
        &system.root.path,
        "restored",
        &pgbackrest,
        &[
            &format!("--config={}", config.display()),
            &format!("--stanza={STANZA}"),
            "--pg1-path={data}",
            "--type=time",
            &target,
            "--target-action=promote",
            "restore",
        ],
        &["archive_mode = off", &socket],
    )?;
    let restored_url = restored.url(DATABASE);
    let pool = PgPoolOptions::new().max_connections(2).connect(&restored_url).await?;
    wait_for_promotion(&pool).await?;

    let booked = |ids: &[i64]| {
        let pool = pool.clone();
        let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
        async move {
            sqlx::query_scalar::<_, i64>(
                "select count(*) from events
                  where aggregate_type = 'Appointment' and event_type = 'AppointmentBooked'
                    and aggregate_id = any($1)",
            )
            .bind(ids)
            .fetch_one(&pool)
            .await
        }
    };
    assert_eq!(booked(&before).await?, before.len() as i64, "a booking before {instant} is missing");
    assert_eq!(booked(&after).await?, 0, "a booking after {instant} came back");

    // The projector brings the restored read models up to the restored log; they equal the
    // models rebuilt from it.
    let projector =
        system.service("projector-restored", "projector", &[], &[("DATABASE_URL", &restored_url)]).await?;
    wait_for_read_models(&pool, Duration::from_secs(60)).await?;
    drop(projector);
    let caught_up = read_model_digest(&pool).await?;
    let mut launcher = system.launcher.clone();
    launcher.env.retain(|(name, _)| name != "DATABASE_URL");
    launcher.env.push(("DATABASE_URL".to_owned(), restored_url.clone()));
    launcher.run("projector", &["rebuild"], "rebuild-restored").await?;
    assert_eq!(caught_up, read_model_digest(&pool).await?, "the restored read models differ from a rebuild");
    Ok(())
}

/// pgBackRest's settings: the repository and its working folders under `dir`, the primary
/// reached on its socket.
fn write_config(path: &Path, dir: &Path, primary: &Cluster) -> anyhow::Result<()> {
    let text = format!(
        "[global]\nrepo1-path={dir}/repo\nlock-path={dir}/lock\nlog-path={dir}/log\n\
         log-level-console=warn\nlog-level-file=off\nstart-fast=y\ncompress-type=none\n\n\
         [{STANZA}]\npg1-path={data}\npg1-port={port}\npg1-socket-path={dir}/run\npg1-user=postgres\n",
        dir = dir.display(),
        data = primary.data.display(),
        port = primary.port,
    );
    std::fs::write(path, text)?;
    Ok(())
}

/// `count` bookings answered 201, trying the load's bodies from the `first`th on (a
/// taken time is skipped): their ids.
async fn book(system: &System, load: &Load, first: usize, count: usize) -> anyhow::Result<Vec<i64>> {
    let mut ids = Vec::new();
    for n in first..first + 100 {
        let body = load::booking_body(&load.targets, load.from, n);
        let answer =
            load::book(&system.client, &load.bases[0], &load.token, &format!("backup-{n}"), &body).await?;
        if answer.status == 201 {
            ids.push(answer.body["IdScheduling"].as_i64().context("IdScheduling")?);
            if ids.len() == count {
                return Ok(ids);
            }
        }
    }
    anyhow::bail!("only {} of {count} bookings were taken", ids.len())
}

/// Ends the current WAL segment and waits until it is archived.
async fn archive_everything(pool: &PgPool) -> anyhow::Result<()> {
    let segment: String =
        sqlx::query_scalar("select pg_walfile_name(pg_switch_wal())").fetch_one(pool).await?;
    let started = Instant::now();
    loop {
        let archived: Option<String> =
            sqlx::query_scalar("select last_archived_wal from pg_stat_archiver").fetch_one(pool).await?;
        if archived.as_deref().is_some_and(|archived| archived >= segment.as_str()) {
            return Ok(());
        }
        anyhow::ensure!(started.elapsed() < Duration::from_secs(60), "{segment} not archived after 60 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the restored cluster has replayed to the target and taken writes.
async fn wait_for_promotion(pool: &PgPool) -> anyhow::Result<()> {
    let started = Instant::now();
    while sqlx::query_scalar::<_, bool>("select pg_is_in_recovery()").fetch_one(pool).await? {
        anyhow::ensure!(started.elapsed() < Duration::from_secs(60), "still recovering after 60 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}
