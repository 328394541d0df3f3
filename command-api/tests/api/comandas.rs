//! Comandas (issue 41): a booked client served, paid in cash with change and by card, the
//! comanda closed once and reopened with a reason; the refusals on the fields; and desks
//! racing to close or to pay the same comanda.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::{body, demo, far_tuesday, Answer, Demo, System};

async fn call(system: &System, token: &str, method: Method, path: &str, body: Option<Value>) -> Answer {
    system.call(method, path, Some(token), body).await
}

/// A booked appointment of the demo client with Centro's first barber: a haircut.
async fn booked(system: &System, admin: &str, d: &Demo, start: &str) -> i64 {
    let mut booking = body(d.barber1, far_tuesday(), start, &[d.haircut], d.client);
    booking["timesType"] = json!("ALL_TIMES");
    let answer = call(system, admin, Method::POST, "/api/scheduling/professional", Some(booking)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    answer.body["IdScheduling"].as_i64().expect("appointment")
}

async fn opened(system: &System, token: &str, d: &Demo, appointment: i64) -> i64 {
    let body = json!({"idCompany": d.centro, "idScheduling": appointment});
    let answer = call(system, token, Method::POST, "/api/comanda", Some(body)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    answer.body["IdComanda"].as_i64().expect("comanda")
}

/// Opens `company`'s caixa with a float of R$ 100,00.
async fn caixa_opened(system: &System, token: &str, company: i64) -> i64 {
    let body = json!({"idCompany": company, "openingCash": "100,00"});
    let answer = call(system, token, Method::POST, "/api/caixa", Some(body)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    answer.body["IdCaixa"].as_i64().expect("caixa")
}

fn reais(answer: &Answer, field: &str) -> f64 {
    answer.body[field].as_f64().unwrap_or_else(|| panic!("{field} in {answer:?}"))
}

#[tokio::test]
async fn a_booked_client_is_served_paid_and_the_comanda_closes_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let d = demo(&system).await;
    let appointment = booked(&system, &admin, &d, "10:00").await;
    let id = opened(&system, &attendant, &d, appointment).await;
    let path = |tail: &str| format!("/api/comanda/{id}{tail}");
    caixa_opened(&system, &attendant, d.centro).await;

    // One comanda per appointment: the second names the first.
    let again = call(
        &system,
        &admin,
        Method::POST,
        "/api/comanda",
        Some(json!({"idCompany": d.centro, "idScheduling": appointment})),
    )
    .await;
    assert_eq!(
        (again.status, again.message()),
        (StatusCode::CONFLICT, format!("Este agendamento já tem a comanda N.º {id}.").as_str())
    );

    // The booked haircut came in; a beard at 10 % off, a tip, R$ 5,00 off the total.
    let beard =
        json!({"kind": "service", "id": d.beard, "idProfessional": d.barber1_id, "discountPercent": 10});
    let with_beard = call(&system, &attendant, Method::POST, &path("/items"), Some(beard)).await;
    assert_eq!(with_beard.status, StatusCode::OK, "{with_beard:?}");
    let tip = json!({"idProfessional": d.barber1_id, "value": "10,00"});
    assert_eq!(
        call(&system, &attendant, Method::POST, &path("/tips"), Some(tip)).await.status,
        StatusCode::OK
    );
    let discounted =
        call(&system, &attendant, Method::PUT, &path("/discount"), Some(json!({"value": 5}))).await;
    assert_eq!(discounted.status, StatusCode::OK, "{discounted:?}");
    let subtotal = reais(&with_beard, "Subtotal");
    assert_eq!(reais(&discounted, "Discount"), 5.0);
    assert_eq!(reais(&discounted, "Total"), subtotal - 5.0);
    let due = reais(&discounted, "Due");
    assert_eq!(due, subtotal - 5.0 + 10.0, "the tip adds to what is due");

    // Refusals on the fields, nothing taken.
    let payments = path("/payments");
    let payment = |value: Value, extra: Value| {
        let mut body = json!({"method": "cash", "value": value});
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        call(&system, &attendant, Method::POST, &payments, Some(body))
    };
    let precise = payment(json!(10.005), json!({})).await;
    assert_eq!(
        (precise.status, precise.body["errors"]["value"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("Use no máximo duas casas decimais."))
    );
    let too_much = payment(json!(due + 0.01), json!({})).await;
    assert_eq!(too_much.status, StatusCode::UNPROCESSABLE_ENTITY, "{too_much:?}");
    assert!(too_much.body["errors"]["value"].as_str().is_some_and(|m| m.starts_with("O pagamento passa")));
    let short = payment(json!(20), json!({"cashReceived": 10})).await;
    assert_eq!(short.body["errors"]["cashReceived"], "O valor recebido é menor que o pagamento.");
    let early = call(&system, &attendant, Method::POST, &path("/close"), None).await;
    assert_eq!(early.status, StatusCode::UNPROCESSABLE_ENTITY, "{early:?}");
    assert!(early.body["errors"]["payments"]
        .as_str()
        .is_some_and(|m| m.starts_with("O valor pago (R$ 0,00)")));

    // Cash with change, then the rest by debit card.
    let cash = payment(json!(20), json!({"cashReceived": 50})).await;
    assert_eq!((cash.status, reais(&cash, "Change")), (StatusCode::OK, 30.0), "{cash:?}");
    let rest = ((due - 20.0) * 100.0).round() / 100.0;
    let card = json!({"method": "debit", "value": rest, "brand": "Elo", "authorizationCode": "A1B2", "nsu": "000123"});
    let paid = call(&system, &attendant, Method::POST, &path("/payments"), Some(card)).await;
    assert_eq!((paid.status, reais(&paid, "Due")), (StatusCode::OK, 0.0), "{paid:?}");

    // Closed once; then nothing changes, and only ADMIN reopens it, with a reason.
    let closed = call(&system, &attendant, Method::POST, &path("/close"), None).await;
    assert_eq!(
        (closed.status, closed.body["Status"].as_str()),
        (StatusCode::OK, Some("CLOSED")),
        "{closed:?}"
    );
    let twice = call(&system, &attendant, Method::POST, &path("/close"), None).await;
    assert_eq!(
        (twice.status, twice.message()),
        (StatusCode::CONFLICT, "Esta comanda está fechada: reabra-a para mudar.")
    );
    let late_tip = json!({"idProfessional": d.barber1_id, "value": 1});
    assert_eq!(
        call(&system, &attendant, Method::POST, &path("/tips"), Some(late_tip)).await.status,
        StatusCode::CONFLICT
    );
    let reason = |text: &str| Some(json!({ "reason": text }));
    assert_eq!(
        call(&system, &attendant, Method::POST, &path("/reopen"), reason("erro")).await.status,
        StatusCode::FORBIDDEN
    );
    let blank = call(&system, &admin, Method::POST, &path("/reopen"), reason(" ")).await;
    assert_eq!(blank.body["errors"]["reason"], "Informe o motivo.");
    let reopened = call(&system, &admin, Method::POST, &path("/reopen"), reason("Cartão errado")).await;
    assert_eq!(reopened.body["Status"], "OPEN", "{reopened:?}");

    // A paid comanda is not cancelled; the history holds every step.
    let cancel = call(&system, &admin, Method::POST, &path("/cancel"), reason("Desistiu")).await;
    assert_eq!(
        (cancel.status, cancel.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, "Estorne os pagamentos antes de cancelar a comanda.")
    );
    // The read side shows the comanda as the domain folded it; a barber with no line on it
    // does not see it.
    system.project().await;
    let read = call(&system, &attendant, Method::GET, &path(""), None).await;
    assert_eq!(read.status, StatusCode::OK, "{read:?}");
    assert_eq!(
        (read.body["Status"].as_str(), read.body["IdScheduling"].as_i64()),
        (Some("OPEN"), Some(appointment))
    );
    assert_eq!(read.body["Items"].as_array().map(Vec::len), Some(2));
    assert_eq!(read.body["Items"][1]["DiscountPercent"], 10.0);
    assert_eq!(read.body["Payments"][0]["Change"], 30.0);
    assert_eq!((reais(&read, "TipsTotal"), reais(&read, "Due")), (10.0, 0.0));
    let list = call(
        &system,
        &attendant,
        Method::GET,
        &format!("/api/comanda?idCompany={}&status=OPEN", d.centro),
        None,
    )
    .await;
    assert_eq!(list.body["content"][0]["IdComanda"].as_i64(), Some(id), "{list:?}");
    let barber1 = system.sign_in("barbeiro1@navalha.dev").await;
    assert_eq!(
        call(&system, &barber1, Method::GET, &path(""), None).await.status,
        StatusCode::OK,
        "the barber's own"
    );
    let barber2 = system.sign_in("barbeiro2@navalha.dev").await;
    assert_eq!(call(&system, &barber2, Method::GET, &path(""), None).await.status, StatusCode::NOT_FOUND);
    let theirs = call(&system, &barber2, Method::GET, "/api/comanda", None).await;
    assert_eq!(theirs.body["total"], 0, "{theirs:?}");

    let types: Vec<String> = sqlx::query_scalar(
        "select event_type from events where aggregate_type = 'Comanda' and aggregate_id = $1 order by sequence",
    )
    .bind(id.to_string())
    .fetch_all(&system.pool)
    .await
    .expect("events");
    assert_eq!(
        types,
        [
            "ComandaOpened",
            "ItemAdded",
            "TipAdded",
            "DiscountSet",
            "PaymentTaken",
            "PaymentTaken",
            "ComandaClosed",
            "ComandaReopened"
        ]
    );

    // Rebuilt in bulk from the log, the model is what it was live.
    let rows = || async {
        sqlx::query_as::<_, (i64, i64, chrono::NaiveDate, String, i64, i64, String)>(
            "select comanda_id, company_id, opened_on, status, total_cents, paid_cents, state::text
               from rm_comanda.comanda order by comanda_id",
        )
        .fetch_all(&system.pool)
        .await
        .expect("rows")
    };
    let live = rows().await;
    assert_eq!(live.len(), 1);
    let model = navalha_projector::models::find("comanda").expect("model");
    navalha_projector::rebuild::rebuild(&system.projector_pool, model.as_ref(), false)
        .await
        .expect("rebuild");
    assert_eq!(rows().await, live);
}

#[tokio::test]
async fn a_walk_in_is_refused_what_does_not_belong_to_its_unit() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let d = demo(&system).await;
    let walk_in = json!({"idCompany": d.centro});
    assert_eq!(
        call(&system, &barber, Method::POST, "/api/comanda", Some(walk_in.clone())).await.status,
        StatusCode::FORBIDDEN
    );
    let answer = call(&system, &admin, Method::POST, "/api/comanda", Some(walk_in)).await;
    let id = answer.body["IdComanda"].as_i64().expect("comanda");
    let items = format!("/api/comanda/{id}/items");
    let savassi_barber: i64 =
        sqlx::query_scalar("select professional_id from rm_professional.membership where membership_id = $1")
            .bind(d.gabriel)
            .fetch_one(&system.pool)
            .await
            .expect("gabriel");
    let elsewhere = json!({"kind": "service", "id": d.haircut, "idProfessional": savassi_barber});
    let refused = call(&system, &admin, Method::POST, &items, Some(elsewhere)).await;
    assert_eq!(
        refused.body["errors"]["idProfessional"], "Escolha um profissional desta unidade.",
        "{refused:?}"
    );
    let no_kind = json!({"kind": "bolo", "id": d.haircut, "idProfessional": d.barber1_id});
    assert_eq!(
        call(&system, &admin, Method::POST, &items, Some(no_kind)).await.body["errors"]["kind"],
        "Escolha um serviço ou um produto."
    );
    let both = json!({"kind": "service", "id": d.haircut, "idProfessional": d.barber1_id, "discount": 1, "discountPercent": 1});
    let both = call(&system, &admin, Method::POST, &items, Some(both)).await;
    assert_eq!(both.status, StatusCode::UNPROCESSABLE_ENTITY, "{both:?}");
    // Products at their price; one no longer sold is refused.
    let product = |name: &str, active: bool| {
        let body = json!({"name": name, "price": "29,90", "active": active});
        call(&system, &admin, Method::POST, "/api/product", Some(body))
    };
    let pomade = product("Pomada", true).await.body["IdProduct"].as_i64().expect("pomade");
    let old = product("Óleo antigo", false).await.body["IdProduct"].as_i64().expect("old");
    let pair = json!({"kind": "product", "id": pomade, "quantity": 2});
    let two = call(&system, &admin, Method::POST, &items, Some(pair)).await;
    assert_eq!((two.status, reais(&two, "Subtotal")), (StatusCode::OK, 59.8), "{two:?}");
    let unsold =
        call(&system, &admin, Method::POST, &items, Some(json!({"kind": "product", "id": old}))).await;
    assert_eq!(unsold.body["errors"]["id"], "Escolha um produto à venda.");
    system.project().await;
    let search = call(&system, &barber, Method::GET, "/api/product?search=pomad", None).await;
    assert_eq!(
        (search.body["total"].as_i64(), search.body["content"][0]["Price"].as_f64()),
        (Some(1), Some(29.9))
    );
    let retired = call(&system, &barber, Method::GET, "/api/product?status=2", None).await;
    assert_eq!(retired.body["content"][0]["Name"], "Óleo antigo", "{retired:?}");
    let removed = call(&system, &admin, Method::DELETE, &format!("{items}/1"), None).await;
    assert_eq!(reais(&removed, "Subtotal"), 0.0, "{removed:?}");

    let unpaid = json!({"method": "cash", "value": 1});
    let no_caixa =
        call(&system, &admin, Method::POST, &format!("/api/comanda/{id}/payments"), Some(unpaid)).await;
    assert_eq!(no_caixa.body["errors"]["method"], "Abra o caixa da unidade antes de receber pagamentos.");
    let empty = call(&system, &admin, Method::POST, &format!("/api/comanda/{id}/close"), None).await;
    assert_eq!(empty.body["errors"]["items"], "Adicione ao menos um item antes de fechar.");
    let cancelled = call(
        &system,
        &admin,
        Method::POST,
        &format!("/api/comanda/{id}/cancel"),
        Some(json!({"reason": "Teste"})),
    )
    .await;
    assert_eq!(cancelled.body["Status"], "CANCELED", "{cancelled:?}");
}

#[tokio::test]
async fn desks_racing_on_one_comanda_never_pay_twice_or_close_twice() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let d = demo(&system).await;
    let appointment = booked(&system, &admin, &d, "11:00").await;
    let id = opened(&system, &admin, &d, appointment).await;
    caixa_opened(&system, &admin, d.centro).await;
    let figures =
        call(&system, &admin, Method::PUT, &format!("/api/comanda/{id}/discount"), Some(json!({}))).await;
    let due = reais(&figures, "Due");
    // Two desks each take the whole amount at once: one is taken.
    let pay = || {
        let (system, admin) = (&system, &admin);
        async move {
            let body = json!({"method": "credit", "value": due, "installments": 1});
            call(system, admin, Method::POST, &format!("/api/comanda/{id}/payments"), Some(body)).await.status
        }
    };
    let (first, second) = tokio::join!(pay(), pay());
    let mut statuses = [first, second];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::UNPROCESSABLE_ENTITY]);
    // Two desks close at once: one closes it.
    let close_path = format!("/api/comanda/{id}/close");
    let close = || call(&system, &admin, Method::POST, &close_path, None);
    let (first, second) = tokio::join!(close(), close());
    let mut statuses = [first.status, second.status];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    let closes: i64 = sqlx::query_scalar(
        "select count(*) from events where aggregate_id = $1 and event_type = 'ComandaClosed'",
    )
    .bind(id.to_string())
    .fetch_one(&system.pool)
    .await
    .expect("count");
    assert_eq!(closes, 1);
}

