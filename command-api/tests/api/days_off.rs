//! Days off: scheduling, editing and removing (ADMIN only), the professional's paged list,
//! who may read it, the form's messages and read-your-writes.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::{Answer, System};

/// The demo professional's id.
pub async fn professional_id(system: &System, email: &str) -> i64 {
    sqlx::query_scalar("select professional_id from staff_credential where email = $1")
        .bind(email)
        .fetch_one(&system.pool)
        .await
        .expect("demo professional")
}

fn day_off(professional: i64, description: &str, start: &str, end: &str) -> Value {
    json!({
        "description": description, "dateStart": start, "dateEnd": end,
        "allDay": true, "startTime": null, "endTime": null, "idProfessional": professional,
    })
}

async fn schedule(system: &System, token: &str, body: Value) -> Answer {
    system.call(Method::POST, "/api/day-off", Some(token), Some(body)).await
}

fn descriptions(answer: &Answer) -> Vec<String> {
    answer.body["content"]
        .as_array()
        .map(|list| list.iter().filter_map(|d| d["Description"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

async fn events(system: &System, event_type: &str) -> i64 {
    sqlx::query_scalar("select count(*) from events where aggregate_type = 'DayOff' and event_type = $1")
        .bind(event_type)
        .fetch_one(&system.pool)
        .await
        .expect("count")
}

#[tokio::test]
async fn a_scheduled_day_off_is_read_back_after_its_position() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = professional_id(&system, "barbeiro1@navalha.dev").await;
    let body = json!({
        "description": "Consulta médica", "dateStart": "2026-12-10T03:00:00.000Z", "dateEnd": "2026-12-10",
        "allDay": false, "startTime": "14:00", "endTime": "16:30:00", "idProfessional": barber,
    });
    let created = schedule(&system, &admin, body).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdDayOff"].as_i64().expect("IdDayOff");

    let list = system.read_after(&format!("/api/day-off/{barber}?page=1&pageSize=5"), &admin, &created).await;
    assert_eq!(list.status, StatusCode::OK, "{list:?}");
    assert_eq!(
        list.body,
        json!({
            "content": [{
                "IdDayOff": id, "Description": "Consulta médica", "DateStart": "2026-12-10",
                "DateEnd": "2026-12-10", "AllDay": false, "StartTime": "14:00", "EndTime": "16:30",
            }],
            "total": 1, "count": 1,
        })
    );
    let metadata: Value = sqlx::query_scalar(
        "select metadata from events where aggregate_type = 'DayOff' and aggregate_id = $1",
    )
    .bind(id.to_string())
    .fetch_one(&system.pool)
    .await
    .expect("event");
    assert_eq!(metadata["user_name"], "Ana Administradora", "the change records who made it");
}

#[tokio::test]
async fn editing_is_seen_at_once_and_an_unchanged_save_records_nothing() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = professional_id(&system, "barbeiro2@navalha.dev").await;
    let mut body = json!({
        "description": "Curso de barba", "dateStart": "2026-12-01", "dateEnd": "2026-12-03",
        "allDay": false, "startTime": "09:00", "endTime": "12:00", "idProfessional": barber,
    });
    let id = schedule(&system, &admin, body.clone()).await.body["IdDayOff"].as_i64().expect("id");
    body["description"] = json!("Férias de verão");
    body["allDay"] = json!(true);
    body["startTime"] = Value::Null;
    body["endTime"] = Value::Null;
    let saved =
        system.call(Method::PUT, &format!("/api/day-off/{id}"), Some(&admin), Some(body.clone())).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    assert_eq!(saved.body["IdDayOff"], id);
    let list = system.read_after(&format!("/api/day-off/{barber}"), &admin, &saved).await;
    let item = &list.body["content"][0];
    assert_eq!(
        (&item["Description"], &item["AllDay"], &item["StartTime"], &item["EndTime"]),
        (&json!("Férias de verão"), &json!(true), &Value::Null, &Value::Null)
    );

    let again = system.call(Method::PUT, &format!("/api/day-off/{id}"), Some(&admin), Some(body)).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(events(&system, "DayOffChanged").await, 1, "the unchanged save appended nothing");
}

#[tokio::test]
async fn the_list_is_paged_by_five_newest_first_and_removal_takes_a_day_off_out() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = professional_id(&system, "gabriel@navalha.dev").await;
    let other = professional_id(&system, "heitor@navalha.dev").await;
    let mut ids = Vec::new();
    for day in 1..=7 {
        let date = format!("2027-03-{day:02}");
        let answer = schedule(&system, &admin, day_off(barber, &format!("Folga {day}"), &date, &date)).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
        ids.push(answer.body["IdDayOff"].as_i64().expect("id"));
    }
    schedule(&system, &admin, day_off(other, "Folga de outro", "2027-03-10", "2027-03-10")).await;
    system.project().await;

    let first = system.call(Method::GET, &format!("/api/day-off/{barber}?page=1"), Some(&admin), None).await;
    assert_eq!((first.body["total"].clone(), first.body["count"].clone()), (json!(7), json!(5)));
    assert_eq!(descriptions(&first), ["Folga 7", "Folga 6", "Folga 5", "Folga 4", "Folga 3"]);
    let second = system
        .call(Method::GET, &format!("/api/day-off/{barber}?page=2&pageSize=5"), Some(&admin), None)
        .await;
    assert_eq!(descriptions(&second), ["Folga 2", "Folga 1"]);
    assert_eq!(second.body["count"], 2);

    let removed = system.call(Method::DELETE, &format!("/api/day-off/{}", ids[6]), Some(&admin), None).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{removed:?}");
    let after = system.read_after(&format!("/api/day-off/{barber}?page=1"), &admin, &removed).await;
    assert_eq!(after.body["total"], 6);
    assert_eq!(descriptions(&after)[0], "Folga 6");

    // A removed day off is gone for good.
    let body = day_off(barber, "Folga de novo", "2027-03-07", "2027-03-07");
    let changed =
        system.call(Method::PUT, &format!("/api/day-off/{}", ids[6]), Some(&admin), Some(body)).await;
    assert_eq!((changed.status, changed.message()), (StatusCode::NOT_FOUND, "Folga/férias não encontrada."));
    let twice = system.call(Method::DELETE, &format!("/api/day-off/{}", ids[6]), Some(&admin), None).await;
    assert_eq!((twice.status, twice.message()), (StatusCode::NOT_FOUND, "Folga/férias não encontrada."));
    assert_eq!(events(&system, "DayOffRemoved").await, 1);
}

#[tokio::test]
async fn each_form_rule_answers_422_with_its_message_on_its_field() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = professional_id(&system, "barbeiro1@navalha.dev").await;
    let valid = json!({
        "description": "Consulta médica", "dateStart": "2026-12-10", "dateEnd": "2026-12-10",
        "allDay": false, "startTime": "14:00", "endTime": "16:00", "idProfessional": barber,
    });
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        ("description", Value::Null, "description", "Digite a descrição da folga/férias"),
        ("description", json!(""), "description", "Digite a descrição da folga/férias"),
        ("description", json!("ab c"), "description", "Digite uma descrição válida"),
        ("dateStart", Value::Null, "dateStart", "Digite a data de início"),
        ("dateEnd", json!(""), "dateEnd", "Digite a data de fim"),
        ("dateStart", json!("2000-06-01"), "dateStart", "Digite uma data válida"),
        ("dateEnd", json!("10/12/2026"), "dateEnd", "Digite uma data válida"),
        ("dateEnd", json!("2026-12-09"), "dateEnd", "Data deve ser maior ou igual à data inicio"),
        ("startTime", Value::Null, "startTime", "Digite o horário inicial"),
        ("endTime", json!(""), "endTime", "Digite o horário final"),
        ("startTime", json!("14h"), "startTime", "Formato incorreto."),
        ("endTime", json!("13:00"), "endTime", "Horário deve ser maior que horário início"),
        ("idProfessional", Value::Null, "idProfessional", "Informe o profissional"),
    ];
    for (key, value, field, message) in cases {
        let mut body = valid.clone();
        body[key] = value;
        let answer = schedule(&system, &admin, body).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{key}: {answer:?}");
        assert_eq!(answer.body["errors"][field], message, "{key}: {answer:?}");
        assert_eq!(
            answer.message(),
            answer.body["errors"]
                .as_object()
                .and_then(|e| e.values().next())
                .and_then(Value::as_str)
                .unwrap_or_default()
        );
    }
    // The same rules guard an edit.
    let id = schedule(&system, &admin, valid.clone()).await.body["IdDayOff"].as_i64().expect("id");
    let mut body = valid;
    body["description"] = json!("ok");
    let edit = system.call(Method::PUT, &format!("/api/day-off/{id}"), Some(&admin), Some(body)).await;
    assert_eq!(edit.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(edit.body["errors"]["description"], "Digite uma descrição válida");
    assert_eq!(events(&system, "DayOffScheduled").await, 1, "only the valid form was recorded");
}

