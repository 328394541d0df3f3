//! The edge over real sockets, in front of a stand-in service that refuses large bodies
//! early as command-api does.

use std::net::SocketAddr;

use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::routing::post;
use axum::Router;
use navalha_gateway::{app, Instances, Upstreams, MAX_BODY_BYTES};

async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
            .await
            .expect("serve");
    });
    format!("http://{addr}")
}

async fn edge() -> (String, tempfile::TempDir) {
    // The service: 2 MB bodies at most, like axum's default on command-api's JSON routes.
    let service = Router::new()
        .route("/api/echo", post(|body: Bytes| async move { body.len().to_string() }))
        .layer(DefaultBodyLimit::max(2 * 1024 * 1024));
    let service_url = serve(service).await;
    let web = tempfile::tempdir().expect("dir");
    std::fs::write(web.path().join("index.html"), "<!doctype html><title>Navalha</title>").expect("index");
    let upstreams = Upstreams {
        client: reqwest::Client::new(),
        command: Instances::new(vec![service_url.clone()]).expect("instances"),
        query: Instances::new(vec![service_url]).expect("instances"),
        cep_url: "http://127.0.0.1:9".to_owned(),
        web_dist: web.path().to_path_buf(),
        script_origins: vec!["https://js.cel.cash".to_owned()],
    };
    (serve(app(upstreams)).await, web)
}

#[tokio::test]
async fn bodies_past_the_limit_get_413_in_the_api_shape_not_502() {
    let (edge, _web) = edge().await;
    let http = reqwest::Client::new();
    let small = http.post(format!("{edge}/api/echo")).body(vec![b'x'; 1024]).send().await.expect("small");
    assert_eq!(small.text().await.expect("text"), "1024");
    // Past the service's own limit: its 413 comes through, not a broken stream's 502.
    let large = http.post(format!("{edge}/api/echo")).body(vec![b'x'; 3 * 1024 * 1024]).send().await;
    assert_eq!(large.expect("large").status(), reqwest::StatusCode::PAYLOAD_TOO_LARGE);
    // Past the edge's limit, declared or streamed: refused here.
    for chunked in [false, true] {
        let bytes = vec![b'x'; MAX_BODY_BYTES + 1];
        let body = if chunked {
            let chunks =
                bytes.chunks(1024 * 1024).map(|c| Ok::<_, std::io::Error>(c.to_vec())).collect::<Vec<_>>();
            reqwest::Body::wrap_stream(futures_util::stream::iter(chunks))
        } else {
            reqwest::Body::from(bytes)
        };
        let answer = http.post(format!("{edge}/api/echo")).body(body).send().await.expect("huge");
        assert_eq!(answer.status(), reqwest::StatusCode::PAYLOAD_TOO_LARGE, "chunked: {chunked}");
        let json: serde_json::Value = answer.json().await.expect("json");
        assert_eq!(json["message"], navalha_platform::error::MSG_TOO_LARGE);
    }
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let (edge, _web) = edge().await;
    let http = reqwest::Client::new();
    let answers = [
        http.get(format!("{edge}/")).send().await.expect("page"),
        http.get(format!("{edge}/dashboard/scheduling")).send().await.expect("client route"),
        http.post(format!("{edge}/api/echo")).body("x").send().await.expect("api"),
        http.get(format!("{edge}/cep/01310100/json/")).send().await.expect("cep down"),
    ];
    for answer in answers {
        let headers = answer.headers();
        let header =
            |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        assert_eq!(header("x-content-type-options"), "nosniff", "{}", answer.url());
        assert_eq!(header("referrer-policy"), "same-origin");
        let csp = header("content-security-policy");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(csp.contains("script-src 'self' https://accounts.google.com https://js.cel.cash"), "{csp}");
        let scripts = csp.split(';').find(|d| d.trim_start().starts_with("script-src")).unwrap_or_default();
        assert!(!scripts.contains("unsafe"), "no inline or eval'd scripts: {scripts}");
    }
}

/// A stand-in instance that answers its own name on `POST /api/who`.
async fn named(name: &'static str) -> String {
    serve(Router::new().route("/api/who", post(move || async move { name }))).await
}

