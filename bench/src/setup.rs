//! The phases before the figures: a fresh database, the month of data in its log, the read
//! models rebuilt from it, and the services started on it.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

use crate::events::{EventBuilder, BENCH_BUSINESS_ID};
use crate::load::LoadReport;
use crate::report::thousands;
use crate::stack::{self, Launcher, Service};
use crate::workload::{self, Api};
use crate::{
    checks, dataset, load, load_average, megabytes, note, show_statements, step, with_database, Cli, Dataset,
    ADMIN_EMAIL, ADMIN_PASSWORD,
};

/// What every phase shares: the run's settings, its database, and the statement profiles
/// the results keep.
pub struct Bench<'a> {
    pub cli: &'a Cli,
    pub work: &'a Path,
    pub started_at: DateTime<Utc>,
    /// The bench database.
    pub url: String,
    pub pool: PgPool,
    launcher: Launcher,
    /// Chosen before the launcher, whose environment names them.
    command_addr: SocketAddr,
    query_addr: SocketAddr,
    projector_addr: SocketAddr,
    pub machine: Value,
    /// The `--extra-sql` that ran, for the results.
    pub extra_sql: Option<String>,
    /// Whether pg_stat_statements can profile the phases.
    statements: bool,
    /// The top statements of each profiled phase.
    pub statement_profiles: serde_json::Map<String, Value>,
}

impl<'a> Bench<'a> {
    /// Creates and migrates the database, loads the demo data and describes the machine.
    pub async fn open(cli: &'a Cli, work: &'a Path, started_at: DateTime<Utc>) -> anyhow::Result<Bench<'a>> {
        let url = create_database(cli).await?;
        let (command_addr, query_addr, projector_addr) =
            (stack::free_addr()?, stack::free_addr()?, stack::free_addr()?);
        let launcher = Launcher {
            bin_dir: cli.bin_dir.clone(),
            log_dir: cli.log_dir.clone(),
            env: vec![
                ("DATABASE_URL".to_owned(), url.clone()),
                ("NAVALHA_COMMAND_LISTEN".to_owned(), command_addr.to_string()),
                ("NAVALHA_QUERY_LISTEN".to_owned(), query_addr.to_string()),
                ("NAVALHA_PROJECTOR_HEALTH_LISTEN".to_owned(), projector_addr.to_string()),
                ("NAVALHA_OUTBOX_DIR".to_owned(), work.join("outbox").display().to_string()),
                ("NAVALHA_MEDIA_DIR".to_owned(), work.join("media").display().to_string()),
            ],
        };
        for name in ["command-api", "query-api", "projector"] {
            let _ = std::fs::remove_file(launcher.log(name));
        }
        note(&format!("logs: {}", cli.log_dir.display()));
        step("migrating and loading the demo data (command-api migrate, seed-demo)");
        launcher.run("command-api", &["migrate"], "migrate").await?;
        launcher.run("command-api", &["seed-demo"], "seed-demo").await?;
        let pool = PgPoolOptions::new().max_connections(4).connect(&url).await?;
        let extra_sql = run_extra_sql(cli, &pool).await?;
        let machine = machine(&pool).await;
        let statements = checks::statements_available(&pool).await;
        describe_machine(&machine);
        Ok(Bench {
            cli,
            work,
            started_at,
            url,
            pool,
            launcher,
            command_addr,
            query_addr,
            projector_addr,
            machine,
            extra_sql,
            statements,
            statement_profiles: serde_json::Map::new(),
        })
    }

    /// Opens a business with its first admin as an operator does (`command-api
    /// open-business`): its id, the admin's, and the token of the admin's registration link.
    pub async fn open_business(
        &self,
        name: &str,
        admin_name: &str,
        email: &str,
        cpf: &str,
    ) -> anyhow::Result<OpenedBusiness> {
        let args = [
            "open-business",
            "--name",
            name,
            "--admin-name",
            admin_name,
            "--admin-email",
            email,
            "--admin-cpf",
            cpf,
            "--admin-phone",
            "(11) 9 8000-4600",
        ];
        let (printed, _) = self.launcher.run_captured("command-api", &args, &[]).await?;
        OpenedBusiness::parse(&printed).with_context(|| format!("open-business printed: {printed}"))
    }

    /// Starts a phase's statement profile.
    pub async fn reset_statements(&self) -> anyhow::Result<()> {
        if self.statements {
            checks::statements_reset(&self.pool).await?;
        }
        Ok(())
    }

    /// Keeps the top `limit` statements since the last reset as `phase`'s profile.
    pub async fn keep_statements(&mut self, phase: &str, limit: i64) -> anyhow::Result<()> {
        if self.statements {
            let top = checks::top_statements(&self.pool, limit).await?;
            self.statement_profiles.insert(phase.to_owned(), Value::Array(top));
        }
        Ok(())
    }

    /// `phase`'s profile, when kept.
    pub fn profile(&self, phase: &str) -> Option<&[Value]> {
        self.statement_profiles.get(phase).and_then(Value::as_array).map(Vec::as_slice)
    }
}

