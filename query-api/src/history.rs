//! Change history of a client, a professional or a unit: `GET user/{id}/history`,
//! `GET professional/{id}/history`, `GET company/{id}/history`. ADMIN only.
//!
//! Like every audit in Navalha, it replays the stream on purpose (design.md: query-api
//! reads `events` only for audits): each event with who made it, when, and which fields
//! changed from what to what. Secrets never reach events, so nothing here is hidden.

use std::collections::BTreeMap;

use axum::extract::State;
use chrono::{DateTime, Utc};
use navalha_platform::auth::{AdminOnly, Auth};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam};
use navalha_platform::refused;
use navalha_platform::ApiError;
use serde::Serialize;
use serde_json::Value;
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(client)).routes(routes!(professional)).routes(routes!(company))
}

/// One field that changed.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Change {
    /// The field, as a path (`address.city`, `weekDay 2.periods`, ...).
    pub field: String,
    /// Its value before, null when it had none.
    pub from: Value,
    /// Its value after.
    pub to: Value,
}

/// One event of a stream, as the audit shows it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct HistoryEntry {
    /// The event's number within the stream, from 1.
    pub sequence: i64,
    /// When it was committed.
    pub at: DateTime<Utc>,
    /// The acting professional's id; null for the system.
    pub user_id: Option<i64>,
    /// Their name at the time (or what the system was doing).
    pub user_name: String,
    /// Their role at the time.
    pub role: Option<String>,
    /// What happened (`ClientUpdated`, ...).
    pub event: String,
    /// Why, when the action recorded a reason (a staff sweep of online bookings, issue 39).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The fields it changed.
    pub changes: Vec<Change>,
}

/// Flattens an event's payload into `path -> value`. A payload about one weekday or one
/// item (`week_day`, `id`; a comanda's `item_id`, `tip_id`, `payment_id`) is keyed by it, so
/// that its fields are compared with the same weekday's or item's previous values, not with
/// another's.
pub fn flatten(value: &Value) -> BTreeMap<String, Value> {
    let mut fields = BTreeMap::new();
    let scope = match value {
        Value::Object(map) => {
            // A comanda's line, tip or payment is keyed by its own number.
            let numbered = [("item_id", "item"), ("tip_id", "tip"), ("payment_id", "payment")]
                .into_iter()
                .find_map(|(key, name)| map.get(key).map(|id| format!("{name} {id}")));
            match (map.get("week_day"), map.get("id")) {
                (Some(day), _) => Some(format!("weekDay {day}")),
                _ if numbered.is_some() => numbered,
                (None, Some(id)) if map.len() > 2 => Some(format!("item {id}")),
                _ => None,
            }
        }
        _ => None,
    };
    flatten_into(value, scope.as_deref().unwrap_or(""), &mut fields);
    fields
}

fn flatten_into(value: &Value, path: &str, fields: &mut BTreeMap<String, Value>) {
    match value {
        // Registration wraps the same fields that updates carry bare (`details`, `personal`,
        // `employment`): those wrappers are dropped so both compare.
        Value::Object(map) => {
            for (key, inner) in map {
                let child = match key.as_str() {
                    "details" | "personal" | "employment" | "week_day" => path.to_owned(),
                    _ if path.is_empty() => key.clone(),
                    _ => format!("{path}.{key}"),
                };
                if key == "week_day" {
                    continue;
                }
                flatten_into(inner, &child, fields);
            }
        }
        other => {
            fields.insert(path.to_owned(), other.clone());
        }
    }
}

/// Compares an event's fields with the state before it and records them.
pub fn changes(state: &mut BTreeMap<String, Value>, payload: &Value) -> Vec<Change> {
    let mut changed = Vec::new();
    for (field, to) in flatten(payload) {
        let from = state.get(&field).cloned().unwrap_or(Value::Null);
        if from != to {
            changed.push(Change { field: field.clone(), from, to: to.clone() });
            state.insert(field, to);
        }
    }
    changed
}

