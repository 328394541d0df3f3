//! WhatsApp reminders with real processes (issue 44, point 5; ADR 0028): three command-api
//! instances passing every second, the WhatsApp twin slow to answer, and one instance killed
//! while it waits for the answer. Every reminder due reaches the client's phone once: none
//! twice, none lost.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chrono::Timelike;
use navalha_harness::process::{free_addr, tail, wait_healthy, Service};
use navalha_harness::system::System;
use serde_json::{json, Value};

use crate::booking_load;

const WHATSAPP: [(&str, &str); 5] = [
    ("NAVALHA_WHATSAPP_TOKEN", "sim-whatsapp-token"),
    ("NAVALHA_WHATSAPP_PHONE_NUMBER_ID", "106540352242922"),
    ("NAVALHA_WHATSAPP_APP_SECRET", "sim-whatsapp-secret"),
    ("NAVALHA_WHATSAPP_VERIFY_TOKEN", "sim-verify-token"),
    // A pass every second; a send without an outcome is tried again after 10 s (120 s in
    // production, NAVALHA_REMINDER_GRACE_SECONDS below): the provider's report, retried to
    // the restarted instance, must arrive first for nothing to go twice (ADR 0028).
    ("NAVALHA_REMINDER_SECONDS", "1"),
];

/// How many appointments the test books for reminders.
const BOOKED: usize = 6;

#[tokio::test]
async fn reminders_go_once_from_three_instances_one_killed_while_the_provider_was_slow() -> anyhow::Result<()>
{
    let system = System::start("reminders", &[]).await?;
    let projector = system.service("projector", "projector", &[], &[]).await?;
    // The twin's webhook goes to the first instance, as Meta's goes to the public address.
    let (sim_addr, first_addr) = (free_addr()?, free_addr()?);
    let sim_url = format!("http://{sim_addr}");
    let webhook = format!("http://{first_addr}/api/no-auth/whatsapp/webhook");
    let mut sim = system
        .launcher
        .start_as(
            "provider-sim",
            "provider-sim",
            &["--listen", &sim_addr.to_string(), "--whatsapp-webhook-url", &webhook],
            sim_addr,
            &[],
        )
        .await?;
    wait_healthy(&system.client, &mut sim, Duration::from_secs(30)).await?;
    let whatsapp_url = format!("{sim_url}/whatsapp/v21.0");
    let mut env: Vec<(&str, &str)> = WHATSAPP.to_vec();
    env.push(("NAVALHA_WHATSAPP_URL", &whatsapp_url));
    env.push(("NAVALHA_REMINDER_GRACE_SECONDS", "10"));

    // The first instance books; its passes find nothing due until the bookings exist.
    let mut first = system
        .launcher
        .start_as(
            "command-api-1",
            "command-api",
            &["serve", "--listen", &first_addr.to_string()],
            first_addr,
            &env,
        )
        .await?;
    wait_healthy(&system.client, &mut first, Duration::from_secs(60)).await?;
    // The twin takes each message at once and answers 2 s later: the first instance decides
    // and is killed while it waits, before it records the provider's answer.
    let slow =
        system.client.post(format!("{sim_url}/sim/whatsapp/delay")).json(&json!({"ms": 2000})).send().await?;
    anyhow::ensure!(slow.status().is_success(), "the twin's delay: {}", slow.status());
    let base = format!("http://{first_addr}/api");
    let mut keys = book_within_a_day(&system, &base).await?;
    // In flight: decided, the provider's answer not recorded. The twin's delivery reports
    // reach the webhook at once, before its answer: a send with a report is still waiting.
    let in_flight: Vec<String> = wait_for(Duration::from_secs(60), || async {
        Ok(sqlx::query_scalar(
            "select e.aggregate_id from events e
              where e.aggregate_type = 'Message' and e.event_type = 'MessageRequested'
                and not exists (select 1 from events o where o.aggregate_id = e.aggregate_id
                                  and o.aggregate_type = 'Message'
                                  and o.event_type in ('MessageAccepted', 'MessageRefused'))",
        )
        .fetch_all(&system.pool)
        .await?)
    })
    .await?;
    anyhow::ensure!(
        !in_flight.is_empty(),
        "no reminder was decided within 60 s; the instance's log ends:\n{}\nthe projector's:\n{}",
        tail(&first.log, 40),
        tail(&projector.log, 20)
    );
    first.signal("KILL").await?;
    // The send cut by the kill must end once too, whether it was the demo's or ours.
    for key in in_flight {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }

    // Back, with two more instances; the twin answers at once again.
    system.client.post(format!("{sim_url}/sim/whatsapp/delay")).json(&json!({"ms": 0})).send().await?;
    system.launcher.restart(&mut first)?;
    let mut others: Vec<Service> = Vec::new();
    for name in ["command-api-2", "command-api-3"] {
        let addr = free_addr()?;
        let mut instance = system
            .launcher
            .start_as(name, "command-api", &["serve", "--listen", &addr.to_string()], addr, &env)
            .await?;
        wait_healthy(&system.client, &mut instance, Duration::from_secs(60)).await?;
        others.push(instance);
    }
    wait_healthy(&system.client, &mut first, Duration::from_secs(60)).await?;

    // None lost: every reminder ends with the provider's answer or its report.
    let settled = wait_for(Duration::from_secs(60), || async {
        let open: i64 = sqlx::query_scalar(
            "select count(*) from unnest($1::text[]) k(key)
              where not exists (select 1 from events e where e.aggregate_type = 'Message' and e.aggregate_id = k.key
                                  and e.event_type in ('MessageAccepted', 'DeliveryReported'))",
        )
        .bind(&keys)
        .fetch_one(&system.pool)
        .await?;
        Ok(open == 0)
    })
    .await?;
    anyhow::ensure!(
        settled,
        "reminders still without an outcome after a minute: {}",
        sim_messages(&system, &sim_url).await?
    );
    // A few more passes of all three, past the grace: still once each.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let on_the_phone = sim_messages(&system, &sim_url).await?;
    let mut per_key: HashMap<String, usize> = HashMap::new();
    for message in on_the_phone.as_array().into_iter().flatten() {
        if let Some(key) = message["biz_opaque_callback_data"].as_str() {
            *per_key.entry(key.to_owned()).or_default() += 1;
        }
    }
    for key in &keys {
        anyhow::ensure!(per_key.get(key) == Some(&1), "{key} reached the phone {:?} times", per_key.get(key));
    }
    let twice: Vec<_> = per_key.iter().filter(|(_, n)| **n > 1).collect();
    anyhow::ensure!(twice.is_empty(), "messages sent more than once: {twice:?}");
    Ok(())
}

