//! `./navalha bench --soak`: minutes of mixed load (bookings and their cancellations, the
//! day agenda, free times, the clients list, the club's subscribers, the home) against the
//! release services, sampling each service's resident memory. It passes when no request
//! gets an answer it should not, and every service's memory is flat after the first minute
//! (a leak grows with the requests served; a warm cache stops growing).

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::NaiveDate;
use navalha_domain::availability::Span;
use serde_json::{json, Value};

use crate::rng::Rng;
use crate::stack::{vm_rss, Service};
use crate::workload::{booking_body, choose, seconds_bar, Api, BookingPlan, Schedule};

/// The first minute is warm-up: pools fill, caches warm, allocators settle.
pub const WARM_UP: Duration = Duration::from_secs(60);
/// Memory is flat when it grew after the warm-up by at most this share of its size then…
const FLAT_SHARE: f64 = 0.10;
/// …or by at most this many MB, whichever is larger (allocator noise on a small heap).
const FLAT_MB: f64 = 8.0;
/// A client cancels its oldest booking once it holds this many, so the agenda never fills.
const HELD_BOOKINGS: usize = 8;
const SAMPLE_EVERY: Duration = Duration::from_secs(5);

/// What a soak request asks for, and how often (weights out of 100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Book,
    Cancel,
    Agenda,
    FreeTimes,
    Clients,
    Subscribers,
    Home,
}

const MIX: [(Kind, u32); 6] = [
    (Kind::Book, 25),
    (Kind::Agenda, 30),
    (Kind::FreeTimes, 15),
    (Kind::Clients, 15),
    (Kind::Subscribers, 10),
    (Kind::Home, 5),
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Book => "booking",
            Kind::Cancel => "cancellation",
            Kind::Agenda => "day agenda",
            Kind::FreeTimes => "free times",
            Kind::Clients => "clients list",
            Kind::Subscribers => "club subscribers",
            Kind::Home => "home",
        }
    }

    /// The answers this request may get: a booking may lose its slot to another (409).
    fn expected(self, status: u16) -> bool {
        match self {
            Kind::Book => status == 201 || status == 409,
            _ => status == 200,
        }
    }
}

/// The load's inputs.
pub struct Soak<'a> {
    pub api: &'a Api,
    pub plan: BookingPlan,
    pub schedule: Schedule,
    pub services: &'a [Service],
    pub unit: i64,
    pub service_sets: Vec<Vec<i64>>,
    pub days: Vec<NaiveDate>,
    pub duration: Duration,
    pub concurrency: usize,
    pub seed: u64,
}

#[derive(Debug, Default, Clone)]
struct KindStats {
    expected: u64,
    /// Expected answers served as kept between reads (`X-Navalha-Answer: kept`).
    kept: u64,
    unexpected: BTreeMap<u16, u64>,
    example: Option<String>,
}

/// One reading of the services' resident memory.
#[derive(Debug, Clone)]
pub struct MemorySample {
    pub seconds: f64,
    pub rss_kb: BTreeMap<&'static str, u64>,
}

/// A service's memory over the soak.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryVerdict {
    pub service: &'static str,
    /// The largest reading of the minute after the warm-up.
    pub after_warm_up_mb: f64,
    /// The mean of the last minute's readings.
    pub end_mb: f64,
    /// Least-squares slope after the warm-up.
    pub mb_per_minute: f64,
    pub flat: bool,
}

/// What the soak found.
pub struct SoakReport {
    pub requests: u64,
    pub seconds: f64,
    pub unexpected: u64,
    pub by_kind: Value,
    pub memory: Vec<MemoryVerdict>,
    pub samples: Vec<MemorySample>,
}

impl SoakReport {
    pub fn passed(&self) -> bool {
        self.unexpected == 0 && !self.memory.is_empty() && self.memory.iter().all(|m| m.flat)
    }

