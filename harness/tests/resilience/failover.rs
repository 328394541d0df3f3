//! The primary fails over by itself (issue 46, item 4; docs/operations.md, "Automatic
//! failover"): Patroni manages a primary and a synchronous standby, HAProxy sends the
//! services to whichever is the primary.

use std::time::Duration;

use navalha_harness::checks::{read_model_digest, wait_for_read_models};
use navalha_harness::load;
use navalha_harness::patroni::TTL;
use navalha_harness::system::System;

use crate::{booking_load, health, healthy_within, spawn_load, under_way};

/// The budget for a new primary, from the crash to Patroni's answer.
const FAILOVER_BUDGET: Duration = Duration::from_secs(30);

/// The primary's postmaster killed under booking load: the synchronous standby is the
/// primary within the budget; meanwhile /health says the database is down; no
/// acknowledged booking is lost and none is doubled; the read models equal a rebuild; the
/// old primary rejoins as the standby. Then the new primary's whole machine dies (its
/// Patroni too, so no one hands the leader key over): the other takes over once the key
/// expires, and the machine rejoins when it comes back.
#[tokio::test]
async fn patroni_fails_the_primary_over_and_no_acknowledged_booking_is_lost() -> anyhow::Result<()> {
    let mut system = System::start_with_failover("failover").await?;
    let mut projector = system.service("projector", "projector", &[], &[]).await?;
    let command = system.service("command-api", "command-api", &[], &[]).await?;
    let query = system.service("query-api", "query-api", &[], &[]).await?;
    let base = format!("http://{}/api", command.addr);
    let load = booking_load(&system, vec![base.clone()], 8, 300).await?;
    let (started, running) = spawn_load(&system, &load);
    under_way(&started).await;

    let old = system.primary.primary().await.ok_or_else(|| anyhow::anyhow!("no primary"))?;
    system.primary.nodes[old].cluster.crash()?;
    // Until a standby is promoted the database is away, and both services say so.
    for service in [&command, &query] {
        let (status, body) = health(&system.client, service).await?;
        let promoted = system.primary.primary().await.is_some_and(|now| now != old);
        assert!(status == 503 || promoted, "{} /health right after the crash: {status} {body}", service.name);
    }
    let (new, took) = system.primary.wait_for_new_primary(old, FAILOVER_BUDGET).await?;
    eprintln!("crash of the postmaster: {} is the primary after {took:?}", system.primary.nodes[new].name);
    healthy_within(&system.client, &[&command, &query], Duration::from_secs(10)).await?;

    let attempts = running.await??;
    let verified = load::verify(&system.pool, &system.client, &base, &load, &attempts).await?;
    assert!(verified.retried > 0, "no booking met the failover: {verified:?}");
    let rejoined = system.primary.wait_for_sync_standby(old, Duration::from_secs(60)).await?;
    eprintln!("{} rejoined as the sync standby after {rejoined:?} more", system.primary.nodes[old].name);

    // The projector's checkpoints carried over: what it built equals a rebuild.
    wait_for_read_models(&system.pool, Duration::from_secs(30)).await?;
    let live = read_model_digest(&system.pool).await?;
    projector.signal("KILL").await?;
    system.launcher.run("projector", &["rebuild"], "rebuild").await?;
    assert_eq!(live, read_model_digest(&system.pool).await?, "the read models differ from a rebuild");
    system.launcher.restart(&mut projector)?;

    // The new primary's machine dies: its leader key expires after the TTL.
    system.primary.kill_machine(new).await?;
    let (last, took) = system.primary.wait_for_new_primary(new, FAILOVER_BUDGET).await?;
    assert_eq!(last, old, "the only node left is the primary");
    assert!(took < Duration::from_secs(TTL + 10), "a dead machine's key expires after {TTL} s: {took:?}");
    eprintln!("death of a machine: {} is the primary after {took:?}", system.primary.nodes[last].name);
    healthy_within(&system.client, &[&command, &query], Duration::from_secs(10)).await?;
    let body = load::booking_body(&load.targets, load.from + chrono::Days::new(20), 0);
    let booked = load::book(&system.client, &base, &load.token, "after-a-machine-died", &body).await?;
    assert_eq!(booked.status, 201, "booking on the last node: {booked:?}");
    system.primary.restart_agent(new)?;
    system.primary.wait_for_sync_standby(new, Duration::from_secs(60)).await?;
    Ok(())
}
