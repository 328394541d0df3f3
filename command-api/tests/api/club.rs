//! The subscription club: plans and their services, checkout links, subscribers, the
//! provider's webhooks (refusals, duplicates, order), reconciliation, and the payment state
//! at any moment. The provider is `provider-sim` on a real socket, and command-api is served
//! on a real socket too so that the simulator's webhooks reach it over HTTP.

use std::net::SocketAddr;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use navalha_harness::database::demo_database;
use serde_json::{json, Value};
use sqlx::PgPool;
use tower::ServiceExt;

use crate::support::{Answer, System};

pub const BOUNDARY: &str = "navalha-club-boundary";
const WEBHOOK_HASH: &str = "test-webhook-hash";
const PUBLIC_TOKEN: &str = "test-public-token";
/// The WhatsApp twin's credentials (issue 44).
pub const WHATSAPP_TOKEN: &str = "test-whatsapp-token";
pub const WHATSAPP_APP_SECRET: &str = "test-whatsapp-secret";
pub const WHATSAPP_VERIFY_TOKEN: &str = "test-verify-token";

/// The system plus the provider simulator, both listening on real sockets.
pub struct Club {
    pub system: System,
    pub command_url: String,
    pub query_url: String,
    pub sim_url: String,
    pub http: reqwest::Client,
}

async fn listener() -> (tokio::net::TcpListener, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    (listener, format!("http://{addr}"))
}

impl Club {
    pub async fn start(pool: PgPool) -> Club {
        let (command_listener, command_url) = listener().await;
        let (query_listener, query_url) = listener().await;
        let (sim_listener, sim_url) = listener().await;
        let sim = navalha_provider_sim::Simulator::new(navalha_provider_sim::Config {
            galax_id: "5473".into(),
            galax_hash: "test-galax-hash".into(),
            webhook_url: Some(format!("{command_url}/api/galaxpay/webhook")),
            webhook_hash: WEBHOOK_HASH.into(),
            public_url: sim_url.clone(),
            public_token: PUBLIC_TOKEN.into(),
            whatsapp_token: WHATSAPP_TOKEN.into(),
            whatsapp_app_secret: WHATSAPP_APP_SECRET.into(),
            whatsapp_webhook_url: Some(format!("{command_url}/api/no-auth/whatsapp/webhook")),
        });
        tokio::spawn(async move {
            axum::serve(sim_listener, navalha_provider_sim::app(sim)).await.expect("sim");
        });
        let galaxpay_url = format!("{sim_url}/v2");
        let whatsapp_url = format!("{sim_url}/whatsapp/v21.0");
        let js_url = format!("{sim_url}/checkout.min.js");
        let system = System::start_with(pool, move |settings| {
            settings.galaxpay_url = galaxpay_url;
            settings.galaxpay_js_url = js_url;
            settings.galaxpay_public_token = PUBLIC_TOKEN.into();
            settings.galaxpay_id = "5473".into();
            settings.galaxpay_hash = "test-galax-hash".into();
            settings.galaxpay_webhook_hash = WEBHOOK_HASH.into();
            settings.reconcile_seconds = 0;
            settings.whatsapp_url = whatsapp_url;
            settings.whatsapp_token = WHATSAPP_TOKEN.into();
            settings.whatsapp_phone_number_id = "106540352242922".into();
            settings.whatsapp_app_secret = WHATSAPP_APP_SECRET.into();
            settings.whatsapp_verify_token = WHATSAPP_VERIFY_TOKEN.into();
        })
        .await;
        let command = system.command.clone();
        tokio::spawn(async move {
            axum::serve(command_listener, command.into_make_service_with_connect_info::<SocketAddr>())
                .await
                .expect("command-api");
        });
        let query = system.query.clone();
        tokio::spawn(async move {
            axum::serve(query_listener, query.into_make_service_with_connect_info::<SocketAddr>())
                .await
                .expect("query-api");
        });
        Club { system, command_url, query_url, sim_url, http: reqwest::Client::new() }
    }

