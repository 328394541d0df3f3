//! `caixa`: each caixa's state as its events leave it, with what its list filters on.

use async_trait::async_trait;
use chrono::NaiveDate;
use navalha_domain::caixa::{Caixa, CaixaEvent, CaixaStatus};
use navalha_read_models::table::Table;
use navalha_read_models::{self as read_models, caixa, ReadModel};
use sqlx::PgConnection;

use crate::engine::{Fold, Projection};
use crate::event::StoredEvent;
use crate::rows::Fields;
use crate::states::{StateFold, StateRows};

/// Builds `rm_caixa`.
pub struct Caixas;

#[async_trait]
impl Projection for Caixas {
    fn model(&self) -> &'static ReadModel {
        &read_models::CAIXA
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<StateFold<Caixas>>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

impl StateRows for Caixas {
    type State = Caixa;
    const TABLE: &'static Table = &caixa::TABLE;
    const STORED: &'static str = "select caixa_id, opened_on, state from caixa where caixa_id = any($1) and business_id = navalha_event_business()";

    fn opens(event: &CaixaEvent) -> bool {
        matches!(event, CaixaEvent::CaixaOpened { .. })
    }

    fn is_opened(state: &Caixa) -> bool {
        state.status() != CaixaStatus::New
    }

    fn row(out: &mut impl Fields, id: i64, opened_on: NaiveDate, state: &Caixa) -> anyhow::Result<()> {
        out.field(id)
            .field(state.company_id())
            .field(opened_on)
            .field(state.status().code())
            .field(serde_json::to_string(state)?.as_str());
        Ok(())
    }
}
