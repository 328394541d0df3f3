//! query-api: serves the read models the projector builds, and never writes.
//!
//! A request carrying `X-Navalha-Position` waits (up to 2 s) until the read model it reads
//! has applied that position, so users always see their own last change. Reads then run in
//! a transaction scoped to the caller's business ([`scope`]): row-level security shows no
//! other business's rows. Open agendas hear of changes as server-sent events ([`live`]).

pub mod access;
pub mod as_of;
pub mod caixas;
pub mod clients;
pub mod club;
pub mod comandas;
pub mod commissions;
pub mod companies;
pub mod consistency;
pub mod dashboard;
pub mod days_off;
pub mod history;
pub mod holidays;
pub mod kept;
pub mod live;
pub mod messages;
pub mod online;
pub mod openapi;
pub mod paging;
pub mod params;
pub mod products;
pub mod professionals;
pub mod scheduling;
pub mod scope;
pub mod search;

use axum::extract::State;
use axum::routing::get;
use axum::Router;
use navalha_platform::auth::TokenVerifier;
use navalha_platform::{health, http};
use sqlx::PgPool;
use std::path::PathBuf;
use std::sync::Arc;

/// Where uploaded images are, unless `NAVALHA_MEDIA_DIR` says otherwise.
pub const DEFAULT_MEDIA_DIR: &str = ".data/media";

use crate::consistency::ProjectionWatch;
use crate::kept::KeptAnswers;

/// Shared state of query-api.
#[derive(Clone)]
pub struct AppState {
    /// The database (read models).
    pub pool: PgPool,
    /// Checks bearer tokens.
    pub verifier: TokenVerifier,
    /// Tracks the read models' checkpoints for read-your-writes.
    pub watch: ProjectionWatch,
    /// Where command-api stores uploaded images.
    pub media_dir: PathBuf,
    /// The day lists kept between reads (`kept`, ADR 0018).
    pub day_lists: Arc<KeptAnswers<scheduling::DayListKey>>,
    /// The free times kept between reads (`kept`, ADR 0018).
    pub free_times: Arc<KeptAnswers<scheduling::FreeTimesKey>>,
    /// The live streams open per session in this process.
    pub live_streams: live::OpenStreams,
    /// The listener's notices, handed on to each business's live streams.
    pub live_feeds: live::BusinessFeeds,
}

impl AppState {
    /// Builds the state and starts listening for checkpoint notifications.
    pub async fn new(pool: PgPool) -> anyhow::Result<Self> {
        let day_lists = Arc::new(KeptAnswers::new(scheduling::DAY_LIST_MODELS));
        let free_times = Arc::new(KeptAnswers::new(scheduling::FREE_TIME_MODELS));
        let watch = ProjectionWatch::start(pool.clone(), vec![day_lists.clone(), free_times.clone()]).await?;
        Ok(Self {
            verifier: TokenVerifier::new(pool.clone()),
            live_feeds: live::BusinessFeeds::start(watch.notices()),
            watch,
            day_lists,
            free_times,
            live_streams: live::OpenStreams::default(),
            media_dir: PathBuf::from(DEFAULT_MEDIA_DIR),
            pool,
        })
    }
}

impl axum::extract::FromRef<AppState> for TokenVerifier {
    fn from_ref(state: &AppState) -> Self {
        state.verifier.clone()
    }
}

#[utoipa::path(
    get,
    path = "/health",
    tag = "Documents",
    summary = "Whether the database answers, and how far behind each read model is",
    responses(
        (status = 200, description = "The database answers", body = health::Health),
        (status = 400, description = "Never: nothing is read from the request", body = navalha_platform::error::ErrorBody),
        (status = 503, description = "The database does not answer within 1 s", body = health::Health),
    ),
)]
pub(crate) async fn health_check(State(state): State<AppState>) -> health::Health {
    health::check("query-api", &state.pool).await
}

/// The whole HTTP application.
pub fn app(state: AppState) -> Router {
    let (api, _) = openapi::api();
    let stuck = axum::middleware::from_fn_with_state(state.watch.clone(), consistency::say_when_stuck);
    let router = Router::new()
        .nest("/api", api.layer(stuck))
        .route("/health", get(health_check))
        // A method a path does not serve is 405 with Allow, here or at command-api (issue 39).
        .fallback(navalha_platform::routes::unrouted)
        .method_not_allowed_fallback(navalha_platform::routes::method_not_allowed)
        .with_state(state);
    http::with_request_tracing(router)
}
