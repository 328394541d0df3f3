//! The placed clock (ADR 0021, issue 38): a command-api started with
//! NAVALHA_CLOCK_OFFSET_SECONDS rules and records at that instant, not the machine's.

use std::time::Duration;

use chrono::Days;
use navalha_harness::checks::wait_for_read_models;
use navalha_harness::demo;
use navalha_harness::load::{self, booking_body};
use navalha_harness::system::System;

#[tokio::test]
async fn a_command_api_placed_ten_days_ahead_books_refuses_and_records_on_that_clock() -> anyhow::Result<()> {
    let system = System::start("placed-clock", &[]).await?;
    let _projector = system.service("projector", "projector", &[], &[]).await?;
    // Ten days ahead of this test's own clock (itself placed when the run is).
    let ten_days = chrono::Duration::days(10);
    let offset = (navalha_platform::clock::offset() + ten_days).num_seconds().to_string();
    let command = system
        .service("command-api", "command-api", &[], &[("NAVALHA_CLOCK_OFFSET_SECONDS", offset.as_str())])
        .await?;
    let base = format!("http://{}/api", command.addr);
    wait_for_read_models(&system.pool, Duration::from_secs(60)).await?;
    let token = system.admin_token(&base).await?;
    let targets = system.booking_targets().await?;

    // Days 5 to 9 ahead of the test are in the placed command-api's past. ONLY_AVAILABLES:
    // ALL_TIMES lifts the clock (spec 01).
    let mut in_its_past = booking_body(&targets, demo::today() + Days::new(5), 1);
    in_its_past["timesType"] = "ONLY_AVAILABLES".into();
    let past = load::book(&system.client, &base, &token, "placed-past", &in_its_past).await?;
    assert_eq!(past.status, 422, "{in_its_past}: {}", past.body);
    assert_eq!(
        past.body["errors"]["startTime"], "Não é possível agendar em um horário passado",
        "{}",
        past.body
    );

    // Days 15 on are in its future: one of a few bookings there is taken (a demo booking
    // or a holiday may stand in the way of one).
    let mut booked = None;
    for n in 1..=12 {
        let body = booking_body(&targets, demo::today() + Days::new(15), n);
        let answer = load::book(&system.client, &base, &token, &format!("placed-future-{n}"), &body).await?;
        if answer.status == 201 {
            booked = Some(answer);
            break;
        }
    }
    let booked = booked.expect("no booking 15 days ahead was taken");

    // Its event was recorded at the placed instant: ten days (and this test's own offset)
    // ahead of the database's clock, in the log's time and in the metadata's.
    let (recorded, stated): (f64, f64) = sqlx::query_as(
        "select extract(epoch from recorded_at - now())::float8,
                extract(epoch from (metadata ->> 'at')::timestamptz - now())::float8
           from events where aggregate_type = 'Appointment' order by global_position desc limit 1",
    )
    .fetch_one(&system.pool)
    .await?;
    let expected = navalha_platform::clock::offset_seconds() + ten_days.num_seconds() as f64;
    for (what, ahead) in [("recorded_at", recorded), ("metadata.at", stated)] {
        assert!(
            (ahead - expected).abs() < 120.0,
            "{what} is {ahead} s from now(), not {expected} s: {}",
            booked.body
        );
    }
    Ok(())
}
