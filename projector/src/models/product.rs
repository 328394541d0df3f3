//! `product`: each product as last saved, and its stock (issue 43): each unit's count and
//! value at cost, and every movement, from the products' stock events and the comandas'
//! closes ('Venda') and reopenings (the sale given back).

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use navalha_domain::comanda::ComandaEvent;
use navalha_domain::product::{ProductDetails, ProductEvent};
use navalha_domain::service::{ProductUse, ServiceEvent};
use navalha_domain::stock::{Holding, MovementKind, StockMove};
use navalha_domain::Aggregate as _;
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

/// A batch's products and stock events, in order. The values at cost depend on the order
/// (the average moves with each entrada), so they are worked out at the write, from the
/// counts the batch starts with.
#[derive(Default)]
struct ProductFold {
    /// Each product's last details.
    products: BTreeMap<i64, ProductDetails>,
    /// What each service uses, by (service, product), as last set.
    uses: BTreeMap<(i64, i64), i64>,
    /// What changes stock, and the registered costs that value it, in the log's order.
    changes: Vec<Change>,
}

enum Change {
    /// A product's registered cost from here on.
    Cost {
        product_id: i64,
        cost_cents: i64,
    },
    Stock(Movement),
}

/// One stock event's moves, with what the movement list shows of it.
struct Movement {
    kind: MovementKind,
    moves: Vec<StockMove>,
    unit_cost_cents: i64,
    supplier: String,
    reason: String,
    comanda_id: i64,
    global_position: i64,
    at: DateTime<Utc>,
    aggregate_type: &'static str,
    aggregate_id: String,
    sequence: i64,
}

impl ProductFold {
    fn movement(&mut self, event: &StoredEvent, kind: MovementKind, moves: Vec<StockMove>) -> &mut Movement {
        let comanda = event.aggregate_type == navalha_domain::comanda::Comanda::TYPE;
        self.changes.push(Change::Stock(Movement {
            kind,
            moves,
            unit_cost_cents: 0,
            supplier: String::new(),
            reason: String::new(),
            comanda_id: if comanda { event.numeric_id().unwrap_or_default() } else { 0 },
            global_position: event.position.global_position,
            at: event.recorded_at,
            aggregate_type: if comanda {
                navalha_domain::comanda::Comanda::TYPE
            } else {
                navalha_domain::product::Product::TYPE
            },
            aggregate_id: event.aggregate_id.clone(),
            sequence: event.sequence,
        }));
        match self.changes.last_mut() {
            Some(Change::Stock(movement)) => movement,
            _ => unreachable!("a movement was just pushed"),
        }
    }
}

