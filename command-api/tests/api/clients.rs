//! Clients: registration, uniqueness by CPF under races, edits, search and permissions.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::{names, urlencode, Answer, System};

fn client(name: &str, cpf: &str, phone: &str) -> Value {
    json!({
        "name": name, "cpf": cpf, "email": format!("{}@exemplo.com", cpf.chars().filter(char::is_ascii_digit).collect::<String>()),
        "phone": phone, "whatsApp": true, "birthDate": "1990-04-01", "status": true,
    })
}

async fn register(system: &System, token: &str, body: Value) -> Answer {
    system.call(Method::POST, "/api/user/professional", Some(token), Some(body)).await
}

#[tokio::test]
async fn a_registered_client_is_listed_and_found_ignoring_accents_case_and_masks() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let token = system.sign_in("atendente@navalha.dev").await;
    let created =
        register(&system, &token, client("Zélia Quintanilha", "529.982.247-25", "(31) 9 4444-1212")).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdUser"].as_i64().expect("id");
    register(&system, &token, client("Zuleica Quintanilha", "111.444.777-35", "(21) 9 1234-5678")).await;
    system.project().await;

    let read = system.call(Method::GET, &format!("/api/user/{id}"), Some(&token), None).await;
    assert_eq!(read.body["Name"], "Zélia Quintanilha");
    assert_eq!(read.body["Cpf"], "52998224725");
    assert_eq!(read.body["Phone"], "31944441212");
    assert_eq!(read.body["BirthDate"], "1990-04-01");
    assert_eq!(read.body["LoginType"], "PASSWORD");

    for search in ["zelia", "ZÉLIA Q", "529.982", "(31) 9 4444", "52998224725@exemplo"] {
        let found = system
            .call(
                Method::GET,
                &format!("/api/user/filter?page=1&pageSize=5&search={}&status=1", urlencode(search)),
                Some(&token),
                None,
            )
            .await;
        assert_eq!(names(&found), ["Zélia Quintanilha"], "{search}");
        assert_eq!((found.body["total"].clone(), found.body["count"].clone()), (json!(1), json!(1)));
    }
    let all = system
        .call(Method::GET, "/api/user/filter?page=1&pageSize=5&search=quintanilha", Some(&token), None)
        .await;
    // pt-BR order: accents do not push a name to the end.
    assert_eq!(names(&all), ["Zélia Quintanilha", "Zuleica Quintanilha"]);
    assert_eq!(all.body["content"][0]["SubscriptionUser"], json!([]));
    let missing = system.call(Method::GET, "/api/user/999", Some(&token), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn lists_are_paged_by_five_and_filtered_by_status() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let token = system.sign_in("admin@navalha.dev").await;
    for i in 0..7 {
        let cpf = navalha_command_api::seed::cpf_from_base(&format!("{:09}", 200_000_000 + i));
        let mut body = client(&format!("Cliente Número{i}"), &cpf, "(11) 9 8765-4321");
        body["status"] = json!(i != 6);
        assert_eq!(register(&system, &token, body).await.status, StatusCode::CREATED);
    }
    system.project().await;
    let first =
        system.call(Method::GET, "/api/user/filter?page=1&status=1&search=numero", Some(&token), None).await;
    assert_eq!((first.body["total"].clone(), first.body["count"].clone()), (json!(6), json!(5)));
    let second =
        system.call(Method::GET, "/api/user/filter?page=2&status=1&search=numero", Some(&token), None).await;
    assert_eq!(names(&second), ["Cliente Número5"]);
    let inactive =
        system.call(Method::GET, "/api/user/filter?page=1&status=2&search=numero", Some(&token), None).await;
    assert_eq!(names(&inactive), ["Cliente Número6"]);
    let everyone = system
        .call(Method::GET, "/api/user/filter?page=1&pageSize=10&search=N%C3%BAmero", Some(&token), None)
        .await;
    assert_eq!(everyone.body["total"], 7);
    let bad = system.call(Method::GET, "/api/user/filter?page=0", Some(&token), None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_second_client_with_the_same_cpf_is_a_409_even_when_requests_race() {
    let pool = demo_database().await;
    let system = Arc::new(System::start(pool).await);
    let token = system.sign_in("admin@navalha.dev").await;
    let racers: Vec<_> = (0..10)
        .map(|i| {
            let system = system.clone();
            let token = token.clone();
            tokio::spawn(async move {
                let body = client(&format!("Cliente Corrida{i}"), "529.982.247-25", "(11) 9 8765-4321");
                register(&system, &token, body).await
            })
        })
        .collect();
    let mut answers = Vec::new();
    for racer in racers {
        answers.push(racer.await.expect("task"));
    }
    let created = answers.iter().filter(|a| a.status == StatusCode::CREATED).count();
    let refused: Vec<_> = answers.iter().filter(|a| a.status == StatusCode::CONFLICT).collect();
    assert_eq!((created, refused.len()), (1, 9), "{answers:?}");
    assert!(refused.iter().all(|a| a.message() == "Já existe um cliente cadastrado com este CPF."));
    // On the form's field, so the form shows it there (issue 45 point 7).
    assert!(refused
        .iter()
        .all(|a| a.body["errors"]["cpf"] == "Já existe um cliente cadastrado com este CPF."));
    let streams: i64 = sqlx::query_scalar(
        "select count(*) from events where payload -> 'ClientRegistered' ->> 'cpf' = '52998224725'",
    )
    .fetch_one(&system.pool)
    .await
    .expect("count");
    assert_eq!(streams, 1, "nothing of the refused registrations was written");
}

#[tokio::test]
async fn editing_keeps_the_cpf_and_is_seen_at_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let token = system.sign_in("admin@navalha.dev").await;
    let id = register(&system, &token, client("Pedro Alvares", "529.982.247-25", "(11) 9 8765-4321"))
        .await
        .body["IdUser"]
        .as_i64()
        .expect("id");
    let mut body = client("Pedro Álvares Cabral", "", "(11) 9 1111-2222");
    body["cpf"] = Value::Null;
    body["email"] = json!("pedro@exemplo.com");
    body["status"] = json!(false);
    let saved = system.call(Method::PUT, &format!("/api/user/{id}"), Some(&token), Some(body.clone())).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    system.project().await;
    let read = system.call(Method::GET, &format!("/api/user/{id}"), Some(&token), None).await;
    assert_eq!(
        (read.body["Name"].clone(), read.body["Cpf"].clone()),
        (json!("Pedro Álvares Cabral"), json!("52998224725"))
    );
    assert_eq!(read.body["Status"], false);
    let unknown = system.call(Method::PUT, "/api/user/4242", Some(&token), Some(body)).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let metadata: Value = sqlx::query_scalar(
        "select metadata from events where aggregate_type = 'Client' and event_type = 'ClientUpdated'",
    )
    .fetch_one(&system.pool)
    .await
    .expect("event");
    assert_eq!(metadata["user_name"], "Ana Administradora", "the change records who made it");
}

#[tokio::test]
async fn a_client_added_at_the_desk_with_a_name_and_mobile_is_completed_later_with_their_cpf() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let desk = system.sign_in("atendente@navalha.dev").await;
    let quick = |body: Value, token: String| {
        let system = &system;
        async move { system.call(Method::POST, "/api/user/quick", Some(&token), Some(body)).await }
    };
    let body = json!({ "name": "Caio  Prado", "phone": "(11) 9 8765-0001", "whatsApp": true });
    for email in ["barbeiro1@navalha.dev", "lider@navalha.dev", "padrao@navalha.dev"] {
        let refused = quick(body.clone(), system.sign_in(email).await).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{email}");
    }
    let invalid = quick(json!({ "name": "Caio", "phone": "123", "cpf": "123" }), desk.clone()).await;
    assert_eq!(invalid.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        (&invalid.body["errors"]["name"], &invalid.body["errors"]["phone"], &invalid.body["errors"]["cpf"]),
        (&json!("Digite o nome completo"), &json!("Informe um número válido"), &json!("CPF inválido"))
    );
    let created = quick(body.clone(), desk.clone()).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdUser"].as_i64().expect("id");
    // A second client without a CPF claims nothing.
    let second = quick(json!({ "name": "Rui Prado", "phone": "(11) 9 8765-0002" }), desk.clone()).await;
    assert_eq!(second.status, StatusCode::CREATED, "{second:?}");
    // One with the CPF of another client is refused on the field.
    let taken = register(&system, &desk, client("Ana Prado", "529.982.247-25", "(11) 9 8765-0003")).await;
    assert_eq!(taken.status, StatusCode::CREATED);
    let duplicate = quick(
        json!({ "name": "Bia Prado", "phone": "(11) 9 8765-0004", "cpf": "529.982.247-25" }),
        desk.clone(),
    )
    .await;
    assert_eq!(
        (duplicate.status, &duplicate.body["errors"]["cpf"]),
        (StatusCode::CONFLICT, &json!("Já existe um cliente cadastrado com este CPF."))
    );

    system.project().await;
    let found = system.call(Method::GET, "/api/user/filter?search=8765-0001", Some(&desk), None).await;
    assert_eq!(names(&found), ["Caio Prado"], "{found:?}");
    let read = system.call(Method::GET, &format!("/api/user/{id}"), Some(&desk), None).await;
    assert_eq!(
        (&read.body["Cpf"], &read.body["Email"], &read.body["Status"]),
        (&json!(""), &json!(""), &json!(true))
    );

    // The client form completes the record: the e-mail, and the CPF once.
    let mut complete = client("Caio Prado", "529.982.247-25", "(11) 9 8765-0001");
    complete["email"] = json!("caio@exemplo.com");
    let path = format!("/api/user/{id}");
    let clash = system.call(Method::PUT, &path, Some(&desk), Some(complete.clone())).await;
    assert_eq!(
        (clash.status, &clash.body["errors"]["cpf"]),
        (StatusCode::CONFLICT, &json!("Já existe um cliente cadastrado com este CPF."))
    );
    complete["cpf"] = json!("111.444.777-35");
    let saved = system.call(Method::PUT, &path, Some(&desk), Some(complete.clone())).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    complete["cpf"] = json!("390.533.447-05");
    let again = system.call(Method::PUT, &path, Some(&desk), Some(complete)).await;
    assert_eq!(again.status, StatusCode::OK, "a recorded CPF is not read again");
    system.project().await;
    let read = system.call(Method::GET, &path, Some(&desk), None).await;
    assert_eq!((&read.body["Cpf"], &read.body["Email"]), (&json!("11144477735"), &json!("caio@exemplo.com")));
    let kinds: Vec<String> = sqlx::query_scalar(
        "select event_type from events where aggregate_type = 'Client' and aggregate_id = $1 order by sequence",
    )
    .bind(id.to_string())
    .fetch_all(&system.pool)
    .await
    .expect("events");
    assert_eq!(kinds, ["ClientRegistered", "CpfAdded", "ClientUpdated"]);
}

