//! The measured phases, in the order `measure` runs them: the database's ceiling, the
//! booking load and its check, the reads, the services' memory; or the soak instead.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::bail;
use chrono::Utc;
use serde_json::{json, Value};

use crate::checks::{self, DoubleBookings};
use crate::events::EventBuilder;
use crate::pgbench::{self, PgbenchResult};
use crate::report::{ms, thousands};
use crate::rng::Rng;
use crate::setup::{Bench, Month, Running};
use crate::stack;
use crate::workload::{self, BookingPlan, BookingStats, ReadStats, Schedule};
use crate::{dataset, load_average, note, p, show_cpu, show_statements, soak, step};

/// pgbench's one-row INSERTs: the database's ceiling for the booking load, when pgbench is
/// there.
pub async fn pgbench_ceiling(bench: &Bench<'_>) -> anyhow::Result<Option<PgbenchResult>> {
    let cli = bench.cli;
    step(&format!(
        "pgbench: one-row INSERT transactions, {} clients, {} s",
        cli.concurrency, cli.pgbench_seconds
    ));
    let Some(path) = pgbench::find(cli.pgbench.as_deref()) else {
        note("pgbench not found: skipped (./navalha bench installs it)");
        return Ok(None);
    };
    note(&format!("{}", path.display()));
    let (result, _) =
        pgbench::run(&path, &bench.pool, &bench.url, cli.concurrency, cli.pgbench_seconds, bench.work)
            .await?;
    note(&format!("{} transactions/s, mean latency {}", thousands(result.tps), ms(result.latency_ms)));
    Ok(Some(result))
}

/// The booking load, and what it cost by process and by PostgreSQL's client.
pub struct Bookings {
    pub stats: BookingStats,
    /// 201s and 409s in the window.
    pub answered: u64,
    /// Answered per second.
    pub rate: f64,
    pub cpu: BTreeMap<String, f64>,
    pub postgres_by_client: BTreeMap<String, f64>,
    /// The sessions' activity, sampled during the load.
    pub activity: Value,
}

