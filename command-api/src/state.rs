//! What every handler shares.

use std::sync::Arc;

use axum::extract::FromRef;
use navalha_domain::appointment::Appointment;
use navalha_domain::business::Business;
use navalha_domain::client::Client;
use navalha_domain::company::Company;
use navalha_domain::day_off::DayOff;
use navalha_domain::favorite_menu::FavoriteMenu;
use navalha_domain::holiday::Holiday;
use navalha_domain::partner_company::PartnerCompany;
use navalha_domain::plan::Plan;
use navalha_domain::professional::Professional;
use navalha_domain::service::Service;
use navalha_domain::subscription::Subscription;
use navalha_platform::auth::TokenVerifier;
use sqlx::PgPool;

use crate::club::galaxpay::GalaxPay;
use crate::commands::{CommandStore, ProjectorWaker};
use crate::config::Settings;
use crate::identity::keys::SigningKeys;
use crate::identity::mailer::Mailer;
use crate::identity::tokens::TokenIssuer;

/// Shared state of command-api.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub pool: PgPool,
    /// Checks bearer tokens.
    pub verifier: TokenVerifier,
    /// Signs tokens at sign-in.
    pub issuer: TokenIssuer,
    /// Sends e-mail, or writes it to the outbox.
    pub mailer: Mailer,
    /// Outgoing HTTP (the identity provider).
    pub http: reqwest::Client,
    /// Settings.
    pub settings: Arc<Settings>,
    /// Favourite menus.
    pub favorites: Arc<CommandStore<FavoriteMenu>>,
    /// Clients.
    pub clients: Arc<CommandStore<Client>>,
    /// Units.
    pub companies: Arc<CommandStore<Company>>,
    /// Professionals.
    pub professionals: Arc<CommandStore<Professional>>,
    /// The service catalogue.
    pub services: Arc<CommandStore<Service>>,
    /// Appointments.
    pub appointments: Arc<CommandStore<Appointment>>,
    /// Days off and vacations.
    pub days_off: Arc<CommandStore<DayOff>>,
    /// Holidays.
    pub holidays: Arc<CommandStore<Holiday>>,
    /// Club plans.
    pub plans: Arc<CommandStore<Plan>>,
    /// Club subscriptions.
    pub subscriptions: Arc<CommandStore<Subscription>>,
    /// Partner companies.
    pub partners: Arc<CommandStore<PartnerCompany>>,
    /// Businesses (tenants).
    pub businesses: Arc<CommandStore<Business>>,
    /// The payment provider.
    pub galaxpay: GalaxPay,
}

impl AppState {
    /// Builds the state, making the signing key on first start.
    pub async fn new(pool: PgPool, settings: Settings) -> anyhow::Result<Self> {
        let keys = SigningKeys::load_or_create(&pool).await?;
        let mailer = Mailer::from_settings(&settings)?;
        let http = reqwest::Client::builder().timeout(std::time::Duration::from_secs(10)).build()?;
        let galaxpay = GalaxPay::new(
            http.clone(),
            &settings.galaxpay_url,
            &settings.galaxpay_id,
            settings.galaxpay_hash.expose(),
        );
        let waker = ProjectorWaker::start(pool.clone());
        Ok(Self {
            verifier: TokenVerifier::new(pool.clone()),
            issuer: TokenIssuer::new(&keys, settings.token_hours)?,
            mailer,
            http,
            settings: Arc::new(settings),
            favorites: Arc::new(CommandStore::new(waker.clone())),
            clients: Arc::new(CommandStore::new(waker.clone())),
            companies: Arc::new(CommandStore::new(waker.clone())),
            professionals: Arc::new(CommandStore::new(waker.clone())),
            services: Arc::new(CommandStore::new(waker.clone())),
            appointments: Arc::new(CommandStore::new(waker.clone())),
            days_off: Arc::new(CommandStore::new(waker.clone())),
            holidays: Arc::new(CommandStore::new(waker.clone())),
            plans: Arc::new(CommandStore::new(waker.clone())),
            subscriptions: Arc::new(CommandStore::new(waker.clone())),
            partners: Arc::new(CommandStore::new(waker.clone())),
            businesses: Arc::new(CommandStore::new(waker.clone())),
            galaxpay,
            pool,
        })
    }
}

impl FromRef<AppState> for TokenVerifier {
    fn from_ref(state: &AppState) -> Self {
        state.verifier.clone()
    }
}
