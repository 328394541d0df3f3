//! Health: is the database reachable, and how far behind is each read model.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sqlx::PgPool;

/// How far one read model is behind the event log.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModelLag {
    /// The read model.
    pub model: String,
    /// Committed events it has not applied yet (counted up to 100,000).
    pub behind_events: i64,
    /// Age of the oldest event it has not applied, in milliseconds (0 when caught up).
    pub behind_ms: i64,
    /// Businesses whose rows wait at an event the model could not apply (ADR 0022); every
    /// other business's rows are current. `projector stuck` says why.
    pub stuck: Vec<StuckBusiness>,
}

/// A business whose events a read model could not apply.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct StuckBusiness {
    /// The business.
    pub business_id: i64,
    /// The type of the event that failed.
    pub event_type: String,
    /// Where its rows wait, `tx.global`.
    pub position: String,
    /// Since when, RFC 3339.
    pub since: String,
}

/// The body of `GET /health`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    /// The service answering.
    pub service: &'static str,
    /// `ok` or `unreachable`.
    pub database: &'static str,
    /// Every read model's lag; empty when the database is unreachable.
    pub projections: Vec<ModelLag>,
}

impl IntoResponse for Health {
    fn into_response(self) -> Response {
        let status = if self.database == "ok" { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
        (status, axum::Json(self)).into_response()
    }
}

/// How long the check waits for the database: during an outage the pool would wait for a
/// connection up to its own acquire timeout, and a load balancer's probe wants an answer.
pub const CHECK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(1);

/// Checks the database and measures every read model's lag.
pub async fn check(service: &'static str, pool: &PgPool) -> Health {
    let error = match tokio::time::timeout(CHECK_TIMEOUT, projection_lag(pool)).await {
        Ok(Ok(projections)) => return Health { service, database: "ok", projections },
        Ok(Err(error)) => error.to_string(),
        Err(_) => format!("no answer within {CHECK_TIMEOUT:?}"),
    };
    tracing::warn!(%error, "health check failed");
    Health { service, database: "unreachable", projections: Vec::new() }
}

/// How far the model of `schema` is behind: the events after its checkpoint (up to
/// 100,000) and the oldest one's age, `$1` the placed clock's offset in seconds.
///
/// The checkpoint's values come from scalar subqueries, so that the row comparison is a
/// condition on the commit-order index. Joined to the checkpoint instead, the comparison
/// was a filter over the whole log: 250 ms a model on the bench's 182,000 events, so the
/// 14 models' check ran past [`CHECK_TIMEOUT`] and /health failed (issue 46).
pub fn lag_sql(schema: &str) -> String {
    format!(
        "select count(*),
                coalesce((extract(epoch from now() + make_interval(secs => $1) - min(s.recorded_at)) * 1000)::bigint, 0)
           from (select e.recorded_at
                   from events e
                  where (e.tx_id, e.global_position) > ((select last_tx_id from {schema}.checkpoint),
                                                        (select last_position from {schema}.checkpoint))
                  order by e.tx_id, e.global_position
                  limit 100000) s"
    )
}

/// The live read models: one schema `rm_<name>` each, holding a one-row `checkpoint`.
pub async fn projection_lag(pool: &PgPool) -> Result<Vec<ModelLag>, sqlx::Error> {
    let schemas: Vec<String> = sqlx::query_scalar(
        "select schema_name::text from information_schema.schemata
          where schema_name like 'rm\\_%' and schema_name not like '%\\_next' order by 1",
    )
    .fetch_all(pool)
    .await?;
    let mut lags = Vec::with_capacity(schemas.len());
    for schema in schemas {
        let (behind_events, behind_ms): (i64, i64) =
            sqlx::query_as(&lag_sql(&schema)).bind(crate::clock::offset_seconds()).fetch_one(pool).await?;
        // A model built before stuck businesses were kept has no table until its worker starts.
        let stuck: Vec<StuckBusiness> = sqlx::query_as(&format!(
            "select business_id, event_type, tx_id || '.' || global_position as position,
                    to_char(since at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') as since
               from {schema}.stuck order by business_id limit 100"
        ))
        .fetch_all(pool)
        .await
        .or_else(|error| match &error {
            sqlx::Error::Database(database) if database.code().as_deref() == Some("42P01") => Ok(Vec::new()),
            _ => Err(error),
        })?;
        let model = schema.trim_start_matches("rm_").to_owned();
        lags.push(ModelLag { model, behind_events, behind_ms, stuck });
    }
    Ok(lags)
}