pub async fn bookings(
    bench: &mut Bench<'_>,
    running: &Running<'_>,
    month: &Month,
    builder: &EventBuilder<'_>,
) -> anyhow::Result<Bookings> {
    let cli = bench.cli;
    step(&format!(
        "booking load: {} clients, closed loop, {} s warm-up + {} s measured, lag probe on 1 booking in {}",
        cli.concurrency, cli.warmup_seconds, cli.booking_seconds, cli.lag_every
    ));
    let first_day = month.today + chrono::Duration::days(1);
    let plan = BookingPlan::new(&month.data, builder, first_day, cli.stale_share);
    let schedule = Schedule::from_dataset(&month.data, first_day);
    bench.reset_statements().await?;
    let (stop_sampling, stop_rx) = tokio::sync::watch::channel(false);
    let sampler =
        tokio::spawn(checks::sample_activity(bench.pool.clone(), Duration::from_millis(100), stop_rx));
    let cpu_before = running.cpu();
    let postgres_before = running.postgres_cpu(&bench.pool).await?;
    let mut stats = workload::booking_load(
        &running.api,
        plan,
        schedule,
        &workload::LoadShape {
            concurrency: cli.concurrency,
            warmup: Duration::from_secs(cli.warmup_seconds),
            duration: Duration::from_secs(cli.booking_seconds),
            lag_every: cli.lag_every,
            seed: cli.seed,
        },
    )
    .await?;
    let cpu = running.cpu_since(&cpu_before, stats.requests_total);
    let postgres_by_client = stack::postgres_cpu_per_request(
        &postgres_before,
        &running.postgres_cpu(&bench.pool).await?,
        stats.requests_total,
    );
    let _ = stop_sampling.send(true);
    let activity = sampler.await.unwrap_or(Value::Null);
    // More than the other phases keep: the projector's statements run once per batch, and
    // come after command-api's.
    bench.keep_statements("booking", 40).await?;
    let answered = stats.ok + stats.conflicts;
    let rate = answered as f64 / stats.seconds;
    note(&format!(
        "{} answered/s: {} booked (201), {} refused (409: {} on a slot picked as free), others {:?}",
        thousands(rate),
        thousands(stats.ok as f64),
        thousands(stats.conflicts as f64),
        stats.conflicts_looked,
        stats.others
    ));
    for (message, count) in &stats.conflict_messages {
        note(&format!("409 x {count}: {message}"));
    }
    for example in &stats.other_examples {
        note(&format!("unexpected answer: {example}"));
    }
    note(&format!(
        "latency p50 {} p95 {} p99 {}",
        ms(p(&mut stats.answered, 50.0)),
        ms(p(&mut stats.answered, 95.0)),
        ms(p(&mut stats.answered, 99.0))
    ));
    show_cpu("booking", &cpu);
    note(&format!(
        "of which PostgreSQL worked for (ms): {}",
        postgres_by_client
            .iter()
            .filter(|(_, ms)| **ms >= 0.005)
            .map(|(name, ms)| format!("{name} {ms:.2}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    note(&format!(
        "lag probes: {} visible, {} missing, {} timed out, {} failed",
        stats.lag.visible.len(),
        stats.lag.missing,
        stats.lag.timeouts,
        stats.lag.failed
    ));

    if let Some(top) = bench.profile("booking") {
        show_statements(top, 6);
    }
    Ok(Bookings { stats, answered, rate, cpu, postgres_by_client, activity })
}

/// Once the agenda has caught up with the last booking: pairs of active bookings that
/// overlap, which must be none.
pub async fn double_bookings(
    bench: &Bench<'_>,
    last_position: Option<(i64, i64)>,
) -> anyhow::Result<DoubleBookings> {
    step("checking for double bookings");
    if let Some(position) = last_position {
        let waited = checks::wait_for_agenda(&bench.pool, position, Duration::from_secs(120)).await?;
        note(&format!(
            "agenda caught up with the last booking after {:.0} ms",
            waited.as_secs_f64() * 1000.0
        ));
    }
    let doubles = checks::double_bookings(&bench.pool).await?;
    note(&format!(
        "overlapping active pairs: {} in rm_agenda.appointment, {} in appointment_slot ({} active appointments in the read model, {} slots)",
        doubles.read_model, doubles.slots, thousands(doubles.active_read_model as f64), thousands(doubles.slot_rows as f64)
    ));
    Ok(doubles)
}

/// A closed loop of reads, and the CPU it cost per answer.
pub struct Reads {
    pub stats: ReadStats,
    pub cpu: BTreeMap<String, f64>,
}

/// [`workload::closed_loop`] with the CPU it cost.
pub(crate) async fn read_loop<F>(
    running: &Running<'_>,
    label: &str,
    concurrency: usize,
    warmup: Duration,
    duration: Duration,
    seed: u64,
    request: F,
) -> anyhow::Result<Reads>
where
    F: Fn(&mut Rng) -> reqwest::RequestBuilder + Send + Sync + 'static,
{
    let before = running.cpu();
    let stats = workload::closed_loop(label, concurrency, warmup, duration, seed, request).await?;
    let cpu = running.cpu_since(&before, stats.requests_total);
    Ok(Reads { stats, cpu })
}

fn kept_percent(stats: &ReadStats) -> f64 {
    100.0 * stats.kept as f64 / stats.ok.max(1) as f64
}

fn show_unexpected(stats: &ReadStats) {
    if let Some(example) = &stats.other_example {
        note(&format!("unexpected answer: {example}"));
    }
}

/// A read loop's figures and CPU per `what`; `with_kept` adds the share of answers kept
/// between reads.
pub(crate) fn show_reads(reads: &mut Reads, what: &str, with_kept: bool) {
    let stats = &mut reads.stats;
    let kept = if with_kept { format!(", {:.0} % kept", kept_percent(stats)) } else { String::new() };
    note(&format!(
        "{}/s, p50 {} p99 {}, {} KB per answer{kept}, others {:?}",
        thousands(stats.rate()),
        ms(p(&mut stats.samples, 50.0)),
        ms(p(&mut stats.samples, 99.0)),
        stats.mean_bytes / 1024,
        stats.others
    ));
    show_unexpected(stats);
    show_cpu(what, &reads.cpu);
}

/// Anonymous free times of the big unit, for a few service combinations.
fn free_times_reader(
    running: &Running<'_>,
    builder: &EventBuilder<'_>,
) -> impl Fn(&mut Rng) -> reqwest::RequestBuilder + Send + Sync + 'static {
    let big_unit = builder.company_id(0);
    let service_sets: Vec<Vec<i64>> = vec![
        vec![builder.service_id(0)],
        vec![builder.service_id(1)],
        vec![builder.service_id(2)],
        vec![builder.service_id(0), builder.service_id(3)],
    ];
    let (client, query) = (running.api.client.clone(), running.api.query.clone());
    move |rng| {
        let set = rng.pick(&service_sets);
        let list = set.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        client.get(format!(
            "{query}/no-auth/scheduling/available-times?idCompany={big_unit}&idServices=[{list}]&timesType=ONLY_AVAILABLES"
        ))
    }
}

/// The big unit's day agenda as admin, for a day of the loaded month.
fn day_agenda_reader(
    running: &Running<'_>,
    month: &Month,
    builder: &EventBuilder<'_>,
) -> impl Fn(&mut Rng) -> reqwest::RequestBuilder + Send + Sync + Clone + 'static {
    let big_unit = builder.company_id(0);
    let days = month.days();
    let api = &running.api;
    let (client, query, token) = (api.client.clone(), api.query.clone(), api.token.clone());
    move |rng| {
        let date = rng.pick(&days);
        client
            .get(format!(
                "{query}/scheduling/professional?idCompany={big_unit}&date={}",
                date.format("%Y-%m-%d")
            ))
            .bearer_auth(&token)
    }
}