/// (Re)creates the bench database; returns its URL.
async fn create_database(cli: &Cli) -> anyhow::Result<String> {
    step(&format!("creating the database {}", cli.database));
    let admin_pool = PgPoolOptions::new()
        .max_connections(1)
        .connect(&cli.database_url)
        .await
        .context("connecting to DATABASE_URL")?;
    sqlx::query(&format!("drop database if exists \"{}\" with (force)", cli.database))
        .execute(&admin_pool)
        .await?;
    sqlx::query(&format!("create database \"{}\"", cli.database)).execute(&admin_pool).await?;
    admin_pool.close().await;
    with_database(&cli.database_url, &cli.database)
}

/// Runs `--extra-sql`, if given; returns it for the results.
async fn run_extra_sql(cli: &Cli, pool: &PgPool) -> anyhow::Result<Option<String>> {
    let Some(path) = &cli.extra_sql else { return Ok(None) };
    let sql = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    note(&format!("what-if: running {} after the migrations (not the repository's schema)", path.display()));
    sqlx::raw_sql(&sql).execute(pool).await.with_context(|| format!("running {}", path.display()))?;
    Ok(Some(sql))
}

/// Everything about the machine that colours the figures.
async fn machine(pool: &PgPool) -> Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|t| {
        t.lines().find_map(|l| {
            l.strip_prefix("model name").map(|r| r.trim_start_matches([' ', '\t', ':']).to_owned())
        })
    });
    let memory_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        t.lines().find_map(|l| {
            l.strip_prefix("MemTotal:").and_then(|r| r.split_whitespace().next()?.parse::<u64>().ok())
        })
    });
    let setting = |name: &'static str| async move {
        sqlx::query_scalar::<_, String>(&format!("show {name}")).fetch_one(pool).await.ok()
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    json!({
        "load_average_at_start": load_average(),
        "cores": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "cpu": cpu,
        "memory_mb": memory_kb.map(|kb| kb / 1024),
        "postgresql": setting("server_version").await,
        "fsync": setting("fsync").await,
        "synchronous_commit": setting("synchronous_commit").await,
        "shared_buffers": setting("shared_buffers").await,
        "max_connections": setting("max_connections").await,
        "commit": git(&["rev-parse", "--short", "HEAD"]),
        "uncommitted_changes": git(&["status", "--porcelain"]).map(|s| !s.is_empty()),
    })
}

fn describe_machine(machine: &Value) {
    if let (Some(load), Some(cores)) = (machine["load_average_at_start"].as_f64(), machine["cores"].as_f64())
    {
        if load > cores / 2.0 {
            note(&format!(
                "warning: the machine is busy (load average {load:.1} on {cores} cores): other work skews every figure"
            ));
        }
    }
    note(&format!(
        "{} cores ({}), PostgreSQL {}, fsync {}, synchronous_commit {}",
        machine["cores"],
        machine["cpu"].as_str().unwrap_or("?"),
        machine["postgresql"].as_str().unwrap_or("?"),
        machine["fsync"].as_str().unwrap_or("?"),
        machine["synchronous_commit"].as_str().unwrap_or("?"),
    ));
}