#[async_trait]
impl Fold for ProductFold {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        if event.aggregate_type == navalha_domain::service::Service::TYPE {
            if let ServiceEvent::ProductUseSet(ProductUse { product_id, quantity }) = event.decode()? {
                self.uses.insert((event.numeric_id()?, product_id), quantity);
            }
            return Ok(());
        }
        if event.aggregate_type == navalha_domain::comanda::Comanda::TYPE {
            // Only a close and a reopening move stock: the others are not even decoded.
            if !matches!(event.event_type.as_str(), "ComandaClosed" | "ComandaReopened") {
                return Ok(());
            }
            match &*event.decoded::<ComandaEvent>()? {
                ComandaEvent::ComandaClosed { stock_moves, .. } if !stock_moves.is_empty() => {
                    self.movement(event, MovementKind::Venda, stock_moves.clone());
                }
                ComandaEvent::ComandaReopened { stock_moves, reason } if !stock_moves.is_empty() => {
                    self.movement(event, MovementKind::Venda, stock_moves.clone()).reason =
                        format!("Comanda reaberta: {reason}");
                }
                _ => {}
            }
            return Ok(());
        }
        let product_id = event.numeric_id()?;
        match event.decode::<ProductEvent>()? {
            ProductEvent::ProductCreated(details) | ProductEvent::ProductChanged(details) => {
                let cost_cents = details.cost_cents.unwrap_or(0);
                self.changes.push(Change::Cost { product_id, cost_cents });
                self.products.insert(product_id, details);
            }
            ProductEvent::StockReceived { stock_moves, unit_cost_cents, supplier } => {
                let movement = self.movement(event, MovementKind::Entrada, stock_moves);
                movement.unit_cost_cents = unit_cost_cents;
                movement.supplier = supplier;
            }
            ProductEvent::StockUsed { stock_moves, reason } => {
                self.movement(event, MovementKind::UsoInterno, stock_moves).reason = reason;
            }
            ProductEvent::StockCounted { stock_moves, reason, .. } => {
                self.movement(event, MovementKind::Ajuste, stock_moves).reason = reason;
            }
            ProductEvent::StockTransferred { stock_moves } => {
                self.movement(event, MovementKind::Transferencia, stock_moves);
            }
        }
        Ok(())
    }

    async fn write(self: Box<Self>, conn: &mut PgConnection, tables: Tables) -> anyhow::Result<()> {
        let mut stock = match tables {
            Tables::Filled => Stock::read(conn, &self.changes).await?,
            Tables::Empty { .. } => Stock::default(),
        };
        let mut movements: Vec<MovementRow<'_>> = Vec::new();
        for change in &self.changes {
            match change {
                Change::Cost { product_id, cost_cents } => {
                    stock.costs.insert(*product_id, *cost_cents);
                }
                Change::Stock(movement) => stock.apply(movement, &mut movements),
            }
        }
        let levels: BTreeMap<(i64, i64), Holding> =
            stock.touched.iter().map(|key| (*key, stock.holding(*key))).collect();
        match tables {
            Tables::Filled => {
                let mut rows = Batch::new(&product::TABLE);
                for (id, details) in &self.products {
                    product_row(&mut rows, *id, details);
                    rows.end_row()?;
                }
                rows.upsert(conn).await?;
                let mut rows = Batch::new(&product::SERVICE_USE);
                for ((service_id, product_id), quantity) in &self.uses {
                    rows.field(*service_id).field(*product_id).field(*quantity);
                    rows.end_row()?;
                }
                rows.upsert(conn).await?;
                let mut rows = Batch::new(&product::LEVEL);
                for (key, holding) in &levels {
                    level_row(&mut rows, *key, holding);
                    rows.end_row()?;
                }
                rows.upsert(conn).await?;
                let mut rows = Batch::new(&product::MOVEMENT);
                for row in &movements {
                    row.write(&mut rows);
                    rows.end_row()?;
                }
                rows.upsert(conn).await
            }
            Tables::Empty { business_id } => {
                let mut rows = CopyIn::start(conn, business_id, &product::TABLE).await?;
                for (id, details) in &self.products {
                    product_row(&mut rows, *id, details);
                    rows.end_row().await?;
                }
                rows.finish().await?;
                let mut rows = CopyIn::start(conn, business_id, &product::SERVICE_USE).await?;
                for ((service_id, product_id), quantity) in &self.uses {
                    rows.field(*service_id).field(*product_id).field(*quantity);
                    rows.end_row().await?;
                }
                rows.finish().await?;
                let mut rows = CopyIn::start(conn, business_id, &product::LEVEL).await?;
                for (key, holding) in &levels {
                    level_row(&mut rows, *key, holding);
                    rows.end_row().await?;
                }
                rows.finish().await?;
                let mut rows = CopyIn::start(conn, business_id, &product::MOVEMENT).await?;
                for row in &movements {
                    row.write(&mut rows);
                    rows.end_row().await?;
                }
                rows.finish().await?;
                Ok(())
            }
        }
    }
}

/// The counts and registered costs as the batch goes.
#[derive(Default)]
struct Stock {
    holdings: HashMap<(i64, i64), Holding>,
    costs: HashMap<i64, i64>,
    /// The counts the batch changed, to write back.
    touched: Vec<(i64, i64)>,
}

