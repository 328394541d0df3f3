//! HTTP integration tests of the write side and the thread through projector and
//! query-api, on real PostgreSQL: one database per test, a copy of the demo's template
//! (`navalha_harness::database`), or an empty one from `sqlx::test` where a test needs it.

mod access;
mod clients;
mod club;
mod comandas;
mod companies;
mod days_off;
mod doors;
mod favorites;
mod gallery;
mod google;
mod holidays;
mod hostile;
mod idempotency;
mod isolation;
mod migrations;
mod newcomers;
mod online;
mod openapi;
mod placed;
mod professionals;
mod projections;
mod read_models;
mod recovery;
mod scheduling;
mod smtp;
mod stock;
mod stuck;
mod support;
mod tokens;
mod whatsapp;
