//! Plumbing shared by Navalha's services: the error shape, tokens and roles, the event
//! log's positions and the projector's notices, tracing, the database pool and health.

pub mod auth;
pub mod bad_input;
pub mod calendar;
pub mod clock;
pub mod db;
pub mod error;
pub mod generations;
pub mod health;
pub mod http;
pub mod openapi;
pub mod position;
pub mod projection;
pub mod refused;
pub mod routes;
pub mod secret;
pub mod signature;
pub mod telemetry;
pub mod written;

pub use error::ApiError;
pub use secret::Secret;