/// A business `command-api open-business` opened.
#[derive(Debug, PartialEq, Eq)]
pub struct OpenedBusiness {
    pub business_id: i64,
    pub admin_id: i64,
    /// The token of the admin's registration link (`complete-register=`).
    pub invite: String,
}

impl OpenedBusiness {
    /// From what the command prints: `business 7 opened; its admin (IdProfessional 812)
    /// sets a password at:` and the link.
    /// Its log lines come before.
    fn parse(printed: &str) -> Option<OpenedBusiness> {
        let line = printed.lines().find(|l| l.starts_with("business ") && l.contains("(IdProfessional "))?;
        let (business, rest) = line.strip_prefix("business ")?.split_once(" opened")?;
        let (_, rest) = rest.split_once("(IdProfessional ")?;
        let (admin, _) = rest.split_once(')')?;
        let invite = printed.split("complete-register=").nth(1)?.split_whitespace().next()?;
        Some(OpenedBusiness {
            business_id: business.trim().parse().ok()?,
            admin_id: admin.trim().parse().ok()?,
            invite: invite.to_owned(),
        })
    }
}

/// The generated data set, dated from the database's today, and what the results say of it.
pub struct Month {
    pub data: Dataset,
    pub today: NaiveDate,
    /// First and last day of the month around today.
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// Appointments within the month.
    pub in_month: usize,
    /// Appointments after today.
    pub future: usize,
    pub cancelled: usize,
    pub big_unit_staff: usize,
}

impl Month {
    /// Every day of the month around today, in order.
    pub fn days(&self) -> Vec<NaiveDate> {
        (0..dataset::MONTH_BEFORE + dataset::MONTH_AFTER)
            .map(|d| self.from + chrono::Duration::days(d))
            .collect()
    }
}

pub async fn generate_data(bench: &Bench<'_>) -> anyhow::Result<Month> {
    let cli = bench.cli;
    step("generating the data set");
    let (today, now): (NaiveDate, NaiveDateTime) = sqlx::query_as(
        "select (now() at time zone 'America/Sao_Paulo')::date, (now() at time zone 'UTC')::timestamp",
    )
    .fetch_one(&bench.pool)
    .await?;
    let params = dataset::Params {
        units: cli.units,
        professionals: cli.professionals,
        big_unit_professionals: cli.big_unit,
        clients: cli.clients,
        appointments: cli.appointments,
        seed: cli.seed,
        namespace: 0,
    };
    let data = Dataset::generate(&params, today, now);
    let from = today - chrono::Duration::days(dataset::MONTH_BEFORE);
    let to = today + chrono::Duration::days(dataset::MONTH_AFTER - 1);
    let in_month = data.visits.iter().filter(|v| v.date >= from && v.date <= to).count();
    let future = data.visits.iter().filter(|v| v.date > today).count();
    let cancelled = data.visits.iter().filter(|v| v.cancelled).count();
    let big_unit_staff = data.staff.iter().filter(|s| s.unit == 0).count();
    note(&format!(
        "{} units ({} professionals in the big one), {} professionals, {} clients",
        data.units.len(),
        big_unit_staff,
        data.staff.len(),
        thousands(data.customers.len() as f64)
    ));
    note(&format!(
        "{} appointments from {} to {}: {} in the month {from}..{to} ({} after today), {} cancelled",
        thousands(data.visits.len() as f64),
        data.first_day,
        data.last_day,
        thousands(in_month as f64),
        thousands(future as f64),
        thousands(cancelled as f64),
    ));
    if data.visits.len() > in_month {
        note("(a month of 50 professionals' working hours holds far fewer than 100,000 appointments: the rest is earlier history)");
    }
    Ok(Month { data, today, from, to, in_month, future, cancelled, big_unit_staff })
}

/// The month in the log: who built its events (later phases book with the same ids), and
/// what loading them took.
pub struct Loaded<'d> {
    pub builder: EventBuilder<'d>,
    pub report: LoadReport,
    pub sizes: Value,
    pub log_events: i64,
}

