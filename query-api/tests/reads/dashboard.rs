//! The home's figures (issue 17): the `dashboard` read model equals what the events say,
//! before and after a rebuild, and `GET dashboard` gives each role its figures; and the
//! client form's visits (`GET user/{id}/visits`).

use std::collections::BTreeMap;

use axum::http::{Method, StatusCode};
use chrono::{NaiveDate, Weekday};
use navalha_domain::appointment::{Appointment, AppointmentEvent, Standing};
use navalha_domain::Aggregate as _;
use navalha_harness::database::demo_database;
use serde_json::{json, Value};
use sqlx::PgPool;

use navalha_harness::demo::{body, book, demo, id_of, next};
use navalha_harness::in_process::System;

type DayKey = (i64, NaiveDate, i64);
/// A `day_figure` row: its key, then booked, confirmed, cancelled, minutes and cents.
type DayRow = (i64, NaiveDate, i64, i64, i64, i64, i64, i64);

/// What the figures should be, counted straight from the appointments' events.
#[derive(Debug, Default, PartialEq)]
struct Figures {
    /// booked, confirmed, cancelled, booked minutes, revenue cents.
    days: BTreeMap<DayKey, [i64; 5]>,
    /// booked, revenue cents.
    services: BTreeMap<(DayKey, i64), [i64; 2]>,
    hours: BTreeMap<(DayKey, i64), i64>,
}

async fn from_events(pool: &PgPool) -> Figures {
    let rows: Vec<(String, Value)> = sqlx::query_as(
        "select aggregate_id, payload from events where aggregate_type = 'Appointment'
          order by aggregate_id, sequence",
    )
    .fetch_all(pool)
    .await
    .expect("events");
    let mut appointments: BTreeMap<String, Appointment> = BTreeMap::new();
    for (id, payload) in rows {
        let event: AppointmentEvent = serde_json::from_value(payload).expect("event");
        appointments.entry(id).or_default().apply(event);
    }
    let mut figures = Figures::default();
    for appointment in appointments.values() {
        let Some(b) = appointment.booking() else { continue };
        let key = (b.company_id, b.date, b.professional_id);
        let day = figures.days.entry(key).or_default();
        if appointment.standing() == Standing::Cancelled {
            day[2] += 1;
            continue;
        }
        day[0] += 1;
        day[1] += i64::from(appointment.confirmed());
        day[3] += i64::from(b.end.minutes() - b.start.minutes());
        day[4] += b.services.iter().map(|s| s.cents).sum::<i64>();
        for s in &b.services {
            let entry = figures.services.entry((key, s.service_id)).or_default();
            entry[0] += 1;
            entry[1] += s.cents;
        }
        *figures.hours.entry((key, i64::from(b.start.minutes() / 60))).or_default() += 1;
    }
    figures
}

/// The model's figures, without the rows a change brought back to zero.
async fn from_model(pool: &PgPool) -> Figures {
    let mut figures = Figures::default();
    let days: Vec<DayRow> = sqlx::query_as(
        "select company_id, date, professional_id, booked, confirmed, cancelled, booked_minutes, revenue_cents
           from rm_dashboard.day_figure where (booked, confirmed, cancelled, booked_minutes, revenue_cents) <> (0, 0, 0, 0, 0)",
    )
    .fetch_all(pool)
    .await
    .expect("days");
    for (c, d, p, b, f, x, m, r) in days {
        figures.days.insert((c, d, p), [b, f, x, m, r]);
    }
    let services: Vec<(i64, NaiveDate, i64, i64, i64, i64)> = sqlx::query_as(
        "select company_id, date, professional_id, service_id, booked, revenue_cents
           from rm_dashboard.service_figure where (booked, revenue_cents) <> (0, 0)",
    )
    .fetch_all(pool)
    .await
    .expect("services");
    for (c, d, p, s, b, r) in services {
        figures.services.insert(((c, d, p), s), [b, r]);
    }
    let hours: Vec<(i64, NaiveDate, i64, i16, i64)> = sqlx::query_as(
        "select company_id, date, professional_id, hour, booked from rm_dashboard.hour_figure where booked <> 0",
    )
    .fetch_all(pool)
    .await
    .expect("hours");
    for (c, d, p, h, b) in hours {
        figures.hours.insert(((c, d, p), i64::from(h)), b);
    }
    figures
}

