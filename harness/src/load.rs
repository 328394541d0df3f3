//! A booking load the way the web app books: every create carries its own
//! `Idempotency-Key`, and a request that gets no answer (a refused connection, a reset, a
//! 502/503 from the edge) is sent again with the same key until one comes, the way a
//! client retries. The slots are drawn from a small grid, so the clients also race for the
//! same times and PostgreSQL's no-overlap rule has work to do.
//!
//! [`verify`] then checks what the resilience tests promise after any crash: every booking
//! in the event log is one a client got a 201 for (nothing written that nobody was told
//! of, nothing told that was not written), each key's answer is given again unchanged, the
//! agenda holds every booking once, and no two bookings overlap.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure};
use chrono::{Datelike, NaiveDate, Weekday};
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::api::{parse_position, POSITION_HEADER};
use crate::system::BookingTargets;

/// The answer header of a replayed idempotent answer.
pub const REPLAYED_HEADER: &str = "idempotent-replayed";
/// How long a client keeps retrying one request before the load fails.
const RETRY_FOR: Duration = Duration::from_secs(60);

/// One HTTP answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// Status code.
    pub status: u16,
    /// JSON body (Null when not JSON).
    pub body: Value,
    /// `X-Navalha-Position`.
    pub position: Option<String>,
    /// `Idempotent-Replayed: true`.
    pub replayed: bool,
}

/// One booking the load asked for, and the answer it finally got.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// Its Idempotency-Key.
    pub key: String,
    /// The request body.
    pub body: Value,
    /// The answer.
    pub answer: Answer,
    /// Sends that got no answer before this one.
    pub retries: u32,
}

impl Attempt {
    /// The appointment a 201 created.
    pub fn booked_id(&self) -> Option<i64> {
        (self.answer.status == 201).then(|| self.answer.body.get("IdScheduling").and_then(Value::as_i64))?
    }
}

/// Where and how the load books.
#[derive(Debug, Clone)]
pub struct Load {
    /// command bases (`http://host/api`), tried in turn: one per instance, or one gateway.
    pub bases: Vec<String>,
    /// Bearer token.
    pub token: String,
    /// Who to book.
    pub targets: BookingTargets,
    /// Concurrent clients.
    pub clients: usize,
    /// Bookings in all.
    pub bookings: usize,
    /// The first day of the grid.
    pub from: NaiveDate,
}

/// `POST scheduling/professional` with `key`.
pub async fn book(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    key: &str,
    body: &Value,
) -> Result<Answer, reqwest::Error> {
    let answer = client
        .post(format!("{base}/scheduling/professional"))
        .bearer_auth(token)
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await?;
    let status = answer.status().as_u16();
    let header = |name: &str| answer.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let position = header(POSITION_HEADER);
    let replayed = header(REPLAYED_HEADER).as_deref() == Some("true");
    let body = answer.json().await.unwrap_or(Value::Null);
    Ok(Answer { status, body, position, replayed })
}

/// Whether an answer is one a client retries with the same key: none at all, or the edge
/// or a service saying it is (temporarily) unavailable.
fn worth_retrying(answer: &Result<Answer, reqwest::Error>) -> bool {
    match answer {
        Err(_) => true,
        Ok(answer) => matches!(answer.status, 502..=504),
    }
}

/// The `n`th booking's body: a professional, one of the 4 days the units open from `from`
/// on, and a half-hour between 09:00 and 18:30 (the demo units open Monday to Saturday,
/// 09:00-21:00), drawn so that different `n` often want the same time.
pub fn booking_body(targets: &BookingTargets, from: NaiveDate, n: usize) -> Value {
    // A multiplicative hash spreads consecutive n over the grid.
    let h = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 16;
    let (professional, service) = targets.professionals[(h % targets.professionals.len() as u64) as usize];
    let day = from
        .iter_days()
        .filter(|day| day.weekday() != Weekday::Sun)
        .nth(((h >> 8) % 4) as usize)
        .unwrap_or(from);
    let minute = 9 * 60 + ((h >> 16) % 20) * 30;
    let client = targets.clients[((h >> 24) % targets.clients.len() as u64) as usize];
    json!({
        "idCompanyProfessional": professional,
        "date": day.format("%Y-%m-%d").to_string(),
        "startTime": format!("{:02}:{:02}", minute / 60, minute % 60),
        "endTime": null,
        "idServices": [service],
        "idUser": client,
        "observation": "resilience",
        "timesType": "ALL_TIMES",
    })
}

