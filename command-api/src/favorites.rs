//! Favourite menu items: `POST professional-favorite-menu/` and
//! `DELETE professional-favorite-menu/slug/{slug}`.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use navalha_domain::favorite_menu::{FavoriteMenu, FavoriteMenuCommand};
use navalha_platform::auth::Auth;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::ApiError;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{execute, metadata_of, position_headers};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(mark))
        .route("/professional-favorite-menu", post(mark))
        .routes(routes!(unmark))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct MarkBody {
    #[serde(default)]
    slug: String,
}

/// A menu item starred.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct Starred {
    menu_slug: String,
}

#[utoipa::path(
    post,
    path = "/professional-favorite-menu/",
    tag = "Favorites",
    summary = "Star a menu item",
    request_body = MarkBody,
    responses(
        (status = 201, description = "Starred", body = Starred, headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        (status = 400, description = "Malformed input", body = ErrorBody),
        (status = 409, description = "Conflict", body = ErrorBody),
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(slug = %body.slug, professional_id = auth.professional_id))]
async fn mark(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    Json(body): Json<MarkBody>,
) -> Result<(StatusCode, HeaderMap, Json<Starred>), ApiError> {
    let slug = body.slug.trim().to_owned();
    if slug.is_empty() {
        return Err(ApiError::field("slug", "Informe o item de menu."));
    }
    let command = FavoriteMenuCommand::MarkFavorite { slug: slug.clone(), role: auth.role };
    let position = execute::<FavoriteMenu>(
        &state.events,
        &auth.professional_id.to_string(),
        command,
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((StatusCode::CREATED, position_headers(position), Json(Starred { menu_slug: slug })))
}

#[utoipa::path(
    delete,
    path = "/professional-favorite-menu/slug/{slug}",
    tag = "Favorites",
    summary = "Remove a star",
    params(
        ("slug" = String, Path),
    ),
    responses(
        (status = 204, description = "Removed", headers(("X-Navalha-Position" = String, description = "The position of the events appended: send it back to query-api to read them"))),
        (status = 404, description = "Not found, or outside the caller's units", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(slug = %slug, professional_id = auth.professional_id))]
async fn unmark(
    State(state): State<AppState>,
    auth: Auth,
    origin: RequestOrigin,
    PathParam(slug): PathParam<String>,
) -> Result<(StatusCode, HeaderMap), ApiError> {
    let position = execute::<FavoriteMenu>(
        &state.events,
        &auth.professional_id.to_string(),
        FavoriteMenuCommand::UnmarkFavorite { slug },
        &metadata_of(&auth, &origin),
    )
    .await?;
    Ok((StatusCode::NO_CONTENT, position_headers(position)))
}
