//! The services as child processes: command-api, query-api, projector and gateway on free
//! 127.0.0.1 ports, with their logs in files. Every child is killed when its handle is
//! dropped, so an error or a panic never leaves one behind; `stop_all` asks them to shut
//! down gracefully first. Used by the bench and by the resilience tests.

use std::fs::File;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tokio::process::{Child, Command};

/// A free TCP port on 127.0.0.1 for a server, below the kernel's range for outgoing
/// connections. A port from that range can be taken while its server is down (a restart in
/// the resilience tests): by a client's outgoing connection, or by a connection to it that
/// Linux joins to itself. A tiny race remains until the service binds.
pub fn free_addr() -> anyhow::Result<SocketAddr> {
    let first_outgoing = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse::<u16>().ok())
        .unwrap_or(32768);
    let low = 10_000u16.min(first_outgoing / 2);
    let span = u32::from(first_outgoing - low);
    // Processes running at once start at different places, and so does each call in one
    // process (a port handed out is not bound until its service starts); each walks the span.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // Machine clock: a seed, not a date.
    let seed = std::process::id().wrapping_mul(2_654_435_761)
        ^ std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |t| t.subsec_nanos());
    for step in 0..span {
        let port = low + (seed.wrapping_add(call.wrapping_add(step).wrapping_mul(7919)) % span) as u16;
        if let Ok(listener) = TcpListener::bind(("127.0.0.1", port)) {
            return Ok(listener.local_addr()?);
        }
    }
    let listener = TcpListener::bind("127.0.0.1:0").context("finding a free port")?;
    Ok(listener.local_addr()?)
}

/// A memory field of `/proc/PID/status` (`VmHWM`, `VmRSS`, …) in kB.
pub fn parse_status_kb(status: &str, field: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kb| kb.parse().ok())
}

/// `VmHWM` of `/proc/PID/status` (peak resident memory) in kB.
pub fn parse_vm_hwm(status: &str) -> Option<u64> {
    parse_status_kb(status, "VmHWM")
}

fn status_kb(pid: u32, field: &str) -> Option<u64> {
    parse_status_kb(&std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?, field)
}

/// The peak resident memory of a running process, in kB.
pub fn vm_hwm(pid: u32) -> Option<u64> {
    status_kb(pid, "VmHWM")
}

/// The resident memory of a running process now, in kB.
pub fn vm_rss(pid: u32) -> Option<u64> {
    status_kb(pid, "VmRSS")
}

/// The last `lines` lines of a log, for error messages.
pub fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// How to run the services' binaries.
#[derive(Debug, Clone)]
pub struct Launcher {
    /// Where command-api, query-api and projector are.
    pub bin_dir: PathBuf,
    /// Where their logs go.
    pub log_dir: PathBuf,
    /// Environment for every child (DATABASE_URL, folders).
    pub env: Vec<(String, String)>,
}

/// A running service.
#[derive(Debug)]
pub struct Service {
    /// Its name.
    pub name: &'static str,
    /// Its address (HTTP, or the projector's health endpoint).
    pub addr: SocketAddr,
    /// Its log.
    pub log: PathBuf,
    /// What it was started with, to start it again.
    args: Vec<String>,
    env: Vec<(String, String)>,
    child: Child,
}

impl Service {
    /// Its process id.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Peak resident memory so far, in kB.
    pub fn peak_kb(&self) -> Option<u64> {
        self.pid().and_then(vm_hwm)
    }

    /// Where it answers 200 once ready.
    pub fn health_url(&self) -> String {
        let path = if self.name == "gateway" { "/gateway/health" } else { "/health" };
        format!("http://{}{path}", self.addr)
    }

