//! Stock (issue 43): movements recorded by hand and sales by comandas change each unit's
//! count and its value at cost; the unit's list shows low stock first, now and as it stood;
//! the refusals on the fields and by role; and two desks selling the last item at once.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::isolation::scalar;
use crate::support::{demo, Answer, Demo, System};

async fn call(system: &System, token: &str, method: Method, path: &str, body: Option<Value>) -> Answer {
    system.call(method, path, Some(token), body).await
}

/// A product with a registered cost, and the least Centro keeps of it.
async fn product(system: &System, admin: &str, d: &Demo, name: &str, minimum: i64) -> i64 {
    let form = json!({"name": name, "price": "39,90", "cost": "15,00", "brand": "Barba Forte",
                      "barcode": "7891000315507", "minimums": [{"idCompany": d.centro, "minimum": minimum}]});
    let answer = call(system, admin, Method::POST, "/api/product", Some(form)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    answer.body["IdProduct"].as_i64().expect("product")
}

/// Opens the unit's caixa, so payments can be taken.
async fn caixa_opened(system: &System, token: &str, company: i64) {
    let caixa = json!({"idCompany": company, "openingCash": 100});
    let opened = call(system, token, Method::POST, "/api/caixa", Some(caixa)).await;
    assert_eq!(opened.status, StatusCode::CREATED, "{opened:?}");
}

async fn moved(system: &System, token: &str, product: i64, body: Value) -> Answer {
    call(system, token, Method::POST, &format!("/api/product/{product}/movements"), Some(body)).await
}

/// A walk-in comanda at `company` selling `quantity` of `product`, paid by credit card.
async fn sold(system: &System, token: &str, company: i64, product: i64, quantity: i64) -> i64 {
    let opened = call(system, token, Method::POST, "/api/comanda", Some(json!({"idCompany": company}))).await;
    assert_eq!(opened.status, StatusCode::CREATED, "{opened:?}");
    let id = opened.body["IdComanda"].as_i64().expect("comanda");
    let line = json!({"kind": "product", "id": product, "quantity": quantity});
    let added = call(system, token, Method::POST, &format!("/api/comanda/{id}/items"), Some(line)).await;
    assert_eq!(added.status, StatusCode::OK, "{added:?}");
    let due = added.body["Due"].as_f64().expect("due");
    let card = json!({"method": "credit", "value": due, "installments": 1});
    let paid = call(system, token, Method::POST, &format!("/api/comanda/{id}/payments"), Some(card)).await;
    assert_eq!(paid.status, StatusCode::OK, "{paid:?}");
    id
}

fn row(stock: &Answer, product: i64) -> &Value {
    stock.body["Items"]
        .as_array()
        .and_then(|items| items.iter().find(|item| item["IdProduct"] == json!(product)))
        .unwrap_or_else(|| panic!("product {product} in {stock:?}"))
}

#[tokio::test]
async fn movements_and_sales_change_the_count_and_its_value_at_cost() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let d = demo(&system).await;
    let pomade = product(&system, &admin, &d, "Pomada de teste", 5).await;
    caixa_opened(&system, &admin, d.centro).await;

    // 10 at R$ 15,00 and 5 at R$ 18,00: 15 worth R$ 240,00, R$ 16,00 each on average. The
    // attendant records an entrada; an ajuste is the owner's.
    let first = json!({"kind": "entrada", "idCompany": d.centro, "quantity": 10, "unitCost": "15,00", "supplier": "Distribuidora Sul"});
    let received = moved(&system, &attendant, pomade, first).await;
    assert_eq!(received.status, StatusCode::CREATED, "{received:?}");
    assert_eq!(received.body["Quantity"], 10);
    let second = json!({"kind": "entrada", "idCompany": d.centro, "quantity": 5, "unitCost": 18});
    assert_eq!(moved(&system, &admin, pomade, second).await.status, StatusCode::CREATED);
    let count = json!({"kind": "ajuste", "idCompany": d.centro, "quantity": 14, "reason": "Contagem"});
    assert_eq!(moved(&system, &attendant, pomade, count.clone()).await.status, StatusCode::FORBIDDEN);
    let counted = moved(&system, &admin, pomade, count).await;
    assert_eq!(counted.body["Quantity"], 14, "{counted:?}");
    // 14 left worth R$ 224,00; 3 go to Savassi at R$ 48,00, 2 are sold in a comanda.
    let transfer =
        json!({"kind": "transferencia", "idCompany": d.centro, "idCompanyTo": d.savassi, "quantity": 3});
    assert_eq!(moved(&system, &admin, pomade, transfer).await.status, StatusCode::CREATED);
    let comanda = sold(&system, &attendant, d.centro, pomade, 2).await;
    let closed =
        call(&system, &attendant, Method::POST, &format!("/api/comanda/{comanda}/close"), None).await;
    assert_eq!(closed.status, StatusCode::OK, "{closed:?}");
    system.project().await;
    let before_reopening = navalha_platform::clock::now();

    let stock =
        call(&system, &attendant, Method::GET, &format!("/api/stock?idCompany={}", d.centro), None).await;
    assert_eq!(stock.status, StatusCode::OK, "{stock:?}");
    let pomade_row = row(&stock, pomade);
    assert_eq!(pomade_row["Quantity"], 9);
    assert_eq!(pomade_row["Value"], 144.0, "9 at R$ 16,00");
    assert_eq!(pomade_row["AverageCost"], 16.0);
    assert_eq!(pomade_row["Low"], false);
    let savassi =
        call(&system, &admin, Method::GET, &format!("/api/stock?idCompany={}", d.savassi), None).await;
    assert_eq!(row(&savassi, pomade)["Value"], 48.0, "the transfer carried its value");

    // Reopened, the sale comes back; used in the shop below the minimum, it lists first.
    let reopened = call(
        &system,
        &admin,
        Method::POST,
        &format!("/api/comanda/{comanda}/reopen"),
        Some(json!({"reason": "Trocou de ideia"})),
    )
    .await;
    assert_eq!(reopened.status, StatusCode::OK, "{reopened:?}");
    let used = json!({"kind": "uso_interno", "idCompany": d.centro, "quantity": 7, "reason": "Mostruário"});
    assert_eq!(moved(&system, &attendant, pomade, used).await.status, StatusCode::CREATED);
    system.project().await;
    let stock = call(&system, &admin, Method::GET, &format!("/api/stock?idCompany={}", d.centro), None).await;
    assert_eq!(stock.body["Items"][0]["IdProduct"], json!(pomade), "low stock first: {stock:?}");
    assert_eq!(row(&stock, pomade)["Quantity"], 4);
    assert_eq!(row(&stock, pomade)["Low"], true);
    assert_eq!(row(&stock, pomade)["Minimum"], 5);

    // As it stood before the reopening: the count the accountant closes the month with.
    let then = before_reopening.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let past = call(
        &system,
        &admin,
        Method::GET,
        &format!("/api/stock?idCompany={}&asOf={}", d.centro, then.replace('+', "%2B")),
        None,
    )
    .await;
    assert_eq!(past.status, StatusCode::OK, "{past:?}");
    assert_eq!(row(&past, pomade)["Quantity"], 9, "{past:?}");
    assert_eq!(row(&past, pomade)["Value"], 144.0);

    // The product's movements, newest first, with who and why.
    let listed =
        call(&system, &admin, Method::GET, &format!("/api/product/{pomade}/movements?pageSize=20"), None)
            .await;
    let kinds: Vec<(&str, i64)> = listed.body["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["IdCompany"] == json!(d.centro))
        .map(|m| (m["Kind"].as_str().unwrap_or_default(), m["Quantity"].as_i64().unwrap_or_default()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("uso_interno", -7),
            ("venda", 2),
            ("venda", -2),
            ("transferencia", -3),
            ("ajuste", -1),
            ("entrada", 5),
            ("entrada", 10)
        ],
        "{listed:?}"
    );
    let newest = &listed.body["content"][0];
    assert_eq!(newest["UserName"], "Beatriz Atendente", "{newest:?}");
    assert_eq!(newest["Reason"], "Mostruário");

    // The counts the appends keep equal the read model's, unit by unit.
    let kept: Vec<(i64, i64, i64)> =
        sqlx::query_as("select product_id, company_id, quantity from stock_count order by 1, 2")
            .fetch_all(&system.pool)
            .await
            .expect("counts");
    let projected: Vec<(i64, i64, i64)> =
        sqlx::query_as("select product_id, company_id, quantity from rm_product.stock_level order by 1, 2")
            .fetch_all(&system.pool)
            .await
            .expect("levels");
    assert_eq!(kept, projected);
}

#[tokio::test]
async fn refusals_name_their_fields_and_no_unit_sells_what_it_does_not_hold_unless_it_allows() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let d = demo(&system).await;
    let oil = product(&system, &admin, &d, "Óleo de teste", 0).await;
    caixa_opened(&system, &admin, d.centro).await;
    let refused = |body: Value| {
        let (system, admin) = (&system, &admin);
        async move { moved(system, admin, oil, body).await }
    };
    let sale = refused(json!({"kind": "venda", "idCompany": d.centro, "quantity": 1})).await;
    assert_eq!(sale.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(sale.body["errors"]["kind"], "Vendas entram pelo fechamento da comanda.");
    let negative =
        refused(json!({"kind": "entrada", "idCompany": d.centro, "quantity": -2, "unitCost": -1})).await;
    assert_eq!(negative.body["errors"]["quantity"], "Informe uma quantidade maior que zero.", "{negative:?}");
    assert_eq!(negative.body["errors"]["unitCost"], "O valor não pode ser negativo.");
    let nowhere =
        refused(json!({"kind": "entrada", "idCompany": 999_999, "quantity": 1, "unitCost": 1})).await;
    assert_eq!(nowhere.body["errors"]["idCompany"], "Unidade não encontrada.", "{nowhere:?}");
    let used = refused(json!({"kind": "uso_interno", "idCompany": d.centro, "quantity": 1})).await;
    assert_eq!(used.body["errors"]["quantity"], "Estoque insuficiente: há 0 un nesta unidade.", "{used:?}");
    let bad_barcode = call(
        &system,
        &admin,
        Method::PUT,
        &format!("/api/product/{oil}"),
        Some(json!({"name": "Óleo", "price": 30, "barcode": "7891000315508", "minimums": [{"idCompany": 999_999, "minimum": 1}]})),
    )
    .await;
    assert_eq!(bad_barcode.body["errors"]["barcode"], "Código de barras inválido.", "{bad_barcode:?}");
    let entrada = json!({"kind": "entrada", "idCompany": d.centro, "quantity": 1, "unitCost": 1});
    assert_eq!(moved(&system, &barber, oil, entrada).await.status, StatusCode::FORBIDDEN);
    let barber_stock =
        call(&system, &barber, Method::GET, &format!("/api/stock?idCompany={}", d.centro), None).await;
    assert_eq!(barber_stock.status, StatusCode::FORBIDDEN);

    // Nothing at Centro: a comanda selling it does not close, and says what is missing.
    let comanda = sold(&system, &admin, d.centro, oil, 1).await;
    let close = call(&system, &admin, Method::POST, &format!("/api/comanda/{comanda}/close"), None).await;
    assert_eq!(close.status, StatusCode::UNPROCESSABLE_ENTITY, "{close:?}");
    assert_eq!(close.message(), "Estoque insuficiente de Óleo de teste: há 0 un nesta unidade.");
    let closes = scalar(&system, "select count(*) from events where event_type = 'ComandaClosed'").await;
    assert_eq!(closes, 0, "nothing half written");
}

/// Two desks close comandas selling the last pomade at once: where the unit does not sell
/// more than it holds, one closes and the other is refused; where it does, both close and
/// the count goes below zero.
#[tokio::test]
async fn desks_selling_the_last_item_at_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let d = demo(&system).await;
    let batel =
        scalar(&system, "select company_id from rm_company.company where name = 'Navalha Batel'").await;
    let pomade = product(&system, &admin, &d, "Última pomada", 0).await;
    for (unit, allows) in [(d.centro, false), (batel, true)] {
        caixa_opened(&system, &admin, unit).await;
        let one = json!({"kind": "entrada", "idCompany": unit, "quantity": 1, "unitCost": 10});
        assert_eq!(moved(&system, &admin, pomade, one).await.status, StatusCode::CREATED);
        let first = sold(&system, &admin, unit, pomade, 1).await;
        let second = sold(&system, &admin, unit, pomade, 1).await;
        let close = |id: i64| {
            let (system, admin) = (&system, &admin);
            async move { call(system, admin, Method::POST, &format!("/api/comanda/{id}/close"), None).await }
        };
        let (a, b) = tokio::join!(close(first), close(second));
        let ok = [&a, &b].iter().filter(|answer| answer.status == StatusCode::OK).count();
        let count: i64 =
            sqlx::query_scalar("select quantity from stock_count where product_id = $1 and company_id = $2")
                .bind(pomade)
                .bind(unit)
                .fetch_one(&system.pool)
                .await
                .expect("count");
        if allows {
            assert_eq!((ok, count), (2, -1), "{a:?} {b:?}");
            system.project().await;
            let stock =
                call(&system, &admin, Method::GET, &format!("/api/stock?idCompany={unit}"), None).await;
            assert_eq!(
                (row(&stock, pomade)["Quantity"].clone(), stock.body["AllowsNegative"].clone()),
                (json!(-1), json!(true))
            );
        } else {
            assert_eq!((ok, count), (1, 0), "{a:?} {b:?}");
            let refused = if a.status == StatusCode::OK { &b } else { &a };
            assert!(
                [StatusCode::CONFLICT, StatusCode::UNPROCESSABLE_ENTITY].contains(&refused.status),
                "{refused:?}"
            );
            assert!(refused.message().starts_with("Estoque insuficiente"), "{refused:?}");
        }
    }
}

