//! The `club` read model (schema `rm_club`), built by `projector/src/models/club.rs`.

use navalha_domain::partner_company::PartnerCompany;
use navalha_domain::plan::Plan;
use navalha_domain::subscription::Subscription;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `club` read model.
pub const CLUB: ReadModel = ReadModel {
    name: "club",
    aggregate_types: &[Plan::TYPE, Subscription::TYPE, PartnerCompany::TYPE],
    stored_states: &[(Plan::TYPE, Plan::STATE_VERSION), (Subscription::TYPE, Subscription::STATE_VERSION)],
    tables: &[],
    ddl: "create table plan (
             business_id bigint not null default public.navalha_event_business(),
             plan_id        bigint  primary key,
             plan_name      text    not null,
             description    text    not null,
             value_cents    bigint  not null,
             active         boolean not null,
             payment_method text    not null,
             -- lower(unaccent(plan name and description)), for contains-search
             search         text    not null,
             state          jsonb   not null
         );
         create index plan_search on plan using gin (search public.gin_trgm_ops);
         create table plan_service (
             business_id bigint not null default public.navalha_event_business(),
             plan_service_id bigint primary key,
             plan_id         bigint not null,
             service_id      bigint not null,
             description     text   not null,
             original_cents  bigint not null,
             discount        bigint not null,
             value_cents     bigint not null
         );
         create index plan_service_plan on plan_service (plan_id);
         create table partner_company (
             business_id bigint not null default public.navalha_event_business(),
             partner_company_id bigint primary key,
             name               text   not null
         );
         create table subscription (
             business_id bigint not null default public.navalha_event_business(),
             subscription_id bigint      primary key,
             plan_id         bigint      not null,
             user_id         bigint      not null,
             plan_name       text        not null,
             value_cents     bigint      not null,
             user_name       text        not null,
             phone           text        not null,
             internal_status text        not null,
             status          text,
             created_at      timestamptz not null,
             -- lower(unaccent(name, e-mail)) plus CPF and phone digits
             search          text        not null,
             state           jsonb       not null
         );
         create index subscription_plan on subscription (plan_id);
         create index subscription_user on subscription (user_id);
         create index subscription_search on subscription using gin (search public.gin_trgm_ops);",
};
