//! Private PostgreSQL clusters in a temporary directory: a primary made with initdb, and
//! streaming replicas made from it with pg_basebackup, which a test may stop, restart,
//! crash (SIGKILL of the postmaster) or pause. initdb refuses to run as root, so as root
//! the clusters belong to the `postgres` OS user and its programs run through `runuser`,
//! as ./navalha does (scripts/lib/pg.sh).
//!
//! Durability stays on where a test relies on it: `synchronous_commit` is on, so a
//! commit acknowledged before a crash of the postmaster survives it. Only `fsync` is off;
//! the machine itself does not crash in a test.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use anyhow::{bail, Context};

use crate::process::free_addr;

/// A directory removed when dropped, readable by the `postgres` OS user.
#[derive(Debug)]
pub struct ScratchDir {
    /// Its path.
    pub path: PathBuf,
}

impl ScratchDir {
    /// A new directory under the system's temporary directory.
    pub fn new(prefix: &str) -> anyhow::Result<Self> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "{prefix}.{}.{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path)?;
        set_mode(&path, 0o755)?;
        Ok(Self { path })
    }
}

impl Drop for ScratchDir {
    /// Removes it, unless NAVALHA_KEEP_SCRATCH is set (to read the logs of a failed test).
    fn drop(&mut self) {
        if std::env::var_os("NAVALHA_KEEP_SCRATCH").is_some() {
            eprintln!("kept {}", self.path.display());
            return;
        }
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// Makes `path` (and its parents) a directory the clusters' OS user owns: for what their
/// programs write beside them (a backup repository, a socket).
pub fn owned_dir(path: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(path)?;
    set_mode(path, 0o755)?;
    if running_as_root() {
        let (uid, gid) = postgres_ids()?;
        std::os::unix::fs::chown(path, Some(uid), Some(gid))?;
    }
    Ok(())
}

/// Whether this process runs as root (then PostgreSQL's programs run as `postgres`).
pub(crate) fn running_as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// The `postgres` OS user's uid and gid.
pub(crate) fn postgres_ids() -> anyhow::Result<(u32, u32)> {
    let id = |flag: &str| -> anyhow::Result<u32> {
        let out = std::process::Command::new("id").args([flag, "postgres"]).output()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().context("the postgres OS user is missing")
    };
    Ok((id("-u")?, id("-g")?))
}

/// `program` in a directory of the PATH.
pub fn on_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// Where PostgreSQL's server programs are: `NAVALHA_PG_BIN`, else beside `initdb` on the
/// PATH, else Debian's newest /usr/lib/postgresql/*/bin.
pub fn pg_bin() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("NAVALHA_PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let on_path = on_path("initdb")
        .and_then(|initdb| std::fs::canonicalize(initdb).ok())
        .and_then(|initdb| initdb.parent().map(Path::to_path_buf));
    if let Some(dir) = on_path {
        return Ok(dir);
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .context("PostgreSQL's programs not found (./navalha test installs them)")?
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .filter(|bin| bin.join("initdb").is_file())
        .collect();
    versions.sort();
    versions.pop().context("PostgreSQL's programs not found (./navalha test installs them)")
}

/// Whether `pid` has exited: gone, or a zombie waiting for its parent to reap it.
fn has_exited(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()) == Some("Z"),
    }
}

/// How many processes are attached to the System V shared-memory segment `shmid` (0 when it
/// is gone), from /proc/sysvipc/shm. Anyone may read that table, whereas another user's
/// /proc/<pid>/cwd needs the ptrace right, which a container's root may lack (CI's probably does).
fn attached_to(shmid: &str) -> u32 {
    let Ok(table) = std::fs::read_to_string("/proc/sysvipc/shm") else { return 0 };
    // Columns: key shmid perms size cpid lpid nattch ...
    table
        .lines()
        .skip(1)
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .find(|fields| fields.get(1) == Some(&shmid))
        .and_then(|fields| fields.get(6)?.parse().ok())
        .unwrap_or(0)
}

/// One cluster: its data directory, port and log.
#[derive(Debug)]
pub struct Cluster {
    /// Its name, for messages.
    pub name: String,
    /// The data directory.
    pub data: PathBuf,
    /// Its port on 127.0.0.1.
    pub port: u16,
    /// The server's log.
    pub log: PathBuf,
    pub(crate) bin: PathBuf,
    as_postgres: bool,
}

impl Cluster {
    /// A new primary in `root/name`, started, with the settings of `settings` on top of
    /// the harness's own.
    pub fn primary(root: &Path, name: &str, settings: &[&str]) -> anyhow::Result<Self> {
        let cluster = Self::prepare(root, name)?;
        let initdb = cluster.bin.join("initdb");
        let data = cluster.data.to_string_lossy().into_owned();
        cluster.run(
            &initdb,
            &["-D", &data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
        )?;
        std::fs::write(
            cluster.data.join("postgresql.conf"),
            std::fs::read_to_string(cluster.data.join("postgresql.conf"))? + "\ninclude 'harness.conf'\n",
        )?;
        cluster.configure(settings)?;
        cluster.start()?;
        Ok(cluster)
    }

    /// A streaming replica of `primary` in `root/name` (pg_basebackup -R), started.
    pub fn replica_of(primary: &Cluster, root: &Path, name: &str) -> anyhow::Result<Self> {
        let cluster = Self::prepare(root, name)?;
        let basebackup = cluster.bin.join("pg_basebackup");
        let data = cluster.data.to_string_lossy().into_owned();
        let port = primary.port.to_string();
        cluster.run(
            &basebackup,
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "postgres",
                "-D",
                &data,
                "-R",
                "-X",
                "stream",
                "-c",
                "fast",
                "--no-sync",
            ],
        )?;
        cluster.configure(&[])?;
        cluster.start()?;
        Ok(cluster)
    }

