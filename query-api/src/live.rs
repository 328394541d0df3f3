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
//! the reads it then makes. Other businesses' batches are never sent: [`BusinessFeeds`]
//! hands each notice only to the streams of the businesses it names, so a booking wakes its
//! own business's open agendas and no other's. The token is checked
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
use navalha_platform::projection::{BatchCommitted, Changed, EVERY_MODEL};
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

/// How many notices a business's streams may fall behind before they are told to look
/// again at everything.
const NOTICES_BUFFERED: usize = 256;

/// The notices of each business with streams open in this process. One task hands each of
/// the listener's notices on to the businesses it names (all of them for a notice that names
/// every business). With every stream on the listener's one channel, each notice woke every
/// open stream for a filter check: 1,000 streams over 100 businesses cost query-api
/// 1.4 ms of CPU per booking (issue 46, `./navalha bench --fan-out`).
#[derive(Clone, Default)]
pub struct BusinessFeeds(Arc<Mutex<HashMap<i64, broadcast::Sender<Arc<BatchCommitted>>>>>);

impl BusinessFeeds {
    /// Hands `notices` on from now on.
    pub fn start(notices: broadcast::Receiver<Arc<BatchCommitted>>) -> Self {
        let feeds = Self::default();
        tokio::spawn(feeds.clone().hand_on(notices));
        feeds
    }

    fn feeds(&self) -> std::sync::MutexGuard<'_, HashMap<i64, broadcast::Sender<Arc<BatchCommitted>>>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The notices of `business_id` from now on, until the subscription drops.
    pub fn subscribe(&self, business_id: i64) -> Subscription {
        let notices = self
            .feeds()
            .entry(business_id)
            .or_insert_with(|| broadcast::channel(NOTICES_BUFFERED).0)
            .subscribe();
        Subscription { notices, feeds: self.clone(), business_id }
    }

    async fn hand_on(self, mut notices: broadcast::Receiver<Arc<BatchCommitted>>) {
        loop {
            let notice = match notices.recv().await {
                Ok(notice) => notice,
                // This task fell behind: which businesses it missed is unknown.
                Err(RecvError::Lagged(_)) => Arc::new(BatchCommitted::look_again()),
                Err(RecvError::Closed) => return,
            };
            let feeds = self.feeds();
            let send = |feed: &broadcast::Sender<Arc<BatchCommitted>>| {
                let _ = feed.send(notice.clone());
            };
            match &notice.changed {
                Changed::Nothing => {}
                Changed::Businesses(businesses) => {
                    businesses.iter().filter_map(|b| feeds.get(b)).for_each(send)
                }
                Changed::Every => feeds.values().for_each(send),
            }
        }
    }
}

/// A stream's notices: its business's. The business's feed goes when its last stream does.
pub struct Subscription {
    notices: broadcast::Receiver<Arc<BatchCommitted>>,
    feeds: BusinessFeeds,
    business_id: i64,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut feeds = self.feeds.feeds();
        // This subscription's receiver is still counted until its fields drop.
        if feeds.get(&self.business_id).is_some_and(|feed| feed.receiver_count() <= 1) {
            feeds.remove(&self.business_id);
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
        notices: state.live_feeds.subscribe(auth.business_id),
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
    notices: Subscription,
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
            received = feed.notices.notices.recv() => match received {
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use navalha_platform::position::Position;

    use super::*;

    fn notice(model: &str, changed: Changed) -> Arc<BatchCommitted> {
        Arc::new(BatchCommitted { model: model.to_owned(), checkpoint: Position::START, changed })
    }

    fn of(businesses: &[i64]) -> Changed {
        Changed::Businesses(businesses.iter().copied().collect::<BTreeSet<i64>>())
    }

    /// What a subscription has received by now.
    fn received(subscription: &mut Subscription) -> Vec<String> {
        let mut models = Vec::new();
        while let Ok(notice) = subscription.notices.try_recv() {
            models.push(notice.model.clone());
        }
        models
    }

    #[tokio::test]
    async fn a_notice_reaches_the_businesses_it_names_and_a_feed_goes_with_its_last_stream() {
        let (listener, notices) = broadcast::channel(8);
        let feeds = BusinessFeeds::start(notices);
        let (mut first, mut first_again, mut second) =
            (feeds.subscribe(1), feeds.subscribe(1), feeds.subscribe(2));
        for sent in [
            notice("agenda", of(&[1])),
            notice("client", of(&[2, 3])),
            notice("agenda", Changed::Nothing),
            notice("holiday", Changed::Every),
        ] {
            listener.send(sent).expect("a receiver");
        }
        // The handing task runs on this runtime's thread: let it.
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert_eq!(received(&mut first), ["agenda", "holiday"]);
        assert_eq!(received(&mut first_again), ["agenda", "holiday"]);
        assert_eq!(received(&mut second), ["client", "holiday"]);
        assert!(feeds.feeds().contains_key(&1) && !feeds.feeds().contains_key(&3));
        drop(first);
        assert!(feeds.feeds().contains_key(&1), "another stream of business 1 is open");
        drop(first_again);
        assert!(!feeds.feeds().contains_key(&1));
    }

    #[tokio::test]
    async fn a_handing_task_that_fell_behind_tells_every_business_to_look_again() {
        let (listener, notices) = broadcast::channel(2);
        let feeds = BusinessFeeds::start(notices);
        let mut first = feeds.subscribe(1);
        for _ in 0..5 {
            listener.send(notice("agenda", of(&[2]))).expect("a receiver");
        }
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert_eq!(received(&mut first), [EVERY_MODEL]);
    }
}
