//! What the agenda reads: the day list and the edit form, the audit, the past view and the
//! free start times (the `free_time` model against the rules checked one by one).

use super::*;

/// The day list reads copies of the client's and the professional's details kept on each
/// appointment (issue 15): a change to either reaches the appointments already booked, the
/// edit form agrees, and a rebuild gives the same rows.
#[tokio::test]
async fn the_day_list_follows_changes_to_the_client_and_the_professional() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = system.sign_in("atendente@navalha.dev").await;
    let tuesday = next(Weekday::Tue);
    let id =
        id_of(&book(&system, &token, body(d.barber1, tuesday, "10:00:00", &[d.haircut], d.client)).await);
    let before = day_list(&system, &token, d.centro, tuesday, "").await;
    assert_eq!(
        (before.body[0]["UserName"].clone(), before.body[0]["UserWhatsApp"].clone()),
        (json!("João Conceição"), json!(false))
    );

    let client = json!({
        "name": "João Conceição Filho", "cpf": null, "email": "joao.filho@exemplo.com",
        "phone": "(11) 9 1111-2222", "whatsApp": true, "birthDate": "1990-04-01", "status": true,
    });
    let saved =
        system.call(Method::PUT, &format!("/api/user/{}", d.client), Some(&token), Some(client)).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let mine = system.call(Method::GET, "/api/professional/my-profile", Some(&barber), None).await;
    let cpf = mine.body["Cpf"].as_str().unwrap_or_default();
    let profile = crate::professionals::professional("Diego Barbeiro Souza", cpf, "diego@navalha.dev", 0);
    let saved = system.call(Method::PUT, "/api/professional/my-profile", Some(&barber), Some(profile)).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");

    let after = day_list(&system, &token, d.centro, tuesday, "").await;
    let item = &after.body[0];
    assert_eq!(item["IdScheduling"], json!(id));
    assert_eq!(
        (item["UserName"].clone(), item["UserPhone"].clone(), item["UserWhatsApp"].clone()),
        (json!("João Conceição Filho"), json!("11911112222"), json!(true))
    );
    assert_eq!(item["ProfessionalName"], "Diego Barbeiro Souza");
    let form = system.call(Method::GET, &format!("/api/scheduling/{id}"), Some(&token), None).await;
    assert_eq!(form.body["UserName"], "João Conceição Filho");
    assert_eq!(form.body["CompanyProfessional"]["Professional"]["Name"], "Diego Barbeiro Souza");
    assert_rebuild_equals_live(&system).await;
}

