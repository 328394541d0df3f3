//! The HTTP workloads: the booking load (closed loop, many clients, with projection-lag
//! probes on a sample of its bookings) and closed-loop readers for the query endpoints.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::{Datelike, NaiveDate};
use indicatif::{ProgressBar, ProgressStyle};
use navalha_domain::availability::Span;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::dataset::{Dataset, CATALOGUE, GRID};
use crate::events::EventBuilder;
use crate::rng::Rng;
use crate::stats::Samples;

pub use navalha_harness::api::{
    http_client, parse_consistency, parse_position, sign_in, CONSISTENCY_HEADER, POSITION_HEADER,
};

/// The two APIs and a signed-in admin.
#[derive(Clone)]
pub struct Api {
    /// The HTTP client (keep-alive pool shared by every worker).
    pub client: reqwest::Client,
    /// `http://command-api/api`.
    pub command: String,
    /// `http://query-api/api`.
    pub query: String,
    /// Bearer token of the admin.
    pub token: String,
}

// ---------------------------------------------------------------------------------------
// Booking

/// A professional the load books with.
#[derive(Debug, Clone)]
pub struct Target {
    /// IdCompanyProfessional.
    pub membership_id: i64,
    /// The unit.
    pub company_id: i64,
    /// Working periods per weekday, inside the unit's opening hours.
    pub hours: [Vec<Span>; 7],
    /// Offered services: catalogue id, minutes, popularity.
    pub offers: Vec<(i64, u16, u32)>,
}

/// What the booking load chooses from.
#[derive(Debug, Clone)]
pub struct BookingPlan {
    /// Professionals.
    pub targets: Vec<Target>,
    /// Active clients' ids.
    pub clients: Vec<i64>,
    /// The first bookable day (tomorrow: never in the past).
    pub first_day: NaiveDate,
    /// Days in the near window (most bookings land there).
    pub near_days: i64,
    /// Days in the whole window.
    pub all_days: i64,
    /// Share of requests for a slot picked without looking at free times (a stale
    /// screen, a phone call): they may hit a taken slot and get 409.
    pub stale_share: f64,
}

impl BookingPlan {
    /// The plan for the loaded data set.
    pub fn new(
        data: &Dataset,
        ids: &EventBuilder<'_>,
        first_day: NaiveDate,
        stale_share: f64,
    ) -> BookingPlan {
        let targets = data
            .staff
            .iter()
            .enumerate()
            .map(|(p, person)| {
                let unit = &data.units[person.unit];
                let mut hours: [Vec<Span>; 7] = Default::default();
                for (day, periods) in person.hours.iter().enumerate() {
                    let Some(open) = unit.hours[day].map(Span::from) else { continue };
                    hours[day] =
                        periods.iter().map(|p| Span::from(*p)).filter(|s| open.contains(*s)).collect();
                }
                Target {
                    membership_id: ids.membership_id(p),
                    company_id: ids.company_id(person.unit),
                    hours,
                    offers: person
                        .offers
                        .iter()
                        .map(|o| (ids.service_id(o.service), o.minutes as u16, CATALOGUE[o.service].weight))
                        .collect(),
                }
            })
            .collect();
        let clients = (0..data.customers.len())
            .filter(|c| data.customers[*c].active)
            .map(|c| ids.client_id(c))
            .collect();
        BookingPlan { targets, clients, first_day, near_days: 14, all_days: 60, stale_share }
    }
}

fn mask(span: Span) -> u128 {
    let (start, end) = (u32::from(span.start / GRID), u32::from(span.end.div_ceil(GRID)));
    let ones = |n: u32| if n >= 128 { u128::MAX } else { (1_u128 << n) - 1 };
    ones(end) & !ones(start)
}

/// Who is busy when, as far as the load knows: the loaded appointments and the load's own
/// successful bookings, on the 15-minute grid.
#[derive(Debug, Default)]
pub struct Schedule {
    busy: Mutex<HashMap<(usize, NaiveDate), u128>>,
}

