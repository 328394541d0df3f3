//! `favorite_menu`: each professional's starred menu items.

use async_trait::async_trait;
use navalha_domain::favorite_menu::{FavoriteMenu, FavoriteMenuEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_favorite_menu.favorite_menu`.
pub struct FavoriteMenus;

#[async_trait]
impl Projection for FavoriteMenus {
    fn name(&self) -> &'static str {
        "favorite_menu"
    }

    fn schema_sql(&self) -> &'static str {
        "create table favorite_menu (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint      not null,
             slug            text        not null,
             marked_at       timestamptz not null,
             primary key (professional_id, slug)
         );"
    }

    fn aggregate_types(&self) -> &'static [&'static str] {
        &[FavoriteMenu::TYPE]
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let professional_id = event.numeric_id()?;
        match event.decode::<FavoriteMenuEvent>()? {
            FavoriteMenuEvent::FavoriteMenuMarked { slug } => {
                sqlx::query(
                    "insert into favorite_menu (professional_id, slug, marked_at) values ($1, $2, $3)
                     on conflict do nothing",
                )
                .bind(professional_id)
                .bind(slug)
                .bind(event.recorded_at)
                .execute(conn)
                .await?;
            }
            FavoriteMenuEvent::FavoriteMenuUnmarked { slug } => {
                sqlx::query("delete from favorite_menu where professional_id = $1 and slug = $2")
                    .bind(professional_id)
                    .bind(slug)
                    .execute(conn)
                    .await?;
            }
        }
        Ok(())
    }
}
