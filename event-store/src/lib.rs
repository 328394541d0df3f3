//! Navalha's event store, over sqlx (ADR 0016): the one place that appends events and reads
//! streams back.
//!
//! - [`log`]: appends (one statement, returning the position), streams read from their kept
//!   states in one round trip, and the projector's waker (ADR 0007).
//! - [`replayed`]: the aggregates kept as last replayed between commands (ADR 0017).
//! - [`execute`]: a command run on its stream, retried when a concurrent command wins.
//! - [`idempotency`]: the storage of `Idempotency-Key` runs and answers (ADR 0012).
//!
//! It knows nothing of HTTP: command-api maps its refusals to answers.

pub mod execute;
pub mod idempotency;
pub mod log;
pub mod replayed;

pub use execute::{execute, execute_streams, Refusal};
pub use log::{EventLog, ProjectorWaker, Stream};
