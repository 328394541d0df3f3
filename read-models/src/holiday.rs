//! The `holiday` read model (schema `rm_holiday`), built by `projector/src/models/holiday.rs`.

use navalha_domain::holiday::Holiday;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `holiday` read model.
pub const HOLIDAY: ReadModel = ReadModel {
    name: "holiday",
    aggregate_types: &[Holiday::TYPE],
    stored_states: &[],
    tables: &[],
    ddl: "create table holiday (
             business_id bigint not null default public.navalha_event_business(),
             holiday_id    bigint  primary key,
             description   text    not null,
             start_date    date    not null,
             end_date      date    not null,
             all_day       boolean not null,
             -- null when all_day
             start_time    time,
             end_time      time,
             all_companies boolean not null,
             -- lower(unaccent(description)), for contains-search with a trigram index
             search        text    not null
         );
         create index holiday_search on holiday using gin (search public.gin_trgm_ops);
         create index holiday_order on holiday (start_date desc, holiday_id desc);
         create table holiday_company (
             business_id bigint not null default public.navalha_event_business(),
             holiday_id bigint not null references holiday on delete cascade,
             company_id bigint not null,
             primary key (holiday_id, company_id)
         );
         create index holiday_company_company on holiday_company (company_id);",
};
