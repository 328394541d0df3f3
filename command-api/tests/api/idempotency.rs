//! `Idempotency-Key` on every create (issue 12): the same key and request give the first
//! answer, even to duplicates sent while the first is still running; another request under
//! the same key is a 422; keys expire after 24 hours; a request lost in flight is taken over.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::club::{plan_fields, save_plan_with};
use crate::isolation::scalar;
use crate::support::company;
use crate::support::cpf;
use crate::support::{body, demo};
use crate::support::{Answer, System};

const REPLAYED: &str = "idempotent-replayed";

/// A Tuesday far ahead, free in every test.
fn date() -> chrono::NaiveDate {
    crate::support::far_tuesday()
}

async fn events(system: &System) -> i64 {
    scalar(system, "select count(*) from events").await
}

/// Events that carry the answer of the run under `key`.
async fn carried(system: &System, key: &str) -> i64 {
    let sql = "select count(*) from events e join idempotent_request r
                  on r.run = ((e.metadata ->> 'idempotency')::jsonb ->> 'run')::bigint
               where r.key = $1";
    sqlx::query_scalar(sql).bind(key).fetch_one(&system.pool).await.expect(sql)
}

async fn send(system: &System, token: Option<&str>, path: &str, body: &Value, key: &str) -> Answer {
    system.call_with(Method::POST, path, token, Some(body.clone()), &[("idempotency-key", key)]).await
}

/// The `POST` routes that are not creates this matrix sends again, and why. A `POST` route
/// neither here nor in the matrix fails the test (issue 39, point 10).
const NOT_A_CREATE_HERE: &[(&str, &str)] = &[
    ("/api/subscription-details", "a multipart create, sent again below"),
    ("/api/checkout/create-user-token", "a link token, not a record; another request is another link"),
    ("/api/checkout/send-user-token-email", "an e-mail"),
    ("/api/checkout/summary", "a read of the link's plan and client"),
    ("/api/checkout/subscribe", "the link's token works once (club.rs)"),
    ("/api/galaxpay/webhook", "the provider's; a replayed report is recognised by its event (club.rs)"),
    ("/api/no-auth/whatsapp/webhook", "Meta's; each report and reply is recorded once (whatsapp.rs)"),
    ("/api/no-auth/online-booking/{idCompany}/code", "a code e-mailed, throttled (online.rs)"),
    ("/api/no-auth/online-booking/{idCompany}/verify", "a code exchanged for a token, once"),
    (
        "/api/no-auth/online-booking/{idCompany}/scheduling",
        "online.rs: a retried booking with its key books once",
    ),
    ("/api/no-auth/online-booking/booking/{token}/cancel", "cancelling a cancelled booking is refused"),
    (
        "/api/scheduling/{idScheduling}/cancel-online-origin",
        "an action on what exists: again finds nothing more",
    ),
    ("/api/subscription-user/{id}/reminder", "an e-mail"),
    ("/api/scheduling/{idScheduling}/arrival", "recorded once: again records nothing more"),
    ("/api/scheduling/{idScheduling}/no-show", "recorded once: again records nothing more"),
    ("/api/comanda/{id}/close", "a state change: again is refused (409)"),
    ("/api/product/{id}/image", "sets the photo: the same file again is the same content-addressed photo"),
    ("/api/caixa/{id}/close", "a state change: again is refused (409)"),
    ("/api/caixa/{id}/reopen", "a state change: again is refused"),
    ("/api/comanda/{id}/reopen", "a state change: again is refused"),
    ("/api/comanda/{id}/cancel", "a state change: again is refused (409)"),
    (
        "/api/comanda/{id}/payments/{idPayment}/refund",
        "a refunded payment is gone: again finds it no more (404)",
    ),
    ("/api/session-professional/login", "a sign-in door"),
    ("/api/session-professional/login-social-media", "a sign-in door"),
    ("/api/session-professional/logout", "ends the caller's session"),
    ("/api/scheduling/series/check", "checks a series, creates nothing"),
    ("/api/session-professional/recovery-code", "a sign-in door"),
    ("/api/session-professional/reset-password", "a sign-in door"),
    ("/api/session-professional/validate-recovery-code", "a sign-in door"),
];