/// Books, moves across days and professionals, confirms and cancels: every kind of change the
/// figures must follow.
async fn busy_week(system: &System) -> (i64, i64) {
    let d = demo(system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let (tuesday, wednesday) = (next(Weekday::Tue), next(Weekday::Wed));
    let moved = id_of(&book(system, &admin, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);
    let confirmed =
        id_of(&book(system, &admin, body(d.barber2, tuesday, "11:00", &[d.haircut], d.client)).await);
    let cancelled =
        id_of(&book(system, &admin, body(d.barber1, tuesday, "15:00", &[d.haircut], d.client)).await);
    let path = format!("/api/scheduling/professional/{moved}");
    let change = body(d.barber2, wednesday, "16:00", &[d.haircut, d.beard], d.client);
    assert_eq!(system.call(Method::PUT, &path, Some(&admin), Some(change)).await.status, StatusCode::OK);
    let confirm = format!("/api/scheduling/{confirmed}/confirm");
    assert_eq!(system.call(Method::PUT, &confirm, Some(&admin), None).await.status, StatusCode::OK);
    let cancel = format!("/api/scheduling/{cancelled}");
    assert_eq!(system.call(Method::DELETE, &cancel, Some(&admin), None).await.status, StatusCode::OK);
    (d.centro, d.savassi)
}

#[tokio::test]
async fn the_home_figures_equal_what_the_events_say_and_a_rebuild_gives_the_same() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    busy_week(&system).await;
    system.project().await;
    let expected = from_events(&system.pool).await;
    assert!(expected.days.values().any(|d| d[2] > 0), "a cancellation is counted");
    assert!(expected.days.values().any(|d| d[1] > 0), "a confirmation is counted");
    assert_eq!(from_model(&system.pool).await, expected, "followed event by event");

    let registrations = |sql: &'static str| {
        let pool = system.pool.clone();
        async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&pool).await.expect("count") }
    };
    assert_eq!(
        registrations("select coalesce(sum(clients), 0)::bigint from rm_dashboard.client_registration").await,
        registrations("select count(*) from events where event_type = 'ClientRegistered'").await
    );

    let model = navalha_projector::models::find("dashboard").expect("model");
    navalha_projector::rebuild::rebuild(&system.projector_pool, model.as_ref(), false)
        .await
        .expect("rebuild");
    assert_eq!(from_model(&system.pool).await, expected, "rebuilt in bulk");
}

async fn home(system: &System, token: &str, query: &str) -> navalha_harness::in_process::Answer {
    system.project().await;
    system.call(Method::GET, &format!("/api/dashboard?{query}"), Some(token), None).await
}

fn sum(answer: &Value, list: &str, field: &str) -> i64 {
    answer[list].as_array().into_iter().flatten().filter_map(|row| row[field].as_i64()).sum()
}

