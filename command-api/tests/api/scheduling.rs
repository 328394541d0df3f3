//! The agenda: booking, moving, confirming and cancelling appointments; the rules of
//! ONLY_AVAILABLES and ALL_TIMES; who may do what; the day list and the edit form; the
//! audit; and that no two active appointments of one professional ever overlap, however
//! many requests race. The tests are in `scheduling/`; the helpers they share are here.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use chrono::{Duration, NaiveDate, Weekday};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};
use sqlx::PgPool;

use navalha_command_api::commands::{execute, execute_new};
use navalha_domain::appointment::{Appointment, AppointmentCommand, BookedService, Booking, Day, TimesType};
use navalha_domain::metadata::EventMetadata;
use navalha_domain::validation::TimeOfDay;

use crate::support::{body, book, demo, id_of, last_open_day, next, Answer, Demo, System};

mod attendance;
mod booking;
mod concurrency;
mod reads;
mod series;

fn all_times(mut body: Value) -> Value {
    body["timesType"] = json!("ALL_TIMES");
    body
}

async fn change(system: &System, token: &str, id: i64, body: Value) -> Answer {
    system.call(Method::PUT, &format!("/api/scheduling/professional/{id}"), Some(token), Some(body)).await
}

async fn cancel(system: &System, token: &str, id: i64) -> Answer {
    system.call(Method::DELETE, &format!("/api/scheduling/{id}"), Some(token), None).await
}

pub(crate) async fn day_list(
    system: &System,
    token: &str,
    company: i64,
    date: NaiveDate,
    extra: &str,
) -> Answer {
    system.project().await;
    system
        .call(
            Method::GET,
            &format!("/api/scheduling/professional?idCompany={company}&date={date}{extra}"),
            Some(token),
            None,
        )
        .await
}

fn ids(answer: &Answer) -> Vec<i64> {
    answer
        .body
        .as_array()
        .map(|list| list.iter().filter_map(|a| a["IdScheduling"].as_i64()).collect())
        .unwrap_or_default()
}

async fn free_times(system: &System, token: Option<&str>, query: &str) -> Answer {
    system.project().await;
    system.call(Method::GET, &format!("/api/no-auth/scheduling/available-times?{query}"), token, None).await
}

/// The free start times of `professional` on `date`.
fn starts(answer: &Answer, date: NaiveDate, professional: i64) -> Vec<String> {
    answer.body["times"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|day| day["shortDate"] == json!(date.to_string()))
        .flat_map(|day| day["freeHours"].as_array().cloned().unwrap_or_default())
        .filter(|hour| hour["idProfessional"] == json!(professional))
        .filter_map(|hour| hour["start"].as_str().map(str::to_owned))
        .collect()
}

/// Rebuilt from the first event in bulk batches, the agenda equals the one the projector
/// followed step by step.
async fn assert_rebuild_equals_live(system: &System) {
    let dump = || async {
        sqlx::query_scalar::<_, String>(
            "select coalesce(string_agg(a::text, E'\\n' order by appointment_id), '') from rm_agenda.appointment a",
        )
        .fetch_one(&system.pool)
        .await
        .expect("dump")
    };
    let live = dump().await;
    assert!(!live.is_empty());
    let agenda = navalha_projector::models::find("agenda").expect("model");
    navalha_projector::rebuild::rebuild(&system.pool, agenda.as_ref(), false).await.expect("rebuild");
    assert_eq!(dump().await, live);
}

/// A booking appended without HTTP: `ALL_TIMES`, a haircut with barber 1 at Centro.
fn direct_booking(d: &Demo, date: NaiveDate, start: &str, end: &str) -> Booking {
    Booking {
        membership_id: d.barber1,
        professional_id: d.barber1_id,
        company_id: d.centro,
        client_id: d.client,
        date,
        start: TimeOfDay::parse(start).expect("time"),
        end: TimeOfDay::parse(end).expect("time"),
        services: vec![BookedService {
            service_id: d.haircut,
            description: "Corte".into(),
            minutes: 30,
            cents: 4500,
            interval_after: 0,
        }],
        observation: String::new(),
        times_type: TimesType::AllTimes,
        online: false,
        newcomer: false,
        client_overlap: false,
        series: None,
    }
}

/// Claims a slot of `professional_id` as an appointment's event would, in `conn`'s
/// transaction: `(appointment id, start, end)`.
async fn hold_slot(
    conn: &mut sqlx::PgConnection,
    professional_id: i64,
    day: NaiveDate,
    (id, start, end): (&str, &str, &str),
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into appointment_slot (appointment_id, professional_id, during)
         values ($1, $2, tsrange($3::date + $4::time, $3::date + $5::time, '[)'))",
    )
    .bind(id)
    .bind(professional_id)
    .bind(day)
    .bind(start)
    .bind(end)
    .execute(conn)
    .await?;
    Ok(())
}

