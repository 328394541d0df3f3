//! The database's own ceiling for this workload's shape: pgbench committing one-row
//! INSERTs with the same number of clients, on the same database and cluster settings.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use sqlx::PgPool;

/// Where pgbench is: `NAVALHA_PGBENCH` (the launcher finds it next to the PostgreSQL
/// binaries it uses), else on PATH, else under Debian's `/usr/lib/postgresql/*/bin`.
pub fn find(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(path) = explicit {
        return path.is_file().then(|| path.to_path_buf());
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("pgbench"))
        .find(|p| p.is_file());
    on_path.or_else(|| {
        let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin/pgbench")))
            .filter(|p| p.is_file())
            .collect();
        found.sort();
        found.pop()
    })
}

/// What pgbench reported.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PgbenchResult {
    /// Transactions per second (without the initial connection time).
    pub tps: f64,
    /// Mean latency in ms.
    pub latency_ms: Option<f64>,
    /// Transactions processed.
    pub transactions: Option<u64>,
}

/// Reads pgbench's summary.
pub fn parse(output: &str) -> Option<PgbenchResult> {
    let value_after = |prefix: &str| {
        output
            .lines()
            .find_map(|line| line.trim().strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()))
    };
    let tps = output
        .lines()
        .filter(|line| line.trim_start().starts_with("tps = "))
        .find(|line| {
            line.contains("without initial connection time") || line.contains("excluding connections")
        })
        .or_else(|| output.lines().find(|line| line.trim_start().starts_with("tps = ")))
        .and_then(|line| line.trim().strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())?;
    let transactions = output
        .lines()
        .find_map(|line| line.trim().strip_prefix("number of transactions actually processed: "))
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok());
    Some(PgbenchResult { tps, latency_ms: value_after("latency average ="), transactions })
}

/// The table pgbench inserts into, and its script.
pub const SCRIPT: &str = "insert into bench_pgbench_insert (payload) values ('{\"kind\":\"pgbench\"}');\n";

/// Runs pgbench: `clients` connections (as many threads as cores), `seconds` long, prepared
/// statements (as sqlx uses), each transaction one INSERT committed on its own.
pub async fn run(
    pgbench: &Path,
    pool: &PgPool,
    url: &str,
    clients: usize,
    seconds: u64,
    dir: &Path,
) -> anyhow::Result<(PgbenchResult, String)> {
    sqlx::query(
        "create table if not exists bench_pgbench_insert (
             id bigint generated always as identity primary key,
             payload jsonb not null,
             at timestamptz not null default now())",
    )
    .execute(pool)
    .await?;
    let script = dir.join("one-row-insert.sql");
    std::fs::write(&script, SCRIPT)?;
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(clients.max(1));
    let output = tokio::process::Command::new(pgbench)
        .args(["-n", "-M", "prepared", "-c", &clients.to_string(), "-j", &threads.to_string()])
        .args(["-T", &seconds.to_string(), "-f"])
        .arg(&script)
        .arg(url)
        .output()
        .await
        .with_context(|| format!("running {}", pgbench.display()))?;
    let text =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    if !output.status.success() {
        bail!("pgbench failed ({}):\n{text}", output.status);
    }
    let result = parse(&text).with_context(|| format!("reading pgbench's output:\n{text}"))?;
    sqlx::query("drop table bench_pgbench_insert").execute(pool).await?;
    Ok((result, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pgbench_15_and_16_summaries() {
        let v15 = "transaction type: one-row-insert.sql\nscaling factor: 1\nquery mode: prepared\n\
                   number of clients: 64\nnumber of threads: 2\nmaximum number of tries: 1\nduration: 10 s\n\
                   number of transactions actually processed: 43210\nnumber of failed transactions: 0 (0.000%)\n\
                   latency average = 14.812 ms\ninitial connection time = 45.118 ms\n\
                   tps = 4321.001234 (without initial connection time)\n";
        let r = parse(v15).unwrap_or_else(|| panic!("unparsed"));
        assert_eq!(r.tps, 4321.001234);
        assert_eq!(r.latency_ms, Some(14.812));
        assert_eq!(r.transactions, Some(43210));
        let v13 = "number of transactions actually processed: 100/100\nlatency average = 1.5 ms\n\
                   tps = 650.1 (including connections establishing)\ntps = 700.5 (excluding connections establishing)\n";
        let r = parse(v13).unwrap_or_else(|| panic!("unparsed"));
        assert_eq!(r.tps, 700.5);
        assert_eq!(r.transactions, Some(100));
        assert_eq!(parse("nothing"), None);
    }
}
