//! The metadata every event carries: who did it, from where, and when.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::role::Role;

/// Who caused an event and in which request. Stored as the event's metadata; the audit
/// screens are built from it.
#[derive(Debug, Clone, PartialEq)]
pub struct EventMetadata {
    /// The business the event belongs to: the signed-in user's, or for the system's own work
    /// the business of what it works on. PostgreSQL refuses an event whose business is not
    /// its aggregate's (the `businesses` migration).
    pub business_id: i64,
    /// Acting professional's id, `None` for the system (demo loader, provider webhooks).
    pub user_id: Option<i64>,
    /// Acting user's name at the time.
    pub user_name: String,
    /// Acting user's role at the time, `None` for the system.
    pub role: Option<Role>,
    /// The request id of the HTTP request that carried the command.
    pub request_id: String,
    /// The client's IP address as seen by the edge.
    pub client_ip: String,
    /// When the command was accepted.
    pub at: DateTime<Utc>,
    /// Values the command's events must own across all streams (see the `unique_claim`
    /// migration): `(scope, value)`, e.g. `("client_cpf", "52998224725")`.
    pub unique_claims: Vec<(String, String)>,
    /// Values the aggregate gives back (an old e-mail after a change).
    pub released_claims: Vec<(String, String)>,
    /// More entries, for readers of the log (the idempotent answer of a keyed request).
    pub extra: Vec<(String, String)>,
}

impl EventMetadata {
    /// Metadata for work the system does on its own behalf, in `business_id`.
    pub fn system(reason: &str, business_id: i64) -> Self {
        Self {
            business_id,
            user_id: None,
            user_name: reason.to_owned(),
            role: None,
            request_id: String::new(),
            client_ip: String::new(),
            at: crate::clock::now(),
            unique_claims: Vec::new(),
            released_claims: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// The same metadata, claiming `value` in `scope` for the command's events.
    pub fn claiming(&self, scope: &str, value: &str) -> Self {
        let mut metadata = self.clone();
        metadata.unique_claims.push((scope.to_owned(), value.to_owned()));
        metadata
    }

    /// The same metadata, giving `value` in `scope` back.
    pub fn releasing(&self, scope: &str, value: &str) -> Self {
        let mut metadata = self.clone();
        metadata.released_claims.push((scope.to_owned(), value.to_owned()));
        metadata
    }

    /// The same metadata with one more entry.
    pub fn with(&self, key: &str, value: String) -> Self {
        let mut metadata = self.clone();
        metadata.extra.push((key.to_owned(), value));
        metadata
    }

    /// The flat map cqrs-es stores next to each event.
    pub fn to_map(&self) -> HashMap<String, String> {
        let mut map = HashMap::new();
        map.insert("business_id".to_owned(), self.business_id.to_string());
        if let Some(id) = self.user_id {
            map.insert("user_id".to_owned(), id.to_string());
        }
        map.insert("user_name".to_owned(), self.user_name.clone());
        if let Some(role) = self.role {
            map.insert("role".to_owned(), role.code().to_owned());
        }
        map.insert("request_id".to_owned(), self.request_id.clone());
        map.insert("client_ip".to_owned(), self.client_ip.clone());
        map.insert("at".to_owned(), self.at.to_rfc3339());
        for (key, claims) in
            [("unique_claims", &self.unique_claims), ("released_claims", &self.released_claims)]
        {
            if !claims.is_empty() {
                let claims: Vec<serde_json::Value> = claims
                    .iter()
                    .map(|(scope, value)| serde_json::json!({ "scope": scope, "value": value }))
                    .collect();
                map.insert(key.to_owned(), serde_json::Value::Array(claims).to_string());
            }
        }
        map.extend(self.extra.iter().cloned());
        map
    }
}
