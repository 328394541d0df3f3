//! The HTTP side of a test or a bench run: a client, signing in, and the headers of
//! read-your-writes (`X-Navalha-Position` on command answers, `X-Navalha-Consistency` on
//! queries that waited for it).

use std::time::Duration;

use anyhow::bail;
use serde_json::{json, Value};

/// The position header of command answers and queries.
pub const POSITION_HEADER: &str = "x-navalha-position";
/// query-api's answer on read-your-writes.
pub const CONSISTENCY_HEADER: &str = "x-navalha-consistency";

/// A client for many concurrent keep-alive connections.
pub fn http_client() -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .pool_max_idle_per_host(512)
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(30))
        .build()?)
}

/// `POST session-professional/login`: the bearer token.
pub async fn sign_in(
    client: &reqwest::Client,
    command: &str,
    email: &str,
    password: &str,
) -> anyhow::Result<String> {
    let answer = client
        .post(format!("{command}/session-professional/login"))
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await?;
    let status = answer.status();
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    match body.get("Token").and_then(Value::as_str) {
        Some(token) if status.is_success() => Ok(token.to_owned()),
        _ => bail!("signing in as {email} failed: {status} {body}"),
    }
}

/// `<tx_id>.<global_position>` as a comparable pair.
pub fn parse_position(text: &str) -> Option<(i64, i64)> {
    let (tx, pos) = text.trim().split_once('.')?;
    Some((tx.parse().ok()?, pos.parse().ok()?))
}

/// `reached; waited-ms=12` → (true, 12).
pub fn parse_consistency(text: &str) -> Option<(bool, u64)> {
    let (state, rest) = text.split_once(';')?;
    let waited = rest.trim().strip_prefix("waited-ms=")?.trim().parse().ok()?;
    Some((state.trim() == "reached", waited))
}