pub async fn free_times(
    bench: &Bench<'_>,
    running: &Running<'_>,
    month: &Month,
    builder: &EventBuilder<'_>,
) -> anyhow::Result<Reads> {
    let cli = bench.cli;
    step(&format!(
        "free times: anonymous GET no-auth/scheduling/available-times of the big unit ({} professionals), {} client(s), {} s",
        month.big_unit_staff, cli.read_concurrency, cli.read_seconds
    ));
    let mut reads = read_loop(
        running,
        "available-times",
        cli.read_concurrency,
        Duration::from_secs(cli.warmup_seconds.min(2)),
        Duration::from_secs(cli.read_seconds),
        cli.seed,
        free_times_reader(running, builder),
    )
    .await?;
    show_reads(&mut reads, "free-times answer", true);
    Ok(reads)
}

/// Clients of the uncached day agenda (issue 46's goal: 3,000/s at 8).
pub const UNCACHED_AGENDA_CLIENTS: usize = 8;

/// `request` asking for an answer read now (`Cache-Control: no-cache`), not one kept.
pub(crate) fn no_cache(request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    request.header(reqwest::header::CACHE_CONTROL, "no-cache")
}

/// The free times and the day agenda read now, never served as kept
/// (`Cache-Control: no-cache`): what each read costs in a busy shop, whose bookings keep
/// changing its business (issue 46, item 2).
pub struct Uncached {
    pub free_times: Reads,
    pub agenda: Reads,
}

