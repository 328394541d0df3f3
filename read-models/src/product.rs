//! The `product` read model (schema `rm_product`), built by `projector/src/models/product.rs`:
//! the products a business sells or uses, for their list, the comanda's picker and the form;
//! and their stock (issue 43): what each unit holds and is worth at cost, and every movement
//! that changed it, from the products' events and the comandas' closes and reopenings.

use navalha_domain::comanda::Comanda;
use navalha_domain::product::Product;
use navalha_domain::service::Service;
use navalha_domain::Aggregate as _;

use crate::table::{Column, Table, Type};
use crate::ReadModel;

/// The `product` read model.
pub const PRODUCT: ReadModel = ReadModel {
    name: "product",
    aggregate_types: &[Product::TYPE, Comanda::TYPE, Service::TYPE],
    stored_states: &[],
    tables: &[&TABLE, &SERVICE_USE, &LEVEL, &MOVEMENT],
    ddl: "",
};

/// One row per product.
pub const TABLE: Table = Table::new(
    "product",
    &[
        Column::new("product_id", Type::BigInt),
        Column::new("name", Type::Text),
        Column::new("price_cents", Type::BigInt),
        Column::new("active", Type::Boolean),
        Column::new("brand", Type::Text).note("'' when none, as barcode and category"),
        Column::new("barcode", Type::Text),
        Column::new("category", Type::Text),
        Column::new("cost_cents", Type::BigInt).note("-1 when none registered"),
        Column::new("unit", Type::Text).note("un, ml or g"),
        Column::new("minimums", Type::Json).note("[{\"company_id\": 1, \"minimum\": 5}]"),
        Column::new("image", Type::Text)
            .note("the photo's file under the media dir's gallery/; '' when none"),
    ],
    &["product_id"],
);

/// How much of a product a catalogue service uses each time (0: none any more).
pub const SERVICE_USE: Table = Table::new(
    "service_use",
    &[
        Column::new("service_id", Type::BigInt),
        Column::new("product_id", Type::BigInt),
        Column::new("quantity", Type::BigInt),
    ],
    &["service_id", "product_id"],
);

/// What each unit holds of each product now, and its value at cost (the moving weighted
/// average, `navalha_domain::stock::Holding`).
pub const LEVEL: Table = Table::new(
    "stock_level",
    &[
        Column::new("product_id", Type::BigInt),
        Column::new("company_id", Type::BigInt),
        Column::new("quantity", Type::BigInt),
        Column::new("value_cents", Type::BigInt),
    ],
    &["product_id", "company_id"],
);

/// Every change of a count, in the log's order: what it moved and what it left, so the
/// stock as it stood at any instant is each unit's last movement before it.
pub const MOVEMENT: Table = Table {
    then: "create index stock_movement_product on stock_movement (product_id, company_id, at);
           create index stock_movement_at on stock_movement (company_id, at);",
    ..Table::new(
        "stock_movement",
        &[
            Column::new("global_position", Type::BigInt),
            Column::new("line", Type::Integer).note("the move's place in its event"),
            Column::new("product_id", Type::BigInt),
            Column::new("company_id", Type::BigInt),
            Column::new("kind", Type::Text).note("entrada, venda, uso_interno, ajuste or transferencia"),
            Column::new("quantity", Type::BigInt).note("signed: what came in is positive"),
            Column::new("quantity_after", Type::BigInt),
            Column::new("value_cents", Type::BigInt).note("signed, at cost"),
            Column::new("value_after", Type::BigInt),
            Column::new("unit_cost_cents", Type::BigInt).note("an entrada's; 0 otherwise"),
            Column::new("supplier", Type::Text),
            Column::new("reason", Type::Text),
            Column::new("comanda_id", Type::BigInt).note("a sale's comanda; 0 otherwise"),
            Column::new("other_company_id", Type::BigInt).note("a transfer's other unit; 0 otherwise"),
            Column::new("service_id", Type::BigInt).note("the comanda's service that used it; 0 otherwise"),
            Column::new("at", Type::Timestamptz),
            Column::new("aggregate_type", Type::Text).note("the event, whose metadata says who"),
            Column::new("aggregate_id", Type::Text),
            Column::new("sequence", Type::BigInt),
        ],
        &["global_position", "line"],
    )
};