/// Runs the load to its end. `started` is set once a quarter of the bookings are answered
/// (the moment a test breaks something).
pub async fn run(
    client: &reqwest::Client,
    load: &Load,
    started: Arc<AtomicBool>,
) -> anyhow::Result<Vec<Attempt>> {
    let load = Arc::new(load.clone());
    let next = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicUsize::new(0));
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..load.clients {
        let (client, load, next, done, started) =
            (client.clone(), load.clone(), next.clone(), done.clone(), started.clone());
        workers.spawn(async move {
            let mut attempts = Vec::new();
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= load.bookings {
                    return Ok::<_, anyhow::Error>(attempts);
                }
                let key = format!("resilience-{n}");
                let body = booking_body(&load.targets, load.from, n);
                let first_try = Instant::now();
                let mut retries = 0;
                let answer = loop {
                    // Each send goes to the next base: a retry lands on another instance.
                    let base = &load.bases[(n + worker + retries as usize) % load.bases.len()];
                    let answer = book(&client, base, &load.token, &key, &body).await;
                    if !worth_retrying(&answer) {
                        break answer?;
                    }
                    if first_try.elapsed() > RETRY_FOR {
                        bail!("booking {key} got no answer for {RETRY_FOR:?}: {answer:?}");
                    }
                    retries += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                };
                attempts.push(Attempt { key, body, answer, retries });
                if done.fetch_add(1, Ordering::Relaxed) + 1 == load.bookings / 4 {
                    started.store(true, Ordering::Relaxed);
                }
            }
        });
    }
    let mut attempts = Vec::with_capacity(load.bookings);
    while let Some(result) = workers.join_next().await {
        attempts.extend(result??);
    }
    Ok(attempts)
}

/// What [`verify`] found.
#[derive(Debug, Default)]
pub struct Verified {
    /// 201s.
    pub booked: usize,
    /// 409s (the slot was taken by another client).
    pub refused: usize,
    /// Bookings that needed at least one retry.
    pub retried: usize,
}

/// Checks the load's outcome against the database (the agenda must have caught up with
/// the highest position answered), and that every key's answer is given again unchanged
/// through `replay_base`.
pub async fn verify(
    pool: &PgPool,
    client: &reqwest::Client,
    replay_base: &str,
    load: &Load,
    attempts: &[Attempt],
) -> anyhow::Result<Verified> {
    let mut verified = Verified::default();
    let mut answered: BTreeSet<i64> = BTreeSet::new();
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    for attempt in attempts {
        *statuses.entry(attempt.answer.status).or_default() += 1;
        if attempt.retries > 0 {
            verified.retried += 1;
        }
        match attempt.answer.status {
            201 => {
                let id = attempt.booked_id().ok_or_else(|| anyhow::anyhow!("a 201 without IdScheduling"))?;
                ensure!(answered.insert(id), "two keys were answered the same appointment {id}");
                ensure!(
                    attempt.answer.position.as_deref().and_then(parse_position).is_some(),
                    "201 for {} without a position",
                    attempt.key
                );
                verified.booked += 1;
            }
            409 => verified.refused += 1,
            other => bail!("booking {} answered {other}: {}", attempt.key, attempt.answer.body),
        }
    }
    ensure!(verified.booked > 0, "no booking succeeded: {statuses:?}");

    // The event log holds exactly the bookings clients were told of.
    let logged: BTreeSet<i64> = sqlx::query_scalar::<_, String>(
        "select aggregate_id from events where aggregate_type = 'Appointment' and event_type = 'AppointmentBooked'
            and payload -> 'AppointmentBooked' ->> 'observation' = 'resilience'",
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .filter_map(|id| id.parse().ok())
    .collect();
    let unanswered: Vec<_> = logged.difference(&answered).collect();
    let unwritten: Vec<_> = answered.difference(&logged).collect();
    ensure!(unanswered.is_empty(), "booked but never answered 201: {unanswered:?}");
    ensure!(unwritten.is_empty(), "answered 201 but not in the event log: {unwritten:?}");

    // The agenda holds each once, and nothing overlaps anywhere.
    let highest = attempts.iter().filter_map(|a| a.answer.position.as_deref().and_then(parse_position)).max();
    if let Some(position) = highest {
        crate::checks::wait_for_agenda(pool, position, Duration::from_secs(30)).await?;
    }
    let ids: Vec<i64> = answered.iter().copied().collect();
    let in_agenda: i64 = sqlx::query_scalar(
        "select count(*) from rm_agenda.appointment where appointment_id = any($1) and status",
    )
    .bind(&ids)
    .fetch_one(pool)
    .await?;
    ensure!(in_agenda as usize == ids.len(), "{} of {} bookings in the agenda", in_agenda, ids.len());
    let doubles = crate::checks::double_bookings(pool).await?;
    ensure!(doubles.clean(), "double bookings: {doubles:?}");

    // Every booking's key gives its first answer again, wherever it lands. A refusal wrote
    // nothing, and its answer may not have been stored when the database went away right
    // after it: a retry may then be refused anew (command-api/src/idempotency.rs).
    for attempt in attempts {
        let again = book(client, replay_base, &load.token, &attempt.key, &attempt.body).await?;
        if attempt.answer.status == 409 && !again.replayed {
            ensure!(again.status == 409, "{}: refused first, then {again:?}", attempt.key);
            continue;
        }
        ensure!(
            again.replayed,
            "{}: first answered {:?} after {} retries; a retry ran again instead of replaying: {again:?}",
            attempt.key,
            attempt.answer,
            attempt.retries
        );
        let first = Answer { replayed: true, ..attempt.answer.clone() };
        ensure!(again == first, "{}: first answer {:?}, retry {again:?}", attempt.key, attempt.answer);
    }
    Ok(verified)
}
