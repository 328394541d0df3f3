//! Crashes under load: command-api killed, PostgreSQL restarted.

use std::time::Duration;

use navalha_harness::load;
use navalha_harness::system::System;
use serde_json::Value;

use crate::{booking_load, health, healthy_within, spawn_load, under_way};

/// A command-api killed with SIGKILL while it books: nothing is half-written, and each
/// client's retry with its key, on the restarted process, gets the answer of the first
/// request, even one the dead process never sent.
#[tokio::test]
async fn command_api_killed_mid_load_loses_nothing_and_retries_get_the_first_answers() -> anyhow::Result<()> {
    let system = System::start("kill-command", &[]).await?;
    let _projector = system.service("projector", "projector", &[], &[]).await?;
    let mut command = system.service("command-api", "command-api", &[], &[]).await?;
    let base = format!("http://{}/api", command.addr);
    let load = booking_load(&system, vec![base.clone()], 16, 400).await?;
    let (started, running) = spawn_load(&system, &load);
    under_way(&started).await;

    command.signal("KILL").await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    system.launcher.restart(&mut command)?;

    let attempts = running.await??;
    let verified = load::verify(&system.pool, &system.client, &base, &load, &attempts).await?;
    assert!(verified.retried > 0, "no request was cut by the kill: {verified:?}");
    Ok(())
}

/// PostgreSQL restarted under load: meanwhile /health says the database is down and
/// requests answer 503 in the API's shape (not 500); the services reconnect by themselves
/// within 5 s of it being back; nothing acknowledged is lost.
#[tokio::test]
async fn a_postgres_restart_mid_load_answers_503_then_recovers_within_5_s() -> anyhow::Result<()> {
    adopt_orphans_and_never_reap();
    let system = System::start("pg-restart", &[]).await?;
    let _projector = system.service("projector", "projector", &[], &[]).await?;
    let command = system.service("command-api", "command-api", &[], &[]).await?;
    let query = system.service("query-api", "query-api", &[], &[]).await?;
    let base = format!("http://{}/api", command.addr);
    let load = booking_load(&system, vec![base.clone()], 8, 300).await?;
    let (started, running) = spawn_load(&system, &load);
    under_way(&started).await;

    // A crash, not a clean stop: the postmaster is killed, as by the OOM killer.
    system.primary.crash()?;
    for service in [&command, &query] {
        let (status, body) = health(&system.client, service).await?;
        assert_eq!(status, 503, "{} /health during the outage: {body}", service.name);
        assert_ne!(body["database"], "ok", "{}: {body}", service.name);
    }
    let day = format!("http://{}/api/scheduling/professional?idCompany=1&date=2030-01-02", query.addr);
    let read =
        system.client.get(day).bearer_auth(&load.token).send().await.map_err(|e| anyhow::anyhow!("{e:?}"))?;
    assert_eq!(read.status().as_u16(), 503, "a read during the outage");
    let read: Value = read.json().await?;
    assert!(read["message"].as_str().is_some_and(|m| m.contains("indisponível")), "{read}");

    tokio::time::sleep(Duration::from_secs(1)).await;
    system.primary.start()?;
    // Both services reconnect by themselves within 5 s of PostgreSQL being back.
    healthy_within(&system.client, &[&command, &query], Duration::from_secs(5)).await?;
    let attempts = running.await??;
    let verified = load::verify(&system.pool, &system.client, &base, &load, &attempts).await?;
    assert!(verified.retried > 0, "no request met the outage: {verified:?}");
    Ok(())
}

/// Makes this test process the subreaper of its orphaned descendants and never reaps
/// them, as a container's init may do: the killed postmaster, which pg_ctl left an
/// orphan, then stays a zombie whose pid still exists, and the restart must cope.
#[allow(unsafe_code)]
fn adopt_orphans_and_never_reap() {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes plain integers and touches no
    // memory of ours. Each nextest test runs in its own process, so no other test sees it.
    let done = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    assert_eq!(done, 0, "prctl(PR_SET_CHILD_SUBREAPER)");
}
