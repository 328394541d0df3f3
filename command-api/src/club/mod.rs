//! The subscription club (spec 02 §7 'Plans and checkout' and 'Subscribers'; issue 5):
//! plans and their services, checkout links, subscriptions through the payment provider,
//! the provider's webhooks and the reconciliation that catches what they missed.
//!
//! See docs/club.md for the calls, permissions, statuses and decisions.

pub mod checkout;
pub mod cover;
pub mod demo;
pub mod galaxpay;
pub mod plans;
pub mod subscribers;
pub mod webhooks;

use navalha_domain::partner_company::PartnerCompanyError;
use navalha_domain::plan::PlanError;
use navalha_domain::subscription::SubscriptionError;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;

use crate::commands::DomainError;
use crate::state::AppState;

/// The routes of the club.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(plans::router())
        .merge(checkout::router())
        .merge(subscribers::router())
        .merge(webhooks::router())
}

impl DomainError for PlanError {
    fn to_api(&self) -> ApiError {
        match self {
            PlanError::AlreadyCreated | PlanError::ServiceAlreadyIncluded => {
                ApiError::Conflict(self.to_string())
            }
            PlanError::NotFound | PlanError::ServiceNotFound => ApiError::NotFound(self.to_string()),
        }
    }
}

impl DomainError for SubscriptionError {
    fn to_api(&self) -> ApiError {
        match self {
            SubscriptionError::AlreadyCreated
            | SubscriptionError::AlreadyCanceled
            | SubscriptionError::NothingPending => ApiError::Conflict(self.to_string()),
            SubscriptionError::NotFound => ApiError::NotFound(self.to_string()),
        }
    }
}

impl DomainError for PartnerCompanyError {
    fn to_api(&self) -> ApiError {
        ApiError::Conflict(self.to_string())
    }
}
