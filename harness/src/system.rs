//! A whole Navalha on private processes: a primary cluster with the demo data (migrated and
//! seeded by command-api, as `./navalha up` does), and the services started on demand,
//! as many instances of each as a test wants.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

use crate::api::{http_client, sign_in};
use crate::cluster::{Cluster, ScratchDir};
use crate::patroni::Patroni;
use crate::process::{free_addr, wait_healthy, Launcher, Service};

/// The demo admin (command-api's seed-demo).
pub const ADMIN_EMAIL: &str = "admin@navalha.dev";
/// The demo accounts' password.
pub const DEMO_PASSWORD: &str = "Navalha@2026";
/// The database the services use.
pub const DATABASE: &str = "navalha";

/// Where the services' binaries are: `NAVALHA_BIN_DIR`, else the workspace's debug build.
pub fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("NAVALHA_BIN_DIR") {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("debug")
}

/// The processes of one test, on `P`: a [`Cluster`], or a [`Patroni`] pair behind HAProxy.
/// Fields drop in order: the pool, the primary, then the directory that holds them.
pub struct System<P = Cluster> {
    /// A superuser pool on the primary's database.
    pub pool: PgPool,
    /// HTTP client.
    pub client: reqwest::Client,
    /// Starts services with the primary's settings.
    pub launcher: Launcher,
    /// What serves as the primary.
    pub primary: P,
    /// Where everything lives (logs, clusters, outbox); removed at the end.
    pub root: ScratchDir,
}

impl System<Cluster> {
    /// A primary cluster (with `settings` on top of the harness's) holding the migrated
    /// demo data; no service is running yet.
    pub async fn start(name: &str, settings: &[&str]) -> anyhow::Result<Self> {
        let root = ScratchDir::new(&format!("navalha-{name}"))?;
        let primary = Cluster::primary(&root.path, "primary", settings)?;
        let (admin, url) = (primary.url("postgres"), primary.url(DATABASE));
        Self::on(root, primary, &admin, &url).await
    }
}

impl System<Patroni> {
    /// A primary that fails over by itself: the demo data on a Patroni pair, which the
    /// services reach through HAProxy.
    pub async fn start_with_failover(name: &str) -> anyhow::Result<Self> {
        let root = ScratchDir::new(&format!("navalha-{name}"))?;
        let primary = Patroni::start(&root.path).await?;
        let (admin, url) = (primary.url("postgres"), primary.url(DATABASE));
        Self::on(root, primary, &admin, &url).await
    }
}

impl<P> System<P> {
    /// Creates the database through `admin_url`, then migrates and seeds it at `url`, as
    /// `./navalha up` does.
    async fn on(root: ScratchDir, primary: P, admin_url: &str, url: &str) -> anyhow::Result<Self> {
        let admin = PgPoolOptions::new().max_connections(1).connect(admin_url).await?;
        sqlx::query(&format!("create database {DATABASE}")).execute(&admin).await?;
        admin.close().await;
        let logs = root.path.join("logs");
        std::fs::create_dir_all(&logs)?;
        let folder = |name: &str| root.path.join(name).to_string_lossy().into_owned();
        let launcher = Launcher {
            bin_dir: bin_dir(),
            log_dir: logs,
            env: vec![
                ("DATABASE_URL".to_owned(), url.to_owned()),
                ("NAVALHA_OUTBOX_DIR".to_owned(), folder("outbox")),
                ("NAVALHA_MEDIA_DIR".to_owned(), folder("media")),
                // No payment provider here: the club's reconciliation stays off.
                ("NAVALHA_RECONCILE_SECONDS".to_owned(), "0".to_owned()),
                ("NO_COLOR".to_owned(), "1".to_owned()),
                ("RUST_LOG".to_owned(), "info".to_owned()),
            ],
        };
        launcher.run("command-api", &["migrate"], "migrate").await?;
        launcher.run("command-api", &["seed-demo"], "migrate").await?;
        let pool = PgPoolOptions::new().max_connections(4).connect(url).await?;
        Ok(Self { pool, client: http_client()?, launcher, primary, root })
    }

    /// Starts an instance of `binary` named `name` on a free port and waits until it is
    /// healthy. `env` overrides the launcher's (e.g. DATABASE_URL of a replica).
    pub async fn service(
        &self,
        name: &'static str,
        binary: &str,
        extra_args: &[&str],
        env: &[(&str, &str)],
    ) -> anyhow::Result<Service> {
        let addr = free_addr()?;
        let listen = addr.to_string();
        let mut args: Vec<&str> = match binary {
            "projector" => vec!["run", "--health-listen", &listen],
            "gateway" => vec!["--listen", &listen],
            _ => vec!["serve", "--listen", &listen],
        };
        args.extend_from_slice(extra_args);
        let mut service = self.launcher.start_as(name, binary, &args, addr, env).await?;
        wait_healthy(&self.client, &mut service, Duration::from_secs(60)).await?;
        Ok(service)
    }

    /// A gateway in front of several command-api and query-api instances.
    pub async fn gateway(&self, commands: &[&Service], queries: &[&Service]) -> anyhow::Result<Service> {
        let urls = |services: &[&Service]| {
            services.iter().map(|s| format!("http://{}", s.addr)).collect::<Vec<_>>().join(",")
        };
        let (command_urls, query_urls) = (urls(commands), urls(queries));
        let dist = self.root.path.join("dist").to_string_lossy().into_owned();
        self.service(
            "gateway",
            "gateway",
            &["--command-url", &command_urls, "--query-url", &query_urls, "--web-dist", &dist],
            &[],
        )
        .await
    }

    /// The demo admin's token, signing in at `base` (`http://host/api`).
    pub async fn admin_token(&self, base: &str) -> anyhow::Result<String> {
        sign_in(&self.client, base, ADMIN_EMAIL, DEMO_PASSWORD).await
    }

    /// What a booking load may book as the demo admin: each professional (membership) of
    /// the admin's units with one service they offer, and the demo clients. Read from the
    /// read models, so a projector must have caught up.
    pub async fn booking_targets(&self) -> anyhow::Result<BookingTargets> {
        let professionals: Vec<(i64, i64)> = sqlx::query_as(
            "select distinct on (m.membership_id) m.membership_id, o.service_id
               from rm_professional.membership m
               join rm_professional.offered_service o on o.professional_id = m.professional_id and o.active
              where m.company_id in (select a.company_id
                                       from rm_professional.membership a
                                       join rm_professional.professional p on p.professional_id = a.professional_id
                                      where p.email = $1)
              order by m.membership_id, o.offered_id",
        )
        .bind(ADMIN_EMAIL)
        .fetch_all(&self.pool)
        .await?;
        let clients: Vec<i64> = sqlx::query_scalar(
            "select client_id from rm_client.client where status order by client_id limit 20",
        )
        .fetch_all(&self.pool)
        .await?;
        anyhow::ensure!(!professionals.is_empty() && !clients.is_empty(), "the demo data has no one to book");
        Ok(BookingTargets { professionals, clients })
    }

    /// Waits until the agenda read model is at least at `position` (`tx.global`).
    pub async fn wait_for_agenda(&self, position: (i64, i64), limit: Duration) -> anyhow::Result<Duration> {
        crate::checks::wait_for_agenda(&self.pool, position, limit).await.context("waiting for the agenda")
    }
}

/// Who a booking load books with.
#[derive(Debug, Clone)]
pub struct BookingTargets {
    /// (IdCompanyProfessional, a catalogue service they offer).
    pub professionals: Vec<(i64, i64)>,
    /// Client ids.
    pub clients: Vec<i64>,
}
