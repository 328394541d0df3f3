//! `./navalha bench --fan-out` (issue 46, item 3): many open agendas across many businesses
//! on one query-api, told of bookings as they commit.
//!
//! - Before the rebuild, [`open_shops`] opens `--fan-out-businesses` businesses beside the
//!   big one as an operator does (`command-api open-business`), and loads each a unit, three
//!   professionals, their services, clients and a few past appointments, admitting its
//!   first admin to the unit.
//! - Once the services run, [`run`] completes each admin's registration through their link
//!   (the first session) and signs them in again (the second: a session holds at most
//!   8 streams), then opens `--fan-out-streams` agenda streams (`GET /api/changes`), the
//!   same number in each business.
//! - The last tenth of the businesses stay silent. Bookings arrive in the others at
//!   `--fan-out-rate` a second, open loop, each in a business drawn at random. Each 201's
//!   position (`X-Navalha-Position`) is matched with the first `agenda` notice at or past it
//!   on every stream of its business: the time from the booking's send (conservative: it
//!   includes the command) and from its 201 to each stream's notice.
//! - It passes when every stream heard of every booking of its business, the p99 from the
//!   send is under [`P99_GOAL_MS`], query-api stayed under [`MEMORY_GOAL_MB`], and no stream
//!   of a silent business heard anything.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use chrono::Utc;
use serde_json::{json, Value};

use crate::dataset::{cpf_from_base, Dataset, Params};
use crate::events::{Actor, EventBuilder};
use crate::load;
use crate::report::{ms, thousands};
use crate::rng::Rng;
use crate::setup::{Bench, Month, Running};
use crate::stack::vm_rss;
use crate::stats::Samples;
use crate::workload::{booking_body, choose, BookingPlan, Schedule};
use crate::{note, step};
use navalha_harness::api::{parse_position, sign_in, POSITION_HEADER};

/// Issue 46's goal: p99 from a booking's commit to every watching stream's notice.
pub const P99_GOAL_MS: f64 = 250.0;
/// Issue 46's bound on query-api's memory with the streams open.
pub const MEMORY_GOAL_MB: f64 = 150.0;
/// The password each business's first admin chooses.
const PASSWORD: &str = "Leque@2026";
/// Time for the last notices after the load stops.
const GRACE: Duration = Duration::from_secs(3);

/// A business opened for the run, before the services start.
pub struct Shop {
    /// Its first admin's e-mail and the token of their registration link.
    email: String,
    invite: String,
    plan: BookingPlan,
    schedule: Schedule,
}

/// Opens `count` businesses and loads their data (see the module's docs).
pub async fn open_shops(bench: &Bench<'_>, month: &Month, count: usize) -> anyhow::Result<Vec<Shop>> {
    step(&format!("opening {count} more businesses (command-api open-business) and loading their data"));
    let started = Instant::now();
    let first_day = month.today + chrono::Duration::days(1);
    let now = Utc::now().naive_utc();
    let mut shops = Vec::with_capacity(count);
    for n in 1..=count as u64 {
        let email = format!("admin{n}@leque.bench.navalha.dev");
        let opened = bench
            .open_business(
                &format!("Barbearia Leque {n:03}"),
                &format!("Dono Leque {n}"),
                &email,
                &cpf_from_base(800_000_000 + n),
            )
            .await?;
        let params = Params {
            units: 1,
            professionals: 3,
            big_unit_professionals: 3,
            clients: 30,
            appointments: 30,
            seed: bench.cli.seed + n,
            namespace: n,
        };
        let data = Dataset::generate(&params, month.today, now);
        let ids = load::reserve_ids(&bench.pool, &data).await?;
        let actor = Actor { id: opened.admin_id, name: format!("Dono Leque {n}") };
        let builder = EventBuilder::new(&data, ids, actor.clone(), opened.business_id);
        load::append_business(&bench.pool, &builder, &data).await?;
        load::admit_admin(&bench.pool, &builder, &actor, data.units.len()).await?;
        shops.push(Shop {
            email,
            invite: opened.invite,
            plan: BookingPlan::new(&data, &builder, first_day, 0.0),
            schedule: Schedule::from_dataset(&data, first_day),
        });
    }
    note(&format!("{count} businesses in {:.1} s", started.elapsed().as_secs_f64()));
    Ok(shops)
}

/// A shop with its two sessions.
struct Open {
    shop: Shop,
    tokens: [String; 2],
}

/// The first admin's registration through the link (the first session), then a sign-in
/// (the second).
async fn sessions(client: &reqwest::Client, command: &str, shop: Shop) -> anyhow::Result<Open> {
    let answer = client
        .put(format!("{command}/no-auth/professional/complete-register"))
        .json(&json!({ "completeRegister": shop.invite, "password": PASSWORD }))
        .send()
        .await?;
    let status = answer.status();
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    let Some(first) = body["Token"].as_str().filter(|_| status.is_success()).map(str::to_owned) else {
        bail!("completing {}'s registration: {status} {body}", shop.email);
    };
    let second = sign_in(client, command, &shop.email, PASSWORD).await?;
    Ok(Open { shop, tokens: [first, second] })
}

