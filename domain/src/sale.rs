//! What a shop sells at the counter: the kinds of a comanda's lines, which commissions
//! (and, later, stock) read as well.

use serde::{Deserialize, Serialize};

/// What a comanda's line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    Service,
    Product,
}
