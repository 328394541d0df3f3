//! `product`: each product as last saved.

use std::collections::BTreeMap;

use async_trait::async_trait;
use navalha_domain::product::{ProductDetails, ProductEvent};
use navalha_read_models::{self as read_models, product, ReadModel};
use sqlx::PgConnection;

use crate::batch::Batch;
use crate::copy::CopyIn;
use crate::engine::{Fold, Projection, Tables};
use crate::event::StoredEvent;
use crate::rows::Fields;

/// Builds `rm_product`.
pub struct Products;

#[async_trait]
impl Projection for Products {
    fn model(&self) -> &'static ReadModel {
        &read_models::PRODUCT
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<ProductFold>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

/// Each product's last details: every event sets them whole.
#[derive(Default)]
struct ProductFold(BTreeMap<i64, ProductDetails>);

#[async_trait]
impl Fold for ProductFold {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        let (ProductEvent::ProductCreated(details) | ProductEvent::ProductChanged(details)) =
            event.decode()?;
        self.0.insert(event.numeric_id()?, details);
        Ok(())
    }

    async fn write(self: Box<Self>, conn: &mut PgConnection, tables: Tables) -> anyhow::Result<()> {
        match tables {
            Tables::Filled => {
                let mut rows = Batch::new(&product::TABLE);
                for (id, details) in &self.0 {
                    product_row(&mut rows, *id, details);
                    rows.end_row()?;
                }
                rows.upsert(conn).await
            }
            Tables::Empty { business_id } => {
                let mut rows = CopyIn::start(conn, business_id, &product::TABLE).await?;
                for (id, details) in &self.0 {
                    product_row(&mut rows, *id, details);
                    rows.end_row().await?;
                }
                rows.finish().await?;
                Ok(())
            }
        }
    }
}

/// A product's row of `product::TABLE`.
fn product_row(out: &mut impl Fields, id: i64, details: &ProductDetails) {
    out.field(id).field(&details.name).field(details.price_cents).field(details.active);
}