    pub fn to_json(&self) -> Value {
        json!({
            "requests": self.requests,
            "seconds": self.seconds,
            "requests_per_s": self.requests as f64 / self.seconds.max(1e-9),
            "unexpected_answers": self.unexpected,
            "by_kind": self.by_kind,
            "memory": self.memory.iter().map(|m| json!({
                "service": m.service,
                "after_warm_up_mb": m.after_warm_up_mb,
                "end_mb": m.end_mb,
                "mb_per_minute": m.mb_per_minute,
                "flat": m.flat,
            })).collect::<Vec<_>>(),
            "samples": self.samples.iter().map(|s| json!({"seconds": s.seconds, "rss_kb": s.rss_kb})).collect::<Vec<_>>(),
            "flat_rule": format!(
                "growth from the largest reading of the minute after the first to the mean of the last minute at most {:.0} % or {FLAT_MB} MB",
                FLAT_SHARE * 100.0
            ),
        })
    }
}

/// Judges each service's readings (see `FLAT_SHARE`): the minute after the warm-up against
/// the last minute.
pub fn judge(samples: &[MemorySample], warm_up: Duration) -> Vec<MemoryVerdict> {
    let Some(last) = samples.last() else { return Vec::new() };
    let (from, end) = (warm_up.as_secs_f64(), last.seconds);
    let names: Vec<&'static str> = last.rss_kb.keys().copied().collect();
    let mb = |kb: u64| kb as f64 / 1024.0;
    names
        .into_iter()
        .filter_map(|service| {
            let series: Vec<(f64, f64)> = samples
                .iter()
                .filter(|s| s.seconds >= from)
                .filter_map(|s| Some((s.seconds, mb(*s.rss_kb.get(service)?))))
                .collect();
            let after_warm_up =
                series.iter().filter(|(t, _)| *t < from + 60.0).map(|(_, m)| *m).fold(f64::NAN, f64::max);
            let tail: Vec<f64> = series.iter().filter(|(t, _)| *t >= end - 60.0).map(|(_, m)| *m).collect();
            if after_warm_up.is_nan() || tail.is_empty() {
                return None;
            }
            let end_mb = tail.iter().sum::<f64>() / tail.len() as f64;
            let flat = end_mb - after_warm_up <= (after_warm_up * FLAT_SHARE).max(FLAT_MB);
            Some(MemoryVerdict {
                service,
                after_warm_up_mb: after_warm_up,
                end_mb,
                mb_per_minute: slope(&series) * 60.0,
                flat,
            })
        })
        .collect()
}

/// Least-squares slope of (x, y) points; 0 for fewer than two.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if points.len() < 2 {
        return 0.0;
    }
    let (mx, my) = (points.iter().map(|p| p.0).sum::<f64>() / n, points.iter().map(|p| p.1).sum::<f64>() / n);
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx == 0.0 {
        0.0
    } else {
        sxy / sxx
    }
}

struct Shared {
    stop_at: Instant,
    done: AtomicU64,
    unexpected: AtomicU64,
}