    /// A cluster restored into `root/name` by `program` (a backup tool, run as the
    /// clusters' OS user) with `args`, where `{data}` stands for the new data directory;
    /// then configured with `settings` (its own port) and started.
    pub fn restored(
        root: &Path,
        name: &str,
        program: &Path,
        args: &[&str],
        settings: &[&str],
    ) -> anyhow::Result<Self> {
        let cluster = Self::prepare(root, name)?;
        let data = cluster.data.to_string_lossy().into_owned();
        let args: Vec<String> = args.iter().map(|arg| arg.replace("{data}", &data)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        cluster.run(program, &args)?;
        cluster.configure(settings)?;
        cluster.start()?;
        Ok(cluster)
    }

    /// The directories of a cluster in `root/name` that a manager (Patroni) makes and
    /// starts itself: an empty data directory, the log and a free port.
    pub fn managed(root: &Path, name: &str) -> anyhow::Result<Self> {
        Self::prepare(root, name)
    }

    fn prepare(root: &Path, name: &str) -> anyhow::Result<Self> {
        let as_postgres = running_as_root();
        let dir = root.join(name);
        std::fs::create_dir_all(&dir)?;
        let data = dir.join("data");
        std::fs::create_dir_all(&data)?;
        set_mode(&data, 0o700)?;
        let log = dir.join("postgres.log");
        std::fs::write(&log, "")?;
        if as_postgres {
            let (uid, gid) = postgres_ids()?;
            for path in [&dir, &data, &log] {
                std::os::unix::fs::chown(path, Some(uid), Some(gid))?;
            }
        }
        Ok(Self { name: name.to_owned(), data, port: free_addr()?.port(), log, bin: pg_bin()?, as_postgres })
    }

    /// The harness's settings, rewritten on every start (harness.conf, which
    /// postgresql.conf includes).
    fn configure(&self, extra: &[&str]) -> anyhow::Result<()> {
        let mut text = format!(
            "port = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n\
             max_connections = 200\nfsync = off\nfull_page_writes = off\n",
            self.port
        );
        for setting in extra {
            text.push_str(setting);
            text.push('\n');
        }
        let path = self.data.join("harness.conf");
        std::fs::write(&path, text)?;
        if self.as_postgres {
            let (uid, gid) = postgres_ids()?;
            std::os::unix::fs::chown(&path, Some(uid), Some(gid))?;
        }
        Ok(())
    }

    /// Runs `program args` as the clusters' OS user (PostgreSQL's programs, a backup tool
    /// reading the data); a failure carries the output and the server log's end.
    pub fn run(&self, program: &Path, args: &[&str]) -> anyhow::Result<()> {
        let mut command = if self.as_postgres {
            let mut command = std::process::Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            std::process::Command::new(program)
        };
        let out = command.args(args).current_dir("/").stdin(Stdio::null()).output()?;
        if !out.status.success() {
            bail!(
                "{} {} failed ({}):\n{}{}\n{}",
                program.display(),
                args.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
                crate::process::tail(&self.log, 20)
            );
        }
        Ok(())
    }

    fn pg_ctl(&self, args: &[&str]) -> anyhow::Result<()> {
        let data = self.data.to_string_lossy().into_owned();
        let log = self.log.to_string_lossy().into_owned();
        let mut all = vec!["-D", &data, "-l", &log, "-w", "-t", "60"];
        all.extend_from_slice(args);
        self.run(&self.bin.join("pg_ctl"), &all)
    }

    /// Starts the server; waits until it accepts connections.
    pub fn start(&self) -> anyhow::Result<()> {
        self.pg_ctl(&["start"])
    }

    /// Stops it (`fast`: sessions are ended, the way an operator restarts it).
    pub fn stop(&self) -> anyhow::Result<()> {
        self.pg_ctl(&["-m", "fast", "stop"])
    }

    /// Crashes it: SIGKILL to the postmaster. Its backends notice and exit; once they
    /// are gone the next start recovers from the write-ahead log.
    pub fn crash(&self) -> anyhow::Result<()> {
        let pid = self.postmaster_pid().context("the cluster is not running")?;
        let shmid = self.shared_memory_id();
        std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status()?;
        // A start is refused while any process is attached to the old server's shared
        // memory (PostgreSQL's own test), and while its lock file names a pid that exists.
        for _ in 0..200 {
            if has_exited(pid) && shmid.as_deref().is_none_or(|id| attached_to(id) == 0) {
                // Whoever adopted the postmaster may never reap it (a container's init need
                // not), and a zombie's pid still exists.
                if Path::new(&format!("/proc/{pid}")).exists() {
                    self.remove_lock_file()?;
                }
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        bail!("{}: the processes of a killed postmaster are still running after 10 s", self.name)
    }

    /// The id of the server's System V shared-memory segment, from its lock file.
    fn shared_memory_id(&self) -> Option<String> {
        let text = std::fs::read_to_string(self.data.join("postmaster.pid")).ok()?;
        Some(text.lines().nth(6)?.split_whitespace().nth(1)?.to_owned())
    }

    /// Removes a dead server's postmaster.pid, and the shared-memory segment it names
    /// (which the next start would otherwise have removed).
    fn remove_lock_file(&self) -> anyhow::Result<()> {
        if let Some(shmid) = self.shared_memory_id() {
            let _ = std::process::Command::new("ipcrm").args(["-m", &shmid]).output();
        }
        Ok(std::fs::remove_file(self.data.join("postmaster.pid"))?)
    }

    /// The postmaster's process id.
    pub fn postmaster_pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.data.join("postmaster.pid")).ok()?;
        text.lines().next()?.trim().parse().ok()
    }

    /// A superuser connection string to `database`.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.postmaster_pid().is_some() {
            let _ = self.pg_ctl(&["-m", "immediate", "stop"]);
        }
    }
}
