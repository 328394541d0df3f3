//! Live changes (ADR 0011): `GET /changes` is a stream of server-sent events that tells an
//! open agenda which read models changed for its business, so that it fetches them again.
//!
//! - `ready` when the stream opens: the client fetches what it shows again, since it may
//!   have missed changes while it was not connected.
//! - `change` with `{"model":"agenda","position":"812.9051"}` when a batch of the projector
//!   changed that model's rows of the caller's business; `{"model":"*"}` when this stream
//!   fell too far behind to say which, or query-api's listener lost its connection and with
//!   it some notices (fetch everything again).
//!
//! A notice names neither the rows nor their unit: what the caller may see is decided by
//! the reads it then makes. Other businesses' batches are never sent. The token is checked
//! again every [`RECHECK`]; a signed-out or deactivated user's stream ends. One session
//! holds at most [`MAX_STREAMS_PER_SESSION`] streams in one query-api process (issue 39).

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use futures_util::Stream;
use navalha_platform::auth::{bearer_token, Auth, TokenVerifier};
use navalha_platform::position::Position;
use navalha_platform::projection::{BatchCommitted, EVERY_MODEL};
use navalha_platform::ApiError;
use serde_json::json;
use tokio::sync::broadcast::{self, error::RecvError};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;

/// How often an open stream checks that its token still opens a session.
pub const RECHECK: Duration = Duration::from_secs(60);
/// A comment this often keeps proxies (nginx's 30 s read timeout) from closing a quiet stream.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How many live streams one session may hold open in one process: a desk's tabs, not a
/// flood of connections that each cost a task and a broadcast receiver.
pub const MAX_STREAMS_PER_SESSION: usize = 8;
/// One stream too many.
pub const MSG_TOO_MANY_STREAMS: &str =
    "Muitas abas abertas com a agenda ao vivo. Feche alguma e recarregue a página.";

/// The streams open per session, in this process.
#[derive(Clone, Default)]
pub struct OpenStreams(Arc<Mutex<HashMap<uuid::Uuid, usize>>>);

impl OpenStreams {
    /// A place for one more stream of `session`, until dropped; `None` past the cap.
    fn open(&self, session: uuid::Uuid) -> Option<StreamPlace> {
        let mut open = self.0.lock().expect("open streams lock");
        let count = open.entry(session).or_default();
        if *count >= MAX_STREAMS_PER_SESSION {
            return None;
        }
        *count += 1;
        Some(StreamPlace { streams: self.clone(), session })
    }
}

/// One open stream's place in [`OpenStreams`].
struct StreamPlace {
    streams: OpenStreams,
    session: uuid::Uuid,
}

impl Drop for StreamPlace {
    fn drop(&mut self) {
        let mut open = self.streams.0.lock().expect("open streams lock");
        if let Some(count) = open.get_mut(&self.session) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.session);
            }
        }
    }
}

/// `GET /changes`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(changes))
}

#[utoipa::path(
    get,
    path = "/changes",
    tag = "Agenda",
    summary = "Live changes: which read models changed for the caller's business (ADR 0011)",
    description = "Server-sent events. `ready` when the stream opens (fetch what is shown again: changes may have been missed while disconnected); `change` with `{\"model\":\"agenda\",\"position\":\"812.9051\"}` when a projector batch changed that model for the caller's business, or `{\"model\":\"*\"}` when the stream fell behind or query-api lost notices while reconnecting to the database (fetch everything again). A comment every 15 s keeps proxies from closing it. The stream ends when the session does.",
    responses(
        (status = 200, description = "The event stream"),
        (status = 429, description = "The session already holds 8 streams in this process", body = navalha_platform::error::ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn changes(
    State(state): State<AppState>,
    auth: Auth,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    let place = state.live_streams.open(auth.session_id).ok_or_else(|| {
        tracing::warn!(
            professional_id = auth.professional_id,
            "live stream refused: too many for one session"
        );
        ApiError::TooManyRequests { message: MSG_TOO_MANY_STREAMS.to_owned(), retry_after_seconds: 60 }
    })?;
    // `Auth` has already verified the token; it is kept to verify it again later.
    let token = bearer_token(&headers).unwrap_or_default().to_owned();
    tracing::info!(
        business_id = auth.business_id,
        professional_id = auth.professional_id,
        "live changes opened"
    );
    let feed = Feed {
        notices: state.watch.notices(),
        verifier: state.verifier.clone(),
        token,
        business_id: auth.business_id,
        recheck: tokio::time::interval_at(tokio::time::Instant::now() + RECHECK, RECHECK),
        greeted: false,
        _place: place,
    };
    Ok((
        // nginx passes each event on at once instead of buffering the answer.
        [(HeaderName::from_static("x-accel-buffering"), HeaderValue::from_static("no"))],
        Sse::new(events(feed)).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)),
    ))
}

struct Feed {
    notices: broadcast::Receiver<Arc<BatchCommitted>>,
    verifier: TokenVerifier,
    token: String,
    business_id: i64,
    recheck: tokio::time::Interval,
    greeted: bool,
    /// Its place among the session's streams, given back when the stream ends.
    _place: StreamPlace,
}

fn events(feed: Feed) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(feed, |mut feed| async move {
        let event = next_event(&mut feed).await?;
        Some((Ok(event), feed))
    })
}

/// The next event for this stream, or `None` when it ends.
async fn next_event(feed: &mut Feed) -> Option<Event> {
    if !feed.greeted {
        feed.greeted = true;
        return Some(Event::default().event("ready").data("{}"));
    }
    loop {
        tokio::select! {
            received = feed.notices.recv() => match received {
                // Notices were lost while query-api's listener reconnected: look again.
                Ok(notice) if notice.model == EVERY_MODEL => return Some(change(EVERY_MODEL, None)),
                Ok(notice) if notice.changed.touches(feed.business_id) => {
                    return Some(change(&notice.model, Some(notice.checkpoint)));
                }
                Ok(_) => {}
                Err(RecvError::Lagged(skipped)) => {
                    tracing::warn!(skipped, "a live stream fell behind; its agenda fetches everything again");
                    return Some(change("*", None));
                }
                Err(RecvError::Closed) => return None,
            },
            _ = feed.recheck.tick() => {
                if feed.verifier.verify(&feed.token).await.is_err() {
                    tracing::info!(business_id = feed.business_id, "live changes closed: the session ended");
                    return None;
                }
            }
        }
    }
}

fn change(model: &str, position: Option<Position>) -> Event {
    let data = match position {
        Some(position) => json!({ "model": model, "position": position.to_string() }),
        None => json!({ "model": model }),
    };
    Event::default().event("change").data(data.to_string())
}
