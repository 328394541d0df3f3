//! Units: `GET company/filter`, `GET company/{id}`, `GET company-working-hours/{id}`,
//! `GET gallery-company/{idCompany}` (spec 02 §7), the gallery's image files, and the
//! caller's business (`GET business`).
//!
//! A user sees the units they belong to, plus every active unit for the roles that see
//! them all (spec 01 §6); any other id is 404.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use navalha_domain::commission::ClubRule;
use navalha_domain::company::CompanyProfile;
use navalha_platform::auth::{Auth, Principal};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::ReadAfter;
use crate::list_arguments;
use crate::paging::{page_of, ListFilter, ListQuery, Page};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(filter))
        .routes(routes!(one))
        .routes(routes!(working_hours))
        .routes(routes!(gallery))
        .routes(routes!(image))
        .routes(routes!(business))
}

/// The caller's business and its standing with Navalha.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct BusinessStanding {
    id_business: i64,
    name: String,
    /// ACTIVE, or what the 'Pagamento pendente !' notice answers to.
    billing_status: String,
}

/// `GET /business`: the caller's business and its standing with Navalha, which decides the
/// 'Pagamento pendente !' notice (docs/operations.md, "Billing a business").
#[utoipa::path(
    get,
    path = "/business",
    tag = "Units",
    summary = "The caller's business and its standing with Navalha (the 'Pagamento pendente !' notice)",
    params(
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The business", body = BusinessStanding),
    ),
    security(("bearer" = [])),
)]
async fn business(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
) -> Result<(HeaderMap, Json<BusinessStanding>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::COMPANY).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    // Row-level security leaves only the caller's business's row; none yet (its opening not
    // projected) is paid up.
    let row: Option<(String, String)> =
        sqlx::query_as("select name, billing_status from rm_company.business")
            .fetch_optional(&mut *tx)
            .await?;
    let (name, status) = row.unwrap_or_else(|| (String::new(), "ACTIVE".to_owned()));
    Ok((
        consistency.headers(),
        Json(BusinessStanding { id_business: auth.business_id, name, billing_status: status }),
    ))
}

/// The filter every company read applies (`$1` the user's units): a user reaches only the
/// units they belong to, whatever their role.
const VISIBLE: &str = "c.company_id = any($1)";

/// Answer for an unknown or invisible company.
fn not_found() -> ApiError {
    ApiError::NotFound("Empresa não encontrada.".to_owned())
}

/// Whether `principal` may see unit `id`, read on `conn` (a [`scope`] transaction).
pub async fn ensure_visible(conn: &mut PgConnection, principal: &Principal, id: i64) -> Result<(), ApiError> {
    let visible: bool = sqlx::query_scalar(&format!(
        "select exists (select 1 from rm_company.company c where c.company_id = $2 and {VISIBLE})"
    ))
    .bind(&principal.companies)
    .bind(id)
    .fetch_one(conn)
    .await?;
    if visible {
        Ok(())
    } else {
        Err(not_found())
    }
}

/// A company in the list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CompanyItem {
    /// IdCompany.
    pub id_company: i64,
    /// Name.
    pub name: String,
    /// Phone digits.
    pub phone: String,
    /// CNPJ digits.
    pub cnpj: String,
    /// Active or not.
    pub status: bool,
}

#[utoipa::path(
    get,
    path = "/company/filter",
    tag = "Units",
    summary = "Units the user may see, paged {content,total,count}",
    params(
        ListFilter,
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Page<CompanyItem>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn filter(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<ListFilter>,
) -> Result<(HeaderMap, Json<Page<CompanyItem>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::COMPANY).await?;
    let Some(status) = filter.status()?.active_flag() else {
        return Ok((consistency.headers(), Json(Page::empty())));
    };
    let condition = format!(
        "{VISIBLE} and ($2::boolean is null or c.status = $2)
           and ($3::text is null or c.search like lower(public.unaccent($3)))"
    );
    let query = ListQuery {
        columns: "c.company_id as id_company, c.name, c.phone, c.cnpj, c.status",
        from: "rm_company.company c",
        condition: &condition,
        order: "c.search, c.company_id",
    };
    let mut tx = scope::of(&state.pool, &auth).await?;
    let arguments = list_arguments![&auth.companies, status, filter.pattern()];
    let page = page_of(&mut tx, &query, arguments, filter.limit_offset()?).await?;
    Ok((consistency.headers(), Json(page)))
}

