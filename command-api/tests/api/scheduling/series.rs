//! Regulars' series (issue 45 point 4): checked date by date with the booking's own rules,
//! booked whole or not at all, kept by moves, cancelled from one on or all.

use super::*;

fn series(booking: Value, every_weeks: i64, count: i64) -> Value {
    let mut body = booking;
    body["repeat"] = json!({ "everyWeeks": every_weeks, "count": count });
    body
}

fn occurrences(list: &[(NaiveDate, &str)]) -> Value {
    json!(list
        .iter()
        .map(|(date, start)| json!({ "date": date.to_string(), "startTime": start }))
        .collect::<Vec<_>>())
}

/// `(series id, index, count, every_weeks)` of each appointment booked in the series.
async fn links(system: &System, series_id: i64) -> Vec<(i64, i64, i64, i64)> {
    sqlx::query_as(
        "select (s ->> 'id')::bigint, (s ->> 'index')::bigint, (s ->> 'count')::bigint, (s ->> 'every_weeks')::bigint
           from (select payload -> 'AppointmentBooked' -> 'series' as s from events
                  where aggregate_type = 'Appointment' and event_type = 'AppointmentBooked'
                    and payload -> 'AppointmentBooked' -> 'series' ->> 'id' = $1
                  order by aggregate_id::bigint) linked",
    )
    .bind(series_id.to_string())
    .fetch_all(&system.pool)
    .await
    .expect("links")
}

async fn appointment_events(system: &System) -> i64 {
    sqlx::query_scalar("select count(*) from events where aggregate_type = 'Appointment'")
        .fetch_one(&system.pool)
        .await
        .expect("count")
}

