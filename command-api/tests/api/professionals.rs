//! Professionals: registration with its invitation, uniqueness of CPF and e-mail under
//! races, my-profile, working hours, services, the agenda's lists and the permissions of
//! spec 02 §6.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::{names, urlencode, System};

pub(crate) fn professional(name: &str, cpf: &str, email: &str, company: i64) -> Value {
    json!({
        "name": name, "cpf": cpf, "email": email, "phone": "(11) 9 8765-4321", "whatsApp": true,
        "birthDate": "1992-05-20", "cep": "01042-001", "street": "Rua Barão de Itapetininga", "number": "50",
        "district": "República", "city": "São Paulo", "state": "SP", "complement": "",
        "idCompany": company, "color": "#FF9800", "idTypeProfile": 4,
    })
}

async fn first_company(system: &System, token: &str) -> i64 {
    let companies = system.call(Method::GET, "/api/company", Some(token), None).await;
    companies.body[0]["IdCompany"].as_i64().expect("company")
}

async fn id_of(system: &System, token: &str, email: &str) -> i64 {
    let found = system
        .call(
            Method::GET,
            &format!("/api/professional/filter?search={}", urlencode(email)),
            Some(token),
            None,
        )
        .await;
    found.body["content"][0]["IdProfessional"].as_i64().expect("professional")
}

#[tokio::test]
async fn a_new_professional_is_pending_gets_an_invitation_and_completes_registration() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let company = first_company(&system, &admin).await;
    let body = professional("Íris Tesoura", "529.982.247-25", "Iris@Navalha.dev", company);
    let created = system.call(Method::POST, "/api/professional", Some(&admin), Some(body)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdProfessional"].as_i64().expect("id");
    system.project().await;

    let read = system.call(Method::GET, &format!("/api/professional/{id}"), Some(&admin), None).await;
    assert_eq!(read.body["Name"], "Íris Tesoura");
    assert_eq!(read.body["Email"], "iris@navalha.dev");
    assert_eq!(read.body["Status"], 0, "a new professional is pending");
    assert_eq!(read.body["Color"], "#FF9800");
    assert_eq!(read.body["IdTypeProfile"], 4);
    assert_eq!(read.body["Cep"], "01042001");
    assert_eq!(read.body["Companies"][0]["IdCompany"], company);
    for search in ["iris", "ÍRIS TES", "529.982.247", "(11) 9 8765"] {
        let found = system
            .call(
                Method::GET,
                &format!("/api/professional/filter?search={}&status=0", urlencode(search)),
                Some(&admin),
                None,
            )
            .await;
        assert_eq!(names(&found), ["Íris Tesoura"], "{search}");
    }

    // The invitation carries a registration link that sets the password and signs in.
    let mail = system.outbox().into_iter().find(|m| m["to"] == "iris@navalha.dev").expect("invitation");
    let text = mail["text"].as_str().expect("text");
    let token =
        text.split("complete-register=").nth(1).expect("link").split_whitespace().next().expect("token");
    let completed = system
        .call(
            Method::PUT,
            "/api/no-auth/professional/complete-register",
            None,
            Some(json!({"completeRegister": token, "password": "Tesoura@1"})),
        )
        .await;
    assert_eq!(completed.status, StatusCode::OK, "{completed:?}");
    system.sign_in_with("iris@navalha.dev", "Tesoura@1").await;
}

#[tokio::test]
async fn each_professional_rule_answers_422_with_its_message() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let company = first_company(&system, &admin).await;
    let cases = [
        ("name", json!("Íris"), "Digite o nome completo"),
        ("email", json!(""), "Digite o e-mail"),
        ("phone", json!("(91) 9 8765-4321"), "Informe um número válido"),
        ("cpf", json!("012.345.678-90"), "CPF inválido"),
        ("birthDate", json!("2020-01-01"), "Data de nascimento inválida"),
        ("cep", json!(""), "Digite o CEP"),
        ("street", json!("Barão"), "Digite o nome da rua completo"),
        ("number", json!("abc"), "Digite um número válido."),
        ("district", json!(""), "Digite o bairro"),
        ("city", json!(""), "Digite a cidade"),
        ("state", json!("--"), "Escolha um estado"),
        ("idCompany", json!(0), "Escolha a empresa"),
        ("color", json!("#ABCDEF"), "Informe uma cor"),
        ("idTypeProfile", Value::Null, "Informe o perfil"),
    ];
    for (field, value, message) in cases {
        let mut body = professional("Íris Tesoura", "529.982.247-25", "iris@navalha.dev", company);
        body[field] = value;
        let answer = system.call(Method::POST, "/api/professional", Some(&admin), Some(body)).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        assert_eq!(answer.body["errors"][field], message, "{field}");
    }
    let unknown = system
        .call(
            Method::POST,
            "/api/professional",
            Some(&admin),
            Some(professional("Íris Tesoura", "529.982.247-25", "iris@navalha.dev", 999)),
        )
        .await;
    assert_eq!(unknown.body["errors"]["idCompany"], "Escolha a empresa");
}