/// Books `BOOKED` appointments for clients who accept WhatsApp, 3 hours from now and on
/// (the 24-hour reminder due at once), with the units open all day every day so that any
/// hour of the run works: the reminders' keys.
async fn book_within_a_day(system: &System, base: &str) -> anyhow::Result<Vec<String>> {
    let load = booking_load(system, vec![base.to_owned()], 1, 1).await?;
    let token = &load.token;
    let call = |method: reqwest::Method, path: String, body: Value| {
        let request = system.client.request(method, format!("{base}{path}")).bearer_auth(token).json(&body);
        async move {
            let answer = request.send().await?;
            let status = answer.status();
            let body: Value = answer.json().await.unwrap_or(Value::Null);
            anyhow::ensure!(status.is_success(), "{path}: {status} {body}");
            Ok::<_, anyhow::Error>(body)
        }
    };
    let units: Vec<i64> =
        sqlx::query_scalar("select company_id from rm_company.company where status order by company_id")
            .fetch_all(&system.pool)
            .await?;
    for unit in &units {
        for week_day in 0..7 {
            let day = json!({ "weekDay": week_day, "start": "00:00", "end": "23:59" });
            call(reqwest::Method::PUT, format!("/company-working-hours/{unit}/day"), day).await?;
        }
    }
    let wall = navalha_platform::clock::now_in(navalha_platform::clock::DEFAULT_TIME_ZONE);
    let mut keys = Vec::new();
    for n in 0..BOOKED {
        let phone = format!("119876{:05}", 11_000 + n);
        let client = call(
            reqwest::Method::POST,
            "/user/quick".to_owned(),
            json!({ "name": format!("Cliente Lembrete {n}"), "phone": phone, "whatsApp": true }),
        )
        .await?["IdUser"]
            .as_i64()
            .unwrap_or_default();
        // From 3 hours ahead on a quarter hour, the next free professional, or 35 minutes
        // later (the demo's own appointments hold some times); never across midnight.
        let first = (wall.hour() * 60 + wall.minute() + 180).div_ceil(15) * 15 + 20 * n as u32;
        let midnight = wall.date().and_hms_opt(0, 0, 0).unwrap_or(wall);
        let mut booked = None;
        'times: for shift in 0..12_u32 {
            let mut start = midnight + chrono::Duration::minutes((first + 35 * shift).into());
            if start.hour() == 23 && start.minute() >= 30 {
                start += chrono::Duration::minutes(45);
            }
            let end = start + chrono::Duration::minutes(30);
            for (membership, service) in &load.targets.professionals {
                let answer = system
                    .client
                    .post(format!("{base}/scheduling/professional"))
                    .bearer_auth(token)
                    .json(&json!({
                        "idCompanyProfessional": membership, "date": start.date().to_string(),
                        "startTime": start.format("%H:%M").to_string(), "endTime": end.format("%H:%M").to_string(),
                        "idServices": [service], "idUser": client, "observation": "", "timesType": "ALL_TIMES",
                    }))
                    .send()
                    .await?;
                if answer.status() == reqwest::StatusCode::CREATED {
                    let body: Value = answer.json().await?;
                    booked = Some((body["IdScheduling"].as_i64().unwrap_or_default(), start));
                    break 'times;
                }
            }
        }
        let (id, start) =
            booked.ok_or_else(|| anyhow::anyhow!("no professional free 3 to 10 hours ahead"))?;
        keys.push(navalha_command_api::reminders::key(id, navalha_command_api::reminders::Kind::Day, start));
    }
    Ok(keys)
}

async fn sim_messages(system: &System, sim_url: &str) -> anyhow::Result<Value> {
    Ok(system.client.get(format!("{sim_url}/sim/whatsapp/messages")).send().await?.json().await?)
}

/// Polls `check` every 50 ms until it finds something or `limit` passes: what it found last.
async fn wait_for<T: Found, F, Fut>(limit: Duration, check: F) -> anyhow::Result<T>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    let started = Instant::now();
    loop {
        let found = check().await?;
        if found.found() || started.elapsed() >= limit {
            return Ok(found);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What [`wait_for`] waits for.
trait Found {
    fn found(&self) -> bool;
}

impl Found for bool {
    fn found(&self) -> bool {
        *self
    }
}

impl<T> Found for Vec<T> {
    fn found(&self) -> bool {
        !self.is_empty()
    }
}
