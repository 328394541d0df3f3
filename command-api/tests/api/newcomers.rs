//! Newcomers on the public page (issue 39, point 2): made-up identities cost an attacker
//! nothing, so bookings of clients whose record was made online and not confirmed hold at
//! most the unit's share of a day, and those from one address at most two a day; staff
//! confirm a real client, and cancel a flood from one origin in one action.

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::http::{Method, StatusCode};
use chrono::{Datelike as _, NaiveDate, Weekday};
use navalha_domain::online;
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::online::{ask_code, code_for, cpf_and_email_of, identity, verify};
use crate::support::{body, demo, next, Answer, Demo, System};

/// A booking token for made-up identity `n`, asked for and used from `address`.
async fn made_up(system: &System, unit: i64, n: u64, address: &str) -> String {
    let email = format!("inventado{n}@example.com");
    let asked = ask_code(system, unit, &identity(n, &email), address).await;
    assert_eq!(asked.status, StatusCode::OK, "{:?}", asked.body);
    let code = code_for(system, &email).await;
    let verified = verify(system, unit, asked.body["RequestId"].as_str().unwrap_or_default(), &code).await;
    assert_eq!(verified.status, StatusCode::OK, "{:?}", verified.body);
    verified.body["Token"].as_str().unwrap_or_default().to_owned()
}

async fn book_from(system: &System, unit: i64, token: &str, body: Value, address: &str) -> Answer {
    let path = format!("/api/no-auth/online-booking/{unit}/scheduling");
    system.call_with(Method::POST, &path, Some(token), Some(body), &[("x-forwarded-for", address)]).await
}

/// Every free (professional, start) of a haircut in the unit on `day`, from the public
/// free times, in order of start.
async fn free_pairs(system: &System, d: &Demo, day: NaiveDate) -> Vec<(i64, String)> {
    let path =
        format!("/api/no-auth/scheduling/available-times?idCompany={}&idServices=[{}]", d.centro, d.haircut);
    let free = system.call(Method::GET, &path, None, None).await;
    let days = free.body["times"].as_array().cloned().unwrap_or_default();
    let hours = days.iter().find(|t| t["shortDate"] == day.to_string()).map(|t| t["freeHours"].clone());
    hours
        .and_then(|h| h.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|h| Some((h["idProfessional"].as_i64()?, h["start"].as_str()?.to_owned())))
        .collect()
}

fn haircut(d: &Demo, professional: i64, day: NaiveDate, start: &str) -> Value {
    json!({ "idServices": [d.haircut], "idProfessional": professional, "date": day.to_string(), "startTime": start })
}

/// Minutes newcomers hold in the unit on `day`, and how many bookings.
async fn newcomers_hold(system: &System, unit: i64, day: NaiveDate) -> (i64, i64) {
    sqlx::query_as(
        "select coalesce(sum(extract(epoch from upper(during) - lower(during)))::bigint / 60, 0), count(*)
           from appointment_slot where company_id = $1 and newcomer and lower(during)::date = $2",
    )
    .bind(unit)
    .bind(day)
    .fetch_one(&system.pool)
    .await
    .expect("newcomer slots")
}

/// The unit's working minutes on `day`, summed in SQL from the free-time templates (no day
/// off or holiday touches the demo's days): a second count of what the rule divides by.
async fn working_minutes(system: &System, unit: i64, day: NaiveDate) -> i64 {
    let counted: i64 = sqlx::query_scalar(
        "select coalesce(sum(upper(r) - lower(r)), 0)::bigint
           from rm_free_time.template t, unnest(t.free) r
          where t.company_id = $1 and t.week_day = $2",
    )
    .bind(unit)
    .bind(day.weekday().num_days_from_sunday() as i16)
    .fetch_one(&system.pool)
    .await
    .expect("templates");
    let mut conn = system.pool.acquire().await.expect("connection");
    let ruled =
        navalha_platform::calendar::unit_working_minutes(&mut conn, 1, unit, day).await.expect("rule");
    assert_eq!(ruled, counted, "the rule's measure of the day");
    counted
}