#[tokio::test]
async fn one_professional_per_cpf_and_per_email_even_when_requests_race() {
    let pool = demo_database().await;
    let system = Arc::new(System::start(pool).await);
    let admin = Arc::new(system.sign_in("admin@navalha.dev").await);
    let company = first_company(&system, &admin).await;
    let mut tasks = Vec::new();
    for index in 0..8 {
        let (system, admin) = (system.clone(), admin.clone());
        // Half race on the CPF, half on the e-mail.
        let (cpf, email) = if index % 2 == 0 {
            ("529.982.247-25".to_owned(), format!("cpf{index}@navalha.dev"))
        } else {
            (
                navalha_command_api::seed::cpf_from_base(&format!("{:09}", 700_000_000 + index)),
                "same@navalha.dev".to_owned(),
            )
        };
        tasks.push(tokio::spawn(async move {
            let body = professional("Corrida Navalha", &cpf, &email, company);
            system.call(Method::POST, "/api/professional", Some(&admin), Some(body)).await
        }));
    }
    let mut created = 0;
    let mut messages = Vec::new();
    for task in tasks {
        let answer = task.await.expect("task");
        match answer.status {
            StatusCode::CREATED => created += 1,
            StatusCode::CONFLICT => {
                // Named on its field: the CPF's message on `cpf`, the e-mail's on `email`.
                let field = if answer.message().contains("CPF") { "cpf" } else { "email" };
                assert_eq!(answer.body["errors"][field], answer.message(), "{answer:?}");
                messages.push(answer.message().to_owned())
            }
            other => panic!("unexpected {other}: {answer:?}"),
        }
    }
    assert_eq!(created, 2, "one per CPF and one per e-mail");
    assert_eq!(
        messages.iter().filter(|m| *m == "Já existe um profissional cadastrado com este CPF.").count(),
        3
    );
    assert_eq!(
        messages.iter().filter(|m| *m == "Já existe um profissional cadastrado com este e-mail.").count(),
        3
    );
    // A demo professional's e-mail is taken too.
    let taken = system
        .call(
            Method::POST,
            "/api/professional",
            Some(&admin),
            Some(professional("Outra Pessoa", "111.444.777-35", "admin@navalha.dev", company)),
        )
        .await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_professional_edits_their_own_profile_hours_and_services_only() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let mine = system.call(Method::GET, "/api/professional/my-profile", Some(&barber), None).await;
    assert_eq!(mine.body["Name"], "Diego Barbeiro");
    let mut body =
        professional("Diego Barbeiro Souza", mine.body["Cpf"].as_str().expect("cpf"), "diego@navalha.dev", 0);
    // The my-profile form cannot change role, colour or units: those fields are ignored.
    body["idTypeProfile"] = json!(1);
    let saved = system.call(Method::PUT, "/api/professional/my-profile", Some(&barber), Some(body)).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    system.project().await;
    let mine = system.call(Method::GET, "/api/professional/my-profile", Some(&barber), None).await;
    assert_eq!(
        (mine.body["Name"].clone(), mine.body["IdTypeProfile"].clone()),
        (json!("Diego Barbeiro Souza"), json!(4))
    );
    // The new e-mail signs in; the old one no longer does.
    system.sign_in("diego@navalha.dev").await;
    assert_eq!(system.login("barbeiro1@navalha.dev", "Navalha@2026").await.status, StatusCode::BAD_REQUEST);

    let day = json!({"weekDay": 1, "firstStart": "08:00", "firstEnd": "12:00", "secondStart": "11:00", "secondEnd": "18:00"});
    let refused = system
        .call(Method::PUT, "/api/professional-working-hours/my-profile/day", Some(&barber), Some(day))
        .await;
    assert_eq!(refused.body["errors"]["secondStart"], "Deve ser maior que final do primeiro");
    let day = json!({"weekDay": 1, "firstStart": "08:00", "firstEnd": "12:00", "secondStart": "13:00", "secondEnd": "18:00"});
    let saved = system
        .call(Method::PUT, "/api/professional-working-hours/my-profile/day", Some(&barber), Some(day))
        .await;
    assert_eq!(saved.status, StatusCode::OK);
    system.project().await;
    let week =
        system.call(Method::GET, "/api/professional-working-hours/my-profile", Some(&barber), None).await;
    assert_eq!(week.body[1]["FirstStart"], "08:00");
    assert_eq!(week.body[1]["SecondEnd"], "18:00");
    assert_eq!(week.body[1]["ThirdStart"], Value::Null);
    assert_eq!(week.body[2]["SecondStart"], "13:00", "the demo hours are kept");

    let services =
        system.call(Method::GET, "/api/professional-service/my-profile", Some(&barber), None).await;
    let haircut = services.body[0].clone();
    assert_eq!(haircut["Description"], "Corte de cabelo");
    let offered = haircut["IdCompanyProfessionalService"].as_i64().expect("id");
    let body = json!({"idService": haircut["IdService"], "value": "52,50", "time": 40, "status": true});
    let changed = system
        .call(
            Method::PUT,
            &format!("/api/professional-service/{offered}/my-profile"),
            Some(&barber),
            Some(body.clone()),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{changed:?}");
    let duplicate =
        system.call(Method::POST, "/api/professional-service/my-profile", Some(&barber), Some(body)).await;
    assert_eq!(duplicate.status, StatusCode::CONFLICT);
    for (body, field, message) in [
        (json!({"idService": 0, "value": 10, "time": 10, "status": true}), "idService", "Escolha um serviço"),
        (json!({"idService": 1, "value": 10, "status": true}), "time", "O campo Tempo é obrigatório"),
        (json!({"idService": 1, "value": 10, "time": 0, "status": true}), "time", "O tempo não pode ser 0"),
        (json!({"idService": 1, "time": 10, "status": true}), "value", "O campo Valor é obrigatório"),
        (
            json!({"idService": 1, "value": "0,00", "time": 10, "status": true}),
            "value",
            "O valor precisa ser maior que 0",
        ),
        (
            json!({"idService": 999, "value": 10, "time": 10, "status": true}),
            "idService",
            "Escolha um serviço",
        ),
    ] {
        let answer = system
            .call(Method::POST, "/api/professional-service/my-profile", Some(&barber), Some(body))
            .await;
        assert_eq!(answer.body["errors"][field], message, "{field}");
    }
    system.project().await;
    let services =
        system.call(Method::GET, "/api/professional-service/my-profile", Some(&barber), None).await;
    assert_eq!(
        (services.body[0]["Value"].clone(), services.body[0]["Time"].clone()),
        (json!(52.5), json!(40))
    );

    // A barber may not manage anyone, nor read other professionals.
    let other = system.sign_in("barbeiro2@navalha.dev").await;
    let other_id = system.call(Method::GET, "/api/professional/my-profile", Some(&other), None).await.body
        ["IdProfessional"]
        .as_i64()
        .expect("id");
    for (method, path) in [
        (Method::GET, format!("/api/professional/{other_id}")),
        (Method::GET, "/api/professional/filter".to_owned()),
        (Method::GET, format!("/api/professional-service/professional/{other_id}")),
        (Method::PUT, format!("/api/professional/{other_id}")),
        (Method::PUT, format!("/api/professional-working-hours/professional/{other_id}/day")),
        (Method::POST, format!("/api/professional-service/professional/{other_id}")),
    ] {
        let body = (method != Method::GET).then(|| json!({}));
        let answer = system.call(method.clone(), &path, Some(&barber), body).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{method} {path}");
    }
    // The desk and the leader book for anyone, so they read anyone's services and prices
    // in their units (a move asks which price to keep), and still change none.
    let services = format!("/api/professional-service/professional/{other_id}");
    for email in ["atendente@navalha.dev", "lider@navalha.dev"] {
        let desk = system.sign_in(email).await;
        let read = system.call(Method::GET, &services, Some(&desk), None).await;
        assert_eq!(read.status, StatusCode::OK, "{email}: {read:?}");
        assert!(read.body.as_array().is_some_and(|list| list.iter().all(|s| s["Value"].is_number())));
        let write = system.call(Method::POST, &services, Some(&desk), Some(json!({}))).await;
        assert_eq!(write.status, StatusCode::FORBIDDEN, "{email}");
    }
    let elsewhere = system.sign_in("gabriel@navalha.dev").await;
    let gabriel_reads = system.call(Method::GET, &services, Some(&elsewhere), None).await;
    assert_eq!(gabriel_reads.status, StatusCode::FORBIDDEN, "a barber of another unit");
}

#[tokio::test]
async fn an_admin_manages_hours_and_services_of_professionals_in_their_units_only() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let barber = id_of(&system, &admin, "barbeiro2@navalha.dev").await;
    let catalogue = system.call(Method::GET, "/api/service/active", Some(&admin), None).await;
    assert_eq!(catalogue.body.as_array().map(Vec::len), Some(5));
    let eyebrows = catalogue
        .body
        .as_array()
        .expect("list")
        .iter()
        .find(|s| s["Description"] == "Sobrancelha")
        .expect("service")
        .clone();
    assert_eq!((eyebrows["ValueDefault"].clone(), eyebrows["TimeDefault"].clone()), (json!(15.0), json!(15)));

    let day = json!({"weekDay": 0, "firstStart": "10:00", "firstEnd": "14:00"});
    let saved = system
        .call(
            Method::PUT,
            &format!("/api/professional-working-hours/professional/{barber}/day"),
            Some(&admin),
            Some(day),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    system.project().await;
    let week = system
        .call(
            Method::GET,
            &format!("/api/professional-working-hours/professional/{barber}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(
        (week.body[0]["FirstStart"].clone(), week.body[0]["FirstEnd"].clone()),
        (json!("10:00"), json!("14:00"))
    );

    // The agenda's lists: bookable professionals of a unit and the services sold there.
    let company =
        system.call(Method::GET, &format!("/api/professional/{barber}"), Some(&admin), None).await.body
            ["IdCompany"]
            .as_i64()
            .expect("company");
    let staff =
        system.call(Method::GET, &format!("/api/professional/company/{company}"), Some(&admin), None).await;
    let staff_names: Vec<&str> =
        staff.body.as_array().expect("list").iter().filter_map(|p| p["Name"].as_str()).collect();
    assert_eq!(staff_names, ["Caio Líder", "Diego Barbeiro", "Eduardo Barbeiro"], "barbers only, by name");
    assert!(staff.body[0]["IdCompanyProfessional"].as_i64().is_some());
    let sold = system.call(Method::GET, &format!("/api/service/company/{company}"), Some(&admin), None).await;
    let haircut = sold
        .body
        .as_array()
        .expect("list")
        .iter()
        .find(|s| s["Description"] == "Corte de cabelo")
        .expect("haircut")
        .clone();
    assert_eq!((haircut["MaxTime"].clone(), haircut["MaxValue"].clone()), (json!(30), json!(55.0)));

    // The DEFAULT role reaches the screen but only sees its own unit's professionals, and
    // writes nothing.
    let default = system.sign_in("padrao@navalha.dev").await;
    let answer = system.call(Method::GET, &format!("/api/professional/{barber}"), Some(&default), None).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let listed = system.call(Method::GET, "/api/professional/filter?status=1", Some(&default), None).await;
    assert_eq!(
        names(&listed),
        ["Ana Administradora", "Beatriz Atendente", "Fernanda Padrão", "Gabriel Navalha"]
    );
    let answer = system
        .call(Method::PUT, &format!("/api/professional/{barber}"), Some(&default), Some(json!({})))
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    let answer = system.call(Method::GET, "/api/professional/999", Some(&admin), None).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
}