pub async fn uncached(
    bench: &Bench<'_>,
    running: &Running<'_>,
    month: &Month,
    builder: &EventBuilder<'_>,
) -> anyhow::Result<Uncached> {
    let cli = bench.cli;
    step(&format!(
        "uncached reads (Cache-Control: no-cache): the free times, {} client(s), and the day agenda, {UNCACHED_AGENDA_CLIENTS} clients, {} s each",
        cli.read_concurrency, cli.read_seconds
    ));
    let free = free_times_reader(running, builder);
    let mut free_times = read_loop(
        running,
        "available-times, uncached",
        cli.read_concurrency,
        Duration::from_secs(cli.warmup_seconds.min(2)),
        Duration::from_secs(cli.read_seconds),
        cli.seed,
        move |rng| no_cache(free(rng)),
    )
    .await?;
    show_reads(&mut free_times, "uncached free-times answer", true);
    let day = day_agenda_reader(running, month, builder);
    let mut agenda = read_loop(
        running,
        "day agenda, uncached",
        UNCACHED_AGENDA_CLIENTS,
        Duration::from_secs(1),
        Duration::from_secs(cli.read_seconds),
        cli.seed,
        move |rng| no_cache(day(rng)),
    )
    .await?;
    show_reads(&mut agenda, "uncached day-agenda answer", true);
    Ok(Uncached { free_times, agenda })
}

/// The day agenda at each client count of the ramp, and the step where its rate stops
/// growing.
pub struct Agenda {
    pub steps: Vec<ReadStats>,
    pub cpu: Vec<BTreeMap<String, f64>>,
    pub knee: Option<usize>,
}

pub async fn day_agenda(
    bench: &Bench<'_>,
    running: &Running<'_>,
    month: &Month,
    builder: &EventBuilder<'_>,
) -> anyhow::Result<Agenda> {
    let cli = bench.cli;
    step(&format!(
        "day agenda: GET scheduling/professional of the big unit, days of the loaded month, as admin; clients {:?}, {} s each",
        cli.agenda_levels, cli.agenda_step_seconds
    ));
    let reader = day_agenda_reader(running, month, builder);
    let mut steps: Vec<ReadStats> = Vec::new();
    let mut cpu = Vec::new();
    for level in &cli.agenda_levels {
        let Reads { mut stats, cpu: step_cpu } = read_loop(
            running,
            &format!("agenda x{level}"),
            *level,
            Duration::from_secs(1),
            Duration::from_secs(cli.agenda_step_seconds),
            cli.seed,
            reader.clone(),
        )
        .await?;
        note(&format!(
            "{level:>3} clients: {:>7}/s  p50 {:>9}  p99 {:>9}  {} KB per answer  {:.0} % kept  others {:?}",
            thousands(stats.rate()),
            ms(p(&mut stats.samples, 50.0)),
            ms(p(&mut stats.samples, 99.0)),
            stats.mean_bytes / 1024,
            kept_percent(&stats),
            stats.others
        ));
        show_unexpected(&stats);
        cpu.push(step_cpu);
        steps.push(stats);
    }
    let knee = workload::knee(&steps);
    if let Some(knee_cpu) = knee.and_then(|k| cpu.get(k)) {
        show_cpu("day-agenda answer", knee_cpu);
    }
    Ok(Agenda { steps, cpu, knee })
}

/// The home (dashboard) of the big unit, over its three periods.
pub async fn home(
    bench: &Bench<'_>,
    running: &Running<'_>,
    builder: &EventBuilder<'_>,
) -> anyhow::Result<Reads> {
    let cli = bench.cli;
    let big_unit = builder.company_id(0);
    step(&format!(
        "home: GET dashboard?period=30d of the big unit, as admin, {} client(s), {} s",
        cli.read_concurrency, cli.read_seconds
    ));
    let api = &running.api;
    let (client, query, token) = (api.client.clone(), api.query.clone(), api.token.clone());
    let periods = ["30d", "week", "today"];
    let mut reads = read_loop(
        running,
        "dashboard",
        cli.read_concurrency,
        Duration::from_secs(cli.warmup_seconds.min(2)),
        Duration::from_secs(cli.read_seconds),
        cli.seed,
        move |rng| {
            let period = rng.pick(&periods);
            client.get(format!("{query}/dashboard?period={period}&idCompany={big_unit}")).bearer_auth(&token)
        },
    )
    .await?;
    show_reads(&mut reads, "home answer", false);
    Ok(reads)
}