#[tokio::test]
async fn the_audit_tells_an_admin_who_moved_the_appointment_and_from_where() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let leader = system.sign_in("lider@navalha.dev").await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let tuesday = next(Weekday::Tue);
    let id =
        id_of(&book(&system, &attendant, body(d.barber1, tuesday, "15:00", &[d.haircut], d.client)).await);
    let moved =
        change(&system, &leader, id, all_times(body(d.barber1, tuesday, "12:00", &[d.haircut], d.client)))
            .await;
    assert_eq!(moved.status, StatusCode::OK, "{moved:?}");
    system.call(Method::PUT, &format!("/api/scheduling/{id}/confirm"), Some(&attendant), None).await;
    cancel(&system, &admin, id).await;
    system.project().await;

    let path = format!("/api/scheduling/{id}/history");
    for token in [&attendant, &leader] {
        assert_eq!(system.call(Method::GET, &path, Some(token), None).await.status, StatusCode::FORBIDDEN);
    }
    let history = system.call(Method::GET, &path, Some(&admin), None).await;
    assert_eq!(history.status, StatusCode::OK, "{history:?}");
    let entries = history.body.as_array().cloned().unwrap_or_default();
    let events: Vec<&str> = entries.iter().filter_map(|e| e["Event"].as_str()).collect();
    assert_eq!(
        events,
        ["AppointmentBooked", "AppointmentChanged", "AppointmentConfirmed", "AppointmentCancelled"]
    );
    let who: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| (e["UserName"].as_str().unwrap_or(""), e["Role"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        who,
        [
            ("Beatriz Atendente", "ATTENDANT"),
            ("Caio Líder", "BARBER_LEADE"),
            ("Beatriz Atendente", "ATTENDANT"),
            ("Ana Administradora", "ADMIN")
        ]
    );
    let change_of = |field: &str| {
        entries[1]["Changes"].as_array().into_iter().flatten().find(|c| c["Field"] == field).cloned()
    };
    assert_eq!(change_of("start"), Some(json!({"Field": "start", "From": "15:00", "To": "12:00"})));
    assert_eq!(change_of("end"), Some(json!({"Field": "end", "From": "15:30", "To": "12:30"})));
    assert_eq!(
        change_of("times_type"),
        Some(json!({"Field": "times_type", "From": "ONLY_AVAILABLES", "To": "ALL_TIMES"})),
        "the ALL_TIMES move is on record"
    );
    assert!(change_of("client_id").is_none(), "only what changed");
    assert!(entries.iter().all(|e| e["At"].is_string()));
    let missing = system.call(Method::GET, "/api/scheduling/999999/history", Some(&admin), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_past_view_replays_the_day_as_it_stood_at_an_instant() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let (tuesday, wednesday) = (next(Weekday::Tue), next(Weekday::Wed));
    let moved_away =
        id_of(&book(&system, &admin, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);
    let moved_later =
        id_of(&book(&system, &admin, body(d.barber2, tuesday, "11:00", &[d.haircut], d.other_client)).await);
    let moved_in =
        id_of(&book(&system, &admin, body(d.barber1, wednesday, "10:00", &[d.haircut], d.client)).await);
    let past_day = |at: chrono::DateTime<chrono::Utc>, extra: &str| {
        format!("&asOf={}{extra}", crate::support::urlencode(&at.to_rfc3339()))
    };
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let first = navalha_platform::clock::now();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;

    // Then the day changes: one leaves it, one moves within it and is confirmed and
    // cancelled, one comes from another day, one is new.
    let moved =
        change(&system, &admin, moved_away, body(d.barber1, wednesday, "15:00", &[d.haircut], d.client));
    assert_eq!(moved.await.status, StatusCode::OK);
    let later =
        change(&system, &admin, moved_later, body(d.barber2, tuesday, "14:00", &[d.haircut], d.other_client));
    assert_eq!(later.await.status, StatusCode::OK);
    system.call(Method::PUT, &format!("/api/scheduling/{moved_later}/confirm"), Some(&admin), None).await;
    let came = change(&system, &admin, moved_in, body(d.barber1, tuesday, "16:00", &[d.haircut], d.client));
    assert_eq!(came.await.status, StatusCode::OK);
    let new = id_of(&book(&system, &admin, body(d.barber1, tuesday, "09:00", &[d.beard], d.client)).await);
    assert_eq!(cancel(&system, &admin, moved_later).await.status, StatusCode::OK);
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let second = navalha_platform::clock::now();

    let then = day_list(&system, &admin, d.centro, tuesday, &past_day(first, "")).await;
    assert_eq!(then.status, StatusCode::OK, "{then:?}");
    assert_eq!(ids(&then), [moved_away, moved_later], "the day as it stood at the first instant");
    assert_eq!(
        (
            then.body[1]["StartTime"].clone(),
            then.body[1]["Status"].clone(),
            then.body[1]["Confirmation"].clone()
        ),
        (json!("11:00:00"), json!(true), json!(false))
    );
    assert_eq!(then.body[1]["UserName"], json!("Pedro Henrique Lima"));
    // At the second instant the replay is the day list of now, field for field.
    let now = day_list(&system, &admin, d.centro, tuesday, "").await;
    assert_eq!(ids(&now), [new, moved_later, moved_in]);
    assert_eq!(day_list(&system, &admin, d.centro, tuesday, &past_day(second, "")).await.body, now.body);
    // The filters apply to the day as it stood.
    assert_eq!(
        ids(&day_list(&system, &admin, d.centro, tuesday, &past_day(second, "&status=2")).await),
        [moved_later]
    );
    assert_eq!(
        ids(&day_list(&system, &admin, d.centro, tuesday, &past_day(second, "&status=1")).await),
        [new, moved_in]
    );
    let barber1 = format!("&idProfessional={}", d.barber1_id);
    assert_eq!(
        ids(&day_list(&system, &admin, d.centro, tuesday, &past_day(first, &barber1)).await),
        [moved_away]
    );
    let before = navalha_platform::clock::now() - Duration::days(3650);
    assert_eq!(
        ids(&day_list(&system, &admin, d.centro, tuesday, &past_day(before, "")).await),
        Vec::<i64>::new(),
        "nothing was booked yet"
    );

    // ADMIN only, as the audit; a bad instant is a 400 on the field.
    let leader = system.sign_in("lider@navalha.dev").await;
    let path =
        |extra: &str| format!("/api/scheduling/professional?idCompany={}&date={tuesday}{extra}", d.centro);
    let forbidden = system.call(Method::GET, &path(&past_day(second, "")), Some(&leader), None).await;
    assert_eq!(forbidden.status, StatusCode::FORBIDDEN);
    let bad = system.call(Method::GET, &path("&asOf=ontem"), Some(&admin), None).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad:?}");
    assert!(bad.body.to_string().contains("asOf"), "{bad:?}");

    // A rebuilt agenda (by the projector's role, as in production) gives the same past.
    let agenda = navalha_projector::models::find("agenda").expect("model");
    navalha_projector::rebuild::rebuild(&system.projector_pool, agenda.as_ref(), false)
        .await
        .expect("rebuild");
    let rebuilt = day_list(&system, &admin, d.centro, tuesday, &past_day(first, "")).await;
    assert_eq!(ids(&rebuilt), [moved_away, moved_later], "{rebuilt:?}");
}

#[tokio::test]
async fn free_times_follow_periods_days_off_holidays_unit_hours_bookings_and_each_barbers_duration() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let (tuesday, wednesday, thursday, saturday) =
        (next(Weekday::Tue), next(Weekday::Wed), next(Weekday::Thu), next(Weekday::Sat));
    // Barber 2 takes 45 minutes for a haircut.
    let offered: i64 = sqlx::query_scalar(
        "select offered_id from rm_professional.offered_service where professional_id = $1 and service_id = $2",
    )
    .bind(d.barber2_id)
    .bind(d.haircut)
    .fetch_one(&system.pool)
    .await
    .expect("offered");
    let slower = system
        .call(
            Method::PUT,
            &format!("/api/professional-service/{offered}/professional/{}", d.barber2_id),
            Some(&admin),
            Some(json!({ "idService": d.haircut, "value": 50.0, "time": 45, "status": true })),
        )
        .await;
    assert_eq!(slower.status, StatusCode::OK, "{slower:?}");
    id_of(&book(&system, &admin, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);
    let day_off = json!({
        "description": "Consulta", "dateStart": wednesday.to_string(), "dateEnd": wednesday.to_string(),
        "allDay": false, "startTime": "14:00", "endTime": "16:00", "idProfessional": d.barber1_id,
    });
    system.call(Method::POST, "/api/day-off", Some(&admin), Some(day_off)).await;
    let holiday = json!({
        "description": "Feriado", "startDate": thursday.to_string(), "endDate": thursday.to_string(),
        "allDay": true, "startTime": null, "endTime": null, "idsCompanies": [d.centro],
    });
    system.call(Method::POST, "/api/holiday", Some(&admin), Some(holiday)).await;

    // timesType absent (the mobile flow) means ONLY_AVAILABLES; idServices as [..].
    let query = format!("idCompany={}&idServices=[{}]", d.centro, d.haircut);
    let free = free_times(&system, None, &query).await;
    assert_eq!(free.status, StatusCode::OK, "{free:?}");
    let names: Vec<&str> = free.body["professionals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["Caio Líder", "Diego Barbeiro", "Eduardo Barbeiro"], "bookable professionals only");
    let diego = &free.body["professionals"][1];
    assert_eq!(
        (diego["idCompanyProfessional"].clone(), diego["color"].clone()),
        (json!(d.barber1), json!("#FF9800"))
    );
    // Each professional's price now for the chosen services: what a move would ask about.
    let prices: Vec<f64> = free.body["professionals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["value"].as_f64())
        .collect();
    assert_eq!(prices, [55.0, 45.0, 50.0], "the demo's barbers charge their own prices");

    let tue = starts(&free, tuesday, d.barber1_id);
    assert_eq!(&tue[..4], ["09:00", "09:15", "09:30", "10:30"], "10:00-10:30 is booked");
    assert!(!tue.contains(&"11:45".to_owned()) && tue.contains(&"11:30".to_owned()), "lunch at 12:00");
    assert_eq!(tue.first().map(String::as_str), Some("09:00"));
    assert_eq!(tue.last().map(String::as_str), Some("18:30"), "the last period ends at 19:00");
    assert!(tue
        .iter()
        .all(|t| t.ends_with(":00") || t.ends_with(":15") || t.ends_with(":30") || t.ends_with(":45")));
    let eduardo = starts(&free, tuesday, d.barber2_id);
    assert_eq!(eduardo.last().map(String::as_str), Some("18:15"), "45 minutes for Eduardo");
    let first_hour = free.body["times"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|day| day["shortDate"] == json!(tuesday.to_string()))
        .map(|day| day["freeHours"][0].clone())
        .unwrap_or_default();
    assert_eq!(first_hour["end"], "09:30");
    let wed = starts(&free, wednesday, d.barber1_id);
    assert!(
        wed.contains(&"13:30".to_owned())
            && !wed.contains(&"13:45".to_owned())
            && !wed.contains(&"15:30".to_owned())
    );
    assert!(wed.contains(&"16:00".to_owned()), "after the day off");
    assert!(starts(&free, thursday, d.barber1_id).is_empty(), "holiday");
    assert!(starts(&free, next(Weekday::Mon), d.barber1_id).is_empty(), "they do not work on Mondays");
    let sat = starts(&free, saturday, d.barber1_id);
    assert!(
        sat.contains(&"20:30".to_owned()) && !sat.contains(&"20:45".to_owned()),
        "the unit closes at 21:00"
    );
    let days: Vec<String> = free.body["times"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["shortDate"].as_str().map(str::to_owned))
        .collect();
    assert!(days.len() <= 30 && days.windows(2).all(|w| w[0] < w[1]));
    assert!(!days.contains(&next(Weekday::Sun).to_string()), "closed on Sundays");

    // ALL_TIMES: lunch, days off and holidays are offered, bookings and closed hours never.
    let all =
        free_times(&system, None, &format!("{query}&timesType=ALL_TIMES&idProfessionals={}", d.barber1_id))
            .await;
    let all_tue = starts(&all, tuesday, d.barber1_id);
    assert!(all_tue.contains(&"12:00".to_owned()) && !all_tue.contains(&"10:15".to_owned()));
    assert!(starts(&all, thursday, d.barber1_id).contains(&"10:00".to_owned()));
    assert!(starts(&all, next(Weekday::Mon), d.barber1_id).contains(&"20:30".to_owned()));
    assert_eq!(all.body["professionals"].as_array().map(Vec::len), Some(1));

    // Repeated idServices; a service Diego does not offer leaves him out.
    let both = free_times(
        &system,
        None,
        &format!("idCompany={}&idServices={}&idServices={}", d.centro, d.haircut, d.pigmentation),
    )
    .await;
    let names: Vec<&str> = both.body["professionals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["Caio Líder", "Eduardo Barbeiro"]);
    assert_eq!(
        starts(&both, tuesday, d.barber2_id).last().map(String::as_str),
        Some("17:15"),
        "45 + 45 minutes, and the demo's 15-minute cleaning after a pigmentation, by 19:00"
    );

    // Editing (staff): the appointment being edited does not block its own time. Anonymous,
    // the id frees nothing: it would tell when someone else is booked.
    let edited: i64 = sqlx::query_scalar("select max(appointment_id) from rm_agenda.appointment")
        .fetch_one(&system.pool)
        .await
        .expect("id");
    let query_editing = format!("{query}&idSchedulingEdit={edited}&idProfessionals=[{}]", d.barber1_id);
    let editing = free_times(&system, Some(&admin), &query_editing).await;
    assert!(starts(&editing, tuesday, d.barber1_id).contains(&"10:00".to_owned()));
    let anonymous = free_times(&system, None, &query_editing).await;
    assert!(!starts(&anonymous, tuesday, d.barber1_id).contains(&"10:00".to_owned()));

    // A signed-in barber sees only their own free times; the leader sees everyone.
    let barber = system.sign_in("barbeiro2@navalha.dev").await;
    let own = free_times(&system, Some(&barber), &query).await;
    let ids: Vec<i64> = own.body["professionals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["idProfessional"].as_i64())
        .collect();
    assert_eq!(ids, [d.barber2_id]);
    assert!(starts(&own, tuesday, d.barber1_id).is_empty());
    let colleague =
        free_times(&system, Some(&barber), &format!("{query}&idProfessionals={}", d.barber1_id)).await;
    assert_eq!(colleague.body, json!({"professionals": [], "times": []}));
    let leader = system.sign_in("lider@navalha.dev").await;
    assert_eq!(
        free_times(&system, Some(&leader), &query).await.body["professionals"].as_array().map(Vec::len),
        Some(3)
    );

    // Bad input.
    let no_services = free_times(&system, None, &format!("idCompany={}", d.centro)).await;
    assert_eq!(
        (no_services.status, no_services.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, "Escolha pelo menos um serviço")
    );
    let bad_type = free_times(&system, None, &format!("{query}&timesType=X")).await;
    assert_eq!(bad_type.status, StatusCode::UNPROCESSABLE_ENTITY);
    let unknown = free_times(&system, None, &format!("idCompany=999&idServices={}", d.haircut)).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let forged = free_times(&system, Some("not-a-token"), &query).await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
}

/// The `free_time` model (ADR 0015) follows bookings, moves, cancellations and changes to a
/// professional's and a unit's hours: every free start time of the answer equals the rules
/// checked one by one, in both modes, and a rebuild gives the same tables.
#[tokio::test]
async fn the_free_time_model_equals_the_rules_through_bookings_moves_cancellations_and_new_hours() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let (tuesday, wednesday, friday) = (next(Weekday::Tue), next(Weekday::Wed), next(Weekday::Fri));
    let mut ids = Vec::new();
    for (membership, date, start, services) in [
        (d.barber1, tuesday, "09:00", vec![d.haircut]),
        (d.barber1, tuesday, "12:15", vec![d.haircut, d.beard]),
        (d.barber2, tuesday, "10:00", vec![d.haircut]),
        (d.barber2, wednesday, "15:40", vec![d.eyebrows]),
        (d.barber1, wednesday, "11:00", vec![d.haircut]),
        (d.barber1, friday, "17:00", vec![d.beard]),
    ] {
        ids.push(id_of(
            &book(&system, &admin, all_times(body(membership, date, start, &services, d.client))).await,
        ));
    }
    let moved =
        change(&system, &admin, ids[0], all_times(body(d.barber1, friday, "09:30", &[d.haircut], d.client)));
    assert_eq!(moved.await.status, StatusCode::OK);
    assert_eq!(cancel(&system, &admin, ids[3]).await.status, StatusCode::OK);
    // Projected apart, so that the new hours meet days already computed.
    system.project().await;
    let hours = json!({"weekDay": 2, "firstStart": "10:00", "firstEnd": "13:00", "secondStart": "14:00", "secondEnd": "17:00"});
    let path = format!("/api/professional-working-hours/professional/{}/day", d.barber1_id);
    assert_eq!(system.call(Method::PUT, &path, Some(&admin), Some(hours)).await.status, StatusCode::OK);
    let opening = json!({"weekDay": 3, "start": "11:00", "end": "16:00"});
    let path = format!("/api/company-working-hours/{}/day", d.centro);
    assert_eq!(system.call(Method::PUT, &path, Some(&admin), Some(opening)).await.status, StatusCode::OK);

    for times_type in ["ONLY_AVAILABLES", "ALL_TIMES"] {
        let query = format!("idCompany={}&idServices=[{}]&timesType={times_type}", d.centro, d.haircut);
        let free = free_times(&system, None, &query).await;
        assert_eq!(free.status, StatusCode::OK, "{free:?}");
        let professionals: Vec<i64> = free.body["professionals"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["idProfessional"].as_i64())
            .collect();
        assert_eq!(professionals.len(), 3);
        let expected =
            haircut_starts_by_the_rules(&system, &d, &professionals, times_type == "ALL_TIMES").await;
        for ((professional, date), starts_expected) in &expected {
            assert_eq!(
                &starts(&free, *date, *professional),
                starts_expected,
                "{times_type} {professional} {date}"
            );
        }
        assert!(expected.values().any(|starts| !starts.is_empty()));
    }
    let tue = starts(
        &free_times(&system, None, &format!("idCompany={}&idServices=[{}]", d.centro, d.haircut)).await,
        tuesday,
        d.barber1_id,
    );
    assert_eq!(tue.first().map(String::as_str), Some("10:00"), "the new hours");
    assert!(!tue.contains(&"12:15".to_owned()) && tue.contains(&"11:30".to_owned()), "{tue:?}");

    let dump = || async {
        sqlx::query_scalar::<_, String>(
            "select (select coalesce(string_agg(t::text, E'\\n' order by t::text), '') from rm_free_time.template t)
                 || (select coalesce(string_agg(d::text, E'\\n' order by d::text), '') from rm_free_time.day d)
                 || (select coalesce(string_agg(b::text, E'\\n' order by b::text), '') from rm_free_time.booked b)",
        )
        .fetch_one(&system.pool)
        .await
        .expect("dump")
    };
    let live = dump().await;
    let model = navalha_projector::models::find("free_time").expect("model");
    navalha_projector::rebuild::rebuild(&system.pool, model.as_ref(), false).await.expect("rebuild");
    assert_eq!(dump().await, live);
}

/// Sets barber1's 'Intervalo após' for `service`, keeping its time and price.
async fn set_interval(system: &System, admin: &str, d: &Demo, service: i64, minutes: i64) {
    let (offered, time, cents): (i64, i32, i64) = sqlx::query_as(
        "select offered_id, minutes, cents from rm_professional.offered_service
          where professional_id = $1 and service_id = $2",
    )
    .bind(d.barber1_id)
    .bind(service)
    .fetch_one(&system.pool)
    .await
    .expect("offered");
    let form = json!({"idService": service, "time": time, "value": cents as f64 / 100.0, "combo": false,
                      "status": true, "intervalAfter": minutes});
    let path = format!("/api/professional-service/{offered}/professional/{}", d.barber1_id);
    let saved = system.call(Method::PUT, &path, Some(admin), Some(form)).await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    system.project().await;
}

#[tokio::test]
async fn an_interval_after_a_service_keeps_the_professional_busy_and_is_never_offered() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    // Out of range, on its field.
    let (offered,): (i64,) = sqlx::query_as(
        "select offered_id from rm_professional.offered_service where professional_id = $1 and service_id = $2",
    )
    .bind(d.barber1_id)
    .bind(d.haircut)
    .fetch_one(&system.pool)
    .await
    .expect("offered");
    let too_long = json!({"idService": d.haircut, "time": 30, "value": 45, "combo": false, "status": true,
                          "intervalAfter": 121});
    let path = format!("/api/professional-service/{offered}/professional/{}", d.barber1_id);
    let refused = system.call(Method::PUT, &path, Some(&admin), Some(too_long)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["errors"]["intervalAfter"], "O intervalo deve ser de 0 a 120 minutos");

    set_interval(&system, &admin, &d, d.haircut, 15).await;
    let services = system
        .call(
            Method::GET,
            &format!("/api/professional-service/professional/{}", d.barber1_id),
            Some(&admin),
            None,
        )
        .await;
    let haircut =
        services.body.as_array().and_then(|list| list.iter().find(|s| s["IdService"] == d.haircut).cloned());
    assert_eq!(haircut.map(|s| s["IntervalAfter"].clone()), Some(json!(15)), "{services:?}");

    let tuesday = next(Weekday::Tue);
    let id = id_of(&book(&system, &admin, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);
    let list = day_list(&system, &admin, d.centro, tuesday, "").await;
    assert_eq!(
        (list.body[0]["EndTime"].clone(), list.body[0]["IntervalAfter"].clone()),
        (json!("10:30:00"), json!(15))
    );
    let query = format!("idCompany={}&idServices={}&idProfessionals={}", d.centro, d.eyebrows, d.barber1_id);
    let free = starts(&free_times(&system, None, &query).await, tuesday, d.barber1_id);
    assert!(!free.contains(&"10:30".to_owned()) && free.contains(&"10:45".to_owned()), "{free:?}");
    // 11:30 haircut ends at lunch (12:00), but its cleaning would not fit.
    let haircut_query =
        format!("idCompany={}&idServices={}&idProfessionals={}", d.centro, d.haircut, d.barber1_id);
    let free_haircut = starts(&free_times(&system, None, &haircut_query).await, tuesday, d.barber1_id);
    assert!(
        free_haircut.contains(&"11:15".to_owned()) && !free_haircut.contains(&"11:30".to_owned()),
        "{free_haircut:?}"
    );
    let inside =
        book(&system, &admin, body(d.barber1, tuesday, "10:30", &[d.eyebrows], d.other_client)).await;
    assert_eq!(
        (inside.status, inside.message()),
        (StatusCode::CONFLICT, "Horário indisponível: o profissional já tem um agendamento neste horário.")
    );
    id_of(&book(&system, &admin, body(d.barber1, tuesday, "10:45", &[d.eyebrows], d.other_client)).await);
    // The client has left: another professional may take them at 10:30.
    id_of(&book(&system, &admin, body(d.barber2, tuesday, "10:30", &[d.eyebrows], d.client)).await);
    // PostgreSQL keeps the interval too: the professional's slot runs to 10:45.
    let during: String =
        sqlx::query_scalar("select during::text from appointment_slot where appointment_id = $1")
            .bind(id.to_string())
            .fetch_one(&system.pool)
            .await
            .expect("slot");
    assert_eq!(during, format!("[\"{tuesday} 10:00:00\",\"{tuesday} 10:45:00\")"));
}

/// The most reported bug of booking software: a time offered that the booking then refuses.
/// Random days of bookings with intervals after services; on each, every start of the day
/// is tried, and exactly the offered ones are accepted.
#[tokio::test]
async fn every_offered_start_is_accepted_and_every_refused_one_was_not_offered() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    set_interval(&system, &admin, &d, d.haircut, 15).await;
    set_interval(&system, &admin, &d, d.beard, 10).await;
    let mut seed: u64 = 0x5eed_2026;
    let mut random = move |bound: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % bound
    };
    let choices = [vec![d.haircut], vec![d.beard], vec![d.eyebrows], vec![d.haircut, d.beard]];
    let probe_client = d.other_client;
    for round in 0..4 {
        let date = next(Weekday::Tue) + chrono::Duration::weeks(round);
        // A random day: some bookings at random starts (those refused are simply not there).
        for _ in 0..6 {
            let minutes = 9 * 60 + random(40) * 15;
            let start = format!("{:02}:{:02}", minutes / 60, minutes % 60);
            let services = &choices[random(choices.len() as u64) as usize];
            book(&system, &admin, body(d.barber1, date, &start, services, d.client)).await;
        }
        let services = &choices[random(choices.len() as u64) as usize];
        let ids: Vec<String> = services.iter().map(i64::to_string).collect();
        let query =
            format!("idCompany={}&idServices={}&idProfessionals={}", d.centro, ids.join(","), d.barber1_id);
        let offered = starts(&free_times(&system, None, &query).await, date, d.barber1_id);
        let mut accepted = Vec::new();
        for minutes in (8 * 60..21 * 60).step_by(15) {
            let start = format!("{:02}:{:02}", minutes / 60, minutes % 60);
            let tried = book(&system, &admin, body(d.barber1, date, &start, services, probe_client)).await;
            if tried.status == StatusCode::CREATED {
                accepted.push(start);
                let id = tried.body["IdScheduling"].as_i64().unwrap_or_default();
                assert_eq!(cancel(&system, &admin, id).await.status, StatusCode::OK);
            } else {
                assert_eq!(tried.status, StatusCode::CONFLICT, "{tried:?}");
            }
        }
        assert!(!offered.is_empty(), "round {round}: a day with some time free");
        assert_eq!(offered, accepted, "round {round}, services {services:?}");
    }
}

#[tokio::test]
async fn the_grid_reads_opening_hours_holidays_and_who_works_when() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let tuesday = next(Weekday::Tue);
    let thursday = tuesday + chrono::Duration::days(2);
    let holiday = json!({
        "description": "Feriado municipal", "startDate": thursday.to_string(), "endDate": thursday.to_string(),
        "allDay": false, "startTime": "14:00", "endTime": "18:00", "idsCompanies": [d.centro],
    });
    assert_eq!(
        system.call(Method::POST, "/api/holiday", Some(&admin), Some(holiday)).await.status,
        StatusCode::CREATED
    );
    system.project().await;
    let week = |token: &str, company: i64, days: i64| {
        let last = tuesday + chrono::Duration::days(days - 1);
        let path = format!("/api/scheduling/company/{company}/working-times?date={tuesday}&dateEnd={last}");
        let token = token.to_owned();
        let system = &system;
        async move { system.call(Method::GET, &path, Some(&token), None).await }
    };
    let answer = week(&admin, d.centro, 7).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    let days = answer.body.as_array().cloned().unwrap_or_default();
    assert_eq!(days.len(), 7);
    assert_eq!(days[0]["Date"], json!(tuesday.to_string()));
    assert_eq!(days[0]["Opening"], json!({"Start": "09:00", "End": "21:00"}));
    let diego = days[0]["Professionals"]
        .as_array()
        .and_then(|list| list.iter().find(|p| p["IdProfessional"] == d.barber1_id).cloned())
        .expect("Diego works in Centro");
    assert_eq!(
        diego["Working"],
        json!([{"Start": "09:00", "End": "12:00"}, {"Start": "13:00", "End": "19:00"}]),
        "the lunch break is the gap"
    );
    assert_eq!(
        days[2]["Holidays"],
        json!([{"Description": "Feriado municipal", "Window": {"Start": "14:00", "End": "18:00"}}])
    );
    assert_eq!(days[0]["Holidays"], json!([]));
    // A window over several days runs from the first day's start to the last day's end, as
    // bookings are refused.
    let long = json!({
        "description": "Congresso", "startDate": tuesday.to_string(),
        "endDate": (tuesday + chrono::Duration::days(2)).to_string(),
        "allDay": false, "startTime": "15:00", "endTime": "10:00", "idsCompanies": [d.centro],
    });
    let created = system.call(Method::POST, "/api/holiday", Some(&admin), Some(long)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{created:?}");
    system.project().await;
    let three = week(&admin, d.centro, 3).await.body.as_array().cloned().unwrap_or_default();
    let congress = |day: &Value| {
        let holidays = day["Holidays"].as_array().cloned().unwrap_or_default();
        holidays.iter().find(|h| h["Description"] == "Congresso").map(|h| h["Window"].clone())
    };
    assert_eq!(congress(&three[0]), Some(json!({"Start": "15:00", "End": "24:00"})));
    assert_eq!(congress(&three[1]), Some(Value::Null), "the whole middle day");
    assert_eq!(congress(&three[2]), Some(json!({"Start": "00:00", "End": "10:00"})));
    let sunday =
        days.iter().find(|day| day["Date"] == json!((tuesday + chrono::Duration::days(5)).to_string()));
    assert_eq!(sunday.map(|day| day["Opening"].clone()), Some(Value::Null), "closed on Sundays");

    // A barber sees their own periods; another unit is not theirs; a week at most.
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let own = week(&barber, d.centro, 1).await;
    let ids: Vec<i64> = own.body[0]["Professionals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["IdProfessional"].as_i64())
        .collect();
    assert_eq!(ids, [d.barber1_id]);
    assert_eq!(week(&barber, d.savassi, 1).await.status, StatusCode::NOT_FOUND);
    assert_eq!(week(&admin, d.centro, 8).await.status, StatusCode::BAD_REQUEST);
}