/// Every documented `POST` is one of `creates` or says in [`NOT_A_CREATE_HERE`] why not,
/// and that list names only routes that exist and are not sent.
fn every_post_is_a_create_here_or_says_why_not(creates: &[(String, Value)]) {
    use std::collections::BTreeSet;
    let routes = crate::openapi::documented_routes();
    let sent: BTreeSet<(String, String)> = creates
        .iter()
        .filter_map(|(path, _)| crate::openapi::route_of(&routes, &Method::POST, path))
        .collect();
    let said: BTreeSet<(String, String)> =
        NOT_A_CREATE_HERE.iter().map(|(path, _)| ("POST".to_owned(), (*path).to_owned())).collect();
    let posts: BTreeSet<(String, String)> =
        routes.into_iter().filter(|(method, _)| method == "POST").collect();
    let missing: Vec<&str> = posts
        .iter()
        .filter(|route| !sent.contains(*route) && !said.contains(*route))
        .map(|(_, p)| p.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "POST routes the idempotency matrix does not send; add or say why not:\n{}",
        missing.join("\n")
    );
    let stale: Vec<&str> = said
        .iter()
        .filter(|route| !posts.contains(*route) || sent.contains(*route))
        .map(|(_, p)| p.as_str())
        .collect();
    assert!(
        stale.is_empty(),
        "routes said not to be creates that are gone or sent after all:\n{}",
        stale.join("\n")
    );
}

/// A plan of every unit, to add a service to.
async fn plan_of_every_unit(system: &System, admin: &str) -> i64 {
    let mut fields = plan_fields();
    fields.retain(|(name, _)| !["companies", "allCompanies"].contains(name));
    fields.push(("allCompanies", "true".into()));
    let plan = save_plan_with(system, admin, Method::POST, "/api/subscription-details", &fields, &[]).await;
    assert_eq!(plan.status, StatusCode::CREATED, "{plan:?}");
    plan.body["IdSubscriptionDetail"].as_i64().expect("plan")
}

