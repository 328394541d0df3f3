//! `--businesses N` (issue 46, item 1, first step): N more businesses in the log beside the
//! big one, before the rebuild. Each has 1 to 5 units, 2 to 12 professionals, 25 clients and
//! 30 appointments per professional (about a week of a small shop's history), written in
//! bulk as the big business's data is, with the business's own `BusinessOpened` first.
//!
//! The phases still run against the big business: a run with `--businesses 10000` beside one
//! without says what sharing the database with ten thousand shops costs a shop's bookings,
//! agenda and rebuild. Bookings spread over a mix of the businesses need a signed-in admin
//! in each (as `--fan-out` has): the next step.

use std::time::Instant;

use chrono::Utc;
use indicatif::{ProgressBar, ProgressStyle};

use crate::dataset::{Dataset, Params};
use crate::events::{Actor, EventBuilder, EventRow};
use crate::load;
use crate::report::thousands;
use crate::rng::Rng;
use crate::setup::{Bench, Month};
use crate::{note, step};

/// Rows appended per transaction.
const ROWS_PER_TRANSACTION: usize = 20_000;
/// `Params.namespace` of the first of them: clear of `--fan-out`'s.
const FIRST_NAMESPACE: u64 = 1_000;

/// What loading them did.
pub struct Tenants {
    pub events: u64,
    pub seconds: f64,
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
    let (mut rows, mut events): (Vec<EventRow>, u64) = (Vec::new(), 0);
    for i in 0..count {
        let data = Dataset::generate(&params_of(i, bench.cli.seed), month.today, now);
        let ids = load::reserve_ids(&bench.pool, &data).await?;
        // Their bookings are made by their first professional, the unit's leader.
        let actor = Actor { id: ids.professional, name: data.staff[0].name.clone() };
        let builder = EventBuilder::new(&data, ids, actor, first + i as i64);
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
    Ok(Tenants { events, seconds })
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
