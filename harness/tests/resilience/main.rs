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
use std::time::Duration;

use chrono::Days;
use navalha_harness::checks::wait_for_read_models;
use navalha_harness::load::{self, Attempt, Load};
use navalha_harness::system::System;

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
