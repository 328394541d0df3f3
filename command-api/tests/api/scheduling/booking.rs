//! Booking, moving, confirming and cancelling: the form's rules, ONLY_AVAILABLES and
//! ALL_TIMES, who may do what, the booking window, idempotent retries.

use super::*;

#[tokio::test]
async fn a_booking_ends_after_its_services_and_shows_in_the_day_list_and_the_edit_form() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = system.sign_in("atendente@navalha.dev").await;
    let tuesday = next(Weekday::Tue);
    let mut request = body(d.barber1, tuesday, "10:00:00", &[d.haircut, d.eyebrows], d.client);
    request["observation"] = json!("  Degradê baixo  ");
    let booked = book(&system, &token, request).await;
    let id = id_of(&booked);
    assert!(booked.headers.contains_key("x-navalha-position"));

    let list = day_list(&system, &token, d.centro, tuesday, "").await;
    assert_eq!(list.status, StatusCode::OK, "{list:?}");
    let item = &list.body[0];
    assert_eq!(item["IdScheduling"], json!(id));
    assert_eq!(item["IdProfessional"], json!(d.barber1_id));
    assert_eq!((item["StartTime"].clone(), item["EndTime"].clone()), (json!("10:00:00"), json!("10:45:00")));
    assert_eq!(item["Services"], json!(["Corte de cabelo", "Sobrancelha"]));
    assert_eq!(item["Observation"], "Degradê baixo");
    assert_eq!(item["UserName"], "João Conceição");
    assert_eq!(item["UserPhone"], "11987650100");
    assert_eq!(item["UserWhatsApp"], json!(false), "the first demo client's phone is not WhatsApp");
    assert_eq!(item["ProfessionalName"], "Diego Barbeiro");
    assert_eq!(item["ProfessionalColor"], "#FF9800");
    assert_eq!((item["Status"].clone(), item["Confirmation"].clone()), (json!(true), json!(false)));
    assert_eq!(item["SubscriptionUser"], json!([]));

    let form = system.call(Method::GET, &format!("/api/scheduling/{id}"), Some(&token), None).await;
    assert_eq!(form.status, StatusCode::OK, "{form:?}");
    assert_eq!(form.body["IdCompanyProfessional"], json!(d.barber1));
    assert_eq!(form.body["CompanyProfessional"]["Professional"]["IdProfessional"], json!(d.barber1_id));
    assert_eq!(form.body["CompanyProfessional"]["Company"]["IdCompany"], json!(d.centro));
    assert_eq!(form.body["Date"], json!(tuesday.to_string()));
    assert_eq!(form.body["EndTime"], "10:45:00");
    let services: Vec<i64> = form.body["SchedulingServices"]
        .as_array()
        .map(|list| list.iter().filter_map(|s| s["IdService"].as_i64()).collect())
        .unwrap_or_default();
    assert_eq!(services, [d.haircut, d.eyebrows]);
    assert_eq!(form.body["IdUser"], json!(d.client));
    assert_eq!(form.body["Observation"], "Degradê baixo");

    // The day list accepts the date as an ISO date-time too (a picker's local midnight).
    let iso = day_list(&system, &token, d.centro, tuesday, "").await;
    let iso_path =
        format!("/api/scheduling/professional?idCompany={}&date={tuesday}T03:00:00.000Z", d.centro);
    let by_iso = system.call(Method::GET, &iso_path, Some(&token), None).await;
    assert_eq!(ids(&by_iso), ids(&iso));
    let missing = system.call(Method::GET, "/api/scheduling/999999", Some(&token), None).await;
    assert_eq!((missing.status, missing.message()), (StatusCode::NOT_FOUND, "Agendamento não encontrado."));
}

