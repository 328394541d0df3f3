//! Live changes (ADR 0011): an open agenda hears, as server-sent events, that a read model
//! changed for its business, and never of another business's changes.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use chrono::Weekday;
use http_body_util::BodyExt;
use navalha_harness::database::demo_database;
use navalha_platform::position::Position;
use serde_json::{json, Value};
use tower::ServiceExt;

use navalha_harness::demo::another_business;
use navalha_harness::demo::{body, book, demo, next};
use navalha_harness::in_process::System;

/// An open `GET /api/changes` stream, read event by event.
struct Stream {
    body: Body,
    buffer: String,
}

impl Stream {
    async fn open(system: &System, token: &str) -> Stream {
        let request = Request::builder()
            .uri("/api/changes")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .expect("request");
        let response = system.query.clone().oneshot(request).await.expect("response");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
        assert_eq!(response.headers()["x-accel-buffering"], "no", "nginx must not buffer the stream");
        Stream { body: response.into_body(), buffer: String::new() }
    }

    /// The next event's name and data. A stream that says nothing for 10 s fails the test:
    /// every event awaited here has been caused already.
    async fn next(&mut self) -> (String, Value) {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let field = |name: &str| {
                    block
                        .lines()
                        .find_map(|line| line.strip_prefix(name))
                        .map(|value| value.trim().to_owned())
                };
                // Keep-alive comments (`:`) carry no event.
                if let Some(event) = field("event:") {
                    let data = field("data:").expect("data");
                    return (event, serde_json::from_str(&data).expect("json data"));
                }
                continue;
            }
            let frame = tokio::time::timeout(Duration::from_secs(10), self.body.frame())
                .await
                .expect("an event within 10 s")
                .expect("stream open")
                .expect("frame");
            if let Some(bytes) = frame.data_ref() {
                self.buffer.push_str(std::str::from_utf8(bytes).expect("utf-8"));
            }
        }
    }

    /// The next `change` event's model and position.
    async fn next_change(&mut self) -> (String, Position) {
        let (event, data) = self.next().await;
        assert_eq!(event, "change", "{data}");
        let position = data["position"].as_str().expect("position").parse().expect("a position");
        (data["model"].as_str().expect("model").to_owned(), position)
    }
}

#[tokio::test]
async fn an_open_agenda_hears_of_its_business_changes_and_of_no_other() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let desk = system.sign_in("atendente@navalha.dev").await;
    let (other_admin, other_unit, _) = another_business(&system).await;
    system.project().await;

    let mut here = Stream::open(&system, &desk).await;
    let mut there = Stream::open(&system, &other_admin).await;
    assert_eq!(here.next().await.0, "ready");
    assert_eq!(there.next().await.0, "ready");

    // A booking here: this business's agenda changed.
    let booked =
        book(&system, &desk, body(d.barber1, next(Weekday::Tue), "10:00:00", &[d.haircut], d.client)).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{booked:?}");
    let booked_at: Position =
        booked.headers["x-navalha-position"].to_str().expect("header").parse().expect("position");
    system.project().await;
    let (model, position) = here.next_change().await;
    assert_eq!(model, "agenda");
    assert!(position >= booked_at, "the notice comes once the agenda has applied the booking");

    // A holiday there. Had the booking's notice leaked, it would come first on that stream.
    let holiday = json!({ "description": "Dia de Vila Rica", "startDate": "2027-06-24", "endDate": "2027-06-24",
                          "allDay": true, "startTime": null, "endTime": null, "idsCompanies": [other_unit] });
    let created = system.call(Method::POST, "/api/holiday", Some(&other_admin), Some(holiday)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    system.project().await;
    let (model, position) = there.next_change().await;
    assert_eq!(model, "holiday", "the other business hears only of its own changes");
    assert!(position > booked_at);
}

/// Issue 39: one user could hold any number of live streams. A session holds 8; the ninth
/// is refused, and a closed one gives its place back.
#[tokio::test]
async fn one_session_holds_at_most_eight_live_streams() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let token = system.sign_in("admin@navalha.dev").await;
    let mut open = Vec::new();
    for _ in 0..navalha_query_api::live::MAX_STREAMS_PER_SESSION {
        open.push(Stream::open(&system, &token).await);
    }
    let refused = system.call(Method::GET, "/api/changes", Some(&token), None).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{refused:?}");
    assert_eq!(refused.message(), navalha_query_api::live::MSG_TOO_MANY_STREAMS);
    // Another session of the same user is another desk.
    let other = system.sign_in("admin@navalha.dev").await;
    let mut elsewhere = Stream::open(&system, &other).await;
    assert_eq!(elsewhere.next().await.0, "ready");
    drop(open.pop());
    let mut again = Stream::open(&system, &token).await;
    assert_eq!(again.next().await.0, "ready");
}

#[tokio::test]
async fn changes_need_a_valid_token() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    for token in [None, Some("not-a-token")] {
        let answer = system.call(Method::GET, "/api/changes", token, None).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{token:?}");
    }
}

/// query-api's listener losing its connection loses the notices sent meanwhile: every open
/// agenda is told to fetch everything again, and no day list kept before is served after.
#[tokio::test]
async fn a_lost_listener_connection_makes_open_agendas_look_again_and_forgets_kept_answers() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let desk = system.sign_in("atendente@navalha.dev").await;
    let day_list = format!("/api/scheduling/professional?idCompany={}&date={}", d.centro, next(Weekday::Tue));
    let how = |answer: &navalha_harness::in_process::Answer| {
        answer.headers["x-navalha-answer"].to_str().expect("header").to_owned()
    };
    let mut kept = false;
    for _ in 0..250 {
        if how(&system.call(Method::GET, &day_list, Some(&desk), None).await) == "kept" {
            kept = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(kept, "the day list is kept while notices are heard");
    let mut stream = Stream::open(&system, &desk).await;
    assert_eq!(stream.next().await.0, "ready");

    // Cut the listener's connection, as a network failure or a database restart would.
    let cut: i64 = sqlx::query_scalar(
        "select count(pg_terminate_backend(pid)) from pg_stat_activity
          where datname = current_database() and query like 'LISTEN%'",
    )
    .fetch_one(&system.pool)
    .await
    .expect("terminate");
    assert_eq!(cut, 1, "query-api's one listener");

    let (event, data) = stream.next().await;
    assert_eq!((event.as_str(), &data), ("change", &json!({ "model": "*" })));
    assert_eq!(how(&system.call(Method::GET, &day_list, Some(&desk), None).await), "read");
}