#[utoipa::path(
    get,
    path = "/company/{id}",
    tag = "Units",
    summary = "A unit's form data",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The unit", body = CompanyDetail),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<CompanyDetail>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::COMPANY).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_visible(&mut tx, &auth, id).await?;
    let (sqlx::types::Json(profile),): (sqlx::types::Json<CompanyProfile>,) =
        sqlx::query_as("select profile from rm_company.company where company_id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
    // Whether the zone is the one its address gives: the form shows 'Automático'.
    let time_zone_from_address = profile.time_zone
        == navalha_domain::time_zone::zone_of_address(&profile.address.state, &profile.address.city);
    Ok((
        consistency.headers(),
        Json(CompanyDetail {
            id_company: id,
            name: profile.name,
            cnpj: profile.cnpj,
            email: profile.email,
            phone: profile.phone,
            whats_app: profile.whatsapp,
            status: profile.status,
            facebook: profile.facebook,
            instagram: profile.instagram,
            observation: profile.observation,
            zip_code: profile.address.zip_code,
            street: profile.address.street,
            number: profile.address.number,
            district: profile.address.district,
            city: profile.address.city,
            state: profile.address.state,
            complement: profile.address.complement,
            time_zone: profile.time_zone,
            time_zone_from_address,
            online_cancel_cutoff_hours: profile.online.cancel_cutoff_hours,
            online_max_future_bookings: profile.online.max_future_bookings,
            online_newcomer_share_percent: profile.online.newcomer_share_percent,
            online_no_show_limit: profile.online.no_show_limit,
            attendant_discount_cap_percent: profile.attendant_discount_cap_percent.unwrap_or(100),
            card_fee_credit_percent: profile.commission.card_fee_credit_points as f64 / 100.0,
            card_fee_debit_percent: profile.commission.card_fee_debit_points as f64 / 100.0,
            club_commission_rule: match profile.commission.club_rule {
                ClubRule::PlanShare => "plan",
                ClubRule::FixedCents(_) => "fixed",
            },
            club_commission_fixed: match profile.commission.club_rule {
                ClubRule::FixedCents(cents) => Some(cents as f64 / 100.0),
                ClubRule::PlanShare => None,
            },
            commission_period: profile.commission.period.code(),
            allow_negative_stock: profile.allow_negative_stock,
            reminders_before_24h: profile.reminders.before_24h,
            reminders_before_2h: profile.reminders.before_2h,
        }),
    ))
}

/// A unit as the unit form reads it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CompanyDetail {
    id_company: i64,
    name: String,
    cnpj: String,
    email: String,
    phone: String,
    #[serde(rename = "WhatsApp")]
    whats_app: bool,
    status: bool,
    facebook: String,
    instagram: String,
    observation: String,
    zip_code: String,
    street: String,
    number: String,
    district: String,
    city: String,
    state: String,
    complement: String,
    /// IANA time zone of the unit's wall clock.
    time_zone: String,
    /// Whether the zone is the one its address gives (the form shows 'Automático').
    time_zone_from_address: bool,
    online_cancel_cutoff_hours: i64,
    online_max_future_bookings: i64,
    online_newcomer_share_percent: i64,
    /// After how many 'Não compareceu' in 90 days a client may not book online; 0 never.
    online_no_show_limit: i64,
    /// The most an ATTENDANT may discount on a comanda, in percent; 100 is no cap.
    attendant_discount_cap_percent: i64,
    /// Commissions (issue 42): the card machine's fee of a credit and of a debit payment, in
    /// percent, which professionals who share it bear at their rate.
    card_fee_credit_percent: f64,
    card_fee_debit_percent: f64,
    /// How a line the club covers earns: plan (the rate over its price) or fixed.
    club_commission_rule: &'static str,
    /// With `fixed`: reais per unit.
    club_commission_fixed: Option<f64>,
    /// The usual commission period: week, fortnight or month.
    commission_period: &'static str,
    /// Whether it sells more than its stock (issue 43).
    allow_negative_stock: bool,
    /// 'Lembretes' (issue 44): WhatsApp reminders 24 hours before an appointment.
    #[serde(rename = "RemindersBefore24h")]
    reminders_before_24h: bool,
    /// And 2 hours before.
    #[serde(rename = "RemindersBefore2h")]
    reminders_before_2h: bool,
}

