//! Models whose rows hold an aggregate's whole state, the domain's own fold, beside the day
//! it was opened and the columns its lists filter on (`comanda`, `caixa`): the read side
//! shows exactly what the write side decided. [`StateFold`] folds a batch's events into the
//! stored states and writes each changed one as a row.

use std::collections::HashMap;
use std::marker::PhantomData;

use async_trait::async_trait;
use chrono::NaiveDate;
use navalha_domain::Aggregate;
use navalha_platform::clock;
use navalha_read_models::table::Table;
use sqlx::PgConnection;

use crate::batch::Batch;
use crate::copy::{in_key_order, CopyIn};
use crate::engine::{Fold, Tables};
use crate::event::StoredEvent;
use crate::rows::Fields;

/// What a model of whole states says about its aggregate and its row.
pub trait StateRows: Send + 'static {
    type State: Aggregate + Unpin;
    /// Its one table, keyed by the aggregate's numeric id.
    const TABLE: &'static Table;
    /// Reads the stored `(id, opened_on, state)` of ids `$1`.
    const STORED: &'static str;

    /// Whether the event opens the aggregate (its day is the row's `opened_on`).
    fn opens(event: &<Self::State as Aggregate>::Event) -> bool;

    /// Whether the state was opened (events of one opened before the log's start write no row).
    fn is_opened(state: &Self::State) -> bool;

    /// The row of a state.
    fn row(out: &mut impl Fields, id: i64, opened_on: NaiveDate, state: &Self::State) -> anyhow::Result<()>;
}

/// The batch's events per aggregate, in order, and the day each opened.
pub struct StateFold<R: StateRows> {
    changed: Vec<(i64, Vec<<R::State as Aggregate>::Event>)>,
    index: HashMap<i64, usize>,
    opened_on: HashMap<i64, NaiveDate>,
    rows: PhantomData<R>,
}

impl<R: StateRows> Default for StateFold<R> {
    fn default() -> Self {
        StateFold { changed: Vec::new(), index: HashMap::new(), opened_on: HashMap::new(), rows: PhantomData }
    }
}

#[async_trait]
impl<R: StateRows> Fold for StateFold<R> {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        let decoded: <R::State as Aggregate>::Event = event.decode()?;
        if R::opens(&decoded) {
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

    /// Each aggregate's stored state, then its events, written as one row.
    async fn write(self: Box<Self>, conn: &mut PgConnection, tables: Tables) -> anyhow::Result<()> {
        let StateFold { changed, mut opened_on, .. } = *self;
        let mut stored: HashMap<i64, R::State> = HashMap::new();
        if tables == Tables::Filled {
            let ids: Vec<i64> = changed.iter().map(|(id, _)| *id).collect();
            let rows: Vec<(i64, NaiveDate, sqlx::types::Json<R::State>)> =
                sqlx::query_as(R::STORED).bind(&ids).fetch_all(&mut *conn).await?;
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
            if let (true, Some(day)) = (R::is_opened(&state), opened_on.get(&id)) {
                states.push((id, (*day, state)));
            }
        }
        match tables {
            Tables::Filled => {
                let mut rows = Batch::new(R::TABLE);
                for (id, (day, state)) in &states {
                    R::row(&mut rows, *id, *day, state)?;
                    rows.end_row()?;
                }
                rows.upsert(conn).await
            }
            Tables::Empty { business_id } => {
                let mut rows = CopyIn::start(conn, business_id, R::TABLE).await?;
                for (id, (day, state)) in in_key_order(states) {
                    R::row(&mut rows, id, day, &state)?;
                    rows.end_row().await?;
                }
                rows.finish().await?;
                Ok(())
            }
        }
    }
}
