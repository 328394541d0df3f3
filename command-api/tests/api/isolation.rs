//! Isolation between units and businesses (issue 12; ADR 0010): every endpoint, called by
//! every role from Navalha Centro, and by every role of another business, with the ids of
//! Navalha Batel's unit, professional, day off, holiday, appointment, plan and subscriber
//! (and, from the other business, of the demo business's clients, units, catalogue and
//! plans), answers as if they did not exist (404, or 422 on the field that names them), or
//! 403 where the role may not call the endpoint at all. Lists never return their rows.
//! Nothing is written. Batel's own staff read the same ids. PostgreSQL's own lines (the
//! event log's trigger, row-level security) are tested on their own.

use axum::http::{Method, StatusCode};
use navalha_command_api::businesses::{open_with_admin, FirstAdmin};
use navalha_command_api::identity::register::create_invite;
use navalha_domain::role::Role;
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::club::{plan_fields, save_plan, subscribe_to, Club};
use crate::support::{another_business, company, cpf, System};

const ALL: &[Role] = &Role::ALL;
const ADMIN: &[Role] = &[Role::Admin];
const PLAN_STAFF: &[Role] = &[Role::Admin, Role::Attendant, Role::Default];
const SUBSCRIBER_STAFF: &[Role] = &[Role::Admin, Role::Attendant, Role::Default, Role::BarberLeade];
/// Roles whose menu has the professionals screen (spec 01 §6).
const PROFESSIONAL_SCREEN: &[Role] = &[Role::Admin, Role::Default];
const FRONT_DESK: &[Role] = &[Role::Admin, Role::Attendant];
/// The professionals screen's roles and those who book for any professional: who reads a
/// professional's services and prices (issue 45).
const BOOKS_FOR_ANYONE: &[Role] = &[Role::Admin, Role::Default, Role::Attendant, Role::BarberLeade];

/// The documented routes that name nothing of another business, so the matrices above have
/// no foreign id to try on them, and why. A route neither here nor in the matrices fails
/// `every_route_is_in_the_isolation_matrix_or_says_why_not` (issue 39, point 10).
const NAMES_NOTHING_FOREIGN: &[(&str, &str, &str)] = &[
    ("GET", "/api/business", "the caller's own business"),
    ("GET", "/api/changes", "the caller's own business's live changes"),
    ("POST", "/api/checkout/subscribe", "a checkout token's own plan and client, no staff token"),
    ("POST", "/api/checkout/summary", "a checkout token's own plan and client, no staff token"),
    ("POST", "/api/company", "registers a unit of the caller's business"),
    ("POST", "/api/galaxpay/webhook", "the provider's, authenticated by its hash"),
    ("GET", "/api/health", "no data"),
    ("GET", "/api/media/gallery/{file}", "public, as the unit's page shows it; content-addressed"),
    ("GET", "/api/no-auth/online-booking/{idCompany}", "public page (online.rs tests its tokens per unit)"),
    ("POST", "/api/no-auth/online-booking/{idCompany}/code", "public page"),
    ("POST", "/api/no-auth/online-booking/{idCompany}/verify", "public page"),
    ("POST", "/api/no-auth/online-booking/{idCompany}/scheduling", "public page, the booking token's unit"),
    ("GET", "/api/no-auth/online-booking/booking/{token}", "a booking link opens its booking only"),
    ("PUT", "/api/no-auth/online-booking/booking/{token}", "a booking link opens its booking only"),
    ("POST", "/api/no-auth/online-booking/booking/{token}/cancel", "a booking link opens its booking only"),
    ("PUT", "/api/no-auth/professional/complete-register", "an invitation's own token"),
    ("GET", "/api/no-auth/scheduling/available-times", "public free times"),
    ("GET", "/api/no-auth/whatsapp/webhook", "Meta's handshake, its verify token"),
    ("POST", "/api/no-auth/whatsapp/webhook", "Meta's, authenticated by its signature"),
    ("GET", "/api/openapi/command.json", "the document"),
    ("GET", "/api/openapi/query.json", "the document"),
    ("POST", "/api/product", "registers a product of the caller's business"),
    ("POST", "/api/professional", "registers staff in the caller's units"),
    ("GET", "/api/professional-favorite-menu/", "the caller's own menu"),
    ("POST", "/api/professional-favorite-menu/", "the caller's own menu"),
    ("DELETE", "/api/professional-favorite-menu/slug/{slug}", "the caller's own menu"),
    ("GET", "/api/professional-service/my-profile", "the caller's own services"),
    ("POST", "/api/professional-service/my-profile", "the caller's own services"),
    ("GET", "/api/professional-working-hours/my-profile", "the caller's own hours"),
    ("PUT", "/api/professional-working-hours/my-profile/day", "the caller's own hours"),
    ("GET", "/api/professional/my-profile", "the caller's own profile"),
    ("PUT", "/api/professional/my-profile", "the caller's own profile"),
    ("POST", "/api/session-professional/login", "a sign-in door"),
    ("POST", "/api/session-professional/login-social-media", "a sign-in door"),
    ("POST", "/api/session-professional/logout", "the caller's own session"),
    ("POST", "/api/session-professional/recovery-code", "a sign-in door"),
    ("POST", "/api/session-professional/reset-password", "a sign-in door"),
    ("POST", "/api/session-professional/validate-recovery-code", "a sign-in door"),
    ("GET", "/api/types-profile", "the roles, no data"),
    ("POST", "/api/user/professional", "registers a client of the caller's business"),
    ("POST", "/api/user/quick", "registers a client of the caller's business"),
];

/// The admin's professional form for a staff member of `role` in `company`.
fn staff_form(role: Role, company: i64) -> Value {
    json!({
        "name": format!("Pessoa {}", role.description()), "cpf": cpf(310_000_000 + company as u64 * 100 + role.id() as u64),
        "email": format!("{}.{company}@navalha.test", role.code().to_lowercase()), "phone": "(11) 9 8765-4321",
        "whatsApp": true, "birthDate": "1992-05-20", "cep": "01042-001", "street": "Rua Barão de Itapetininga",
        "number": "50", "district": "República", "city": "São Paulo", "state": "SP", "complement": "",
        "idCompany": company, "color": "#FF9800", "idTypeProfile": role.id(),
    })
}