#[tokio::test]
async fn instances_take_turns_and_a_refused_connection_goes_to_the_next() {
    let (a, b) = (named("a").await, named("b").await);
    // Nothing listens here: a stopped instance.
    let dead = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}", listener.local_addr().expect("addr"))
    };
    let web = tempfile::tempdir().expect("dir");
    let upstreams = Upstreams {
        client: reqwest::Client::new(),
        command: Instances::new(vec![a, dead, b]).expect("instances"),
        query: Instances::new(vec!["http://127.0.0.1:9".to_owned()]).expect("instances"),
        cep_url: "http://127.0.0.1:9".to_owned(),
        web_dist: web.path().to_path_buf(),
        script_origins: vec![],
    };
    let edge = serve(app(upstreams)).await;
    let http = reqwest::Client::new();
    let mut seen = Vec::new();
    for _ in 0..6 {
        let answer = http.post(format!("{edge}/api/who")).send().await.expect("answer");
        assert_eq!(answer.status(), reqwest::StatusCode::OK, "a refused instance is skipped, not a 502");
        seen.push(answer.text().await.expect("text"));
    }
    // a, (dead →) b, b, a, b, b: both live instances serve, the dead one never answers.
    assert_eq!(seen.iter().filter(|w| *w == "a").count(), 2, "{seen:?}");
    assert_eq!(seen.iter().filter(|w| *w == "b").count(), 4, "{seen:?}");
    // With every instance gone, the API's 502 message.
    let answer = http.get(format!("{edge}/api/anything")).send().await.expect("answer");
    assert_eq!(answer.status(), reqwest::StatusCode::BAD_GATEWAY);
}

#[tokio::test]
async fn the_apps_files_go_gzipped_to_browsers_that_take_it() {
    let (edge, web) = edge().await;
    std::fs::create_dir_all(web.path().join("assets")).expect("assets");
    let script = "console.log('navalha');".repeat(200);
    std::fs::write(web.path().join("assets/app.js"), &script).expect("js");
    // The edge sends the file beside it as it is; it never reads or makes one.
    let packed = b"\x1f\x8b stands for the gzip of app.js".to_vec();
    std::fs::write(web.path().join("assets/app.js.gz"), &packed).expect("gz file");
    let raw = reqwest::Client::builder().no_gzip().build().expect("client");
    let zipped = raw
        .get(format!("{edge}/assets/app.js"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("gzip");
    assert_eq!(zipped.headers().get("content-encoding").and_then(|v| v.to_str().ok()), Some("gzip"));
    let zipped_headers = raw
        .get(format!("{edge}/assets/app.js"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("gzip again");
    assert_eq!(zipped.bytes().await.expect("bytes").as_ref(), packed.as_slice());
    let plain = raw.get(format!("{edge}/assets/app.js")).send().await.expect("plain");
    assert!(plain.headers().get("content-encoding").is_none());
    let header = |answer: &reqwest::Response, name: &str| {
        answer.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
    };
    // A hashed file is kept a year; which copy was sent depends on Accept-Encoding.
    for answer in [&zipped_headers, &plain] {
        assert_eq!(header(answer, "cache-control").as_deref(), Some("public, max-age=31536000, immutable"));
        assert_eq!(header(answer, "vary").as_deref(), Some("accept-encoding"));
    }
    assert_eq!(plain.text().await.expect("text"), script);
    // The page itself, and the app's routes that fall back to it, are asked again each time.
    for path in ["/", "/index.html", "/dashboard/agenda"] {
        let page = raw.get(format!("{edge}{path}")).send().await.expect("page");
        assert_eq!(page.status(), reqwest::StatusCode::OK, "{path}");
        assert_eq!(header(&page, "cache-control").as_deref(), Some("no-cache"), "{path}");
    }
    // A hashed file gone since a deploy is a 404, not the page kept a year under its name.
    let missing = raw.get(format!("{edge}/assets/gone.js")).send().await.expect("missing");
    assert_eq!(missing.status(), reqwest::StatusCode::NOT_FOUND);
    assert_eq!(header(&missing, "cache-control").as_deref(), Some("no-cache"));
}
