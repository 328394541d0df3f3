//! `comanda`: each comanda's state as its events leave it, with what its list filters on.

use async_trait::async_trait;
use chrono::NaiveDate;
use navalha_domain::comanda::{Comanda, ComandaEvent};
use navalha_read_models::table::Table;
use navalha_read_models::{self as read_models, comanda, ReadModel};
use sqlx::PgConnection;

use crate::engine::{Fold, Projection};
use crate::event::StoredEvent;
use crate::rows::Fields;
use crate::states::{StateFold, StateRows};

/// Builds `rm_comanda`.
pub struct Comandas;

#[async_trait]
impl Projection for Comandas {
    fn model(&self) -> &'static ReadModel {
        &read_models::COMANDA
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<StateFold<Comandas>>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

impl StateRows for Comandas {
    type State = Comanda;
    const TABLE: &'static Table = &comanda::TABLE;
    const STORED: &'static str =
        "select comanda_id, opened_on, state from comanda where comanda_id = any($1) and business_id = navalha_event_business()";

    fn opens(event: &ComandaEvent) -> bool {
        matches!(event, ComandaEvent::ComandaOpened(_))
    }

    fn is_opened(state: &Comanda) -> bool {
        state.opening().is_some()
    }

    fn row(out: &mut impl Fields, id: i64, opened_on: NaiveDate, state: &Comanda) -> anyhow::Result<()> {
        let totals = state.totals();
        let mut caixa_ids: Vec<i64> =
            state.payments().iter().filter_map(|payment| payment.caixa_id).collect();
        caixa_ids.sort_unstable();
        caixa_ids.dedup();
        out.field(id)
            .field(state.opening().map_or(0, |opening| opening.company_id))
            .field(state.opening().and_then(|opening| opening.appointment_id).unwrap_or(0))
            .field(opened_on)
            .field(state.status().code())
            .field(totals.total)
            .field(totals.paid)
            .field(&caixa_ids[..])
            .field(received_json(state).to_string().as_str())
            .field(serde_json::to_string(state)?.as_str());
        Ok(())
    }
}

/// `Comanda::received` as the home's queries read it: objects keyed by method and by
/// professional, so SQL sums them with `json_each`.
fn received_json(state: &Comanda) -> serde_json::Value {
    let received = state.received();
    let methods: serde_json::Map<String, serde_json::Value> =
        received.methods.iter().map(|(method, cents)| (method.code().to_owned(), (*cents).into())).collect();
    let professionals: serde_json::Map<String, serde_json::Value> =
        received.professionals.iter().map(|(id, cents)| (id.to_string(), (*cents).into())).collect();
    serde_json::json!({ "methods": methods, "professionals": professionals })
}
