//! What every handler shares.

use std::sync::Arc;

use axum::extract::FromRef;
use navalha_domain::appointment::Appointment;
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
use postgres_es::{postgres_cqrs, PostgresCqrs};
use sqlx::PgPool;

use crate::club::galaxpay::GalaxPay;
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
    pub favorites: Arc<PostgresCqrs<FavoriteMenu>>,
    /// Clients.
    pub clients: Arc<PostgresCqrs<Client>>,
    /// Units.
    pub companies: Arc<PostgresCqrs<Company>>,
    /// Professionals.
    pub professionals: Arc<PostgresCqrs<Professional>>,
    /// The service catalogue.
    pub services: Arc<PostgresCqrs<Service>>,
    /// Appointments.
    pub appointments: Arc<PostgresCqrs<Appointment>>,
    /// Days off and vacations.
    pub days_off: Arc<PostgresCqrs<DayOff>>,
    /// Holidays.
    pub holidays: Arc<PostgresCqrs<Holiday>>,
    /// Club plans.
    pub plans: Arc<PostgresCqrs<Plan>>,
    /// Club subscriptions.
    pub subscriptions: Arc<PostgresCqrs<Subscription>>,
    /// Partner companies.
    pub partners: Arc<PostgresCqrs<PartnerCompany>>,
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
            &settings.galaxpay_hash,
        );
        Ok(Self {
            verifier: TokenVerifier::new(pool.clone()),
            issuer: TokenIssuer::new(&keys, settings.token_hours)?,
            mailer,
            http,
            settings: Arc::new(settings),
            favorites: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            clients: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            companies: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            professionals: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            services: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            appointments: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            days_off: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            holidays: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            plans: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            subscriptions: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
            partners: Arc::new(postgres_cqrs(pool.clone(), vec![], ())),
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
