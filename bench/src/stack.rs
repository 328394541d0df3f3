//! The services as child processes: command-api, query-api and projector from the release
//! build, on free 127.0.0.1 ports, with their logs in files. Every child is killed when
//! its handle is dropped, so an error or a panic never leaves one behind; `stop` asks them
//! to shut down gracefully first.

use std::fs::File;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tokio::process::{Child, Command};

/// A free TCP port on 127.0.0.1 (the OS picks it; a tiny race remains until the service binds).
pub fn free_addr() -> anyhow::Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0").context("finding a free port")?;
    Ok(listener.local_addr()?)
}

/// `VmHWM` of `/proc/PID/status` (peak resident memory) in kB.
pub fn parse_vm_hwm(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kb| kb.parse().ok())
}

/// The peak resident memory of a running process, in kB.
pub fn vm_hwm(pid: u32) -> Option<u64> {
    std::fs::read_to_string(format!("/proc/{pid}/status")).ok().as_deref().and_then(parse_vm_hwm)
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
}

impl Launcher {
    fn command(&self, binary: &str, args: &[&str], log: &Path) -> anyhow::Result<Command> {
        let path = self.bin_dir.join(binary);
        if !path.is_file() {
            bail!("{} not found: build the services first (cargo build --release)", path.display());
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

    /// Starts a service; `health` is the URL that answers 200 once it is ready.
    pub async fn start(
        &self,
        name: &'static str,
        args: &[&str],
        addr: SocketAddr,
    ) -> anyhow::Result<Service> {
        let log = self.log(name);
        let child = self.command(name, args, &log)?.spawn().with_context(|| format!("starting {name}"))?;
        Ok(Service { name, addr, log, child })
    }
}

/// Waits until `http://addr/health` answers 200, at most `limit`; fails early when the
/// process exits.
pub async fn wait_healthy(
    client: &reqwest::Client,
    service: &mut Service,
    limit: Duration,
) -> anyhow::Result<()> {
    let url = format!("http://{}/health", service.addr);
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
            // No libc (unsafe is forbidden): the `kill` program sends the signal.
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
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
