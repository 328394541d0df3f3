//! Holidays: creating, editing and removing (ADMIN only), the searchable list, who sees
//! which holidays, the form's messages and read-your-writes.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::{urlencode, Answer, System};

/// The demo units' ids, in the order the demo creates them (Centro, Savassi, Batel).
async fn companies(system: &System) -> Vec<i64> {
    let ids: Vec<String> = sqlx::query_scalar(
        "select aggregate_id from events where aggregate_type = 'Company' and sequence = 1 order by global_position",
    )
    .fetch_all(&system.pool)
    .await
    .expect("companies");
    ids.iter().map(|id| id.parse().expect("numeric id")).collect()
}

/// A date `days` from today, so the "next holiday first" order holds whatever today is.
fn in_days(days: i64) -> String {
    (navalha_platform::clock::today() + chrono::Duration::days(days)).to_string()
}

fn holiday(description: &str, date: &str, companies: &[i64]) -> Value {
    json!({
        "description": description, "startDate": date, "endDate": date, "allDay": true,
        "startTime": null, "endTime": null, "idsCompanies": companies,
    })
}

async fn create(system: &System, token: &str, body: Value) -> Answer {
    system.call(Method::POST, "/api/holiday", Some(token), Some(body)).await
}

fn descriptions(answer: &Answer) -> Vec<String> {
    answer.body["content"]
        .as_array()
        .map(|list| list.iter().filter_map(|h| h["Description"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

async fn events(system: &System, event_type: &str) -> i64 {
    sqlx::query_scalar("select count(*) from events where aggregate_type = 'Holiday' and event_type = $1")
        .bind(event_type)
        .fetch_one(&system.pool)
        .await
        .expect("count")
}

#[tokio::test]
async fn a_created_holiday_is_read_back_after_its_position_with_its_units() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let units = companies(&system).await;
    let body = json!({
        "description": "Aniversário de São Paulo", "startDate": "2027-01-25T03:00:00.000Z",
        "endDate": "2027-01-25", "allDay": false, "startTime": "12:00", "endTime": "18:00:00",
        "idsCompanies": [units[1], units[0], units[1]],
    });
    let created = create(&system, &admin, body).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdHoliday"].as_i64().expect("IdHoliday");

    let read = system.read_after(&format!("/api/holiday/{id}"), &admin, &created).await;
    assert_eq!(read.status, StatusCode::OK, "{read:?}");
    assert_eq!(
        read.body,
        json!({
            "IdHoliday": id, "Description": "Aniversário de São Paulo", "StartDate": "2027-01-25",
            "EndDate": "2027-01-25", "StartTime": "12:00", "EndTime": "18:00", "AllDay": false,
            "AllCompanies": false,
            "Companies": [
                { "IdCompany": units[0], "Name": "Navalha Centro" },
                { "IdCompany": units[1], "Name": "Navalha Savassi" },
            ],
        })
    );
    let list = system.call(Method::GET, "/api/holiday/filter?page=1&pageSize=5", Some(&admin), None).await;
    assert_eq!(list.body["content"][0], read.body);
    assert_eq!((list.body["total"].clone(), list.body["count"].clone()), (json!(1), json!(1)));
}

#[tokio::test]
async fn the_list_is_searched_ignoring_accents_and_case_paged_and_starts_with_the_next_holiday() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let units = companies(&system).await;
    let past = create(&system, &admin, holiday("Tiradentes", "2020-04-21", &units)).await;
    assert_eq!(past.status, StatusCode::CREATED, "{past:?}");
    create(&system, &admin, holiday("São João", &in_days(20), &units[..1])).await;
    for month in 1..=6 {
        let date = in_days(40 + 30 * month);
        let answer =
            create(&system, &admin, holiday(&format!("Feriado municipal {month}"), &date, &units)).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    }
    system.project().await;

    for search in ["sao joao", "SÃO JOÃO", "joão", "o jo"] {
        let found = system
            .call(
                Method::GET,
                &format!("/api/holiday/filter?search={}", urlencode(search)),
                Some(&admin),
                None,
            )
            .await;
        assert_eq!(descriptions(&found), ["São João"], "{search}");
        assert_eq!(found.body["total"], 1, "{search}");
    }
    let first =
        system.call(Method::GET, "/api/holiday/filter?page=1&search=municipal", Some(&admin), None).await;
    assert_eq!((first.body["total"].clone(), first.body["count"].clone()), (json!(6), json!(5)));
    assert_eq!(descriptions(&first)[0], "Feriado municipal 1", "the next one first");
    let second = system
        .call(Method::GET, "/api/holiday/filter?page=2&pageSize=5&search=municipal", Some(&admin), None)
        .await;
    assert_eq!(descriptions(&second), ["Feriado municipal 6"]);
    let all = system.call(Method::GET, "/api/holiday/filter?pageSize=10", Some(&admin), None).await;
    assert_eq!(all.body["total"], 8);
    let order = descriptions(&all);
    assert_eq!(order.first().map(String::as_str), Some("São João"), "the next holiday first");
    assert_eq!(order.last().map(String::as_str), Some("Tiradentes"), "the past after the coming ones");
    let none = system.call(Method::GET, "/api/holiday/filter?search=natal", Some(&admin), None).await;
    assert_eq!(none.body, json!({ "content": [], "total": 0, "count": 0 }));
    let bad = system.call(Method::GET, "/api/holiday/filter?pageSize=0", Some(&admin), None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn editing_and_removing_are_seen_at_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let units = companies(&system).await;
    let id = create(&system, &admin, holiday("Carnaval", "2027-02-09", &units[..1])).await.body["IdHoliday"]
        .as_i64()
        .expect("id");
    let mut body = holiday("Quarta-feira de Cinzas", "2027-02-10", &[]);
    body["allCompanies"] = json!(true);
    body["allDay"] = json!(false);
    body["startTime"] = json!("00:00");
    body["endTime"] = json!("12:00");
    let saved =
        system.call(Method::PUT, &format!("/api/holiday/{id}"), Some(&admin), Some(body.clone())).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    assert_eq!(saved.body["IdHoliday"], id);
    let read = system.read_after(&format!("/api/holiday/{id}"), &admin, &saved).await;
    assert_eq!(read.body["Description"], "Quarta-feira de Cinzas");
    assert_eq!((read.body["AllCompanies"].clone(), read.body["Companies"].clone()), (json!(true), json!([])));
    assert_eq!(
        (read.body["StartTime"].clone(), read.body["EndTime"].clone()),
        (json!("00:00"), json!("12:00"))
    );

    let again =
        system.call(Method::PUT, &format!("/api/holiday/{id}"), Some(&admin), Some(body.clone())).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(events(&system, "HolidayChanged").await, 1, "the unchanged save appended nothing");

    let removed = system.call(Method::DELETE, &format!("/api/holiday/{id}"), Some(&admin), None).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{removed:?}");
    let list = system.read_after("/api/holiday/filter", &admin, &removed).await;
    assert_eq!(list.body["total"], 0);
    let gone = system.call(Method::GET, &format!("/api/holiday/{id}"), Some(&admin), None).await;
    assert_eq!((gone.status, gone.message()), (StatusCode::NOT_FOUND, "Feriado não encontrado."));
    let changed = system.call(Method::PUT, &format!("/api/holiday/{id}"), Some(&admin), Some(body)).await;
    assert_eq!((changed.status, changed.message()), (StatusCode::NOT_FOUND, "Feriado não encontrado."));
    let twice = system.call(Method::DELETE, &format!("/api/holiday/{id}"), Some(&admin), None).await;
    assert_eq!((twice.status, twice.message()), (StatusCode::NOT_FOUND, "Feriado não encontrado."));
}

#[tokio::test]
async fn each_form_rule_answers_422_with_its_message_on_its_field() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let units = companies(&system).await;
    let valid = json!({
        "description": "Aniversário da cidade", "startDate": "2027-01-25", "endDate": "2027-01-25",
        "allDay": false, "startTime": "12:00", "endTime": "18:00", "idsCompanies": [units[0]],
    });
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        ("description", Value::Null, "description", "Digite a descrição do feriado"),
        ("description", json!("  "), "description", "Digite a descrição do feriado"),
        ("description", json!("a b"), "description", "Digite uma descrição válida"),
        ("idsCompanies", json!([]), "idsCompanies", "Informe pelo menos uma empresa"),
        ("idsCompanies", Value::Null, "idsCompanies", "Informe pelo menos uma empresa"),
        ("startDate", Value::Null, "startDate", "Digite o início"),
        ("endDate", json!(""), "endDate", "Digite o fim"),
        ("startDate", json!("2000-01-25"), "startDate", "Digite uma data válida"),
        ("endDate", json!("25/01/2027"), "endDate", "Digite uma data válida"),
        ("endDate", json!("2027-01-24"), "endDate", "Data deve ser maior ou igual à data inicio"),
        ("startTime", json!("12h"), "startTime", "Formato incorreto."),
        ("endTime", json!("24:00"), "endTime", "Formato incorreto."),
        ("startTime", Value::Null, "startTime", "Digite o horário inicial"),
        ("endTime", json!(""), "endTime", "Digite o horário final"),
        ("endTime", json!("11:59"), "endTime", "Horário deve ser maior que horário início"),
        ("idsCompanies", json!([units[0], 4242]), "idsCompanies", "Empresa não encontrada."),
    ];
    for (key, value, field, message) in cases {
        let mut body = valid.clone();
        body[key] = value;
        let answer = create(&system, &admin, body).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{key}: {answer:?}");
        assert_eq!(answer.body["errors"][field], message, "{key}: {answer:?}");
    }
    // allCompanies needs no list; the same rules guard an edit.
    let mut everywhere = valid.clone();
    everywhere["idsCompanies"] = json!([]);
    everywhere["allCompanies"] = json!(true);
    let created = create(&system, &admin, everywhere).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdHoliday"].as_i64().expect("id");
    let mut body = valid;
    body["idsCompanies"] = json!([4242]);
    let edit = system.call(Method::PUT, &format!("/api/holiday/{id}"), Some(&admin), Some(body)).await;
    assert_eq!(edit.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(edit.body["errors"]["idsCompanies"], "Empresa não encontrada.");
    assert_eq!(events(&system, "HolidayCreated").await, 1, "only the valid form was recorded");
    assert_eq!(events(&system, "HolidayChanged").await, 0);
}

#[tokio::test]
async fn only_admins_write_holidays_and_staff_see_those_of_their_units() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let units = companies(&system).await;
    let mut national = holiday("Natal", &in_days(300), &[]);
    national["allCompanies"] = json!(true);
    let centro = holiday("Aniversário de São Paulo", &in_days(10), &units[..1]);
    let batel = holiday("Aniversário de Curitiba", &in_days(60), &units[2..]);
    let mut ids = Vec::new();
    for body in [national.clone(), centro, batel] {
        ids.push(create(&system, &admin, body).await.body["IdHoliday"].as_i64().expect("id"));
    }
    for email in ["barbeiro1@navalha.dev", "atendente@navalha.dev", "lider@navalha.dev", "padrao@navalha.dev"]
    {
        let token = system.sign_in(email).await;
        assert_eq!(create(&system, &token, national.clone()).await.status, StatusCode::FORBIDDEN, "{email}");
        let path = format!("/api/holiday/{}", ids[0]);
        let put = system.call(Method::PUT, &path, Some(&token), Some(national.clone())).await;
        assert_eq!(put.status, StatusCode::FORBIDDEN, "{email}");
        assert_eq!(
            system.call(Method::DELETE, &path, Some(&token), None).await.status,
            StatusCode::FORBIDDEN
        );
    }
    assert_eq!(
        system.call(Method::POST, "/api/holiday", None, Some(national)).await.status,
        StatusCode::UNAUTHORIZED
    );
    system.project().await;

    // The barber works at Centro: every-unit holidays and Centro's, not Batel's.
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let seen = system.call(Method::GET, "/api/holiday/filter", Some(&barber), None).await;
    assert_eq!(descriptions(&seen), ["Aniversário de São Paulo", "Natal"], "the next one first");
    assert_eq!(seen.body["total"], 2);
    let hidden = system.call(Method::GET, &format!("/api/holiday/{}", ids[2]), Some(&barber), None).await;
    assert_eq!((hidden.status, hidden.message()), (StatusCode::NOT_FOUND, "Feriado não encontrado."));
    // The barber leader reaches the holiday screen, and also sees only their units' holidays.
    let leader = system.sign_in("lider@navalha.dev").await;
    let all = system.call(Method::GET, "/api/holiday/filter", Some(&leader), None).await;
    assert_eq!((all.status, all.body["total"].clone()), (StatusCode::OK, json!(2)));
    let admin_sees = system.call(Method::GET, "/api/holiday/filter", Some(&admin), None).await;
    assert_eq!(admin_sees.body["total"], 3, "the admin belongs to the three units");
    let unknown = system.call(Method::GET, "/api/holiday/4242", Some(&admin), None).await;
    assert_eq!((unknown.status, unknown.message()), (StatusCode::NOT_FOUND, "Feriado não encontrado."));
    assert_eq!(
        system.call(Method::GET, "/api/holiday/filter", None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
}
