//! The shell's first reads: companies, favourite menu items and profile types.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::get;
use navalha_domain::role::Role;
use navalha_platform::auth::Auth;
use navalha_platform::http::Json;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::ReadAfter;
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(companies))
        .routes(routes!(favorites))
        .route("/professional-favorite-menu", get(favorites))
        .routes(routes!(types_profile))
}

/// A company as `GET company` lists it; the web app derives canHide from the session.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
#[schema(as = SessionCompanyItem)]
pub struct CompanyItem {
    /// IdCompany.
    pub id_company: i64,
    /// Name.
    pub name: String,
    /// City.
    pub city: String,
    /// State.
    pub state: String,
    /// Active or not.
    pub status: bool,
    /// Whether the user belongs to the unit: only those can be selected (spec 01 §6) or
    /// reached by any other call.
    pub member: bool,
    /// The unit's IANA time zone: its agenda's clock and today (issue 39).
    pub time_zone: String,
}

/// The units the user may see: their own, plus every active unit for the roles that see
/// them all (spec 01 §6), each saying whether the user belongs to it. "All" is all of the
/// user's business: the query names no business, row-level security keeps other businesses'
/// units out.
#[utoipa::path(
    get,
    path = "/company",
    tag = "Session",
    summary = "Units the user may see",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "Units", body = Vec<CompanyItem>),
    ),
    security(("bearer" = [])),
)]
async fn companies(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<Vec<CompanyItem>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::COMPANY).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let rows: Vec<CompanyItem> = sqlx::query_as(
        "select company_id as id_company, name, city, state, status, company_id = any($1) as member, time_zone
           from rm_company.company
          where company_id = any($1) or ($2 and status)
          order by name, company_id",
    )
    .bind(&auth.companies)
    .bind(auth.role.sees_all_companies())
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(rows)))
}

/// A favourite menu item.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct FavoriteItem {
    /// The menu item's slug.
    pub menu_slug: String,
}

#[utoipa::path(
    get,
    path = "/professional-favorite-menu/",
    tag = "Session",
    summary = "The user's favourite menu items",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "Favourites", body = Vec<FavoriteItem>),
    ),
    security(("bearer" = [])),
)]
async fn favorites(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<Vec<FavoriteItem>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::FAVORITE_MENU).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let slugs: Vec<String> = sqlx::query_scalar(
        "select slug from rm_favorite_menu.favorite_menu where professional_id = $1 order by marked_at, slug",
    )
    .bind(auth.professional_id)
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(slugs.into_iter().map(|menu_slug| FavoriteItem { menu_slug }).collect())))
}

/// A profile type.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct TypeProfile {
    /// IdTypeProfile.
    pub id_type_profile: i64,
    /// The role's code.
    #[serde(rename = "Type")]
    pub kind: &'static str,
    /// The role's label.
    pub description: &'static str,
}

#[utoipa::path(
    get,
    path = "/types-profile",
    tag = "Session",
    summary = "Profile types (roles)",
    responses(
        (status = 200, description = "Types", body = Vec<TypeProfile>),
    ),
    security(("bearer" = [])),
)]
async fn types_profile(_auth: Auth) -> Json<Vec<TypeProfile>> {
    Json(
        Role::ALL
            .into_iter()
            .map(|role| TypeProfile {
                id_type_profile: role.id(),
                kind: role.code(),
                description: role.description(),
            })
            .collect(),
    )
}
