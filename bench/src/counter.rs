//! The counter (issue 41): clients at the big unit's desk open a walk-in comanda, add two
//! services, pay in cash and close it, in a closed loop. One comanda is five calls; its
//! latency is theirs end to end, and its CPU is per comanda, to compare with a booking's.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::{json, Value};

use crate::events::EventBuilder;
use crate::report::{ms, thousands};
use crate::rng::Rng;
use crate::setup::{Bench, Month, Running};
use crate::stats::Samples;
use crate::workload::{seconds_bar, Api, ReadStats};
use crate::{note, p, show_cpu, step};

/// Concurrent desks of the counter phase.
pub const CLIENTS: usize = 16;

/// The counter's comandas and what they cost.
pub struct Counter {
    /// Whole comandas (five calls each) that closed.
    pub stats: ReadStats,
    /// Each call of the comandas that closed: what a desk waits for per tap.
    pub calls: Samples,
    /// CPU per comanda, by process.
    pub cpu: BTreeMap<String, f64>,
}

/// One desk's comanda: the five calls, each call's latency into `calls`; `Err` with what
/// went wrong.
async fn one_comanda(
    api: &Api,
    unit: i64,
    lines: [(i64, i64); 2],
    calls: &mut Samples,
) -> Result<(), String> {
    let post = |path: String, body: Value| {
        let sent = Instant::now();
        let answer =
            api.client.post(format!("{}{path}", api.command)).bearer_auth(&api.token).json(&body).send();
        async move { (answer.await, sent.elapsed()) }
    };
    let mut read = |(answer, took): (reqwest::Result<reqwest::Response>, Duration)| {
        calls.record(took);
        async move {
            let answer = answer.map_err(|error| format!("0: {error}"))?;
            let status = answer.status().as_u16();
            let body: Value = answer.json().await.unwrap_or(Value::Null);
            if (200..300).contains(&status) {
                Ok(body)
            } else {
                Err(format!("{status}: {}", body.to_string().chars().take(300).collect::<String>()))
            }
        }
    };
    let opened = read(post("/comanda".into(), json!({"idCompany": unit})).await).await?;
    let id = opened["IdComanda"].as_i64().ok_or("no IdComanda")?;
    let mut figures = Value::Null;
    for (service, professional) in lines {
        let line = json!({"kind": "service", "id": service, "idProfessional": professional});
        figures = read(post(format!("/comanda/{id}/items"), line).await).await?;
    }
    let due = figures["Due"].clone();
    read(post(format!("/comanda/{id}/payments"), json!({"method": "cash", "value": due})).await).await?;
    read(post(format!("/comanda/{id}/close"), json!({})).await).await?;
    Ok(())
}

pub async fn counter(
    bench: &Bench<'_>,
    running: &Running<'_>,
    month: &Month,
    builder: &EventBuilder<'_>,
) -> anyhow::Result<Counter> {
    let cli = bench.cli;
    let seconds = cli.read_seconds;
    step(&format!(
        "counter: {CLIENTS} desks open a walk-in comanda at the big unit, add two services, pay in cash and close it (5 calls), {seconds} s"
    ));
    let api = running.api.clone();
    let unit = builder.company_id(0);
    // The big unit's professionals, each with two services they offer.
    let desks: Vec<[(i64, i64); 2]> = month
        .data
        .staff
        .iter()
        .enumerate()
        .filter(|(_, person)| person.unit == 0 && person.offers.len() >= 2)
        .map(|(p, person)| {
            let professional = builder.professional_id(p);
            [
                (builder.service_id(person.offers[0].service), professional),
                (builder.service_id(person.offers[1].service), professional),
            ]
        })
        .collect();
    anyhow::ensure!(!desks.is_empty(), "the big unit has no professional with two services");
    let caixa = api
        .client
        .post(format!("{}/caixa", api.command))
        .bearer_auth(&api.token)
        .json(&json!({"idCompany": unit, "openingCash": 0}))
        .send()
        .await
        .context("opening the big unit's caixa")?;
    note(&format!("the big unit's caixa: {}", caixa.status()));

    let before = running.cpu();
    let warmup = Duration::from_secs(cli.warmup_seconds.min(2));
    let start = Instant::now();
    let (measure_from, stop_at) = (start + warmup, start + warmup + Duration::from_secs(seconds));
    let done = Arc::new(AtomicU64::new(0));
    let bar = seconds_bar("counter", warmup + Duration::from_secs(seconds));
    let desks = Arc::new(desks);
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..CLIENTS as u64 {
        let (api, desks, done) = (api.clone(), desks.clone(), done.clone());
        let seed = cli.seed;
        workers.spawn(async move {
            let mut rng = Rng::new(seed).fork(worker);
            let (mut stats, mut calls) = (ReadStats::default(), Samples::default());
            while Instant::now() < stop_at {
                let lines = *rng.pick(&desks);
                let sent = Instant::now();
                let mut these = Samples::default();
                let outcome = one_comanda(&api, unit, lines, &mut these).await;
                let finished = Instant::now();
                done.fetch_add(1, Ordering::Relaxed);
                if sent < measure_from || finished > stop_at {
                    continue;
                }
                match outcome {
                    Ok(()) => {
                        stats.ok += 1;
                        stats.samples.record(finished - sent);
                        calls.merge(these);
                    }
                    Err(error) => {
                        let status = error.split(':').next().and_then(|s| s.parse().ok()).unwrap_or(0);
                        *stats.others.entry(status).or_default() += 1;
                        stats.other_example.get_or_insert(error);
                    }
                }
            }
            (stats, calls)
        });
    }
    let mut stats = ReadStats { concurrency: CLIENTS, seconds: seconds as f64, ..ReadStats::default() };
    let mut calls = Samples::default();
    while let Some(desk) = workers.join_next().await {
        let (desk, desk_calls) = desk.context("a desk panicked")?;
        calls.merge(desk_calls);
        stats.samples.merge(desk.samples);
        stats.ok += desk.ok;
        for (status, count) in desk.others {
            *stats.others.entry(status).or_default() += count;
        }
        stats.other_example = stats.other_example.or(desk.other_example);
    }
    stats.requests_total = done.load(Ordering::Relaxed);
    bar.finish_and_clear();
    let cpu = running.cpu_since(&before, stats.requests_total);
    note(&format!(
        "{} comandas/s closed ({} calls/s); latency of a whole comanda p50 {} p99 {}; of one call p50 {} p99 {}",
        thousands(stats.rate()),
        thousands(stats.rate() * 5.0),
        ms(p(&mut stats.samples, 50.0)),
        ms(p(&mut stats.samples, 99.0)),
        ms(p(&mut calls, 50.0)),
        ms(p(&mut calls, 99.0))
    ));
    if let Some(example) = &stats.other_example {
        note(&format!("unexpected answer: {example} ({:?})", stats.others));
    }
    show_cpu("comanda", &cpu);
    Ok(Counter { stats, calls, cpu })
}