pub async fn append_events<'d>(bench: &Bench<'_>, month: &'d Month) -> anyhow::Result<Loaded<'d>> {
    let (pool, data) = (&bench.pool, &month.data);
    step("appending the events in bulk");
    let ids = load::reserve_ids(pool, data).await?;
    let actor = load::demo_admin(pool, ADMIN_EMAIL).await?;
    let builder = EventBuilder::new(data, ids, actor.clone(), BENCH_BUSINESS_ID);
    let report = load::append_all(pool, &builder, data).await?;
    load::admit_admin(pool, &builder, &actor, data.units.len()).await?;
    note(&format!(
        "{} events in {:.1} s ({} events/s, triggers included)",
        thousands(report.events as f64),
        report.seconds,
        thousands(report.events as f64 / report.seconds)
    ));
    let vacuum = Instant::now();
    sqlx::query("vacuum analyze events, appointment_slot, unique_claim").execute(pool).await?;
    note(&format!("vacuum analyze in {:.1} s", vacuum.elapsed().as_secs_f64()));
    let sizes = checks::sizes(pool).await?;
    let log_events = sizes["events"].as_i64().unwrap_or(0);
    Ok(Loaded { builder, report, sizes, log_events })
}

/// What `projector rebuild` took, in all and by read model (name, events, seconds).
pub struct Rebuild {
    pub seconds: f64,
    /// Log events per second.
    pub rate: f64,
    pub models: Vec<(String, u64, f64)>,
    pub peak_kb: Option<u64>,
}

pub async fn rebuild(bench: &mut Bench<'_>, log_events: i64) -> anyhow::Result<Rebuild> {
    step(&format!(
        "rebuilding every read model from the log ({} events): projector rebuild",
        thousands(log_events as f64)
    ));
    bench.reset_statements().await?;
    let started = Instant::now();
    let (output, peak_kb) =
        bench.launcher.run_captured("projector", &["rebuild"], &[("RUST_LOG", "warn")]).await?;
    let seconds = started.elapsed().as_secs_f64();
    let models = parse_rebuild(&output);
    for (name, events, seconds) in &models {
        note(&format!(
            "{name:>16}: {} events in {seconds:.2} s ({} events/s)",
            thousands(*events as f64),
            thousands(*events as f64 / seconds.max(1e-9))
        ));
    }
    let rate = log_events as f64 / seconds;
    bench.keep_statements("rebuild", 15).await?;
    if let Some(top) = bench.profile("rebuild") {
        show_statements(top, if bench.cli.rebuild_only { 15 } else { 6 });
    }
    note(&format!("all {} models: {:.1} s wall, {} log events/s", models.len(), seconds, thousands(rate)));
    note(&format!("projector rebuild peaked at {}", megabytes(peak_kb)));
    Ok(Rebuild { seconds, rate, models, peak_kb })
}

/// Per-model lines of `projector rebuild`: `name: N events in S s (R events/s)`.
fn parse_rebuild(output: &str) -> Vec<(String, u64, f64)> {
    output
        .lines()
        .filter_map(|line| {
            let (name, rest) = line.split_once(':')?;
            let mut words = rest.split_whitespace();
            let events = words.next()?.parse().ok()?;
            (words.next()? == "events" && words.next()? == "in").then_some(())?;
            let seconds = words.next()?.parse().ok()?;
            Some((name.trim().to_owned(), events, seconds))
        })
        .collect()
}

/// The services up and signed in to, with what their CPU accounting needs.
pub struct Running<'s> {
    pub services: &'s [Service],
    pub api: Api,
    ticks: f64,
    /// Of the cluster, to count its backends' CPU.
    postmaster: Option<u32>,
}

