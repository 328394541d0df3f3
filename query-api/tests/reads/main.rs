//! HTTP tests of query-api's reads whose subject is the read side itself: the home's
//! figures against the events, the open agenda's change stream, the day lists kept between
//! reads, and models being rebuilt.
//! They run the whole system in-process (`navalha_harness::in_process`), on real
//! PostgreSQL (one database per test, a copy of the demo's template made by
//! `navalha_harness::database`). Reads checked as the
//! end of a command's thread stay with command-api's tests.

mod dashboard;
mod kept;
mod live;
mod models;
