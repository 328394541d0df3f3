//! query-api on a streaming replica (docs/operations.md, "query-api: several instances, on
//! the primary or on streaming replicas").

use std::time::{Duration, Instant};

use chrono::Days;
use navalha_harness::api::{parse_consistency, parse_position, CONSISTENCY_HEADER, POSITION_HEADER};
use navalha_harness::cluster::Cluster;
use navalha_harness::load;
use navalha_harness::system::System;
use serde_json::Value;
use sqlx::postgres::PgPoolOptions;

use crate::booking_load;

/// Read-your-writes holds for a command the primary answered, and with the replica's replay
/// paused the documented 2 s limit shows: the read answers after 2 s, saying it timed out.
/// No LISTEN on a replica, and no warning about it.
#[tokio::test]
async fn query_api_on_a_replica_reads_its_writes_within_the_2_s_limit() -> anyhow::Result<()> {
    let system = System::start("replica", &[]).await?;
    let _projector = system.service("projector", "projector", &[], &[]).await?;
    let command = system.service("command-api", "command-api", &[], &[]).await?;
    let replica = Cluster::replica_of(&system.primary, &system.root.path, "replica")?;
    let replica_url = replica.url(navalha_harness::system::DATABASE);
    let query = system.service("query-api", "query-api", &[], &[("DATABASE_URL", &replica_url)]).await?;
    let replica_pool = PgPoolOptions::new().max_connections(1).connect(&replica_url).await?;
    assert!(sqlx::query_scalar::<_, bool>("select pg_is_in_recovery()").fetch_one(&replica_pool).await?);

    let base = format!("http://{}/api", command.addr);
    let load = booking_load(&system, vec![base.clone()], 1, 1).await?;
    let (membership, _) = load.targets.professionals[0];
    let company: i64 =
        sqlx::query_scalar("select company_id from rm_professional.membership where membership_id = $1")
            .bind(membership)
            .fetch_one(&system.pool)
            .await?;

    // Books on day `day` (or the Monday after, for a Sunday) at `start` with the first
    // professional, then reads the booked day from the replica with the answer's position:
    // (the read's consistency, waited ms, holds the booking, took). Each call its own time:
    // two days can be the same Monday (the Friday bug of issue 38, here on a Saturday night).
    let book_and_read = |key: &'static str, day: u64, start: &'static str| {
        let (system, load, base) = (&system, &load, &base);
        let query = format!("http://{}/api/scheduling/professional", query.addr);
        async move {
            let mut body = load::booking_body(&load.targets, load.from + Days::new(day), 0);
            body["idCompanyProfessional"] = membership.into();
            body["observation"] = "replica".into();
            body["startTime"] = start.into();
            let date: chrono::NaiveDate = body["date"].as_str().unwrap_or_default().parse()?;
            let booked = load::book(&system.client, base, &load.token, key, &body).await?;
            anyhow::ensure!(booked.status == 201, "booking {key}: {booked:?}");
            let id = booked.body["IdScheduling"].clone();
            let position = booked.position.clone().unwrap_or_default();
            anyhow::ensure!(parse_position(&position).is_some(), "no position: {booked:?}");
            let sent = Instant::now();
            let answer = system
                .client
                .get(&query)
                .query(&[("idCompany", company.to_string()), ("date", date.format("%Y-%m-%d").to_string())])
                .bearer_auth(&load.token)
                .header(POSITION_HEADER, &position)
                .send()
                .await?;
            let took = sent.elapsed();
            anyhow::ensure!(answer.status().is_success(), "read: {}", answer.status());
            let consistency = answer
                .headers()
                .get(CONSISTENCY_HEADER)
                .and_then(|v| v.to_str().ok())
                .and_then(parse_consistency)
                .ok_or_else(|| anyhow::anyhow!("no consistency header"))?;
            let rows: Value = answer.json().await?;
            let holds = rows.as_array().is_some_and(|rows| rows.iter().any(|r| r["IdScheduling"] == id));
            Ok::<_, anyhow::Error>((consistency, holds, took))
        }
    };

    let ((reached, _), holds, _) = book_and_read("replica-1", 40, "10:00").await?;
    assert!(reached && holds, "the replica's read missed the primary's booking");

    sqlx::query("select pg_wal_replay_pause()").execute(&replica_pool).await?;
    let ((reached, waited), holds, took) = book_and_read("replica-2", 41, "11:00").await?;
    assert!(!reached && !holds, "a paused replica cannot have the booking");
    assert!((2000..2500).contains(&waited), "waited {waited} ms, not the 2 s limit");
    assert!(took >= Duration::from_secs(2), "answered after {took:?}");

    sqlx::query("select pg_wal_replay_resume()").execute(&replica_pool).await?;
    let ((reached, _), holds, _) = book_and_read("replica-3", 42, "12:00").await?;
    assert!(reached && holds, "after the replay resumed, the read missed the booking");

    let log = std::fs::read_to_string(&query.log)?;
    assert!(log.contains("database is a replica"), "query-api did not notice the replica:\n{log}");
    let listener_warnings =
        log.lines().filter(|l| l.contains("listener failed") || l.contains("LISTEN")).count();
    assert_eq!(listener_warnings, 0, "query-api complains about LISTEN on the replica:\n{log}");
    drop(replica_pool);
    drop(query);
    drop(replica);
    Ok(())
}