#[tokio::test]
async fn only_admins_and_attendants_write_clients_and_the_form_is_validated() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let body = client("Lucas Lima", "529.982.247-25", "(11) 9 8765-4321");
    assert_eq!(register(&system, &barber, body.clone()).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        system.call(Method::POST, "/api/user/professional", None, Some(body)).await.status,
        StatusCode::UNAUTHORIZED
    );
    let listed = system.call(Method::GET, "/api/user/filter?page=1", Some(&barber), None).await;
    assert_eq!(listed.status, StatusCode::OK, "barbers reach the clients list");

    let admin = system.sign_in("admin@navalha.dev").await;
    let invalid = register(&system, &admin, json!({ "name": "Lu", "cpf": "012.345.678-90", "email": "x", "phone": "(91) 9 8765-4321", "status": true })).await;
    assert_eq!(invalid.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(invalid.body["errors"]["name"], "Digite o nome completo");
    assert_eq!(invalid.body["errors"]["cpf"], "CPF inválido");
    assert_eq!(invalid.body["errors"]["email"], "E-mail inválido");
    assert_eq!(invalid.body["errors"]["phone"], "Informe um número válido");
    let events: i64 = sqlx::query_scalar(
        "select count(*) from events where aggregate_type = 'Client' and metadata ->> 'user_id' is not null",
    )
    .fetch_one(&system.pool)
    .await
    .expect("count");
    assert_eq!(events, 0, "only the demo's clients exist");
}

