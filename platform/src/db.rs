//! The connection pool.

use std::time::Duration;

use anyhow::Context;
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

/// Connects, retrying for a while so services can start before PostgreSQL is ready.
pub async fn connect(url: &str, max_connections: u32) -> anyhow::Result<PgPool> {
    let mut attempt = 0;
    loop {
        let result = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(5))
            // sqlx pings every connection it hands out by default: one more round trip per
            // query, which the benchmark found in every command. A connection that broke
            // while idle fails its next query instead, and is then discarded.
            .test_before_acquire(false)
            .connect(url)
            .await;
        match result {
            Ok(pool) => return Ok(pool),
            Err(error) if attempt < 30 => {
                attempt += 1;
                tracing::warn!(%error, attempt, "database not reachable yet, retrying");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(error) => return Err(error).context("connecting to the database"),
        }
    }
}

/// Waits for SIGINT or SIGTERM, for graceful shutdown.
pub async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(signal) => signal,
            Err(_) => return std::future::pending().await,
        };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
    tracing::info!("shutting down");
}
