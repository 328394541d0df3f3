//! The `dashboard` read model (schema `rm_dashboard`), built by `projector/src/models/dashboard.rs`.

use navalha_domain::appointment::Appointment;
use navalha_domain::client::Client;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `dashboard` read model.
pub const DASHBOARD: ReadModel = ReadModel {
    name: "dashboard",
    aggregate_types: &[Appointment::TYPE, Client::TYPE],
    stored_states: &[],
    ddl: "-- Each appointment's last state: what it counts for in the figures below.
         create table appointment (
             business_id bigint not null default public.navalha_event_business(),
             appointment_id  bigint   primary key,
             company_id      bigint   not null,
             professional_id bigint   not null,
             date            date     not null,
             start_minute    smallint not null,
             minutes         integer  not null,
             -- json, not jsonb: only the projector reads it back, whole, and a rebuild
             -- copies it in a quarter faster (115,880 rows: 200 against 270 ms)
             services        json     not null,
             active          boolean  not null,
             confirmed       boolean  not null
         );
         -- Per unit, day and professional: active (booked), confirmed and cancelled
         -- appointments, the active ones' minutes and the prices of their services.
         create table day_figure (
             business_id bigint not null default public.navalha_event_business(),
             company_id      bigint not null,
             date            date   not null,
             professional_id bigint not null,
             booked          bigint not null,
             confirmed       bigint not null,
             cancelled       bigint not null,
             booked_minutes  bigint not null,
             revenue_cents   bigint not null,
             primary key (company_id, date, professional_id)
         );
         create index day_figure_professional on day_figure (professional_id, date);
         -- The same by service, for the expected revenue by service.
         create table service_figure (
             business_id bigint not null default public.navalha_event_business(),
             company_id      bigint not null,
             date            date   not null,
             professional_id bigint not null,
             service_id      bigint not null,
             description     text   not null,
             booked          bigint not null,
             revenue_cents   bigint not null,
             primary key (company_id, date, professional_id, service_id)
         );
         -- Active appointments by start hour, for the busiest hours (weekday x hour).
         create table hour_figure (
             business_id bigint not null default public.navalha_event_business(),
             company_id      bigint   not null,
             date            date     not null,
             professional_id bigint   not null,
             hour            smallint not null,
             booked          bigint   not null,
             primary key (company_id, date, professional_id, hour)
         );
         -- Clients registered per day (clients are the business's, not a unit's).
         create table client_registration (
             business_id bigint not null default public.navalha_event_business(),
             date    date   not null,
             clients bigint not null,
             primary key (business_id, date)
         );",
};