#[tokio::test]
async fn only_admins_write_days_off_and_unknown_ids_are_404() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = professional_id(&system, "barbeiro1@navalha.dev").await;
    let body = day_off(barber, "Férias", "2027-01-10", "2027-01-20");
    let id = schedule(&system, &admin, body.clone()).await.body["IdDayOff"].as_i64().expect("id");
    for email in ["barbeiro1@navalha.dev", "atendente@navalha.dev", "lider@navalha.dev", "padrao@navalha.dev"]
    {
        let token = system.sign_in(email).await;
        assert_eq!(schedule(&system, &token, body.clone()).await.status, StatusCode::FORBIDDEN, "{email}");
        let put =
            system.call(Method::PUT, &format!("/api/day-off/{id}"), Some(&token), Some(body.clone())).await;
        assert_eq!(put.status, StatusCode::FORBIDDEN, "{email}");
        let delete = system.call(Method::DELETE, &format!("/api/day-off/{id}"), Some(&token), None).await;
        assert_eq!(delete.status, StatusCode::FORBIDDEN, "{email}");
    }
    assert_eq!(
        system.call(Method::POST, "/api/day-off", None, Some(body.clone())).await.status,
        StatusCode::UNAUTHORIZED
    );

    let nobody = schedule(&system, &admin, day_off(4242, "Férias", "2027-01-10", "2027-01-20")).await;
    assert_eq!((nobody.status, nobody.message()), (StatusCode::NOT_FOUND, "Profissional não encontrado."));
    let unknown = system.call(Method::PUT, "/api/day-off/4242", Some(&admin), Some(body.clone())).await;
    assert_eq!((unknown.status, unknown.message()), (StatusCode::NOT_FOUND, "Folga/férias não encontrada."));
    let unknown = system.call(Method::DELETE, "/api/day-off/4242", Some(&admin), None).await;
    assert_eq!((unknown.status, unknown.message()), (StatusCode::NOT_FOUND, "Folga/férias não encontrada."));
    let mut moved = body;
    moved["idProfessional"] = json!(4242);
    let moved = system.call(Method::PUT, &format!("/api/day-off/{id}"), Some(&admin), Some(moved)).await;
    assert_eq!((moved.status, moved.message()), (StatusCode::NOT_FOUND, "Profissional não encontrado."));
    assert_eq!(events(&system, "DayOffScheduled").await, 1);
    assert_eq!(events(&system, "DayOffChanged").await, 0);
}