impl Schedule {
    /// The loaded, active appointments from `from` on.
    pub fn from_dataset(data: &Dataset, from: NaiveDate) -> Schedule {
        let mut busy: HashMap<(usize, NaiveDate), u128> = HashMap::new();
        for visit in data.visits.iter().filter(|v| !v.cancelled && v.date >= from) {
            *busy.entry((visit.professional, visit.date)).or_default() |= mask(visit.span());
        }
        Schedule { busy: Mutex::new(busy) }
    }

    fn day(&self, target: usize, date: NaiveDate) -> u128 {
        self.busy.lock().map(|b| b.get(&(target, date)).copied().unwrap_or(0)).unwrap_or(0)
    }

    /// Marks a span taken.
    pub fn take(&self, target: usize, date: NaiveDate, span: Span) {
        if let Ok(mut busy) = self.busy.lock() {
            *busy.entry((target, date)).or_default() |= mask(span);
        }
    }

    /// Marks a span free again (its booking was cancelled).
    pub fn release(&self, target: usize, date: NaiveDate, span: Span) {
        if let Ok(mut busy) = self.busy.lock() {
            if let Some(day) = busy.get_mut(&(target, date)) {
                *day &= !mask(span);
            }
        }
    }

    /// Whether the span is free as far as the load knows.
    #[cfg(test)]
    pub fn is_free(&self, target: usize, date: NaiveDate, span: Span) -> bool {
        self.day(target, date) & mask(span) == 0
    }
}

/// The staff booking form's body (POST scheduling/professional) for a choice.
pub fn booking_body(target: &Target, choice: &Choice) -> Value {
    json!({
        "idCompanyProfessional": target.membership_id,
        "date": choice.date.format("%Y-%m-%d").to_string(),
        "startTime": hhmm(choice.span.start),
        "endTime": null,
        "idServices": choice.services,
        "idUser": choice.client,
        "observation": "",
        "timesType": "ONLY_AVAILABLES",
    })
}

/// One booking request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Index into the plan's targets.
    pub target: usize,
    /// The day.
    pub date: NaiveDate,
    /// Start and end minutes.
    pub span: Span,
    /// Catalogue ids.
    pub services: Vec<i64>,
    /// The client.
    pub client: i64,
    /// Whether it was picked among the free times (false: a stale pick).
    pub looked: bool,
}

/// Picks a booking: a professional, a working day in the window (most in the next two
/// weeks), one or two services, and a start on the grid inside a working period; a free one
/// unless this is a stale pick.
pub fn choose(rng: &mut Rng, plan: &BookingPlan, schedule: &Schedule) -> Option<Choice> {
    for _ in 0..32 {
        let target = rng.below(plan.targets.len());
        let t = &plan.targets[target];
        let offset = if rng.chance(0.6) {
            rng.below(plan.near_days as usize) as i64
        } else {
            rng.below(plan.all_days as usize) as i64
        };
        let date = plan.first_day + chrono::Duration::days(offset);
        let periods = &t.hours[date.weekday().num_days_from_sunday() as usize];
        if periods.is_empty() || t.offers.is_empty() {
            continue;
        }
        let total: u32 = t.offers.iter().map(|o| o.2).sum();
        let mut roll = rng.below(total.max(1) as usize) as u32;
        let mut first = 0;
        for (i, offer) in t.offers.iter().enumerate() {
            if roll < offer.2 {
                first = i;
                break;
            }
            roll -= offer.2;
        }
        let mut picked = vec![first];
        if t.offers.len() > 1 && rng.chance(0.3) {
            picked.push((first + 1 + rng.below(t.offers.len() - 1)) % t.offers.len());
        }
        let minutes: u16 = picked.iter().map(|i| t.offers[*i].1).sum();
        let candidates: Vec<Span> = periods
            .iter()
            .flat_map(|p| {
                (p.start..p.end)
                    .step_by(usize::from(GRID))
                    .map(move |start| Span { start, end: start + minutes })
                    .filter(move |s| s.end <= p.end)
            })
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let stale = rng.chance(plan.stale_share);
        let free: Vec<Span> = if stale {
            Vec::new()
        } else {
            let day = schedule.day(target, date);
            candidates.iter().copied().filter(|s| day & mask(*s) == 0).collect()
        };
        if !stale && free.is_empty() {
            continue;
        }
        let span = if stale { *rng.pick(&candidates) } else { *rng.pick(&free) };
        return Some(Choice {
            target,
            date,
            span,
            services: picked.iter().map(|i| t.offers[*i].0).collect(),
            client: *rng.pick(&plan.clients),
            looked: !stale,
        });
    }
    None
}

