//! The `message` read model (schema `rm_message`), built by `projector/src/models/message.rs`:
//! each WhatsApp message to a client (issue 44) as its events leave it, for the day's
//! 'Mensagens' view, the card's delivery state and the home's confirmation rate. The unit is
//! the appointment's, read from `rm_agenda` at query time.

use navalha_domain::message::Message;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `message` read model.
pub const MESSAGE: ReadModel = ReadModel {
    name: "message",
    aggregate_types: &[Message::TYPE],
    stored_states: &[],
    tables: &[],
    ddl: "create table message (
             business_id bigint not null default public.navalha_event_business(),
             -- the stream's id, e.g. a812-r24-202612011000 (appointment, kind, start)
             message_key    text        primary key,
             appointment_id bigint,
             -- r24 or r2 for reminders, the key's second part
             kind           text        not null,
             template       text        not null,
             -- the client's number, country code first
             to_phone       text        not null,
             -- when the send was decided (or skipped)
             requested_at   timestamptz not null,
             -- REQUESTED (no answer yet), ACCEPTED, REFUSED or SKIPPED
             outcome        text        not null,
             attempts       integer     not null default 1,
             -- the furthest delivery report: SENT, DELIVERED, READ, or FAILED over all
             delivery       text,
             -- the provider's words for REFUSED or FAILED, or why it was skipped
             error          text,
             -- the button the client pressed last: CONFIRMAR or CANCELAR
             reply          text,
             replied_at     timestamptz
         );
         -- With requested_at, an appointment's latest reminder (the agenda card's) is the
         -- index's last entry for it: without it the planner may walk the business's
         -- messages backwards through message_day for each card (issue 46).
         create index message_appointment on message (appointment_id, requested_at);
         create index message_day on message (business_id, requested_at);",
};
