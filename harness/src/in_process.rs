//! The whole system in one test process: command-api and query-api as routers on one
//! database, the demo data, sign-in, and the projector's models run to completion. The
//! HTTP tests of command-api (`command-api/tests/api`) and of query-api
//! (`query-api/tests/reads`) share it.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use navalha_command_api::config::Settings;
use navalha_command_api::{seed, AppState};
use serde_json::Value;
use sqlx::PgPool;
use tower::ServiceExt;

/// A running system in-process: command-api, query-api and the projector's models.
/// query-api and the projector log in with their own database roles, as they do under
/// `./navalha up`, so that their grants and the read models' row-level security are tested.
pub struct System {
    pub pool: PgPool,
    /// The projector's connections (role `navalha_projector`).
    pub projector_pool: PgPool,
    pub state: AppState,
    pub command: Router,
    pub query: Router,
    /// query-api's read-your-writes watch, to observe reads waiting for the projector.
    pub query_watch: navalha_query_api::consistency::ProjectionWatch,
    pub outbox: tempfile::TempDir,
    pub media: tempfile::TempDir,
}

/// An HTTP answer, decoded.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Value,
}

impl Answer {
    pub fn message(&self) -> &str {
        self.body["message"].as_str().unwrap_or_default()
    }
}

/// A pool on `pool`'s database whose connections act as `role` (the test's user is a
/// superuser, which row-level security would not apply to). It closes when `pool` does, so
/// that the test's database can be dropped.
pub async fn as_role(pool: &PgPool, role: &'static str) -> PgPool {
    let role_pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(5)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                sqlx::Executor::execute(&mut *conn, format!("set role {role}").as_str()).await?;
                Ok(())
            })
        })
        .connect_with((*pool.connect_options()).clone())
        .await
        .expect("pool with a role");
    let closing = pool.close_event();
    let closed_with_it = role_pool.clone();
    tokio::spawn(async move {
        closing.await;
        closed_with_it.close().await;
    });
    role_pool
}

impl System {
    /// Both apps on `pool`, with the demo data loaded.
    pub async fn start(pool: PgPool) -> System {
        Self::start_with(pool, |_| {}).await
    }

    pub async fn start_with(pool: PgPool, tweak: impl FnOnce(&mut Settings)) -> System {
        let outbox = tempfile::tempdir().expect("temp dir");
        let media = tempfile::tempdir().expect("temp dir");
        let mut settings = Settings {
            outbox_dir: outbox.path().to_path_buf(),
            media_dir: media.path().to_path_buf(),
            ..Settings::default()
        };
        tweak(&mut settings);
        let state = AppState::new(pool.clone(), settings).await.expect("state");
        seed::seed_demo(&state).await.expect("demo data");
        let query_pool = as_role(&pool, "navalha_query").await;
        let mut query_state = navalha_query_api::AppState::new(query_pool).await.expect("query state");
        query_state.media_dir = media.path().to_path_buf();
        let system = System {
            command: navalha_command_api::app(state.clone()),
            state: state.clone(),
            query_watch: query_state.watch.clone(),
            query: navalha_query_api::app(query_state),
            projector_pool: as_role(&pool, "navalha_projector").await,
            pool,
            outbox,
            media,
        };
        system.project().await;
        system
    }

    /// Runs every read model until it has applied every committed event.
    pub async fn project(&self) {
        for model in navalha_projector::models::all() {
            navalha_projector::worker::catch_up(&self.projector_pool, model.as_ref())
                .await
                .expect("projection");
        }
    }

