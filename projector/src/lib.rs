//! The projector: tails the event log in commit order and builds every read model.
//!
//! Each read model lives in its own PostgreSQL schema `rm_<name>`, next to a one-row
//! `checkpoint` table holding the last applied position. A batch of events and the new
//! checkpoint commit in one transaction, so after any crash a model is exactly what a full
//! rebuild would give. See docs/adr/0001-projection-ordering.md.

pub mod batch;
pub mod copy;
pub mod engine;
pub mod event;
pub mod models;
pub mod rebuild;
pub mod rows;
pub mod states;
pub mod stuck;
pub mod worker;

pub use engine::Projection;
pub use event::StoredEvent;