/// A service that uses a product takes it from the unit's stock when its comanda closes,
/// listed as 'Uso interno' for that service; a unit without enough refuses the close.
#[tokio::test]
async fn a_service_uses_its_products_when_its_comanda_closes() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let d = demo(&system).await;
    let dye = product(&system, &admin, &d, "Tinta de teste", 0).await;
    let used = call(
        &system,
        &admin,
        Method::PUT,
        &format!("/api/service/{}/products/{dye}", d.haircut),
        Some(json!({"quantity": 2})),
    )
    .await;
    assert_eq!(used.status, StatusCode::OK, "{used:?}");
    assert_eq!(used.body["Uses"], json!([{"IdProduct": dye, "Quantity": 2}]));
    let bad = call(
        &system,
        &admin,
        Method::PUT,
        &format!("/api/service/{}/products/{dye}", d.haircut),
        Some(json!({"quantity": -1})),
    )
    .await;
    assert_eq!(bad.body["errors"]["quantity"], "A quantidade usada deve ser de 0 a 100.000.", "{bad:?}");
    let three = json!({"kind": "entrada", "idCompany": d.centro, "quantity": 3, "unitCost": 1});
    assert_eq!(moved(&system, &admin, dye, three).await.status, StatusCode::CREATED);
    caixa_opened(&system, &admin, d.centro).await;
    let haircut = || {
        let (system, admin) = (&system, &admin);
        async move {
            let opened =
                call(system, admin, Method::POST, "/api/comanda", Some(json!({"idCompany": d.centro}))).await;
            let id = opened.body["IdComanda"].as_i64().expect("comanda");
            let line = json!({"kind": "service", "id": d.haircut, "idProfessional": d.barber1_id});
            let added =
                call(system, admin, Method::POST, &format!("/api/comanda/{id}/items"), Some(line)).await;
            let due = added.body["Due"].as_f64().unwrap_or_else(|| panic!("{added:?}"));
            let card = json!({"method": "debit", "value": due});
            call(system, admin, Method::POST, &format!("/api/comanda/{id}/payments"), Some(card)).await;
            call(system, admin, Method::POST, &format!("/api/comanda/{id}/close"), None).await
        }
    };
    let first = haircut().await;
    assert_eq!(first.status, StatusCode::OK, "{first:?}");
    let second = haircut().await;
    assert_eq!(second.status, StatusCode::UNPROCESSABLE_ENTITY, "{second:?}");
    assert_eq!(second.message(), "Estoque insuficiente de Tinta de teste: há 1 un nesta unidade.");
    system.project().await;
    let listed = call(&system, &admin, Method::GET, &format!("/api/product/{dye}/movements"), None).await;
    let newest = &listed.body["content"][0];
    assert_eq!((newest["Kind"].as_str(), newest["Quantity"].as_i64()), (Some("uso_interno"), Some(-2)));
    assert_eq!(newest["Reason"], "Usado em Corte de cabelo", "{newest:?}");
    assert!(newest["IdComanda"].is_i64());
    let product = call(&system, &admin, Method::GET, &format!("/api/product/{dye}"), None).await;
    assert_eq!(product.body["UsedBy"], json!([{"IdService": d.haircut, "Quantity": 2}]));
}

