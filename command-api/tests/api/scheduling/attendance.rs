//! Whether the client came (issue 41): 'Não compareceu' from the start on and its undo only
//! on the day, 'Cliente chegou' only on the day, no confirming the past, and the day list's
//! `Attendance` and `IdComanda` ('Atendido' when the comanda closed).

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::json;

use super::{all_times, day_list};
use crate::support::{body, book, demo, id_of, last_open_day, next, System};

#[tokio::test]
async fn a_past_client_is_marked_absent_or_served_and_the_day_list_says_which() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let d = demo(&system).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let barber = system.sign_in("barbeiro1@navalha.dev").await;
    let past = last_open_day();
    let booked = |start: &'static str| {
        let system = &system;
        let admin = admin.clone();
        async move {
            id_of(
                &book(system, &admin, all_times(body(d.barber1, past, start, &[d.haircut], d.client))).await,
            )
        }
    };
    let absent = booked("10:00").await;
    let served = booked("11:00").await;
    let call = |token: &str, method: Method, path: String| {
        let (system, token) = (&system, token.to_owned());
        async move { system.call(method, &path, Some(&token), None).await }
    };
    // The home's day of the two appointments: (attended, no-shows), the unit's and the barber's own.
    let home_day = |token: &str| {
        let home = call(token, Method::GET, format!("/api/dashboard?period=30d&idCompany={}", d.centro));
        async move {
            let home = home.await;
            let day = home.body["Days"]
                .as_array()
                .and_then(|days| days.iter().find(|day| day["Date"] == json!(past.to_string())).cloned());
            let day = day.unwrap_or_else(|| panic!("{past} on the home: {home:?}"));
            (day["Attended"].as_i64().unwrap_or(-1), day["NoShows"].as_i64().unwrap_or(-1))
        }
    };
    let (unit_before, own_before) = (home_day(&admin).await, home_day(&barber).await);
    let no_show = |id: i64| format!("/api/scheduling/{id}/no-show");

    // A past appointment is not confirmed any more.
    let confirm = call(&admin, Method::PUT, format!("/api/scheduling/{absent}/confirm")).await;
    assert_eq!(
        (confirm.status, confirm.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, "Não é possível confirmar um agendamento passado.")
    );
    // 'Não compareceu': the front desk's, once; undone only on the day.
    assert_eq!(call(&barber, Method::POST, no_show(absent)).await.status, StatusCode::FORBIDDEN);
    let marked = call(&attendant, Method::POST, no_show(absent)).await;
    assert_eq!(
        (marked.status, marked.body["Attendance"].as_str()),
        (StatusCode::OK, Some("NO_SHOW")),
        "{marked:?}"
    );
    assert_eq!(call(&attendant, Method::POST, no_show(absent)).await.status, StatusCode::OK);
    let undo = call(&admin, Method::DELETE, no_show(absent)).await;
    assert_eq!(
        (undo.status, undo.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, "Só é possível desfazer 'Não compareceu' no mesmo dia.")
    );
    let arrival = call(&attendant, Method::POST, format!("/api/scheduling/{absent}/arrival")).await;
    assert_eq!(arrival.status, StatusCode::UNPROCESSABLE_ENTITY, "{arrival:?}");
    // Nobody absent gets a comanda.
    let comanda = |id: i64| json!({"idCompany": d.centro, "idScheduling": id});
    let refused = system.call(Method::POST, "/api/comanda", Some(&attendant), Some(comanda(absent))).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{refused:?}");
    assert!(refused.body["errors"]["idScheduling"].as_str().is_some_and(|m| m.contains("Não compareceu")));

    // The other client was served: the comanda closed makes the appointment 'Atendido', and
    // one with a comanda is not marked absent.
    let opened = system.call(Method::POST, "/api/comanda", Some(&attendant), Some(comanda(served))).await;
    let comanda_id = opened.body["IdComanda"].as_i64().unwrap_or_else(|| panic!("{opened:?}"));
    let with_comanda = call(&attendant, Method::POST, no_show(served)).await;
    assert_eq!(
        (with_comanda.status, with_comanda.message()),
        (StatusCode::UNPROCESSABLE_ENTITY, "Este agendamento tem uma comanda: o cliente compareceu.")
    );
    let caixa = json!({"idCompany": d.centro, "openingCash": 0});
    assert_eq!(
        system.call(Method::POST, "/api/caixa", Some(&attendant), Some(caixa)).await.status,
        StatusCode::CREATED
    );
    let discount = system
        .call(Method::PUT, &format!("/api/comanda/{comanda_id}/discount"), Some(&attendant), Some(json!({})))
        .await;
    let pay = json!({"method": "debit", "value": discount.body["Due"]});
    system
        .call(Method::POST, &format!("/api/comanda/{comanda_id}/payments"), Some(&attendant), Some(pay))
        .await;
    let closed =
        system.call(Method::POST, &format!("/api/comanda/{comanda_id}/close"), Some(&attendant), None).await;
    assert_eq!(closed.body["Status"], "CLOSED", "{closed:?}");

    let list = day_list(&system, &attendant, d.centro, past, "").await;
    let of = |id: i64| {
        list.body
            .as_array()
            .and_then(|items| items.iter().find(|item| item["IdScheduling"] == id))
            .map(|item| (item["Attendance"].clone(), item["IdComanda"].clone()))
    };
    assert_eq!(of(absent), Some((json!("NO_SHOW"), json!(null))), "{list:?}");
    assert_eq!(of(served), Some((json!("ATTENDED"), json!(comanda_id))));
    // The home counts one more served and one more absent that day, for the unit and the barber.
    for (token, (attended, no_shows)) in [(&admin, unit_before), (&barber, own_before)] {
        assert_eq!(home_day(token).await, (attended + 1, no_shows + 1));
    }

    // Too early for 'Não compareceu'; not its day for 'Cliente chegou'.
    let coming = id_of(
        &book(&system, &admin, body(d.barber1, next(chrono::Weekday::Tue), "10:00", &[d.haircut], d.client))
            .await,
    );
    let early = call(&attendant, Method::POST, no_show(coming)).await;
    assert_eq!(
        (early.status, early.message()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "Só é possível marcar 'Não compareceu' a partir do horário do agendamento."
        )
    );
    let not_today = call(&attendant, Method::POST, format!("/api/scheduling/{coming}/arrival")).await;
    assert_eq!(not_today.message(), "Só é possível registrar a chegada no dia do agendamento.");

    // The history holds the mark; the model rebuilt is the model live.
    system.project().await;
    let history = call(&admin, Method::GET, format!("/api/scheduling/{absent}/history")).await;
    assert!(
        history.body.as_array().is_some_and(|events| events.iter().any(|e| e["Event"] == "NoShowMarked")),
        "{history:?}"
    );
    super::assert_rebuild_equals_live(&system).await;
}
