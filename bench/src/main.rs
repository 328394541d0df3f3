//! `navalha-bench`: the benchmark suite behind `./navalha bench`.
//!
//! On the PostgreSQL cluster of `DATABASE_URL` (a superuser connection; the launcher
//! starts a throw-away cluster with fsync on), it creates the database `navalha_bench`,
//! migrates it and loads the demo data with command-api, appends a realistic month of
//! events in bulk, rebuilds every read model with `projector rebuild`, starts command-api,
//! query-api and projector from the release build, and measures: booking commands under
//! load, projection lag, free times, the day agenda, the home, double bookings, peak memory, and
//! pgbench's one-row-insert rate as the database's ceiling. Prints a table and saves the
//! figures as JSON under `bench/results/`. docs/bench.md explains every figure.

mod checks;
mod counter;
mod dataset;
mod events;
mod fanout;
mod load;
mod pgbench;
mod phases;
mod report;
mod rng;
mod setup;
mod soak;
mod stack;
mod stats;
mod summary;
mod tenants;
mod workload;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use chrono::{DateTime, Utc};
use clap::Parser;
use serde_json::Value;

pub use dataset::Dataset;
use report::thousands;
use setup::Bench;
use stack::Service;
use stats::Samples;
use summary::Figures;

/// The demo admin (command-api seed-demo), who signs in and books.
const ADMIN_EMAIL: &str = "admin@navalha.dev";
const ADMIN_PASSWORD: &str = "Navalha@2026";

/// Navalha's benchmark suite (run it through `./navalha bench`).
#[derive(Debug, Clone, Parser)]
#[command(about)]
struct Cli {
    /// A superuser connection to the cluster; the bench creates its own database there.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: String,
    /// The database to (re)create.
    #[arg(long, default_value = "navalha_bench")]
    database: String,
    /// Where the release binaries of command-api, query-api and projector are.
    #[arg(long, env = "NAVALHA_BENCH_BIN_DIR", default_value = "target/release")]
    bin_dir: PathBuf,
    /// Where the services' logs go (kept after the run).
    #[arg(long, env = "NAVALHA_BENCH_LOG_DIR", default_value = "target/navalha-bench/logs")]
    log_dir: PathBuf,
    /// Where the JSON results go.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
    results_dir: PathBuf,
    /// pgbench; found next to the PostgreSQL binaries when absent.
    #[arg(long, env = "NAVALHA_PGBENCH")]
    pgbench: Option<PathBuf>,

    /// Units.
    #[arg(long, default_value_t = 10)]
    units: usize,
    /// Professionals.
    #[arg(long, default_value_t = 50)]
    professionals: usize,
    /// Professionals of the big unit.
    #[arg(long, default_value_t = 20)]
    big_unit: usize,
    /// Clients.
    #[arg(long, default_value_t = 20_000)]
    clients: usize,
    /// Appointments.
    #[arg(long, default_value_t = 100_000)]
    appointments: usize,
    /// Seed of the data and of the load's choices.
    #[arg(long, default_value_t = 2026)]
    seed: u64,

    /// Concurrent clients of the booking load (and of pgbench).
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// Seconds of booking load measured.
    #[arg(long, default_value_t = 20)]
    booking_seconds: u64,
    /// Seconds of warm-up before each measured loop (not counted).
    #[arg(long, default_value_t = 3)]
    warmup_seconds: u64,
    /// One booking in N is followed by a read of the day agenda at its position.
    #[arg(long, default_value_t = 10)]
    lag_every: u64,
    /// Share of bookings for a slot picked without looking at free times.
    #[arg(long, default_value_t = 0.2)]
    stale_share: f64,
    /// Seconds of pgbench.
    #[arg(long, default_value_t = 10)]
    pgbench_seconds: u64,
    /// Seconds of the free-times reader.
    #[arg(long, default_value_t = 10)]
    read_seconds: u64,
    /// Concurrent clients of the free-times reader.
    #[arg(long, default_value_t = 1)]
    read_concurrency: usize,
    /// Client counts of the day-agenda ramp.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32")]
    agenda_levels: Vec<usize>,
    /// Seconds of each day-agenda step.
    #[arg(long, default_value_t = 5)]
    agenda_step_seconds: u64,
    /// SQL to run after the migrations, to try a change (an index, a setting) without
    /// touching the services; the results record it. Not for figures of record.
    #[arg(long)]
    extra_sql: Option<PathBuf>,
    /// A small, short run to try the suite (2,000 clients, 10,000 appointments, short loads).
    #[arg(long)]
    quick: bool,
    /// Instead of the figures: a soak of mixed load (bookings and cancellations, agenda, free
    /// times, lists, the club, the home) that fails on any unexpected answer or on a
    /// service whose memory grows after the first minute.
    #[arg(long)]
    soak: bool,
    /// Stop after the rebuild of the read models, with its figures on stderr and no JSON:
    /// for trying a change to the projector's rebuild in about a minute.
    #[arg(long)]
    rebuild_only: bool,
    /// More businesses in the log beside the big one (issue 46, item 1): 1 to 5 units and 2
    /// to 12 professionals each, with clients and appointments in proportion. The phases
    /// still measure the big one.
    #[arg(long, default_value_t = 0)]
    businesses: usize,
    /// Instead of the figures: many open agenda streams over many businesses while bookings
    /// arrive (issue 46, item 3; bench/src/fanout.rs).
    #[arg(long)]
    fan_out: bool,
    /// Businesses opened beside the big one for the fan-out.
    #[arg(long, default_value_t = 100)]
    fan_out_businesses: usize,
    /// Agenda streams of the fan-out, spread evenly over its businesses.
    #[arg(long, default_value_t = 1_000)]
    fan_out_streams: usize,
    /// Bookings a second during the fan-out.
    #[arg(long, default_value_t = 200.0)]
    fan_out_rate: f64,
    /// Seconds of the fan-out's bookings.
    #[arg(long, default_value_t = 20)]
    fan_out_seconds: u64,
    /// Minutes of the soak.
    #[arg(long, default_value_t = 10)]
    soak_minutes: u64,
    /// Concurrent clients of the soak.
    #[arg(long, default_value_t = 8)]
    soak_clients: usize,
}

