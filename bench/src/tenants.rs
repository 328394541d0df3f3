//! `--businesses N` (issue 46, item 1, first step): N more businesses in the log beside the
//! big one, before the rebuild. Each has 1 to 5 units, 2 to 12 professionals, 25 clients and
//! 30 appointments per professional (about a week of a small shop's history), written in
//! bulk as the big business's data is, with the business's own `BusinessOpened` first.
//!
//! The phases still run against the big business, and [`mixed`] adds the desks of the first
//! [`DESKS`] businesses: their unit leaders book and read their day agendas, a random shop
//! each time. The first ones are the same shops whatever N is, so a run with
//! `--businesses 10000` beside one with `--businesses 100` says what sharing the database
//! with ten thousand shops costs a small shop's desk, and the big unit's figures say what it
//! costs a big one.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use indicatif::{ProgressBar, ProgressStyle};

use crate::dataset::{Dataset, Params};
use crate::events::{Actor, EventBuilder, EventRow};
use crate::load;
use crate::phases::{self, Reads, UNCACHED_AGENDA_CLIENTS};
use crate::report::thousands;
use crate::rng::Rng;
use crate::setup::{Bench, Month, Running};
use crate::workload::{booking_body, choose, sign_in, BookingPlan, Schedule};
use crate::{note, step, ADMIN_EMAIL, ADMIN_PASSWORD};

/// Rows appended per transaction.
const ROWS_PER_TRANSACTION: usize = 20_000;
/// `Params.namespace` of the first of them: clear of `--fan-out`'s.
const FIRST_NAMESPACE: u64 = 1_000;

/// How many of the first businesses get a signed-in desk for [`mixed`].
pub const DESKS: usize = 100;

/// What loading them did.
pub struct Tenants {
    pub events: u64,
    pub seconds: f64,
    pub desks: Vec<Desk>,
}

/// The desk of one of the first businesses: its first unit's leader (staff reach only their
/// own units; a leader books for any professional of theirs, spec 01 §6), who books with
/// that unit's professionals.
pub struct Desk {
    email: String,
    unit: i64,
    plan: BookingPlan,
    schedule: Schedule,
}

/// The size of the `i`-th business.
pub fn params_of(i: usize, seed: u64) -> Params {
    let mut rng = Rng::new(seed).fork(10_000 + i as u64);
    let units = 1 + rng.below(5);
    let professionals = (2 + rng.below(11)).max(units);
    Params {
        units,
        professionals,
        big_unit_professionals: professionals.div_ceil(units),
        clients: professionals * 25,
        appointments: professionals * 30,
        seed: seed + 10_000 + i as u64,
        namespace: FIRST_NAMESPACE + i as u64,
    }
}

