//! What tests and the bench run the system with.
//!
//! In-process ([`in_process`], [`demo`]): both APIs as routers on one test database, for the
//! HTTP tests of command-api and query-api.
//!
//! Real processes: private PostgreSQL clusters (a primary and its streaming replicas, or a
//! pair that Patroni fails over behind HAProxy) and
//! the services (command-api, query-api, projector, gateway) as child processes, with the
//! HTTP and SQL checks their runs share.
//!
//! The resilience tests (`tests/resilience/`) kill, restart and multiply these processes
//! and check what docs/operations.md promises still holds. `./navalha test` runs them in
//! their own stage, one at a time, after the other Rust tests.

pub mod api;
pub mod checks;
pub mod cluster;
pub mod database;
pub mod demo;
pub mod in_process;
pub mod load;
pub mod patroni;
pub mod plans;
pub mod process;
pub mod system;
