//! What every handler shares.

use std::sync::Arc;

use axum::extract::FromRef;
use navalha_platform::auth::TokenVerifier;
use sqlx::PgPool;

use crate::booking_keys::{AppointmentIds, MembershipOwners, UnitDayTurns};
use crate::club::galaxpay::GalaxPay;
use crate::config::Settings;
use crate::identity::keys::SigningKeys;
use crate::identity::mailer::Mailer;
use crate::identity::tokens::TokenIssuer;
use navalha_event_store::log::{EventLog, ProjectorWaker};

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
    /// The payment provider.
    pub galaxpay: GalaxPay,
    /// The event log: streams read from their kept states, appends, the projector's waker.
    pub events: EventLog,
    /// Memberships' professionals and units, kept once read.
    pub memberships: MembershipOwners,
    /// New appointment ids, a block at a time.
    pub appointment_ids: AppointmentIds,
    /// Online bookings of one unit's day, one at a time in this process.
    pub online_turns: UnitDayTurns,
    /// What this process's notice passes have read of the log.
    pub notices: crate::notice_snapshot::Passed,
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
        let events = EventLog::new(pool.clone(), ProjectorWaker::start(pool.clone()));
        Ok(Self {
            verifier: TokenVerifier::new(pool.clone()),
            issuer: TokenIssuer::new(&keys, settings.token_hours)?,
            mailer,
            http,
            settings: Arc::new(settings),
            galaxpay,
            events,
            memberships: MembershipOwners::default(),
            appointment_ids: AppointmentIds::default(),
            online_turns: UnitDayTurns::default(),
            notices: crate::notice_snapshot::Passed::default(),
            pool,
        })
    }
}

impl FromRef<AppState> for TokenVerifier {
    fn from_ref(state: &AppState) -> Self {
        state.verifier.clone()
    }
}
