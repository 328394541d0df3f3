//! Units: registration with its rules, CNPJ uniqueness under races, edits, hours, the
//! list's search and the permissions of spec 02 §6.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::{company, names, urlencode, System};

#[tokio::test]
async fn an_admin_registers_a_unit_that_is_listed_read_and_edited() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let created = system
        .call(
            Method::POST,
            "/api/company",
            Some(&admin),
            Some(company("Navalha Ipanema", "11.222.333/0001-81")),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdCompany"].as_i64().expect("id");

    // Read-your-writes: the read waits for the projector instead of missing the unit.
    let read = system.read_after(&format!("/api/company/{id}"), &admin, &created).await;
    assert_eq!(read.status, StatusCode::OK, "{read:?}");
    assert_eq!(read.body["Name"], "Navalha Ipanema");
    assert_eq!(read.body["Cnpj"], "11222333000181");
    assert_eq!(read.body["ZipCode"], "01042001");
    assert_eq!(read.body["Status"], true);

    let mut edited = company("Navalha Ipanema Praia", "11.222.333/0001-81");
    edited["status"] = json!(false);
    let saved = system.call(Method::PUT, &format!("/api/company/{id}"), Some(&admin), Some(edited)).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    system.project().await;
    for (search, status, expected) in [
        ("ipanema", "2", vec!["Navalha Ipanema Praia"]),
        ("IPANEMA", "1", vec![]),
        ("11.222.333", "", vec!["Navalha Ipanema Praia"]),
    ] {
        let found = system
            .call(
                Method::GET,
                &format!(
                    "/api/company/filter?page=1&pageSize=5&search={}&status={status}",
                    urlencode(search)
                ),
                Some(&admin),
                None,
            )
            .await;
        assert_eq!(found.status, StatusCode::OK, "{found:?}");
        assert_eq!(names(&found), expected, "{search} {status}");
    }
    let page =
        system.call(Method::GET, "/api/company/filter?page=1&pageSize=2&status=1", Some(&admin), None).await;
    assert_eq!((page.body["total"].clone(), page.body["count"].clone()), (json!(3), json!(2)));
}

#[tokio::test]
async fn each_company_rule_answers_422_with_its_message() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let cases = [
        ("name", json!(""), "Digite o nome da barbearia"),
        ("cnpj", json!("11.222.333/0001-80"), "CNPJ inválido"),
        ("email", json!("x@y"), "E-mail inválido"),
        ("phone", json!("(11) 8765-4321"), "Informe um número válido"),
        ("status", Value::Null, "Escolha um Status"),
        ("facebook", json!(""), "Informe o link do Facebook"),
        ("instagram", json!(""), "Informe o link do Instagram"),
        ("zipCode", json!(""), "Digite o CEP"),
        ("street", json!("Barão"), "Digite o nome da rua completo"),
        ("number", json!("123456"), "Digite um número válido."),
        ("district", json!(""), "Digite o bairro"),
        ("city", json!(""), "Digite a cidade"),
        ("state", json!("--"), "Escolha um estado"),
    ];
    for (field, value, message) in cases {
        let mut body = company("Navalha Ipanema", "11.222.333/0001-81");
        body[field] = value;
        let answer = system.call(Method::POST, "/api/company", Some(&admin), Some(body)).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        assert_eq!(answer.body["errors"][field], message, "{field}");
    }
    let events: i64 = sqlx::query_scalar("select count(*) from events where aggregate_type = 'Company'")
        .fetch_one(&system.pool)
        .await
        .expect("count");
    let seeded: i64 = 3 * 7; // three units, each registered with six open days
    assert_eq!(events, seeded, "nothing was written");
}