    /// Reads `path` right after `written`, as the web app does (with its position header),
    /// proving that the read waits for the projector: the read must be seen waiting (not
    /// answered) before the projector runs, and then answer with the position reached.
    pub async fn read_after(&self, path: &str, token: &str, written: &Answer) -> Answer {
        let position = written.headers["x-navalha-position"].to_str().expect("position").to_owned();
        let request = Request::get(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header("x-navalha-position", position)
            .body(Body::empty())
            .expect("request");
        let query = self.query.clone();
        let reader = tokio::spawn(async move { send(&query, request).await });
        // The bound only keeps a broken wait from hanging the test; it measures nothing.
        let seen_waiting = async {
            while self.query_watch.reads_waiting() == 0 {
                assert!(!reader.is_finished(), "the read answered without waiting for the projector");
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(30), seen_waiting).await.expect("a waiting read");
        self.project().await;
        let (status, headers, bytes) = reader.await.expect("reader");
        let consistency = headers["x-navalha-consistency"].to_str().unwrap_or_default().to_owned();
        assert!(consistency.starts_with("reached"), "{consistency}");
        Answer { status, headers, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
    }

    /// Sends a request to the app that serves its method (GET to query-api).
    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Answer {
        self.call_with(method, path, token, body, &[]).await
    }

    pub async fn call_with(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut request = Request::builder().method(method.clone()).uri(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = match body {
            Some(body) => {
                request.header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string()))
            }
            None => request.body(Body::empty()),
        }
        .expect("request");
        // The edge sends GET and HEAD to query-api, except the one writing GET (ADR 0008),
        // command-api's own OpenAPI document and the WhatsApp webhook's handshake.
        let reads = matches!(method, Method::GET | Method::HEAD)
            && !path.ends_with("/updateData")
            && path != "/api/openapi/command.json"
            && !path.starts_with("/api/no-auth/whatsapp/webhook");
        let app = if reads { &self.query } else { &self.command };
        let (status, headers, bytes) = send(app, request).await;
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap_or(Value::Null)
        };
        Answer { status, headers, body }
    }

    /// Sends a body of any type to command-api (multipart uploads).
    pub async fn send_raw(
        &self,
        method: Method,
        path: &str,
        token: &str,
        content_type: &str,
        bytes: Vec<u8>,
    ) -> Answer {
        self.send_raw_with(method, path, token, content_type, bytes, &[]).await
    }

    /// [`Self::send_raw`] with more headers.
    pub async fn send_raw_with(
        &self,
        method: Method,
        path: &str,
        token: &str,
        content_type: &str,
        bytes: Vec<u8>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, content_type);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(Body::from(bytes)).expect("request");
        let (status, headers, bytes) = send(&self.command, request).await;
        Answer { status, headers, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
    }

    /// GETs raw bytes from query-api.
    pub async fn get_bytes(&self, path: &str) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
        let request = Request::builder().uri(path).body(Body::empty()).expect("request");
        send(&self.query, request).await
    }

    /// Signs in and returns the token.
    pub async fn sign_in(&self, email: &str) -> String {
        self.sign_in_with(email, seed::DEMO_PASSWORD).await
    }

    pub async fn sign_in_with(&self, email: &str, password: &str) -> String {
        let answer = self.login(email, password).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        answer.body["Token"].as_str().expect("token").to_owned()
    }

    pub async fn login(&self, email: &str, password: &str) -> Answer {
        self.call(
            Method::POST,
            "/api/session-professional/login",
            None,
            Some(serde_json::json!({ "email": email, "password": password })),
        )
        .await
    }

    /// Does what the recovery mailer does after the answers (it is not running in these
    /// tests), then reads the outbox.
    pub async fn mailed(&self) -> Vec<Value> {
        while navalha_command_api::identity::recovery::handle_next_request(&self.state)
            .await
            .expect("recovery e-mail")
            .is_some()
        {}
        self.outbox()
    }

    /// The e-mails written to the outbox, oldest first.
    pub fn outbox(&self) -> Vec<Value> {
        let mut files: Vec<_> = std::fs::read_dir(self.outbox.path())
            .map(|dir| dir.filter_map(Result::ok).map(|entry| entry.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .filter_map(|path| std::fs::read(path).ok())
            .filter_map(|bytes| serde_json::from_slice(&bytes).ok())
            .collect()
    }
}

/// Sends `request` to `app` and reads the whole answer.
async fn send(app: &Router, request: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let response = app.clone().oneshot(request).await.expect("response");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.expect("body").to_bytes();
    (status, headers, bytes.to_vec())
}

/// Percent-encodes a query-string value.
pub fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The `Name` of each item of a paged answer.
pub fn names(answer: &Answer) -> Vec<String> {
    answer.body["content"]
        .as_array()
        .map(|list| list.iter().filter_map(|c| c["Name"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}
