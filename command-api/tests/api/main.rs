//! HTTP integration tests of the write side and the thread through projector and
//! query-api, on real PostgreSQL (one fresh database per test, made by `sqlx::test`).

mod access;
mod clients;
mod days_off;
mod favorites;
mod google;
mod holidays;
mod openapi;
mod recovery;
mod smtp;
mod support;
mod tokens;