#[tokio::test]
async fn the_form_is_checked_field_by_field_with_clear_messages() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = system.sign_in("admin@navalha.dev").await;
    let empty = book(&system, &token, json!({})).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY, "{empty:?}");
    let errors = &empty.body["errors"];
    assert_eq!(errors["idCompanyProfessional"], "Escolha o profissional");
    assert_eq!(errors["date"], "Digite uma data válida");
    assert_eq!(errors["startTime"], "Escolha o horário");
    assert_eq!(errors["idServices"], "Escolha pelo menos um serviço");
    assert_eq!(errors["idUser"], "Escolha o cliente");

    let tuesday = next(Weekday::Tue);
    let mut bad = body(d.barber1, tuesday, "25:00", &[d.haircut], d.client);
    bad["timesType"] = json!("SOMETIMES");
    let refused = book(&system, &token, bad).await;
    assert_eq!(refused.body["errors"]["startTime"], "Formato incorreto.");
    assert_eq!(
        refused.body["errors"]["timesType"],
        "Tipo de horário inválido: use ONLY_AVAILABLES ou ALL_TIMES"
    );

    let cases = [
        (
            body(d.barber1, tuesday, "10:00", &[d.haircut], d.inactive_client),
            "idUser",
            "Cliente não encontrado ou inativo",
        ),
        (
            body(d.barber1, tuesday, "10:00", &[d.haircut], 999_999),
            "idUser",
            "Cliente não encontrado ou inativo",
        ),
        (
            body(d.barber1, tuesday, "10:00", &[d.pigmentation], d.client),
            "idServices",
            "Serviço indisponível para este profissional",
        ),
        (
            body(d.barber1, tuesday, "10:00", &[999], d.client),
            "idServices",
            "Serviço indisponível para este profissional",
        ),
        (
            body(999_999, tuesday, "10:00", &[d.haircut], d.client),
            "idCompanyProfessional",
            "Profissional não encontrado nesta unidade",
        ),
        (
            body(d.barber1, tuesday, "23:45", &[d.haircut], d.client),
            "startTime",
            "O atendimento precisa terminar até 23:59",
        ),
    ];
    for (request, field, message) in cases {
        let answer = book(&system, &token, request).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{answer:?}");
        assert_eq!(answer.body["errors"][field], message, "{answer:?}");
    }
    let malformed = system
        .send_raw(Method::POST, "/api/scheduling/professional", &token, "application/json", b"{".to_vec())
        .await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    let events: i64 = sqlx::query_scalar("select count(*) from events where aggregate_type = 'Appointment'")
        .fetch_one(&system.pool)
        .await
        .expect("count");
    assert_eq!(events, 0, "nothing refused was written");
}

