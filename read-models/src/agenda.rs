//! The `agenda` read model (schema `rm_agenda`), built by `projector/src/models/agenda.rs`.

use navalha_domain::appointment::Appointment;
use navalha_domain::client::Client;
use navalha_domain::professional::Professional;
use navalha_domain::Aggregate as _;

use crate::table::{Column, Table, Type};
use crate::ReadModel;

/// The `agenda` read model.
pub const AGENDA: ReadModel = ReadModel {
    name: "agenda",
    aggregate_types: &[Appointment::TYPE, Client::TYPE, Professional::TYPE],
    stored_states: &[],
    tables: &[&APPOINTMENT, &APPOINTMENT_PLACE, &CLIENT, &PROFESSIONAL],
    ddl: "",
};

/// Each appointment, with copies of what the day list shows of its client and professional.
pub const APPOINTMENT: Table = Table {
    // The copies come from the people's tables, written first in a batch.
    upsert_join: "left join client c on c.client_id = b.client_id and c.business_id = navalha_event_business()
                  left join professional p on p.professional_id = b.professional_id and p.business_id = navalha_event_business()",
    then: "create index appointment_day on appointment (company_id, date, start_time);
           create index appointment_professional_day on appointment (professional_id, date);
           create index appointment_client on appointment (client_id);",
    ..Table::new(
        "appointment",
        &[
            Column::new("appointment_id", Type::BigInt),
            Column::new("company_id", Type::BigInt),
            Column::new("membership_id", Type::BigInt),
            Column::new("professional_id", Type::BigInt),
            Column::new("client_id", Type::BigInt),
            Column::new("date", Type::Date),
            Column::new("start_time", Type::Time),
            Column::new("end_time", Type::Time),
            Column::new("services", Type::Json),
            Column::new("observation", Type::Text),
            Column::new("times_type", Type::Text),
            Column::new("status", Type::Boolean)
                .default("true")
                .on_conflict("appointment.status and excluded.status")
                .note("true booked, false cancelled (spec 01 §4); a cancellation is final"),
            Column::new("confirmation", Type::Boolean)
                .default("false")
                .on_conflict("appointment.confirmation or excluded.confirmation"),
            Column::new("online", Type::Boolean)
                .default("false")
                .note("booked by the client on the unit's public page (issue 18)"),
            Column::new("attendance", Type::Text)
                .default("''")
                .keeps()
                .note("ARRIVED, NO_SHOW or empty (issue 41); 'Atendido' is its comanda, closed"),
            Column::new("series", Type::Json)
                .default("'null'")
                .note("the regulars' series it belongs to (`SeriesLink`), JSON null when none (issue 45)"),
            Column::new("client_name", Type::Text)
                .upsert_from("coalesce(c.name, '')")
                .note("copies of what the day list shows of the client and the professional"),
            Column::new("client_phone", Type::Text).upsert_from("coalesce(c.phone, '')"),
            Column::new("client_whatsapp", Type::Boolean).upsert_from("coalesce(c.whatsapp, false)"),
            Column::new("professional_name", Type::Text).upsert_from("coalesce(p.name, '')"),
            Column::new("professional_color", Type::Text).upsert_from("coalesce(p.color, '')"),
        ],
        &["appointment_id"],
    )
};

/// Every unit and day each appointment has ever been on: the appointments a day had at an
/// earlier instant are among these (the agenda's past view replays them).
pub const APPOINTMENT_PLACE: Table = Table {
    note: "Every unit and day each appointment has ever been on (the past view replays them).",
    ..Table::new(
        "appointment_place",
        &[
            Column::new("company_id", Type::BigInt),
            Column::new("date", Type::Date),
            Column::new("appointment_id", Type::BigInt),
        ],
        &["company_id", "date", "appointment_id"],
    )
};

/// What the day list shows of clients.
pub const CLIENT: Table = Table::new(
    "client",
    &[
        Column::new("client_id", Type::BigInt),
        Column::new("name", Type::Text),
        Column::new("phone", Type::Text),
        Column::new("whatsapp", Type::Boolean),
    ],
    &["client_id"],
);

/// What the day list shows of professionals; each part set when an event tells it.
pub const PROFESSIONAL: Table = Table::new(
    "professional",
    &[
        Column::new("professional_id", Type::BigInt),
        Column::new("name", Type::Text).default("''"),
        Column::new("color", Type::Text).default("''"),
    ],
    &["professional_id"],
);
