//! The `agenda` read model (schema `rm_agenda`), built by `projector/src/models/agenda.rs`.

use navalha_domain::appointment::Appointment;
use navalha_domain::client::Client;
use navalha_domain::professional::Professional;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `agenda` read model.
pub const AGENDA: ReadModel = ReadModel {
    name: "agenda",
    aggregate_types: &[Appointment::TYPE, Client::TYPE, Professional::TYPE],
    stored_states: &[],
    ddl: "create table appointment (
             business_id bigint not null default public.navalha_event_business(),
             appointment_id  bigint  primary key,
             company_id      bigint  not null,
             membership_id   bigint  not null,
             professional_id bigint  not null,
             client_id       bigint  not null,
             date            date    not null,
             start_time      time    not null,
             end_time        time    not null,
             -- json, not jsonb: read whole, and a rebuild copies it faster
             services        json    not null,
             observation     text    not null,
             times_type      text    not null,
             -- true booked, false cancelled (spec 01 §4)
             status          boolean not null default true,
             confirmation    boolean not null default false,
             -- booked by the client on the unit's public page (issue 18)
             online          boolean not null default false,
             -- copies of what the day list shows of the client and the professional
             client_name        text    not null,
             client_phone       text    not null,
             client_whatsapp    boolean not null,
             professional_name  text    not null,
             professional_color text    not null
         );
         create index appointment_day on appointment (company_id, date, start_time);
         create index appointment_professional_day on appointment (professional_id, date);
         create index appointment_client on appointment (client_id);
         -- Every unit and day each appointment has ever been on: the appointments a day had
         -- at an earlier instant are among these (the agenda's past view replays them).
         create table appointment_place (
             business_id bigint not null default public.navalha_event_business(),
             company_id     bigint not null,
             date           date   not null,
             appointment_id bigint not null,
             primary key (company_id, date, appointment_id)
         );
         -- What the day list shows of clients and professionals.
         create table client (
             business_id bigint not null default public.navalha_event_business(),
             client_id bigint  primary key,
             name      text    not null,
             phone     text    not null,
             whatsapp  boolean not null
         );
         create table professional (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint primary key,
             name            text   not null default '',
             color           text   not null default ''
         );",
};