/// Runs the soak and judges it.
pub async fn run(soak: Soak<'_>) -> anyhow::Result<SoakReport> {
    let start = Instant::now();
    let shared = Arc::new(Shared {
        stop_at: start + soak.duration,
        done: AtomicU64::new(0),
        unexpected: AtomicU64::new(0),
    });
    let pids: Vec<(&'static str, u32)> =
        soak.services.iter().filter_map(|s| Some((s.name, s.pid()?))).collect();
    let samples = Arc::new(Mutex::new(Vec::<MemorySample>::new()));
    let bar = seconds_bar("soak", soak.duration);
    let sampler = {
        let (samples, shared, bar) = (samples.clone(), shared.clone(), bar.clone());
        tokio::spawn(async move {
            loop {
                let rss_kb: BTreeMap<&'static str, u64> =
                    pids.iter().filter_map(|(name, pid)| Some((*name, vm_rss(*pid)?))).collect();
                let memory: Vec<String> =
                    rss_kb.iter().map(|(name, kb)| format!("{name} {} MB", kb / 1024)).collect();
                bar.set_position(start.elapsed().as_secs());
                bar.set_message(format!(
                    "{} requests, {} unexpected; {}",
                    shared.done.load(Ordering::Relaxed),
                    shared.unexpected.load(Ordering::Relaxed),
                    memory.join(", ")
                ));
                if let Ok(mut samples) = samples.lock() {
                    samples.push(MemorySample { seconds: start.elapsed().as_secs_f64(), rss_kb });
                }
                if Instant::now() >= shared.stop_at {
                    break;
                }
                tokio::time::sleep(SAMPLE_EVERY).await;
            }
        })
    };
    let load = Arc::new(Load {
        api: soak.api.clone(),
        plan: soak.plan,
        schedule: soak.schedule,
        unit: soak.unit,
        service_sets: soak.service_sets,
        days: soak.days,
    });
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..soak.concurrency as u64 {
        workers.spawn(client(load.clone(), shared.clone(), Rng::new(soak.seed).fork(5000 + worker)));
    }
    let mut by_kind: BTreeMap<Kind, KindStats> = BTreeMap::new();
    while let Some(stats) = workers.join_next().await {
        for (kind, stats) in stats.context("a soak client panicked")? {
            let total = by_kind.entry(kind).or_default();
            total.expected += stats.expected;
            total.kept += stats.kept;
            for (status, count) in stats.unexpected {
                *total.unexpected.entry(status).or_default() += count;
            }
            total.example = total.example.take().or(stats.example);
        }
    }
    sampler.await.context("the memory sampler panicked")?;
    bar.finish_and_clear();
    let samples = samples.lock().map(|s| s.clone()).unwrap_or_default();
    Ok(SoakReport {
        requests: shared.done.load(Ordering::Relaxed),
        seconds: start.elapsed().as_secs_f64(),
        unexpected: shared.unexpected.load(Ordering::Relaxed),
        by_kind: by_kind
            .iter()
            .map(|(kind, s)| {
                (
                    kind.name().to_owned(),
                    json!({"expected": s.expected, "kept": s.kept, "unexpected": s.unexpected, "example": s.example}),
                )
            })
            .collect::<serde_json::Map<_, _>>()
            .into(),
        memory: judge(&samples, WARM_UP),
        samples,
    })
}

struct Load {
    api: Api,
    plan: BookingPlan,
    schedule: Schedule,
    unit: i64,
    service_sets: Vec<Vec<i64>>,
    days: Vec<NaiveDate>,
}

/// One client of the soak, in a closed loop: a request of the mix at a time, and the
/// cancellation of its oldest booking once it holds `HELD_BOOKINGS`.
async fn client(ctx: Arc<Load>, shared: Arc<Shared>, mut rng: Rng) -> BTreeMap<Kind, KindStats> {
    let mut stats: BTreeMap<Kind, KindStats> = BTreeMap::new();
    let mut held: VecDeque<(i64, usize, NaiveDate, Span)> = VecDeque::new();
    let (api, unit) = (&ctx.api, ctx.unit);
    while Instant::now() < shared.stop_at {
        let kind = if held.len() >= HELD_BOOKINGS { Kind::Cancel } else { pick(&mut rng) };
        let mut booked = None;
        let request = match kind {
            Kind::Book => {
                let Some(choice) = choose(&mut rng, &ctx.plan, &ctx.schedule) else { continue };
                let target = &ctx.plan.targets[choice.target];
                booked = Some((choice.target, choice.date, choice.span));
                api.client
                    .post(format!("{}/scheduling/professional", api.command))
                    .json(&booking_body(target, &choice))
            }
            Kind::Cancel => {
                let Some((id, ..)) = held.front() else { continue };
                api.client.delete(format!("{}/scheduling/{id}", api.command))
            }
            Kind::Agenda => api.client.get(format!(
                "{}/scheduling/professional?idCompany={unit}&date={}",
                api.query,
                rng.pick(&ctx.days).format("%Y-%m-%d")
            )),
            Kind::FreeTimes => {
                let list =
                    rng.pick(&ctx.service_sets).iter().map(i64::to_string).collect::<Vec<_>>().join(",");
                api.client.get(format!(
                    "{}/no-auth/scheduling/available-times?idCompany={unit}&idServices=[{list}]&timesType=ONLY_AVAILABLES",
                    api.query
                ))
            }
            Kind::Clients => {
                let page = 1 + rng.below(20);
                api.client.get(format!("{}/user/filter?page={page}&pageSize=20&search=", api.query))
            }
            Kind::Subscribers => {
                api.client.get(format!("{}/subscription-user?page=1&pageSize=20", api.query))
            }
            Kind::Home => api.client.get(format!("{}/dashboard?period=30d&idCompany={unit}", api.query)),
        };
        let request = request.bearer_auth(&api.token);
        let (status, kept, body) = match request.send().await {
            Ok(answer) => {
                let kept = answer.headers().get("x-navalha-answer").is_some_and(|how| how == "kept");
                (answer.status().as_u16(), kept, answer.text().await.unwrap_or_default())
            }
            Err(error) => (0, false, error.to_string()),
        };
        shared.done.fetch_add(1, Ordering::Relaxed);
        let entry = stats.entry(kind).or_default();
        if !kind.expected(status) {
            shared.unexpected.fetch_add(1, Ordering::Relaxed);
            *entry.unexpected.entry(status).or_default() += 1;
            if entry.example.is_none() {
                entry.example = Some(format!("{status}: {}", body.chars().take(300).collect::<String>()));
            }
            if status == 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            continue;
        }
        entry.expected += 1;
        entry.kept += u64::from(kept);
        match (kind, status) {
            (Kind::Book, 201) => {
                let id =
                    serde_json::from_str::<Value>(&body).ok().and_then(|v| v.get("IdScheduling")?.as_i64());
                if let (Some(id), Some((target, date, span))) = (id, booked) {
                    ctx.schedule.take(target, date, span);
                    held.push_back((id, target, date, span));
                }
            }
            (Kind::Cancel, _) => {
                if let Some((_, target, date, span)) = held.pop_front() {
                    ctx.schedule.release(target, date, span);
                }
            }
            _ => {}
        }
    }
    // What is still held stays booked: the run's database is thrown away.
    stats
}

fn pick(rng: &mut Rng) -> Kind {
    let total: u32 = MIX.iter().map(|(_, w)| w).sum();
    let mut roll = rng.below(total as usize) as u32;
    for (kind, weight) in MIX {
        if roll < weight {
            return kind;
        }
        roll -= weight;
    }
    Kind::Agenda
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(service: &'static str, mb: &[(f64, f64)]) -> Vec<MemorySample> {
        mb.iter()
            .map(|(seconds, mb)| MemorySample {
                seconds: *seconds,
                rss_kb: BTreeMap::from([(service, (*mb * 1024.0) as u64)]),
            })
            .collect()
    }

    #[test]
    fn memory_that_settles_after_the_warm_up_is_flat() {
        // Grows in the first minute, then wobbles.
        let points: Vec<(f64, f64)> = (0..=120)
            .map(|i| {
                let t = f64::from(i) * 5.0;
                (t, if t < 60.0 { 20.0 + t } else { 80.0 + (i % 3) as f64 })
            })
            .collect();
        let verdict = judge(&series("query-api", &points), WARM_UP);
        assert_eq!(verdict.len(), 1);
        assert!(verdict[0].flat, "{verdict:?}");
        assert!(verdict[0].mb_per_minute.abs() < 0.5, "{verdict:?}");
    }

    #[test]
    fn memory_that_keeps_growing_is_not_flat() {
        // 2 MB a minute for ten minutes: 18 MB over 100 MB after the warm-up.
        let points: Vec<(f64, f64)> =
            (0..=120).map(|i| f64::from(i) * 5.0).map(|t| (t, 100.0 + t / 30.0)).collect();
        let verdict = judge(&series("command-api", &points), WARM_UP);
        assert!(!verdict[0].flat, "{verdict:?}");
        assert!((verdict[0].mb_per_minute - 2.0).abs() < 0.01, "{verdict:?}");
    }

    #[test]
    fn a_small_heap_may_wobble_by_a_few_megabytes() {
        let points: Vec<(f64, f64)> =
            (0..=120).map(|i| f64::from(i) * 5.0).map(|t| (t, if t < 300.0 { 12.0 } else { 18.0 })).collect();
        assert!(judge(&series("projector", &points), WARM_UP)[0].flat);
    }

    #[test]
    fn a_run_shorter_than_two_minutes_judges_nothing() {
        let points: Vec<(f64, f64)> = (0..=10).map(|i| (f64::from(i) * 5.0, 50.0)).collect();
        assert!(judge(&series("projector", &points), WARM_UP).is_empty());
    }

    #[test]
    fn every_kind_of_the_mix_is_picked() {
        let mut rng = Rng::new(7);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..1000 {
            seen.insert(pick(&mut rng));
        }
        assert_eq!(seen.len(), MIX.len());
    }
}
