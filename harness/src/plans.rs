//! Reading PostgreSQL's plans in tests: the tests that pin a statement to the index it
//! must use (issue 46's scaling bugs were all plans that read a whole table).

use serde_json::Value;

/// The JSON plan of `sql` prepared as `name` and run with `arguments` (e.g. `(1, 'x')`):
/// the plan a prepared statement settles on, generic when the transaction set
/// `plan_cache_mode = force_generic_plan`.
pub async fn plan_of(tx: &mut sqlx::PgConnection, name: &str, sql: &str, arguments: &str) -> Value {
    sqlx::query(&format!("prepare {name} as {sql}")).execute(&mut *tx).await.expect("prepare");
    sqlx::query_scalar(&format!("explain (format json) execute {name} {arguments}"))
        .fetch_one(&mut *tx)
        .await
        .expect("explain")
}

/// Every string value of `field` in a JSON plan (e.g. each `Index Cond`, or each
/// `Node Type`), depth first.
pub fn plan_values(plan: &Value, field: &str) -> Vec<String> {
    match plan {
        Value::Object(node) => node
            .iter()
            .flat_map(|(key, value)| match value {
                Value::String(text) if key == field => vec![text.clone()],
                _ => plan_values(value, field),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(|item| plan_values(item, field)).collect(),
        _ => Vec::new(),
    }
}

/// The index (or "Seq Scan") each scan of `relation` in a JSON plan reads.
pub fn scans_of(plan: &Value, relation: &str) -> Vec<String> {
    match plan {
        Value::Object(node) => {
            // A bitmap heap scan names its index in the bitmap index scan below it.
            let here = (node.get("Relation Name").and_then(|r| r.as_str()) == Some(relation)).then(|| {
                let index = node.get("Index Name").and_then(|i| i.as_str()).map(str::to_owned);
                index
                    .or_else(|| plan_values(node.get("Plans")?, "Index Name").into_iter().next())
                    .unwrap_or_else(|| "Seq Scan".to_owned())
            });
            here.into_iter().chain(node.values().flat_map(|value| scans_of(value, relation))).collect()
        }
        Value::Array(items) => items.iter().flat_map(|item| scans_of(item, relation)).collect(),
        _ => Vec::new(),
    }
}
