//! What the bench measures of the services it runs: CPU time and peak memory per process.
//! Running them is `navalha_harness::process`, shared with the resilience tests.

use std::collections::BTreeMap;

pub use navalha_harness::process::{free_addr, stop_all, vm_rss, wait_healthy, Launcher, Service};

/// Fields of `/proc/PID/stat` the CPU accounting needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcStat {
    /// Parent process.
    pub ppid: u32,
    /// User and system time, in clock ticks.
    pub ticks: u64,
    /// User and system time of waited-for children, in clock ticks.
    pub children_ticks: u64,
}

/// Reads `/proc/PID/stat`: the command may hold spaces and parentheses, so fields are
/// counted after the last `)`.
pub fn parse_stat(text: &str) -> Option<ProcStat> {
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // fields[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14-17.
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
    Some(ProcStat {
        ppid: u32::try_from(field(4)?).ok()?,
        ticks: field(14)? + field(15)?,
        children_ticks: field(16)? + field(17)?,
    })
}

fn proc_stat(pid: u32) -> Option<ProcStat> {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).ok().as_deref().and_then(parse_stat)
}

/// Clock ticks per second (`getconf CLK_TCK`; 100 on Linux when unknown).
pub fn clock_ticks() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0)
}

/// CPU seconds used so far by each service, by this process ("navalha-bench"), and by the
/// PostgreSQL cluster whose postmaster is `postmaster` ("postgres": the postmaster, its
/// live children, and the children it has reaped).
pub fn cpu_snapshot(
    services: &[Service],
    postmaster: Option<u32>,
    ticks_per_second: f64,
) -> BTreeMap<String, f64> {
    let mut cpu = BTreeMap::new();
    let seconds = |ticks: u64| ticks as f64 / ticks_per_second;
    for service in services {
        if let Some(stat) = service.pid().and_then(proc_stat) {
            cpu.insert(service.name.to_owned(), seconds(stat.ticks));
        }
    }
    if let Some(stat) = proc_stat(std::process::id()) {
        cpu.insert("navalha-bench".to_owned(), seconds(stat.ticks));
    }
    if let Some(postmaster) = postmaster.and_then(|pid| proc_stat(pid).map(|s| (pid, s))) {
        let (pid, own) = postmaster;
        let mut ticks = own.ticks + own.children_ticks;
        if let Ok(entries) = std::fs::read_dir("/proc") {
            for entry in entries.flatten() {
                let Some(child) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
                    continue;
                };
                if let Some(stat) = proc_stat(child).filter(|s| s.ppid == pid) {
                    ticks += stat.ticks;
                }
            }
        }
        cpu.insert("postgres".to_owned(), seconds(ticks));
    }
    cpu
}

/// CPU seconds used so far by each process of the cluster that `pg_stat_activity` lists,
/// by process id, with whom it works for: a client backend by its `application_name` (the
/// services name their connections: `command-api`, `projector`, `query-api`), any other
/// process by its kind (`walwriter`, `autovacuum worker`, ...).
pub async fn postgres_cpu_by_process(
    pool: &sqlx::PgPool,
    ticks_per_second: f64,
) -> anyhow::Result<BTreeMap<u32, (String, f64)>> {
    let rows: Vec<(i32, String)> = sqlx::query_as(
        "select pid, case when backend_type <> 'client backend' then backend_type
                          when application_name = '' then 'other clients'
                          else application_name end
           from pg_stat_activity",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(pid, name)| {
            let pid = u32::try_from(pid).ok()?;
            Some((pid, (name, proc_stat(pid)?.ticks as f64 / ticks_per_second)))
        })
        .collect())
}

/// PostgreSQL's CPU milliseconds per request between two [`postgres_cpu_by_process`]
/// snapshots, by whom it worked for. A process that ended in between is missing (a
/// connection closed, an autovacuum worker done): the sum can fall short of the cluster's.
pub fn postgres_cpu_per_request(
    before: &BTreeMap<u32, (String, f64)>,
    after: &BTreeMap<u32, (String, f64)>,
    requests: u64,
) -> BTreeMap<String, f64> {
    let mut per = BTreeMap::new();
    for (pid, (name, end)) in after {
        let start = before.get(pid).map_or(0.0, |(_, start)| *start);
        *per.entry(name.clone()).or_insert(0.0) += (end - start) * 1000.0 / requests.max(1) as f64;
    }
    per
}

/// The parent of a process (the postmaster of a backend).
pub fn parent_of(pid: u32) -> Option<u32> {
    proc_stat(pid).map(|s| s.ppid)
}

/// CPU milliseconds per request between two snapshots, by process, and their total.
pub fn cpu_per_request(
    before: &BTreeMap<String, f64>,
    after: &BTreeMap<String, f64>,
    requests: u64,
) -> BTreeMap<String, f64> {
    let mut per: BTreeMap<String, f64> = after
        .iter()
        .filter_map(|(name, end)| {
            let start = before.get(name)?;
            Some((name.clone(), (end - start) * 1000.0 / requests.max(1) as f64))
        })
        .collect();
    let total = per.values().sum();
    per.insert("total".to_owned(), total);
    per
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpu_ticks_and_the_parent() {
        let text =
            "4242 (postgres: x (y) idle) S 4100 4100 4100 0 -1 4194560 500 0 0 0 120 30 7 3 20 0 1 0 1";
        assert_eq!(parse_stat(text), Some(ProcStat { ppid: 4100, ticks: 150, children_ticks: 10 }));
        assert_eq!(parse_stat("garbage"), None);
        assert!(proc_stat(std::process::id()).is_some());
        let before = BTreeMap::from([("postgres".to_owned(), 1.0), ("command-api".to_owned(), 2.0)]);
        let after = BTreeMap::from([("postgres".to_owned(), 3.0), ("command-api".to_owned(), 3.0)]);
        let per = cpu_per_request(&before, &after, 1000);
        assert_eq!(per.get("postgres"), Some(&2.0));
        assert_eq!(per.get("command-api"), Some(&1.0));
        assert_eq!(per.get("total"), Some(&3.0));
    }

    #[test]
    fn postgres_cpu_is_summed_by_client_and_a_new_process_counts_from_its_start() {
        let before =
            BTreeMap::from([(10, ("command-api".to_owned(), 1.0)), (11, ("command-api".to_owned(), 2.0))]);
        let after = BTreeMap::from([
            (10, ("command-api".to_owned(), 1.5)),
            (11, ("command-api".to_owned(), 3.0)),
            (12, ("projector".to_owned(), 0.25)),
        ]);
        let per = postgres_cpu_per_request(&before, &after, 500);
        assert_eq!(per.get("command-api"), Some(&3.0));
        assert_eq!(per.get("projector"), Some(&0.5));
    }
}
