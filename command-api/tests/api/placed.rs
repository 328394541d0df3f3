//! Issue 38: a shop's day at the instants where scheduling products break: just before and
//! after midnight on a Saturday night, the last minutes of a month and of a year, 29
//! February. Each test runs in a process of its own (cargo nextest) placed there before
//! anything reads the clock (ADR 0021); `./navalha test --at` places the whole suite.

use axum::http::{Method, StatusCode};
use chrono::{NaiveDate, Timelike};
use navalha_platform::clock::{now_in, DEFAULT_TIME_ZONE};
use serde_json::Value;
use sqlx::PgPool;

use crate::support::{body, book, demo, id_of, place_at, today, System};

/// The day at `wall`: what the free times offer, what a booking may take, what the agenda
/// and the home show, all on the placed clock.
async fn a_day_at(pool: PgPool, wall: &str) {
    place_at(wall);
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let placed: NaiveDate = wall[..10].parse().expect("date");
    assert_eq!(today(), placed, "the demo's today is the placed day");

    // The free times start today at the earliest, and today's after the current minute.
    system.project().await;
    let now = now_in(DEFAULT_TIME_ZONE);
    let query = format!("idCompany={}&idServices=[{}]", d.centro, d.haircut);
    let free = system
        .call(Method::GET, &format!("/api/no-auth/scheduling/available-times?{query}"), None, None)
        .await;
    assert_eq!(free.status, StatusCode::OK, "{free:?}");
    let mut first: Option<(NaiveDate, String)> = None;
    for day in free.body["times"].as_array().into_iter().flatten() {
        let date: NaiveDate = day["shortDate"].as_str().unwrap_or_default().parse().expect("shortDate");
        assert!(date >= now.date(), "{date} offered at {now}");
        for hour in day["freeHours"].as_array().into_iter().flatten() {
            let start = hour["start"].as_str().unwrap_or_default().to_owned();
            if date == now.date() {
                let minutes: u32 =
                    start[..2].parse::<u32>().unwrap_or(0) * 60 + start[3..5].parse::<u32>().unwrap_or(0);
                assert!(minutes > now.hour() * 60 + now.minute(), "{start} offered today at {now}");
            }
            if first.is_none() && hour["idProfessional"] == d.barber1_id {
                first = Some((date, start));
            }
        }
    }
    let (date, start) = first.expect("a free time of the barber in the window");

    // The first free time books; the current day's midnight is past and refused.
    let booked = book(&system, &admin, body(d.barber1, date, &start, &[d.haircut], d.client)).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{date} {start}: {booked:?}");
    let id = id_of(&booked);
    let midnight = book(&system, &admin, body(d.barber1, now.date(), "00:00", &[d.haircut], d.client)).await;
    assert_eq!(midnight.status, StatusCode::UNPROCESSABLE_ENTITY, "{midnight:?}");
    assert_eq!(midnight.body["errors"]["startTime"], "Não é possível agendar em um horário passado");

    // The agenda of the booked day holds it; the home's today is the placed day.
    system.project().await;
    let day = system
        .call(
            Method::GET,
            &format!("/api/scheduling/professional?idCompany={}&date={date}", d.centro),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(day.status, StatusCode::OK, "{day:?}");
    assert!(day.body.as_array().into_iter().flatten().any(|a| a["IdScheduling"] == id), "{day:?}");
    let home = system
        .call(Method::GET, &format!("/api/dashboard?period=today&idCompany={}", d.centro), Some(&admin), None)
        .await;
    assert_eq!(home.status, StatusCode::OK, "{home:?}");
    assert_eq!(home.body["Start"], Value::from(now_in(DEFAULT_TIME_ZONE).date().to_string()), "{home:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_saturday_two_minutes_before_sunday(pool: PgPool) {
    a_day_at(pool, "2026-11-28 23:58").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_sunday_just_after_midnight(pool: PgPool) {
    a_day_at(pool, "2026-11-29 00:01").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_last_minutes_of_a_month(pool: PgPool) {
    a_day_at(pool, "2026-11-30 23:58").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_last_minutes_of_a_year(pool: PgPool) {
    a_day_at(pool, "2026-12-31 23:58").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_29th_of_february(pool: PgPool) {
    a_day_at(pool, "2028-02-29 00:01").await;
}
