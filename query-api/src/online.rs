//! Online booking's reads (issue 18, docs/online-booking.md): a unit's public page, and one
//! booking opened by its link's token. Public: the unit's page shows only what its owners
//! publish, and a booking only to the holder of its token. Free times are the public
//! `no-auth/scheduling/available-times`.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{NaiveDate, NaiveDateTime};
use navalha_domain::appointment::{BookedService, Booking, TimesType};
use navalha_domain::company::CompanyProfile;
use navalha_domain::online::{self, BookingView, Names};
use navalha_domain::professional::status as professional_status;
use navalha_domain::validation::TimeOfDay;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam};
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use sqlx::types::Json as JsonColumn;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::ReadAfter;
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(unit_page)).routes(routes!(booking))
}

/// A day the unit opens.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct OpenDay {
    /// 0 (Sunday) to 6.
    pub week_day: i16,
    /// `HH:MM`.
    pub start: String,
    /// `HH:MM`.
    pub end: String,
}

/// A service the unit's professionals perform; each may charge and take differently.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PublicService {
    /// The service.
    pub id_service: i64,
    /// Its name.
    pub name: String,
    /// The lowest price, in cents.
    pub min_cents: i64,
    /// The highest price, in cents.
    pub max_cents: i64,
    /// The shortest time.
    pub min_minutes: i32,
    /// The longest time.
    pub max_minutes: i32,
}

/// A professional the client may choose.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PublicProfessional {
    /// The professional.
    pub id_professional: i64,
    /// Their name.
    pub name: String,
    /// A photo's address; none yet.
    pub photo: Option<String>,
    /// The services they perform.
    pub id_services: Vec<i64>,
}

/// A unit's public page.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct UnitPage {
    /// The unit.
    pub id_company: i64,
    /// Its name.
    pub name: String,
    /// Its address on one line.
    pub address: String,
    /// Its phone, digits.
    pub phone: String,
    /// Whether the phone takes WhatsApp.
    #[serde(rename = "WhatsApp")]
    pub whatsapp: bool,
    /// Its gallery's images.
    pub photos: Vec<String>,
    /// The days it opens.
    pub hours: Vec<OpenDay>,
    /// What can be booked.
    pub services: Vec<PublicService>,
    /// Who can be chosen.
    pub professionals: Vec<PublicProfessional>,
    /// Until how many hours before the start a booking can be cancelled or moved online.
    pub cancel_cutoff_hours: i64,
    /// How many future bookings one client may hold here.
    pub max_future_bookings: i64,
    /// The unit's IANA time zone: the page's today and times are on its clock (issue 39).
    pub time_zone: String,
}

fn unit_not_found() -> ApiError {
    ApiError::NotFound(online::MSG_UNIT_NOT_FOUND.to_owned())
}

#[utoipa::path(
    get,
    path = "/no-auth/online-booking/{idCompany}",
    tag = "Online booking",
    summary = "A unit's public booking page: name, address, photos, hours, services with prices and times, professionals",
    params(("idCompany" = i64, Path)),
    responses(
        (status = 200, description = "The page", body = UnitPage),
        (status = 404, description = "Unknown or inactive unit", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all, fields(company_id))]
async fn unit_page(
    State(state): State<AppState>,
    PathParam(company_id): PathParam<i64>,
) -> Result<Json<UnitPage>, ApiError> {
    let mut tx = scope::of_unit(&state.pool, company_id).await?.ok_or_else(unit_not_found)?;
    let unit: Option<(String, String, bool, JsonColumn<CompanyProfile>)> = sqlx::query_as(
        "select name, phone, whatsapp, profile from rm_company.company where company_id = $1 and status",
    )
    .bind(company_id)
    .fetch_optional(&mut *tx)
    .await?;
    let (name, phone, whatsapp, profile) = unit.ok_or_else(unit_not_found)?;
    let photos: Vec<String> = sqlx::query_scalar(
        "select '/api/media/gallery/' || file from rm_company.gallery_image where company_id = $1 order by sequence",
    )
    .bind(company_id)
    .fetch_all(&mut *tx)
    .await?;
    let hours: Vec<OpenDay> = sqlx::query_as::<_, (i16, String, String)>(
        "select week_day, start_time, end_time from rm_company.company_day where company_id = $1 order by week_day",
    )
    .bind(company_id)
    .fetch_all(&mut *tx)
    .await?
    .into_iter()
    .map(|(week_day, start, end)| OpenDay { week_day, start: short_time(&start), end: short_time(&end) })
    .collect();
    let offers: Vec<(i64, String, i64, String, i64, i32)> = sqlx::query_as(
        "select p.professional_id, p.name, s.service_id, s.description, o.cents, o.minutes
           from rm_professional.membership m
           join rm_professional.professional p on p.professional_id = m.professional_id
           join rm_professional.offered_service o on o.professional_id = p.professional_id and o.active
           join rm_professional.catalogue_service s on s.service_id = o.service_id and s.active
          where m.company_id = $1 and p.status = $2
          order by p.name, p.professional_id, s.description, s.service_id",
    )
    .bind(company_id)
    .bind(professional_status::ACTIVE)
    .fetch_all(&mut *tx)
    .await?;
    let mut professionals: Vec<PublicProfessional> = Vec::new();
    let mut services: BTreeMap<(String, i64), PublicService> = BTreeMap::new();
    for (professional_id, professional, service_id, description, cents, minutes) in offers {
        match professionals.last_mut() {
            Some(last) if last.id_professional == professional_id => last.id_services.push(service_id),
            _ => professionals.push(PublicProfessional {
                id_professional: professional_id,
                name: professional,
                photo: None,
                id_services: vec![service_id],
            }),
        }
        let entry = services.entry((description.clone(), service_id)).or_insert(PublicService {
            id_service: service_id,
            name: description,
            min_cents: cents,
            max_cents: cents,
            min_minutes: minutes,
            max_minutes: minutes,
        });
        entry.min_cents = entry.min_cents.min(cents);
        entry.max_cents = entry.max_cents.max(cents);
        entry.min_minutes = entry.min_minutes.min(minutes);
        entry.max_minutes = entry.max_minutes.max(minutes);
    }
    Ok(Json(UnitPage {
        id_company: company_id,
        name,
        address: profile.0.address.one_line(),
        phone,
        whatsapp,
        photos,
        hours,
        services: services.into_values().collect(),
        professionals,
        cancel_cutoff_hours: profile.0.online.cancel_cutoff_hours,
        max_future_bookings: profile.0.online.max_future_bookings,
        time_zone: profile.0.time_zone.clone(),
    }))
}