impl Running<'_> {
    /// CPU seconds so far by process (see [`stack::cpu_snapshot`]).
    pub fn cpu(&self) -> BTreeMap<String, f64> {
        stack::cpu_snapshot(self.services, self.postmaster, self.ticks)
    }

    /// CPU milliseconds per request since `before`, by process.
    pub fn cpu_since(&self, before: &BTreeMap<String, f64>, requests: u64) -> BTreeMap<String, f64> {
        stack::cpu_per_request(before, &self.cpu(), requests)
    }

    /// PostgreSQL's CPU seconds so far by backend (see [`stack::postgres_cpu_by_process`]).
    pub async fn postgres_cpu(&self, pool: &PgPool) -> anyhow::Result<BTreeMap<u32, (String, f64)>> {
        stack::postgres_cpu_by_process(pool, self.ticks).await
    }
}

/// Starts the services into `services` (which `main` stops, even when interrupted).
pub async fn start_services<'s>(
    bench: &Bench<'_>,
    services: &'s mut Vec<Service>,
) -> anyhow::Result<Running<'s>> {
    step("starting projector, query-api and command-api (release build)");
    let launcher = &bench.launcher;
    let client = workload::http_client()?;
    // Logs go on from run to run: what this run's command-api writes starts here.
    let command_log_from = std::fs::metadata(launcher.log("command-api")).map_or(0, |m| m.len());
    services.push(launcher.start("projector", &["run"], bench.projector_addr).await?);
    services.push(launcher.start("query-api", &["serve"], bench.query_addr).await?);
    services.push(launcher.start("command-api", &["serve"], bench.command_addr).await?);
    for service in services.iter_mut() {
        stack::wait_healthy(&client, service, Duration::from_secs(60)).await?;
        note(&format!("{} ready on {} (pid {})", service.name, service.addr, service.pid().unwrap_or(0)));
    }
    first_notice_pass(&launcher.log("command-api"), command_log_from).await?;
    let ticks = stack::clock_ticks();
    let backend: i32 = sqlx::query_scalar("select pg_backend_pid()").fetch_one(&bench.pool).await?;
    let postmaster = u32::try_from(backend).ok().and_then(stack::parent_of);
    let command = format!("http://{}/api", bench.command_addr);
    let query = format!("http://{}/api", bench.query_addr);
    let token = workload::sign_in(&client, &command, ADMIN_EMAIL, ADMIN_PASSWORD).await?;
    let api = Api { client: client.clone(), command, query, token };
    Ok(Running { services, api, ticks, postmaster })
}

/// Waits for command-api's first notice pass, which reads every appointment event of its
/// window: after the bulk load that is the whole log (a restore's or an import's case), and
/// measuring meanwhile would count that catch-up in every phase's CPU per answer.
async fn first_notice_pass(log: &Path, from: u64) -> anyhow::Result<()> {
    const ENDED: &str = "notices: the first pass over the window ended";
    let started = Instant::now();
    loop {
        let text = std::fs::read(log).unwrap_or_default();
        let written = String::from_utf8_lossy(text.get(from as usize..).unwrap_or_default());
        if let Some(line) = written.lines().find(|line| line.contains(ENDED)) {
            note(&format!(
                "command-api's first notice pass: {}",
                line.split(ENDED).nth(1).unwrap_or("").trim()
            ));
            return Ok(());
        }
        if started.elapsed() > Duration::from_secs(1800) {
            anyhow::bail!("command-api's first notice pass had not ended after 30 min; {}", log.display());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_open_business_prints_is_read() {
        let printed = "2026-11-28T16:07:49.656711Z  INFO business opened business_id=7\n\
                       business 7 opened; its admin (IdProfessional 812) sets a password at:\n\
                       http://localhost:8080/sign-up-password?complete-register=abc-123\n";
        let opened = OpenedBusiness::parse(printed);
        assert_eq!(
            opened,
            Some(OpenedBusiness { business_id: 7, admin_id: 812, invite: "abc-123".to_owned() })
        );
        assert_eq!(OpenedBusiness::parse("nothing"), None);
    }

    #[test]
    fn rebuild_lines_are_read() {
        let out = "              client: 130210 events in 2.50 s (52084 events/s)\n  agenda: 1 events in 0.01 s (100 events/s)\nnoise\n";
        assert_eq!(
            parse_rebuild(out),
            vec![("client".to_owned(), 130_210, 2.5), ("agenda".to_owned(), 1, 0.01)]
        );
    }
}