#[tokio::test]
async fn the_caixa_closes_with_the_cash_counted_against_the_cash_expected() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let d = demo(&system).await;
    let caixa = caixa_opened(&system, &attendant, d.centro).await;
    let path = |tail: &str| format!("/api/caixa/{caixa}{tail}");
    let second = call(
        &system,
        &admin,
        Method::POST,
        "/api/caixa",
        Some(json!({"idCompany": d.centro, "openingCash": 0})),
    )
    .await;
    assert_eq!(second.body["errors"]["idCompany"], "Já há um caixa aberto nesta unidade.", "{second:?}");

    // A sangria never takes more than the drawer holds; a reforço adds to it.
    let movements = path("/movements");
    let movement = |kind: &str, value: Value| {
        let body = json!({"kind": kind, "value": value, "reason": "Troco do dia"});
        call(&system, &attendant, Method::POST, &movements, Some(body))
    };
    let too_much = movement("sangria", json!(100.01)).await;
    assert_eq!(too_much.body["errors"]["value"], "A sangria passa do dinheiro no caixa (R$ 100,00).");
    let reforco = movement("reforco", json!(50)).await;
    assert_eq!(reais(&reforco, "ExpectedCash"), 150.0, "{reforco:?}");

    // A client pays R$ 45,00 in cash (and R$ 5,00 back from a R$ 50,00 note).
    let appointment = booked(&system, &admin, &d, "14:00").await;
    let comanda = opened(&system, &attendant, &d, appointment).await;
    let figures =
        call(&system, &attendant, Method::PUT, &format!("/api/comanda/{comanda}/discount"), Some(json!({})))
            .await;
    let due = reais(&figures, "Due");
    let cash = json!({"method": "cash", "value": due, "cashReceived": due + 5.0});
    let paid =
        call(&system, &attendant, Method::POST, &format!("/api/comanda/{comanda}/payments"), Some(cash))
            .await;
    assert_eq!((paid.status, reais(&paid, "Change")), (StatusCode::OK, 5.0), "{paid:?}");
    let sangria = movement("sangria", json!(20)).await;
    let expected = 100.0 + 50.0 + due - 20.0;
    assert_eq!((reais(&sangria, "CashTaken"), reais(&sangria, "ExpectedCash")), (due, expected));

    // R$ 2,00 missing at the close: written once, with the difference.
    let counted = json!({"countedCash": expected - 2.0});
    let closed = call(&system, &attendant, Method::POST, &path("/close"), Some(counted.clone())).await;
    assert_eq!(closed.body["Status"], "CLOSED", "{closed:?}");
    assert_eq!((reais(&closed, "ExpectedCash"), reais(&closed, "Difference")), (expected, -2.0));
    assert_eq!(
        call(&system, &attendant, Method::POST, &path("/close"), Some(counted)).await.status,
        StatusCode::CONFLICT
    );

    // The unit opens its next caixa; the old one is reopened only by ADMIN, and not while
    // another is open.
    let next = caixa_opened(&system, &attendant, d.centro).await;
    let reason = Some(json!({"reason": "Contagem errada"}));
    assert_eq!(
        call(&system, &attendant, Method::POST, &path("/reopen"), reason.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    let blocked = call(&system, &admin, Method::POST, &path("/reopen"), reason.clone()).await;
    assert_eq!(blocked.body["errors"]["idCompany"], "Já há um caixa aberto nesta unidade.", "{blocked:?}");
    let counted = Some(json!({"countedCash": 100}));
    call(&system, &attendant, Method::POST, &format!("/api/caixa/{next}/close"), counted).await;
    let reopened = call(&system, &admin, Method::POST, &path("/reopen"), reason).await;
    assert_eq!(reopened.body["Status"], "OPEN", "{reopened:?}");
}

#[tokio::test]
async fn the_caixa_report_shows_its_close_and_every_later_correction_apart() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let d = demo(&system).await;
    let first = caixa_opened(&system, &attendant, d.centro).await;
    let appointment = booked(&system, &admin, &d, "10:00").await;
    let id = opened(&system, &attendant, &d, appointment).await;
    let path = |tail: &str| format!("/api/comanda/{id}{tail}");
    let post = |token: &str, tail: &str, body: Value| {
        let (token, path) = (token.to_owned(), path(tail));
        let system = &system;
        async move { call(system, &token, Method::POST, &path, Some(body)).await }
    };

    // A tip of R$ 10,00 stays; one of R$ 5,00 is taken back off.
    post(&attendant, "/tips", json!({"idProfessional": d.barber1_id, "value": 10})).await;
    let second_tip = post(&attendant, "/tips", json!({"idProfessional": d.barber1_id, "value": 5})).await;
    assert_eq!(reais(&second_tip, "Tips"), 15.0, "{second_tip:?}");
    let removed = call(&system, &attendant, Method::DELETE, &path("/tips/2"), None).await;
    assert_eq!(reais(&removed, "Tips"), 10.0, "{removed:?}");
    let due = reais(&removed, "Due");
    let cash = due - 20.0;
    post(&attendant, "/payments", json!({"method": "cash", "value": cash})).await;
    post(&attendant, "/payments", json!({"method": "debit", "value": 20, "brand": "VISA", "nsu": "123"}))
        .await;
    assert_eq!(post(&attendant, "/close", json!({})).await.body["Status"], "CLOSED");
    let movement = json!({"kind": "sangria", "value": 30, "reason": "Cofre"});
    call(&system, &attendant, Method::POST, &format!("/api/caixa/{first}/movements"), Some(movement)).await;
    let expected = 100.0 + cash - 30.0;
    // The card machine's debit total, read off it at the close: R$ 1,00 more than the payments.
    let close_path = format!("/api/caixa/{first}/close");
    let close_first = |body: Value| call(&system, &attendant, Method::POST, &close_path, Some(body));
    let negative = close_first(json!({"countedCash": expected, "machineDebit": -1})).await;
    assert_eq!(negative.body["errors"]["machineDebit"], "O valor não pode ser negativo.", "{negative:?}");
    let counted = json!({"countedCash": expected - 2.0, "machineDebit": 21, "machineCredit": 0});
    let closed = close_first(counted).await;
    assert_eq!(reais(&closed, "Difference"), -2.0, "{closed:?}");
    let before_corrections =
        navalha_platform::clock::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);

    // The next morning: the cash payment was a mistake, the client pays by card in the next
    // caixa. Only ADMIN reopens; the refund belongs to the first caixa's corrections.
    let reason = |text: &str| json!({ "reason": text });
    post(&admin, "/reopen", reason("Cliente pagou no cartão")).await;
    let refund = post(&attendant, "/payments/1/refund", reason("Pagou no cartão")).await;
    assert_eq!(reais(&refund, "Due"), cash, "{refund:?}");
    let second = caixa_opened(&system, &attendant, d.centro).await;
    post(&attendant, "/payments", json!({"method": "debit", "value": cash})).await;
    assert_eq!(post(&attendant, "/close", json!({})).await.body["Status"], "CLOSED");
    system.project().await;

    let report = call(&system, &attendant, Method::GET, &format!("/api/caixa/{first}"), None).await;
    assert_eq!(
        (report.status, report.body["Status"].as_str()),
        (StatusCode::OK, Some("CLOSED")),
        "{report:?}"
    );
    let at_close = &report.body["AtClose"];
    assert_eq!(
        at_close["Entries"],
        json!([{"Method": "cash", "Count": 1, "Value": cash}, {"Method": "debit", "Count": 1, "Value": 20.0}])
    );
    assert_eq!(at_close["Tips"], json!([{"IdProfessional": d.barber1_id, "Value": 10.0}]));
    assert_eq!(
        at_close["CardMachine"],
        json!([
            {"Method": "credit", "Expected": 0.0, "Counted": 0.0, "Difference": 0.0},
            {"Method": "debit", "Expected": 20.0, "Counted": 21.0, "Difference": 1.0}
        ])
    );
    assert_eq!(
        (at_close["ExpectedCash"].as_f64(), at_close["Difference"].as_f64()),
        (Some(expected), Some(-2.0))
    );
    // As it stands: the cash is gone, and so are the tips (the comanda finished elsewhere).
    assert_eq!(report.body["Entries"], json!([{"Method": "debit", "Count": 1, "Value": 20.0}]));
    assert_eq!(report.body["Tips"], json!([]));
    assert_eq!((reais(&report, "ExpectedCash"), reais(&report, "Difference")), (70.0, expected - 2.0 - 70.0));
    let corrections: Vec<(&str, Option<f64>)> = report.body["Corrections"]
        .as_array()
        .map(|list| list.iter().map(|c| (c["Event"].as_str().unwrap_or(""), c["Value"].as_f64())).collect())
        .unwrap_or_default();
    assert_eq!(
        corrections,
        [("ComandaReopened", None), ("PaymentRefunded", Some(-cash)), ("ComandaClosed", None)],
        "{report:?}"
    );
    assert_eq!(report.body["Corrections"][1]["Reason"], "Pagou no cartão");
    assert_eq!(report.body["Corrections"][0]["UserName"].as_str().map(str::is_empty), Some(false));

    // As it stood before the corrections: the close, and nothing after it. Only ADMIN asks.
    let as_of = format!("/api/caixa/{first}?asOf={before_corrections}");
    let past = call(&system, &admin, Method::GET, &as_of, None).await;
    assert_eq!(past.body["Entries"], at_close["Entries"], "{past:?}");
    assert_eq!((past.body["Difference"].as_f64(), past.body["Corrections"].clone()), (Some(-2.0), json!([])));
    assert_eq!(call(&system, &attendant, Method::GET, &as_of, None).await.status, StatusCode::FORBIDDEN);
    // The comanda as it stood then: closed, with its cash payment.
    let comanda_then = format!("/api/comanda/{id}?asOf={before_corrections}");
    let then = call(&system, &admin, Method::GET, &comanda_then, None).await;
    assert_eq!(
        (then.body["Status"].as_str(), then.body["Payments"].as_array().map(Vec::len)),
        (Some("CLOSED"), Some(2)),
        "{then:?}"
    );
    assert_eq!(then.body["Payments"][0]["Method"], "cash");
    assert_eq!(then.body["AsOf"].as_str().map(str::is_empty), Some(false));
    let now = call(&system, &admin, Method::GET, &path(""), None).await;
    assert_eq!(
        (now.body["Payments"][0]["Method"].as_str(), now.body["AsOf"].clone()),
        (Some("debit"), Value::Null)
    );
    assert_eq!(
        call(&system, &attendant, Method::GET, &comanda_then, None).await.status,
        StatusCode::FORBIDDEN
    );
    let never = call(&system, &admin, Method::GET, &format!("/api/comanda/{id}?asOf=2020-01-01"), None).await;
    assert_eq!(never.status, StatusCode::NOT_FOUND);
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let barred = call(&system, &barber, Method::GET, &format!("/api/caixa/{first}"), None).await;
    assert_eq!(barred.status, StatusCode::FORBIDDEN);

    // The second caixa took the last payment: the tips are its.
    let next = call(&system, &attendant, Method::GET, &format!("/api/caixa/{second}"), None).await;
    assert_eq!(next.body["Tips"], json!([{"IdProfessional": d.barber1_id, "Value": 10.0}]), "{next:?}");
    assert_eq!(next.body["AtClose"], Value::Null);
    let open = call(
        &system,
        &attendant,
        Method::GET,
        &format!("/api/caixa?idCompany={}&status=OPEN", d.centro),
        None,
    )
    .await;
    assert_eq!(
        (open.body["total"].as_i64(), open.body["content"][0]["IdCaixa"].as_i64()),
        (Some(1), Some(second))
    );
    assert_eq!(open.body["content"][0]["ExpectedCash"], 100.0);
    let all =
        call(&system, &attendant, Method::GET, &format!("/api/caixa?idCompany={}", d.centro), None).await;
    assert_eq!(all.body["content"][1]["Difference"].as_f64(), Some(expected - 2.0 - 70.0), "{all:?}");
    let bad = call(&system, &attendant, Method::GET, "/api/caixa?status=aberto", None).await;
    assert_eq!(bad.body["errors"]["status"], "Use OPEN ou CLOSED.");

    // The comanda's history: who did what, for ADMIN.
    let history = call(&system, &admin, Method::GET, &path("/history"), None).await;
    let events: Vec<&str> = history
        .body
        .as_array()
        .map(|list| list.iter().filter_map(|e| e["Event"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(events.iter().filter(|event| **event == "PaymentRefunded").count(), 1, "{history:?}");
    assert_eq!(events.first(), Some(&"ComandaOpened"));
    assert_eq!(
        call(&system, &attendant, Method::GET, &path("/history"), None).await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn the_demo_counter_closes_a_caixa_short_and_corrects_it_in_the_next() {
    let pool = demo_database().await;
    let system = System::start(pool.clone()).await;
    let state = navalha_command_api::AppState::new(pool, Default::default()).await.expect("state");
    navalha_command_api::seed::seed_demo_agenda(&state).await.expect("demo agenda");
    let closed = navalha_command_api::counter_demo::seed_demo_counter(&state).await.expect("demo counter");
    assert!(closed >= 1, "at least the walk-in");
    system.project().await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let caixas = call(&system, &attendant, Method::GET, "/api/caixa?pageSize=10", None).await;
    let statuses: Vec<&str> = caixas.body["content"]
        .as_array()
        .map(|list| list.iter().filter_map(|c| c["Status"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(statuses, ["OPEN", "CLOSED"], "{caixas:?}");
    let first = caixas.body["content"][1]["IdCaixa"].as_i64().expect("first caixa");
    let report = call(&system, &attendant, Method::GET, &format!("/api/caixa/{first}"), None).await;
    assert_eq!(report.body["AtClose"]["Difference"], -2.0, "{report:?}");
    assert_eq!(report.body["Movements"][0]["Reason"], "Depósito no cofre");
    // With three of the day's clients served, the third's card payment was given back.
    if closed >= 4 {
        let events: Vec<&str> = report.body["Corrections"]
            .as_array()
            .map(|list| list.iter().filter_map(|c| c["Event"].as_str()).collect())
            .unwrap_or_default();
        assert!(events.contains(&"PaymentRefunded"), "{report:?}");
    }
    let products = call(&system, &attendant, Method::GET, "/api/product?pageSize=10&status=1", None).await;
    let sold = navalha_command_api::counter_demo::PRODUCTS.iter().filter(|product| product.active).count();
    assert_eq!(products.body["total"], sold, "{products:?}");

    // The home: what the closed comandas brought in today, by method and by professional.
    let admin = system.sign_in("admin@navalha.dev").await;
    let home = call(&system, &admin, Method::GET, "/api/dashboard?period=today", None).await;
    let received = &home.body["Received"];
    let sum = |list: &Value| {
        list.as_array().map_or(0.0, |items| items.iter().filter_map(|i| i["Value"].as_f64()).sum())
    };
    let total = received["Total"].as_f64().unwrap_or_default();
    assert!(total >= 79.8, "at least the walk-in's two pomades: {home:?}");
    assert!((sum(&received["Methods"]) - total).abs() < 0.005, "{received:?}");
    assert!(received["Methods"].as_array().is_some_and(|m| m.iter().any(|m| m["Key"] == "cash")));
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let own = call(&system, &barber, Method::GET, "/api/dashboard?period=today", None).await;
    assert_eq!(own.body["Received"]["Methods"], json!([]), "{own:?}");
    let theirs: Vec<String> = own.body["Received"]["Professionals"]
        .as_array()
        .map(|list| list.iter().filter_map(|p| p["Key"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    assert!(theirs.len() <= 1, "only their own share: {theirs:?}");
}

#[tokio::test]
async fn the_unit_caps_what_an_attendant_may_discount() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let d = demo(&system).await;
    let unit_path = format!("/api/company/{}", d.centro);
    let unit = call(&system, &admin, Method::GET, &unit_path, None).await;
    assert_eq!(unit.body["AttendantDiscountCapPercent"], 100, "no cap by default: {unit:?}");
    let capped = crate::online::company_form(&unit.body, json!({"attendantDiscountCapPercent": 10}));
    assert_eq!(call(&system, &admin, Method::PUT, &unit_path, Some(capped)).await.status, StatusCode::OK);
    let refused = crate::online::company_form(&unit.body, json!({"attendantDiscountCapPercent": 101}));
    let refused = call(&system, &admin, Method::PUT, &unit_path, Some(refused)).await;
    assert_eq!(
        refused.body["errors"]["attendantDiscountCapPercent"],
        "Informe um desconto máximo de 0 a 100%"
    );
    system.project().await;
    let unit = call(&system, &admin, Method::GET, &unit_path, None).await;
    assert_eq!(unit.body["AttendantDiscountCapPercent"], 10);

    let appointment = booked(&system, &admin, &d, "10:00").await;
    let id = opened(&system, &attendant, &d, appointment).await;
    let discount = format!("/api/comanda/{id}/discount");
    let too_much = call(&system, &attendant, Method::PUT, &discount, Some(json!({"percent": 15}))).await;
    assert_eq!(too_much.body["errors"]["discount"], "Seu desconto máximo é de 10%.", "{too_much:?}");
    let within = call(&system, &attendant, Method::PUT, &discount, Some(json!({"percent": 10}))).await;
    assert_eq!(within.status, StatusCode::OK, "{within:?}");
    let line =
        json!({"kind": "service", "id": d.beard, "idProfessional": d.barber1_id, "discountPercent": 20});
    let items = format!("/api/comanda/{id}/items");
    let line_refused = call(&system, &attendant, Method::POST, &items, Some(line.clone())).await;
    assert_eq!(line_refused.body["errors"]["discount"], "Seu desconto máximo é de 10%.");
    // ADMIN gives what the owner decides.
    assert_eq!(call(&system, &admin, Method::POST, &items, Some(line)).await.status, StatusCode::OK);
    assert_eq!(
        call(&system, &admin, Method::PUT, &discount, Some(json!({"percent": 15}))).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_counter_pix_is_paid_by_the_providers_word_and_one_paid_too_late_is_kept_to_give_back() {
    let pool = demo_database().await;
    let club = crate::club::Club::start(pool).await;
    let system = &club.system;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let d = demo(system).await;
    let caixa = caixa_opened(system, &attendant, d.centro).await;
    let id = opened(system, &attendant, &d, booked(system, &admin, &d, "10:00").await).await;
    let path = |tail: &str| format!("/api/comanda/{id}{tail}");
    let due = reais(&call(system, &attendant, Method::PUT, &path("/discount"), Some(json!({}))).await, "Due");

    // Half by Pix: a charge at the provider, its QR code and 'copia e cola' for the desk.
    let half = (due / 2.0).floor();
    let pix = call(
        system,
        &attendant,
        Method::POST,
        &path("/payments"),
        Some(json!({"method": "pix", "value": half})),
    )
    .await;
    assert_eq!(pix.status, StatusCode::OK, "{pix:?}");
    let charge = pix.body["GalaxPayId"].as_i64().expect("charge");
    assert!(pix.body["PixCopyPaste"].as_str().is_some_and(|code| code.starts_with("000201")), "{pix:?}");
    let image = pix.body["PixQrCode"].as_str().expect("image").to_owned();
    let svg = club.http.get(&image).send().await.expect("qr");
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    let page = club.http.get(pix.body["PixPage"].as_str().expect("page")).send().await.expect("page");
    assert!(page.text().await.unwrap_or_default().contains("Pix copia e cola"));
    assert_eq!(reais(&pix, "Paid"), 0.0, "waiting is not paid");

    // What waits for the client is not payable twice, and the comanda waits for it.
    let all_cash = json!({"method": "cash", "value": due});
    let over = call(system, &attendant, Method::POST, &path("/payments"), Some(all_cash)).await;
    assert_eq!(over.status, StatusCode::UNPROCESSABLE_ENTITY, "{over:?}");
    let rest = json!({"method": "cash", "value": due - half});
    assert_eq!(
        call(system, &attendant, Method::POST, &path("/payments"), Some(rest)).await.status,
        StatusCode::OK
    );
    let early = call(system, &attendant, Method::POST, &path("/close"), None).await;
    assert_eq!(
        (early.status, early.message()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "Há um Pix aguardando pagamento: espere o cliente pagar ou a cobrança expirar."
        )
    );

    // The client pays: the provider's webhook, checked against the provider, makes it a payment.
    club.sim(&format!("/sim/charges/{charge}/pay"), json!({})).await;
    system.project().await;
    let read = call(system, &attendant, Method::GET, &path(""), None).await;
    assert_eq!(read.body["PixCharges"][0]["Status"], "PAID", "{read:?}");
    assert_eq!((reais(&read, "Paid"), reais(&read, "Due"), reais(&read, "Pending")), (due, 0.0, 0.0));
    assert_eq!(call(system, &attendant, Method::POST, &path("/close"), None).await.body["Status"], "CLOSED");
    system.project().await;
    let report = call(system, &attendant, Method::GET, &format!("/api/caixa/{caixa}"), None).await;
    let pix_entry = report.body["Entries"]
        .as_array()
        .and_then(|entries| entries.iter().find(|e| e["Method"] == "pix"))
        .cloned();
    assert_eq!(pix_entry.map(|entry| entry["Value"].clone()), Some(json!(half)), "{report:?}");

    // A client who gave up: the comanda is cancelled, and the Pix paid afterwards is kept to
    // be given back, never lost. Another expires: nothing was paid.
    let later = opened(system, &attendant, &d, booked(system, &admin, &d, "11:00").await).await;
    let later_path = |tail: &str| format!("/api/comanda/{later}{tail}");
    let ask = |value: f64| json!({"method": "pix", "value": value});
    let late = call(system, &attendant, Method::POST, &later_path("/payments"), Some(ask(10.0))).await;
    let late_charge = late.body["GalaxPayId"].as_i64().expect("charge");
    let lapsing = call(system, &attendant, Method::POST, &later_path("/payments"), Some(ask(5.0))).await;
    let lapsing_charge = lapsing.body["GalaxPayId"].as_i64().expect("charge");
    club.sim(&format!("/sim/charges/{lapsing_charge}/expire"), json!({})).await;
    let cancel =
        call(system, &attendant, Method::POST, &later_path("/cancel"), Some(json!({"reason": "Desistiu"})))
            .await;
    assert_eq!(cancel.body["Status"], "CANCELED", "{cancel:?}");
    club.sim(&format!("/sim/charges/{late_charge}/pay"), json!({})).await;
    system.project().await;
    let read = call(system, &attendant, Method::GET, &later_path(""), None).await;
    let statuses: Vec<&str> = read.body["PixCharges"]
        .as_array()
        .map(|list| list.iter().filter_map(|c| c["Status"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(statuses, ["TO_REFUND", "FAILED"], "{read:?}");
    assert_eq!(reais(&read, "Paid"), 0.0);
    let history = call(system, &admin, Method::GET, &later_path("/history"), None).await;
    assert!(history.body.as_array().is_some_and(|events| events.iter().any(|e| e["Event"] == "PixToRefund")));
}

/// Issue 42: a close writes what each line earned at the rate in force; a rate changed
/// afterwards changes nothing closed, and a new close (after a reopen) earns at the new one.
#[tokio::test]
async fn a_close_earns_at_the_rates_in_force_and_a_later_rate_changes_nothing_closed() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let d = demo(&system).await;
    caixa_opened(&system, &attendant, d.centro).await;
    let rates_path = format!("/api/professional/{}/commission", d.barber1_id);
    let rates = |percent: f64| json!({"servicePercent": percent, "productPercent": 10, "services": []});
    let set = |token: &str, body: Value| {
        let (token, path) = (token.to_owned(), rates_path.clone());
        let system = &system;
        async move { call(system, &token, Method::PUT, &path, Some(body)).await }
    };
    assert_eq!(set(&attendant, rates(40.0)).await.status, StatusCode::FORBIDDEN);
    let bad = set(&admin, json!({"servicePercent": 100.5, "productPercent": 0})).await;
    assert_eq!(bad.body["errors"]["servicePercent"], navalha_domain::commission::MSG_PERCENT, "{bad:?}");
    let not_offered = set(
        &admin,
        json!({"servicePercent": 40, "productPercent": 0, "services": [{"idService": 999999, "fixed": 5}]}),
    )
    .await;
    assert_eq!(
        not_offered.body["errors"]["services.0.idService"],
        "Este profissional não oferece este serviço."
    );
    assert_eq!(set(&admin, rates(40.0)).await.status, StatusCode::OK);

    // A booked haircut, paid and closed: 40 % of what the client paid.
    let appointment = booked(&system, &admin, &d, "15:00").await;
    let id = opened(&system, &attendant, &d, appointment).await;
    let path = |tail: &str| format!("/api/comanda/{id}{tail}");
    let figures = call(&system, &attendant, Method::PUT, &path("/discount"), Some(json!({}))).await;
    let total = reais(&figures, "Total");
    let cash = json!({"method": "cash", "value": reais(&figures, "Due")});
    call(&system, &attendant, Method::POST, &path("/payments"), Some(cash)).await;
    assert_eq!(call(&system, &attendant, Method::POST, &path("/close"), None).await.body["Status"], "CLOSED");
    let commission = |token: String| {
        let (system, path) = (&system, path(""));
        async move {
            system.project().await;
            call(system, &token, Method::GET, &path, None).await.body["Commissions"].clone()
        }
    };
    let at_40 = ((total * 40.0).round()) / 100.0;
    let earned = commission(admin.clone()).await;
    assert_eq!(earned[0]["IdProfessional"], d.barber1_id, "{earned:?}");
    assert_eq!(earned[0]["Commission"].as_f64(), Some(at_40), "{earned:?}");
    assert_eq!(earned[0]["Lines"][0]["Percent"], 40.0);
    // The homes: the owner's lists what each professional earned this period; the barber's
    // own, their month so far.
    for (token, period) in [(&admin, "month"), (&barber, "month")] {
        let home = call(&system, token, Method::GET, "/api/dashboard?period=today", None).await;
        let commissions = &home.body["Commissions"];
        assert_eq!(commissions["Period"], period, "{home:?}");
        let mine = commissions["Professionals"]
            .as_array()
            .and_then(|list| list.iter().find(|p| p["IdProfessional"] == d.barber1_id).cloned())
            .unwrap_or_else(|| panic!("{home:?}"));
        assert_eq!(mine["Commission"].as_f64(), Some(at_40), "{home:?}");
    }
    let own = call(&system, &barber, Method::GET, "/api/dashboard?period=today", None).await;
    assert_eq!(own.body["Commissions"]["Professionals"].as_array().map(Vec::len), Some(1), "only their own");

    // The rate falls to 10 %: what was closed keeps its 40 %. The barber sees their own;
    // the front desk sees none.
    assert_eq!(set(&admin, rates(10.0)).await.status, StatusCode::OK);
    assert_eq!(commission(admin.clone()).await, earned);
    assert_eq!(commission(barber.clone()).await, earned);
    assert_eq!(commission(attendant.clone()).await, json!([]));
    system.project().await;
    let now = call(&system, &barber, Method::GET, &rates_path, None).await;
    assert_eq!(
        (now.body["ServicePercent"].as_f64(), now.body["Set"].as_bool()),
        (Some(10.0), Some(true)),
        "{now:?}"
    );

    // Reopened and closed again: the new close earns at the rate in force then.
    let reason = json!({"reason": "Conferência"});
    call(&system, &admin, Method::POST, &path("/reopen"), Some(reason)).await;
    assert_eq!(commission(admin.clone()).await, json!([]), "nothing earned while open");
    call(&system, &attendant, Method::POST, &path("/close"), None).await;
    let again = commission(admin.clone()).await;
    assert_eq!(again[0]["Commission"].as_f64(), Some(((total * 10.0).round()) / 100.0), "{again:?}");
}

/// Issue 42: the statement of a range of days: the comandas that earned the professional
/// something, their vales and bonuses, and the totals; each professional reads their own,
/// ADMIN everyone's; with asOf, as it stood then.
#[tokio::test]
async fn a_statement_sums_the_days_commissions_tips_vales_and_bonuses() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let other_barber = system.sign_in("barbeiro2@navalha.dev").await;
    let d = demo(&system).await;
    caixa_opened(&system, &attendant, d.centro).await;
    let rates = json!({"servicePercent": "33,33", "productPercent": 10, "partner": true});
    let path = format!("/api/professional/{}/commission", d.barber1_id);
    assert_eq!(call(&system, &admin, Method::PUT, &path, Some(rates)).await.status, StatusCode::OK);

    // Two haircuts served and paid, one with a R$ 5,00 tip.
    let (mut totals, mut ids) = (Vec::new(), Vec::new());
    for (start, tip) in [("16:00", 5.0), ("17:00", 0.0)] {
        let id = opened(&system, &attendant, &d, booked(&system, &admin, &d, start).await).await;
        ids.push(id);
        if tip > 0.0 {
            let tip = json!({"idProfessional": d.barber1_id, "value": tip});
            call(&system, &attendant, Method::POST, &format!("/api/comanda/{id}/tips"), Some(tip)).await;
        }
        let figures =
            call(&system, &attendant, Method::PUT, &format!("/api/comanda/{id}/discount"), Some(json!({})))
                .await;
        totals.push(reais(&figures, "Total"));
        let cash = json!({"method": "cash", "value": reais(&figures, "Due")});
        call(&system, &attendant, Method::POST, &format!("/api/comanda/{id}/payments"), Some(cash)).await;
        call(&system, &attendant, Method::POST, &format!("/api/comanda/{id}/close"), None).await;
    }
    system.project().await;
    let before_entries = navalha_platform::clock::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);

    // A vale and a bonus: ADMIN only, with a value and a reason.
    let entry = |token: &str, body: Value| {
        let (token, system) = (token.to_owned(), &system);
        async move { call(system, &token, Method::POST, "/api/commission/entry", Some(body)).await }
    };
    let vale =
        json!({"idProfessional": d.barber1_id, "kind": "vale", "value": "50,00", "reason": "Adiantamento"});
    assert_eq!(entry(&attendant, vale.clone()).await.status, StatusCode::FORBIDDEN);
    let refused =
        entry(&admin, json!({"idProfessional": d.barber1_id, "kind": "vale", "value": 0, "reason": " "}))
            .await;
    assert_eq!(refused.body["errors"]["value"], "Informe um valor maior que zero.", "{refused:?}");
    let wrong_kind =
        entry(&admin, json!({"idProfessional": d.barber1_id, "kind": "multa", "value": 1, "reason": "x"}))
            .await;
    assert_eq!(wrong_kind.body["errors"]["kind"], "Escolha vale ou bônus.");
    let recorded = entry(&admin, vale).await;
    assert_eq!(recorded.status, StatusCode::CREATED, "{recorded:?}");
    assert!(recorded.body["IdEntry"].as_i64().is_some());
    let bonus =
        json!({"idProfessional": d.barber1_id, "kind": "bonus", "value": 10, "reason": "Meta do mês"});
    assert_eq!(entry(&admin, bonus).await.status, StatusCode::CREATED);
    system.project().await;

    let today = navalha_platform::clock::today();
    let range = format!(
        "/api/commission/statement?idProfessional={}&from={}&to={}",
        d.barber1_id,
        today - chrono::Duration::days(1),
        today + chrono::Duration::days(1)
    );
    let statement = call(&system, &admin, Method::GET, &range, None).await;
    assert_eq!(statement.status, StatusCode::OK, "{statement:?}");
    // Each line's 33,33 % rounded on its own, summed.
    let commission: f64 = totals.iter().map(|total| (total * 33.33).round() / 100.0).sum();
    let money = |field: &str| statement.body[field].as_f64().unwrap_or(f64::NAN);
    assert!((money("Commission") - commission).abs() < 0.005, "{statement:?}");
    assert!((money("Gross") - totals.iter().sum::<f64>()).abs() < 0.005);
    assert_eq!((money("Tips"), money("Vales"), money("Bonuses")), (5.0, 50.0, 10.0));
    assert!((money("Net") - (commission + 5.0 + 10.0 - 50.0)).abs() < 0.005, "{statement:?}");
    assert_eq!(statement.body["Comandas"].as_array().map(Vec::len), Some(2));
    // A 'profissional-parceiro': their cota-parte and the salon's add up to what was sold.
    assert_eq!(statement.body["Partner"], true);
    assert!((money("PartnerShare") - commission).abs() < 0.005, "{statement:?}");
    assert!((money("SalonShare") + money("PartnerShare") - money("Gross")).abs() < 0.005);
    assert_eq!(statement.body["Lines"][0]["Description"], "Corte de cabelo");
    assert_eq!(statement.body["Lines"][0]["Percent"], 33.33);
    let reasons: Vec<&str> = statement.body["Entries"]
        .as_array()
        .map(|e| e.iter().filter_map(|e| e["Reason"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(reasons, ["Adiantamento", "Meta do mês"]);

    // The barber reads their own, the same; another barber and the front desk do not.
    let own = call(&system, &barber, Method::GET, &range, None).await;
    assert_eq!(own.body["Net"], statement.body["Net"], "{own:?}");
    assert_eq!(call(&system, &other_barber, Method::GET, &range, None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(call(&system, &attendant, Method::GET, &range, None).await.status, StatusCode::NOT_FOUND);

    // As it stood before the vale and the bonus.
    let then = call(&system, &admin, Method::GET, &format!("{range}&asOf={before_entries}"), None).await;
    assert_eq!(
        (then.body["Vales"].as_f64(), then.body["Bonuses"].as_f64()),
        (Some(0.0), Some(0.0)),
        "{then:?}"
    );
    assert_eq!(then.body["Commission"], statement.body["Commission"]);
    assert_eq!(then.body["AsOf"].as_str().map(str::is_empty), Some(false));
    // What changed since then, line by line: the vale and the bonus.
    let since = format!("{range}&since={before_entries}").replace("/statement?", "/statement/changes?");
    let changes = call(&system, &admin, Method::GET, &since, None).await;
    let listed: Vec<(Value, Value, Value)> = changes.body["Changes"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|c| (c["Kind"].clone(), c["Description"].clone(), c["Difference"].clone()))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        listed,
        [
            (json!("entry"), json!("Vale: Adiantamento"), json!(-50.0)),
            (json!("entry"), json!("Bônus: Meta do mês"), json!(10.0))
        ],
        "{changes:?}"
    );
    assert_eq!(changes.body["NetNow"], statement.body["Net"]);
    // The statement from the comanda model is the one folded from the events themselves.
    let folded = call(&system, &admin, Method::GET, &format!("{range}&asOf=9999-12-31"), None).await;
    let without_as_of = |mut body: Value| {
        body["AsOf"] = Value::Null;
        body
    };
    assert_eq!(without_as_of(folded.body), statement.body);

    // Bad ranges.
    let backwards = format!(
        "/api/commission/statement?idProfessional={}&from={}&to={}",
        d.barber1_id,
        today,
        today - chrono::Duration::days(1)
    );
    let refused = call(&system, &admin, Method::GET, &backwards, None).await;
    assert_eq!(
        refused.body["errors"]["to"], "A data final deve ser igual ou posterior à inicial.",
        "{refused:?}"
    );

    // 'Fechar período': yesterday and today, paid by Pix. Never twice for the same days.
    let (from, to) = (today - chrono::Duration::days(1), today);
    let close = |from: chrono::NaiveDate, to: chrono::NaiveDate| json!({"idProfessional": d.barber1_id, "from": from, "to": to, "paidAt": today, "method": "pix"});
    let closed =
        call(&system, &admin, Method::POST, "/api/commission/period/close", Some(close(from, to))).await;
    assert_eq!(closed.status, StatusCode::CREATED, "{closed:?}");
    let twice =
        call(&system, &admin, Method::POST, "/api/commission/period/close", Some(close(from, to))).await;
    assert_eq!(twice.status, StatusCode::UNPROCESSABLE_ENTITY, "the same days twice: {twice:?}");
    let overlap =
        call(&system, &admin, Method::POST, "/api/commission/period/close", Some(close(to, to))).await;
    assert!(
        overlap.body["errors"]["from"].as_str().is_some_and(|m| m.starts_with("Este período se sobrepõe")),
        "{overlap:?}"
    );
    let future = close(to + chrono::Duration::days(1), to + chrono::Duration::days(2));
    let future = call(&system, &admin, Method::POST, "/api/commission/period/close", Some(future)).await;
    assert_eq!(future.body["errors"]["to"], navalha_domain::commission::MSG_PERIOD_IN_FUTURE);
    system.project().await;
    let paid_range = format!("/api/commission/statement?idProfessional={}&from={from}&to={to}", d.barber1_id);
    let paid = call(&system, &admin, Method::GET, &paid_range, None).await;
    assert_eq!(paid.body["Period"]["Method"], "pix", "{paid:?}");
    assert_eq!(
        (paid.body["Net"].clone(), paid.body["Period"]["Net"].clone()),
        (statement.body["Net"].clone(), statement.body["Net"].clone())
    );

    // Then the first comanda is reopened and closed again at 10 %: the paid period does not
    // move; the difference is an adjustment of the next days, with a vale recorded now.
    let rates = json!({"servicePercent": 10, "productPercent": 10});
    call(&system, &admin, Method::PUT, &path, Some(rates)).await;
    let first = ids[0];
    call(
        &system,
        &admin,
        Method::POST,
        &format!("/api/comanda/{first}/reopen"),
        Some(json!({"reason": "Conferência"})),
    )
    .await;
    let reclosed =
        call(&system, &attendant, Method::POST, &format!("/api/comanda/{first}/close"), None).await;
    assert_eq!(reclosed.body["Status"], "CLOSED", "{reclosed:?}");
    let late =
        json!({"idProfessional": d.barber1_id, "kind": "vale", "value": 7, "reason": "Depois do pagamento"});
    assert_eq!(entry(&admin, late).await.status, StatusCode::CREATED);
    system.project().await;
    assert_eq!(
        call(&system, &admin, Method::GET, &paid_range, None).await.body,
        paid.body,
        "a paid period never moves"
    );
    let tomorrow = to + chrono::Duration::days(1);
    let next_range =
        format!("/api/commission/statement?idProfessional={}&from={tomorrow}&to={tomorrow}", d.barber1_id);
    let next = call(&system, &admin, Method::GET, &next_range, None).await;
    let was = (totals[0] * 33.33).round() / 100.0;
    let now = (totals[0] * 10.0).round() / 100.0;
    assert_eq!(next.body["AdjustmentLines"][0]["IdComanda"], first, "{next:?}");
    let adjustment = next.body["Adjustments"].as_f64().unwrap_or(f64::NAN);
    assert!((adjustment - (now - was)).abs() < 0.005, "{next:?}");
    assert_eq!(next.body["Vales"], 7.0, "the vale recorded after the payment is the next day's");
    assert!((next.body["Net"].as_f64().unwrap_or(f64::NAN) - (now - was - 7.0)).abs() < 0.005);
    let periods = call(
        &system,
        &barber,
        Method::GET,
        &format!("/api/commission/periods?idProfessional={}", d.barber1_id),
        None,
    )
    .await;
    assert_eq!(periods.body.as_array().map(Vec::len), Some(1), "{periods:?}");
}

/// Issue 42: the unit's card machine fees, shared by a professional whose rates say so: the
/// credit fee of the comanda, at their rate, comes off their commission.
#[tokio::test]
async fn a_professional_sharing_the_card_fee_bears_it_at_their_rate() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let d = demo(&system).await;
    let unit_path = format!("/api/company/{}", d.centro);
    let unit = call(&system, &admin, Method::GET, &unit_path, None).await;
    let form = |changes: Value| crate::online::company_form(&unit.body, changes);
    let refused =
        call(&system, &admin, Method::PUT, &unit_path, Some(form(json!({"cardFeeCreditPercent": 25})))).await;
    assert_eq!(
        refused.body["errors"]["cardFeeCreditPercent"],
        navalha_domain::company::MSG_BAD_CARD_FEE,
        "{refused:?}"
    );
    let fees = form(
        json!({"cardFeeCreditPercent": 3, "cardFeeDebitPercent": "1,5", "commissionPeriod": "fortnight"}),
    );
    assert_eq!(call(&system, &admin, Method::PUT, &unit_path, Some(fees)).await.status, StatusCode::OK);
    system.project().await;
    let saved = call(&system, &admin, Method::GET, &unit_path, None).await;
    assert_eq!(
        (saved.body["CardFeeCreditPercent"].as_f64(), saved.body["CardFeeDebitPercent"].as_f64()),
        (Some(3.0), Some(1.5)),
        "{saved:?}"
    );
    assert_eq!(
        (saved.body["CommissionPeriod"].as_str(), saved.body["ClubCommissionRule"].as_str()),
        (Some("fortnight"), Some("plan"))
    );

    let rates = json!({"servicePercent": 50, "productPercent": 10, "cardFeeShared": true});
    let rates_path = format!("/api/professional/{}/commission", d.barber1_id);
    assert_eq!(call(&system, &admin, Method::PUT, &rates_path, Some(rates)).await.status, StatusCode::OK);
    caixa_opened(&system, &attendant, d.centro).await;
    let id = opened(&system, &attendant, &d, booked(&system, &admin, &d, "18:00").await).await;
    let path = |tail: &str| format!("/api/comanda/{id}{tail}");
    let figures = call(&system, &attendant, Method::PUT, &path("/discount"), Some(json!({}))).await;
    let total = reais(&figures, "Total");
    let credit = json!({"method": "credit", "value": total, "installments": 1});
    call(&system, &attendant, Method::POST, &path("/payments"), Some(credit)).await;
    assert_eq!(call(&system, &attendant, Method::POST, &path("/close"), None).await.body["Status"], "CLOSED");
    system.project().await;
    let comanda = call(&system, &admin, Method::GET, &path(""), None).await;
    let earned = &comanda.body["Commissions"][0];
    // In centavos: the fee is 3 % of the payment, and they bear 50 % of it.
    let total_cents = (total * 100.0).round() as i64;
    let fee = (total_cents * 300 + 5_000) / 10_000;
    let borne = (fee * 5_000 + 5_000) / 10_000;
    assert_eq!(earned["CardFees"].as_f64(), Some(borne as f64 / 100.0), "{comanda:?}");
    assert_eq!(earned["Lines"][0]["CardFee"].as_f64(), Some(borne as f64 / 100.0));
}
