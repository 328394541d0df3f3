//! A primary that fails over by itself (issue 46, item 4): two PostgreSQL servers managed
//! by Patroni, with one etcd member as Patroni's store, synchronous replication to the
//! standby, and HAProxy in front, sending each connection to the server whose Patroni
//! answers `GET /primary` with 200. The services connect to HAProxy and reconnect as the
//! crash test shows. docs/operations.md ("Automatic failover") has the production set-up:
//! three machines, each with etcd, Patroni and PostgreSQL.
//!
//! The timings here are shorter than production's (a 10 s leader key instead of 30 s) so
//! that a test waits seconds, not minutes.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tokio::process::{Child, Command};

use crate::cluster::{on_path, postgres_ids, running_as_root, Cluster};
use crate::process::{free_addr, tail};

/// Patroni's scope: the name of the managed cluster in etcd.
const SCOPE: &str = "navalha";

/// Patroni's timings: the leader key lives `TTL` seconds unless renewed; each node's loop
/// runs every `LOOP_WAIT`. A crashed primary is failed over at once
/// (`primary_start_timeout: 0`); a dead machine once its key expires.
pub const TTL: u64 = 10;
const LOOP_WAIT: u64 = 1;
const RETRY_TIMEOUT: u64 = 3;

/// One machine of the pair: a Patroni agent and the PostgreSQL server it manages.
#[derive(Debug)]
pub struct Node {
    /// Its name in Patroni (`node1`, `node2`).
    pub name: String,
    /// Patroni's REST API.
    pub rest: SocketAddr,
    /// The server Patroni manages (its data directory, port and log).
    pub cluster: Cluster,
    config: PathBuf,
    agent_log: PathBuf,
    agent: Option<Child>,
}

impl Node {
    /// Starts its Patroni agent, which starts (or first creates) its server.
    fn start_agent(&mut self) -> anyhow::Result<()> {
        let patroni = on_path("patroni").context("patroni is missing (./navalha test installs it)")?;
        let log = std::fs::File::options().create(true).append(true).open(&self.agent_log)?;
        let mut command = Command::new(patroni);
        command
            .arg(&self.config)
            .env("HOME", self.cluster.data.parent().unwrap_or(Path::new("/")))
            .current_dir("/")
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .kill_on_drop(true);
        if running_as_root() {
            let (uid, gid) = postgres_ids()?;
            command.uid(uid).gid(gid);
        }
        self.agent = Some(command.spawn().context("starting patroni")?);
        Ok(())
    }

    /// The end of its agent's log and of its server's, for a failure's message.
    pub fn logs(&self) -> String {
        format!(
            "{} patroni:\n{}\n{} postgres:\n{}",
            self.name,
            tail(&self.agent_log, 25),
            self.name,
            tail(&self.cluster.log, 15)
        )
    }

    /// Its REST API's status for `path` (`/primary`, `/sync`, ...), if it answers.
    async fn status(&self, client: &reqwest::Client, path: &str) -> Option<u16> {
        let url = format!("http://{}{path}", self.rest);
        let answer = client.get(url).timeout(Duration::from_millis(500)).send().await.ok()?;
        Some(answer.status().as_u16())
    }
}

/// The pair under Patroni, etcd and HAProxy. Fields drop in order: HAProxy, the nodes
/// (agent, then server), etcd.
#[derive(Debug)]
pub struct Patroni {
    /// Where HAProxy listens: connections reach the primary, whichever it is.
    pub addr: SocketAddr,
    haproxy: Child,
    /// The two machines.
    pub nodes: Vec<Node>,
    etcd: Child,
    client: reqwest::Client,
}

