//! The `comanda` read model (schema `rm_comanda`), built by `projector/src/models/comanda.rs`:
//! each comanda's whole state (the domain's own fold), beside the columns its list filters on.

use navalha_domain::comanda::Comanda;
use navalha_domain::Aggregate as _;

use crate::table::{Column, Table, Type};
use crate::ReadModel;

/// The `comanda` read model.
pub const COMANDA: ReadModel = ReadModel {
    name: "comanda",
    aggregate_types: &[Comanda::TYPE],
    stored_states: &[(Comanda::TYPE, Comanda::STATE_VERSION)],
    tables: &[&TABLE],
    ddl: "",
};

/// One row per comanda.
pub const TABLE: Table = Table {
    // Not a partial index `where appointment_id <> 0`: a lookup by an appointment of
    // another table (`c.appointment_id = a.appointment_id`, `= any($1)`) cannot prove that
    // predicate, so such an index went unused and every agenda card scanned every comanda
    // of every business (issue 46, `--businesses`). With `comanda_id`, the latest comanda of
    // an appointment is the index's last entry for it.
    then: "create index comanda_day on comanda (company_id, opened_on);
           create index comanda_caixa on comanda using gin (caixa_ids);
           create index comanda_appointment on comanda (appointment_id, comanda_id);",
    ..Table::new(
        "comanda",
        &[
            Column::new("comanda_id", Type::BigInt),
            Column::new("company_id", Type::BigInt),
            Column::new("appointment_id", Type::BigInt).note("the appointment it serves; 0 for a walk-in"),
            Column::new("opened_on", Type::Date)
                .keeps()
                .note("the day it was opened, on the business's clock"),
            Column::new("status", Type::Text),
            Column::new("total_cents", Type::BigInt),
            Column::new("paid_cents", Type::BigInt),
            Column::new("caixa_ids", Type::Int8Array)
                .note("the caixas its payments (those not refunded) were taken with"),
            Column::new("received", Type::Json).note(
                "once closed, `{methods: {cash: cents}, professionals: {id: cents}}` (`Comanda::received`)",
            ),
            Column::new("state", Type::Json).note("the aggregate's state (`Comanda::STATE_VERSION`)"),
        ],
        &["comanda_id"],
    )
};

/// The comandas, `c`, of the units `$1` opened on the days `$2` to `$3`, or on any day of the
/// ranges `$4[i]` to `$5[i]` (a professional's periods already paid): what a commission
/// statement and a period's close read (issue 42). A `where` clause.
pub const OF_DAYS: &str = "c.company_id = any($1)
    and (c.opened_on between $2 and $3
         or exists (select 1 from unnest($4::date[], $5::date[]) r (f, t) where c.opened_on between r.f and r.t))";
