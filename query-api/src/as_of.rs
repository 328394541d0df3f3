//! `?asOf=`: the audits' instant. Every "as it stood then" answer (a subscription, the
//! agenda's day, a caixa, a comanda) reads it the same way, and only ADMIN asks for the past
//! of the agenda and the counter.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use navalha_domain::role::Role;
use navalha_platform::auth::Principal;
use navalha_platform::clock;
use navalha_platform::ApiError;
use serde::Deserialize;

/// An `asOf` that is not a date or date-time.
pub const MSG_BAD_AS_OF: &str = "asOf deve ser uma data ISO (AAAA-MM-DD ou AAAA-MM-DDTHH:MM:SS).";

/// Reads `asOf`: an RFC 3339 instant; a date-time without offset (the default zone's wall
/// clock, ADR 0013); or a bare date, meaning the end of that day there.
pub fn parse_as_of(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(instant) = DateTime::parse_from_rfc3339(text) {
        return Some(instant.with_timezone(&Utc));
    }
    for format in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(text, format) {
            return Some(clock::instant_of(naive, clock::DEFAULT_TIME_ZONE));
        }
    }
    let day = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    let end = day.and_hms_milli_opt(23, 59, 59, 999)?;
    Some(clock::instant_of(end, clock::DEFAULT_TIME_ZONE))
}

/// An optional `asOf` of the query: `None` when absent or blank, 422 on `asOf` when it
/// cannot be read.
pub fn optional_as_of(text: Option<&str>) -> Result<Option<DateTime<Utc>>, ApiError> {
    match text.map(str::trim).filter(|text| !text.is_empty()) {
        None => Ok(None),
        Some(text) => parse_as_of(text).map(Some).ok_or_else(|| ApiError::field("asOf", MSG_BAD_AS_OF)),
    }
}

/// `?asOf` of an ADMIN-only audit.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AdminAsOf {
    /// ADMIN only: as it stood at this instant. An RFC 3339 instant, a date-time without
    /// offset (UTC-3), or a date (the end of that day).
    as_of: Option<String>,
}

impl AdminAsOf {
    /// The instant asked for, if any: 403 for a role other than ADMIN, 422 on `asOf` when
    /// it cannot be read.
    pub fn instant(&self, principal: &Principal) -> Result<Option<DateTime<Utc>>, ApiError> {
        let instant = optional_as_of(self.as_of.as_deref())?;
        if instant.is_some() && principal.role != Role::Admin {
            return Err(ApiError::Forbidden);
        }
        Ok(instant)
    }
}

/// The aggregate `id` of type `A` as its events recorded up to `until` leave it; `None` if it
/// had none by then (or is another business's: the scope hides its events).
pub async fn replayed<A: navalha_domain::Aggregate>(
    conn: &mut sqlx::PgConnection,
    id: i64,
    until: DateTime<Utc>,
) -> Result<Option<A>, ApiError> {
    let rows: Vec<(String, String, String)> = sqlx::query_as(&format!(
        "select e.event_type, e.event_version, e.payload::text from events e
          where e.aggregate_type = $1 and e.aggregate_id = $2 and e.recorded_at <= $3 and {}
          order by e.sequence",
        crate::scope::EVENT_IN_SCOPE
    ))
    .bind(A::TYPE)
    .bind(id.to_string())
    .bind(until)
    .fetch_all(conn)
    .await?;
    let mut state: Option<A> = None;
    for (event_type, version, payload) in rows {
        let event = navalha_domain::event_payload::decode(A::TYPE, &event_type, &version, &payload)
            .map_err(|e| ApiError::Internal(e.into()))?;
        state.get_or_insert_with(A::default).apply(event);
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::parse_as_of;

    #[test]
    fn as_of_reads_instants_wall_clock_times_and_days() {
        let utc = |s: &str| parse_as_of(s).map(|t| t.to_rfc3339());
        assert_eq!(utc("2027-03-03T10:00:00Z").as_deref(), Some("2027-03-03T10:00:00+00:00"));
        assert_eq!(utc("2027-03-03T10:00:00").as_deref(), Some("2027-03-03T13:00:00+00:00"));
        assert_eq!(utc("2027-03-03").as_deref(), Some("2027-03-04T02:59:59.999+00:00"));
        assert_eq!(utc("03/03/2027"), None);
    }
}