/// A membership's owner is kept once read (issue 15): whether the membership still holds is
/// read from the professional's stream on every booking, so one dropped after a booking
/// warmed the map is refused all the same, and its new unit's membership is bookable.
#[tokio::test]
async fn a_membership_kept_from_an_earlier_booking_is_refused_once_dropped() {
    let pool = demo_database().await;
    use navalha_domain::professional::{Membership, Professional, ProfessionalCommand};

    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let tuesday = next(Weekday::Tue);
    let first = book(&system, &admin, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await;
    assert_eq!(first.status, StatusCode::CREATED, "{first:?}");

    // The professional leaves Centro for Savassi, as the admin's form would do it.
    let business = navalha_command_api::seed::DEMO_BUSINESS_ID;
    let professional_id = d.barber1_id.to_string();
    let professional: Professional =
        navalha_command_api::commands::load(&system.state.events, business, &professional_id)
            .await
            .expect("load");
    let mut employment = professional.employment().cloned().expect("employed");
    let savassi_membership =
        navalha_command_api::commands::next_id(&system.pool, "company_professional_id_seq")
            .await
            .expect("id");
    employment.memberships = vec![Membership { id: savassi_membership, company_id: d.savassi }];
    execute::<Professional>(
        &system.state.events,
        &professional_id,
        ProfessionalCommand::UpdateEmployment(employment),
        &EventMetadata::system("teste", business),
    )
    .await
    .expect("moved");
    system.project().await;

    let refused = book(&system, &admin, body(d.barber1, tuesday, "11:00", &[d.haircut], d.client)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{refused:?}");
    assert_eq!(refused.body["errors"]["idCompanyProfessional"], "Profissional não encontrado nesta unidade");
    let moved =
        book(&system, &admin, body(savassi_membership, tuesday, "11:00", &[d.haircut], d.client)).await;
    assert_eq!(moved.status, StatusCode::CREATED, "{moved:?}");
    assert!(id_of(&moved) > id_of(&first), "ids handed out in order: {first:?} {moved:?}");
}

#[tokio::test]
async fn only_available_times_follow_hours_days_off_holidays_and_bookings_and_all_times_only_bookings() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let (tuesday, wednesday, thursday) = (next(Weekday::Tue), next(Weekday::Wed), next(Weekday::Thu));
    let first =
        id_of(&book(&system, &admin, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);

    let refusals = [
        (
            body(d.barber1, tuesday, "10:15", &[d.haircut], d.other_client),
            "Horário indisponível: o profissional já tem um agendamento neste horário.",
        ),
        (
            body(d.barber1, tuesday, "11:45", &[d.haircut], d.other_client),
            "Horário fora do expediente do profissional.",
        ),
        (
            body(d.barber1, next(Weekday::Mon), "10:00", &[d.haircut], d.other_client),
            "Horário fora do expediente do profissional.",
        ),
    ];
    for (request, message) in refusals {
        let answer = book(&system, &admin, request).await;
        assert_eq!((answer.status, answer.message()), (StatusCode::CONFLICT, message), "{answer:?}");
    }
    // Back to back is fine.
    id_of(&book(&system, &admin, body(d.barber1, tuesday, "10:30", &[d.haircut], d.other_client)).await);

    // A day off of the barber and a holiday of the unit.
    let day_off = json!({
        "description": "Consulta", "dateStart": wednesday.to_string(), "dateEnd": wednesday.to_string(),
        "allDay": false, "startTime": "14:00", "endTime": "16:00", "idProfessional": d.barber1_id,
    });
    assert_eq!(
        system.call(Method::POST, "/api/day-off", Some(&admin), Some(day_off)).await.status,
        StatusCode::CREATED
    );
    let holiday = json!({
        "description": "Feriado municipal", "startDate": thursday.to_string(), "endDate": thursday.to_string(),
        "allDay": true, "startTime": null, "endTime": null, "idsCompanies": [d.centro],
    });
    assert_eq!(
        system.call(Method::POST, "/api/holiday", Some(&admin), Some(holiday)).await.status,
        StatusCode::CREATED
    );
    system.project().await;
    let blocked = "O profissional não atende neste horário (folga, férias ou feriado).";
    for request in [
        body(d.barber1, wednesday, "15:30", &[d.haircut], d.client),
        body(d.barber1, thursday, "10:00", &[d.haircut], d.client),
    ] {
        let answer = book(&system, &admin, request).await;
        assert_eq!((answer.status, answer.message()), (StatusCode::CONFLICT, blocked), "{answer:?}");
    }
    id_of(&book(&system, &admin, body(d.barber1, wednesday, "13:30", &[d.haircut], d.client)).await);

    // ALL_TIMES: lunch, a day off, a holiday and a Monday are fine; an overlap never is, and
    // the unit must be open.
    for request in [
        body(d.barber1, tuesday, "12:00", &[d.haircut], d.client),
        body(d.barber1, wednesday, "15:00", &[d.haircut], d.client),
        body(d.barber1, thursday, "10:00", &[d.haircut], d.client),
        body(d.barber1, next(Weekday::Mon), "20:00", &[d.haircut], d.client),
    ] {
        id_of(&book(&system, &admin, all_times(request)).await);
    }
    let overlap =
        book(&system, &admin, all_times(body(d.barber1, tuesday, "10:20", &[d.beard], d.client))).await;
    assert_eq!(overlap.status, StatusCode::CONFLICT);
    let closed =
        book(&system, &admin, all_times(body(d.barber1, next(Weekday::Sun), "10:00", &[d.beard], d.client)))
            .await;
    assert_eq!(
        (closed.status, closed.message()),
        (StatusCode::CONFLICT, "A barbearia está fechada neste horário.")
    );
    let late =
        book(&system, &admin, all_times(body(d.barber1, tuesday, "20:45", &[d.haircut], d.client))).await;
    assert_eq!(late.message(), "A barbearia está fechada neste horário.", "past closing at 21:00");

    // Another professional's agenda is another matter (for another client: the first is in
    // barber1's chair then).
    id_of(&book(&system, &admin, body(d.barber2, tuesday, "10:00", &[d.haircut], d.other_client)).await);
    let list = day_list(&system, &admin, d.centro, tuesday, "").await;
    assert_eq!(list.body.as_array().map(Vec::len), Some(4));
    assert!(ids(&list).contains(&first));
}

#[tokio::test]
async fn moving_confirming_and_cancelling_follow_the_appointments_life() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = system.sign_in("lider@navalha.dev").await;
    let tuesday = next(Weekday::Tue);
    let id = id_of(&book(&system, &token, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);

    // Move it to another barber, later, with other services.
    let moved =
        change(&system, &token, id, body(d.barber2, tuesday, "15:00", &[d.haircut, d.beard], d.client)).await;
    assert_eq!(moved.status, StatusCode::OK, "{moved:?}");
    assert_eq!(moved.body["IdScheduling"], json!(id));
    // Its old slot is free again, its new one is taken.
    id_of(&book(&system, &token, body(d.barber1, tuesday, "10:00", &[d.haircut], d.other_client)).await);
    let taken = book(&system, &token, body(d.barber2, tuesday, "15:30", &[d.haircut], d.other_client)).await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    // Editing may keep its own slot (it does not collide with itself).
    let same_slot =
        change(&system, &token, id, body(d.barber2, tuesday, "15:15", &[d.haircut], d.client)).await;
    assert_eq!(same_slot.status, StatusCode::OK, "{same_slot:?}");

    let confirmed =
        system.call(Method::PUT, &format!("/api/scheduling/{id}/confirm"), Some(&token), None).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{confirmed:?}");
    let list =
        day_list(&system, &token, d.centro, tuesday, &format!("&idProfessional={}", d.barber2_id)).await;
    assert_eq!(ids(&list), [id]);
    assert_eq!(
        (list.body[0]["StartTime"].clone(), list.body[0]["EndTime"].clone()),
        (json!("15:15:00"), json!("15:45:00"))
    );
    assert_eq!(list.body[0]["Confirmation"], json!(true));
    // Moved after the client confirmed: a new time the client has not agreed to (issue 44).
    // A changed note keeps the client's word; a new time clears it, and the history says so.
    let mut noted = body(d.barber2, tuesday, "15:15", &[d.haircut], d.client);
    noted["observation"] = json!("Prefere tesoura");
    assert_eq!(change(&system, &token, id, noted).await.status, StatusCode::OK);
    let list =
        day_list(&system, &token, d.centro, tuesday, &format!("&idProfessional={}", d.barber2_id)).await;
    assert_eq!(list.body[0]["Confirmation"], json!(true), "a note is not a move");
    let later = change(&system, &token, id, body(d.barber2, tuesday, "16:15", &[d.haircut], d.client)).await;
    assert_eq!(later.status, StatusCode::OK, "{later:?}");
    let list =
        day_list(&system, &token, d.centro, tuesday, &format!("&idProfessional={}", d.barber2_id)).await;
    assert_eq!(list.body[0]["Confirmation"], json!(false), "{list:?}");
    let admin = system.sign_in("admin@navalha.dev").await;
    let history =
        system.call(Method::GET, &format!("/api/scheduling/{id}/history"), Some(&admin), None).await;
    let events: Vec<&str> =
        history.body.as_array().into_iter().flatten().filter_map(|entry| entry["Event"].as_str()).collect();
    assert!(events.ends_with(&["AppointmentChanged", "ConfirmationCleared"]), "{events:?}");

    let cancelled = cancel(&system, &token, id).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{cancelled:?}");
    let again = cancel(&system, &token, id).await;
    assert_eq!(
        (again.status, again.message()),
        (StatusCode::CONFLICT, "Não é possível alterar um agendamento cancelado.")
    );
    let edit_cancelled =
        change(&system, &token, id, body(d.barber2, tuesday, "16:00", &[d.haircut], d.client)).await;
    assert_eq!(edit_cancelled.status, StatusCode::CONFLICT);
    // Its slot is free.
    let rebooked =
        id_of(&book(&system, &token, body(d.barber2, tuesday, "15:15", &[d.haircut], d.other_client)).await);

    let all = day_list(&system, &token, d.centro, tuesday, "&status=0").await;
    assert_eq!(all.body.as_array().map(Vec::len), Some(3));
    assert_eq!(ids(&day_list(&system, &token, d.centro, tuesday, "&status=2").await), [id]);
    let booked = day_list(&system, &token, d.centro, tuesday, "&status=1").await;
    assert!(!ids(&booked).contains(&id) && ids(&booked).contains(&rebooked));
    let by_client =
        day_list(&system, &token, d.centro, tuesday, &format!("&idUser={}", d.other_client)).await;
    assert_eq!(by_client.body.as_array().map(Vec::len), Some(2));
    let missing = cancel(&system, &token, 999_999).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_rebuild_equals_live(&system).await;
}

#[tokio::test]
async fn the_past_cannot_be_booked_as_available_nor_edited() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let past = last_open_day();
    let refused = book(&system, &admin, body(d.barber1, past, "10:00", &[d.haircut], d.client)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["errors"]["startTime"], "Não é possível agendar em um horário passado");
    // A walk-in recorded afterwards (ALL_TIMES) stands, but cannot be edited any more.
    let id = id_of(
        &book(&system, &admin, all_times(body(d.barber1, past, "10:00", &[d.haircut], d.client))).await,
    );
    let edit =
        change(&system, &admin, id, all_times(body(d.barber1, past, "11:00", &[d.haircut], d.client))).await;
    assert_eq!(
        (edit.status, edit.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, "Não é possível editar um agendamento passado")
    );
}

#[tokio::test]
async fn barbers_work_only_on_their_own_agenda_and_units_stay_apart() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let barber1 = system.sign_in("barbeiro1@navalha.dev").await;
    let barber2 = system.sign_in("barbeiro2@navalha.dev").await;
    let gabriel = system.sign_in("gabriel@navalha.dev").await;
    let leader = system.sign_in("lider@navalha.dev").await;
    let tuesday = next(Weekday::Tue);

    let for_colleague =
        book(&system, &barber1, body(d.barber2, tuesday, "10:00", &[d.haircut], d.client)).await;
    assert_eq!(for_colleague.status, StatusCode::FORBIDDEN);
    let own =
        id_of(&book(&system, &barber1, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);
    let colleagues = id_of(
        &book(&system, &barber2, body(d.barber2, tuesday, "10:00", &[d.haircut], d.other_client)).await,
    );
    for answer in [
        cancel(&system, &barber1, colleagues).await,
        change(
            &system,
            &barber1,
            colleagues,
            body(d.barber2, tuesday, "11:00", &[d.haircut], d.other_client),
        )
        .await,
        system
            .call(Method::PUT, &format!("/api/scheduling/{colleagues}/confirm"), Some(&barber1), None)
            .await,
    ] {
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{answer:?}");
    }

    // The day list: their own only; asking for a colleague is 403.
    let mine = day_list(&system, &barber1, d.centro, tuesday, "").await;
    assert_eq!(ids(&mine), [own]);
    let theirs =
        day_list(&system, &barber1, d.centro, tuesday, &format!("&idProfessional={}", d.barber2_id)).await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN);
    let read = system.call(Method::GET, &format!("/api/scheduling/{colleagues}"), Some(&barber1), None).await;
    assert_eq!(read.status, StatusCode::FORBIDDEN);
    // The leader sees everyone in their unit.
    assert_eq!(
        day_list(&system, &leader, d.centro, tuesday, "").await.body.as_array().map(Vec::len),
        Some(2)
    );

    // Another unit: 404 for everything, and nothing leaks.
    let other_unit = day_list(&system, &gabriel, d.centro, tuesday, "").await;
    assert_eq!(
        (other_unit.status, other_unit.message()),
        (StatusCode::NOT_FOUND, "Barbearia não encontrada.")
    );
    for answer in [
        cancel(&system, &gabriel, own).await,
        system.call(Method::GET, &format!("/api/scheduling/{own}"), Some(&gabriel), None).await,
        book(&system, &gabriel, body(d.barber1, tuesday, "15:00", &[d.haircut], d.client)).await,
    ] {
        assert!(
            matches!(answer.status, StatusCode::NOT_FOUND | StatusCode::UNPROCESSABLE_ENTITY),
            "{answer:?}"
        );
        assert!(!answer.body.to_string().contains("Diego"), "{answer:?}");
    }
    // The leader sees every active unit, but works in the agenda of their own (spec 01 §6).
    assert_eq!(day_list(&system, &leader, d.savassi, tuesday, "").await.status, StatusCode::NOT_FOUND);
    let gabriels = book(&system, &leader, body(d.gabriel, tuesday, "10:00", &[d.haircut], d.client)).await;
    assert_eq!(gabriels.status, StatusCode::UNPROCESSABLE_ENTITY);
    // The attendant changes units.
    let attendant = system.sign_in("atendente@navalha.dev").await;
    id_of(&book(&system, &attendant, body(d.gabriel, tuesday, "11:00", &[d.haircut], d.client)).await);
    assert_eq!(
        day_list(&system, &attendant, d.savassi, tuesday, "").await.body.as_array().map(Vec::len),
        Some(1)
    );
    let anonymous = system
        .call(
            Method::GET,
            &format!("/api/scheduling/professional?idCompany={}&date={tuesday}", d.centro),
            None,
            None,
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_retry_with_the_same_idempotency_key_books_once() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let token = system.sign_in("admin@navalha.dev").await;
    let request = body(d.barber1, next(Weekday::Tue), "10:00", &[d.haircut], d.client);
    let send = |body: Value| {
        let system = &system;
        let token = token.clone();
        async move {
            system
                .call_with(
                    Method::POST,
                    "/api/scheduling/professional",
                    Some(&token),
                    Some(body),
                    &[("idempotency-key", "k-1")],
                )
                .await
        }
    };
    let first = send(request.clone()).await;
    let retry = send(request.clone()).await;
    assert_eq!(retry.status, StatusCode::CREATED, "{retry:?}");
    assert_eq!(retry.body["IdScheduling"], first.body["IdScheduling"]);
    assert_eq!(retry.headers["x-navalha-position"], first.headers["x-navalha-position"]);
    let events: i64 = sqlx::query_scalar("select count(*) from events where aggregate_type = 'Appointment'")
        .fetch_one(&system.pool)
        .await
        .expect("count");
    assert_eq!(events, 1);
    let mut other = request;
    other["observation"] = json!("outro pedido");
    let reused = send(other).await;
    assert_eq!(
        (reused.status, reused.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, "Esta Idempotency-Key já foi usada com outro pedido.")
    );
}

/// Issue 39: ALL_TIMES took any date from year 1 to 9999. A booking falls within a year back
/// and two years ahead of the unit's today, with the bounds in the message.
#[tokio::test]
async fn a_booking_is_dated_within_a_sane_window() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let today = navalha_harness::demo::today();
    for date in [
        chrono::NaiveDate::from_ymd_opt(9999, 12, 7),
        chrono::NaiveDate::from_ymd_opt(1, 1, 2),
        today.checked_add_days(chrono::Days::new(731)),
    ] {
        let date = date.expect("date");
        let answer = system
            .call(
                Method::POST,
                "/api/scheduling/professional",
                Some(&admin),
                Some(all_times(body(d.barber1, date, "10:00", &[d.haircut], d.client))),
            )
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{date}: {answer:?}");
        let message = answer.body["errors"]["date"].as_str().unwrap_or_default();
        assert!(message.starts_with("Escolha uma data entre "), "{date}: {message}");
    }
    let far = crate::support::far_tuesday();
    let inside = system
        .call(
            Method::POST,
            "/api/scheduling/professional",
            Some(&admin),
            Some(all_times(body(d.barber1, far, "10:00", &[d.haircut], d.client))),
        )
        .await;
    assert_eq!(inside.status, StatusCode::CREATED, "{inside:?}");
}

