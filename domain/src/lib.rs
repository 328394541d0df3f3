//! Navalha's domain: value types, commands, events, aggregates and the pure rules they
//! obey, with the specification's pt-BR messages.
//!
//! Nothing here knows about HTTP or SQL. command-api turns requests into the commands
//! defined here; the projector folds the events defined here into read models.

pub mod appointment;
pub mod availability;
pub mod business;
pub mod caixa;
pub mod client;
pub mod clock;
pub mod comanda;
pub mod commission;
pub mod company;
pub mod day_off;
pub mod event_payload;
pub mod favorite_menu;
pub mod holiday;
pub mod menu;
pub mod message;
pub mod metadata;
pub mod money;
pub mod online;
pub mod partner_company;
pub mod plan;
pub mod product;
pub mod professional;
pub mod role;
pub mod sale;
pub mod series;
pub mod service;
pub mod state_shape;
pub mod stock;
pub mod subscription;
pub mod time_zone;
pub mod validation;
pub mod values;

/// The version every event payload of this crate is written with. A payload change bumps
/// it and adds an upcaster ([`event_payload::upcast`]); stored payloads are never
/// rewritten. The pinned samples in `domain/event-payloads` make the tests enforce this.
pub const EVENT_VERSION: &str = "1.2";

/// Re-exported so that readers of events can name `Aggregate::TYPE` without cqrs-es.
pub use cqrs_es::{Aggregate, DomainEvent};
