//! Several instances: three command-apis behind the gateway, and two projectors of which
//! the active one dies.

use std::time::{Duration, Instant};

use chrono::Days;

use navalha_harness::checks::{read_model_digest, wait_for_read_models};
use navalha_harness::load;
use navalha_harness::process::stop_all;
use navalha_harness::system::System;

use crate::{booking_load, spawn_load, under_way};

/// docs/operations.md: "Concurrency is handled by PostgreSQL, not by the instances", and a
/// retry with the same key "may land on another instance; it still gets the first answer".
#[tokio::test]
async fn three_command_apis_behind_the_gateway_book_once_and_replay_anywhere() -> anyhow::Result<()> {
    let system = System::start("scale-out", &[]).await?;
    let projector = system.service("projector", "projector", &[], &[]).await?;
    let mut commands = Vec::new();
    for name in ["command-api-1", "command-api-2", "command-api-3"] {
        commands.push(system.service(name, "command-api", &[], &[]).await?);
    }
    let query = system.service("query-api", "query-api", &[], &[]).await?;
    let gateway = system.gateway(&commands.iter().collect::<Vec<_>>(), &[&query]).await?;

    let edge = format!("http://{}/api", gateway.addr);
    let load = booking_load(&system, vec![edge], 24, 360).await?;
    let attempts = load::run(&system.client, &load, Default::default()).await?;
    // Replays go straight to each instance in turn, not through the gateway.
    for command in &commands {
        let direct = format!("http://{}/api", command.addr);
        let verified = load::verify(&system.pool, &system.client, &direct, &load, &attempts).await?;
        assert!(verified.refused > 0, "the load never raced for a slot: {verified:?}");
    }
    // Each instance took a share of the bookings.
    for command in &commands {
        let log = std::fs::read_to_string(&command.log)?;
        assert!(log.contains("appointment booked"), "{} booked nothing", command.name);
    }
    drop((projector, query, gateway));
    Ok(())
}

/// docs/operations.md: "When the active process dies ... a standby takes over within about
/// a second, continuing from the stored checkpoint". Here within 2 s, and the read models
/// it leaves equal a rebuild from the first event.
#[tokio::test]
async fn a_standby_projector_takes_over_when_the_active_one_is_killed() -> anyhow::Result<()> {
    let system = System::start("failover", &[]).await?;
    let mut active = system.service("projector-a", "projector", &[], &[]).await?;
    wait_for_read_models(&system.pool, Duration::from_secs(60)).await?;
    // Started after the first is active for every model: a standby for all of them.
    let standby = system.service("projector-b", "projector", &[], &[]).await?;
    let command = system.service("command-api", "command-api", &[], &[]).await?;
    let base = format!("http://{}/api", command.addr);
    let load = booking_load(&system, vec![base.clone()], 8, 240).await?;
    let (started, running) = spawn_load(&system, &load);
    under_way(&started).await;

    active.signal("KILL").await?;
    let killed = Instant::now();
    // One booking after the kill, on a day the load never books: the standby must make it
    // visible.
    let mut body = load::booking_body(&load.targets, load.from + Days::new(30), 0);
    body["observation"] = "after the kill".into();
    let after = load::book(&system.client, &base, &load.token, "after-the-kill", &body).await?;
    let position = after.position.as_deref().and_then(navalha_harness::api::parse_position);
    let position = position.ok_or_else(|| anyhow::anyhow!("no position: {after:?}"))?;
    system.wait_for_agenda(position, Duration::from_secs(10)).await?;
    let takeover = killed.elapsed();
    assert!(takeover < Duration::from_secs(2), "the standby took {takeover:?} to take over");

    let attempts = running.await??;
    load::verify(&system.pool, &system.client, &base, &load, &attempts).await?;
    wait_for_read_models(&system.pool, Duration::from_secs(30)).await?;
    let live = read_model_digest(&system.pool).await?;
    let mut rest = vec![standby, command];
    stop_all(&mut rest).await;
    system.launcher.run("projector", &["rebuild"], "rebuild").await?;
    let rebuilt = read_model_digest(&system.pool).await?;
    assert_eq!(live, rebuilt, "the read models after the failover differ from a rebuild");
    let log = std::fs::read_to_string(system.launcher.log("projector-b"))?;
    assert!(log.contains("standby"), "projector-b never was a standby:\n{log}");
    Ok(())
}