#[tokio::test]
async fn every_create_sent_again_with_its_key_is_answered_once_and_written_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let d = demo(&system).await;
    let heitor =
        scalar(&system, "select professional_id from staff_credential where email = 'heitor@navalha.dev'")
            .await;
    // A professional and a service of the catalogue they do not offer yet (not the haircut,
    // which the admin adds to their own profile below).
    let (newcomer_to, not_offered): (i64, i64) = sqlx::query_as(
        "select p.professional_id, c.service_id
           from rm_professional.professional p cross join rm_professional.catalogue_service c
          where not exists (select 1 from rm_professional.offered_service o
                             where o.professional_id = p.professional_id and o.service_id = c.service_id)
            and c.service_id <> $1
          order by 1, 2 limit 1",
    )
    .bind(d.haircut)
    .fetch_one(&system.pool)
    .await
    .expect("a service someone does not offer");
    let mut booking = body(d.barber1, date(), "10:00", &[d.haircut], d.client);
    booking["timesType"] = json!("ALL_TIMES");
    let mut series = body(d.barber1, date(), "14:00", &[d.haircut], d.client);
    series["timesType"] = json!("ALL_TIMES");
    series["repeat"] = json!({"everyWeeks": 1, "count": 3});
    let opened =
        send(&system, Some(&admin), "/api/comanda", &json!({"idCompany": d.centro}), "walk-in").await;
    let comanda = opened.body["IdComanda"].as_i64().unwrap_or_else(|| panic!("{opened:?}"));
    let caixa = send(
        &system,
        Some(&admin),
        "/api/caixa",
        &json!({"idCompany": d.centro, "openingCash": 100}),
        "caixa",
    )
    .await;
    let caixa = caixa.body["IdCaixa"].as_i64().unwrap_or_else(|| panic!("{caixa:?}"));
    let stocked =
        send(&system, Some(&admin), "/api/product", &json!({"name": "Óleo", "price": 30}), "stocked").await;
    let stocked = stocked.body["IdProduct"].as_i64().unwrap_or_else(|| panic!("{stocked:?}"));
    let creates: Vec<(String, Value)> = vec![
        ("/api/comanda".into(), json!({"idCompany": d.centro, "idUser": d.client})),
        (
            format!("/api/product/{stocked}/movements"),
            json!({"kind": "entrada", "idCompany": d.centro, "quantity": 5, "unitCost": "12,50"}),
        ),
        ("/api/product".into(), json!({"name": "Pomada modeladora", "price": "29,90"})),
        (
            "/api/commission/entry".into(),
            json!({"idProfessional": d.barber1_id, "kind": "vale", "value": "50,00", "reason": "Adiantamento"}),
        ),
        (
            "/api/commission/period/close".into(),
            json!({"idProfessional": d.barber2_id, "from": "2026-01-01", "to": "2026-01-31",
                   "paidAt": "2026-02-05", "method": "transfer"}),
        ),
        ("/api/caixa".into(), json!({"idCompany": d.savassi, "openingCash": "50,00"})),
        (format!("/api/caixa/{caixa}/movements"), json!({"kind": "reforco", "value": 10, "reason": "Troco"})),
        (
            format!("/api/comanda/{comanda}/items"),
            json!({"kind": "service", "id": d.haircut, "idProfessional": d.barber1_id}),
        ),
        (format!("/api/comanda/{comanda}/tips"), json!({"idProfessional": d.barber1_id, "value": 5})),
        (
            format!("/api/comanda/{comanda}/payments"),
            json!({"method": "cash", "value": 10, "cashReceived": 20}),
        ),
        ("/api/company".into(), company("Navalha Portão", "11.444.777/0001-61")),
        (
            "/api/user/quick".into(),
            json!({"name": "Caio Prado", "phone": "(11) 9 8765-0001", "cpf": null, "whatsApp": true}),
        ),
        (
            "/api/user/professional".into(),
            json!({"name": "Otávio Ramos", "cpf": cpf(412_000_001), "email": "otavio@exemplo.com",
                   "phone": "(11) 9 8765-0000", "whatsApp": true, "birthDate": "1990-04-01", "status": true}),
        ),
        (
            "/api/professional".into(),
            json!({"name": "Íris Tesoura", "cpf": cpf(412_000_002), "email": "iris@navalha.dev",
                   "phone": "(11) 9 8765-4321", "whatsApp": true, "birthDate": "1992-05-20", "cep": "01042-001",
                   "street": "Rua Barão de Itapetininga", "number": "50", "district": "República",
                   "city": "São Paulo", "state": "SP", "complement": "", "idCompany": d.centro,
                   "color": "#FF9800", "idTypeProfile": 4}),
        ),
        (
            "/api/day-off".into(),
            json!({"description": "Folga", "dateStart": "2030-01-07", "dateEnd": "2030-01-07", "allDay": true,
                   "startTime": null, "endTime": null, "idProfessional": heitor}),
        ),
        (
            "/api/holiday".into(),
            json!({"description": "Feriado", "startDate": "2030-03-29", "endDate": "2030-03-29", "allDay": true,
                   "startTime": null, "endTime": null, "idsCompanies": [d.centro]}),
        ),
        ("/api/professional-favorite-menu/".into(), json!({"slug": "holiday"})),
        ("/api/scheduling/professional".into(), booking),
        ("/api/scheduling/series".into(), series),
        (
            "/api/professional-service/my-profile".into(),
            json!({"idService": d.haircut, "time": 30, "value": "45,00", "combo": false, "status": true}),
        ),
        (
            format!("/api/professional-service/professional/{newcomer_to}"),
            json!({"idService": not_offered, "time": 20, "value": "30,00", "combo": false, "status": true}),
        ),
        (
            "/api/subscription-service".into(),
            json!({"idService": d.beard, "idSubscriptionDetail": plan_of_every_unit(&system, &admin).await, "discount": 10}),
        ),
    ];
    every_post_is_a_create_here_or_says_why_not(&creates);
    for (n, (path, request)) in creates.iter().enumerate() {
        let key = format!("create-{n}");
        let before = events(&system).await;
        let first = send(&system, Some(&admin), path, request, &key).await;
        assert!(first.status.is_success(), "{path}: {first:?}");
        assert!(first.headers.get(REPLAYED).is_none());
        let written = events(&system).await;
        assert!(written > before, "{path} wrote nothing");
        // A create that knows its answer before it writes stores it with its events, so a
        // crash between the commit and the store cannot lose it (ADR 0012). The others
        // write more than once (an invitation, the creator's membership) or mark in place.
        // A line added to a comanda answers the figures after it, read back once written.
        let several_writes = ["/api/company", "/api/professional", "/api/professional-favorite-menu/"];
        let read_back = path.starts_with("/api/comanda/") || path.starts_with("/api/caixa/");
        // A series appends its occurrences in one statement: each carries the same answer.
        let carriers = match path.as_str() {
            "/api/scheduling/series" => 3,
            path if several_writes.contains(&path) || read_back => 0,
            _ => 1,
        };
        assert_eq!(carried(&system, &key).await, carriers, "{path}");
        for _ in 0..4 {
            let again = send(&system, Some(&admin), path, request, &key).await;
            assert_eq!((again.status, &again.body), (first.status, &first.body), "{path}");
            assert_eq!(again.headers[REPLAYED], "true", "{path}");
            assert_eq!(
                again.headers.get("x-navalha-position"),
                first.headers.get("x-navalha-position"),
                "{path}"
            );
        }
        assert_eq!(events(&system).await, written, "{path} was written again");
        // The same key for another request is refused, and writes nothing.
        let mut other = request.clone();
        other["__other"] = json!(n);
        let reused = send(&system, Some(&admin), path, &other, &key).await;
        assert_eq!(
            (reused.status, reused.message()),
            (StatusCode::UNPROCESSABLE_ENTITY, "Esta Idempotency-Key já foi usada com outro pedido."),
            "{path}"
        );
        assert_eq!(events(&system).await, written, "{path}");
    }

    // Another user's identical key is theirs alone.
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let (path, request) = &creates[1];
    let theirs = send(&system, Some(&attendant), path, request, "create-1").await;
    assert!(theirs.headers.get(REPLAYED).is_none(), "{theirs:?}");

    // A multipart create, the plan, too.
    let plan = |key: &'static str| {
        let system = &system;
        let admin = admin.clone();
        async move {
            save_plan_with(
                system,
                &admin,
                Method::POST,
                "/api/subscription-details",
                &plan_fields(),
                &[("idempotency-key", key)],
            )
            .await
        }
    };
    let first = plan("plan-1").await;
    assert_eq!(first.status, StatusCode::CREATED);
    let again = plan("plan-1").await;
    assert_eq!((first.status, &first.body), (again.status, &again.body));
    assert_eq!(again.headers[REPLAYED], "true");
    assert_eq!(carried(&system, "plan-1").await, 1);
}

