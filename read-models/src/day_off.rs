//! The `day_off` read model (schema `rm_day_off`), built by `projector/src/models/day_off.rs`.

use navalha_domain::day_off::DayOff;
use navalha_domain::professional::Professional;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `day_off` read model.
pub const DAY_OFF: ReadModel = ReadModel {
    name: "day_off",
    aggregate_types: &[DayOff::TYPE, Professional::TYPE],
    stored_states: &[],
    tables: &[],
    ddl: "create table day_off (
             business_id bigint not null default public.navalha_event_business(),
             day_off_id      bigint  primary key,
             professional_id bigint  not null,
             description     text    not null,
             date_start      date    not null,
             date_end        date    not null,
             all_day         boolean not null,
             -- null when all_day
             start_time      time,
             end_time        time
         );
         create index day_off_professional on day_off (professional_id, date_start desc, day_off_id desc);
         -- the units of every professional: who may read whose days off
         create table professional (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint   primary key,
             companies       bigint[] not null
         );",
};