/// What one stream heard: when, which model, at which position.
type Heard = Vec<(Instant, String, Option<(i64, i64)>)>;

/// Reads one agenda stream until `until`: its `change` events. Counts itself in `ready` once
/// the stream says so.
async fn listen(
    client: reqwest::Client,
    url: String,
    token: String,
    ready: Arc<AtomicUsize>,
    until: Arc<Mutex<Option<Instant>>>,
) -> anyhow::Result<Heard> {
    let mut answer = client.get(&url).bearer_auth(&token).timeout(Duration::from_secs(3600)).send().await?;
    if !answer.status().is_success() {
        bail!("opening a stream: {}", answer.status());
    }
    let (mut buffer, mut heard) = (String::new(), Heard::new());
    loop {
        let deadline = until.lock().map(|u| *u).unwrap_or(None);
        let wait = deadline.map_or(Duration::from_secs(1), |d| d.saturating_duration_since(Instant::now()));
        if deadline.is_some() && wait.is_zero() {
            return Ok(heard);
        }
        let chunk = match tokio::time::timeout(wait.min(Duration::from_secs(1)), answer.chunk()).await {
            Err(_) => continue,
            Ok(chunk) => chunk?.context("the stream ended")?,
        };
        let at = Instant::now();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let field = |name: &str| block.lines().find_map(|l| l.strip_prefix(name)).map(str::trim);
            match field("event:") {
                Some("ready") => {
                    ready.fetch_add(1, Ordering::Relaxed);
                }
                Some("change") => {
                    let data: Value =
                        serde_json::from_str(field("data:").unwrap_or("{}")).unwrap_or(Value::Null);
                    let model = data["model"].as_str().unwrap_or_default().to_owned();
                    heard.push((at, model, data["position"].as_str().and_then(parse_position)));
                }
                _ => {}
            }
        }
    }
}

/// A booking the load made: its shop, when it was sent and answered, its position.
struct Booked {
    shop: usize,
    sent: Instant,
    answered: Instant,
    position: (i64, i64),
}

