//! The `free_time` read model (schema `rm_free_time`), built by `projector/src/models/free_time.rs`.

use navalha_domain::appointment::Appointment;
use navalha_domain::company::Company;
use navalha_domain::professional::Professional;
use navalha_domain::Aggregate as _;

use crate::table::{Column, Table, Type};
use crate::ReadModel;

/// The `free_time` read model.
pub const FREE_TIME: ReadModel = ReadModel {
    name: "free_time",
    aggregate_types: &[Appointment::TYPE, Professional::TYPE, Company::TYPE],
    stored_states: &[],
    tables: &[&WORKING, &MEMBERSHIP, &OPENING, &BOOKED, &TEMPLATE, &DAY],
    ddl: "-- Minutes of the day as [start, end, start, end, ...], ranges in order.
         create function bounds(free int4multirange) returns int4[] language sql immutable as
         $$ select coalesce(array_agg(b order by r, n), '{}')
              from unnest(free) r, lateral (values (1, lower(r)), (2, upper(r))) v(n, b) $$;",
};

/// A professional's working periods on a weekday, copied from the events.
pub const WORKING: Table = Table {
    note: "The inputs, copied from the events.",
    ..Table::new(
        "working",
        &[
            Column::new("professional_id", Type::BigInt),
            Column::new("week_day", Type::SmallInt),
            Column::new("periods", Type::Int4Multirange),
        ],
        &["professional_id", "week_day"],
    )
};

/// The units a professional works in.
pub const MEMBERSHIP: Table = Table {
    then: "create index membership_company on membership (company_id);",
    ..Table::new(
        "membership",
        &[Column::new("professional_id", Type::BigInt), Column::new("company_id", Type::BigInt)],
        &["professional_id", "company_id"],
    )
};

/// A unit's opening hours on a weekday; a closed day has no row.
pub const OPENING: Table = Table::new(
    "opening",
    &[
        Column::new("company_id", Type::BigInt),
        Column::new("week_day", Type::SmallInt),
        Column::new("hours", Type::Int4Range),
    ],
    &["company_id", "week_day"],
);

/// Active appointments only.
pub const BOOKED: Table = Table {
    note: "Active appointments only.",
    then: "create index booked_day on booked (professional_id, date);",
    ..Table::new(
        "booked",
        &[
            Column::new("appointment_id", Type::BigInt),
            Column::new("professional_id", Type::BigInt),
            Column::new("date", Type::Date),
            Column::new("during", Type::Int4Range),
        ],
        &["appointment_id"],
    )
};

/// A professional's free time on a weekday in a unit: working periods within opening hours.
pub const TEMPLATE: Table = Table {
    note: "The free time.",
    then: "create index template_professional on template (professional_id);",
    ..Table::new(
        "template",
        &[
            Column::new("professional_id", Type::BigInt),
            Column::new("company_id", Type::BigInt),
            Column::new("week_day", Type::SmallInt),
            Column::new("free", Type::Int4Multirange),
            Column::new("bounds", Type::Int4Array),
        ],
        &["company_id", "professional_id", "week_day"],
    )
};

/// A booked day's free time: its template less its bookings.
pub const DAY: Table = Table {
    then: "create index day_professional on day (professional_id, date);",
    ..Table::new(
        "day",
        &[
            Column::new("professional_id", Type::BigInt),
            Column::new("company_id", Type::BigInt),
            Column::new("date", Type::Date),
            Column::new("bounds", Type::Int4Array),
        ],
        &["company_id", "professional_id", "date"],
    )
};