#[tokio::test]
async fn the_home_gives_each_role_its_figures() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let (centro, savassi) = busy_week(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    system.project().await;
    let model = from_model(&system.pool).await;
    let in_model =
        |companies: &[i64], start: NaiveDate, end: NaiveDate, professional: Option<i64>, i: usize| {
            model
                .days
                .iter()
                .filter(|((c, d, p), _)| {
                    companies.contains(c)
                        && (start..=end).contains(d)
                        && professional.is_none_or(|id| id == *p)
                })
                .map(|(_, v)| v[i])
                .sum::<i64>()
        };
    let date = |answer: &Value, field: &str| {
        NaiveDate::parse_from_str(answer[field].as_str().unwrap_or_default(), "%Y-%m-%d").expect("date")
    };

    for (period, days) in [("today", 1), ("week", 7), ("30d", 30)] {
        let answer = home(&system, &admin, &format!("period={period}&idCompany={centro}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        let body = &answer.body;
        assert_eq!(body["Days"].as_array().map(Vec::len), Some(days), "{period}: every day, zeros included");
        let (start, end) = (date(body, "Start"), date(body, "End"));
        assert_eq!(sum(body, "Days", "Booked"), in_model(&[centro], start, end, None, 0), "{period}");
        assert_eq!(sum(body, "Days", "Cancelled"), in_model(&[centro], start, end, None, 2), "{period}");
        assert_eq!(body["Totals"]["Appointments"], json!(sum(body, "Days", "Booked")));
        let revenue = in_model(&[centro], start, end, None, 4) as f64 / 100.0;
        assert!(
            (body["Totals"]["ExpectedRevenue"].as_f64().unwrap_or(-1.0) - revenue).abs() < 0.005,
            "{period}"
        );
        assert_eq!(sum(body, "Occupancy", "BookedMinutes"), in_model(&[centro], start, end, None, 3));
        assert!(sum(body, "Services", "Count") >= sum(body, "Days", "Booked"), "each booking has a service");
        assert_eq!(sum(body, "BusyHours", "Count"), sum(body, "Days", "Booked"));
        assert_eq!(body["Own"], json!(false));
        assert!(body["Club"]["Months"].as_array().is_some_and(|m| m.len() == 6), "{body}");
        assert!(body["Totals"]["NewClients"].is_i64());
    }
    let week = home(&system, &admin, &format!("period=week&idCompany={centro}")).await.body;
    assert!(
        week["Occupancy"].as_array().into_iter().flatten().any(|p| p["WorkingMinutes"].as_i64() > Some(0)),
        "the demo barbers work this week: {week}"
    );

    // Without a unit: all of the user's units.
    let all = home(&system, &admin, "period=30d").await.body;
    let (start, end) = (date(&all, "Start"), date(&all, "End"));
    assert_eq!(sum(&all, "Days", "Booked"), in_model(&[centro, savassi], start, end, None, 0));

    // A barber sees only their own figures, without the club or the new clients.
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let barber_id: i64 = sqlx::query_scalar("select professional_id from staff_credential where email = $1")
        .bind("barbeiro1@navalha.dev")
        .fetch_one(&system.pool)
        .await
        .expect("barber");
    let own = home(&system, &barber, &format!("period=week&idCompany={centro}")).await.body;
    assert_eq!((own["Own"].clone(), own["Club"].clone()), (json!(true), Value::Null));
    assert_eq!(own["Totals"]["NewClients"], Value::Null);
    let (start, end) = (date(&own, "Start"), date(&own, "End"));
    assert_eq!(sum(&own, "Days", "Booked"), in_model(&[centro], start, end, Some(barber_id), 0));
    assert!(own["Occupancy"]
        .as_array()
        .into_iter()
        .flatten()
        .all(|p| p["IdProfessional"] == json!(barber_id)));
    let attendant = system.sign_in("atendente@navalha.dev").await;
    assert_eq!(home(&system, &attendant, "period=today").await.body["Own"], json!(false));

    // Units out of reach are 404; a period that is not one is 422 on its field.
    let unknown = home(&system, &admin, "period=week&idCompany=999999").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let bad = home(&system, &admin, "period=year").await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad:?}");
    assert!(bad.body["errors"]["period"].is_string(), "{bad:?}");
    let anonymous = system.call(Method::GET, "/api/dashboard?period=today", None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_client_form_lists_the_clients_visits_with_totals() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let registered = system
        .call(
            Method::POST,
            "/api/user/professional",
            Some(&admin),
            Some(json!({"name": "Cliente Visitas", "cpf": "529.982.247-25", "email": "visitas@exemplo.com",
                        "phone": "(31) 9 4444-1212", "whatsApp": true, "birthDate": "1990-04-01", "status": true})),
        )
        .await;
    assert_eq!(registered.status, StatusCode::CREATED, "{registered:?}");
    let client = registered.body["IdUser"].as_i64().expect("IdUser");
    let (tuesday, wednesday) = (next(Weekday::Tue), next(Weekday::Wed));
    let kept =
        id_of(&book(&system, &admin, body(d.barber1, tuesday, "10:00", &[d.haircut, d.beard], client)).await);
    let dropped =
        id_of(&book(&system, &admin, body(d.barber2, wednesday, "11:00", &[d.haircut], client)).await);
    let cancel = format!("/api/scheduling/{dropped}");
    assert_eq!(system.call(Method::DELETE, &cancel, Some(&admin), None).await.status, StatusCode::OK);
    system.project().await;

    let path = format!("/api/user/{client}/visits");
    let answer = system.call(Method::GET, &path, Some(&admin), None).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    let visits = answer.body["Visits"].as_array().cloned().unwrap_or_default();
    let ids: Vec<i64> = visits.iter().filter_map(|v| v["IdScheduling"].as_i64()).collect();
    let mut expected = [(tuesday, kept), (wednesday, dropped)];
    expected.sort_by(|a, b| b.cmp(a));
    assert_eq!(ids, expected.iter().map(|(_, id)| *id).collect::<Vec<_>>(), "newest first");
    let first = visits.iter().find(|v| v["IdScheduling"] == json!(kept)).cloned().unwrap_or_default();
    assert_eq!(first["Services"], json!(["Corte de cabelo", "Barba"]));
    assert_eq!(first["ProfessionalName"], json!("Diego Barbeiro"));
    assert_eq!(first["CompanyName"], json!("Navalha Centro"));
    assert!(first["Value"].as_f64().is_some_and(|v| v > 0.0), "{first}");
    assert_eq!(first["Past"], json!(false));
    assert_eq!(answer.body["Cancellations"], json!(1));
    assert_eq!(answer.body["NextVisit"], json!(tuesday.to_string()));
    assert_eq!(answer.body["VisitsMade"], json!(0));
    let spent = answer.body["TotalSpent"].as_f64();
    assert!(spent.is_some_and(|v| v == 0.0 && v.is_sign_positive()), "no '-R$ 0,00': {spent:?}");
    assert_eq!(answer.body["LastVisit"], Value::Null);

    // A barber sees only their own appointments with the client; an unknown client is 404.
    let barber = system.sign_in("barbeiro2@navalha.dev").await;
    let own = system.call(Method::GET, &path, Some(&barber), None).await;
    let own_ids: Vec<i64> = own.body["Visits"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["IdScheduling"].as_i64())
        .collect();
    assert_eq!(own_ids, [dropped]);
    let missing = system.call(Method::GET, "/api/user/999999/visits", Some(&admin), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    // Past visits (issue 41): 'Realizado' only when served, its comanda closed; 'Não
    // compareceu' apart; a past one with neither is not counted as made.
    let past = navalha_harness::demo::last_open_day();
    let past_booking = |start: &str| {
        let mut booking = body(d.barber1, past, start, &[d.haircut], client);
        booking["timesType"] = json!("ALL_TIMES");
        booking
    };
    let served = id_of(&book(&system, &admin, past_booking("09:00")).await);
    let absent = id_of(&book(&system, &admin, past_booking("10:00")).await);
    let unrecorded = id_of(&book(&system, &admin, past_booking("11:00")).await);
    let post = |path: String, body: Value| {
        let (system, admin) = (&system, admin.clone());
        async move { system.call(Method::POST, &path, Some(&admin), Some(body)).await }
    };
    post("/api/caixa".into(), json!({"idCompany": d.centro, "openingCash": 0})).await;
    let opened = post("/api/comanda".into(), json!({"idCompany": d.centro, "idScheduling": served})).await;
    let comanda = opened.body["IdComanda"].as_i64().expect("comanda");
    let figures = system
        .call(Method::PUT, &format!("/api/comanda/{comanda}/discount"), Some(&admin), Some(json!({})))
        .await;
    post(
        format!("/api/comanda/{comanda}/payments"),
        json!({"method": "debit", "value": figures.body["Due"]}),
    )
    .await;
    assert_eq!(post(format!("/api/comanda/{comanda}/close"), json!({})).await.body["Status"], "CLOSED");
    post(format!("/api/scheduling/{absent}/no-show"), json!({})).await;
    system.project().await;
    let answer = system.call(Method::GET, &path, Some(&admin), None).await;
    let attendance = |id: i64| {
        answer.body["Visits"]
            .as_array()
            .and_then(|visits| visits.iter().find(|v| v["IdScheduling"] == json!(id)))
            .map(|v| v["Attendance"].clone())
    };
    assert_eq!(attendance(served), Some(json!("ATTENDED")), "{answer:?}");
    assert_eq!(attendance(absent), Some(json!("NO_SHOW")));
    assert_eq!(attendance(unrecorded), Some(Value::Null));
    assert_eq!((answer.body["VisitsMade"].clone(), answer.body["NoShows"].clone()), (json!(1), json!(1)));
    assert_eq!(answer.body["TotalSpent"], figures.body["Due"]);
    assert_eq!(answer.body["LastVisit"], json!(past.to_string()));
}