#[tokio::test]
async fn admins_read_anyone_professionals_read_only_their_own() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = professional_id(&system, "barbeiro1@navalha.dev").await;
    let colleague = professional_id(&system, "barbeiro2@navalha.dev").await;
    schedule(&system, &admin, day_off(barber, "Férias", "2027-01-10", "2027-01-20")).await;
    system.project().await;

    let own = system.sign_in("barbeiro1@navalha.dev").await;
    let mine = system.call(Method::GET, &format!("/api/day-off/{barber}"), Some(&own), None).await;
    assert_eq!((mine.status, descriptions(&mine)), (StatusCode::OK, vec!["Férias".to_owned()]));
    let theirs = system.call(Method::GET, &format!("/api/day-off/{colleague}"), Some(&own), None).await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN);
    for email in ["atendente@navalha.dev", "lider@navalha.dev"] {
        let token = system.sign_in(email).await;
        let answer = system.call(Method::GET, &format!("/api/day-off/{barber}"), Some(&token), None).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{email}");
    }
    let empty = system.call(Method::GET, &format!("/api/day-off/{colleague}"), Some(&admin), None).await;
    assert_eq!(empty.body, json!({ "content": [], "total": 0, "count": 0 }));
    let unknown = system.call(Method::GET, "/api/day-off/4242", Some(&admin), None).await;
    assert_eq!((unknown.status, unknown.message()), (StatusCode::NOT_FOUND, "Profissional não encontrado."));
    let bad = system.call(Method::GET, &format!("/api/day-off/{barber}?page=0"), Some(&admin), None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

/// Blocking a time in the agenda is a day off with a window; the agenda reads a unit's
/// blocked times of a day with the agenda's rules, and free times leave the window out.
#[tokio::test]
async fn a_blocked_time_shows_in_its_units_agenda_and_leaves_the_free_times() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = crate::support::demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let diego = professional_id(&system, "barbeiro1@navalha.dev").await;
    let tuesday = crate::support::next(chrono::Weekday::Tue).to_string();
    let mut block = day_off(diego, "Reunião com fornecedor", &tuesday, &tuesday);
    block["allDay"] = json!(false);
    block["startTime"] = json!("14:00");
    block["endTime"] = json!("15:30");
    let blocked = schedule(&system, &admin, block).await;
    assert_eq!(blocked.status, StatusCode::CREATED, "{blocked:?}");
    system.project().await;

    let path = |date: &str| format!("/api/day-off/company/{}?date={date}", d.centro);
    let desk = system.sign_in("atendente@navalha.dev").await;
    let seen = system.call(Method::GET, &path(&tuesday), Some(&desk), None).await;
    assert_eq!(seen.status, StatusCode::OK, "{seen:?}");
    assert_eq!(
        seen.body,
        json!([{ "IdDayOff": blocked.body["IdDayOff"], "IdProfessional": diego, "Description": "Reunião com fornecedor",
                 "DateStart": tuesday, "DateEnd": tuesday, "AllDay": false, "StartTime": "14:00", "EndTime": "15:30" }])
    );
    // A week view asks for its seven days at once; more than seven are refused.
    let monday = crate::support::next(chrono::Weekday::Tue) - chrono::Duration::days(1);
    let week = format!("{}&dateEnd={}", path(&monday.to_string()), monday + chrono::Duration::days(6));
    let in_week = system.call(Method::GET, &week, Some(&desk), None).await;
    assert_eq!(in_week.body.as_array().map(Vec::len), Some(1), "{in_week:?}");
    let eight = format!("{}&dateEnd={}", path(&monday.to_string()), monday + chrono::Duration::days(7));
    let too_long = system.call(Method::GET, &eight, Some(&desk), None).await;
    assert_eq!(
        (too_long.status, too_long.message()),
        (StatusCode::BAD_REQUEST, "Informe um período de até 7 dias.")
    );
    let other_day = crate::support::next(chrono::Weekday::Wed).to_string();
    let none = system.call(Method::GET, &path(&other_day), Some(&desk), None).await;
    assert_eq!(none.body, json!([]));
    // Roles that see only their own agenda see only their own blocked times.
    let colleague = system.sign_in("barbeiro2@navalha.dev").await;
    let theirs = system.call(Method::GET, &path(&tuesday), Some(&colleague), None).await;
    assert_eq!((theirs.status, theirs.body.clone()), (StatusCode::OK, json!([])));
    let own = system
        .call(Method::GET, &path(&tuesday), Some(&system.sign_in("barbeiro1@navalha.dev").await), None)
        .await;
    assert_eq!(own.body.as_array().map(Vec::len), Some(1));
    // A unit the caller does not belong to does not exist for them.
    let savassi = format!("/api/day-off/company/{}?date={tuesday}", d.savassi);
    let foreign = system.call(Method::GET, &savassi, Some(&colleague), None).await;
    assert_eq!((foreign.status, foreign.message()), (StatusCode::NOT_FOUND, "Barbearia não encontrada."));
    let bad = system
        .call(Method::GET, &format!("/api/day-off/company/{}?date=amanhã", d.centro), Some(&desk), None)
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    // Free times of that day skip the window.
    let free = system
        .call(
            Method::GET,
            &format!("/api/no-auth/scheduling/available-times?idCompany={}&idServices=[{}]&timesType=ONLY_AVAILABLES", d.centro, d.haircut),
            Some(&desk),
            None,
        )
        .await;
    let day = free.body["times"]
        .as_array()
        .expect("times")
        .iter()
        .find(|t| t["shortDate"] == json!(tuesday))
        .expect("day");
    let diegos: Vec<&str> = day["freeHours"]
        .as_array()
        .expect("hours")
        .iter()
        .filter(|h| h["idProfessional"] == json!(diego))
        .filter_map(|h| h["start"].as_str())
        .collect();
    assert!(diegos.contains(&"13:00") && diegos.contains(&"15:30"), "{diegos:?}");
    assert!(!diegos.iter().any(|start| ("13:31".."15:30").contains(start)), "{diegos:?}");
}