/// The run (see the module's docs).
pub async fn run(bench: &Bench<'_>, running: &Running<'_>, shops: Vec<Shop>) -> anyhow::Result<()> {
    let cli = bench.cli;
    let api = &running.api;
    step(&format!(
        "signing in to {} businesses (their first admins' links, then a second session)",
        shops.len()
    ));
    let mut open = Vec::with_capacity(shops.len());
    for shop in shops {
        open.push(sessions(&api.client, &api.command, shop).await?);
    }
    let open = Arc::new(open);
    let silent = (open.len() / 10).max(1);
    let active = open.len() - silent;
    let per_shop = (cli.fan_out_streams / open.len()).max(1);
    step(&format!(
        "opening {} agenda streams ({per_shop} per business; the last {silent} businesses stay silent)",
        per_shop * open.len()
    ));
    // Each stream gets its own connection: one HTTP/1.1 connection carries one stream.
    let streams = reqwest::Client::builder().pool_max_idle_per_host(0).tcp_nodelay(true).build()?;
    let query_api = running.services.iter().find(|s| s.name == "query-api").and_then(|s| s.pid());
    let rss_idle = query_api.and_then(vm_rss);
    let ready = Arc::new(AtomicUsize::new(0));
    let until = Arc::new(Mutex::new(None));
    let mut readers = Vec::new();
    for (s, shop) in open.iter().enumerate() {
        for k in 0..per_shop {
            let token = shop.tokens[k % 2].clone();
            let task = listen(
                streams.clone(),
                format!("{}/changes", api.query),
                token,
                ready.clone(),
                until.clone(),
            );
            readers.push((s, tokio::spawn(task)));
        }
    }
    let opening = Instant::now();
    while ready.load(Ordering::Relaxed) < readers.len() {
        if opening.elapsed() > Duration::from_secs(60) {
            bail!("{} of {} streams ready after 60 s", ready.load(Ordering::Relaxed), readers.len());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    note(&format!("{} streams ready in {:.1} s", readers.len(), opening.elapsed().as_secs_f64()));
    let rss_before = query_api.and_then(vm_rss);
    let cpu_before = running.cpu();

    let seconds = cli.fan_out_seconds;
    step(&format!("booking at {}/s for {seconds} s in the {active} other businesses", cli.fan_out_rate));
    let booked = Arc::new(Mutex::new(Vec::<Booked>::new()));
    // Other answers by status (0: no answer): a 409 is a client already booked at that time.
    let refused = Arc::new(Mutex::new(std::collections::BTreeMap::<u16, usize>::new()));
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / cli.fan_out_rate.max(1.0)));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let (load_from, mut rng) = (Instant::now(), Rng::new(cli.seed).fork(46));
    let mut rss_peak = rss_before.unwrap_or(0);
    let mut sampled = Instant::now();
    let mut requests = Vec::new();
    while load_from.elapsed() < Duration::from_secs(seconds) {
        tick.tick().await;
        if sampled.elapsed() >= Duration::from_millis(250) {
            rss_peak = rss_peak.max(query_api.and_then(vm_rss).unwrap_or(0));
            sampled = Instant::now();
        }
        let s = rng.below(active);
        let Some(choice) = choose(&mut rng, &open[s].shop.plan, &open[s].shop.schedule) else { continue };
        open[s].shop.schedule.take(choice.target, choice.date, choice.span);
        let (open, booked, refused, client) =
            (open.clone(), booked.clone(), refused.clone(), api.client.clone());
        let url = format!("{}/scheduling/professional", api.command);
        requests.push(tokio::spawn(async move {
            let shop = &open[s];
            let body = booking_body(&shop.shop.plan.targets[choice.target], &choice);
            let sent = Instant::now();
            let answer = client.post(&url).bearer_auth(&shop.tokens[0]).json(&body).send().await;
            let answered = Instant::now();
            let status = answer.as_ref().map_or(0, |a| a.status().as_u16());
            let position = answer
                .ok()
                .filter(|_| status == 201)
                .and_then(|a| a.headers().get(POSITION_HEADER)?.to_str().ok().and_then(parse_position));
            match position {
                Some(position) => {
                    booked.lock().map(|mut b| b.push(Booked { shop: s, sent, answered, position })).ok();
                }
                None => {
                    refused.lock().map(|mut r| *r.entry(status).or_default() += 1).ok();
                }
            }
        }));
    }
    for request in requests {
        request.await?;
    }
    tokio::time::sleep(GRACE).await;
    rss_peak = rss_peak.max(query_api.and_then(vm_rss).unwrap_or(0));
    if let Ok(mut until) = until.lock() {
        *until = Some(Instant::now());
    }
    let mut heard: Vec<Vec<Heard>> = (0..open.len()).map(|_| Vec::new()).collect();
    for (s, reader) in readers {
        heard[s].push(reader.await??);
    }
    let booked = std::mem::take(&mut *booked.lock().map_err(|_| anyhow::anyhow!("poisoned"))?);
    let cpu = running.cpu_since(&cpu_before, booked.len() as u64);
    crate::show_cpu("booking, its notices included", &cpu);
    let figures = measure(&booked, &heard, active);
    let load = Load {
        businesses: open.len(),
        streams: per_shop * open.len(),
        seconds,
        booked: booked.len(),
        refused: std::mem::take(&mut *refused.lock().map_err(|_| anyhow::anyhow!("poisoned"))?),
        rss_idle,
        rss_before,
        rss_peak,
        cpu,
    };
    report(bench, figures, load)
}

/// What the load did, for the report.
struct Load {
    businesses: usize,
    streams: usize,
    seconds: u64,
    booked: usize,
    refused: std::collections::BTreeMap<u16, usize>,
    /// query-api's resident memory before the streams opened, with them, at most during the load.
    rss_idle: Option<u64>,
    rss_before: Option<u64>,
    rss_peak: u64,
    /// CPU per booking by process, ms.
    cpu: std::collections::BTreeMap<String, f64>,
}

/// Notices matched with bookings.
#[derive(Default)]
struct Figures {
    from_send: Samples,
    from_created: Samples,
    /// A booking's stream that heard nothing at or past its position.
    missed: usize,
    /// `change` events on silent businesses' streams.
    silent_heard: usize,
    /// `change {"model":"*"}` (a stream fell behind) on active businesses' streams.
    refetch_all: usize,
}

fn measure(booked: &[Booked], heard: &[Vec<Heard>], active: usize) -> Figures {
    let mut figures = Figures::default();
    for b in booked {
        for stream in &heard[b.shop] {
            let notice = stream
                .iter()
                .find(|(_, model, position)| model == "agenda" && position.is_some_and(|p| p >= b.position));
            match notice {
                Some((at, _, _)) => {
                    figures.from_send.record(at.saturating_duration_since(b.sent));
                    figures.from_created.record(at.saturating_duration_since(b.answered));
                }
                None => figures.missed += 1,
            }
        }
    }
    figures.silent_heard = heard[active..].iter().flatten().map(Vec::len).sum();
    figures.refetch_all =
        heard[..active].iter().flatten().flatten().filter(|(_, model, _)| model == "*").count();
    figures
}