/// A signed-in staff member of `role` who belongs to `company` only: their id and token.
pub(crate) async fn staff(system: &System, admin: &str, role: Role, company: i64) -> (i64, String) {
    let created =
        system.call(Method::POST, "/api/professional", Some(admin), Some(staff_form(role, company))).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let id = created.body["IdProfessional"].as_i64().expect("id");
    let invite = create_invite(&system.pool, id).await.expect("invite");
    let done = system
        .call(
            Method::PUT,
            "/api/no-auth/professional/complete-register",
            None,
            Some(json!({ "completeRegister": invite, "password": "Centro@123" })),
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{done:?}");
    (id, done.body["Token"].as_str().expect("token").to_owned())
}

pub async fn scalar(system: &System, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&system.pool).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// One call with Batel's ids, the roles that may call the endpoint at all, and what they get.
struct Case {
    method: Method,
    path: String,
    body: Option<Value>,
    multipart: Option<Vec<(&'static str, String)>>,
    roles: &'static [Role],
    expected: Expected,
}

#[derive(Debug, Clone, Copy)]
enum Expected {
    NotFound,
    /// 422 on this field: the body names a unit or professional the caller does not have.
    Field(&'static str),
}

fn case(method: Method, path: String, body: Option<Value>, roles: &'static [Role]) -> Case {
    Case { method, path, body, multipart: None, roles, expected: Expected::NotFound }
}

/// Navalha Batel's things, made by the admin of every unit of the demo business: the calls
/// that name them and the lists that must leave them out.
struct Batel {
    cases: Vec<Case>,
    lists: Vec<(&'static str, &'static str, i64)>,
    plan: i64,
}

async fn batels_things(club: &Club, admin: &str) -> Batel {
    let system = &club.system;
    let batel =
        scalar(system, "select company_id from rm_company.company where name = 'Navalha Batel'").await;

    // Batel's things, made by the admin of every unit.
    let heitor =
        scalar(system, "select professional_id from staff_credential where email = 'heitor@navalha.dev'")
            .await;
    let day_off = system
        .call(
            Method::POST,
            "/api/day-off",
            Some(admin),
            Some(json!({"description": "Folga", "dateStart": "2030-01-07", "dateEnd": "2030-01-07",
                        "allDay": true, "startTime": null, "endTime": null, "idProfessional": heitor})),
        )
        .await;
    assert_eq!(day_off.status, StatusCode::CREATED, "{day_off:?}");
    let day_off = day_off.body["IdDayOff"].as_i64().expect("day off");
    let holiday_body = json!({"description": "Aniversário de Curitiba", "startDate": "2030-03-29",
                              "endDate": "2030-03-29", "allDay": true, "startTime": null, "endTime": null,
                              "idsCompanies": [batel]});
    let holiday = system.call(Method::POST, "/api/holiday", Some(admin), Some(holiday_body.clone())).await;
    let holiday = holiday.body["IdHoliday"].as_i64().expect("holiday");
    let mut plan_form = plan_fields();
    plan_form.retain(|(name, _)| *name != "companies");
    plan_form.push(("companies", format!(r#"[{{"idCompany": {batel}}}]"#)));
    let plan = save_plan(system, admin, Method::POST, "/api/subscription-details", &plan_form).await;
    assert_eq!(plan.status, StatusCode::CREATED, "{plan:?}");
    let plan = plan.body["IdSubscriptionDetail"].as_i64().expect("plan");
    let haircut = scalar(
        system,
        "select service_id from rm_professional.catalogue_service where description = 'Corte de cabelo'",
    )
    .await;
    let plan_service = system
        .call(
            Method::POST,
            "/api/subscription-service",
            Some(admin),
            Some(json!({"idService": haircut, "idSubscriptionDetail": plan, "discount": 10})),
        )
        .await;
    let plan_service = plan_service.body["IdSubscriptionService"].as_i64().expect("plan service");
    let subscriber = subscribe_to(club, admin, plan).await;
    let subscriber = subscriber["IdSubscriptionUser"].as_i64().expect("subscriber");
    system.project().await;
    let membership = scalar(
        system,
        &format!("select membership_id from rm_professional.membership where professional_id = {heitor} and company_id = {batel}"),
    )
    .await;
    let booking_at = |start: &str| {
        json!({
            "idCompanyProfessional": membership, "date": crate::support::far_tuesday().to_string(), "startTime": start, "endTime": null,
            "idServices": [haircut], "idUser": 1, "observation": "", "timesType": "ALL_TIMES",
        })
    };
    let booked = system
        .call(Method::POST, "/api/scheduling/professional", Some(admin), Some(booking_at("10:00")))
        .await;
    assert_eq!(booked.status, StatusCode::CREATED, "{booked:?}");
    let appointment = booked.body["IdScheduling"].as_i64().expect("appointment");
    let opened = system
        .call(
            Method::POST,
            "/api/comanda",
            Some(admin),
            Some(json!({"idCompany": batel, "idScheduling": appointment})),
        )
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{opened:?}");
    let comanda = opened.body["IdComanda"].as_i64().expect("comanda");
    let caixa = system
        .call(Method::POST, "/api/caixa", Some(admin), Some(json!({"idCompany": batel, "openingCash": 100})))
        .await;
    assert_eq!(caixa.status, StatusCode::CREATED, "{caixa:?}");
    let caixa = caixa.body["IdCaixa"].as_i64().expect("caixa");
    let booking_body = booking_at("11:00");
    let mut series_body = booking_at("12:00");
    series_body["repeat"] = json!({"everyWeeks": 1, "count": 2});
    let offered = scalar(
        system,
        &format!(
            "select offered_id from rm_professional.offered_service where professional_id = {heitor} limit 1"
        ),
    )
    .await;
    let service_form =
        json!({"idService": haircut, "time": 30, "value": "45,00", "combo": false, "status": true});
    let week_day = json!({"weekDay": 1, "periods": [{"startTime": "09:00", "endTime": "12:00"}]});

    let cases = vec![
        // Units.
        case(Method::GET, format!("/api/company/{batel}"), None, ALL),
        case(Method::GET, format!("/api/company-working-hours/{batel}"), None, ALL),
        case(Method::GET, format!("/api/gallery-company/{batel}"), None, ALL),
        Case {
            multipart: Some(vec![("idGalleryCompanies", String::new())]),
            ..case(Method::PUT, format!("/api/gallery-company/{batel}"), None, ADMIN)
        },
        case(Method::GET, format!("/api/company/{batel}/history"), None, ADMIN),
        case(
            Method::PUT,
            format!("/api/company/{batel}"),
            Some(company("Navalha Batel", "11.222.333/0001-81")),
            ADMIN,
        ),
        case(
            Method::PUT,
            format!("/api/company-working-hours/{batel}/day"),
            Some(json!({"weekDay": 1, "startTime": "09:00", "endTime": "18:00"})),
            ADMIN,
        ),
        // Professionals.
        case(Method::GET, format!("/api/professional/{heitor}"), None, PROFESSIONAL_SCREEN),
        case(
            Method::GET,
            format!("/api/professional-working-hours/professional/{heitor}"),
            None,
            PROFESSIONAL_SCREEN,
        ),
        case(
            Method::GET,
            format!("/api/professional-service/professional/{heitor}"),
            None,
            BOOKS_FOR_ANYONE,
        ),
        case(Method::GET, format!("/api/professional/{heitor}/history"), None, ADMIN),
        case(Method::GET, format!("/api/professional/{heitor}/commission"), None, PROFESSIONAL_SCREEN),
        case(
            Method::POST,
            "/api/commission/entry".into(),
            Some(json!({"idProfessional": heitor, "kind": "bonus", "value": 10, "reason": "Meta"})),
            ADMIN,
        ),
        case(
            Method::GET,
            format!("/api/commission/statement?idProfessional={heitor}&from=2026-11-01&to=2026-11-30"),
            None,
            ALL,
        ),
        case(
            Method::POST,
            "/api/commission/period/close".into(),
            Some(json!({"idProfessional": heitor, "from": "2026-11-01", "to": "2026-11-02",
                        "paidAt": "2026-11-03", "method": "pix"})),
            ADMIN,
        ),
        case(Method::GET, format!("/api/commission/periods?idProfessional={heitor}"), None, ALL),
        case(
            Method::GET,
            format!(
                "/api/commission/statement/changes?idProfessional={heitor}&from=2026-11-01&to=2026-11-30&since=2026-11-01"
            ),
            None,
            ALL,
        ),
        case(
            Method::PUT,
            format!("/api/professional/{heitor}/commission"),
            Some(json!({"servicePercent": 40, "productPercent": 10})),
            ADMIN,
        ),
        case(
            Method::PUT,
            format!("/api/professional/{heitor}"),
            Some(staff_form(Role::Barber1, batel)),
            ADMIN,
        ),
        case(Method::GET, format!("/api/professional/company/{batel}"), None, ALL),
        case(Method::GET, format!("/api/service/company/{batel}"), None, ALL),
        case(
            Method::PUT,
            format!("/api/professional-working-hours/professional/{heitor}/day"),
            Some(week_day),
            ADMIN,
        ),
        case(
            Method::POST,
            format!("/api/professional-service/professional/{heitor}"),
            Some(service_form.clone()),
            ADMIN,
        ),
        case(
            Method::PUT,
            format!("/api/professional-service/{offered}/professional/{heitor}"),
            Some(service_form.clone()),
            ADMIN,
        ),
        // Another's offered service, named as one's own.
        case(Method::PUT, format!("/api/professional-service/{offered}/my-profile"), Some(service_form), ALL),
        // Days off.
        case(Method::GET, format!("/api/day-off/{heitor}"), None, ADMIN),
        case(
            Method::POST,
            "/api/day-off".into(),
            Some(json!({"description": "Folga", "dateStart": "2030-01-09", "dateEnd": "2030-01-09",
                        "allDay": true, "startTime": null, "endTime": null, "idProfessional": heitor})),
            ADMIN,
        ),
        case(
            Method::PUT,
            format!("/api/day-off/{day_off}"),
            Some(json!({"description": "Folga longa", "dateStart": "2030-01-07", "dateEnd": "2030-01-08",
                        "allDay": true, "startTime": null, "endTime": null, "idProfessional": heitor})),
            ADMIN,
        ),
        case(Method::DELETE, format!("/api/day-off/{day_off}"), None, ADMIN),
        // Holidays.
        case(Method::GET, format!("/api/holiday/{holiday}"), None, ALL),
        case(Method::PUT, format!("/api/holiday/{holiday}"), Some(holiday_body.clone()), ADMIN),
        case(Method::DELETE, format!("/api/holiday/{holiday}"), None, ADMIN),
        Case {
            expected: Expected::Field("idsCompanies"),
            ..case(Method::POST, "/api/holiday".into(), Some(holiday_body), ADMIN)
        },
        // The agenda.
        case(
            Method::GET,
            format!("/api/scheduling/professional?idCompany={batel}&date=2030-01-08"),
            None,
            ALL,
        ),
        case(Method::GET, format!("/api/scheduling/{appointment}"), None, ALL),
        case(Method::GET, format!("/api/scheduling/{appointment}/history"), None, ADMIN),
        // The home's figures (issue 17).
        case(Method::GET, format!("/api/dashboard?period=week&idCompany={batel}"), None, ALL),
        case(Method::GET, format!("/api/message/day?idCompany={batel}&date=2030-01-01"), None, ADMIN),
        case(
            Method::GET,
            format!("/api/message/summary?idCompany={batel}&start=2030-01-01&end=2030-01-31"),
            None,
            ADMIN,
        ),
        case(
            Method::PUT,
            format!("/api/scheduling/professional/{appointment}"),
            Some(booking_body.clone()),
            ALL,
        ),
        case(Method::PUT, format!("/api/scheduling/{appointment}/confirm"), None, ALL),
        case(Method::POST, format!("/api/scheduling/{appointment}/arrival"), None, FRONT_DESK),
        case(Method::POST, format!("/api/scheduling/{appointment}/no-show"), None, FRONT_DESK),
        case(Method::DELETE, format!("/api/scheduling/{appointment}/no-show"), None, FRONT_DESK),
        case(
            Method::POST,
            format!("/api/scheduling/{appointment}/cancel-online-origin"),
            Some(json!({"by": "EMAIL"})),
            FRONT_DESK,
        ),
        case(Method::GET, format!("/api/day-off/company/{batel}?date=2030-01-07"), None, ALL),
        case(Method::GET, format!("/api/scheduling/company/{batel}/working-times?date=2030-01-07"), None, ALL),
        case(Method::DELETE, format!("/api/scheduling/{appointment}"), None, ALL),
        // Regulars' series (issue 45): the foreign membership is refused like a booking's.
        case(Method::DELETE, format!("/api/scheduling/{appointment}/series?scope=all"), None, ALL),
        case(
            Method::PUT,
            format!("/api/scheduling/{appointment}/series?scope=all"),
            Some(booking_body.clone()),
            ALL,
        ),
        Case {
            expected: Expected::Field("idCompanyProfessional"),
            ..case(Method::POST, "/api/scheduling/series/check".into(), Some(series_body.clone()), ALL)
        },
        Case {
            expected: Expected::Field("idCompanyProfessional"),
            ..case(Method::POST, "/api/scheduling/series".into(), Some(series_body), ALL)
        },
        Case {
            expected: Expected::Field("idCompanyProfessional"),
            ..case(Method::POST, "/api/scheduling/professional".into(), Some(booking_body), ALL)
        },
        // Comandas (issue 41).
        case(Method::GET, format!("/api/comanda/{comanda}"), None, ALL),
        case(Method::POST, "/api/comanda".into(), Some(json!({"idCompany": batel})), FRONT_DESK),
        case(
            Method::POST,
            format!("/api/comanda/{comanda}/items"),
            Some(json!({"kind": "service", "id": haircut, "idProfessional": heitor})),
            FRONT_DESK,
        ),
        case(Method::DELETE, format!("/api/comanda/{comanda}/items/1"), None, FRONT_DESK),
        case(Method::PUT, format!("/api/comanda/{comanda}/discount"), Some(json!({"value": 1})), FRONT_DESK),
        case(
            Method::POST,
            format!("/api/comanda/{comanda}/tips"),
            Some(json!({"idProfessional": heitor, "value": 5})),
            FRONT_DESK,
        ),
        case(
            Method::POST,
            format!("/api/comanda/{comanda}/payments"),
            Some(json!({"method": "cash", "value": 1})),
            FRONT_DESK,
        ),
        case(Method::DELETE, format!("/api/comanda/{comanda}/tips/1"), None, FRONT_DESK),
        case(
            Method::POST,
            format!("/api/comanda/{comanda}/payments/1/refund"),
            Some(json!({"reason": "x"})),
            FRONT_DESK,
        ),
        case(Method::POST, format!("/api/comanda/{comanda}/close"), None, FRONT_DESK),
        case(Method::POST, format!("/api/comanda/{comanda}/reopen"), Some(json!({"reason": "x"})), ADMIN),
        case(Method::GET, format!("/api/comanda/{comanda}/history"), None, ADMIN),
        case(
            Method::POST,
            format!("/api/comanda/{comanda}/cancel"),
            Some(json!({"reason": "x"})),
            FRONT_DESK,
        ),
        // The caixa.
        case(Method::GET, format!("/api/caixa/{caixa}"), None, FRONT_DESK),
        case(Method::GET, format!("/api/caixa/{caixa}?asOf=2030-01-01T00:00:00Z"), None, ADMIN),
        case(
            Method::POST,
            "/api/caixa".into(),
            Some(json!({"idCompany": batel, "openingCash": 0})),
            FRONT_DESK,
        ),
        case(
            Method::POST,
            format!("/api/caixa/{caixa}/movements"),
            Some(json!({"kind": "reforco", "value": 1, "reason": "x"})),
            FRONT_DESK,
        ),
        case(Method::POST, format!("/api/caixa/{caixa}/close"), Some(json!({"countedCash": 0})), FRONT_DESK),
        case(Method::POST, format!("/api/caixa/{caixa}/reopen"), Some(json!({"reason": "x"})), ADMIN),
        // The club.
        case(Method::GET, format!("/api/subscription-details/{plan}"), None, PLAN_STAFF),
        case(Method::GET, format!("/api/subscription-service/services/{plan}"), None, PLAN_STAFF),
        Case {
            multipart: Some(plan_form.clone()),
            ..case(Method::PUT, format!("/api/subscription-details/{plan}"), None, ADMIN)
        },
        Case {
            multipart: Some(plan_form),
            expected: Expected::Field("companies"),
            ..case(Method::POST, "/api/subscription-details".into(), None, ADMIN)
        },
        case(
            Method::POST,
            "/api/subscription-service".into(),
            Some(json!({"idService": haircut, "idSubscriptionDetail": plan, "discount": 5})),
            ADMIN,
        ),
        case(
            Method::PUT,
            format!("/api/subscription-service/{plan_service}"),
            Some(json!({"idService": haircut, "idSubscriptionDetail": plan, "discount": 5})),
            ADMIN,
        ),
        case(Method::DELETE, format!("/api/subscription-service/{plan_service}"), None, ADMIN),
        case(
            Method::POST,
            "/api/checkout/create-user-token".into(),
            Some(json!({"userId": 1, "planId": plan})),
            PLAN_STAFF,
        ),
        case(
            Method::POST,
            "/api/checkout/send-user-token-email".into(),
            Some(json!({"userId": 1, "planId": plan})),
            PLAN_STAFF,
        ),
        case(Method::GET, format!("/api/subscription-user/{subscriber}"), None, SUBSCRIBER_STAFF),
        case(
            Method::GET,
            format!("/api/subscription-user/{subscriber}?asOf=2030-01-01T00:00:00Z"),
            None,
            SUBSCRIBER_STAFF,
        ),
        case(Method::GET, format!("/api/subscription-user/{subscriber}/timeline"), None, SUBSCRIBER_STAFF),
        case(Method::GET, format!("/api/subscription-user/{subscriber}/updateData"), None, SUBSCRIBER_STAFF),
        case(Method::POST, format!("/api/subscription-user/{subscriber}/reminder"), None, SUBSCRIBER_STAFF),
        case(Method::DELETE, format!("/api/subscription-user/{subscriber}"), None, ADMIN),
    ];

    let lists = vec![
        ("/api/company/filter?pageSize=50", "IdCompany", batel),
        ("/api/professional/filter?pageSize=50", "IdProfessional", heitor),
        ("/api/holiday/filter?pageSize=50", "IdHoliday", holiday),
        ("/api/comanda?pageSize=50", "IdComanda", comanda),
        ("/api/caixa?pageSize=50", "IdCaixa", caixa),
        ("/api/subscription-details?pageSize=50", "IdSubscriptionDetail", plan),
        ("/api/subscription-user?pageSize=50", "IdSubscriptionUser", subscriber),
    ];
    Batel { cases, lists, plan }
}

/// Every documented route is tried with another business's ids (a case or a list), or
/// [`NAMES_NOTHING_FOREIGN`] says why it has none; and that list names only routes that
/// exist and are not tried.
fn every_route_is_in_the_isolation_matrix_or_says_why_not(cases: &[Case], lists: &[(&str, &str, i64)]) {
    use std::collections::BTreeSet;
    let routes = crate::openapi::documented_routes();
    let tried: BTreeSet<(String, String)> = cases
        .iter()
        .map(|case| (case.method.clone(), case.path.as_str()))
        .chain(lists.iter().map(|(path, _, _)| (Method::GET, *path)))
        .filter_map(|(method, path)| crate::openapi::route_of(&routes, &method, path))
        .collect();
    let exempt: BTreeSet<(String, String)> = NAMES_NOTHING_FOREIGN
        .iter()
        .map(|(method, path, _)| ((*method).to_owned(), (*path).to_owned()))
        .collect();
    let untried: Vec<String> = routes
        .difference(&tried)
        .filter(|route| !exempt.contains(route))
        .map(|(m, p)| format!("{m} {p}"))
        .collect();
    assert!(
        untried.is_empty(),
        "routes no isolation case tries; add a case or say why not:\n{}",
        untried.join("\n")
    );
    let stale: Vec<String> = exempt
        .iter()
        .filter(|route| !routes.contains(route) || tried.contains(route))
        .map(|(m, p)| format!("{m} {p}"))
        .collect();
    assert!(stale.is_empty(), "exempt routes that are gone or tried after all:\n{}", stale.join("\n"));
}

/// What differs from the expected answers when `role`, holding `token`, makes every call;
/// and nothing may be written.
async fn leaks(system: &System, cases: &[Case], role: Role, token: &str) -> Vec<String> {
    let mut leaks = Vec::new();
    let before = scalar(system, "select count(*) from events").await;
    for case in cases {
        let answer = match &case.multipart {
            Some(fields) => save_plan(system, token, case.method.clone(), &case.path, fields).await,
            None => system.call(case.method.clone(), &case.path, Some(token), case.body.clone()).await,
        };
        let wanted = if !case.roles.contains(&role) {
            (StatusCode::FORBIDDEN, None)
        } else {
            match case.expected {
                Expected::NotFound => (StatusCode::NOT_FOUND, None),
                Expected::Field(field) => (StatusCode::UNPROCESSABLE_ENTITY, Some(field)),
            }
        };
        let field_ok = wanted.1.is_none_or(|field| answer.body["errors"][field].is_string());
        if answer.status != wanted.0 || !field_ok {
            leaks.push(format!("{role:?} {} {}: {} {}", case.method, case.path, answer.status, answer.body));
        }
    }
    if scalar(system, "select count(*) from events").await != before {
        leaks.push(format!("{role:?} wrote something"));
    }
    leaks
}

/// The lists (`content` pages, or plain arrays) that show a row whose `key` is `foreign`.
async fn listed(system: &System, lists: &[(&str, &str, i64)], role: Role, token: &str) -> Vec<String> {
    system.project().await;
    let mut leaks = Vec::new();
    for (path, key, foreign) in lists {
        let answer = system.call(Method::GET, path, Some(token), None).await;
        let rows = answer.body["content"].as_array().or(answer.body.as_array()).cloned().unwrap_or_default();
        if rows.iter().any(|row| row[*key] == json!(foreign)) {
            leaks.push(format!("{role:?} GET {path} lists {key} {foreign}"));
        }
    }
    leaks
}

#[tokio::test]
async fn no_role_of_one_unit_reaches_another_units_data() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let system = &club.system;
    let admin = system.sign_in("admin@navalha.dev").await;
    let centro =
        scalar(system, "select company_id from rm_company.company where name = 'Navalha Centro'").await;
    let batel = batels_things(&club, &admin).await;
    let mut lists = batel.lists.clone();
    lists.push(("/api/subscription-details/all", "IdSubscriptionDetail", batel.plan));
    let mut found = Vec::new();
    for role in Role::ALL {
        let (_, token) = staff(system, &admin, role, centro).await;
        found.extend(leaks(system, &batel.cases, role, &token).await);
        found.extend(listed(system, &lists, role, &token).await);
    }
    assert!(found.is_empty(), "{} answers differ:\n{}", found.len(), found.join("\n"));

    // The same reads by Batel's own staff succeed: the 404s above are the isolation, not a
    // broken endpoint.
    let batel_unit =
        scalar(system, "select company_id from rm_company.company where name = 'Navalha Batel'").await;
    for role in Role::ALL {
        let (_, token) = staff(system, &admin, role, batel_unit).await;
        for case in batel.cases.iter().filter(|c| c.method == Method::GET && c.roles.contains(&role)) {
            let answer = system.call(Method::GET, &case.path, Some(&token), None).await;
            // Roles that see only their own agenda read only their own appointments
            // (spec 01 §6); the appointment is Heitor's.
            let appointment = case
                .path
                .strip_prefix("/api/scheduling/")
                .is_some_and(|id| id.starts_with(|c: char| c.is_ascii_digit()));
            // A barber sees only comandas with a line of theirs; this one is Heitor's.
            let comanda = case.path.starts_with("/api/comanda/");
            // A statement and the periods are ADMIN's, or their professional's own; these are Heitor's.
            let statement = case.path.starts_with("/api/commission/");
            let wanted = if appointment && !role.may_choose_any_professional() {
                StatusCode::FORBIDDEN
            } else if (comanda && !role.may_choose_any_professional()) || (statement && role != Role::Admin) {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::OK
            };
            if answer.status != wanted {
                found.push(format!("{role:?} of Batel GET {}: {}", case.path, answer.status));
            }
        }
    }
    assert!(found.is_empty(), "{} own reads fail:\n{}", found.len(), found.join("\n"));
}

#[tokio::test]
async fn no_role_of_another_business_reaches_this_ones_data() {
    let pool = demo_database().await;
    let club = Club::start(pool).await;
    let system = &club.system;
    let admin = system.sign_in("admin@navalha.dev").await;
    let batel = batels_things(&club, &admin).await;
    // What the demo business has as a whole: its clients, catalogue, units and club.
    let client = scalar(system, "select client_id from rm_client.client order by client_id limit 1").await;
    let haircut = scalar(
        system,
        "select service_id from rm_professional.catalogue_service where description = 'Corte de cabelo'",
    )
    .await;
    let centro =
        scalar(system, "select company_id from rm_company.company where name = 'Navalha Centro'").await;
    let mut every_unit_form = plan_fields();
    every_unit_form.retain(|(name, _)| !["companies", "allCompanies"].contains(name));
    every_unit_form.push(("allCompanies", "true".into()));
    let every_unit_plan =
        save_plan(system, &admin, Method::POST, "/api/subscription-details", &every_unit_form).await;
    assert_eq!(every_unit_plan.status, StatusCode::CREATED, "{every_unit_plan:?}");
    let every_unit_plan = every_unit_plan.body["IdSubscriptionDetail"].as_i64().expect("plan");
    let partner = scalar(system, "select partner_company_id from rm_club.partner_company limit 1").await;
    let product_form = json!({"name": "Pomada modeladora", "price": 29.9});
    let product = system.call(Method::POST, "/api/product", Some(&admin), Some(product_form.clone())).await;
    let product = product.body["IdProduct"].as_i64().unwrap_or_else(|| panic!("{product:?}"));
    let client_form = json!({"name": "Cliente Vila Rica", "cpf": cpf(420_000_002), "email": "cliente@vilarica.dev",
                             "phone": "(31) 9 1234-5678", "whatsApp": true, "birthDate": "1990-04-01", "status": true});
    let mut cases = batel.cases;
    cases.extend([
        case(Method::GET, format!("/api/user/{client}"), None, ALL),
        case(Method::GET, format!("/api/user/{client}/history"), None, ADMIN),
        case(Method::GET, format!("/api/user/{client}/visits"), None, ALL),
        case(Method::PUT, format!("/api/user/{client}/confirm"), None, FRONT_DESK),
        case(Method::PUT, format!("/api/user/{client}"), Some(client_form), &[Role::Admin, Role::Attendant]),
        case(
            Method::PUT,
            "/api/user/remove-all-login-social".into(),
            Some(json!({"idUser": client})),
            &[Role::Admin, Role::Attendant],
        ),
        case(Method::GET, format!("/api/company/{centro}"), None, ALL),
        case(Method::GET, format!("/api/product/{product}"), None, ALL),
        case(Method::PUT, format!("/api/product/{product}"), Some(product_form), ADMIN),
        case(
            Method::POST,
            format!("/api/product/{product}/movements"),
            Some(json!({"kind": "entrada", "idCompany": centro, "quantity": 1, "unitCost": 10})),
            FRONT_DESK,
        ),
        case(Method::GET, format!("/api/product/{product}/movements"), None, FRONT_DESK),
        Case {
            multipart: Some(vec![("file", String::new())]),
            ..case(Method::POST, format!("/api/product/{product}/image"), None, ADMIN)
        },
        case(Method::DELETE, format!("/api/product/{product}/image"), None, ADMIN),
        case(Method::GET, format!("/api/stock?idCompany={centro}"), None, FRONT_DESK),
        case(
            Method::PUT,
            format!("/api/service/{haircut}/products/{product}"),
            Some(json!({"quantity": 1})),
            ADMIN,
        ),
        case(Method::GET, format!("/api/subscription-details/{every_unit_plan}"), None, PLAN_STAFF),
        case(Method::GET, format!("/api/subscription-service/services/{every_unit_plan}"), None, PLAN_STAFF),
    ]);
    let mut lists = batel.lists;
    lists.extend([
        ("/api/company", "IdCompany", centro),
        ("/api/user/filter?pageSize=50", "IdUser", client),
        ("/api/service/active", "IdService", haircut),
        ("/api/subscription-details/all", "IdSubscriptionDetail", every_unit_plan),
        ("/api/subscription-details?pageSize=50", "IdSubscriptionDetail", every_unit_plan),
        ("/api/partner-company", "IdPartnerCompany", partner),
        ("/api/product?pageSize=50", "IdProduct", product),
    ]);

    every_route_is_in_the_isolation_matrix_or_says_why_not(&cases, &lists);
    let (rita, vila_rica, _) = another_business(system).await;
    let mut found = Vec::new();
    for role in Role::ALL {
        let (_, token) = staff(system, &rita, role, vila_rica).await;
        found.extend(leaks(system, &cases, role, &token).await);
        found.extend(listed(system, &lists, role, &token).await);
    }
    assert!(found.is_empty(), "{} answers differ:\n{}", found.len(), found.join("\n"));

    // What the other business makes is its own: its catalogue, and a client whose CPF is
    // also a client of the demo business (a CPF is unique within a business only).
    let demo_cpf: String = sqlx::query_scalar("select cpf from rm_client.client where client_id = $1")
        .bind(client)
        .fetch_one(&system.pool)
        .await
        .expect("cpf");
    let same_person = json!({"name": "Mesma Pessoa", "cpf": demo_cpf, "email": "mesma@vilarica.dev",
                             "phone": "(31) 9 1234-5678", "whatsApp": true, "birthDate": "1990-04-01", "status": true});
    let created = system.call(Method::POST, "/api/user/professional", Some(&rita), Some(same_person)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    system.project().await;
    let services = system.call(Method::GET, "/api/service/active", Some(&rita), None).await;
    let names: Vec<&str> =
        services.body.as_array().into_iter().flatten().filter_map(|s| s["Description"].as_str()).collect();
    assert!(names.contains(&"Corte de cabelo"), "the standard catalogue: {names:?}");
    let clients = system.call(Method::GET, "/api/user/filter?pageSize=50", Some(&rita), None).await;
    assert_eq!(clients.body["content"].as_array().map(Vec::len), Some(1), "{clients:?}");
    let demo_clients = system.call(Method::GET, "/api/user/filter?pageSize=50", Some(&admin), None).await;
    let demo_names: Vec<&str> = demo_clients.body["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["Name"].as_str())
        .collect();
    assert!(!demo_names.contains(&"Mesma Pessoa"), "{demo_names:?}");
}

#[tokio::test]
async fn a_new_unit_is_its_creators_and_role_changes_and_deactivation_apply_at_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let centro =
        scalar(&system, "select company_id from rm_company.company where name = 'Navalha Centro'").await;
    let (id, token) = staff(&system, &admin, Role::Admin, centro).await;

    // The unit an admin registers is theirs at once, with the token they already hold.
    let created = system
        .call(
            Method::POST,
            "/api/company",
            Some(&token),
            Some(company("Navalha Água Verde", "11.444.777/0001-61")),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    let unit = created.body["IdCompany"].as_i64().expect("unit");
    system.project().await;
    assert_eq!(
        system.call(Method::GET, &format!("/api/company/{unit}"), Some(&token), None).await.status,
        StatusCode::OK
    );
    let listed = system.call(Method::GET, "/api/company", Some(&token), None).await;
    let member: Vec<(i64, bool)> = listed
        .body
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (c["IdCompany"].as_i64().unwrap_or_default(), c["Member"].as_bool().unwrap_or_default()))
        .collect();
    assert!(member.contains(&(unit, true)) && member.contains(&(centro, true)), "{member:?}");
    assert!(member.iter().any(|(_, member)| !member), "other active units are listed, not as the user's");
    // The admin of every unit does not reach it: they do not belong to it.
    assert_eq!(
        system.call(Method::GET, &format!("/api/company/{unit}"), Some(&admin), None).await.status,
        StatusCode::NOT_FOUND
    );

    // A role change applies to the next request, not when the token expires.
    let history = format!("/api/company/{centro}/history");
    assert_eq!(system.call(Method::GET, &history, Some(&token), None).await.status, StatusCode::OK);
    let mut form = staff_form(Role::Barber1, centro);
    form["status"] = json!(1);
    let changed =
        system.call(Method::PUT, &format!("/api/professional/{id}"), Some(&admin), Some(form.clone())).await;
    assert_eq!(changed.status, StatusCode::OK, "{changed:?}");
    assert_eq!(system.call(Method::GET, &history, Some(&token), None).await.status, StatusCode::FORBIDDEN);
    // So does a deactivation: the token is refused.
    form["status"] = json!(2);
    let deactivated =
        system.call(Method::PUT, &format!("/api/professional/{id}"), Some(&admin), Some(form)).await;
    assert_eq!(deactivated.status, StatusCode::OK, "{deactivated:?}");
    let refused = system.call(Method::GET, "/api/company", Some(&token), None).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    // Reactivated, they sign in again: the sessions of before stay ended (issue 39; a token
    // left on a shared computer used to come back to life).
    let mut form = staff_form(Role::Barber1, centro);
    form["status"] = json!(1);
    let reactivated =
        system.call(Method::PUT, &format!("/api/professional/{id}"), Some(&admin), Some(form)).await;
    assert_eq!(reactivated.status, StatusCode::OK, "{reactivated:?}");
    let still_refused = system.call(Method::GET, "/api/company", Some(&token), None).await;
    assert_eq!(still_refused.status, StatusCode::UNAUTHORIZED);
    let open: i64 = sqlx::query_scalar(
        "select count(*) from staff_session where professional_id = $1 and revoked_at is null",
    )
    .bind(id)
    .fetch_one(&system.pool)
    .await
    .expect("sessions");
    assert_eq!(open, 0);
}

#[tokio::test]
async fn postgres_keeps_each_business_to_itself() {
    let pool = demo_database().await;
    use navalha_domain::client::{Client, ClientCommand};
    use navalha_domain::metadata::EventMetadata;

    let system = System::start(pool).await;
    let client: String = sqlx::query_scalar("select min(client_id)::text from rm_client.client")
        .fetch_one(&system.pool)
        .await
        .expect("a demo client");
    let (_, _, other) = another_business(&system).await;

    // An event of another business on this aggregate: refused by the log's trigger, which the
    // command layer answers as 404 (the handlers' own checks come first; this is the last line).
    let demo_client: Client =
        navalha_command_api::commands::load(&system.state.events, 1, &client).await.expect("client");
    let mut details = demo_client.details().cloned().expect("details");
    details.name = "Nome Trocado".into();
    let across = navalha_command_api::commands::execute::<Client>(
        &system.state.events,
        &client,
        ClientCommand::UpdateClient { details, cpf: None },
        &EventMetadata::system("teste", other),
    )
    .await;
    assert!(matches!(across, Err(navalha_platform::ApiError::NotFound(_))), "{across:?}");
    // An event that names no business is refused too.
    let unnamed = sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ('Client', '999999', 1, 'ClientRegistered', '1.0', '{}', '{}')",
    )
    .execute(&system.pool)
    .await
    .expect_err("no business");
    assert_eq!(unnamed.as_database_error().and_then(|e| e.code()).as_deref(), Some("NV400"));

    // query-api's role sees exactly the rows of the business its transaction names, and
    // none without one: a read that forgot its scope returns nothing.
    system.project().await;
    let query = crate::support::as_role(&system.pool, "navalha_query").await;
    let tables = [
        "rm_client.client",
        "rm_company.company",
        "rm_professional.catalogue_service",
        "rm_agenda.appointment",
    ];
    for business in [None, Some(1_i64), Some(other)] {
        let mut tx = query.begin().await.expect("tx");
        if let Some(business) = business {
            sqlx::query("select set_config('navalha.business', $1, true)")
                .bind(business.to_string())
                .execute(&mut *tx)
                .await
                .expect("scope");
        }
        for table in tables {
            let seen: i64 = sqlx::query_scalar(&format!("select count(*) from {table}"))
                .fetch_one(&mut *tx)
                .await
                .unwrap_or_else(|e| panic!("{table}: {e}"));
            let owned: i64 =
                sqlx::query_scalar(&format!("select count(*) from {table} where business_id = $1"))
                    .bind(business.unwrap_or(-1))
                    .fetch_one(&system.pool)
                    .await
                    .expect("superuser count");
            assert_eq!(seen, owned, "{table} as business {business:?}");
        }
    }
    assert!(scalar(&system, "select count(*) from rm_client.client where business_id = 1").await > 0);
    assert!(
        scalar(&system, &format!("select count(*) from rm_company.company where business_id = {other}"))
            .await
            > 0
    );
    // Every table of every read model is under row-level security, but the bookkeeping: the
    // checkpoint, and the stuck businesses (ADR 0022), whose errors the services cannot read.
    let unguarded: Vec<String> = sqlx::query_scalar(
        "select n.nspname || '.' || c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname like 'rm\\_%' and c.relkind = 'r' and c.relname not in ('checkpoint', 'stuck')
            and not c.relrowsecurity",
    )
    .fetch_all(&system.pool)
    .await
    .expect("catalog");
    assert!(unguarded.is_empty(), "{unguarded:?}");
    let errors_readable: Vec<String> = sqlx::query_scalar(
        "select n.nspname || ' by ' || r.rolname from pg_class c join pg_namespace n on n.oid = c.relnamespace
           cross join pg_roles r
          where n.nspname like 'rm\\_%' and c.relname = 'stuck' and r.rolname in ('navalha_query', 'navalha_command')
            and has_column_privilege(r.oid, c.oid, 'error', 'select')",
    )
    .fetch_all(&system.pool)
    .await
    .expect("catalog");
    assert!(errors_readable.is_empty(), "{errors_readable:?}");
}

#[tokio::test]
async fn a_business_whose_admin_email_is_taken_is_not_opened() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let before = scalar(&system, "select count(*) from events").await;
    let admin = FirstAdmin {
        name: "Outra Pessoa".into(),
        email: navalha_command_api::seed::DEMO_ADMIN.into(),
        cpf: cpf(420_000_009),
        phone: String::new(),
    };
    let refused = open_with_admin(&system.state, "Barbearia Repetida", &admin).await;
    assert!(matches!(refused, Err(navalha_platform::ApiError::Conflict(_))), "{refused:?}");
    assert_eq!(scalar(&system, "select count(*) from events").await, before, "nothing half written");
}

/// The 'Pagamento pendente !' notice follows the business's standing with Navalha, which
/// the operators set; each business sees only its own.
#[tokio::test]
async fn a_business_with_a_pending_payment_is_told_so_and_no_other() {
    let pool = demo_database().await;
    use navalha_command_api::businesses::set_billing;
    use navalha_domain::business::BillingStatus;
    let system = System::start(pool).await;
    let (other_admin, _, other_business) = another_business(&system).await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let standing = |token: String| {
        let system = &system;
        async move {
            system.project().await;
            let answer = system.call(Method::GET, "/api/business", Some(&token), None).await;
            assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
            answer.body
        }
    };
    let demo = standing(barber.clone()).await;
    assert_eq!((demo["IdBusiness"].clone(), demo["BillingStatus"].clone()), (json!(1), json!("ACTIVE")));
    assert_eq!(demo["Name"], navalha_command_api::seed::DEMO_BUSINESS_NAME);

    set_billing(&system.state, 1, BillingStatus::PendingPayment).await.expect("billing");
    assert_eq!(standing(barber.clone()).await["BillingStatus"], "PENDING_PAYMENT");
    let other = standing(other_admin.clone()).await;
    assert_eq!(
        (other["IdBusiness"].clone(), other["BillingStatus"].clone()),
        (json!(other_business), json!("ACTIVE"))
    );

    set_billing(&system.state, 1, BillingStatus::Active).await.expect("billing");
    assert_eq!(standing(barber).await["BillingStatus"], "ACTIVE");
    let unknown = set_billing(&system.state, 999, BillingStatus::PendingPayment).await;
    assert!(matches!(unknown, Err(navalha_platform::ApiError::NotFound(_))), "{unknown:?}");
    assert_eq!(system.call(Method::GET, "/api/business", None, None).await.status, StatusCode::UNAUTHORIZED);
}