/// Each service's peak memory, read once every load has run, and the database's sizes.
pub struct Memory {
    pub peak_kb: Vec<(&'static str, Option<u64>)>,
    pub sizes_end: Value,
}

pub async fn memory(bench: &Bench<'_>, running: &Running<'_>) -> anyhow::Result<Memory> {
    let peak_kb = running.services.iter().map(|s| (s.name, s.peak_kb())).collect();
    let sizes_end = checks::sizes(&bench.pool).await?;
    Ok(Memory { peak_kb, sizes_end })
}

/// `--soak`: the mixed load, its verdict, and its JSON next to the figures' (`soak-*.json`).
pub async fn soak(
    bench: &Bench<'_>,
    running: &Running<'_>,
    month: &Month,
    builder: &EventBuilder<'_>,
) -> anyhow::Result<()> {
    let (cli, today) = (bench.cli, month.today);
    let first_day = today + chrono::Duration::days(1);
    let big_unit = builder.company_id(0);
    let minutes = cli.soak_minutes.max(1);
    step(&format!(
        "soak: {} clients, {minutes} min of mixed load; memory judged from minute 2 on",
        cli.soak_clients
    ));
    let started_at = Utc::now();
    let report = soak::run(soak::Soak {
        api: &running.api,
        plan: BookingPlan::new(&month.data, builder, first_day, 0.0),
        schedule: Schedule::from_dataset(&month.data, first_day),
        services: running.services,
        unit: big_unit,
        service_sets: vec![vec![builder.service_id(0)], vec![builder.service_id(0), builder.service_id(3)]],
        days: (-dataset::MONTH_BEFORE..dataset::MONTH_AFTER)
            .map(|d| today + chrono::Duration::days(d))
            .collect(),
        duration: Duration::from_secs(minutes * 60),
        concurrency: cli.soak_clients,
        seed: cli.seed,
    })
    .await?;
    note(&format!(
        "{} requests in {:.0} s ({}/s), {} unexpected answers",
        thousands(report.requests as f64),
        report.seconds,
        thousands(report.requests as f64 / report.seconds.max(1e-9)),
        report.unexpected
    ));
    if let Some(kinds) = report.by_kind.as_object() {
        for (kind, figures) in kinds {
            note(&format!(
                "  {kind:<17} {:>8} as expected ({} kept between reads), other answers {}",
                figures["expected"], figures["kept"], figures["unexpected"]
            ));
            if let Some(example) = figures["example"].as_str() {
                note(&format!("    e.g. {example}"));
            }
        }
    }
    for m in &report.memory {
        note(&format!(
            "  {:<12} {:>6.1} MB after the first minute, {:>6.1} MB in the last, {:+.2} MB/min: {}",
            m.service,
            m.after_warm_up_mb,
            m.end_mb,
            m.mb_per_minute,
            if m.flat { "flat" } else { "GROWING" }
        ));
    }
    let finished_at = Utc::now();
    let results = json!({
        "started_at": started_at.to_rfc3339(),
        "finished_at": finished_at.to_rfc3339(),
        "load_average_at_end": load_average(),
        "machine": bench.machine,
        "config": { "soak_minutes": minutes, "soak_clients": cli.soak_clients, "seed": cli.seed,
            "clients": cli.clients, "appointments": cli.appointments },
        "soak": report.to_json(),
        "passed": report.passed(),
    });
    std::fs::create_dir_all(&cli.results_dir)?;
    let path = cli.results_dir.join(format!("soak-{}.json", finished_at.format("%Y%m%dT%H%M%SZ")));
    std::fs::write(&path, serde_json::to_string_pretty(&results)?)?;
    println!("Results: {}", path.display());
    if !report.passed() {
        bail!("the soak failed: unexpected answers, or a service whose memory grew (see above)");
    }
    println!("Soak passed: no unexpected answer, every service's memory flat after the first minute.");
    Ok(())
}
