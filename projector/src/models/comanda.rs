//! `comanda`: each comanda's state as its events leave it, with what its list filters on.
//! The state is the domain's own fold, so the read side shows what the write side decided.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::NaiveDate;
use navalha_domain::comanda::{Comanda, ComandaEvent};
use navalha_domain::Aggregate as _;
use navalha_platform::clock;
use navalha_read_models::{self as read_models, comanda, ReadModel};
use sqlx::PgConnection;

use crate::batch::Batch;
use crate::copy::{in_key_order, CopyIn};
use crate::engine::{Fold, Projection, Tables};
use crate::event::StoredEvent;
use crate::rows::Fields;

/// Builds `rm_comanda`.
pub struct Comandas;

#[async_trait]
impl Projection for Comandas {
    fn model(&self) -> &'static ReadModel {
        &read_models::COMANDA
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<ComandaFold>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

/// The batch's events per comanda, in order, and the day each comanda opened.
#[derive(Default)]
struct ComandaFold {
    changed: Vec<(i64, Vec<ComandaEvent>)>,
    index: HashMap<i64, usize>,
    opened_on: HashMap<i64, NaiveDate>,
}

#[async_trait]
impl Fold for ComandaFold {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        let decoded: ComandaEvent = event.decode()?;
        if matches!(decoded, ComandaEvent::ComandaOpened(_)) {
            let day = clock::wall_clock(event.recorded_at, clock::DEFAULT_TIME_ZONE).date();
            self.opened_on.insert(id, day);
        }
        let slot = *self.index.entry(id).or_insert_with(|| {
            self.changed.push((id, Vec::new()));
            self.changed.len() - 1
        });
        self.changed[slot].1.push(decoded);
        Ok(())
    }

    /// Each comanda's stored state, then its events, written as one row.
    async fn write(self: Box<Self>, conn: &mut PgConnection, tables: Tables) -> anyhow::Result<()> {
        let ComandaFold { changed, mut opened_on, .. } = *self;
        let mut stored: HashMap<i64, Comanda> = HashMap::new();
        if tables == Tables::Filled {
            let ids: Vec<i64> = changed.iter().map(|(id, _)| *id).collect();
            let rows: Vec<(i64, NaiveDate, sqlx::types::Json<Comanda>)> =
                sqlx::query_as("select comanda_id, opened_on, state from comanda where comanda_id = any($1)")
                    .bind(&ids)
                    .fetch_all(&mut *conn)
                    .await?;
            for (id, day, sqlx::types::Json(state)) in rows {
                opened_on.entry(id).or_insert(day);
                stored.insert(id, state);
            }
        }
        let mut states = Vec::new();
        for (id, events) in changed {
            let mut state = stored.remove(&id).unwrap_or_default();
            for event in events {
                state.apply(event);
            }
            // Events of a comanda opened before the log's start change no row.
            if let (Some(_), Some(day)) = (state.opening(), opened_on.get(&id)) {
                states.push((id, (*day, state)));
            }
        }
        match tables {
            Tables::Filled => {
                let mut rows = Batch::new(&comanda::TABLE);
                for (id, (day, state)) in &states {
                    comanda_row(&mut rows, *id, *day, state)?;
                    rows.end_row()?;
                }
                rows.upsert(conn).await
            }
            Tables::Empty { business_id } => {
                let mut rows = CopyIn::start(conn, business_id, &comanda::TABLE).await?;
                for (id, (day, state)) in in_key_order(states) {
                    comanda_row(&mut rows, id, day, &state)?;
                    rows.end_row().await?;
                }
                rows.finish().await?;
                Ok(())
            }
        }
    }
}

/// A comanda's row of `comanda::TABLE`.
fn comanda_row(out: &mut impl Fields, id: i64, opened_on: NaiveDate, state: &Comanda) -> anyhow::Result<()> {
    let totals = state.totals();
    out.field(id)
        .field(state.opening().map_or(0, |opening| opening.company_id))
        .field(opened_on)
        .field(state.status().code())
        .field(totals.total)
        .field(totals.paid)
        .field(serde_json::to_string(state)?.as_str());
    Ok(())
}