#[tokio::test]
async fn duplicates_sent_together_wait_for_the_first_and_get_its_answer() {
    let pool = demo_database().await;
    let system = Arc::new(System::start(pool).await);
    let admin = system.sign_in("admin@navalha.dev").await;
    let d = demo(&system).await;
    let mut booking = body(d.barber1, date(), "10:00", &[d.haircut], d.client);
    booking["timesType"] = json!("ALL_TIMES");
    let before = events(&system).await;
    let mut requests = tokio::task::JoinSet::new();
    for _ in 0..12 {
        let (system, admin, booking) = (system.clone(), admin.clone(), booking.clone());
        requests.spawn(async move {
            send(&system, Some(&admin), "/api/scheduling/professional", &booking, "together").await
        });
    }
    let answers: Vec<Answer> = requests.join_all().await;
    for answer in &answers {
        assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
        assert_eq!(answer.body, answers[0].body);
    }
    assert_eq!(answers.iter().filter(|a| a.headers.get(REPLAYED).is_none()).count(), 1, "one ran");
    assert_eq!(events(&system).await, before + 1, "one appointment");
}

#[tokio::test]
async fn keys_expire_after_a_day_and_a_request_lost_in_flight_is_taken_over() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let holiday = |description: &str| {
        json!({"description": description, "startDate": "2030-03-29", "endDate": "2030-03-29", "allDay": true,
               "startTime": null, "endTime": null, "idsCompanies": [1]})
    };
    let first = send(&system, Some(&admin), "/api/holiday", &holiday("Feriado um"), "day").await;
    assert_eq!(first.status, StatusCode::CREATED, "{first:?}");

    // A key still in flight makes a duplicate wait for the answer.
    sqlx::query("update idempotent_request set status = null, started_at = now() where key = 'day'")
        .execute(&system.pool)
        .await
        .expect("in flight");
    let one = holiday("Feriado um");
    let waiting = send(&system, Some(&admin), "/api/holiday", &one, "day");
    let finish = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        sqlx::query("update idempotent_request set status = 201 where key = 'day'")
            .execute(&system.pool)
            .await
            .expect("answered");
    };
    let (waited, ()) = tokio::join!(waiting, finish);
    assert_eq!((waited.status, &waited.body), (StatusCode::CREATED, &first.body));
    assert_eq!(waited.headers[REPLAYED], "true");

    // Lost in flight (its process died): the retry runs it.
    sqlx::query("update idempotent_request set status = null, started_at = now() - interval '5 minutes' where key = 'day'")
        .execute(&system.pool)
        .await
        .expect("lost");
    let taken_over = send(&system, Some(&admin), "/api/holiday", &holiday("Feriado um"), "day").await;
    assert_eq!(taken_over.status, StatusCode::CREATED);
    assert!(taken_over.headers.get(REPLAYED).is_none());

    // After a day the key is free for any request.
    assert_eq!(
        send(&system, Some(&admin), "/api/holiday", &holiday("Feriado dois"), "day").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    sqlx::query("update idempotent_request set created_at = now() - interval '25 hours' where key = 'day'")
        .execute(&system.pool)
        .await
        .expect("aged");
    let fresh = send(&system, Some(&admin), "/api/holiday", &holiday("Feriado dois"), "day").await;
    assert_eq!(fresh.status, StatusCode::CREATED, "{fresh:?}");
    assert_ne!(fresh.body, first.body);
    sqlx::query("update idempotent_request set created_at = now() - interval '25 hours'")
        .execute(&system.pool)
        .await
        .expect("aged");
    assert!(navalha_event_store::idempotency::forget_expired(&system.pool).await.expect("forget") >= 1);

    // A key that is not one is a 400.
    let long = "k".repeat(201);
    let bad = send(&system, Some(&admin), "/api/holiday", &holiday("Feriado três"), &long).await;
    assert_eq!((bad.status, bad.message()), (StatusCode::BAD_REQUEST, "Cabeçalho Idempotency-Key inválido."));
}