/// A move keeps the prices booked (issue 45): a barber's new price reaches a moved
/// appointment only when the desk asks for it (`reprice: true`).
#[tokio::test]
async fn a_move_keeps_the_booked_price_unless_repriced() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let tuesday = next(Weekday::Tue);
    let id = id_of(&book(&system, &admin, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);
    let cents_booked = || async {
        let cents: String = sqlx::query_scalar(
            "select payload -> event_type -> 'services' -> 0 ->> 'cents' from events
              where aggregate_type = 'Appointment' and aggregate_id = $1
                and event_type in ('AppointmentBooked', 'AppointmentChanged')
              order by sequence desc limit 1",
        )
        .bind(id.to_string())
        .fetch_one(&system.pool)
        .await
        .expect("cents");
        cents.parse::<i64>().expect("a number")
    };
    let before = cents_booked().await;
    // The barber's haircut costs R$ 10,00 more from now on.
    let (offered, minutes): (i64, i32) = sqlx::query_as(
        "select offered_id, minutes from rm_professional.offered_service where professional_id = $1 and service_id = $2",
    )
    .bind(d.barber1_id)
    .bind(d.haircut)
    .fetch_one(&system.pool)
    .await
    .expect("offered");
    let dearer = json!({"idService": d.haircut, "time": minutes, "value": (before + 1000) as f64 / 100.0,
                        "combo": false, "status": true});
    let priced = system
        .call(
            Method::PUT,
            &format!("/api/professional-service/{offered}/professional/{}", d.barber1_id),
            Some(&admin),
            Some(dearer),
        )
        .await;
    assert_eq!(priced.status, StatusCode::OK, "{priced:?}");
    system.project().await;
    let moved = change(&system, &admin, id, body(d.barber1, tuesday, "11:00", &[d.haircut], d.client)).await;
    assert_eq!(moved.status, StatusCode::OK, "{moved:?}");
    assert_eq!(cents_booked().await, before, "the price booked stays");
    let mut repriced = body(d.barber1, tuesday, "11:30", &[d.haircut], d.client);
    repriced["reprice"] = json!(true);
    assert_eq!(change(&system, &admin, id, repriced).await.status, StatusCode::OK);
    assert_eq!(cents_booked().await, before + 1000, "asked for: the price now");
}