impl Patroni {
    /// Starts etcd, `node1` (which creates the cluster and leads), `node2` (a copy that
    /// becomes the synchronous standby) and HAProxy, all under `root`.
    pub async fn start(root: &Path) -> anyhow::Result<Self> {
        let client = reqwest::Client::new();
        let etcd_addr = free_addr()?;
        let etcd = start_etcd(root, etcd_addr)?;
        wait_until("etcd answers /health", Duration::from_secs(30), || async {
            let url = format!("http://{etcd_addr}/health");
            client.get(url).send().await.is_ok_and(|a| a.status().is_success())
        })
        .await
        .with_context(|| tail(&root.join("etcd.log"), 20))?;

        let mut nodes = Vec::new();
        for name in ["node1", "node2"] {
            let cluster = Cluster::managed(root, name)?;
            let rest = free_addr()?;
            let dir = cluster.data.parent().context("a data directory has a parent")?.to_path_buf();
            let config = dir.join("patroni.yml");
            std::fs::write(&config, patroni_config(name, rest, &cluster, etcd_addr))?;
            let mut node = Node {
                name: name.to_owned(),
                rest,
                cluster,
                config,
                agent_log: dir.join("patroni.log"),
                agent: None,
            };
            node.start_agent()?;
            // The first node creates the cluster; the second copies it once there is a leader.
            let (path, role) =
                if nodes.is_empty() { ("/primary", "the primary") } else { ("/sync", "the sync standby") };
            let node_ref = &node;
            wait_until(&format!("{name} is {role}"), Duration::from_secs(90), || async {
                node_ref.status(&client, path).await == Some(200)
            })
            .await
            .with_context(|| node.logs())?;
            nodes.push(node);
        }

        let addr = free_addr()?;
        let haproxy = start_haproxy(root, addr, &nodes)?;
        Ok(Self { addr, haproxy, nodes, etcd, client })
    }