#[tokio::test]
async fn a_series_is_checked_date_by_date_booked_whole_kept_by_moves_and_cancelled_from_one_on() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let first = crate::support::far_tuesday();
    let week = |n: i64| first + Duration::weeks(n);
    // The third Tuesday is taken at 10:00; the second is a holiday at Centro.
    id_of(&book(&system, &admin, body(d.barber1, week(2), "10:00", &[d.haircut], d.other_client)).await);
    let holiday = json!({
        "description": "Feriado municipal", "startDate": week(1).to_string(), "endDate": week(1).to_string(),
        "allDay": true, "startTime": null, "endTime": null, "idsCompanies": [d.centro],
    });
    let created = system.call(Method::POST, "/api/holiday", Some(&admin), Some(holiday)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    system.project().await;

    let form = body(d.barber1, first, "10:00", &[d.haircut], d.client);
    let check =
        |body: Value| system.call(Method::POST, "/api/scheduling/series/check", Some(&admin), Some(body));
    let checked = check(series(form.clone(), 1, 4)).await;
    assert_eq!(checked.status, StatusCode::OK, "{checked:?}");
    let rows = checked.body.as_array().expect("occurrences");
    let seen: Vec<(String, String, bool)> = rows
        .iter()
        .map(|r| {
            (
                r["Date"].as_str().unwrap_or_default().to_owned(),
                r["StartTime"].as_str().unwrap_or_default().to_owned(),
                r["Free"] == true,
            )
        })
        .collect();
    assert_eq!(
        seen,
        (0..4).map(|n| (week(n).to_string(), "10:00".to_owned(), n != 1 && n != 2)).collect::<Vec<_>>()
    );
    assert_eq!(rows[0]["EndTime"], "10:30");
    assert_eq!(rows[1]["Reason"], "O profissional não atende neste horário (folga, férias ou feriado).");
    assert_eq!(
        rows[2]["Reason"],
        "Horário indisponível: o profissional já tem um agendamento neste horário."
    );
    // Another time for the taken date is checked as chosen.
    let mut moved = series(form.clone(), 1, 4);
    moved["occurrences"] = occurrences(&[(week(2), "11:00")]);
    let rechecked = check(moved).await;
    assert_eq!(
        (rechecked.body[2]["StartTime"].clone(), rechecked.body[2]["Free"].clone()),
        (json!("11:00"), json!(true))
    );

    // The form and the repetition are checked with their messages.
    let wrong = check(series(form.clone(), 9, 4)).await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(wrong.body["errors"]["repeat.everyWeeks"], "Repita a cada 1 a 8 semanas.");
    let mut stray = series(form.clone(), 1, 4);
    stray["occurrences"] = occurrences(&[(first + Duration::days(1), "10:00")]);
    let stray = check(stray).await;
    assert_eq!(stray.body["errors"]["occurrences"], "Esta data não pertence à série.");

    // Booking the clashing dates as they are is refused, naming the date, and writes nothing.
    let before = appointment_events(&system).await;
    let mut clash = series(form.clone(), 1, 4);
    clash["occurrences"] = occurrences(&[(week(0), "10:00"), (week(2), "10:00"), (week(3), "10:00")]);
    let refused = system.call(Method::POST, "/api/scheduling/series", Some(&admin), Some(clash)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{refused:?}");
    let message = refused.body["errors"]["occurrences"].as_str().expect("occurrences");
    assert!(message.starts_with(&week(2).format("%d/%m/%Y").to_string()), "{message}");
    assert_eq!(appointment_events(&system).await, before, "nothing written");

    // The holiday skipped and the taken date at 11:00: three appointments, one series.
    let mut chosen = series(form.clone(), 1, 4);
    chosen["occurrences"] = occurrences(&[(week(0), "10:00"), (week(2), "11:00"), (week(3), "10:00")]);
    let booked = system.call(Method::POST, "/api/scheduling/series", Some(&admin), Some(chosen)).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{booked:?}");
    let ids: Vec<i64> =
        booked.body["IdsScheduling"].as_array().expect("ids").iter().filter_map(Value::as_i64).collect();
    let series_id = booked.body["IdSeries"].as_i64().expect("series");
    assert_eq!((ids.len(), ids[0]), (3, series_id));
    assert_eq!(
        links(&system, series_id).await,
        [(series_id, 1, 3, 1), (series_id, 2, 3, 1), (series_id, 3, 3, 1)]
    );
    system.project().await;
    let day = day_list(&system, &admin, d.centro, week(2), "").await;
    let second =
        day.body.as_array().expect("day").iter().find(|item| item["IdScheduling"] == ids[1]).cloned();
    let second = second.unwrap_or_else(|| panic!("{day:?}"));
    assert_eq!(second["StartTime"], "11:00:00");
    assert_eq!(second["Series"], json!({"IdSeries": series_id, "Index": 2, "Count": 3, "EveryWeeks": 1}));

    // A move keeps the appointment in its series.
    let moved =
        change(&system, &admin, ids[0], body(d.barber1, week(0), "15:00", &[d.haircut], d.client)).await;
    assert_eq!(moved.status, StatusCode::OK, "{moved:?}");
    let kept: Value = sqlx::query_scalar(
        "select payload -> 'AppointmentChanged' -> 'series' from events
          where aggregate_type = 'Appointment' and aggregate_id = $1 and event_type = 'AppointmentChanged'",
    )
    .bind(ids[0].to_string())
    .fetch_one(&system.pool)
    .await
    .expect("changed");
    assert_eq!(kept["index"], 1);

    // Cancelling: a colleague may not, a wrong scope is named, then this and the following.
    let colleague = system.sign_in("barbeiro2@navalha.dev").await;
    let cancel_series = |id: i64, scope: &str, token: String| {
        let system = &system;
        let path = format!("/api/scheduling/{id}/series?scope={scope}");
        async move { system.call(Method::DELETE, &path, Some(&token), None).await }
    };
    assert_eq!(cancel_series(ids[1], "following", colleague).await.status, StatusCode::FORBIDDEN);
    let bad = cancel_series(ids[1], "some", admin.clone()).await;
    assert_eq!(
        (bad.status, bad.body["errors"]["scope"].is_string()),
        (StatusCode::UNPROCESSABLE_ENTITY, true)
    );
    let following = cancel_series(ids[1], "following", admin.clone()).await;
    assert_eq!(following.status, StatusCode::OK, "{following:?}");
    assert_eq!(following.body["IdsScheduling"], json!([ids[1], ids[2]]));
    let rest = cancel_series(ids[0], "all", admin.clone()).await;
    assert_eq!(rest.body["IdsScheduling"], json!([ids[0]]), "the others were cancelled already");
    let alone =
        id_of(&book(&system, &admin, body(d.barber1, week(5), "10:00", &[d.haircut], d.client)).await);
    let lonely = cancel_series(alone, "all", admin.clone()).await;
    assert_eq!(
        (lonely.status, lonely.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, "Este agendamento não faz parte de uma série.")
    );
}

/// Every occurrence or none: a single booking racing a series for one of its times leaves
/// either the whole series or the single booking, never a series with a hole.
#[tokio::test]
async fn a_series_racing_a_booking_for_one_of_its_times_is_booked_whole_or_not_at_all() {
    let pool = demo_database().await;
    let system = Arc::new(System::start(pool).await);
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let first = crate::support::far_tuesday();
    for (round, start) in ["10:00", "11:00", "14:00", "15:00"].into_iter().enumerate() {
        let form = series(all_times(body(d.barber1, first, start, &[d.haircut], d.client)), 1, 3);
        let single =
            all_times(body(d.barber1, first + Duration::weeks(2), start, &[d.haircut], d.other_client));
        let (series_answer, single_answer) = tokio::join!(
            system.call(Method::POST, "/api/scheduling/series", Some(&admin), Some(form)),
            book(&system, &admin, single),
        );
        let series_won = series_answer.status == StatusCode::CREATED;
        let single_won = single_answer.status == StatusCode::CREATED;
        assert!(series_won != single_won, "exactly one wins: {series_answer:?} {single_answer:?}");
        let booked_in_series: i64 = sqlx::query_scalar(
            "select count(*) from events where aggregate_type = 'Appointment' and event_type = 'AppointmentBooked'
                and payload -> 'AppointmentBooked' ->> 'start' = $1 and payload -> 'AppointmentBooked' ? 'series'",
        )
        .bind(start)
        .fetch_one(&system.pool)
        .await
        .expect("count");
        assert_eq!(booked_in_series, if series_won { 3 } else { 0 }, "round {round}");
    }
}

#[tokio::test]
async fn this_and_the_following_move_together_each_checked_or_none_moves() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let first = crate::support::far_tuesday();
    let week = |n: i64| first + Duration::weeks(n);
    let form = all_times(body(d.barber1, first, "10:00", &[d.haircut], d.client));
    let booked =
        system.call(Method::POST, "/api/scheduling/series", Some(&admin), Some(series(form, 1, 4))).await;
    assert_eq!(booked.status, StatusCode::CREATED, "{booked:?}");
    let ids: Vec<i64> =
        booked.body["IdsScheduling"].as_array().expect("ids").iter().filter_map(Value::as_i64).collect();
    // The fourth Wednesday at 15:00 is taken.
    let wednesday = |n: i64| week(n) + Duration::days(1);
    id_of(
        &book(
            &system,
            &admin,
            all_times(body(d.barber1, wednesday(3), "15:00", &[d.haircut], d.other_client)),
        )
        .await,
    );
    let change = |id: i64, scope: &str, body: Value| {
        let system = &system;
        let (path, token) = (format!("/api/scheduling/{id}/series?scope={scope}"), admin.clone());
        async move { system.call(Method::PUT, &path, Some(&token), Some(body)).await }
    };
    let starts = || async {
        let mut found = Vec::new();
        for id in &ids {
            let (date, start): (String, String) = sqlx::query_as(
                "select payload -> coalesce(case when event_type = 'AppointmentChanged' then 'AppointmentChanged' end, 'AppointmentBooked') ->> 'date',
                        payload -> coalesce(case when event_type = 'AppointmentChanged' then 'AppointmentChanged' end, 'AppointmentBooked') ->> 'start'
                   from events where aggregate_type = 'Appointment' and aggregate_id = $1
                    and event_type in ('AppointmentBooked', 'AppointmentChanged')
                  order by sequence desc limit 1",
            )
            .bind(id.to_string())
            .fetch_one(&system.pool)
            .await
            .expect("booking");
            found.push((date, start));
        }
        found
    };
    let before = starts().await;
    let clash = change(
        ids[1],
        "following",
        all_times(body(d.barber1, wednesday(1), "15:00", &[d.haircut], d.client)),
    )
    .await;
    assert_eq!(clash.status, StatusCode::CONFLICT, "{clash:?}");
    let message = clash.body["errors"]["occurrences"].as_str().expect("occurrences");
    assert!(message.starts_with(&wednesday(3).format("%d/%m/%Y").to_string()), "{message}");
    assert_eq!(starts().await, before, "none moved");

    let moved = change(
        ids[1],
        "following",
        all_times(body(d.barber1, wednesday(1), "14:00", &[d.haircut], d.client)),
    )
    .await;
    assert_eq!(moved.status, StatusCode::OK, "{moved:?}");
    assert_eq!(moved.body["IdsScheduling"], json!([ids[1], ids[2], ids[3]]));
    let after = starts().await;
    assert_eq!(after[0], before[0], "the first stays");
    for n in 1..4 {
        assert_eq!(after[n as usize], (wednesday(n).to_string(), "14:00".to_owned()), "occurrence {n}");
    }
    let lonely = id_of(
        &book(&system, &admin, all_times(body(d.barber1, week(8), "10:00", &[d.haircut], d.client))).await,
    );
    let refused =
        change(lonely, "all", all_times(body(d.barber1, week(8), "11:00", &[d.haircut], d.client))).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
}