impl Stock {
    /// The counts and costs of what `changes` touch, as the tables hold them before.
    async fn read(conn: &mut PgConnection, changes: &[Change]) -> anyhow::Result<Stock> {
        let (mut products, mut companies) = (Vec::new(), Vec::new());
        for change in changes {
            if let Change::Stock(movement) = change {
                for m in &movement.moves {
                    products.push(m.product_id);
                    companies.push(m.company_id);
                }
            }
        }
        let mut stock = Stock::default();
        if products.is_empty() {
            return Ok(stock);
        }
        let held: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
            "select l.product_id, l.company_id, l.quantity, l.value_cents
               from stock_level l
               join unnest($1::bigint[], $2::bigint[]) as k (product_id, company_id)
                 on k.product_id = l.product_id and k.company_id = l.company_id
              where l.business_id = navalha_event_business()",
        )
        .bind(&products)
        .bind(&companies)
        .fetch_all(&mut *conn)
        .await?;
        for (product_id, company_id, quantity, value_cents) in held {
            stock.holdings.insert((product_id, company_id), Holding { quantity, value_cents });
        }
        let costs: Vec<(i64, i64)> = sqlx::query_as(
            "select product_id, greatest(cost_cents, 0) from product where product_id = any($1) and business_id = navalha_event_business()",
        )
        .bind(&products)
        .fetch_all(&mut *conn)
        .await?;
        stock.costs.extend(costs);
        Ok(stock)
    }

    fn holding(&self, key: (i64, i64)) -> Holding {
        self.holdings.get(&key).copied().unwrap_or_default()
    }

    /// Applies one event's moves in their order (a transfer's out before its in, which
    /// takes the value the out took), adding a row per move.
    fn apply<'a>(&mut self, movement: &'a Movement, rows: &mut Vec<MovementRow<'a>>) {
        let mut carried = 0;
        for (line, m) in movement.moves.iter().enumerate() {
            let key = (m.product_id, m.company_id);
            if !self.touched.contains(&key) {
                self.touched.push(key);
            }
            let cost = self.costs.get(&m.product_id).copied().unwrap_or(0);
            let holding = self.holdings.entry(key).or_default();
            // A comanda's service that uses the product: 'Uso interno', not a sale.
            let kind = if m.service_id.is_some() { MovementKind::UsoInterno } else { movement.kind };
            let value_cents = if m.quantity < 0 {
                let taken = holding.take(-m.quantity);
                carried = taken;
                -taken
            } else {
                let value = match movement.kind {
                    MovementKind::Entrada => movement.unit_cost_cents * m.quantity,
                    MovementKind::Transferencia => carried,
                    _ => holding.worth(m.quantity, cost),
                };
                holding.put(m.quantity, value);
                value
            };
            let other_company_id = match movement.kind {
                MovementKind::Transferencia => movement
                    .moves
                    .iter()
                    .find(|other| other.company_id != m.company_id)
                    .map_or(0, |other| other.company_id),
                _ => 0,
            };
            rows.push(MovementRow {
                movement,
                kind,
                line: i32::try_from(line).unwrap_or(i32::MAX),
                m,
                value_cents,
                after: *holding,
                other_company_id,
            });
        }
    }
}

/// A row of `product::MOVEMENT`: one move of a movement, and what it left.
struct MovementRow<'a> {
    movement: &'a Movement,
    kind: MovementKind,
    line: i32,
    m: &'a StockMove,
    value_cents: i64,
    after: Holding,
    other_company_id: i64,
}

impl MovementRow<'_> {
    fn write(&self, out: &mut impl Fields) {
        let movement = self.movement;
        out.field(movement.global_position)
            .field(self.line)
            .field(self.m.product_id)
            .field(self.m.company_id)
            .field(self.kind.as_str())
            .field(self.m.quantity)
            .field(self.after.quantity)
            .field(self.value_cents)
            .field(self.after.value_cents)
            .field(movement.unit_cost_cents)
            .field(&movement.supplier)
            .field(&movement.reason)
            .field(movement.comanda_id)
            .field(self.other_company_id)
            .field(self.m.service_id.unwrap_or(0))
            .field(movement.at)
            .field(movement.aggregate_type)
            .field(&movement.aggregate_id)
            .field(movement.sequence);
    }
}

/// A product's row of `product::TABLE`.
fn product_row(out: &mut impl Fields, id: i64, details: &ProductDetails) {
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let minimums = serde_json::to_string(&details.minimums).unwrap_or_else(|_| "[]".to_owned());
    out.field(id)
        .field(&details.name)
        .field(details.price_cents)
        .field(details.active)
        .field(&text(&details.brand))
        .field(&text(&details.barcode))
        .field(&text(&details.category))
        .field(details.cost_cents.unwrap_or(-1))
        .field(details.unit.as_str())
        .field(&minimums)
        .field(&text(&details.image));
}

/// A count's row of `product::LEVEL`.
fn level_row(out: &mut impl Fields, (product_id, company_id): (i64, i64), holding: &Holding) {
    out.field(product_id).field(company_id).field(holding.quantity).field(holding.value_cents);
}