    /// Sends `signal` (`KILL`, `TERM`, ...) and, for `KILL`, waits until the process is gone.
    pub async fn signal(&mut self, signal: &str) -> anyhow::Result<()> {
        let pid = self.pid().with_context(|| format!("{} is not running", self.name))?;
        send_signal(pid, signal);
        if signal == "KILL" {
            self.child.wait().await?;
        }
        Ok(())
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// No libc (unsafe is forbidden): the `kill` program sends the signal.
fn send_signal(pid: u32, signal: &str) {
    let _ = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

impl Launcher {
    fn command<A: AsRef<std::ffi::OsStr>>(
        &self,
        binary: &str,
        args: &[A],
        log: &Path,
    ) -> anyhow::Result<Command> {
        let path = self.bin_dir.join(binary);
        if !path.is_file() {
            bail!("{} not found: build the services first (cargo build)", path.display());
        }
        let out =
            File::options().create(true).append(true).open(log).with_context(|| log.display().to_string())?;
        let mut command = Command::new(path);
        command
            .args(args)
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .kill_on_drop(true);
        Ok(command)
    }

    /// The log file of `name`.
    pub fn log(&self, name: &str) -> PathBuf {
        self.log_dir.join(format!("{name}.log"))
    }

    /// Runs `binary args` to its end; fails with the log's tail when it fails.
    pub async fn run(&self, binary: &str, args: &[&str], log_name: &str) -> anyhow::Result<()> {
        let log = self.log(log_name);
        let status = self.command(binary, args, &log)?.status().await?;
        if !status.success() {
            bail!("{binary} {} failed ({status}); {}:\n{}", args.join(" "), log.display(), tail(&log, 20));
        }
        Ok(())
    }

    /// Runs `binary args` with stdout captured (stderr goes to the terminal: progress
    /// bars), sampling its peak memory. Returns the output and the peak in kB.
    pub async fn run_captured(
        &self,
        binary: &str,
        args: &[&str],
        extra_env: &[(&str, &str)],
    ) -> anyhow::Result<(String, Option<u64>)> {
        let path = self.bin_dir.join(binary);
        let mut command = Command::new(&path);
        command
            .args(args)
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .envs(extra_env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        let mut child = command.spawn().with_context(|| format!("starting {}", path.display()))?;
        let pid = child.id();
        let mut stdout = child.stdout.take().context("no stdout")?;
        let reader = tokio::spawn(async move {
            let mut text = String::new();
            tokio::io::AsyncReadExt::read_to_string(&mut stdout, &mut text).await.map(|_| text)
        });
        let mut peak = None;
        let status: ExitStatus = loop {
            if let Some(kb) = pid.and_then(vm_hwm) {
                peak = Some(kb);
            }
            tokio::select! {
                status = child.wait() => break status?,
                () = tokio::time::sleep(Duration::from_millis(200)) => {}
            }
        };
        let text = reader.await??;
        if !status.success() {
            bail!("{binary} {} failed ({status}):\n{text}", args.join(" "));
        }
        Ok((text, peak))
    }

    /// Starts a service that answers on `addr`; its log is `<name>.log`.
    pub async fn start(
        &self,
        name: &'static str,
        args: &[&str],
        addr: SocketAddr,
    ) -> anyhow::Result<Service> {
        self.start_as(name, name, args, addr, &[]).await
    }

    /// Starts `binary` as the service `name` (its log is `<name>.log`: several instances of
    /// one binary keep apart), with `env` on top of the launcher's.
    pub async fn start_as(
        &self,
        name: &'static str,
        binary: &str,
        args: &[&str],
        addr: SocketAddr,
        env: &[(&str, &str)],
    ) -> anyhow::Result<Service> {
        let env: Vec<(String, String)> =
            env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        let args: Vec<String> =
            std::iter::once(binary).chain(args.iter().copied()).map(str::to_owned).collect();
        let log = self.log(name);
        let child = self.spawn(&args, &env, &log).with_context(|| format!("starting {name}"))?;
        Ok(Service { name, addr, log, args, env, child })
    }

    /// Starts a stopped (or killed) service again, the same way; its log goes on.
    pub fn restart(&self, service: &mut Service) -> anyhow::Result<()> {
        service.child = self.spawn(&service.args, &service.env, &service.log)?;
        Ok(())
    }

    fn spawn(&self, args: &[String], env: &[(String, String)], log: &Path) -> anyhow::Result<Child> {
        let mut command = self.command(&args[0], &args[1..], log)?;
        command.envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        Ok(command.spawn()?)
    }
}

/// Waits until `http://addr/health` answers 200, at most `limit`; fails early when the
/// process exits.
pub async fn wait_healthy(
    client: &reqwest::Client,
    service: &mut Service,
    limit: Duration,
) -> anyhow::Result<()> {
    let url = service.health_url();
    let started = Instant::now();
    loop {
        if let Some(status) = service.child.try_wait()? {
            bail!(
                "{} exited ({status}) before answering; {}:\n{}",
                service.name,
                service.log.display(),
                tail(&service.log, 30)
            );
        }
        if let Ok(answer) = client.get(&url).timeout(Duration::from_secs(2)).send().await {
            if answer.status().is_success() {
                return Ok(());
            }
        }
        if started.elapsed() > limit {
            bail!(
                "{} did not answer {url} within {limit:?}; {}:\n{}",
                service.name,
                service.log.display(),
                tail(&service.log, 30)
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Stops the services: SIGTERM (their graceful shutdown), then SIGKILL after 10 s.
pub async fn stop_all(services: &mut Vec<Service>) {
    for service in services.iter() {
        if let Some(pid) = service.pid() {
            send_signal(pid, "TERM");
        }
    }
    for service in services.iter_mut() {
        if tokio::time::timeout(Duration::from_secs(10), service.child.wait()).await.is_err() {
            let _ = service.child.kill().await;
        }
    }
    services.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_peak_resident_memory() {
        let status = "Name:\tprojector\nVmPeak:\t  812345 kB\nVmHWM:\t   45678 kB\nVmRSS:\t   40000 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(45_678));
        assert_eq!(parse_vm_hwm("Name:\tx\n"), None);
        assert_eq!(parse_status_kb("VmRSSx: 1 kB\nVmRSS:\t  2048 kB\n", "VmRSS"), Some(2048));
        // This very process has one.
        assert!(vm_hwm(std::process::id()).is_some_and(|kb| kb > 0));
    }

    #[test]
    fn a_free_port_is_on_loopback() {
        let addr = free_addr().unwrap_or_else(|e| panic!("{e}"));
        assert!(addr.ip().is_loopback());
        assert_ne!(addr.port(), 0);
    }
}