impl Cli {
    fn quick(mut self) -> Self {
        if self.quick {
            self.clients = self.clients.min(2_000);
            self.appointments = self.appointments.min(10_000);
            self.booking_seconds = self.booking_seconds.min(8);
            self.warmup_seconds = self.warmup_seconds.min(1);
            self.pgbench_seconds = self.pgbench_seconds.min(4);
            self.read_seconds = self.read_seconds.min(3);
            self.agenda_step_seconds = self.agenda_step_seconds.min(2);
        }
        self
    }
}

/// `url` with its database replaced by `database`.
fn with_database(url: &str, database: &str) -> anyhow::Result<String> {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let scheme_end = base.find("://").context("DATABASE_URL is not a URL")? + 3;
    let authority_end = base[scheme_end..].find('/').map_or(base.len(), |i| scheme_end + i);
    let mut out = format!("{}/{database}", &base[..authority_end]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    Ok(out)
}

/// Prints a step of the run.
fn step(text: &str) {
    eprintln!("\n==> {text}");
}

fn note(text: &str) {
    eprintln!("    {text}");
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse().quick();
    let mut services: Vec<Service> = Vec::new();
    let outcome = tokio::select! {
        outcome = run(&cli, &mut services) => outcome,
        signal = interrupted() => Err(anyhow::anyhow!("interrupted by {signal}")),
    };
    if !services.is_empty() {
        eprintln!("    stopping the services…");
        stack::stop_all(&mut services).await;
    }
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("\nnavalha-bench: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn interrupted() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut term), Ok(mut hup)) = (signal(SignalKind::terminate()), signal(SignalKind::hangup())) else {
        let _ = tokio::signal::ctrl_c().await;
        return "Ctrl-C";
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => "Ctrl-C",
        _ = term.recv() => "SIGTERM",
        _ = hup.recv() => "SIGHUP",
    }
}

/// The 1-minute load average: other work on the machine skews every figure.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// A peak in KB as `12.3 MB`, or `-`.
fn megabytes(kb: Option<u64>) -> String {
    kb.map_or("-".to_owned(), |kb| format!("{:.1} MB", kb as f64 / 1024.0))
}

/// CPU milliseconds per request by process, and what the machine's cores allow at that cost.
fn show_cpu(what: &str, cpu: &std::collections::BTreeMap<String, f64>) {
    let total = cpu.get("total").copied().unwrap_or(0.0);
    let parts: Vec<String> = cpu
        .iter()
        .filter(|(name, ms)| name.as_str() != "total" && **ms >= 0.005)
        .map(|(name, ms)| format!("{name} {ms:.2}"))
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    note(&format!(
        "CPU per {what} (ms): {} = {total:.2}, so {cores} cores allow at most ~{}/s",
        parts.join(", "),
        thousands(cores * 1000.0 / total.max(1e-9))
    ));
}

/// The top statements of a phase, briefly.
fn show_statements(top: &[Value], shown: usize) {
    let total: f64 = top.first().map_or(0.0, |s| {
        s["total_ms"].as_f64().unwrap_or(0.0) * 100.0 / s["share_percent"].as_f64().unwrap_or(100.0).max(1e-9)
    });
    note(&format!("statements by execution time (pg_stat_statements, {:.0} ms in all):", total));
    for statement in top.iter().take(shown) {
        let query: String = statement["query"].as_str().unwrap_or_default().chars().take(90).collect();
        note(&format!(
            "  {:>5.1} %  {:>7} calls  {:>7.2} ms mean  {query}",
            statement["share_percent"].as_f64().unwrap_or(0.0),
            statement["calls"].as_i64().unwrap_or(0),
            statement["mean_ms"].as_f64().unwrap_or(0.0),
        ));
    }
}

fn p(samples: &mut Samples, q: f64) -> Option<f64> {
    samples.percentile_ms(q)
}

async fn run(cli: &Cli, services: &mut Vec<Service>) -> anyhow::Result<()> {
    let started_at = Utc::now();
    if cli.units == 0 || cli.professionals == 0 || cli.clients == 0 {
        bail!("--units, --professionals and --clients must be at least 1");
    }
    let work = std::env::temp_dir().join(format!("navalha-bench-{}", std::process::id()));
    std::fs::create_dir_all(work.join("outbox"))?;
    std::fs::create_dir_all(work.join("media"))?;
    std::fs::create_dir_all(&cli.log_dir)?;
    let result = measure(cli, services, &work, started_at).await;
    let _ = std::fs::remove_dir_all(&work);
    result
}

/// The run, phase by phase; each prints as it goes and hands on what the later ones need.
async fn measure(
    cli: &Cli,
    services: &mut Vec<Service>,
    work: &Path,
    started_at: DateTime<Utc>,
) -> anyhow::Result<()> {
    let mut bench = Bench::open(cli, work, started_at).await?;
    let month = setup::generate_data(&bench).await?;
    let mut loaded = setup::append_events(&bench, &month).await?;
    let mut desks = Vec::new();
    if cli.businesses > 0 {
        let tenants = tenants::load(&bench, &month, cli.businesses).await?;
        desks = tenants.desks;
        loaded.report.events += tenants.events;
        loaded.report.seconds += tenants.seconds;
        sqlx::query("vacuum analyze events, appointment_slot, unique_claim").execute(&bench.pool).await?;
        loaded.sizes = checks::sizes(&bench.pool).await?;
        loaded.log_events = loaded.sizes["events"].as_i64().unwrap_or(0);
    }
    let shops = match cli.fan_out {
        true => fanout::open_shops(&bench, &month, cli.fan_out_businesses).await?,
        false => Vec::new(),
    };
    let rebuild = setup::rebuild(&mut bench, loaded.log_events).await?;
    if cli.rebuild_only {
        return Ok(());
    }
    let running = setup::start_services(&bench, services).await?;
    let builder = &loaded.builder;
    if cli.soak {
        return phases::soak(&bench, &running, &month, builder).await;
    }
    if cli.fan_out {
        return fanout::run(&bench, &running, shops).await;
    }

    let pgbench = phases::pgbench_ceiling(&bench).await?;
    let booking = phases::bookings(&mut bench, &running, &month, builder).await?;
    let doubles = phases::double_bookings(&bench, booking.stats.last_position).await?;
    bench.reset_statements().await?;
    let free_times = phases::free_times(&bench, &running, &month, builder).await?;
    let agenda = phases::day_agenda(&bench, &running, &month, builder).await?;
    let home = phases::home(&bench, &running, builder).await?;
    let uncached = phases::uncached(&bench, &running, &month, builder).await?;
    bench.keep_statements("reads", 15).await?;
    let counter = counter::counter(&bench, &running, &month, builder).await?;
    let mixed = match desks.is_empty() {
        true => None,
        false => Some(tenants::mixed(&mut bench, &running, &month, desks).await?),
    };
    if let Some(top) = bench.profile("reads") {
        show_statements(top, 6);
    }
    let memory = phases::memory(&bench, &running).await?;

    let figures =
        Figures { pgbench, booking, doubles, free_times, agenda, home, uncached, counter, mixed, memory };
    summary::print_and_save(&bench, &month, &loaded, &rebuild, figures)?;
    bench.pool.close().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_in_a_url_is_replaced() {
        let r = |url: &str| with_database(url, "navalha_bench").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            r("postgres://postgres@127.0.0.1:55433/postgres"),
            "postgres://postgres@127.0.0.1:55433/navalha_bench"
        );
        assert_eq!(
            r("postgres://u:p@h:5432/db?sslmode=disable"),
            "postgres://u:p@h:5432/navalha_bench?sslmode=disable"
        );
        assert_eq!(r("postgres://h"), "postgres://h/navalha_bench");
        assert!(with_database("nonsense", "x").is_err());
    }

    #[test]
    fn quick_shrinks_the_run() {
        let cli = Cli::parse_from(["navalha-bench", "--database-url", "postgres://h/db", "--quick"]).quick();
        assert_eq!((cli.clients, cli.appointments), (2_000, 10_000));
        let cli = Cli::parse_from(["navalha-bench", "--database-url", "postgres://h/db"]).quick();
        assert_eq!((cli.clients, cli.appointments, cli.concurrency), (20_000, 100_000, 64));
    }
}
