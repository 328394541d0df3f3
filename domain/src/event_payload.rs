//! Events are forever: a payload written today is read by every later version of Navalha.
//!
//! Each event variant's payload is pinned by a golden sample in
//! `domain/event-payloads/<Aggregate>/<Variant>.v<version>.json`. The tests of each
//! aggregate ([`assert_pinned`]) check that
//! - every variant has a sample (the variants are read from the enum's own `Deserialize`,
//!   so a new variant without a sample fails);
//! - today's payload has the recorded shape for [`crate::EVENT_VERSION`] (field names and
//!   JSON types, as [`crate::state_shape::shape`] lists them);
//! - every sample ever recorded, of any version, still decodes into today's enum through
//!   [`upcast`].
//!
//! A payload change therefore fails until `EVENT_VERSION` is raised (the new version's
//! samples are then recorded) and, if the old payloads no longer decode, an upcaster step
//! is added to [`upcast`]. Stored payloads are never rewritten.
//!
//! The database also reads payloads: [`SQL_READS`] names each trigger and the fields it
//! reads, and the tests check those fields against the samples.

use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::Value;

/// A payload at a version no step of [`upcast`] knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no upcaster for {aggregate_type} {event_type} v{version}")]
pub struct UnknownVersion {
    /// The aggregate's type.
    pub aggregate_type: String,
    /// The event's name.
    pub event_type: String,
    /// The version it was written with.
    pub version: String,
}

/// Brings a payload written at `version` up to today's shape ([`crate::EVENT_VERSION`]).
/// Readers that find an older version call it before decoding ([`decode`]).
///
/// So far every change only added fields that read as their defaults when absent, so the
/// older versions ([`READ_AS_TODAY`]) need no step. The first incompatible payload change
/// adds one here, e.g. `("Appointment", "AppointmentBooked", "1.1") => step_1_1_to_1_2(payload)`,
/// each step taking the payload one version further.
pub fn upcast(
    aggregate_type: &str,
    event_type: &str,
    version: &str,
    payload: Value,
) -> Result<Value, UnknownVersion> {
    match version {
        v if reads_as_today(v) => Ok(payload),
        _ => Err(UnknownVersion {
            aggregate_type: aggregate_type.to_owned(),
            event_type: event_type.to_owned(),
            version: version.to_owned(),
        }),
    }
}

/// Older versions whose payloads today's events read as they are: the versions after them
/// only added fields with defaults. 1.1 added a plan's `first_due_days` and a boleto's
/// `boleto_bank_line` (issue 45).
pub const READ_AS_TODAY: &[&str] = &["1.0", "1.1"];

fn reads_as_today(version: &str) -> bool {
    version == crate::EVENT_VERSION || READ_AS_TODAY.contains(&version)
}

/// Decodes a stored payload into today's event enum: straight from the text when it is at
/// today's version (the common case, no `Value` in between), through [`upcast`] otherwise.
pub fn decode<E: DeserializeOwned>(
    aggregate_type: &str,
    event_type: &str,
    version: &str,
    payload: &str,
) -> Result<E, DecodeError> {
    if reads_as_today(version) {
        return Ok(serde_json::from_str(payload)?);
    }
    let upcast = upcast(aggregate_type, event_type, version, serde_json::from_str(payload)?)?;
    Ok(serde_json::from_value(upcast)?)
}

/// Why a stored payload could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// It is not today's payload (or an upcast one).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// No step brings its version up to today's.
    #[error(transparent)]
    Version(#[from] UnknownVersion),
}

/// A database function that reads event payloads, and the fields it reads.
#[derive(Debug, Clone, Copy)]
pub struct SqlRead {
    /// The SQL function, as the latest migration defining it names it.
    pub function: &'static str,
    /// The aggregate whose events it reads.
    pub aggregate_type: &'static str,
    /// The variants it reads.
    pub event_types: &'static [&'static str],
    /// The paths it reads inside the variant's payload, in [`crate::state_shape::shape`]'s
    /// notation (`employment.memberships.*.company_id`).
    pub paths: &'static [&'static str],
}