    /// A JSON call over the network; GET goes to query-api unless `to_command`.
    pub async fn http(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Answer {
        let base = if method == Method::GET { &self.query_url } else { &self.command_url };
        self.http_to(base, method, path, token, body).await
    }

    pub async fn http_to(
        &self,
        base: &str,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let method = reqwest::Method::from_bytes(method.as_str().as_bytes()).expect("method");
        let mut request = self.http.request(method, format!("{base}{path}"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("response");
        let status = StatusCode::from_u16(response.status().as_u16()).expect("status");
        let mut headers = axum::http::HeaderMap::new();
        for (name, value) in response.headers() {
            if let (Ok(name), Ok(value)) = (
                axum::http::HeaderName::from_bytes(name.as_str().as_bytes()),
                axum::http::HeaderValue::from_bytes(value.as_bytes()),
            ) {
                headers.insert(name, value);
            }
        }
        let body = response.json().await.unwrap_or(Value::Null);
        Answer { status, headers, body }
    }

    /// What the checkout page's tokenizer does in the browser: the card goes to the
    /// provider, which answers a hash.
    pub async fn card_hash(&self, number: &str) -> String {
        let card = json!({ "number": number, "holder": "JOAO C", "expiresAt": "2030-12", "cvv": "123" });
        let body = json!({ "publicToken": PUBLIC_TOKEN, "Card": card });
        let response =
            self.http.post(format!("{}/js/card-hash", self.sim_url)).body(body.to_string()).send().await;
        let answer: Value = response.expect("tokenizer").json().await.expect("tokenizer json");
        answer["hash"].as_str().expect("hash").to_owned()
    }

    /// A call to the simulator's controls.
    pub async fn sim(&self, path: &str, body: Value) -> Value {
        let response =
            self.http.post(format!("{}{path}", self.sim_url)).json(&body).send().await.expect("sim");
        assert!(response.status().is_success(), "{path}: {}", response.status());
        response.json().await.expect("sim json")
    }

    pub async fn sim_get(&self, path: &str) -> Value {
        self.http
            .get(format!("{}{path}", self.sim_url))
            .send()
            .await
            .expect("sim")
            .json()
            .await
            .expect("json")
    }
}

/// A GET to command-api in-process (`updateData`, which the edge routes there).
pub async fn command_get(system: &System, path: &str, token: &str) -> Answer {
    let request = Request::builder()
        .uri(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .expect("request");
    let response = system.command.clone().oneshot(request).await.expect("response");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.expect("body").to_bytes();
    Answer { status, headers, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
}

/// A webhook POSTed in-process, as raw bytes.
pub async fn post_webhook(system: &System, body: &Value) -> Answer {
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/galaxpay/webhook")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    let response = system.command.clone().oneshot(request).await.expect("response");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.expect("body").to_bytes();
    Answer { status, headers, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
}

pub fn plan_fields() -> Vec<(&'static str, String)> {
    vec![
        ("planName", "Clube do corte".into()),
        ("description", "Cortes ilimitados no mês".into()),
        ("value", "89,90".into()),
        ("status", "1".into()),
        ("discount", "10".into()),
        ("validityStart", "2026-01-01".into()),
        ("validityEnd", "2030-12-31".into()),
        ("advertisingStart", "2026-02-01".into()),
        ("advertisingEnd", "2026-03-01".into()),
        ("allCompanies", "false".into()),
        ("companies", r#"[{"idCompany": 1, "idSubscriptionDetail": null}]"#.into()),
        ("partnerCompanies", r#"[{"idPartnerCompany": 1}]"#.into()),
        ("periodicity", "monthly".into()),
        ("quantity", "12".into()),
        ("itemsDetail", "4 cortes e 2 barbas".into()),
        ("paymentMethod", "boleto".into()),
    ]
}

fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend(std::iter::repeat_n(7u8, 64));
    bytes
}

pub fn multipart(fields: &[(&str, String)], file: Option<Vec<u8>>) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend(
            format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
        );
        body.extend(value.as_bytes());
        body.extend(b"\r\n");
    }
    if let Some(bytes) = file {
        body.extend(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"plano.png\"\r\n\
                 Content-Type: image/png\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend(bytes);
        body.extend(b"\r\n");
    }
    body.extend(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

pub async fn save_plan(
    system: &System,
    token: &str,
    method: Method,
    path: &str,
    fields: &[(&str, String)],
) -> Answer {
    save_plan_with(system, token, method, path, fields, &[]).await
}

pub async fn save_plan_with(
    system: &System,
    token: &str,
    method: Method,
    path: &str,
    fields: &[(&str, String)],
    headers: &[(&str, &str)],
) -> Answer {
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    system.send_raw_with(method, path, token, &content_type, multipart(fields, None), headers).await
}

fn with(fields: &[(&'static str, String)], name: &'static str, value: &str) -> Vec<(&'static str, String)> {
    let mut list: Vec<_> = fields.iter().filter(|(n, _)| *n != name).cloned().collect();
    if !value.is_empty() {
        list.push((name, value.to_owned()));
    }
    list
}

async fn create_plan(system: &System, admin: &str) -> i64 {
    let answer = save_plan(system, admin, Method::POST, "/api/subscription-details", &plan_fields()).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    answer.body["IdSubscriptionDetail"].as_i64().expect("plan id")
}

#[tokio::test]
async fn plans_are_created_listed_read_and_changed_by_admins_only() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;

    let refused =
        save_plan(&system, &attendant, Method::POST, "/api/subscription-details", &plan_fields()).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);

    let answer = system
        .send_raw(
            Method::POST,
            "/api/subscription-details",
            &admin,
            &format!("multipart/form-data; boundary={BOUNDARY}"),
            multipart(&plan_fields(), Some(png())),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    let id = answer.body["IdSubscriptionDetail"].as_i64().expect("id");
    system.project().await;

    let plan =
        system.call(Method::GET, &format!("/api/subscription-details/{id}"), Some(&attendant), None).await;
    assert_eq!(plan.status, StatusCode::OK, "{plan:?}");
    assert_eq!(plan.body["PlanName"], "Clube do corte");
    assert_eq!(plan.body["Value"], 89.9);
    assert_eq!(plan.body["Status"], 1);
    assert_eq!(plan.body["Quantity"], 12);
    assert_eq!(plan.body["PaymentMethod"], "boleto");
    assert_eq!(plan.body["companiesList"][0]["Company"]["IdCompany"], 1);
    assert_eq!(plan.body["partnerCompanyList"][0]["PartnerCompany"]["IdPartnerCompany"], 1);
    let image = plan.body["UrlImage"].as_str().expect("image").to_owned();
    let (status, _, bytes) = system.get_bytes(&image).await;
    assert_eq!((status, bytes), (StatusCode::OK, png()));

    let list = system
        .call(
            Method::GET,
            "/api/subscription-details?page=1&pageSize=5&description=corte&status=1&paymentMethod=boleto",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!((list.body["total"].as_i64(), list.body["count"].as_i64()), (Some(1), Some(1)), "{list:?}");
    assert_eq!(list.body["content"][0]["Subscribers"], 0);
    let none = system
        .call(Method::GET, "/api/subscription-details?paymentMethod=creditcard", Some(&admin), None)
        .await;
    assert_eq!(none.body["total"], 0);
    let all = system.call(Method::GET, "/api/subscription-details/all", Some(&admin), None).await;
    assert_eq!(all.body[0]["IdSubscriptionDetail"], id);
    let partners = system.call(Method::GET, "/api/partner-company", Some(&admin), None).await;
    assert_eq!(partners.body.as_array().map(Vec::len), Some(2), "{partners:?}");
    assert!(partners.body[0]["IdPartnerCompany"].is_i64() && partners.body[0]["Name"].is_string());
    let barber_reads = system.call(Method::GET, "/api/subscription-details", Some(&barber), None).await;
    assert_eq!(barber_reads.status, StatusCode::FORBIDDEN);

    let changed = with(&with(&plan_fields(), "planName", "Clube premium"), "excludeFile", "true");
    let answer =
        save_plan(&system, &admin, Method::PUT, &format!("/api/subscription-details/{id}"), &changed).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    system.project().await;
    let plan = system.call(Method::GET, &format!("/api/subscription-details/{id}"), Some(&admin), None).await;
    assert_eq!(plan.body["PlanName"], "Clube premium");
    assert_eq!(plan.body["UrlImage"], Value::Null, "excludeFile removes the image");
    let unknown =
        save_plan(&system, &admin, Method::PUT, "/api/subscription-details/999", &plan_fields()).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let missing = system.call(Method::GET, "/api/subscription-details/999", Some(&admin), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_plan_created_again_with_the_same_idempotency_key_is_created_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let send = |fields: Vec<(&'static str, String)>| {
        let system = &system;
        let admin = admin.clone();
        async move {
            let request = Request::builder()
                .method(Method::POST)
                .uri("/api/subscription-details")
                .header(header::AUTHORIZATION, format!("Bearer {admin}"))
                .header(header::CONTENT_TYPE, format!("multipart/form-data; boundary={BOUNDARY}"))
                .header("Idempotency-Key", "plan-1")
                .body(Body::from(multipart(&fields, None)))
                .expect("request");
            let response = system.command.clone().oneshot(request).await.expect("response");
            let status = response.status();
            let bytes = response.into_body().collect().await.expect("body").to_bytes();
            (status, serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null))
        }
    };
    let first = send(plan_fields()).await;
    let again = send(plan_fields()).await;
    assert_eq!(first.0, StatusCode::CREATED, "{first:?}");
    assert_eq!(first, again);
    let other = send(with(&plan_fields(), "planName", "Outro")).await;
    assert_eq!(other.0, StatusCode::UNPROCESSABLE_ENTITY, "{other:?}");
    let plans: i64 = sqlx::query_scalar(
        "select count(distinct aggregate_id) from events where aggregate_type = 'SubscriptionDetail'",
    )
    .fetch_one(&system.pool)
    .await
    .expect("count");
    assert_eq!(plans, 1);
}

#[tokio::test]
async fn every_plan_form_rule_answers_its_message() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let base = plan_fields();
    let long_description = "x".repeat(151);
    let long_name = "x".repeat(61);
    let cases: Vec<(&'static str, &str, &str, &str)> = vec![
        ("description", "", "description", "Digite a descrição."),
        ("value", "", "value", "Digite o valor."),
        ("status", "", "status", "Selecione o status."),
        ("discount", "", "discount", "Digite o desconto"),
        ("discount", "101", "discount", "O desconto deve estar entre 0 e 100."),
        ("planName", "", "planName", "Informe o nome do plano"),
        ("quantity", "", "quantity", "Digite a quantidade"),
        ("paymentMethod", "pix", "paymentMethod", "Informe o método de pagamento."),
        ("validityStart", "1899-01-01", "validityStart", "Digite uma data válida"),
        ("validityStart", "2031-01-01", "validityStart", "Data deve ser menor que data fim"),
        ("validityEnd", "2025-01-01", "validityEnd", "Data deve ser maior que data inicio"),
        (
            "advertisingStart",
            "2025-06-01",
            "advertisingStart",
            "Data deve estar entre as data de inicio e fim de validada",
        ),
        ("description", &long_description, "description", "A descrição deve ter no máximo 150 caracteres."),
        ("value", "12345678,901", "value", "Digite o valor."),
        ("planName", &long_name, "planName", "O nome do plano deve ter no máximo 60 caracteres."),
        ("quantity", "101", "quantity", "A quantidade deve estar entre 0 e 100."),
        ("paymentMethod", "", "paymentMethod", "Informe o método de pagamento."),
        ("periodicity", "daily", "periodicity", "Informe a periodicidade."),
        ("validityEnd", "31/12/2030", "validityEnd", "Digite uma data válida"),
        ("advertisingEnd", "2026-01-15", "advertisingEnd", "Data deve ser maior que data inicio"),
        (
            "advertisingEnd",
            "2031-01-15",
            "advertisingEnd",
            "Data deve estar entre as data de inicio e fim de validada",
        ),
        ("companies", "[]", "companies", "Informe pelo menos uma empresa"),
        ("companies", r#"[{"idCompany": 99}]"#, "companies", "Empresa não encontrada."),
        (
            "partnerCompanies",
            r#"[{"idPartnerCompany": 99}]"#,
            "partnerCompanies",
            "Empresa parceira não encontrada.",
        ),
    ];
    for (name, value, field, message) in cases {
        let fields = with(&base, name, value);
        let answer = save_plan(&system, &admin, Method::POST, "/api/subscription-details", &fields).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{name}={value}: {answer:?}");
        assert_eq!(answer.body["errors"][field], message, "{name}={value}: {answer:?}");
    }
    let events: i64 =
        sqlx::query_scalar("select count(*) from events where aggregate_type = 'SubscriptionDetail'")
            .fetch_one(&system.pool)
            .await
            .expect("count");
    assert_eq!(events, 0, "nothing stored when refused");
}

#[tokio::test]
async fn plan_services_are_added_once_edited_listed_and_deleted() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let plan = create_plan(&system, &admin).await;
    let add = |service: i64, discount: Value| json!({ "idService": service, "idSubscriptionDetail": plan, "discount": discount });

    let refused = system
        .call(Method::POST, "/api/subscription-service/", Some(&attendant), Some(add(1, json!(10))))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    for (body, field, message) in [
        (add(0, json!(10)), "idService", "Escolha um serviço"),
        (add(1, Value::Null), "discount", "Informe o valor do desconto"),
        (add(1, json!(150)), "discount", "O desconto deve estar entre 0 e 100."),
        (add(999, json!(10)), "idService", "Escolha um serviço"),
    ] {
        let answer = system.call(Method::POST, "/api/subscription-service/", Some(&admin), Some(body)).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{answer:?}");
        assert_eq!(answer.body["errors"][field], message);
    }
    let first =
        system.call(Method::POST, "/api/subscription-service/", Some(&admin), Some(add(1, json!(10)))).await;
    assert_eq!(first.status, StatusCode::CREATED, "{first:?}");
    let first_id = first.body["IdSubscriptionService"].as_i64().expect("id");
    let again =
        system.call(Method::POST, "/api/subscription-service/", Some(&admin), Some(add(1, json!(20)))).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "a service appears at most once per plan");
    let second =
        system.call(Method::POST, "/api/subscription-service", Some(&admin), Some(add(2, json!(0)))).await;
    let second_id = second.body["IdSubscriptionService"].as_i64().expect("id");
    let clash = system
        .call(
            Method::PUT,
            &format!("/api/subscription-service/{second_id}"),
            Some(&admin),
            Some(add(1, json!(5))),
        )
        .await;
    assert_eq!(clash.status, StatusCode::CONFLICT);
    let edit = system
        .call(
            Method::PUT,
            &format!("/api/subscription-service/{first_id}"),
            Some(&admin),
            Some(add(1, json!(50))),
        )
        .await;
    assert_eq!(edit.status, StatusCode::OK, "{edit:?}");
    system.project().await;
    let list = system
        .call(Method::GET, &format!("/api/subscription-service/services/{plan}"), Some(&admin), None)
        .await;
    assert_eq!(list.body.as_array().map(Vec::len), Some(2), "{list:?}");
    let service = &list.body[0];
    assert_eq!(service["Discount"], 50);
    let original = service["OriginalValue"].as_f64().unwrap_or_default();
    assert!((service["Value"].as_f64().unwrap_or_default() - original / 2.0).abs() < 0.011, "{service}");
    let removed = system
        .call(Method::DELETE, &format!("/api/subscription-service/{first_id}"), Some(&admin), None)
        .await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT);
    let gone = system
        .call(Method::DELETE, &format!("/api/subscription-service/{first_id}"), Some(&admin), None)
        .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    system.project().await;
    let list = system
        .call(Method::GET, &format!("/api/subscription-service/services/{plan}"), Some(&admin), None)
        .await;
    assert_eq!(list.body.as_array().map(Vec::len), Some(1));
}

/// Creates a plan, a link for client 1 and a boleto subscription through the simulator.
async fn subscribe(club: &Club, admin: &str) -> (i64, i64, Value) {
    let plan = create_plan(&club.system, admin).await;
    let answer = subscribe_to(club, admin, plan).await;
    let id = answer["IdSubscriptionUser"].as_i64().expect("id");
    club.system.project().await;
    (plan, id, answer)
}

/// A link to `plan` for client 1, used to subscribe by boleto: the checkout's answer.
pub async fn subscribe_to(club: &Club, admin: &str, plan: i64) -> Value {
    let token = link_token(club, admin, plan).await;
    subscribe_by_boleto(club, &token).await
}

/// The token of a new checkout link to `plan` for client 1.
async fn link_token(club: &Club, admin: &str, plan: i64) -> String {
    let link = club
        .http(
            Method::POST,
            "/api/checkout/create-user-token",
            Some(admin),
            Some(json!({ "userId": 1, "planId": plan })),
        )
        .await;
    assert_eq!(link.status, StatusCode::CREATED, "{link:?}");
    link.body["Token"].as_str().expect("token").to_owned()
}

/// Subscribes by boleto with a link's token: the checkout's answer.
async fn subscribe_by_boleto(club: &Club, token: &str) -> Value {
    let answer = club
        .http(
            Method::POST,
            "/api/checkout/subscribe",
            None,
            Some(json!({ "token": token, "paymentMethod": "boleto" })),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    answer.body
}

async fn detail(club: &Club, token: &str, id: i64, query: &str) -> Value {
    club.system.project().await;
    let answer = club
        .system
        .call(Method::GET, &format!("/api/subscription-user/{id}{query}"), Some(token), None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    answer.body
}

/// The webhook of the subscription's first charge paid by boleto, held back by the
/// simulator for the test to deliver.
async fn held_payment_webhook(club: &Club, admin: &str, id: i64) -> Value {
    let transaction_id =
        detail(club, admin, id, "").await["Transactions"][0]["GalaxPayId"].as_i64().expect("tx");
    club.sim(
        &format!("/sim/transactions/{transaction_id}/status"),
        json!({ "status": "payedBoleto", "webhook": false }),
    )
    .await["webhook"]
        .clone()
}

async fn event_count(pool: &PgPool) -> i64 {
    sqlx::query_scalar("select count(*) from events").fetch_one(pool).await.expect("count")
}

#[tokio::test]
async fn checkout_links_are_mailed_expire_and_work_once() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let barber = club.system.sign_in("barbeiro1@navalha.dev").await;
    let card_plan = with(&plan_fields(), "paymentMethod", "creditcard");
    let created =
        save_plan(&club.system, &admin, Method::POST, "/api/subscription-details", &card_plan).await;
    let plan = created.body["IdSubscriptionDetail"].as_i64().expect("plan id");
    let body = json!({ "userId": 1, "planId": plan });

    let refused =
        club.http(Method::POST, "/api/checkout/create-user-token", Some(&barber), Some(body.clone())).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let unknown = club
        .http(
            Method::POST,
            "/api/checkout/create-user-token",
            Some(&admin),
            Some(json!({ "userId": 999, "planId": plan })),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    let sent = club
        .http(Method::POST, "/api/checkout/send-user-token-email", Some(&admin), Some(body.clone()))
        .await;
    assert_eq!((sent.status, sent.body.clone()), (StatusCode::OK, json!(true)), "{sent:?}");
    let mail = club.system.outbox().pop().expect("an e-mail");
    let text = mail.to_string();
    let token = text.split("token=").nth(1).expect("link").chars().take(64).collect::<String>();

    let summary =
        club.http(Method::POST, "/api/checkout/summary", None, Some(json!({ "token": token }))).await;
    assert_eq!(summary.status, StatusCode::OK, "{summary:?}");
    assert_eq!(summary.body["PlanName"], "Clube do corte");
    assert_eq!(summary.body["User"]["IdUser"], 1);

    let subscribe = |request: Value| club.http(Method::POST, "/api/checkout/subscribe", None, Some(request));
    let by_boleto = subscribe(json!({ "token": token, "paymentMethod": "boleto" })).await;
    assert_eq!(by_boleto.status, StatusCode::UNPROCESSABLE_ENTITY, "a card plan takes no boleto");
    assert_eq!(by_boleto.body["errors"]["paymentMethod"], "Este plano não aceita este método de pagamento.");
    let bad_card = subscribe(json!({ "token": token, "paymentMethod": "creditcard" })).await;
    assert_eq!(bad_card.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Card numbers are not taken: only the provider's tokenizer sees them.
    let raw =
        json!({ "number": "4111111111111111", "holder": "JOAO C", "expiresAt": "2030-12", "cvv": "123" });
    let raw = subscribe(json!({ "token": token, "paymentMethod": "creditcard", "card": raw })).await;
    assert_eq!(raw.body["errors"]["card"], navalha_command_api::club::checkout::MSG_CARD, "{raw:?}");
    let unknown_hash = json!({ "hash": "not-a-hash-the-provider-gave" });
    let unknown_hash =
        subscribe(json!({ "token": token, "paymentMethod": "creditcard", "card": unknown_hash })).await;
    assert_eq!(
        (unknown_hash.status, &unknown_hash.body["errors"]["card"]),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            &json!(navalha_command_api::club::galaxpay::MSG_CARD_HASH_REFUSED)
        ),
        "a spent or unknown hash asks for the card again"
    );

    // A card the operator denies: the client is told why, nothing goes on billing it, and
    // the same link works for another card.
    let denied_card = json!({ "hash": club.card_hash("4111 1111 1111 0000").await });
    let denied =
        subscribe(json!({ "token": token, "paymentMethod": "creditcard", "card": denied_card })).await;
    assert_eq!(denied.status, StatusCode::UNPROCESSABLE_ENTITY, "{denied:?}");
    let message = denied.body["errors"]["card"].as_str().expect("card error");
    assert!(message.starts_with("O pagamento foi recusado pela operadora do cartão"), "{message}");
    // It was an attempt on this link, not a subscriber: no list shows it, and its events
    // (the denied charge, the provider's cancellation) stay in the log.
    club.system.project().await;
    let list = club
        .system
        .call(Method::GET, &format!("/api/subscription-user?idSubscriptionDetail={plan}"), Some(&admin), None)
        .await;
    assert_eq!(list.body["total"], 0, "{list:?}");
    let attempt: Vec<(String, String)> = sqlx::query_as(
        "select event_type, coalesce(payload -> 'ProviderReported' -> 'report' ->> 'subscription_status', '')
           from events where aggregate_type = 'SubscriptionUser' order by global_position",
    )
    .fetch_all(&club.system.pool)
    .await
    .expect("events");
    assert_eq!(
        attempt,
        [
            ("FirstChargeDenied".to_owned(), String::new()),
            ("ProviderReported".to_owned(), "canceled".to_owned())
        ],
        "cancelled at the provider and read back"
    );

    let card = json!({ "hash": club.card_hash("4111 1111 1111 1111").await });
    let paid = subscribe(json!({ "token": token, "paymentMethod": "creditcard", "card": card })).await;
    assert_eq!(paid.status, StatusCode::CREATED, "{paid:?}");
    let today = navalha_platform::clock::today().to_string();
    assert_eq!(
        (&paid.body["DueDate"], &paid.body["Value"]),
        (&json!(today), &json!(89.9)),
        "a card is charged today"
    );
    let again = club
        .http(
            Method::POST,
            "/api/checkout/subscribe",
            None,
            Some(json!({ "token": token, "paymentMethod": "boleto" })),
        )
        .await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY, "a link works once");
    let id = paid.body["IdSubscriptionUser"].as_i64().expect("id");
    let state = detail(&club, &admin, id, "").await;
    assert_eq!(state["InternalStatus"], "ACTIVE", "{state}");
    assert_eq!(state["Transactions"][0]["Status"], "captured");
    assert_eq!(state["Transactions"][0]["CardNumber"], "************1111");

    let link = club.http(Method::POST, "/api/checkout/create-user-token", Some(&admin), Some(body)).await;
    let token = link.body["Token"].as_str().expect("token").to_owned();
    sqlx::query("update checkout_token set expires_at = now() - interval '1 minute'")
        .execute(&club.system.pool)
        .await
        .expect("expire");
    let expired =
        club.http(Method::POST, "/api/checkout/summary", None, Some(json!({ "token": token }))).await;
    assert_eq!(expired.status, StatusCode::UNPROCESSABLE_ENTITY);
    let unknown =
        club.http(Method::POST, "/api/checkout/summary", None, Some(json!({ "token": "nope" }))).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_checkout_names_the_shop_and_services_and_the_first_boleto_is_due_after_the_plans_days() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let path = "/api/subscription-details";
    for bad in ["0", "31", "dois"] {
        let refused =
            save_plan(&club.system, &admin, Method::POST, path, &with(&plan_fields(), "firstDueDays", bad))
                .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert_eq!(refused.body["errors"]["firstDueDays"], navalha_domain::plan::MSG_FIRST_DUE_DAYS);
    }
    let created =
        save_plan(&club.system, &admin, Method::POST, path, &with(&plan_fields(), "firstDueDays", "7")).await;
    let plan = created.body["IdSubscriptionDetail"].as_i64().expect("plan id");
    let service = json!({ "idService": 1, "idSubscriptionDetail": plan, "discount": 20 });
    let added =
        club.system.call(Method::POST, "/api/subscription-service/", Some(&admin), Some(service)).await;
    assert_eq!(added.status, StatusCode::CREATED, "{added:?}");
    club.system.project().await;
    let read =
        club.system.call(Method::GET, &format!("/api/subscription-details/{plan}"), Some(&admin), None).await;
    assert_eq!(read.body["FirstDueDays"], 7, "{read:?}");

    let token = link_token(&club, &admin, plan).await;
    let summary =
        club.http(Method::POST, "/api/checkout/summary", None, Some(json!({ "token": token }))).await;
    assert_eq!(summary.body["BusinessName"], navalha_command_api::seed::DEMO_BUSINESS_NAME, "{summary:?}");
    assert_eq!(summary.body["FirstDueDays"], 7);
    let services = summary.body["Services"].as_array().expect("services");
    assert_eq!(services.len(), 1, "{summary:?}");
    let (original, discount, value) =
        (&services[0]["OriginalValue"], &services[0]["Discount"], &services[0]["Value"]);
    assert_eq!(discount, 20);
    let (original, value) = (original.as_f64().expect("reais"), value.as_f64().expect("reais"));
    assert_eq!(((original * 80.0).round() / 100.0), value, "the subscriber's price is 20 % off");

    let answer = subscribe_by_boleto(&club, &token).await;
    let due = (navalha_platform::clock::today() + chrono::Duration::days(7)).to_string();
    assert_eq!((&answer["DueDate"], &answer["Value"]), (&json!(due), &json!(89.9)), "{answer}");
    let line = answer["BoletoBankLine"].as_str().expect("linha digitável");
    assert_eq!(line.chars().filter(char::is_ascii_digit).count(), 47, "{line}");
    assert!(line.ends_with("0000008990"), "{line}");
    club.system.project().await;
    let id = answer["IdSubscriptionUser"].as_i64().expect("id");
    let state = detail(&club, &admin, id, "").await;
    assert_eq!(
        state["Transactions"][0]["Payday"],
        json!(due),
        "the provider was asked for that day: {state}"
    );
}

#[tokio::test]
async fn webhooks_with_a_wrong_missing_or_replayed_hash_are_refused_and_store_nothing() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let (_, id, _) = subscribe(&club, &admin).await;
    let hook = held_payment_webhook(&club, &admin, id).await;
    let before = event_count(&club.system.pool).await;

    let mut wrong = hook.clone();
    wrong["confirmHash"] = json!("not-the-hash");
    let mut missing = hook.clone();
    missing.as_object_mut().map(|o| o.remove("confirmHash"));
    for body in [wrong, missing] {
        let answer = post_webhook(&club.system, &body).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{answer:?}");
    }
    assert_eq!(event_count(&club.system.pool).await, before, "nothing stored");

    let accepted = post_webhook(&club.system, &hook).await;
    assert_eq!(accepted.status, StatusCode::OK, "{accepted:?}");
    let after = event_count(&club.system.pool).await;
    assert_eq!(after, before + 1, "one event per accepted webhook");

    let repeated = post_webhook(&club.system, &hook).await;
    assert_eq!(repeated.status, StatusCode::OK, "a repeated delivery is acknowledged");
    assert_eq!(event_count(&club.system.pool).await, after, "and changes nothing");

    let mut replayed = hook.clone();
    replayed["Transaction"]["status"] = json!("chargeback");
    replayed["Transaction"]["statusDate"] = json!("2099-01-01 00:00:00");
    let answer = post_webhook(&club.system, &replayed).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "the hash of one webhook cannot carry another body");
    assert_eq!(event_count(&club.system.pool).await, after);

    let mut unknown = hook.clone();
    unknown["webhookId"] = json!(987_654);
    unknown["Subscription"]["myId"] = json!("424242");
    let answer = post_webhook(&club.system, &unknown).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let stored: i64 = sqlx::query_scalar("select count(*) from provider_webhook")
        .fetch_one(&club.system.pool)
        .await
        .expect("count");
    assert_eq!(stored, 1, "only the accepted webhook is remembered");

    let state = detail(&club, &admin, id, "").await;
    assert_eq!(state["InternalStatus"], "ACTIVE");
    assert_eq!(state["AmountReceived"], 89.9);
}

/// Issue 39, point 3: a webhook dated 2099 with the right hash used to set a paid charge to
/// chargeback and the subscription to CANCELED for good, and 'Atualizar dados' then found
/// nothing to change. Its times are now clamped to its arrival, a read of the provider wins
/// over it, and a repeat re-serialized on the way is still a repeat.
#[tokio::test]
async fn a_forged_future_dated_webhook_lasts_until_the_next_read_of_the_provider() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let (_, id, _) = subscribe(&club, &admin).await;
    let paid = held_payment_webhook(&club, &admin, id).await;
    assert_eq!(post_webhook(&club.system, &paid).await.status, StatusCode::OK);
    assert_eq!(detail(&club, &admin, id, "").await["InternalStatus"], "ACTIVE");

    // Someone who saw that body forges another with its hash.
    let mut forged = paid.clone();
    forged["webhookId"] = json!(990_001);
    forged["Transaction"]["status"] = json!("chargeback");
    forged["Transaction"]["statusDate"] = json!("2099-01-01 00:00:00");
    forged["Subscription"]["status"] = json!("canceled");
    assert_eq!(post_webhook(&club.system, &forged).await.status, StatusCode::OK);
    let pinned = detail(&club, &admin, id, "").await;
    assert_eq!(pinned["InternalStatus"], "CANCELED", "{pinned}");
    let (observed, latest): (String, String) = sqlx::query_as(
        "select payload -> 'ProviderReported' -> 'report' ->> 'observed_at',
                to_char(now() at time zone 'America/Sao_Paulo' + interval '6 minutes', 'YYYY-MM-DD\"T\"HH24:MI:SS')
           from events where aggregate_id = $1 and event_type = 'ProviderReported' order by sequence desc limit 1",
    )
    .bind(id.to_string())
    .fetch_one(&club.system.pool)
    .await
    .expect("the forged report");
    assert!(observed < latest && observed.starts_with("20") && !observed.starts_with("2099"), "{observed}");

    // The same forged event, re-serialized on the way: a repeat, recorded once.
    let before = event_count(&club.system.pool).await;
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/galaxpay/webhook")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(serde_json::to_string_pretty(&forged).expect("json")))
        .expect("request");
    let repeated = club.system.command.clone().oneshot(request).await.expect("response");
    assert_eq!(repeated.status(), StatusCode::OK);
    assert_eq!(event_count(&club.system.pool).await, before);

    // 'Atualizar dados' reads the provider, with Navalha's own credentials: the read wins.
    let updated = command_get(&club.system, &format!("/api/subscription-user/{id}/updateData"), &admin).await;
    assert_eq!(updated.status, StatusCode::OK, "{updated:?}");
    let repaired = detail(&club, &admin, id, "").await;
    assert_eq!(repaired["InternalStatus"], "ACTIVE", "{repaired}");
    assert_eq!(repaired["AmountReceived"], 89.9);
    assert_eq!(repaired["Transactions"][0]["Status"], "payedBoleto", "{repaired}");
}

/// Issue 39, point 8: the home's club figures and a client's `SubscriptionUser` follow the
/// subscribers list's unit rule. An attendant of Savassi saw the subscribers and charges of
/// a plan of Centro alone on her home, while the subscriber itself answered her 404.
#[tokio::test]
async fn the_home_and_the_client_form_show_the_subscriptions_the_subscribers_list_shows() {
    let pool = demo_database().await;
    use navalha_domain::role::Role;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    // A plan of Centro alone (plan_fields), and a subscriber with a boleto to pay.
    let (_, id, _) = subscribe(&club, &admin).await;
    let savassi: i64 =
        sqlx::query_scalar("select company_id from rm_company.company where name = 'Navalha Savassi'")
            .fetch_one(&club.system.pool)
            .await
            .expect("Savassi");
    let (_, attendant) = crate::isolation::staff(&club.system, &admin, Role::Attendant, savassi).await;
    club.system.project().await;
    let pending = |home: &Answer| -> Vec<i64> {
        home.body["Club"]["Pending"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["IdSubscriptionUser"].as_i64())
            .collect()
    };
    let subscriptions = |client: &Answer| -> Vec<i64> {
        client.body["SubscriptionUser"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s["IdSubscriptionUser"].as_i64())
            .collect()
    };
    for (token, reaches) in [(&admin, true), (&attendant, false)] {
        let listed =
            club.system.call(Method::GET, "/api/subscription-user?pageSize=100", Some(token), None).await;
        let in_list =
            listed.body["content"].as_array().into_iter().flatten().any(|s| s["IdSubscriptionUser"] == id);
        let one =
            club.system.call(Method::GET, &format!("/api/subscription-user/{id}"), Some(token), None).await;
        let home = club.system.call(Method::GET, "/api/dashboard?period=today", Some(token), None).await;
        let client = club.system.call(Method::GET, "/api/user/1", Some(token), None).await;
        assert_eq!(in_list, reaches, "the list");
        assert_eq!(one.status == StatusCode::OK, reaches, "the subscriber: {one:?}");
        assert_eq!(pending(&home).contains(&id), reaches, "the home's open charges: {}", home.body);
        assert_eq!(subscriptions(&client).contains(&id), reaches, "the client form: {}", client.body);
        // The home's subscribers are the list's active ones.
        let active = club
            .system
            .call(Method::GET, "/api/subscription-user?internalStatus=ACTIVE&pageSize=100", Some(token), None)
            .await;
        assert_eq!(home.body["Club"]["ActiveSubscribers"], active.body["total"], "{}", home.body);
    }
}

#[tokio::test]
async fn the_same_webhook_delivered_concurrently_is_recorded_once() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let (_, id, created) = subscribe(&club, &admin).await;
    let remote = club.sim_get(&format!("/sim/subscriptions/{}", created["GalaxPayId"])).await;
    let first = remote["Transactions"][0]["galaxPayId"].as_i64().expect("tx");
    let hook = club
        .sim(
            &format!("/sim/transactions/{first}/status"),
            json!({ "status": "payedBoleto", "webhook": false }),
        )
        .await["webhook"]
        .clone();
    let before = event_count(&club.system.pool).await;
    let (a, b, c, d) = tokio::join!(
        post_webhook(&club.system, &hook),
        post_webhook(&club.system, &hook),
        post_webhook(&club.system, &hook),
        post_webhook(&club.system, &hook),
    );
    for answer in [a, b, c, d] {
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    }
    assert_eq!(event_count(&club.system.pool).await, before + 1);
    let state = detail(&club, &admin, id, "").await;
    assert_eq!(state["AmountReceived"], 89.9);
}

/// Every order of a five-webhook sequence from the simulator (two charges added, both paid,
/// a third added and refused), each delivered to its own subscription over HTTP, ends in
/// the same state.
#[tokio::test]
async fn webhooks_in_every_order_reach_the_same_state() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let plan = create_plan(&club.system, &admin).await;
    let mut orders = Vec::new();
    permutations(&mut vec![0, 1, 2, 3, 4], 0, &mut orders);
    assert_eq!(orders.len(), 120);
    let held = json!({ "webhook": false });
    let mut ids = Vec::new();
    for order in &orders {
        let created = subscribe_to(&club, &admin, plan).await;
        let galax = created["GalaxPayId"].as_i64().expect("galax id");
        let remote = club.sim_get(&format!("/sim/subscriptions/{galax}")).await;
        let first = remote["Transactions"][0]["galaxPayId"].as_i64().expect("tx");
        let status = |id: i64, status: &str| {
            (format!("/sim/transactions/{id}/status"), json!({ "status": status, "webhook": false }))
        };
        let (path, body) = status(first, "payedBoleto");
        let mut hooks = vec![club.sim(&path, body).await["webhook"].clone()];
        let second = club.sim(&format!("/sim/subscriptions/{galax}/charges"), held.clone()).await;
        hooks.push(second["webhook"].clone());
        let (path, body) = status(second["Transaction"]["galaxPayId"].as_i64().expect("tx"), "payedBoleto");
        hooks.push(club.sim(&path, body).await["webhook"].clone());
        let third = club.sim(&format!("/sim/subscriptions/{galax}/charges"), held.clone()).await;
        hooks.push(third["webhook"].clone());
        let (path, body) = status(third["Transaction"]["galaxPayId"].as_i64().expect("tx"), "denied");
        hooks.push(club.sim(&path, body).await["webhook"].clone());
        for index in order {
            let answer = post_webhook(&club.system, &hooks[*index]).await;
            assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        }
        ids.push(created["IdSubscriptionUser"].as_i64().expect("id"));
    }
    club.system.project().await;
    let mut finals = Vec::new();
    for id in ids {
        let state = club
            .system
            .call(Method::GET, &format!("/api/subscription-user/{id}"), Some(&admin), None)
            .await
            .body;
        let statuses: Vec<Value> =
            state["Transactions"].as_array().expect("list").iter().map(|t| t["Status"].clone()).collect();
        finals.push((
            statuses,
            state["InternalStatus"].clone(),
            state["AmountReceived"].clone(),
            state["AmountToReceive"].clone(),
        ));
    }
    assert!(finals.windows(2).all(|w| w[0] == w[1]), "{finals:?}");
    assert_eq!(finals[0].0, [json!("payedBoleto"), json!("payedBoleto"), json!("denied")]);
    assert_eq!(finals[0].1, "PENDING_PAYMENT", "the latest charge was refused");
    assert_eq!((finals[0].2.clone(), finals[0].3.clone()), (json!(179.8), json!(0.0)));
}

fn permutations(items: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
    if k == items.len() {
        out.push(items.clone());
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, out);
        items.swap(k, i);
    }
}

#[tokio::test]
async fn subscribers_are_listed_filtered_cancelled_once_by_admins_and_refreshed_on_demand() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let attendant = club.system.sign_in("atendente@navalha.dev").await;
    let leader = club.system.sign_in("lider@navalha.dev").await;
    let barber = club.system.sign_in("barbeiro1@navalha.dev").await;
    let (plan, id, _) = subscribe(&club, &admin).await;

    let list =
        club.system.call(Method::GET, "/api/subscription-user?page=1&pageSize=5", Some(&leader), None).await;
    assert_eq!(list.status, StatusCode::OK, "{list:?}");
    assert_eq!(list.body["total"], 1);
    assert_eq!(list.body["content"][0]["InternalStatus"], "PENDING_PAYMENT");
    assert_eq!(list.body["content"][0]["User"]["IdUser"], 1);
    for (query, total) in [
        (format!("internalStatus=PENDING_PAYMENT&idSubscriptionDetail={plan}"), 1),
        ("internalStatus=ACTIVE".to_owned(), 0),
        ("idSubscriptionDetail=999".to_owned(), 0),
        ("description=jo%C3%A3o".to_owned(), 1),
        ("description=maria".to_owned(), 0),
    ] {
        let answer = club
            .system
            .call(Method::GET, &format!("/api/subscription-user?{query}"), Some(&admin), None)
            .await;
        assert_eq!(answer.body["total"], total, "{query}: {answer:?}");
    }
    let client = club.system.call(Method::GET, "/api/user/1", Some(&admin), None).await;
    assert_eq!(client.body["SubscriptionUser"][0]["IdSubscriptionUser"], id, "{client:?}");
    let clients =
        club.system.call(Method::GET, "/api/user/filter?page=1&pageSize=100", Some(&admin), None).await;
    let listed = clients.body["content"].as_array().expect("list").iter().find(|c| c["IdUser"] == 1).cloned();
    assert_eq!(listed.map(|c| c["SubscriptionUser"][0]["IdSubscriptionUser"].clone()), Some(json!(id)));
    // The agenda's card shows it too, and the day list of now (read from the agenda's model)
    // equals the past view's (replayed from the events) field for field.
    let d = crate::support::demo(&club.system).await;
    let tuesday = crate::support::next(chrono::Weekday::Tue);
    let booking = crate::support::body(d.barber1, tuesday, "10:00", &[d.haircut, d.beard], 1);
    crate::support::id_of(&crate::support::book(&club.system, &admin, booking).await);
    club.system.project().await;
    let day = |extra: String| {
        let path = format!("/api/scheduling/professional?idCompany={}&date={tuesday}{extra}", d.centro);
        let (system, admin) = (&club.system, &admin);
        async move { system.call(Method::GET, &path, Some(admin), None).await }
    };
    let now = day(String::new()).await;
    assert_eq!(now.body[0]["SubscriptionUser"][0]["IdSubscriptionUser"], id, "{now:?}");
    assert_eq!(now.body[0]["Services"].as_array().map(Vec::len), Some(2));
    let at = crate::support::urlencode(&navalha_platform::clock::now().to_rfc3339());
    assert_eq!(day(format!("&asOf={at}")).await.body, now.body);
    let forbidden = club.system.call(Method::GET, "/api/subscription-user", Some(&barber), None).await;
    assert_eq!(forbidden.status, StatusCode::FORBIDDEN);

    let state = detail(&club, &leader, id, "").await;
    assert_eq!(state["User"]["IdUser"], 1);
    assert_eq!(state["Status"], "active");
    assert_eq!(
        (state["AmountReceived"].clone(), state["AmountToReceive"].clone()),
        (json!(0.0), json!(89.9))
    );
    assert_eq!(state["Transactions"][0]["Status"], "pendingBoleto");
    assert!(state["Transactions"][0]["BoletoPdf"].is_string());

    let updated =
        command_get(&club.system, &format!("/api/subscription-user/{id}/updateData"), &leader).await;
    assert_eq!(
        (updated.status, updated.body["Changed"].clone()),
        (StatusCode::OK, json!(false)),
        "{updated:?}"
    );

    let refused =
        club.http(Method::DELETE, &format!("/api/subscription-user/{id}"), Some(&attendant), None).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let cancelled =
        club.http(Method::DELETE, &format!("/api/subscription-user/{id}"), Some(&admin), None).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{cancelled:?}");
    let again = club.http(Method::DELETE, &format!("/api/subscription-user/{id}"), Some(&admin), None).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{again:?}");
    let state = detail(&club, &admin, id, "").await;
    assert_eq!(state["InternalStatus"], "CANCELED");
    assert_eq!(state["Status"], "canceled");
    assert_eq!(state["Transactions"][0]["Status"], "cancelByContract");
    assert_eq!(state["AmountToReceive"], 0.0);
    let missing = club.http(Method::DELETE, "/api/subscription-user/999", Some(&admin), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

/// The whole path over real HTTP: plan, link by e-mail, boleto, payment, a lost webhook,
/// reconciliation, amounts, and the state as of three instants with its timeline.
#[tokio::test]
async fn end_to_end_with_the_local_provider() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");

    // 1. Create a plan.
    let response = club
        .http
        .post(format!("{}/api/subscription-details", club.command_url))
        .bearer_auth(&admin)
        .header("content-type", content_type)
        .body(multipart(&plan_fields(), None))
        .send()
        .await
        .expect("plan");
    assert_eq!(response.status().as_u16(), 201);
    let plan = response.json::<Value>().await.expect("json")["IdSubscriptionDetail"].as_i64().expect("id");

    // 2. Send the link.
    let sent = club
        .http(
            Method::POST,
            "/api/checkout/send-user-token-email",
            Some(&admin),
            Some(json!({ "userId": 2, "planId": plan })),
        )
        .await;
    assert_eq!(sent.body, json!(true), "{sent:?}");
    let mail = club.system.outbox().pop().expect("mail").to_string();
    let token: String = mail.split("token=").nth(1).expect("link").chars().take(64).collect();

    // 3. Subscribe by boleto.
    let summary =
        club.http(Method::POST, "/api/checkout/summary", None, Some(json!({ "token": token }))).await;
    assert_eq!(summary.body["IdSubscriptionDetail"], plan);
    let created = club
        .http(
            Method::POST,
            "/api/checkout/subscribe",
            None,
            Some(json!({ "token": token, "paymentMethod": "boleto" })),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdSubscriptionUser"].as_i64().expect("id");
    let galax = created.body["GalaxPayId"].as_i64().expect("galax");
    assert!(created.body["BoletoPdf"].is_string());
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let t1 = navalha_platform::clock::now();

    // 4. Pay: the simulator sends the webhook over HTTP.
    club.system.project().await;
    let first =
        club.http(Method::GET, &format!("/api/subscription-user/{id}"), Some(&admin), None).await.body
            ["Transactions"][0]["GalaxPayId"]
            .as_i64()
            .expect("tx");
    let paid =
        club.sim(&format!("/sim/transactions/{first}/status"), json!({ "status": "payedBoleto" })).await;
    assert_eq!(paid["Transaction"]["status"], "payedBoleto");
    let hooks = club.sim_get("/sim/webhooks").await;
    assert_eq!(hooks[0]["answer"], 200, "{hooks}");
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let t2 = navalha_platform::clock::now();

    // 5. Miss a webhook: a new charge, then its payment, neither delivered.
    let second = club.sim(&format!("/sim/subscriptions/{galax}/charges"), json!({ "webhook": false })).await;
    let second_id = second["Transaction"]["galaxPayId"].as_i64().expect("tx");
    club.sim(
        &format!("/sim/transactions/{second_id}/status"),
        json!({ "status": "payedBoleto", "webhook": false }),
    )
    .await;
    let third = club.sim(&format!("/sim/subscriptions/{galax}/charges"), json!({ "webhook": false })).await;
    let missed = detail(&club, &admin, id, "").await;
    assert_eq!(missed["Transactions"].as_array().map(Vec::len), Some(1), "the webhooks were lost");

    // 6. Reconcile: the job, then updateData which finds nothing more.
    let changed = navalha_command_api::club::subscribers::reconcile_all(&reconcile_state(&club).await)
        .await
        .expect("reconcile");
    assert_eq!(changed, 1);
    let on_demand = club
        .http_to(
            &club.command_url,
            Method::GET,
            &format!("/api/subscription-user/{id}/updateData"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(on_demand.body["Changed"], false, "{on_demand:?}");
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let t3 = navalha_platform::clock::now();

    // 7. Amounts now, and as of three instants.
    let now = detail(&club, &admin, id, "").await;
    assert_eq!(now["Transactions"].as_array().map(Vec::len), Some(3), "{now}");
    assert_eq!(now["AmountReceived"], 179.8);
    assert_eq!(now["AmountToReceive"], 89.9);
    assert_eq!(now["InternalStatus"], "PENDING_PAYMENT", "the latest charge is open");
    assert_eq!(now["Transactions"][2]["GalaxPayId"], third["Transaction"]["galaxPayId"]);
    let as_of =
        |t: chrono::DateTime<chrono::Utc>| format!("?asOf={}", crate::support::urlencode(&t.to_rfc3339()));
    let at1 = detail(&club, &admin, id, &as_of(t1)).await;
    assert_eq!(
        (at1["InternalStatus"].clone(), at1["AmountReceived"].clone(), at1["AmountToReceive"].clone()),
        (json!("PENDING_PAYMENT"), json!(0.0), json!(89.9))
    );
    let at2 = detail(&club, &admin, id, &as_of(t2)).await;
    assert_eq!(
        (at2["InternalStatus"].clone(), at2["AmountReceived"].clone(), at2["AmountToReceive"].clone()),
        (json!("ACTIVE"), json!(89.9), json!(0.0))
    );
    assert_eq!(at2["Transactions"][0]["Status"], "payedBoleto");
    let at3 = detail(&club, &admin, id, &as_of(t3)).await;
    assert_eq!(at3["AmountReceived"], now["AmountReceived"]);
    assert_eq!(at3["Transactions"], now["Transactions"]);
    let before = club
        .system
        .call(Method::GET, &format!("/api/subscription-user/{id}?asOf=2000-01-01"), Some(&admin), None)
        .await;
    assert_eq!(before.status, StatusCode::NOT_FOUND, "it did not exist yet");

    let timeline =
        club.http(Method::GET, &format!("/api/subscription-user/{id}/timeline"), Some(&admin), None).await;
    let reasons: Vec<&str> =
        timeline.body.as_array().expect("list").iter().filter_map(|e| e["Reason"].as_str()).collect();
    assert_eq!(reasons, ["checkout", "checkout", "webhook", "reconciliation"], "{timeline:?}");
    let webhook = &timeline.body[2];
    assert!(webhook["Source"]["WebhookId"].is_i64());
    assert!(webhook["Changes"]
        .as_array()
        .expect("changes")
        .iter()
        .any(|c| c["Field"] == "InternalStatus" && c["To"] == "ACTIVE"));
}

/// A second command-api state on the same database and provider, for calling the job.
async fn reconcile_state(club: &Club) -> navalha_command_api::AppState {
    let settings = navalha_command_api::config::Settings {
        galaxpay_url: format!("{}/v2", club.sim_url),
        galaxpay_id: "5473".into(),
        galaxpay_hash: "test-galax-hash".into(),
        galaxpay_public_token: PUBLIC_TOKEN.into(),
        outbox_dir: club.system.outbox.path().to_path_buf(),
        ..Default::default()
    };
    navalha_command_api::AppState::new(club.system.pool.clone(), settings).await.expect("state")
}

#[tokio::test]
async fn a_client_without_a_cpf_is_told_before_anything_reaches_the_provider() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let plan = create_plan(&club.system, &admin).await;
    // Clients imported before the CPF was required: a copy of client 1 without one.
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         select aggregate_type, '990001', sequence, event_type, event_version,
                jsonb_set(payload, '{ClientRegistered,cpf}', '\"\"'), '{\"user_name\": \"importação\", \"business_id\": \"1\"}'
           from events where aggregate_type = 'Client' and aggregate_id = '1' and sequence = 1",
    )
    .execute(&club.system.pool)
    .await
    .expect("import");
    for path in ["/api/checkout/create-user-token", "/api/checkout/send-user-token-email"] {
        let answer = club
            .http(Method::POST, path, Some(&admin), Some(json!({ "userId": 990001, "planId": plan })))
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {answer:?}");
        assert_eq!(answer.message(), "Cadastre o CPF do cliente antes de enviar o link de assinatura.");
    }
    // A link made before (straight into the table) meets the same check at checkout.
    let token = "f".repeat(64);
    sqlx::query(
        "insert into checkout_token (token_hash, user_id, plan_id, created_by, expires_at)
         values (sha256($1::bytea), 990001, $2, 1, now() + interval '1 hour')",
    )
    .bind(token.as_bytes())
    .bind(plan)
    .execute(&club.system.pool)
    .await
    .expect("token");
    let answer = club
        .http(
            Method::POST,
            "/api/checkout/subscribe",
            None,
            Some(json!({ "token": token, "paymentMethod": "boleto" })),
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{answer:?}");
    assert!(answer.message().starts_with("Seu cadastro está sem CPF"), "{answer:?}");
    assert_eq!(club.sim_get("/sim/webhooks").await, json!([]), "the provider heard nothing");
    let used: bool =
        sqlx::query_scalar("select used_at is not null from checkout_token where user_id = 990001")
            .fetch_one(&club.system.pool)
            .await
            .expect("token row");
    assert!(!used, "the link was not spent");
}

#[tokio::test]
async fn reminders_charges_and_the_agenda_show_in_a_subscription_history() {
    let pool = demo_database().await;
    use crate::scheduling::day_list;
    use crate::support::{body, book, demo, id_of, next};
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let leader = club.system.sign_in("lider@navalha.dev").await;
    let barber = club.system.sign_in("barbeiro1@navalha.dev").await;
    let (_, id, _) = subscribe(&club, &admin).await;

    // The agenda's card links to the client's subscription.
    let ids = demo(&club.system).await;
    let day = next(chrono::Weekday::Tue);
    let booked = book(&club.system, &admin, body(ids.barber1, day, "10:00", &[ids.haircut], 1)).await;
    let appointment = id_of(&booked);
    let list = day_list(&club.system, &admin, ids.centro, day, "").await;
    let card = list.body.as_array().expect("day").iter().find(|a| a["IdScheduling"] == appointment).cloned();
    assert_eq!(card.map(|c| c["SubscriptionUser"][0]["IdSubscriptionUser"].clone()), Some(json!(id)));

    // A reminder is recorded by who sent it, only while a payment is pending.
    let reminder = format!("/api/subscription-user/{id}/reminder");
    assert_eq!(club.http(Method::POST, &reminder, Some(&barber), None).await.status, StatusCode::FORBIDDEN);
    let sent = club.http(Method::POST, &reminder, Some(&leader), None).await;
    assert_eq!(sent.status, StatusCode::OK, "{sent:?}");
    club.system.project().await;
    let first =
        detail(&club, &admin, id, "").await["Transactions"][0]["GalaxPayId"].as_i64().expect("charge");
    club.sim(&format!("/sim/transactions/{first}/status"), json!({ "status": "payedBoleto" })).await;
    let paid = club.http(Method::POST, &reminder, Some(&leader), None).await;
    assert_eq!(paid.status, StatusCode::CONFLICT, "{paid:?}");
    assert_eq!(paid.message(), "Esta assinatura não tem pagamento pendente.");

    let timeline =
        club.http(Method::GET, &format!("/api/subscription-user/{id}/timeline"), Some(&admin), None).await;
    let entries = timeline.body.as_array().expect("entries");
    let events: Vec<&str> = entries.iter().filter_map(|e| e["Event"].as_str()).collect();
    assert_eq!(
        events,
        ["SubscriptionCreated", "ProviderReported", "ReminderSent", "ProviderReported"],
        "{timeline:?}"
    );
    assert_eq!((&entries[2]["Reason"], entries[2]["UserName"].is_string()), (&json!("staff"), true));
    assert_eq!(
        entries[1]["Charges"],
        json!([{ "GalaxPayId": first, "Installment": 1, "Value": 89.9, "From": null, "To": "pendingBoleto" }]),
        "the charge appears"
    );
    assert_eq!(entries[2]["Charges"], json!([]), "a reminder changes no charge");
    assert_eq!(
        entries[3]["Charges"],
        json!([{ "GalaxPayId": first, "Installment": 1, "Value": 89.9, "From": "pendingBoleto", "To": "payedBoleto" }]),
        "the charge is paid"
    );
}

#[tokio::test]
async fn the_club_demo_is_loaded_once_through_the_provider() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let state = reconcile_state(&club).await;
    let loaded = navalha_command_api::club::demo::seed_demo_club(&state, &club.sim_url).await.expect("demo");
    assert!(loaded);
    club.system.project().await;
    let plans = club.system.call(Method::GET, "/api/subscription-details/all", Some(&admin), None).await;
    assert_eq!(plans.body.as_array().map(Vec::len), Some(2), "{plans:?}");
    let list =
        club.system.call(Method::GET, "/api/subscription-user?page=1&pageSize=10", Some(&admin), None).await;
    assert_eq!(list.body["total"], 4, "{list:?}");
    let mut seen = Vec::new();
    for row in list.body["content"].as_array().expect("rows") {
        let id = row["IdSubscriptionUser"].as_i64().expect("id");
        let state = detail(&club, &admin, id, "").await;
        let charges: Vec<&str> = state["Transactions"]
            .as_array()
            .expect("charges")
            .iter()
            .filter_map(|t| t["Status"].as_str())
            .collect();
        seen.push((state["InternalStatus"].as_str().unwrap_or_default().to_owned(), charges.join(",")));
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            ("ACTIVE".to_owned(), "payedBoleto,payedBoleto".to_owned()),
            ("CANCELED".to_owned(), "cancelByContract".to_owned()),
            ("PENDING_PAYMENT".to_owned(), "captured,denied".to_owned()),
            ("PENDING_PAYMENT".to_owned(), "pendingBoleto".to_owned()),
        ]
    );
    let again = navalha_command_api::club::demo::seed_demo_club(&state, &club.sim_url).await.expect("again");
    assert!(!again, "loaded once");
}

#[tokio::test]
async fn a_plan_charges_each_accepted_method_its_own_price() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let admin = club.system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    // Card at R$ 89,90 (the main method), boleto accepted at R$ 99,90.
    let fields = with(
        &with(&plan_fields(), "paymentMethod", "creditcard"),
        "prices",
        r#"[{"paymentMethod":"boleto","value":"99,90"}]"#,
    );
    for (prices, message) in [
        (r#"[{"paymentMethod":"pix","value":"10"}]"#, "Informe o método de pagamento."),
        (r#"[{"paymentMethod":"boleto","value":"0"}]"#, "Digite o valor."),
        ("boleto", "prices deve ser uma lista JSON."),
    ] {
        let refused = save_plan(
            &club.system,
            &admin,
            Method::POST,
            "/api/subscription-details",
            &with(&fields, "prices", prices),
        )
        .await;
        assert_eq!(
            (refused.status, &refused.body["errors"]["prices"]),
            (StatusCode::UNPROCESSABLE_ENTITY, &json!(message))
        );
    }
    let created = save_plan(&club.system, &admin, Method::POST, "/api/subscription-details", &fields).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let plan = created.body["IdSubscriptionDetail"].as_i64().expect("plan id");
    club.system.project().await;
    let prices = json!([{ "PaymentMethod": "creditcard", "Value": 89.9 }, { "PaymentMethod": "boleto", "Value": 99.9 }]);
    let read =
        club.system.call(Method::GET, &format!("/api/subscription-details/{plan}"), Some(&admin), None).await;
    assert_eq!(read.body["Prices"], prices, "{read:?}");
    // The list's method filter finds a plan by any method it accepts.
    let by_boleto = club
        .system
        .call(
            Method::GET,
            "/api/subscription-details?page=1&pageSize=50&paymentMethod=boleto",
            Some(&admin),
            None,
        )
        .await;
    let row = by_boleto.body["content"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["IdSubscriptionDetail"] == plan)
        .cloned();
    assert_eq!(row.map(|r| r["Prices"].clone()), Some(prices.clone()), "{by_boleto:?}");

    let token = link_token(&club, &admin, plan).await;
    let summary =
        club.http(Method::POST, "/api/checkout/summary", None, Some(json!({ "token": token }))).await;
    assert_eq!(summary.body["Prices"], prices);
    let tokenizer = &summary.body["CardTokenizer"];
    assert_eq!((&tokenizer["PublicToken"], &tokenizer["Production"]), (&json!(PUBLIC_TOKEN), &json!(true)));
    let script_url = tokenizer["ScriptUrl"].as_str().expect("script url");
    let script = club.http.get(script_url).send().await.expect("script");
    assert!(script.headers()["content-type"]
        .to_str()
        .unwrap_or_default()
        .starts_with("application/javascript"));
    assert!(script.text().await.unwrap_or_default().contains("hashCreditCard"), "the tokenizer's API");
    // The page that tokenizes is on the shop's origin; the wrong public token gets no hash.
    let wrong = club
        .http
        .post(format!("{}/js/card-hash", club.sim_url))
        .body(json!({ "publicToken": "other", "Card": {} }).to_string())
        .send()
        .await
        .expect("tokenizer");
    assert_eq!(wrong.status(), reqwest::StatusCode::UNAUTHORIZED);
    assert_eq!(wrong.headers()["access-control-allow-origin"], "*");

    let answer = subscribe_by_boleto(&club, &token).await;
    let id = answer["IdSubscriptionUser"].as_i64().expect("id");
    let state = detail(&club, &admin, id, "").await;
    assert_eq!((&state["PlanValue"], &state["MainPaymentMethodId"]), (&json!(99.9), &json!("boleto")));
    assert_eq!(state["Transactions"][0]["Value"], 99.9, "the provider charges the boleto price");
    let remote = club.sim_get(&format!("/sim/subscriptions/{}", answer["GalaxPayId"])).await;
    assert_eq!(remote["value"], 9990);

    // The provider now has the plan: its charging terms stay as it has them.
    let path = format!("/api/subscription-details/{plan}");
    let cheaper = with(&fields, "prices", r#"[{"paymentMethod":"boleto","value":"79,90"}]"#);
    let refused = save_plan(&club.system, &admin, Method::PUT, &path, &with(&cheaper, "value", "9,90")).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{refused:?}");
    let message = json!(navalha_domain::plan::MSG_TERMS_AT_PROVIDER);
    assert_eq!((&refused.body["errors"]["prices"], &refused.body["errors"]["value"]), (&message, &message));
    let renamed =
        save_plan(&club.system, &admin, Method::PUT, &path, &with(&fields, "planName", "Clube novo")).await;
    assert_eq!(renamed.status, StatusCode::OK, "the rest of the plan still changes: {renamed:?}");
}

/// A provider that lost a subscription (a sandbox reset under Navalha's records) charges it
/// nowhere: cancelling it is done here, not answered with a provider error.
#[tokio::test]
async fn a_subscription_the_provider_forgot_is_still_cancelled() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let client = club.system.state.galaxpay.clone();
    assert!(client.cancel_subscription(987_654_321).await.is_ok(), "the provider answered 404");
    // Other failures still answer the provider's 503.
    let unreachable = navalha_command_api::club::galaxpay::GalaxPay::new(
        reqwest::Client::new(),
        "http://127.0.0.1:9/v2",
        "5473",
        "x",
    );
    let down = unreachable.cancel_subscription(1).await.expect_err("nothing listens there");
    assert_eq!(down.status_code(), StatusCode::SERVICE_UNAVAILABLE);
}

/// The club at the counter (issue 41): the active subscriber's 'Corte de cabelo' is covered
/// whole and their 'Barba' half by 'Clube Navalha' (the demo plan); the club's part is paid
/// by 'Assinatura', the client pays the rest, and a subscriber whose payment is pending
/// gets no cover.
#[tokio::test]
async fn the_club_pays_its_plans_share_of_a_subscribers_services_at_the_counter() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let system = &club.system;
    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let admin = admin.as_str();
    let state = reconcile_state(&club).await;
    navalha_command_api::club::demo::seed_demo_club(&state, &club.sim_url).await.expect("demo");
    system.project().await;
    let d = crate::support::demo(system).await;
    let list = system.call(Method::GET, "/api/subscription-user?page=1&pageSize=10", Some(admin), None).await;
    let subscriber = |status: &str| {
        list.body["content"]
            .as_array()
            .and_then(|rows| rows.iter().find(|row| row["InternalStatus"] == status))
            .and_then(|row| row["User"]["IdUser"].as_i64())
            .unwrap_or_else(|| panic!("a {status} subscriber: {list:?}"))
    };
    let (active, pending) = (subscriber("ACTIVE"), subscriber("PENDING_PAYMENT"));
    let caixa = json!({"idCompany": d.centro, "openingCash": 0});
    assert_eq!(
        system.call(Method::POST, "/api/caixa", Some(admin), Some(caixa)).await.status,
        StatusCode::CREATED
    );

    let comanda_for = |client: i64| {
        let body = json!({"idCompany": d.centro, "idUser": client});
        async move {
            let opened = system.call(Method::POST, "/api/comanda", Some(admin), Some(body)).await;
            opened.body["IdComanda"].as_i64().unwrap_or_else(|| panic!("{opened:?}"))
        }
    };
    let add = |id: i64, service: i64| {
        let line = json!({"kind": "service", "id": service, "idProfessional": d.barber1_id});
        let path = format!("/api/comanda/{id}/items");
        async move { system.call(Method::POST, &path, Some(admin), Some(line)).await }
    };
    let id = comanda_for(active).await;
    add(id, d.haircut).await;
    let beard = add(id, d.beard).await;
    let path = format!("/api/comanda/{id}");
    system.project().await;
    let comanda = system.call(Method::GET, &path, Some(admin), None).await;
    let items = comanda.body["Items"].as_array().cloned().unwrap_or_default();
    let covers: Vec<(Value, Value)> = items
        .iter()
        .map(|item| (item["Club"]["Percent"].clone(), item["Club"]["PlanName"].clone()))
        .collect();
    assert_eq!(
        covers,
        [(json!(100), json!("Clube Navalha")), (json!(50), json!("Clube Navalha"))],
        "{comanda:?}"
    );
    let covered: f64 = items.iter().filter_map(|item| item["Club"]["Covered"].as_f64()).sum();
    let subscription: Vec<(Value, Value)> = comanda.body["Payments"]
        .as_array()
        .map(|list| list.iter().map(|p| (p["Method"].clone(), p["IdItem"].clone())).collect())
        .unwrap_or_default();
    assert_eq!(subscription, [(json!("subscription"), json!(1)), (json!("subscription"), json!(2))]);
    let total = comanda.body["Total"].as_f64().unwrap_or_default();
    assert!(covered > 0.0 && covered < total, "a part covered: {comanda:?}");
    // The client pays only what the club does not: half the beard.
    let due = beard.body["Due"].as_f64().unwrap_or_default();
    assert!((due - (total - covered)).abs() < 0.005, "{beard:?}");
    let cash = json!({"method": "cash", "value": due});
    let paid = system.call(Method::POST, &format!("{path}/payments"), Some(admin), Some(cash)).await;
    assert_eq!(paid.body["Due"], 0.0, "{paid:?}");
    let closed = system.call(Method::POST, &format!("{path}/close"), Some(admin), None).await;
    assert_eq!(closed.body["Status"], "CLOSED", "{closed:?}");
    // Taking the haircut off before the close would have taken the club's payment with it:
    // on another comanda, the line goes and so does its 'Assinatura'.
    let other = comanda_for(active).await;
    add(other, d.haircut).await;
    let removed =
        system.call(Method::DELETE, &format!("/api/comanda/{other}/items/1"), Some(admin), None).await;
    assert_eq!(
        (removed.body["Paid"].as_f64(), removed.body["Due"].as_f64()),
        (Some(0.0), Some(0.0)),
        "{removed:?}"
    );

    // A subscriber whose payment is pending pays the whole price.
    let unpaid = comanda_for(pending).await;
    let line = add(unpaid, d.haircut).await;
    assert_eq!(line.body["Paid"], 0.0, "{line:?}");
    assert!(line.body["Due"].as_f64().is_some_and(|due| due > 0.0));
}
