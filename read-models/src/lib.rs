//! The catalogue of read models: one typed list shared by the projector, which builds them,
//! and query-api, which reads them and waits for them.
//!
//! Each model is a [`ReadModel`]: its name (schema `rm_<name>`), its tables' DDL, the
//! aggregate types whose events it reads, and the aggregate states it stores whole. Its
//! [`version`](ReadModel::version) comes from these: the projector rebuilds a model whose
//! version changed, and query-api refuses to read a model built by another version.
//!
//! A new read model is a file here with its constant, listed in [`ALL`], and its fold in
//! `projector/src/models/`.

pub mod agenda;
pub mod caixa;
mod client;
mod club;
pub mod comanda;
mod company;
pub mod dashboard;
mod day_off;
mod favorite_menu;
pub mod free_time;
mod holiday;
mod message;
pub mod product;
mod professional;
pub mod table;

pub use agenda::AGENDA;
pub use caixa::CAIXA;
pub use client::CLIENT;
pub use club::CLUB;
pub use comanda::COMANDA;
pub use company::COMPANY;
pub use dashboard::DASHBOARD;
pub use day_off::DAY_OFF;
pub use favorite_menu::FAVORITE_MENU;
pub use free_time::FREE_TIME;
pub use holiday::HOLIDAY;
pub use message::MESSAGE;
pub use product::PRODUCT;
pub use professional::PROFESSIONAL;

/// A read model, as both sides of the log know it.
#[derive(Debug, PartialEq, Eq)]
pub struct ReadModel {
    /// The model's name; its schema is `rm_<name>`.
    pub name: &'static str,
    /// The aggregate types whose payloads the model reads; other events only move its
    /// checkpoint.
    pub aggregate_types: &'static [&'static str],
    /// The aggregates whose whole state the model stores, with their `STATE_VERSION`s. Part
    /// of the model's version like its DDL: a new one makes the projector rebuild the model
    /// rather than fail on rows of the old shape.
    pub stored_states: &'static [(&'static str, u32)],
    /// The tables described column by column ([`table::Table`]): their DDL, and the
    /// projector's upserts and copies of them, come from the description.
    pub tables: &'static [&'static table::Table],
    /// DDL of the rest of the model (functions, tables written by SQL alone), run before the
    /// described tables' with `search_path` set to the model's schema.
    pub ddl: &'static str,
}

impl ReadModel {
    /// DDL creating the model's tables. Changing it makes the projector rebuild the model on
    /// its next start.
    pub fn schema_sql(&self) -> String {
        let mut sql = self.ddl.to_owned();
        for table in self.tables {
            sql.push('\n');
            sql.push_str(&table.ddl());
        }
        sql
    }

    /// The version of the model's shape: a hash of its DDL and stored states' versions.
    pub fn version(&self) -> String {
        let states: String = self
            .stored_states
            .iter()
            .map(|(aggregate, version)| format!("\n{aggregate} v{version}"))
            .collect();
        // FNV-1a: stable across builds and platforms, unlike std's hasher. A model that stores
        // no state hashes its DDL alone, as before stored states were versioned.
        let hash =
            self.schema_sql().bytes().chain(states.bytes()).fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
        format!("{hash:016x}")
    }

    /// Whether the model reads events of `aggregate_type`.
    pub fn reads(&self, aggregate_type: &str) -> bool {
        self.aggregate_types.contains(&aggregate_type)
    }
}

/// Every read model, in the order the projector starts them.
pub const ALL: [&ReadModel; 14] = [
    &CLIENT,
    &COMPANY,
    &FAVORITE_MENU,
    &PROFESSIONAL,
    &DAY_OFF,
    &HOLIDAY,
    &AGENDA,
    &FREE_TIME,
    &CLUB,
    &DASHBOARD,
    &COMANDA,
    &PRODUCT,
    &CAIXA,
    &MESSAGE,
];

/// Secondary indexes that the projector's own statements look rows up by, as
/// `(model, index)`: the copies of a client's and a professional's names in their
/// appointments, a professional's and a unit's memberships, weekly templates and days. A
/// rebuild builds the other secondary indexes once the tables are full; these it builds
/// first, or each of those look-ups scans its whole table and a rebuild's time grows with
/// the square of the businesses (issue 46: with 10,000 businesses, 6.5 million events, one
/// update of a client's copies took 400 s and the rebuild had not ended after 22 minutes).
pub const LOOKED_UP_WHILE_BUILDING: [(&str, &str); 6] = [
    ("agenda", "appointment_client"),
    ("agenda", "appointment_professional_day"),
    ("professional", "membership_professional"),
    ("free_time", "membership_company"),
    ("free_time", "template_professional"),
    ("free_time", "day_professional"),
];

/// The read model named `name`.
pub fn find(name: &str) -> Option<&'static ReadModel> {
    ALL.into_iter().find(|model| model.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for model in ALL {
            assert_eq!(find(model.name), Some(model));
        }
        let mut names: Vec<&str> = ALL.iter().map(|model| model.name).collect();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
    }

    #[test]
    fn the_version_follows_the_ddl_and_the_stored_states() {
        let model = |ddl, stored_states| ReadModel {
            name: "x",
            aggregate_types: &[],
            stored_states,
            tables: &[],
            ddl,
        };
        let v1 = model("create table t ()", &[("Plan", 1)]).version();
        assert_eq!(v1, model("create table t ()", &[("Plan", 1)]).version());
        assert_ne!(v1, model("create table t ()", &[("Plan", 2)]).version());
        assert_ne!(v1, model("create table t ()", &[]).version());
        assert_ne!(v1, model("create table u ()", &[("Plan", 1)]).version());
    }
}