fn hhmm(minute: u16) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// What the booking load measured.
#[derive(Debug, Default)]
pub struct BookingStats {
    /// Latencies of answered commands (201 and 409) completed in the window.
    pub answered: Samples,
    /// Latencies of the 201s alone.
    pub created: Samples,
    /// 201s in the window.
    pub ok: u64,
    /// 409s in the window.
    pub conflicts: u64,
    /// Of the 409s, those for a slot picked among the free times (a race with another
    /// client or a stale schedule), the rest being stale picks.
    pub conflicts_looked: u64,
    /// The 409s by message (slot taken, outside working hours, ...).
    pub conflict_messages: BTreeMap<String, u64>,
    /// Other answers (status → count) and transport errors (status 0), in the window.
    pub others: BTreeMap<u16, u64>,
    /// A few bodies of unexpected answers.
    pub other_examples: Vec<String>,
    /// Bookings made during the warm-up and after the window (not counted above).
    pub outside_window: u64,
    /// Every booking request answered, warm-up included (for CPU per request).
    pub requests_total: u64,
    /// Measured window in seconds.
    pub seconds: f64,
    /// Highest position answered.
    pub last_position: Option<(i64, i64)>,
    /// Lag probes.
    pub lag: LagStats,
}

/// Commit → visible in the day agenda, on a sample of bookings.
#[derive(Debug, Default)]
pub struct LagStats {
    /// Time from receiving the 201 to receiving a day agenda that holds the booking, read
    /// with `X-Navalha-Position`.
    pub visible: Samples,
    /// query-api's own `waited-ms` (time it waited for the projector), whole milliseconds.
    pub waited: Samples,
    /// Probes answered `timeout`.
    pub timeouts: u64,
    /// Probes whose answer lacked the booking.
    pub missing: u64,
    /// Probes that failed (HTTP error).
    pub failed: u64,
}

#[derive(Debug)]
struct Probe {
    visible: Option<Duration>,
    waited_ms: Option<u64>,
    reached: bool,
    failed: bool,
}

struct BookingContext {
    api: Api,
    plan: BookingPlan,
    schedule: Schedule,
    measure_from: Instant,
    stop_at: Instant,
    lag_every: u64,
    created: AtomicU64,
    progress_ok: AtomicU64,
    progress_conflicts: AtomicU64,
    progress_other: AtomicU64,
    probes: mpsc::UnboundedSender<Probe>,
}

async fn probe(
    api: Api,
    company_id: i64,
    date: NaiveDate,
    id: i64,
    position: String,
    from: Instant,
) -> Probe {
    let url = format!(
        "{}/scheduling/professional?idCompany={company_id}&date={}",
        api.query,
        date.format("%Y-%m-%d")
    );
    let answer = api.client.get(url).bearer_auth(&api.token).header(POSITION_HEADER, position).send().await;
    let Ok(answer) = answer else {
        return Probe { visible: None, waited_ms: None, reached: false, failed: true };
    };
    let consistency =
        answer.headers().get(CONSISTENCY_HEADER).and_then(|v| v.to_str().ok()).and_then(parse_consistency);
    let ok = answer.status().is_success();
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    let elapsed = from.elapsed();
    let holds =
        body.as_array().is_some_and(|items| items.iter().any(|i| i.get("IdScheduling") == Some(&json!(id))));
    Probe {
        visible: holds.then_some(elapsed),
        waited_ms: consistency.map(|c| c.1),
        reached: consistency.is_some_and(|c| c.0),
        failed: !ok,
    }
}