/// Loads `count` businesses (see the module's docs).
pub async fn load(bench: &Bench<'_>, month: &Month, count: usize) -> anyhow::Result<Tenants> {
    step(&format!("appending {count} more businesses (1-5 units, 2-12 professionals each)"));
    let started = Instant::now();
    let first = load::reserve(&bench.pool, "business_id_seq", count).await?;
    let now = Utc::now().naive_utc();
    let bar = ProgressBar::new(count as u64);
    bar.set_style(
        ProgressStyle::with_template("  businesses [{bar:40.cyan/blue}] {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let first_day = month.today + chrono::Duration::days(1);
    let (mut rows, mut events, mut desks): (Vec<EventRow>, u64, Vec<Desk>) = (Vec::new(), 0, Vec::new());
    for i in 0..count {
        let params = params_of(i, bench.cli.seed);
        let data = Dataset::generate(&params, month.today, now);
        let ids = load::reserve_ids(&bench.pool, &data).await?;
        // Their bookings are made by their first professional, the unit's leader.
        let actor = Actor { id: ids.professional, name: data.staff[0].name.clone() };
        let builder = EventBuilder::new(&data, ids, actor, first + i as i64);
        if i < DESKS {
            // The first unit's professionals come first (`Dataset::staff`).
            let mut plan = BookingPlan::new(&data, &builder, first_day, 0.0);
            plan.targets.truncate(params.big_unit_professionals);
            let leader = (builder.professional_id(0), data.staff[0].email.clone());
            sqlx::query(
                "insert into staff_credential (professional_id, email, password_hash)
                 select $1, lower($2), password_hash from staff_credential where email = $3",
            )
            .bind(leader.0)
            .bind(&leader.1)
            .bind(ADMIN_EMAIL)
            .execute(&bench.pool)
            .await?;
            let schedule = Schedule::from_dataset(&data, first_day);
            desks.push(Desk { email: leader.1, unit: builder.company_id(0), plan, schedule });
        }
        rows.push(builder.business_row(&format!("Barbearia Rede {:05}", i + 1)));
        rows.extend(builder.setup_rows());
        rows.extend(builder.appointment_rows(0..data.visits.len()));
        if rows.len() >= ROWS_PER_TRANSACTION || i + 1 == count {
            load::append_rows(&bench.pool, &rows).await?;
            events += rows.len() as u64;
            rows.clear();
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    note(&format!(
        "{count} businesses, {} events in {seconds:.1} s ({} events/s)",
        thousands(events as f64),
        thousands(events as f64 / seconds.max(1e-9))
    ));
    Ok(Tenants { events, seconds, desks })
}

/// What the desks of the first businesses measured.
pub struct Mixed {
    pub desks: usize,
    pub bookings: Reads,
    pub agenda: Reads,
}

/// The desks of the first businesses at work, a random shop each request: bookings by
/// `--concurrency` clients, then day agendas of a day of the month read now (`no-cache`) by
/// [`UNCACHED_AGENDA_CLIENTS`], each with its CPU per answer.
pub async fn mixed(
    bench: &mut Bench<'_>,
    running: &Running<'_>,
    month: &Month,
    desks: Vec<Desk>,
) -> anyhow::Result<Mixed> {
    let (cli, api) = (bench.cli, &running.api);
    step(&format!("signing in at the desks of the first {} businesses", desks.len()));
    let mut tokens = Vec::with_capacity(desks.len());
    for desk in &desks {
        tokens.push(sign_in(&api.client, &api.command, &desk.email, ADMIN_PASSWORD).await?);
    }
    let shops = Arc::new(desks.into_iter().zip(tokens).collect::<Vec<_>>());

    step(&format!(
        "bookings at the {} desks, a random shop each: {} clients, {} s",
        shops.len(),
        cli.concurrency,
        cli.booking_seconds
    ));
    let (client, url) = (api.client.clone(), format!("{}/scheduling/professional", api.command));
    let booking_shops = shops.clone();
    let mut bookings = phases::read_loop(
        running,
        "bookings over shops",
        cli.concurrency,
        Duration::from_secs(cli.warmup_seconds),
        Duration::from_secs(cli.booking_seconds),
        cli.seed,
        move |rng: &mut Rng| {
            // A shop whose window is full (rare) gives way to another; if all were, the run
            // stops rather than spin.
            for _ in 0..booking_shops.len() * 4 {
                let (desk, token) = &booking_shops[rng.below(booking_shops.len())];
                let Some(choice) = choose(rng, &desk.plan, &desk.schedule) else { continue };
                desk.schedule.take(choice.target, choice.date, choice.span);
                let body = booking_body(&desk.plan.targets[choice.target], &choice);
                return client.post(&url).bearer_auth(token).json(&body);
            }
            panic!("no desk had a free slot left in its booking window: make --booking-seconds shorter");
        },
    )
    .await?;
    phases::show_reads(&mut bookings, "booking", false);

    step(&format!(
        "day agendas at the {} desks, a random shop and day of the month each, read now (no-cache): {UNCACHED_AGENDA_CLIENTS} clients, {} s",
        shops.len(),
        cli.read_seconds
    ));
    let days = month.days();
    let (client, query) = (api.client.clone(), api.query.clone());
    let agenda_shops = shops.clone();
    bench.reset_statements().await?;
    let mut agenda = phases::read_loop(
        running,
        "agendas over shops",
        UNCACHED_AGENDA_CLIENTS,
        Duration::from_secs(cli.warmup_seconds.min(2)),
        Duration::from_secs(cli.read_seconds),
        cli.seed,
        move |rng: &mut Rng| {
            let (desk, token) = &agenda_shops[rng.below(agenda_shops.len())];
            let date = rng.pick(&days);
            phases::no_cache(
                client
                    .get(format!("{query}/scheduling/professional?idCompany={}&date={date}", desk.unit))
                    .bearer_auth(token),
            )
        },
    )
    .await?;
    phases::show_reads(&mut agenda, "day-agenda answer", false);
    bench.keep_statements("desk agendas", 10).await?;
    if let Some(top) = bench.profile("desk agendas") {
        crate::show_statements(top, 6);
    }
    Ok(Mixed { desks: shops.len(), bookings, agenda })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn businesses_range_from_one_to_five_units_and_two_to_twelve_professionals() {
        let all: Vec<Params> = (0..2_000).map(|i| params_of(i, 2026)).collect();
        assert!(all.iter().all(|p| (1..=5).contains(&p.units) && (2..=12).contains(&p.professionals)));
        assert!(all
            .iter()
            .all(|p| p.professionals >= p.units && p.big_unit_professionals <= p.professionals));
        for units in 1..=5 {
            assert!(all.iter().any(|p| p.units == units), "some business has {units} units");
        }
        assert_eq!(params_of(7, 2026), params_of(7, 2026), "the same seed gives the same shop");
    }
}