#[tokio::test]
async fn one_company_per_cnpj_even_when_requests_race() {
    let pool = demo_database().await;
    let system = Arc::new(System::start(pool).await);
    let admin = Arc::new(system.sign_in("admin@navalha.dev").await);
    let mut tasks = Vec::new();
    for index in 0..8 {
        let (system, admin) = (system.clone(), admin.clone());
        tasks.push(tokio::spawn(async move {
            let body = company(&format!("Navalha Corrida {index}"), "11.222.333/0001-81");
            system.call(Method::POST, "/api/company", Some(&admin), Some(body)).await
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        let answer = task.await.expect("task");
        if answer.status == StatusCode::CONFLICT {
            assert_eq!(answer.message(), "Já existe uma empresa cadastrada com este CNPJ.");
            assert_eq!(answer.body["errors"]["cnpj"], "Já existe uma empresa cadastrada com este CNPJ.");
        }
        statuses.push(answer.status);
    }
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CREATED).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count(), 7, "{statuses:?}");

    // A unit changing its CNPJ frees the old one.
    system.project().await;
    let found = system.call(Method::GET, "/api/company/filter?search=corrida", Some(&admin), None).await;
    let id = found.body["content"][0]["IdCompany"].as_i64().expect("id");
    let moved = system
        .call(
            Method::PUT,
            &format!("/api/company/{id}"),
            Some(&admin),
            Some(company("Navalha Corrida", "45.723.174/0001-10")),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{moved:?}");
    let reused = system
        .call(Method::POST, "/api/company", Some(&admin), Some(company("Navalha Nova", "11.222.333/0001-81")))
        .await;
    assert_eq!(reused.status, StatusCode::CREATED, "{reused:?}");
    let taken = system
        .call(
            Method::PUT,
            &format!("/api/company/{id}"),
            Some(&admin),
            Some(company("Navalha Corrida", "11.222.333/0001-81")),
        )
        .await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn opening_hours_are_one_period_a_day() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let companies = system.call(Method::GET, "/api/company", Some(&admin), None).await;
    let id = companies.body[0]["IdCompany"].as_i64().expect("id");
    let path = format!("/api/company-working-hours/{id}/day");
    let saved = system
        .call(Method::PUT, &path, Some(&admin), Some(json!({"weekDay": 0, "start": "10:00", "end": "14:00"})))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    let closed = system
        .call(Method::PUT, &path, Some(&admin), Some(json!({"weekDay": 1, "start": "", "end": ""})))
        .await;
    assert_eq!(closed.status, StatusCode::OK);
    for (body, field, message) in [
        (json!({"weekDay": 2, "start": "14:00", "end": "10:00"}), "end", "Horário final menor que inicial"),
        (json!({"weekDay": 2, "start": "25:00", "end": "26:00"}), "start", "Formato incorreto."),
        (json!({"weekDay": 2, "start": "", "end": "10:00"}), "start", "Preencha a horário de início"),
        (json!({"weekDay": 2, "start": "10:00"}), "end", "Preencha a horário de fim"),
    ] {
        let refused = system.call(Method::PUT, &path, Some(&admin), Some(body)).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.body["errors"][field], message);
    }
    system.project().await;
    let week =
        system.call(Method::GET, &format!("/api/company-working-hours/{id}"), Some(&admin), None).await;
    assert_eq!(week.body.as_array().map(Vec::len), Some(7));
    assert_eq!(week.body[0], json!({"WeekDay": 0, "Start": "10:00", "End": "14:00"}));
    assert_eq!(week.body[1], json!({"WeekDay": 1, "Start": null, "End": null}));
    assert_eq!(week.body[2], json!({"WeekDay": 2, "Start": "09:00", "End": "21:00"}));
}

#[tokio::test]
async fn only_admins_write_units_and_nobody_sees_units_they_may_not() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    for email in ["atendente@navalha.dev", "lider@navalha.dev", "barbeiro1@navalha.dev", "padrao@navalha.dev"]
    {
        let token = system.sign_in(email).await;
        let answer = system
            .call(
                Method::POST,
                "/api/company",
                Some(&token),
                Some(company("Navalha X", "11.222.333/0001-81")),
            )
            .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{email}");
        let answer = system
            .call(Method::PUT, "/api/company-working-hours/1/day", Some(&token), Some(json!({"weekDay": 1})))
            .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{email}");
    }
    // An inactive unit is visible only to its members and to ADMIN, who manages units: the
    // barber of another unit and the attendant (who sees every active unit) get 404, as
    // for an id that does not exist.
    let created = system
        .call(
            Method::POST,
            "/api/company",
            Some(&admin),
            Some(company("Navalha Fechada", "11.222.333/0001-81")),
        )
        .await;
    let id = created.body["IdCompany"].as_i64().expect("id");
    let mut closed = company("Navalha Fechada", "11.222.333/0001-81");
    closed["status"] = json!(false);
    let saved = system.call(Method::PUT, &format!("/api/company/{id}"), Some(&admin), Some(closed)).await;
    assert_eq!(saved.status, StatusCode::OK);
    system.project().await;
    let barber = system.sign_in("heitor@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    for token in [&barber, &attendant] {
        for path in [
            format!("/api/company/{id}"),
            format!("/api/company-working-hours/{id}"),
            "/api/company/999".to_owned(),
        ] {
            let answer = system.call(Method::GET, &path, Some(token), None).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(answer.message(), "Empresa não encontrada.");
        }
        let listed = system.call(Method::GET, "/api/company/filter?status=2", Some(token), None).await;
        assert_eq!(listed.body["total"], 0);
    }
    let answer = system.call(Method::GET, &format!("/api/company/{id}"), Some(&admin), None).await;
    assert_eq!(answer.body["Status"], false);
    let answer = system.call(Method::GET, "/api/company/999", Some(&admin), None).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    // A barber lists only their own unit.
    let listed = system.call(Method::GET, "/api/company/filter?status=", Some(&barber), None).await;
    assert_eq!(names(&listed), ["Navalha Batel"]);
}