#[sqlx::test(migrations = "../migrations")]
async fn made_up_identities_take_at_most_two_bookings_per_address_and_thirty_percent_of_a_day(pool: PgPool) {
    let system = Arc::new(System::start(pool).await);
    let d = demo(&system).await;
    let day = next(Weekday::Tue);
    let working = working_minutes(&system, d.centro, day).await;
    assert!(working >= 600, "a demo day to attack: {working} minutes");
    let mut pairs = free_pairs(&system, &d, day).await.into_iter();

    // The attack the issue reports: from one address, 14 identities and 25 bookings.
    let mut accepted = 0;
    for n in 0..14 {
        let token = made_up(&system, d.centro, 1_000 + n, "198.51.100.7").await;
        for _ in 0..if n < 11 { 2 } else { 1 } {
            let (professional, start) = pairs.next().expect("a free time");
            let booked =
                book_from(&system, d.centro, &token, haircut(&d, professional, day, &start), "198.51.100.7")
                    .await;
            match booked.status {
                StatusCode::CREATED => accepted += 1,
                StatusCode::CONFLICT => {}
                other => panic!("{other}: {:?}", booked.body),
            }
        }
    }
    assert_eq!(accepted, online::NEWCOMER_BOOKINGS_PER_ADDRESS, "one address, one day");
    let refused = book_from(
        &system,
        d.centro,
        &made_up(&system, d.centro, 1_100, "198.51.100.7").await,
        haircut(&d, pairs.clone().next().expect("free").0, day, &pairs.clone().next().expect("free").1),
        "198.51.100.7",
    )
    .await;
    assert_eq!(
        (refused.status, refused.message()),
        (StatusCode::CONFLICT, online::MSG_NEWCOMER_ADDRESS_FULL)
    );

    // Then from 40 addresses at once, two bookings each, every one on a free time: the
    // newcomers' share of the day is what stops them, raced or not.
    let mut tokens = Vec::new();
    for n in 0..40u64 {
        let address = format!("203.0.113.{}", n + 1);
        tokens.push((made_up(&system, d.centro, 2_000 + n, &address).await, address));
    }
    let mut attempts = tokio::task::JoinSet::new();
    for (token, address) in tokens {
        for _ in 0..2 {
            let Some((professional, start)) = pairs.next() else { break };
            let (system, body) = (system.clone(), haircut(&d, professional, day, &start));
            let (token, address, unit) = (token.clone(), address.clone(), d.centro);
            attempts.spawn(async move { book_from(&system, unit, &token, body, &address).await });
        }
    }
    let mut messages = BTreeSet::new();
    while let Some(answer) = attempts.join_next().await {
        let answer = answer.expect("attempt");
        assert!(
            [StatusCode::CREATED, StatusCode::CONFLICT].contains(&answer.status),
            "{}: {:?}",
            answer.status,
            answer.body
        );
        if answer.status == StatusCode::CONFLICT {
            messages.insert(answer.message().to_owned());
        }
    }
    assert!(messages.contains(online::MSG_NEWCOMER_DAY_FULL), "{messages:?}");
    let (held, bookings) = newcomers_hold(&system, d.centro, day).await;
    let share = held as f64 * 100.0 / working as f64;
    println!("newcomers hold {held} of {working} working minutes ({share:.1} %) in {bookings} bookings");
    assert!(held * 100 <= working * 30, "past the share: {held} of {working}");
    assert!(held * 100 > working * 25, "the attack got what the rule leaves it: {held} of {working}");

    // A client the shop knows still books that day, through the same page.
    let (known_cpf, on_file) = cpf_and_email_of(&system, d.client).await;
    let mut known = identity(3_000, "");
    known["cpf"] = json!(known_cpf);
    let asked = ask_code(&system, d.centro, &known, "198.51.100.7").await;
    let code = code_for(&system, &on_file).await;
    let verified =
        verify(&system, d.centro, asked.body["RequestId"].as_str().unwrap_or_default(), &code).await;
    let token = verified.body["Token"].as_str().unwrap_or_default().to_owned();
    system.project().await;
    let (professional, start) =
        free_pairs(&system, &d, day).await.first().cloned().expect("a free time left");
    let booked =
        book_from(&system, d.centro, &token, haircut(&d, professional, day, &start), "198.51.100.7").await;
    assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_record_made_online_is_marked_until_staff_confirm_it_and_then_books_as_any_client(pool: PgPool) {
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let day = next(Weekday::Wed);
    let mut pairs = free_pairs(&system, &d, day).await.into_iter();
    let address = "2001:db8:7:1::10";
    let mut ids = Vec::new();
    for n in 0..2 {
        let token = made_up(&system, d.centro, 4_000 + n, address).await;
        let (professional, start) = pairs.next().expect("free");
        let booked =
            book_from(&system, d.centro, &token, haircut(&d, professional, day, &start), address).await;
        assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
        ids.push(booked.body["IdScheduling"].as_i64().expect("id"));
    }
    // Another address in the same IPv6 /64 is the same network.
    let neighbour = "2001:db8:7:1:ffff::99";
    let third = made_up(&system, d.centro, 4_002, neighbour).await;
    let (professional, start) = pairs.next().expect("free");
    let refused =
        book_from(&system, d.centro, &third, haircut(&d, professional, day, &start), neighbour).await;
    assert_eq!(
        (refused.status, refused.message()),
        (StatusCode::CONFLICT, online::MSG_NEWCOMER_ADDRESS_FULL)
    );

    // Staff see the record as made online and unconfirmed, in the list and the form.
    system.project().await;
    let client_id: i64 = sqlx::query_scalar("select client_id from rm_client.client where email = $1")
        .bind("inventado4002@example.com")
        .fetch_one(&system.pool)
        .await
        .expect("registered at the refused booking");
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let form = system.call(Method::GET, &format!("/api/user/{client_id}"), Some(&attendant), None).await;
    assert_eq!(form.body["Unconfirmed"], true, "{:?}", form.body);
    let list = system
        .call(Method::GET, "/api/user/filter?page=1&pageSize=5&search=inventado4002", Some(&attendant), None)
        .await;
    assert_eq!(list.body["content"][0]["Unconfirmed"], true, "{:?}", list.body);
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let path = format!("/api/user/{client_id}/confirm");
    assert_eq!(system.call(Method::PUT, &path, Some(&barber), None).await.status, StatusCode::FORBIDDEN);
    let confirmed = system.call(Method::PUT, &path, Some(&attendant), None).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{:?}", confirmed.body);
    system.project().await;
    let form = system.call(Method::GET, &format!("/api/user/{client_id}"), Some(&attendant), None).await;
    assert_eq!(form.body["Unconfirmed"], false);

    // Confirmed, the same client books from the same network: not a newcomer's booking.
    let booked =
        book_from(&system, d.centro, &third, haircut(&d, professional, day, &start), neighbour).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
    assert_eq!(newcomers_hold(&system, d.centro, day).await.1, 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_unit_may_close_its_days_to_newcomers_or_open_them_whole(pool: PgPool) {
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let company = system.call(Method::GET, &format!("/api/company/{}", d.centro), Some(&admin), None).await;
    assert_eq!(company.body["OnlineNewcomerSharePercent"], online::NEWCOMER_SHARE_PERCENT);
    let form = |share: Value| {
        let mut body = json!({
            "name": company.body["Name"], "cnpj": company.body["Cnpj"], "email": company.body["Email"],
            "phone": company.body["Phone"], "whatsApp": company.body["WhatsApp"], "status": true,
            "facebook": company.body["Facebook"], "instagram": company.body["Instagram"],
            "zipCode": company.body["ZipCode"], "street": company.body["Street"], "number": company.body["Number"],
            "district": company.body["District"], "city": company.body["City"], "state": company.body["State"],
        });
        body["onlineNewcomerSharePercent"] = share;
        body
    };
    let path = format!("/api/company/{}", d.centro);
    let refused = system.call(Method::PUT, &path, Some(&admin), Some(form(json!(101)))).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["errors"]["onlineNewcomerSharePercent"], online::MSG_BAD_SHARE);
    let closed = system.call(Method::PUT, &path, Some(&admin), Some(form(json!(0)))).await;
    assert_eq!(closed.status, StatusCode::OK, "{:?}", closed.body);
    system.project().await;

    let day = next(Weekday::Thu);
    let (professional, start) = free_pairs(&system, &d, day).await[0].clone();
    let token = made_up(&system, d.centro, 5_000, "192.0.2.50").await;
    let refused =
        book_from(&system, d.centro, &token, haircut(&d, professional, day, &start), "192.0.2.50").await;
    assert_eq!((refused.status, refused.message()), (StatusCode::CONFLICT, online::MSG_NEWCOMER_DAY_FULL));
    // A form that leaves the share out keeps it.
    let mut kept = form(json!(null));
    kept.as_object_mut().map(|body| body.remove("onlineNewcomerSharePercent"));
    assert_eq!(system.call(Method::PUT, &path, Some(&admin), Some(kept)).await.status, StatusCode::OK);
    system.project().await;
    let company = system.call(Method::GET, &path, Some(&admin), None).await;
    assert_eq!(company.body["OnlineNewcomerSharePercent"], 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn staff_cancel_every_online_booking_of_one_origin_and_each_client_is_told(pool: PgPool) {
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let (tuesday, wednesday) = (next(Weekday::Tue), next(Weekday::Wed));
    let mut free_tuesday = free_pairs(&system, &d, tuesday).await.into_iter().step_by(4);
    let mut free_wednesday = free_pairs(&system, &d, wednesday).await.into_iter().step_by(4);
    let flood = "198.51.100.77";
    // Two made-up clients from one address; one of them books from home too.
    let first = made_up(&system, d.centro, 6_000, flood).await;
    let second = made_up(&system, d.centro, 6_001, flood).await;
    let mut book = async |token: &str, day: NaiveDate, address: &str| {
        let (professional, start) =
            if day == tuesday { free_tuesday.next() } else { free_wednesday.next() }.expect("free");
        let booked =
            book_from(&system, d.centro, token, haircut(&d, professional, day, &start), address).await;
        assert_eq!(booked.status, StatusCode::CREATED, "{:?}", booked.body);
        booked.body["IdScheduling"].as_i64().expect("id")
    };
    let a1 = book(&first, tuesday, flood).await;
    let a2 = book(&first, wednesday, "192.0.2.1").await;
    let b1 = book(&second, tuesday, flood).await;
    system.project().await;

    let path = |id: i64| format!("/api/scheduling/{id}/cancel-online-origin");
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let by = |origin: &str| Some(json!({ "by": origin }));
    assert_eq!(
        system.call(Method::POST, &path(a1), Some(&barber), by("EMAIL")).await.status,
        StatusCode::FORBIDDEN
    );
    let missing = system.call(Method::POST, &path(a1), Some(&attendant), Some(json!({}))).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(missing.body["errors"]["by"].is_string(), "{:?}", missing.body);

    // By e-mail: the first client's two bookings, wherever they came from.
    let swept = system.call(Method::POST, &path(a1), Some(&attendant), by("EMAIL")).await;
    assert_eq!(swept.status, StatusCode::OK, "{:?}", swept.body);
    let cancelled: BTreeSet<i64> =
        swept.body["IdSchedulings"].as_array().into_iter().flatten().filter_map(Value::as_i64).collect();
    assert_eq!(cancelled, BTreeSet::from([a1, a2]));
    // By address: what is left from that address, the second client's.
    let swept = system.call(Method::POST, &path(a1), Some(&attendant), by("ADDRESS")).await;
    assert_eq!(swept.body["IdSchedulings"], json!([b1]), "{:?}", swept.body);
    let again = system.call(Method::POST, &path(a1), Some(&attendant), by("ADDRESS")).await;
    assert_eq!(again.body["Cancelled"], 0);

    // Each client is told, and the history says who cancelled and why.
    for n in [6_000, 6_001] {
        let to = format!("inventado{n}@example.com");
        let mut told = false;
        for _ in 0..100 {
            told = system.outbox().iter().any(|m| {
                m["to"] == to.as_str()
                    && m["text"].as_str().is_some_and(|t| t.contains("foi cancelado pela barbearia"))
            });
            if told {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert!(told, "{to} was not told");
    }
    let admin = system.sign_in("admin@navalha.dev").await;
    let history =
        system.call(Method::GET, &format!("/api/scheduling/{b1}/history"), Some(&admin), None).await;
    let last = history.body.as_array().and_then(|entries| entries.last().cloned()).unwrap_or_default();
    assert_eq!(last["Event"], "AppointmentCancelled", "{:?}", history.body);
    assert_eq!(last["Role"], "ATTENDANT");
    assert_eq!(last["Reason"], "agendamentos online da mesma conexão cancelados pela barbearia");

    // A staff booking is not an online one: nothing to sweep from it.
    system.project().await;
    let (professional, start) = free_pairs(&system, &d, wednesday).await[0].clone();
    let membership = if professional == d.barber1_id { d.barber1 } else { d.barber2 };
    let staff_booking = system
        .call(
            Method::POST,
            "/api/scheduling/professional",
            Some(&admin),
            Some(body(membership, wednesday, &start, &[d.haircut], d.client)),
        )
        .await;
    assert_eq!(staff_booking.status, StatusCode::CREATED, "{:?}", staff_booking.body);
    let staff_booking = staff_booking.body["IdScheduling"].as_i64().expect("id");
    let refused = system.call(Method::POST, &path(staff_booking), Some(&attendant), by("EMAIL")).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", refused.body);
}
