//! The `caixa` read model (schema `rm_caixa`), built by `projector/src/models/caixa.rs`: each
//! caixa's whole state (the domain's own fold). Its payments live in the comandas
//! (`comanda.caixa_ids` finds them), so a report reads both models.

use navalha_domain::caixa::Caixa;
use navalha_domain::Aggregate as _;

use crate::table::{Column, Table, Type};
use crate::ReadModel;

/// The `caixa` read model.
pub const CAIXA: ReadModel = ReadModel {
    name: "caixa",
    aggregate_types: &[Caixa::TYPE],
    stored_states: &[(Caixa::TYPE, Caixa::STATE_VERSION)],
    tables: &[&TABLE],
    ddl: "",
};

/// One row per caixa.
pub const TABLE: Table = Table {
    then: "create index caixa_day on caixa (company_id, opened_on);",
    ..Table::new(
        "caixa",
        &[
            Column::new("caixa_id", Type::BigInt),
            Column::new("company_id", Type::BigInt),
            Column::new("opened_on", Type::Date)
                .keeps()
                .note("the day it was opened, on the business's clock"),
            Column::new("status", Type::Text),
            Column::new("state", Type::Json).note("the aggregate's state (`Caixa::STATE_VERSION`)"),
        ],
        &["caixa_id"],
    )
};