/// Polls `waiting`, a count of waiting sessions or locks, every 10 ms until it is above 0;
/// fails with `never` after 5 s.
async fn until_waiting(pool: &PgPool, waiting: &str, never: &str) {
    for _ in 0..500 {
        let count: i64 = sqlx::query_scalar(waiting).fetch_one(pool).await.expect("waiting");
        if count > 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("{never}");
}

/// Appends an `AppointmentBooked` of `professional_id` in `conn`'s transaction, as an event
/// the slot trigger reads: `(appointment id, start, end)`.
async fn append_booked(
    conn: &mut sqlx::PgConnection,
    professional_id: i64,
    day: NaiveDate,
    (id, start, end): (&str, &str, &str),
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ('Appointment', $1, 1, 'AppointmentBooked', '1.0',
                 jsonb_build_object('AppointmentBooked', jsonb_build_object(
                     'professional_id', $2::bigint, 'date', $3::date, 'start', $4::text, 'end', $5::text,
                     'client_id', $2::bigint, 'company_id', 1)),
                 '{\"business_id\": \"1\"}')",
    )
    .bind(id)
    .bind(professional_id)
    .bind(day)
    .bind(start)
    .bind(end)
    .execute(conn)
    .await?;
    Ok(())
}

/// Free start times of `professionals` in Centro for the haircut, from tomorrow to the end of
/// the window, checked rule by rule against the other read models (working hours, opening
/// hours, the agenda), independently of the `free_time` model.
async fn haircut_starts_by_the_rules(
    system: &System,
    d: &crate::support::Demo,
    professionals: &[i64],
    all: bool,
) -> std::collections::BTreeMap<(i64, NaiveDate), Vec<String>> {
    use navalha_domain::availability::{format_minutes, DayRules, Span};
    use navalha_domain::validation::Period;
    let minutes = |time: chrono::NaiveTime| {
        (time - chrono::NaiveTime::MIN).num_minutes().try_into().unwrap_or(u16::MAX)
    };
    let mut expected = std::collections::BTreeMap::new();
    let today = navalha_harness::demo::today();
    for &professional in professionals {
        let duration: i64 = sqlx::query_scalar(
            "select minutes::bigint from rm_professional.offered_service where professional_id = $1 and service_id = $2",
        )
        .bind(professional)
        .bind(d.haircut)
        .fetch_one(&system.pool)
        .await
        .expect("duration");
        for offset in 1..navalha_query_api::scheduling::FREE_TIME_DAYS {
            let date = today + Duration::days(offset);
            let week_day = chrono::Datelike::weekday(&date).num_days_from_sunday() as i16;
            let periods: Option<Value> = sqlx::query_scalar(
                "select periods from rm_professional.working_day where professional_id = $1 and week_day = $2",
            )
            .bind(professional)
            .bind(week_day)
            .fetch_optional(&system.pool)
            .await
            .expect("periods");
            let periods: Vec<Period> =
                periods.map(|p| serde_json::from_value(p).expect("periods")).unwrap_or_default();
            let opening: Option<(chrono::NaiveTime, chrono::NaiveTime)> = sqlx::query_as(
                "select start_time::time, end_time::time from rm_company.company_day where company_id = $1 and week_day = $2",
            )
            .bind(d.centro)
            .bind(week_day)
            .fetch_optional(&system.pool)
            .await
            .expect("opening");
            let busy: Vec<(chrono::NaiveTime, chrono::NaiveTime)> = sqlx::query_as(
                "select start_time, end_time from rm_agenda.appointment where professional_id = $1 and date = $2 and status",
            )
            .bind(professional)
            .bind(date)
            .fetch_all(&system.pool)
            .await
            .expect("busy");
            let rules = DayRules {
                working: periods.into_iter().map(Span::from).collect(),
                opening: opening.map(|(start, end)| Span { start: minutes(start), end: minutes(end) }),
                blocked: Vec::new(),
                busy: busy
                    .into_iter()
                    .map(|(start, end)| Span { start: minutes(start), end: minutes(end) })
                    .collect(),
            };
            let starts: Vec<String> = rules
                .free_slots(duration.try_into().unwrap_or(u16::MAX), 0, all)
                .into_iter()
                .map(|slot| format_minutes(slot.start).to_owned())
                .collect();
            expected.insert((professional, date), starts);
        }
    }
    expected
}
