//! HTTP tests of query-api's reads whose subject is the read side itself: the home's
//! figures against the events, the open agenda's change stream, the day lists kept between
//! reads, and models being rebuilt.
//! They run the whole system in-process (`navalha_harness::in_process`), on real
//! PostgreSQL (one fresh database per test, made by `sqlx::test`). Reads checked as the
//! end of a command's thread stay with command-api's tests.

mod dashboard;
mod kept;
mod live;
mod models;