#[tokio::test]
async fn a_unit_with_an_alphanumeric_cnpj_is_registered_and_found_by_it() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let created = system
        .call(Method::POST, "/api/company", Some(&admin), Some(company("Navalha Alfa", "12.abc.345/01de-35")))
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdCompany"].as_i64().expect("id");
    system.project().await;
    let read = system.call(Method::GET, &format!("/api/company/{id}"), Some(&admin), None).await;
    assert_eq!(read.body["Cnpj"], "12ABC34501DE35");
    let found = system.call(Method::GET, "/api/company/filter?search=12ABC345", Some(&admin), None).await;
    assert_eq!(found.body["total"], 1, "{found:?}");

    let wrong = system
        .call(Method::POST, "/api/company", Some(&admin), Some(company("Navalha Beta", "12.ABC.345/01DE-36")))
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(wrong.body["errors"]["cnpj"], "CNPJ inválido");
}

/// Issue 39, point 9: every unit was on São Paulo's clock. A unit takes the zone of its
/// state and city, the form may correct it, and the unit's rules read it: its today is
/// Manaus's, an hour behind São Paulo's, around midnight.
#[tokio::test]
async fn a_unit_is_on_its_own_clock() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let mut manaus = company("Navalha Manaus", "11.444.777/0001-61");
    manaus["state"] = json!("AM");
    manaus["city"] = json!("Manaus");
    let created = system.call(Method::POST, "/api/company", Some(&admin), Some(manaus.clone())).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdCompany"].as_i64().expect("id");
    system.project().await;
    let read = async |system: &System| {
        system.call(Method::GET, &format!("/api/company/{id}"), Some(&admin), None).await.body
    };
    let unit = read(&system).await;
    assert_eq!(
        (unit["TimeZone"].as_str(), unit["TimeZoneFromAddress"].as_bool()),
        (Some("America/Manaus"), Some(true))
    );
    let listed = system.call(Method::GET, "/api/company", Some(&admin), None).await;
    let in_list = listed
        .body
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["IdCompany"] == id)
        .cloned()
        .unwrap_or_default();
    assert_eq!(in_list["TimeZone"], "America/Manaus");

    // Corrected by hand; a zone off the list is refused on its field.
    let path = format!("/api/company/{id}");
    let mut wrong = manaus.clone();
    wrong["timeZone"] = json!("Europe/Lisbon");
    let refused = system.call(Method::PUT, &path, Some(&admin), Some(wrong)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["errors"]["timeZone"], navalha_domain::time_zone::MSG_BAD_TIME_ZONE);
    let mut corrected = manaus.clone();
    corrected["timeZone"] = json!("America/Eirunepe");
    assert_eq!(system.call(Method::PUT, &path, Some(&admin), Some(corrected)).await.status, StatusCode::OK);
    system.project().await;
    let unit = read(&system).await;
    assert_eq!(
        (unit["TimeZone"].as_str(), unit["TimeZoneFromAddress"].as_bool()),
        (Some("America/Eirunepe"), Some(false))
    );

    // The unit's today, as its rules read it, is on its clock.
    let (manaus_today, sao_paulo_today): (chrono::NaiveDate, chrono::NaiveDate) = sqlx::query_as(
        "select ($1::timestamptz at time zone time_zone)::date, ($1::timestamptz at time zone 'America/Sao_Paulo')::date
           from rm_company.company where company_id = $2",
    )
    .bind(chrono::DateTime::parse_from_rfc3339("2026-11-28T03:30:00Z").expect("instant"))
    .bind(id)
    .fetch_one(&system.pool)
    .await
    .expect("today");
    assert_eq!(
        (manaus_today.to_string(), sao_paulo_today.to_string()),
        ("2026-11-27".into(), "2026-11-28".into())
    );
}