/// Issue 39 point 7: a request refused for who sends it (401, 403) keeps nothing under its
/// key, so that nobody can fill the table; and a form sent again with a boundary of its own
/// (a browser draws one per send) is the same request, answered once.
#[tokio::test]
async fn refusals_keep_nothing_and_a_form_is_compared_by_its_fields() {
    let pool = demo_database().await;
    use crate::club::{multipart, BOUNDARY};

    let system = System::start(pool).await;
    let kept = |key: &'static str| {
        let pool = system.pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>("select count(*) from idempotent_request where key = $1")
                .bind(key)
                .fetch_one(&pool)
                .await
                .expect("count")
        }
    };
    let unit = company("Navalha Recusada", "11.444.777/0001-61");
    let anonymous = send(&system, None, "/api/company", &unit, "refused-401").await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{anonymous:?}");
    assert_eq!(kept("refused-401").await, 0);
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let forbidden = send(&system, Some(&barber), "/api/company", &unit, "refused-403").await;
    assert_eq!(forbidden.status, StatusCode::FORBIDDEN, "{forbidden:?}");
    assert_eq!(kept("refused-403").await, 0);

    let admin = system.sign_in(navalha_command_api::seed::DEMO_ADMIN).await;
    let form = |boundary: &str, name: &str| {
        let fields: Vec<(&str, String)> = plan_fields()
            .into_iter()
            .map(|(field, value)| (field, if field == "planName" { name.to_owned() } else { value }))
            .collect();
        let bytes =
            String::from_utf8(multipart(&fields, None)).expect("text fields").replace(BOUNDARY, boundary);
        (format!("multipart/form-data; boundary={boundary}"), bytes.into_bytes())
    };
    let key = [("idempotency-key", "plan-form")];
    let path = "/api/subscription-details";
    let (content_type, bytes) = form("boundary-of-the-first-send", "Clube do corte");
    let first = system.send_raw_with(Method::POST, path, &admin, &content_type, bytes, &key).await;
    assert_eq!(first.status, StatusCode::CREATED, "{first:?}");
    let (content_type, bytes) = form("another-boundary-on-the-retry", "Clube do corte");
    let again = system.send_raw_with(Method::POST, path, &admin, &content_type, bytes, &key).await;
    assert_eq!(again.status, StatusCode::CREATED, "{again:?}");
    assert_eq!(again.body["IdSubscriptionDetail"], first.body["IdSubscriptionDetail"]);
    assert_eq!(again.headers.get(REPLAYED).and_then(|v| v.to_str().ok()), Some("true"));
    // Another form under the same key is another request.
    let (content_type, bytes) = form("a-third-boundary", "Clube da barba");
    let other = system.send_raw_with(Method::POST, path, &admin, &content_type, bytes, &key).await;
    assert_eq!(other.status, StatusCode::UNPROCESSABLE_ENTITY, "{other:?}");
}