#[tokio::test]
async fn a_client_is_in_one_chair_at_a_time_unless_the_desk_books_anyway() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let desk = system.sign_in("atendente@navalha.dev").await;
    let tuesday = next(Weekday::Tue);
    id_of(&book(&system, &desk, body(d.barber1, tuesday, "10:00", &[d.haircut], d.client)).await);
    let busy = "Este cliente já tem outro agendamento neste horário.";
    // With another professional at 10:15: refused, and the answer names what lifts it.
    let second = book(&system, &desk, body(d.barber2, tuesday, "10:15", &[d.eyebrows], d.client)).await;
    assert_eq!((second.status, second.message()), (StatusCode::CONFLICT, busy), "{second:?}");
    assert_eq!(second.body["errors"]["allowClientOverlap"], busy);
    // A move into the time is refused the same way; back to back is not an overlap.
    let later =
        id_of(&book(&system, &desk, body(d.barber2, tuesday, "11:00", &[d.eyebrows], d.client)).await);
    let moved =
        change(&system, &desk, later, body(d.barber2, tuesday, "10:15", &[d.eyebrows], d.client)).await;
    assert_eq!((moved.status, moved.message()), (StatusCode::CONFLICT, busy), "{moved:?}");
    let list = day_list(&system, &desk, d.centro, tuesday, "").await;
    let first_end = list.body[0]["EndTime"].as_str().map(|t| t[..5].to_owned()).unwrap_or_default();
    let touching =
        change(&system, &desk, later, body(d.barber2, tuesday, &first_end, &[d.eyebrows], d.client)).await;
    assert_eq!(touching.status, StatusCode::OK, "{touching:?}");

    // A barber may not book anyway; the desk may, and the event records the choice.
    let mut anyway = body(d.barber2, tuesday, "10:15", &[d.eyebrows], d.client);
    anyway["allowClientOverlap"] = json!(true);
    let barber = system.sign_in("barbeiro2@navalha.dev").await;
    assert_eq!(book(&system, &barber, anyway.clone()).await.status, StatusCode::FORBIDDEN);
    let allowed = id_of(&book(&system, &desk, anyway).await);
    let (recorded, slot): (Option<bool>, bool) = sqlx::query_as(
        "select (e.payload -> 'AppointmentBooked' ->> 'client_overlap')::boolean, s.client_overlap
           from events e join appointment_slot s on s.appointment_id = e.aggregate_id
          where e.aggregate_type = 'Appointment' and e.aggregate_id = $1 and e.event_type = 'AppointmentBooked'",
    )
    .bind(allowed.to_string())
    .fetch_one(&system.pool)
    .await
    .expect("recorded");
    assert_eq!((recorded, slot), (Some(true), true));
    // Another client at the same time with another professional is no one's business.
    let gabriel_desk = system.sign_in("admin@navalha.dev").await;
    let other =
        book(&system, &gabriel_desk, body(d.gabriel, tuesday, "10:00", &[d.haircut], d.other_client)).await;
    assert_eq!(other.status, StatusCode::CREATED, "{other:?}");
}

