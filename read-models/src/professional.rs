//! The `professional` read model (schema `rm_professional`), built by `projector/src/models/professional.rs`.

use navalha_domain::professional::Professional;
use navalha_domain::service::Service;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `professional` read model.
pub const PROFESSIONAL: ReadModel = ReadModel {
    name: "professional",
    aggregate_types: &[Professional::TYPE, Service::TYPE],
    stored_states: &[],
    tables: &[],
    ddl: "create table professional (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint primary key,
             name            text     not null default '',
             cpf             text     not null default '',
             email           text     not null default '',
             phone           text     not null default '',
             whatsapp        boolean  not null default false,
             birth_date      date,
             address         jsonb    not null default '{}',
             color           text     not null default '',
             role_id         smallint not null default 6,
             status          smallint not null default 0,
             -- commission rates in force (issue 42): CommissionRates as the domain writes them
             commission      jsonb,
             -- lower(unaccent(name email phone cpf)), for contains-search with a trigram index
             search          text     not null default ''
         );
         create index professional_search on professional using gin (search public.gin_trgm_ops);
         -- IdCompanyProfessional: a professional in a unit; position 0 is their own unit.
         create table membership (
             business_id bigint not null default public.navalha_event_business(),
             membership_id   bigint  primary key,
             professional_id bigint  not null,
             company_id      bigint  not null,
             position        integer not null
         );
         create index membership_company on membership (company_id, professional_id);
         create index membership_professional on membership (professional_id, position);
         -- Weekly hours: one row per working weekday (0 = Sunday), periods as [{start, end}].
         create table working_day (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint   not null,
             week_day        smallint not null,
             periods         jsonb    not null,
             primary key (professional_id, week_day)
         );
         create table catalogue_service (
             business_id bigint not null default public.navalha_event_business(),
             service_id      bigint  primary key,
             description     text    not null,
             default_cents   bigint  not null,
             default_minutes integer not null,
             active          boolean not null
         );
         -- IdCompanyProfessionalService: a service as one professional performs it.
         create table offered_service (
             business_id bigint not null default public.navalha_event_business(),
             offered_id      bigint  primary key,
             professional_id bigint  not null,
             service_id      bigint  not null,
             minutes         integer not null,
             cents           bigint  not null,
             combo           boolean not null,
             active          boolean not null,
             -- 'Intervalo após' (issue 45): minutes the professional stays busy after it.
             interval_after  integer not null default 0
         );
         create index offered_service_professional on offered_service (professional_id, offered_id);",
};
