//! Resilience: what docs/operations.md promises about running Navalha on several
//! processes and machines, each claim tried with real processes on a private cluster (issue 16).
//! `./navalha test` runs these in their own stage, one at a time: they start clusters and
//! services of their own, and time what a failover takes.
//!
//! Alone: `cargo build --workspace && cargo nextest run -p navalha-harness -j 1`.

mod backups;
mod crashes;
mod failover;
mod placed;
mod reminders;
mod replica;
mod scale_out;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Days;
use navalha_harness::checks::wait_for_read_models;
use navalha_harness::load::{self, Attempt, Load};
use navalha_harness::process::Service;
use navalha_harness::system::System;
use serde_json::Value;

/// A load of `bookings` bookings by `clients` clients through `bases`, for days from
/// tomorrow on.
async fn booking_load<P>(
    system: &System<P>,
    bases: Vec<String>,
    clients: usize,
    bookings: usize,
) -> anyhow::Result<Load> {
    wait_for_read_models(&system.pool, Duration::from_secs(60)).await?;
    let token = system.admin_token(&bases[0]).await?;
    Ok(Load {
        bases,
        token,
        targets: system.booking_targets().await?,
        clients,
        bookings,
        from: navalha_harness::demo::today() + Days::new(1),
    })
}

/// Runs `load` in the background; the flag turns true once a quarter is answered.
fn spawn_load<P>(
    system: &System<P>,
    load: &Load,
) -> (Arc<AtomicBool>, tokio::task::JoinHandle<anyhow::Result<Vec<Attempt>>>) {
    let started = Arc::new(AtomicBool::new(false));
    let (client, load, flag) = (system.client.clone(), load.clone(), started.clone());
    (started, tokio::spawn(async move { load::run(&client, &load, flag).await }))
}

/// Waits until the flag is set (the load is well under way).
async fn under_way(flag: &AtomicBool) {
    while !flag.load(std::sync::atomic::Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A service's /health: its status and body.
async fn health(client: &reqwest::Client, service: &Service) -> anyhow::Result<(u16, Value)> {
    let answer = client.get(service.health_url()).timeout(Duration::from_secs(5)).send().await?;
    let status = answer.status().as_u16();
    Ok((status, answer.json().await.unwrap_or(Value::Null)))
}

/// Waits until every service answers /health with 200, at most `limit` in all.
async fn healthy_within(
    client: &reqwest::Client,
    services: &[&Service],
    limit: Duration,
) -> anyhow::Result<()> {
    let since = Instant::now();
    for service in services {
        while !health(client, service).await.is_ok_and(|(status, _)| status == 200) {
            anyhow::ensure!(
                since.elapsed() < limit,
                "{} unhealthy {limit:?} after the new primary",
                service.name
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    Ok(())
}