fn report(bench: &Bench<'_>, mut figures: Figures, load: Load) -> anyhow::Result<()> {
    let created = load.booked as f64;
    let notices = figures.from_send.len();
    note(&format!(
        "{} bookings created ({:.0}/s), other answers {:?}; {} notices expected on their businesses' streams, {} heard, {} missed",
        thousands(created),
        created / load.seconds as f64,
        load.refused,
        thousands((notices + figures.missed) as f64),
        thousands(notices as f64),
        figures.missed
    ));
    let from_send = (figures.from_send.percentile_ms(50.0), figures.from_send.percentile_ms(99.0));
    let from_created = (figures.from_created.percentile_ms(50.0), figures.from_created.percentile_ms(99.0));
    let max = figures.from_send.percentile_ms(100.0);
    note(&format!(
        "booking sent → a stream's notice: p50 {}, p99 {} (goal < {P99_GOAL_MS:.0} ms), max {}",
        ms(from_send.0),
        ms(from_send.1),
        ms(max)
    ));
    note(&format!(
        "booking's 201 → a stream's notice: p50 {}, p99 {}",
        ms(from_created.0),
        ms(from_created.1)
    ));
    let mb = |kb: Option<u64>| kb.map(|kb| kb as f64 / 1024.0);
    let (idle, before, peak) = (mb(load.rss_idle), mb(load.rss_before), mb(Some(load.rss_peak)));
    note(&format!(
        "query-api: {:.1} MB before the streams, {:.1} MB with {} open, {:.1} MB at most during the load (bound {MEMORY_GOAL_MB:.0} MB)",
        idle.unwrap_or(0.0),
        before.unwrap_or(0.0),
        load.streams,
        peak.unwrap_or(0.0)
    ));
    note(&format!(
        "silent businesses' streams heard {} changes (must be 0); active streams told to fetch everything: {}",
        figures.silent_heard, figures.refetch_all
    ));
    let passed = figures.missed == 0
        && figures.silent_heard == 0
        && from_send.1.is_some_and(|p99| p99 < P99_GOAL_MS)
        && peak.is_some_and(|peak| peak < MEMORY_GOAL_MB);
    let results = json!({
        "kind": "fan-out",
        "finished_at": Utc::now().to_rfc3339(),
        "machine": bench.machine,
        "businesses": load.businesses,
        "streams": load.streams,
        "rate_per_second": bench.cli.fan_out_rate,
        "seconds": load.seconds,
        "bookings": load.booked,
        "refused": load.refused,
        "notices": notices,
        "missed": figures.missed,
        "from_send_ms": figures.from_send.summary(),
        "from_created_ms": figures.from_created.summary(),
        "query_api_mb": { "idle": idle, "streams_open": before, "peak": peak },
        "cpu_ms_per_booking": load.cpu,
        "silent_heard": figures.silent_heard,
        "refetch_all": figures.refetch_all,
        "passed": passed,
    });
    std::fs::create_dir_all(&bench.cli.results_dir)?;
    let path = bench.cli.results_dir.join(format!("fan-out-{}.json", Utc::now().format("%Y%m%dT%H%M%SZ")));
    std::fs::write(&path, serde_json::to_string_pretty(&results)?)?;
    note(&format!("results: {}", path.display()));
    if !passed {
        bail!("the fan-out missed its goals");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(base: Instant, ms: u64) -> Instant {
        base + Duration::from_millis(ms)
    }

    #[test]
    fn each_booking_is_matched_with_the_first_agenda_notice_at_or_past_it_on_each_stream() {
        let t = Instant::now();
        let booked = [
            Booked { shop: 0, sent: at(t, 0), answered: at(t, 10), position: (100, 5) },
            Booked { shop: 0, sent: at(t, 20), answered: at(t, 30), position: (101, 9) },
        ];
        let notice = |ms, model: &str, position| (at(t, ms), model.to_owned(), Some(position));
        let heard = vec![
            // The active business: one stream heard both, the other only the first.
            vec![
                vec![
                    notice(5, "client", (100, 5)),
                    notice(15, "agenda", (100, 5)),
                    notice(50, "agenda", (101, 9)),
                ],
                vec![notice(40, "agenda", (100, 7))],
            ],
            // A silent business whose stream heard something: counted.
            vec![vec![notice(60, "agenda", (90, 1))]],
        ];
        let mut figures = measure(&booked, &heard, 1);
        assert_eq!(figures.missed, 1, "the second stream never reached the second booking");
        assert_eq!(figures.from_send.len(), 3);
        assert_eq!(figures.from_send.percentile_ms(100.0), Some(40.0));
        assert_eq!(figures.from_created.percentile_ms(0.0).map(f64::round), Some(5.0));
        assert_eq!(figures.silent_heard, 1);
    }
}
