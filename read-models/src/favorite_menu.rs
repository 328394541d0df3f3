//! The `favorite_menu` read model (schema `rm_favorite_menu`), built by `projector/src/models/favorite_menu.rs`.

use navalha_domain::favorite_menu::FavoriteMenu;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `favorite_menu` read model.
pub const FAVORITE_MENU: ReadModel = ReadModel {
    name: "favorite_menu",
    aggregate_types: &[FavoriteMenu::TYPE],
    stored_states: &[],
    tables: &[],
    ddl: "create table favorite_menu (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint      not null,
             slug            text        not null,
             marked_at       timestamptz not null,
             primary key (professional_id, slug)
         );",
};