/// Two desks booking the same client at once with two professionals: the domain's check
/// cannot see the other's booking, PostgreSQL's constraint does; exactly one stands.
#[tokio::test]
async fn two_desks_booking_one_client_at_once_leave_one_appointment() {
    let pool = demo_database().await;
    let system = std::sync::Arc::new(System::start(pool).await);
    let d = demo(&system).await;
    let desk = std::sync::Arc::new(system.sign_in("atendente@navalha.dev").await);
    let tuesday = next(Weekday::Tue);
    for start in ["09:00", "09:30", "10:00", "10:30", "11:00"] {
        let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(2));
        let tasks: Vec<_> = [d.barber1, d.barber2]
            .into_iter()
            .map(|membership| {
                let (system, desk, barrier) = (system.clone(), desk.clone(), barrier.clone());
                let request = body(membership, tuesday, start, &[d.eyebrows], d.client);
                tokio::spawn(async move {
                    barrier.wait().await;
                    book(&system, &desk, request).await
                })
            })
            .collect();
        let mut statuses = Vec::new();
        for task in tasks {
            let answer = task.await.expect("task");
            if answer.status == StatusCode::CONFLICT {
                assert_eq!(answer.message(), "Este cliente já tem outro agendamento neste horário.");
            }
            statuses.push(answer.status);
        }
        statuses.sort();
        assert_eq!(statuses, [StatusCode::CREATED, StatusCode::CONFLICT], "at {start}");
    }
    let overlapping: i64 = sqlx::query_scalar(
        "select count(*) from appointment_slot a join appointment_slot b
            on a.client_id = b.client_id and a.appointment_id < b.appointment_id and a.client_during && b.client_during",
    )
    .fetch_one(&system.pool)
    .await
    .expect("overlaps");
    assert_eq!(overlapping, 0);
}