async fn booking_worker(ctx: Arc<BookingContext>, worker: u64, seed: u64) -> BookingStats {
    let mut rng = Rng::new(seed).fork(1000 + worker);
    let mut stats = BookingStats::default();
    let url = format!("{}/scheduling/professional", ctx.api.command);
    while Instant::now() < ctx.stop_at {
        let Some(choice) = choose(&mut rng, &ctx.plan, &ctx.schedule) else { break };
        let target = &ctx.plan.targets[choice.target];
        let body = booking_body(target, &choice);
        let sent = Instant::now();
        let answer = ctx.api.client.post(&url).bearer_auth(&ctx.api.token).json(&body).send().await;
        let (status, position, text) = match answer {
            Ok(answer) => {
                let status = answer.status().as_u16();
                let position =
                    answer.headers().get(POSITION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned);
                (status, position, answer.text().await.unwrap_or_default())
            }
            Err(error) => (0, None, error.to_string()),
        };
        let done = Instant::now();
        let counted = sent >= ctx.measure_from && done <= ctx.stop_at;
        let latency = done - sent;
        match status {
            201 => {
                ctx.schedule.take(choice.target, choice.date, choice.span);
                ctx.progress_ok.fetch_add(1, Ordering::Relaxed);
                if let Some(p) = position.as_deref().and_then(parse_position) {
                    stats.last_position = stats.last_position.max(Some(p));
                }
                if !counted {
                    stats.outside_window += 1;
                    continue;
                }
                stats.ok += 1;
                stats.answered.record(latency);
                stats.created.record(latency);
                let n = ctx.created.fetch_add(1, Ordering::Relaxed);
                let id =
                    serde_json::from_str::<Value>(&text).ok().and_then(|v| v.get("IdScheduling")?.as_i64());
                if let (true, Some(id), Some(position)) = (n.is_multiple_of(ctx.lag_every), id, position) {
                    let (api, sender, company) = (ctx.api.clone(), ctx.probes.clone(), target.company_id);
                    let date = choice.date;
                    tokio::spawn(async move {
                        let result = probe(api, company, date, id, position, done).await;
                        let _ = sender.send(result);
                    });
                }
            }
            409 => {
                ctx.progress_conflicts.fetch_add(1, Ordering::Relaxed);
                if counted {
                    stats.conflicts += 1;
                    stats.conflicts_looked += u64::from(choice.looked);
                    stats.answered.record(latency);
                    let message = serde_json::from_str::<Value>(&text)
                        .ok()
                        .and_then(|v| v.get("message")?.as_str().map(str::to_owned))
                        .unwrap_or_else(|| text.chars().take(120).collect());
                    *stats.conflict_messages.entry(message).or_default() += 1;
                }
            }
            other => {
                ctx.progress_other.fetch_add(1, Ordering::Relaxed);
                if counted {
                    *stats.others.entry(other).or_default() += 1;
                    if stats.other_examples.len() < 3 {
                        stats
                            .other_examples
                            .push(format!("{other}: {}", text.chars().take(300).collect::<String>()));
                    }
                }
                if other == 0 {
                    // Transport error: do not spin.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
    stats
}

/// How the booking load runs.
#[derive(Debug, Clone, Copy)]
pub struct LoadShape {
    /// Clients in the closed loop.
    pub concurrency: usize,
    /// Warm-up, not counted.
    pub warmup: Duration,
    /// Measured window.
    pub duration: Duration,
    /// One counted booking in this many gets a lag probe.
    pub lag_every: u64,
    /// Seed of the choices.
    pub seed: u64,
}

/// Runs the booking load: `concurrency` clients in a closed loop for `warmup` + `duration`;
/// only answers to requests sent after the warm-up and received before the end count.
/// Every `lag_every`-th counted booking is followed by a day-agenda read with its position.
pub async fn booking_load(
    api: &Api,
    plan: BookingPlan,
    schedule: Schedule,
    shape: &LoadShape,
) -> anyhow::Result<BookingStats> {
    let LoadShape { concurrency, warmup, duration, lag_every, seed } = *shape;
    let (sender, mut receiver) = mpsc::unbounded_channel();
    let start = Instant::now();
    let ctx = Arc::new(BookingContext {
        api: api.clone(),
        plan,
        schedule,
        measure_from: start + warmup,
        stop_at: start + warmup + duration,
        lag_every: lag_every.max(1),
        created: AtomicU64::new(0),
        progress_ok: AtomicU64::new(0),
        progress_conflicts: AtomicU64::new(0),
        progress_other: AtomicU64::new(0),
        probes: sender,
    });
    let bar = seconds_bar("booking", warmup + duration);
    let ticker = {
        let (ctx, bar) = (ctx.clone(), bar.clone());
        tokio::spawn(async move {
            let mut last = (Instant::now(), 0_u64);
            loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                let ok = ctx.progress_ok.load(Ordering::Relaxed);
                let conflicts = ctx.progress_conflicts.load(Ordering::Relaxed);
                let answered = ok + conflicts;
                let rate = (answered - last.1) as f64 / last.0.elapsed().as_secs_f64();
                last = (Instant::now(), answered);
                let phase = if Instant::now() < ctx.measure_from { "warm-up" } else { "measuring" };
                bar.set_position(start.elapsed().as_secs());
                bar.set_message(format!(
                    "{phase}: {ok} booked, {conflicts} refused (409), {} other, {rate:.0}/s",
                    ctx.progress_other.load(Ordering::Relaxed)
                ));
            }
        })
    };
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..concurrency as u64 {
        workers.spawn(booking_worker(ctx.clone(), worker, seed));
    }
    let mut total = BookingStats { seconds: duration.as_secs_f64(), ..BookingStats::default() };
    while let Some(stats) = workers.join_next().await {
        let stats = stats.context("a booking worker panicked")?;
        total.answered.merge(stats.answered);
        total.created.merge(stats.created);
        total.ok += stats.ok;
        total.conflicts += stats.conflicts;
        total.conflicts_looked += stats.conflicts_looked;
        for (message, count) in stats.conflict_messages {
            *total.conflict_messages.entry(message).or_default() += count;
        }
        total.outside_window += stats.outside_window;
        for (status, count) in stats.others {
            *total.others.entry(status).or_default() += count;
        }
        total.other_examples.extend(stats.other_examples);
        total.last_position = total.last_position.max(stats.last_position);
    }
    ticker.abort();
    bar.finish_and_clear();
    total.requests_total = ctx.progress_ok.load(Ordering::Relaxed)
        + ctx.progress_conflicts.load(Ordering::Relaxed)
        + ctx.progress_other.load(Ordering::Relaxed);
    drop(ctx);
    // The probes still running hold the last senders.
    while let Some(probe) = receiver.recv().await {
        if probe.failed {
            total.lag.failed += 1;
            continue;
        }
        if !probe.reached {
            total.lag.timeouts += 1;
        }
        match probe.visible {
            Some(visible) => total.lag.visible.record(visible),
            None => total.lag.missing += 1,
        }
        if let Some(waited) = probe.waited_ms {
            total.lag.waited.record_micros(waited * 1000);
        }
    }
    total.other_examples.truncate(5);
    Ok(total)
}

// ---------------------------------------------------------------------------------------
// Readers

/// A progress bar over seconds.
pub fn seconds_bar(label: &str, length: Duration) -> ProgressBar {
    let bar = ProgressBar::new(length.as_secs().max(1));
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "  {label:<16} [{{bar:30.cyan/blue}}] {{pos:>3}}/{{len}} s  {{msg}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

/// What a closed-loop reader measured.
#[derive(Debug, Default)]
pub struct ReadStats {
    /// Concurrent clients.
    pub concurrency: usize,
    /// Latencies of 200 answers.
    pub samples: Samples,
    /// 2xx answers in the window (200 for a read, 201 for a booking).
    pub ok: u64,
    /// Other answers (status → count), 0 for transport errors.
    pub others: BTreeMap<u16, u64>,
    /// An example of an unexpected answer.
    pub other_example: Option<String>,
    /// The window in seconds.
    pub seconds: f64,
    /// Mean size of the answers, bytes.
    pub mean_bytes: u64,
    /// Every request answered, warm-up included (for CPU per request).
    pub requests_total: u64,
    /// 200 answers served as kept between reads (`X-Navalha-Answer: kept`, ADR 0018).
    pub kept: u64,
}

impl ReadStats {
    /// 200 answers per second.
    pub fn rate(&self) -> f64 {
        self.ok as f64 / self.seconds.max(f64::EPSILON)
    }
}

/// `concurrency` clients send `request(rng)` in a closed loop for `duration` after a short
/// warm-up; returns the latencies of the 200s (full body read).
pub async fn closed_loop<F>(
    label: &str,
    concurrency: usize,
    warmup: Duration,
    duration: Duration,
    seed: u64,
    request: F,
) -> anyhow::Result<ReadStats>
where
    F: Fn(&mut Rng) -> reqwest::RequestBuilder + Send + Sync + 'static,
{
    let request = Arc::new(request);
    let start = Instant::now();
    let (measure_from, stop_at) = (start + warmup, start + warmup + duration);
    let done = Arc::new(AtomicU64::new(0));
    let bar = seconds_bar(label, warmup + duration);
    let ticker = {
        let (bar, done) = (bar.clone(), done.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                bar.set_position(start.elapsed().as_secs());
                bar.set_message(format!("{} answers, {concurrency} clients", done.load(Ordering::Relaxed)));
            }
        })
    };
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..concurrency as u64 {
        let (request, done) = (request.clone(), done.clone());
        workers.spawn(async move {
            let mut rng = Rng::new(seed).fork(worker);
            let mut stats = ReadStats::default();
            let mut bytes = 0_u64;
            while Instant::now() < stop_at {
                let sent = Instant::now();
                let answer = request(&mut rng).send().await;
                let (status, kept, body) = match answer {
                    Ok(answer) => {
                        let kept = answer.headers().get("x-navalha-answer").is_some_and(|how| how == "kept");
                        (answer.status().as_u16(), kept, answer.bytes().await.map(|b| b.to_vec()))
                    }
                    Err(error) => (0, false, Ok(error.to_string().into_bytes())),
                };
                let finished = Instant::now();
                done.fetch_add(1, Ordering::Relaxed);
                if sent < measure_from || finished > stop_at {
                    continue;
                }
                match (status, body) {
                    (200..=299, Ok(body)) => {
                        stats.ok += 1;
                        stats.kept += u64::from(kept);
                        bytes += body.len() as u64;
                        stats.samples.record(finished - sent);
                    }
                    (status, body) => {
                        *stats.others.entry(status).or_default() += 1;
                        if stats.other_example.is_none() {
                            let text = body
                                .map(|b| String::from_utf8_lossy(&b).chars().take(300).collect::<String>());
                            stats.other_example = Some(format!("{status}: {}", text.unwrap_or_default()));
                        }
                        if status == 0 {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                    }
                }
            }
            stats.mean_bytes = bytes;
            stats
        });
    }
    let mut total = ReadStats { concurrency, seconds: duration.as_secs_f64(), ..ReadStats::default() };
    let mut bytes = 0;
    while let Some(stats) = workers.join_next().await {
        let stats = stats.context("a reader panicked")?;
        total.samples.merge(stats.samples);
        total.ok += stats.ok;
        total.kept += stats.kept;
        bytes += stats.mean_bytes;
        for (status, count) in stats.others {
            *total.others.entry(status).or_default() += count;
        }
        total.other_example = total.other_example.or(stats.other_example);
    }
    total.mean_bytes = bytes / total.ok.max(1);
    total.requests_total = done.load(Ordering::Relaxed);
    ticker.abort();
    bar.finish_and_clear();
    Ok(total)
}

/// Of a ramp of closed loops, the step where the rate stops growing: the first whose rate
/// is within 5 % of the best. More clients past it only add queueing.
pub fn knee(steps: &[ReadStats]) -> Option<usize> {
    let best = steps.iter().map(ReadStats::rate).fold(0.0, f64::max);
    if best <= 0.0 {
        return None;
    }
    steps.iter().position(|s| s.rate() >= 0.95 * best)
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDateTime;

    use super::*;
    use crate::dataset::Params;
    use crate::events::{Actor, IdBases};

    #[test]
    fn headers_parse() {
        assert_eq!(parse_position("812.40211"), Some((812, 40211)));
        assert_eq!(parse_position("x"), None);
        assert_eq!(parse_consistency("reached; waited-ms=12"), Some((true, 12)));
        assert_eq!(parse_consistency("timeout; waited-ms=2000"), Some((false, 2000)));
        assert_eq!(parse_consistency("reached"), None);
        assert_eq!(hhmm(9 * 60 + 5), "09:05");
    }

    #[test]
    fn masks_cover_the_quarters_of_a_span() {
        assert_eq!(mask(Span { start: 0, end: 15 }), 1);
        assert_eq!(mask(Span { start: 15, end: 45 }), 0b110);
        assert_eq!(mask(Span { start: 9 * 60, end: 10 * 60 }).count_ones(), 4);
        assert_eq!(mask(Span { start: 0, end: 24 * 60 }).count_ones(), 96);
        assert_eq!(mask(Span { start: 60, end: 75 }) & mask(Span { start: 75, end: 90 }), 0);
    }

    #[test]
    fn choices_lie_in_working_hours_and_avoid_known_bookings() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap_or_default();
        let now = NaiveDateTime::new(today, chrono::NaiveTime::MIN);
        let params = Params {
            units: 3,
            professionals: 8,
            big_unit_professionals: 4,
            clients: 100,
            appointments: 2000,
            seed: 5,
            namespace: 0,
        };
        let data = Dataset::generate(&params, today, now);
        let ids = IdBases {
            company: 1,
            service: 1,
            professional: 1,
            membership: 1,
            offer: 1,
            client: 1,
            appointment: 1,
        };
        let builder = EventBuilder::new(
            &data,
            ids,
            Actor { id: 1, name: "A".to_owned() },
            crate::events::BENCH_BUSINESS_ID,
        );
        let first = today + chrono::Duration::days(1);
        let plan = BookingPlan::new(&data, &builder, first, 0.0);
        let schedule = Schedule::from_dataset(&data, first);
        let mut rng = Rng::new(1);
        for _ in 0..2000 {
            let choice = choose(&mut rng, &plan, &schedule).unwrap_or_else(|| panic!("no choice"));
            assert!(choice.looked);
            assert!(choice.date >= first && choice.date < first + chrono::Duration::days(60));
            let t = &plan.targets[choice.target];
            let hours = &t.hours[choice.date.weekday().num_days_from_sunday() as usize];
            assert!(hours.iter().any(|h| h.contains(choice.span)), "{choice:?}");
            assert!(schedule.is_free(choice.target, choice.date, choice.span), "{choice:?}");
            let minutes: u16 =
                choice.services.iter().map(|s| t.offers.iter().find(|o| o.0 == *s).map_or(0, |o| o.1)).sum();
            assert_eq!(choice.span.end - choice.span.start, minutes);
            schedule.take(choice.target, choice.date, choice.span);
            assert!(!schedule.is_free(choice.target, choice.date, choice.span));
            if choice.services.len() > 1 {
                // A cancelled booking's time is free again (the soak's cancellations).
                schedule.release(choice.target, choice.date, choice.span);
                assert!(schedule.is_free(choice.target, choice.date, choice.span), "{choice:?}");
            }
        }
        // Loaded bookings are known as busy.
        let visit = data.visits.iter().find(|v| v.date >= first && !v.cancelled);
        if let Some(v) = visit {
            assert!(!schedule.is_free(v.professional, v.date, v.span()));
        }
    }

    #[test]
    fn the_knee_is_where_the_rate_stops_growing() {
        let step = |ok: u64| ReadStats { ok, seconds: 1.0, ..ReadStats::default() };
        assert_eq!(knee(&[step(100), step(190), step(200), step(198)]), Some(1));
        assert_eq!(knee(&[step(100), step(150), step(200)]), Some(2));
        assert_eq!(knee(&[]), None);
    }
}
