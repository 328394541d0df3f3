//! The `company` read model (schema `rm_company`), built by `projector/src/models/company.rs`.

use navalha_domain::business::Business;
use navalha_domain::company::Company;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `company` read model.
pub const COMPANY: ReadModel = ReadModel {
    name: "company",
    aggregate_types: &[Company::TYPE, Business::TYPE],
    stored_states: &[],
    tables: &[],
    ddl: "create table company (
             business_id bigint not null default public.navalha_event_business(),
             company_id  bigint primary key,
             name        text    not null,
             cnpj        text    not null,
             email       text    not null,
             phone       text    not null,
             whatsapp    boolean not null,
             status      boolean not null,
             city        text    not null,
             state       text    not null,
             time_zone   text    not null,
             profile     jsonb   not null,
             -- lower(unaccent(name phone cnpj)), for contains-search with a trigram index
             search      text    not null
         );
         create index company_search on company using gin (search public.gin_trgm_ops);
         -- Opening hours: one row per open weekday (0 = Sunday).
         create table company_day (
             business_id bigint not null default public.navalha_event_business(),
             company_id bigint   not null,
             week_day   smallint not null,
             start_time text     not null,
             end_time   text     not null,
             primary key (company_id, week_day)
         );
         create table gallery_image (
             business_id bigint not null default public.navalha_event_business(),
             image_id   bigint  primary key,
             company_id bigint  not null,
             sequence   integer not null,
             file       text    not null
         );
         create index gallery_image_company on gallery_image (company_id, sequence);
         -- The business itself: one row, which row-level security shows only to its staff.
         create table business (
             business_id    bigint primary key default public.navalha_event_business(),
             name           text not null,
             billing_status text not null default 'ACTIVE'
         );",
};