/// A product's photo, as the plan's image: checked by content, kept by the form, removed.
#[tokio::test]
async fn a_product_has_a_photo_the_form_keeps() {
    let pool = demo_database().await;
    use crate::gallery::{multipart, png, BOUNDARY};
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let d = demo(&system).await;
    let pomade = product(&system, &admin, &d, "Pomada com foto", 0).await;
    let upload = |bytes: Vec<u8>| {
        let (system, admin) = (&system, &admin);
        async move {
            let body = multipart(&[("file", Some("foto.png"), bytes)]);
            let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
            system
                .send_raw(Method::POST, &format!("/api/product/{pomade}/image"), admin, &content_type, body)
                .await
        }
    };
    let refused = upload(b"not an image".to_vec()).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{refused:?}");
    assert_eq!(refused.body["errors"]["file"], "foto.png: Envie apenas imagens JPEG, PNG ou WebP.");
    let saved = upload(png(7)).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    let url = saved.body["UrlImage"].as_str().unwrap_or_else(|| panic!("{saved:?}")).to_owned();
    let changed = call(
        &system,
        &admin,
        Method::PUT,
        &format!("/api/product/{pomade}"),
        Some(json!({"name": "Pomada com foto", "price": "41,90"})),
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{changed:?}");
    system.project().await;
    let read = call(&system, &admin, Method::GET, &format!("/api/product/{pomade}"), None).await;
    assert_eq!(
        (read.body["UrlImage"].as_str(), read.body["Price"].as_f64()),
        (Some(url.as_str()), Some(41.9))
    );
    let removed = call(&system, &admin, Method::DELETE, &format!("/api/product/{pomade}/image"), None).await;
    assert_eq!(removed.body["UrlImage"], Value::Null, "{removed:?}");
    system.project().await;
    let read = call(&system, &admin, Method::GET, &format!("/api/product/{pomade}"), None).await;
    assert_eq!(read.body["UrlImage"], Value::Null);
}