/// One weekday of a unit's hours; closed days have null times.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CompanyDay {
    /// 0 (Sunday) to 6.
    pub week_day: i16,
    /// Opening time.
    pub start: Option<String>,
    /// Closing time.
    pub end: Option<String>,
}

#[utoipa::path(
    get,
    path = "/company-working-hours/{id}",
    tag = "Units",
    summary = "A unit's week: [{WeekDay, Start, End}]",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<CompanyDay>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn working_hours(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Vec<CompanyDay>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::COMPANY).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_visible(&mut tx, &auth, id).await?;
    let rows: Vec<(i16, String, String)> = sqlx::query_as(
        "select week_day, start_time, end_time from rm_company.company_day where company_id = $1",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    let days = (0..7)
        .map(|week_day| {
            let row = rows.iter().find(|(day, _, _)| *day == week_day);
            CompanyDay {
                week_day,
                start: row.map(|(_, start, _)| start.clone()),
                end: row.map(|(_, _, end)| end.clone()),
            }
        })
        .collect();
    Ok((consistency.headers(), Json(days)))
}

/// An image of a unit's gallery.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct GalleryItem {
    /// IdGalleryCompany.
    pub id_gallery_company: i64,
    /// Position, from 1.
    pub sequence: i32,
    /// Where the browser fetches it.
    pub url: String,
}

#[utoipa::path(
    get,
    path = "/gallery-company/{id}",
    tag = "Units",
    summary = "A unit's images: [{IdGalleryCompany, Sequence, Url}]",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "OK", body = Vec<GalleryItem>),
        refused::Forbidden,
        refused::NotFound,
    ),
    security(("bearer" = [])),
)]
async fn gallery(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Vec<GalleryItem>>), ApiError> {
    let consistency = read_after.wait(&state.watch, &read_models::COMPANY).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    ensure_visible(&mut tx, &auth, id).await?;
    let images: Vec<GalleryItem> = sqlx::query_as(
        "select image_id as id_gallery_company, sequence, '/api/media/gallery/' || file as url
           from rm_company.gallery_image where company_id = $1 order by sequence",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    Ok((consistency.headers(), Json(images)))
}

/// The content type of a stored image, from the name command-api gave it (its SHA-256
/// and the extension of its checked format); `None` for any other name.
pub fn media_type(file: &str) -> Option<&'static str> {
    let (hash, extension) = file.split_once('.')?;
    if hash.len() != 64 || !hash.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()) {
        return None;
    }
    match extension {
        "jpg" => Some("image/jpeg"),
        "png" => Some("image/png"),
        "webp" => Some("image/webp"),
        _ => None,
    }
}

/// Serves a gallery file. Names are content hashes, so a file never changes: browsers and
/// proxies may keep it for a year. Public, like the unit's photos on its page.
#[utoipa::path(
    get,
    path = "/media/gallery/{file}",
    tag = "Units",
    summary = "An image file, cached for a year (content-addressed)",
    params(
        ("file" = String, Path),
    ),
    responses(
        (status = 200, description = "The image"),
        (status = 404, description = "No such image", body = ErrorBody),
    ),
)]
async fn image(
    State(state): State<AppState>,
    PathParam(file): PathParam<String>,
) -> Result<Response, ApiError> {
    let content_type =
        media_type(&file).ok_or_else(|| ApiError::NotFound("Imagem não encontrada.".to_owned()))?;
    let bytes = match tokio::fs::read(state.media_dir.join("gallery").join(&file)).await {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(ApiError::NotFound("Imagem não encontrada.".to_owned()))
        }
        Err(error) => return Err(ApiError::Internal(error.into())),
    };
    let etag = format!("\"{}\"", file.split('.').next().unwrap_or_default());
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable")),
        (header::ETAG, HeaderValue::from_str(&etag).map_err(|e| ApiError::Internal(e.into()))?),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
    ];
    Ok((StatusCode::OK, headers, bytes).into_response())
}

#[cfg(test)]
mod tests {
    use super::media_type;

    #[test]
    fn only_stored_names_are_served() {
        let hash = "a".repeat(64);
        assert_eq!(media_type(&format!("{hash}.png")), Some("image/png"));
        assert_eq!(media_type(&format!("{hash}.svg")), None);
        assert_eq!(media_type("../../etc/passwd"), None);
        assert_eq!(media_type(&format!("{}.jpg", "A".repeat(64))), None);
    }
}
