//! The `product` read model (schema `rm_product`), built by `projector/src/models/product.rs`:
//! the products a business sells, for their list and the comanda's picker.

use navalha_domain::product::Product;
use navalha_domain::Aggregate as _;

use crate::table::{Column, Table, Type};
use crate::ReadModel;

/// The `product` read model.
pub const PRODUCT: ReadModel = ReadModel {
    name: "product",
    aggregate_types: &[Product::TYPE],
    stored_states: &[],
    tables: &[&TABLE],
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
    ],
    &["product_id"],
);