/// `HH:MM:SS` or `HH:MM` as `HH:MM`.
fn short_time(text: &str) -> String {
    text.get(..5).unwrap_or(text).to_owned()
}

/// An appointment of the agenda's read model, with the names the page shows.
#[derive(Debug, sqlx::FromRow)]
struct BookingRow {
    company_id: i64,
    membership_id: i64,
    professional_id: i64,
    client_id: i64,
    date: NaiveDate,
    start_time: String,
    end_time: String,
    services: JsonColumn<Vec<BookedService>>,
    observation: String,
    times_type: String,
    status: bool,
    online: bool,
    professional_name: String,
    company_name: String,
    profile: JsonColumn<CompanyProfile>,
    now: NaiveDateTime,
}

#[utoipa::path(
    get,
    path = "/no-auth/online-booking/booking/{token}",
    tag = "Online booking",
    summary = "The booking a confirmation's link opens",
    params(("token" = String, Path), ReadAfter),
    responses(
        (status = 200, description = "The booking", body = BookingView),
        (status = 404, description = "A bad or expired link", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
async fn booking(
    State(state): State<AppState>,
    read_after: ReadAfter,
    PathParam(token): PathParam<String>,
) -> Result<(HeaderMap, Json<BookingView>), ApiError> {
    let (claims, id) = state.verifier.booking_link(&token).await?;
    let not_found = || ApiError::NotFound(online::MSG_BOOKING_NOT_FOUND.to_owned());
    let consistency = read_after.wait(&state.watch, &read_models::AGENDA).await?;
    let mut tx = scope::of_business(&state.pool, claims.biz).await?;
    let row: Option<BookingRow> = sqlx::query_as(
        "select a.company_id, a.membership_id, a.professional_id, a.client_id, a.date,
                a.start_time::text as start_time, a.end_time::text as end_time, a.services, a.observation,
                a.times_type, a.status, a.online, coalesce(p.name, '') as professional_name,
                c.name as company_name, c.profile, ($3::timestamptz at time zone c.time_zone)::timestamp as now
           from rm_agenda.appointment a
           join rm_company.company c on c.company_id = a.company_id
           left join rm_agenda.professional p on p.professional_id = a.professional_id
          where a.appointment_id = $1 and a.company_id = $2",
    )
    .bind(id)
    .bind(claims.unit)
    .bind(navalha_platform::clock::now())
    .fetch_optional(&mut *tx)
    .await?;
    let row = row.ok_or_else(not_found)?;
    let time = |text: &str| TimeOfDay::parse(text).map_err(|e| ApiError::Internal(anyhow::anyhow!("{e}")));
    let booking = Booking {
        membership_id: row.membership_id,
        professional_id: row.professional_id,
        company_id: row.company_id,
        client_id: row.client_id,
        date: row.date,
        start: time(&row.start_time)?,
        end: time(&row.end_time)?,
        services: row.services.0,
        observation: row.observation,
        times_type: TimesType::parse(Some(&row.times_type)).unwrap_or(TimesType::OnlyAvailables),
        online: row.online,
        // The page's view does not show it.
        newcomer: false,
        client_overlap: false,
        series: None,
    };
    let names = Names {
        company: row.company_name,
        address: row.profile.0.address.one_line(),
        professional: row.professional_name,
    };
    let rules = row.profile.0.online;
    Ok((consistency.headers(), Json(BookingView::new(id, &booking, row.status, names, &rules, row.now))))
}
