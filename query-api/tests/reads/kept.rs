//! Day lists and free times kept between reads (ADR 0018): served again until a projector
//! notice says the business's rows changed, never older than a position the caller waits
//! for, and kept per filters, so a barber's own list is never another's.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use chrono::{NaiveDate, Weekday};
use navalha_harness::database::demo_database;
use navalha_harness::demo::{another_business, body, book, demo, id_of, next};
use navalha_harness::in_process::{Answer, System};

/// A GET as `token` (anonymous without), waiting for `position` when given.
async fn get(system: &System, path: &str, token: Option<&str>, position: Option<&str>) -> Answer {
    let headers: Vec<(&str, &str)> = position.map(|p| ("x-navalha-position", p)).into_iter().collect();
    system.call_with(Method::GET, path, token, None, &headers).await
}

/// A GET with `Cache-Control: no-cache`.
async fn refreshed(system: &System, path: &str, token: Option<&str>) -> Answer {
    let answer = system.call_with(Method::GET, path, token, None, &[("cache-control", "no-cache")]).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    answer
}

fn day_list_path(unit: i64, day: NaiveDate) -> String {
    format!("/api/scheduling/professional?idCompany={unit}&date={day}")
}

async fn day_list(system: &System, token: &str, unit: i64, day: NaiveDate, position: Option<&str>) -> Answer {
    let answer = get(system, &day_list_path(unit, day), Some(token), position).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    answer
}

fn how(answer: &Answer) -> &str {
    answer.headers["x-navalha-answer"].to_str().expect("header")
}

fn ids(answer: &Answer) -> Vec<i64> {
    let list = answer.body.as_array().expect("a list");
    list.iter().map(|item| item["IdScheduling"].as_i64().expect("IdScheduling")).collect()
}

/// `path` read again until `done` says it is as awaited: notices reach query-api's listener
/// a moment after the projector commits.
async fn until(system: &System, path: &str, token: Option<&str>, done: impl Fn(&Answer) -> bool) -> Answer {
    for _ in 0..250 {
        let answer = get(system, path, token, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        if done(&answer) {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{path} never became as awaited");
}

#[tokio::test]
async fn a_day_list_is_kept_until_its_business_changes_and_never_older_than_a_read_after_a_write() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let desk = system.sign_in("atendente@navalha.dev").await;
    let barber2 = system.sign_in("barbeiro2@navalha.dev").await;
    let (other_admin, _, _) = another_business(&system).await;
    let day = next(Weekday::Tue);
    let first = id_of(&book(&system, &desk, body(d.barber1, day, "09:00:00", &[d.haircut], d.client)).await);
    system.project().await;

    // Read, then served as kept: the same answer.
    let read =
        until(&system, &day_list_path(d.centro, day), Some(&desk), |answer| how(answer) == "read").await;
    let kept =
        until(&system, &day_list_path(d.centro, day), Some(&desk), |answer| how(answer) == "kept").await;
    assert_eq!(kept.body, read.body);
    assert_eq!(ids(&kept), vec![first]);
    // A refresh asking for no kept answer (`Cache-Control: no-cache`) gets one read now.
    let fresh = refreshed(&system, &day_list_path(d.centro, day), Some(&desk)).await;
    assert_eq!((how(&fresh), &fresh.body), ("read", &read.body));

    // A barber's own list is its own answer, and another business's admin finds no unit,
    // though an answer for it is kept.
    let own = day_list(&system, &barber2, d.centro, day, None).await;
    assert_eq!(ids(&own), Vec::<i64>::new(), "barbeiro2 sees none of barbeiro1's");
    let foreign = system
        .call(
            Method::GET,
            &format!("/api/scheduling/professional?idCompany={}&date={day}", d.centro),
            Some(&other_admin),
            None,
        )
        .await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{foreign:?}");

    // A booking, read with its position: the answer read after it, not the one kept.
    let booked = book(&system, &desk, body(d.barber1, day, "10:00:00", &[d.haircut], d.client)).await;
    let second = id_of(&booked);
    let position = booked.headers["x-navalha-position"].to_str().expect("position").to_owned();
    system.project().await;
    let after = day_list(&system, &desk, d.centro, day, Some(&position)).await;
    assert_eq!(ids(&after), vec![first, second]);

    // Without a position, once the notice is heard, the kept answer is the new one.
    let renewed = until(&system, &day_list_path(d.centro, day), Some(&desk), |answer| {
        how(answer) == "kept" && ids(answer) == vec![first, second]
    })
    .await;
    assert_eq!(renewed.body, after.body);

    // A cancellation too.
    let cancelled =
        system.call(Method::DELETE, &format!("/api/scheduling/{second}"), Some(&desk), None).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{cancelled:?}");
    system.project().await;
    until(&system, &day_list_path(d.centro, day), Some(&desk), |answer| {
        answer.body.as_array().is_some_and(|list| {
            list.iter().any(|item| item["IdScheduling"] == second && item["Status"] == false)
        })
    })
    .await;
}

fn free_starts(answer: &Answer, day: NaiveDate, professional: i64) -> Vec<String> {
    let days = answer.body["times"].as_array().expect("times");
    days.iter()
        .filter(|entry| entry["shortDate"] == day.to_string())
        .flat_map(|entry| entry["freeHours"].as_array().expect("freeHours"))
        .filter(|hour| hour["idProfessional"] == professional)
        .map(|hour| hour["start"].as_str().expect("start").to_owned())
        .collect()
}

#[tokio::test]
async fn free_times_are_kept_until_their_business_changes_and_never_older_than_a_read_after_a_write() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let desk = system.sign_in("atendente@navalha.dev").await;
    let (other_admin, _, _) = another_business(&system).await;
    system.project().await;
    let day = next(Weekday::Wed);
    let path =
        format!("/api/no-auth/scheduling/available-times?idCompany={}&idServices=[{}]", d.centro, d.haircut);
    // Kept: the answer last read (free times are read again at each minute).
    let last_read = std::cell::RefCell::new(None);
    let read = until(&system, &path, None, |answer| {
        if how(answer) == "read" {
            *last_read.borrow_mut() = Some(answer.body.clone());
        }
        how(answer) == "kept"
    })
    .await;
    assert_eq!(Some(&read.body), last_read.borrow().as_ref());
    assert_eq!(how(&refreshed(&system, &path, None).await), "read", "no-cache: read now");

    // Another business's admin finds no such unit, though its free times are kept.
    let foreign = get(&system, &path, Some(&other_admin), None).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{foreign:?}");

    // Book barbeiro1's first free time that day; read after it, it is gone.
    let start = free_starts(&read, day, d.barber1_id).first().cloned().expect("a free time");
    let booked = book(&system, &desk, body(d.barber1, day, &start, &[d.haircut], d.client)).await;
    id_of(&booked);
    let position = booked.headers["x-navalha-position"].to_str().expect("position").to_owned();
    system.project().await;
    let after = get(&system, &path, Some(&desk), Some(&position)).await;
    assert_eq!(how(&after), "read");
    assert!(!free_starts(&after, day, d.barber1_id).contains(&start), "{start} still free");

    // Without a position, once the notice is heard, the kept answer no longer has it either.
    until(&system, &path, None, |answer| {
        how(answer) == "kept" && !free_starts(answer, day, d.barber1_id).contains(&start)
    })
    .await;
}
