//! Favourite menu items: `POST professional-favorite-menu/` and
//! `DELETE professional-favorite-menu/slug/{slug}`.

use axum::http::{HeaderMap, StatusCode};
use axum::routing::{delete, post};
use axum::{extract::State, Router};
use navalha_domain::favorite_menu::{FavoriteMenu, FavoriteMenuCommand};
use navalha_platform::auth::Auth;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::ApiError;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::commands::{execute, metadata_of, position_headers};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/professional-favorite-menu/", post(mark))
        .route("/professional-favorite-menu", post(mark))
        .route("/professional-favorite-menu/slug/{slug}", delete(unmark))
}

#[derive(Debug, Deserialize)]
struct MarkBody {
    #[serde(default)]
    slug: String,
}

#[tracing::instrument(skip_all, fields(slug = %body.slug, professional_id = auth.professional_id))]
async fn mark(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    Json(body): Json<MarkBody>,
) -> Result<(StatusCode, HeaderMap, Json<Value>), ApiError> {
    let slug = body.slug.trim().to_owned();
    if slug.is_empty() {
        return Err(ApiError::field("slug", "Informe o item de menu."));
    }
    let command = FavoriteMenuCommand::MarkFavorite { slug: slug.clone(), role: auth.role };
    let position = execute::<FavoriteMenu>(
        &state.favorites,
        &state.pool,
        &auth.professional_id.to_string(),
        command,
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((StatusCode::CREATED, position_headers(position), Json(json!({ "MenuSlug": slug }))))
}

#[tracing::instrument(skip_all, fields(slug = %slug, professional_id = auth.professional_id))]
async fn unmark(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    PathParam(slug): PathParam<String>,
) -> Result<(StatusCode, HeaderMap), ApiError> {
    let position = execute::<FavoriteMenu>(
        &state.favorites,
        &state.pool,
        &auth.professional_id.to_string(),
        FavoriteMenuCommand::UnmarkFavorite { slug },
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((StatusCode::NO_CONTENT, position_headers(position)))
}