/// Every SQL function that reads payloads. Renaming or retyping one of these fields breaks
/// the database's own rules (one professional per slot, staff access), so the tests check
/// them against the pinned samples.
pub const SQL_READS: &[SqlRead] = &[
    SqlRead {
        // migrations/20261130000100_newcomers.sql
        function: "events_claim_appointment_slot",
        aggregate_type: "Appointment",
        event_types: &["AppointmentBooked", "AppointmentChanged"],
        paths: &["professional_id", "date", "start", "end", "client_id", "company_id", "online", "newcomer"],
    },
    SqlRead {
        // migrations/20261124000050_staff_access.sql, read by events_keep_staff_access
        function: "staff_access_of",
        aggregate_type: "Professional",
        event_types: &["ProfessionalRegistered"],
        paths: &["employment.role", "employment.status", "employment.memberships.*.company_id"],
    },
    SqlRead {
        function: "staff_access_of",
        aggregate_type: "Professional",
        event_types: &["EmploymentChanged"],
        paths: &["role", "status", "memberships.*.company_id"],
    },
    SqlRead {
        // command-api/src/club/cover.rs: the subscriptions of a client, for the club at the counter
        function: "SUBSCRIPTIONS_OF_CLIENT",
        aggregate_type: "SubscriptionUser",
        event_types: &["SubscriptionCreated"],
        paths: &["user.user_id"],
    },
    SqlRead {
        // command-api/src/scheduling/series.rs: a regulars' series' appointments
        function: "SERIES_APPOINTMENTS",
        aggregate_type: "Appointment",
        event_types: &["AppointmentBooked"],
        paths: &["series.id"],
    },
    SqlRead {
        // command-api/src/caixas.rs: what a caixa's payments came to, per method
        function: "TAKEN",
        aggregate_type: "Comanda",
        event_types: &["PaymentTaken"],
        paths: &["payment_id", "method", "cents", "caixa_id"],
    },
    SqlRead {
        function: "TAKEN",
        aggregate_type: "Comanda",
        event_types: &["PaymentRefunded"],
        paths: &["payment_id"],
    },
    SqlRead {
        // query-api/src/caixas.rs: the comandas a caixa's report replays
        function: "caixas::replay",
        aggregate_type: "Comanda",
        event_types: &["PaymentTaken"],
        paths: &["caixa_id"],
    },
    SqlRead {
        // query-api/src/comandas.rs: a comanda's unit, for its history
        function: "comandas::history",
        aggregate_type: "Comanda",
        event_types: &["ComandaOpened"],
        paths: &["company_id"],
    },
];

/// The names of an externally tagged enum's variants, as its derived `Deserialize` declares
/// them (serde hands them to `deserialize_enum`).
pub fn variants_of<E: DeserializeOwned>() -> &'static [&'static str] {
    let mut catcher = VariantCatcher(&[]);
    let _ = E::deserialize(&mut catcher);
    catcher.0
}

struct VariantCatcher(&'static [&'static str]);

#[derive(Debug)]
struct Caught;

impl std::fmt::Display for Caught {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("variants caught")
    }
}

impl std::error::Error for Caught {}

impl de::Error for Caught {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Caught
    }
}