#[tokio::test]
async fn admins_and_attendants_remove_social_logins() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    // The second demo client signs in to the app with Google.
    let found = system.call(Method::GET, "/api/user/filter?search=aparecida", Some(&attendant), None).await;
    let id = found.body["content"][0]["IdUser"].as_i64().expect("client");
    let before = system.call(Method::GET, &format!("/api/user/{id}"), Some(&attendant), None).await;
    assert_eq!(before.body["LoginType"], "GOOGLE");

    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let refused = system
        .call(Method::PUT, "/api/user/remove-all-login-social", Some(&barber), Some(json!({"idUser": id})))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let removed = system
        .call(Method::PUT, "/api/user/remove-all-login-social", Some(&attendant), Some(json!({"idUser": id})))
        .await;
    assert_eq!(removed.status, StatusCode::OK, "{removed:?}");
    system.project().await;
    let after = system.call(Method::GET, &format!("/api/user/{id}"), Some(&attendant), None).await;
    assert_eq!(after.body["LoginType"], "PASSWORD");
    let unknown = system
        .call(
            Method::PUT,
            "/api/user/remove-all-login-social",
            Some(&attendant),
            Some(json!({"idUser": 999_999})),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_admin_reads_who_changed_what_and_when() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let created =
        register(&system, &attendant, client("Zélia Quintanilha", "529.982.247-25", "(31) 9 4444-1212"))
            .await;
    let id = created.body["IdUser"].as_i64().expect("id");
    let mut changed = client("Zélia Quintanilha Souza", "529.982.247-25", "(31) 9 4444-1212");
    changed["cpf"] = Value::Null;
    let saved = system.call(Method::PUT, &format!("/api/user/{id}"), Some(&attendant), Some(changed)).await;
    assert_eq!(saved.status, StatusCode::OK);

    let admin = system.sign_in("admin@navalha.dev").await;
    let history = system.call(Method::GET, &format!("/api/user/{id}/history"), Some(&admin), None).await;
    assert_eq!(history.status, StatusCode::OK, "{history:?}");
    let entries = history.body.as_array().expect("entries");
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["Event"], "ClientRegistered");
    assert_eq!(entries[1]["Event"], "ClientUpdated");
    assert_eq!(entries[1]["UserName"], "Beatriz Atendente");
    assert_eq!(entries[1]["Role"], "ATTENDANT");
    assert_eq!(
        entries[1]["Changes"],
        json!([{"Field": "name", "From": "Zélia Quintanilha", "To": "Zélia Quintanilha Souza"}])
    );
    for token in [&attendant, &system.sign_in("barbeiro1@navalha.dev").await] {
        let refused = system.call(Method::GET, &format!("/api/user/{id}/history"), Some(token), None).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
    }
    let unknown = system.call(Method::GET, "/api/user/999999/history", Some(&admin), None).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let professional = system.call(Method::GET, "/api/professional/1/history", Some(&admin), None).await;
    assert_eq!(professional.body[0]["Event"], "ProfessionalRegistered");
    let company = system.call(Method::GET, "/api/company/1/history", Some(&admin), None).await;
    assert_eq!(company.body.as_array().map(Vec::len), Some(7), "registered, then six open days");
    assert_eq!(company.body[1]["Changes"][0]["Field"], "weekDay 1.period.end");
}
