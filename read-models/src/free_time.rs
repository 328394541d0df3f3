//! The `free_time` read model (schema `rm_free_time`), built by `projector/src/models/free_time.rs`.

use navalha_domain::appointment::Appointment;
use navalha_domain::company::Company;
use navalha_domain::professional::Professional;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `free_time` read model.
pub const FREE_TIME: ReadModel = ReadModel {
    name: "free_time",
    aggregate_types: &[Appointment::TYPE, Professional::TYPE, Company::TYPE],
    stored_states: &[],
    ddl: "-- Minutes of the day as [start, end, start, end, ...], ranges in order.
         create function bounds(free int4multirange) returns int4[] language sql immutable as
         $$ select coalesce(array_agg(b order by r, n), '{}')
              from unnest(free) r, lateral (values (1, lower(r)), (2, upper(r))) v(n, b) $$;
         -- The inputs, copied from the events.
         create table working (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint   not null,
             week_day        smallint not null,
             periods         int4multirange not null,
             primary key (professional_id, week_day)
         );
         create table membership (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint not null,
             company_id      bigint not null,
             primary key (professional_id, company_id)
         );
         create index membership_company on membership (company_id);
         create table opening (
             business_id bigint not null default public.navalha_event_business(),
             company_id bigint   not null,
             week_day   smallint not null,
             hours      int4range not null,
             primary key (company_id, week_day)
         );
         -- Active appointments only.
         create table booked (
             business_id bigint not null default public.navalha_event_business(),
             appointment_id  bigint primary key,
             professional_id bigint not null,
             date            date   not null,
             during          int4range not null
         );
         create index booked_day on booked (professional_id, date);
         -- The free time.
         create table template (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint   not null,
             company_id      bigint   not null,
             week_day        smallint not null,
             free            int4multirange not null,
             bounds          int4[] not null,
             primary key (company_id, professional_id, week_day)
         );
         create index template_professional on template (professional_id);
         create table day (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint not null,
             company_id      bigint not null,
             date            date   not null,
             bounds          int4[] not null,
             primary key (company_id, professional_id, date)
         );
         create index day_professional on day (professional_id, date);",
};