impl<'de> de::Deserializer<'de> for &mut VariantCatcher {
    type Error = Caught;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Caught> {
        Err(Caught)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Caught> {
        self.0 = variants;
        Err(Caught)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// Checks an aggregate's events against their pinned samples (see the module's docs).
/// `samples` holds one event per variant, with every optional part filled. A version's
/// samples are recorded on first run, and the test then fails once so that they get
/// committed.
#[cfg(test)]
pub fn assert_pinned<A: cqrs_es::Aggregate>(samples: &[A::Event]) {
    use cqrs_es::DomainEvent;
    use std::collections::BTreeSet;
    use std::path::PathBuf;

    use crate::state_shape::shape;

    let aggregate_type = A::TYPE;
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "event-payloads", aggregate_type].iter().collect();
    let sampled: BTreeSet<String> = samples.iter().map(|event| event.event_type()).collect();
    let declared: BTreeSet<String> =
        variants_of::<A::Event>().iter().map(|name| (*name).to_owned()).collect();
    assert_eq!(sampled, declared, "{aggregate_type}: give every event variant one sample");

    let mut recorded_now = Vec::new();
    for event in samples {
        let (event_type, version) = (event.event_type(), event.event_version());
        let payload = serde_json::to_value(event).expect("an event serializes");
        let file = dir.join(format!("{event_type}.v{version}.json"));
        match std::fs::read_to_string(&file) {
            Ok(text) => {
                let pinned: Value = serde_json::from_str(&text).expect("a pinned sample is JSON");
                let (before, now) = (shape(&pinned), shape(&payload));
                assert!(
                    before == now,
                    "the payload of {aggregate_type} {event_type} changed shape at version {version}: \
                     payloads already stored keep the old one. Raise EVENT_VERSION (domain/src/lib.rs), \
                     and if the old payloads no longer decode, add a step to event_payload::upcast. \
                     Pinned in {}:\n{before}\nnow:\n{now}",
                    file.display()
                );
            }
            Err(_) => {
                std::fs::create_dir_all(&dir).expect("event-payloads dir");
                let pretty = serde_json::to_string_pretty(&payload).expect("JSON");
                std::fs::write(&file, pretty + "\n").expect("pin the sample");
                recorded_now.push(file.display().to_string());
            }
        }
        for read in SQL_READS.iter().filter(|read| read.aggregate_type == aggregate_type) {
            if !read.event_types.contains(&event_type.as_str()) {
                continue;
            }
            let inner = payload.get(&event_type).unwrap_or(&Value::Null);
            let paths = shape(inner);
            for path in read.paths {
                assert!(
                    paths.lines().any(|line| line.split(':').next() == Some(path)),
                    "the SQL function {} reads `{path}` of {event_type}, which its payload no longer has:\n{paths}",
                    read.function
                );
            }
        }
    }
    assert!(recorded_now.is_empty(), "pinned new event samples, commit them: {recorded_now:?}");

    // Every sample ever pinned, of every version, still decodes into today's enum.
    for entry in std::fs::read_dir(&dir).expect("event-payloads dir") {
        let file = entry.expect("a dir entry").path();
        let name = file.file_stem().and_then(|stem| stem.to_str()).expect("a file name").to_owned();
        let (event_type, version) = name.split_once(".v").expect("<Variant>.v<version>.json");
        let text = std::fs::read_to_string(&file).expect("a pinned sample");
        let decoded = decode::<A::Event>(aggregate_type, event_type, version, &text);
        assert!(decoded.is_ok(), "{} no longer decodes: {:?}", file.display(), decoded.err());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::appointment::AppointmentEvent;

    #[test]
    fn variants_come_from_the_enum_itself() {
        assert_eq!(
            variants_of::<AppointmentEvent>(),
            [
                "AppointmentBooked",
                "AppointmentChanged",
                "AppointmentConfirmed",
                "ConfirmationCleared",
                "AppointmentCancelled",
                "ClientArrived",
                "NoShowMarked",
                "NoShowUndone"
            ]
        );
    }

    #[test]
    fn an_unknown_version_is_refused_not_guessed() {
        let refused = decode::<AppointmentEvent>(
            "Appointment",
            "AppointmentConfirmed",
            "0.9",
            "\"AppointmentConfirmed\"",
        );
        assert!(refused.is_err_and(|error| error.to_string().contains("no upcaster")));
        let read = decode::<AppointmentEvent>(
            "Appointment",
            "AppointmentConfirmed",
            "1.0",
            "\"AppointmentConfirmed\"",
        );
        assert_eq!(read.ok(), Some(AppointmentEvent::AppointmentConfirmed));
    }
}
