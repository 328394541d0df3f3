//! What this process's notice passes (`notices.rs`) have read of the log.

/// The log's snapshot at the start of the last notice pass that passed every change it read.
/// A pass reads only the changes committed since (not visible in it), so a change is passed
/// once per process, not on every pass of its 6-hour window; a commit-order cursor alone
/// would skip a transaction that commits after a later one. Passes of one process take turns
/// on it.
#[derive(Clone, Default)]
pub struct Passed {
    snapshot: std::sync::Arc<tokio::sync::Mutex<Option<Snapshot>>>,
}

impl Passed {
    /// The snapshot, held until the guard drops: one pass at a time.
    pub async fn lock(&self) -> tokio::sync::MutexGuard<'_, Option<Snapshot>> {
        self.snapshot.lock().await
    }
}

/// A snapshot of the log (`pg_snapshot` as text) and its oldest transaction still running:
/// every change after it commits at or above that transaction.
pub struct Snapshot {
    pub text: String,
    pub xmin: i64,
}

impl Snapshot {
    /// The database's snapshot now.
    pub async fn current(pool: &sqlx::PgPool) -> sqlx::Result<Snapshot> {
        let (text, xmin) = sqlx::query_as(
            "select pg_current_snapshot()::text, pg_snapshot_xmin(pg_current_snapshot())::text::bigint",
        )
        .fetch_one(pool)
        .await?;
        Ok(Snapshot { text, xmin })
    }
}
