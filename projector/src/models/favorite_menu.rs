//! `favorite_menu`: each professional's starred menu items.

use async_trait::async_trait;
use navalha_domain::favorite_menu::FavoriteMenuEvent;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, ReadModel};

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_favorite_menu.favorite_menu`.
pub struct FavoriteMenus;

#[async_trait]
impl Projection for FavoriteMenus {
    fn model(&self) -> &'static ReadModel {
        &read_models::FAVORITE_MENU
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
                sqlx::query("delete from favorite_menu where professional_id = $1 and slug = $2 and business_id = navalha_event_business()")
                    .bind(professional_id)
                    .bind(slug)
                    .execute(conn)
                    .await?;
            }
        }
        Ok(())
    }
}