    /// A superuser connection string to `database` through HAProxy.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@{}/{database}", self.addr)
    }

    /// Which node's Patroni says it is the primary, if one does.
    pub async fn primary(&self) -> Option<usize> {
        for (i, node) in self.nodes.iter().enumerate() {
            if node.status(&self.client, "/primary").await == Some(200) {
                return Some(i);
            }
        }
        None
    }

    /// Waits until a node other than `old` is the primary, at most `limit`: which one, and
    /// how long it took.
    pub async fn wait_for_new_primary(
        &self,
        old: usize,
        limit: Duration,
    ) -> anyhow::Result<(usize, Duration)> {
        let started = Instant::now();
        loop {
            if let Some(new) = self.primary().await.filter(|&i| i != old) {
                return Ok((new, started.elapsed()));
            }
            if started.elapsed() > limit {
                bail!("no new primary within {limit:?}\n{}", self.logs());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until node `i` streams synchronously from the primary (it answers `/sync`).
    pub async fn wait_for_sync_standby(&self, i: usize, limit: Duration) -> anyhow::Result<Duration> {
        let node = &self.nodes[i];
        let started = Instant::now();
        wait_until(&format!("{} is the sync standby", node.name), limit, || async {
            node.status(&self.client, "/sync").await == Some(200)
        })
        .await
        .with_context(|| self.logs())?;
        Ok(started.elapsed())
    }

    /// The machine of node `i` dies: its agent and its server are killed together, so no
    /// one releases the leader key; it expires after [`TTL`] seconds.
    pub async fn kill_machine(&mut self, i: usize) -> anyhow::Result<()> {
        let node = &mut self.nodes[i];
        if let Some(mut agent) = node.agent.take() {
            agent.kill().await?;
        }
        node.cluster.crash()
    }

    /// Starts node `i`'s agent again (the machine is back): it rejoins as a standby,
    /// rewinding its server if it had diverged.
    pub fn restart_agent(&mut self, i: usize) -> anyhow::Result<()> {
        self.nodes[i].start_agent()
    }

    /// Every node's and HAProxy's log ends.
    pub fn logs(&self) -> String {
        let nodes: Vec<String> = self.nodes.iter().map(Node::logs).collect();
        let root = self.nodes.first().and_then(|n| n.cluster.data.parent()?.parent().map(Path::to_path_buf));
        let haproxy = root.map(|root| tail(&root.join("haproxy.log"), 10)).unwrap_or_default();
        format!("{}\nhaproxy:\n{haproxy}", nodes.join("\n"))
    }
}

impl Drop for Patroni {
    /// Kills the agents before the servers stop (else an agent would start its server
    /// again); the children go with the struct.
    fn drop(&mut self) {
        for node in &mut self.nodes {
            if let Some(agent) = node.agent.as_mut() {
                let _ = agent.start_kill();
            }
        }
        let _ = (self.haproxy.start_kill(), self.etcd.start_kill());
    }
}

/// Waits until `ready` answers true, checking every 100 ms, at most `limit`.
async fn wait_until<F, Fut>(what: &str, limit: Duration, mut ready: F) -> anyhow::Result<()>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while !ready().await {
        if started.elapsed() > limit {
            bail!("timed out after {limit:?} waiting until {what}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// One etcd member, its data and log under `root`.
fn start_etcd(root: &Path, addr: SocketAddr) -> anyhow::Result<Child> {
    let etcd = on_path("etcd").context("etcd is missing (./navalha test installs etcd-server)")?;
    let peer = free_addr()?;
    let log = std::fs::File::create(root.join("etcd.log"))?;
    Command::new(etcd)
        .args(["--name", "etcd", "--data-dir"])
        .arg(root.join("etcd"))
        .arg(format!("--listen-client-urls=http://{addr}"))
        .arg(format!("--advertise-client-urls=http://{addr}"))
        .arg(format!("--listen-peer-urls=http://{peer}"))
        .arg(format!("--initial-advertise-peer-urls=http://{peer}"))
        .arg(format!("--initial-cluster=etcd=http://{peer}"))
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .kill_on_drop(true)
        .spawn()
        .context("starting etcd")
}

/// HAProxy on `addr`, checking each node's Patroni every 500 ms: a connection goes to the
/// one answering 200 to `/primary`, and the sessions of a server marked down are cut.
fn start_haproxy(root: &Path, addr: SocketAddr, nodes: &[Node]) -> anyhow::Result<Child> {
    let haproxy = on_path("haproxy")
        .or_else(|| Some(PathBuf::from("/usr/sbin/haproxy")).filter(|p| p.is_file()))
        .context("haproxy is missing (./navalha test installs it)")?;
    let servers: String = nodes
        .iter()
        .map(|n| format!("  server {} 127.0.0.1:{} check port {}\n", n.name, n.cluster.port, n.rest.port()))
        .collect();
    let config = root.join("haproxy.cfg");
    std::fs::write(
        &config,
        format!(
            "global\n  maxconn 1000\n\
             defaults\n  mode tcp\n  timeout connect 2s\n  timeout client 1h\n  timeout server 1h\n  timeout check 1s\n\
             listen primary\n  bind {addr}\n  option httpchk GET /primary\n  http-check expect status 200\n\
             \x20 default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions\n{servers}"
        ),
    )?;
    let log = std::fs::File::create(root.join("haproxy.log"))?;
    Command::new(haproxy)
        .arg("-db")
        .arg("-f")
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .kill_on_drop(true)
        .spawn()
        .context("starting haproxy")
}

/// Patroni's configuration of node `name`. The harness's settings (no fsync; durability
/// comes from the synchronous standby, and no machine really crashes here), trust on
/// loopback, pg_rewind for a primary that diverged.
fn patroni_config(name: &str, rest: SocketAddr, cluster: &Cluster, etcd: SocketAddr) -> String {
    let dir = cluster.data.parent().unwrap_or(Path::new("/")).display().to_string();
    format!(
        "scope: {SCOPE}
name: {name}
restapi: {{listen: '{rest}', connect_address: '{rest}'}}
etcd3: {{hosts: '{etcd}'}}
bootstrap:
  dcs:
    ttl: {TTL}
    loop_wait: {LOOP_WAIT}
    retry_timeout: {RETRY_TIMEOUT}
    primary_start_timeout: 0
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_log_hints: 'on'
        max_connections: 200
        fsync: 'off'
  initdb: [{{encoding: UTF8}}, {{locale: C.UTF-8}}, {{auth: trust}}]
  pg_hba:
    - host replication all 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: '127.0.0.1:{port}'
  connect_address: '127.0.0.1:{port}'
  data_dir: '{data}'
  bin_dir: '{bin}'
  pgpass: '{dir}/pgpass'
  authentication:
    superuser: {{username: postgres}}
    replication: {{username: postgres}}
    rewind: {{username: postgres}}
  parameters:
    unix_socket_directories: '{dir}'
    logging_collector: 'on'
    log_directory: '{dir}'
    log_filename: 'postgres.log'
",
        port = cluster.port,
        data = cluster.data.display(),
        bin = cluster.bin.display(),
    )
}