/// Replays a stream into its history, read on `conn` (a [`scope`] transaction): a stream of
/// another business is `missing`, like one that does not exist.
pub async fn history(
    conn: &mut PgConnection,
    aggregate_type: &str,
    id: i64,
    missing: &str,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    let rows: Vec<(i64, DateTime<Utc>, String, Value, Value)> = sqlx::query_as(&format!(
        "select e.sequence, e.recorded_at, e.event_type, e.payload, e.metadata from events e
          where e.aggregate_type = $1 and e.aggregate_id = $2 and {}
          order by e.sequence",
        scope::EVENT_IN_SCOPE
    ))
    .bind(aggregate_type)
    .bind(id.to_string())
    .fetch_all(conn)
    .await?;
    if rows.is_empty() {
        return Err(ApiError::NotFound(missing.to_owned()));
    }
    let mut fields = BTreeMap::new();
    let entries = rows
        .into_iter()
        .map(|(sequence, at, event, payload, metadata)| {
            // Externally tagged: `{"ClientUpdated": {...}}`, or a bare name for unit variants.
            let body =
                payload.as_object().and_then(|map| map.values().next().cloned()).unwrap_or(Value::Null);
            let text = |key: &str| metadata[key].as_str().map(str::to_owned);
            HistoryEntry {
                sequence,
                at,
                user_id: text("user_id").and_then(|id| id.parse().ok()),
                user_name: text("user_name").unwrap_or_default(),
                role: text("role"),
                event,
                reason: text("reason"),
                changes: changes(&mut fields, &body),
            }
        })
        .collect();
    Ok(Json(entries))
}

#[utoipa::path(
    get,
    path = "/user/{id}/history",
    tag = "History",
    summary = "A client's change history (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 200, description = "[{Sequence, At, UserId, UserName, Role, Event, Changes:[{Field, From, To}]}]", body = Vec<HistoryEntry>),
        (status = 403, description = "Not ADMIN", body = ErrorBody),
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn client(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    PathParam(id): PathParam<i64>,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    let mut tx = scope::of(&state.pool, &auth).await?;
    history(&mut tx, "Client", id, "Cliente não encontrado.").await
}

#[utoipa::path(
    get,
    path = "/professional/{id}/history",
    tag = "History",
    summary = "A professional's change history (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 200, description = "[{Sequence, At, UserId, UserName, Role, Event, Changes:[{Field, From, To}]}]", body = Vec<HistoryEntry>),
        (status = 403, description = "Not ADMIN", body = ErrorBody),
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn professional(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    PathParam(id): PathParam<i64>,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    let mut tx = scope::of(&state.pool, &auth).await?;
    crate::professionals::ensure_readable(&mut tx, &auth, id).await?;
    history(&mut tx, "Professional", id, "Profissional não encontrado.").await
}

#[utoipa::path(
    get,
    path = "/company/{id}/history",
    tag = "History",
    summary = "A unit's change history (ADMIN)",
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 200, description = "[{Sequence, At, UserId, UserName, Role, Event, Changes:[{Field, From, To}]}]", body = Vec<HistoryEntry>),
        (status = 403, description = "Not ADMIN", body = ErrorBody),
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn company(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    PathParam(id): PathParam<i64>,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    let mut tx = scope::of(&state.pool, &auth).await?;
    crate::companies::ensure_visible(&mut tx, &auth, id).await?;
    history(&mut tx, "Company", id, "Empresa não encontrada.").await
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn registration_and_updates_compare_field_by_field() {
        let mut state = BTreeMap::new();
        let registered = json!({"cpf": "52998224725", "details": {"name": "João", "status": true}});
        let first = changes(&mut state, &registered);
        assert_eq!(first.len(), 3);
        assert!(first.iter().all(|c| c.from == Value::Null));
        let updated = json!({"name": "João Silva", "status": true});
        assert_eq!(
            changes(&mut state, &updated),
            [Change { field: "name".into(), from: json!("João"), to: json!("João Silva") }]
        );
    }

    #[test]
    fn weekday_and_item_payloads_compare_with_their_own_past() {
        let mut state = BTreeMap::new();
        changes(&mut state, &json!({"week_day": 1, "periods": [{"start": "09:00", "end": "12:00"}]}));
        let tuesday =
            changes(&mut state, &json!({"week_day": 2, "periods": [{"start": "09:00", "end": "12:00"}]}));
        assert_eq!(tuesday[0].field, "weekDay 2.periods");
        assert_eq!(tuesday[0].from, Value::Null, "Monday's hours are not Tuesday's");
        changes(&mut state, &json!({"id": 7, "service_id": 3, "minutes": 30, "cents": 4500}));
        let longer = changes(&mut state, &json!({"id": 7, "service_id": 3, "minutes": 45, "cents": 4500}));
        assert_eq!(longer, [Change { field: "item 7.minutes".into(), from: json!(30), to: json!(45) }]);
        // A comanda's second line, like its first, shows all its fields.
        changes(&mut state, &json!({"item_id": 1, "quantity": 1, "unit_cents": 4500}));
        let second = changes(&mut state, &json!({"item_id": 2, "quantity": 1, "unit_cents": 4500}));
        assert_eq!(second.len(), 3, "{second:?}");
        assert_eq!(second[1].field, "item 2.quantity");
    }
}
