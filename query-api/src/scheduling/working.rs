//! `GET scheduling/company/{idCompany}/working-times?date[&dateEnd]`: what the agenda's grid
//! shades (issue 45 point 2): for each day, the unit's opening hours, its holidays, and each
//! professional's working periods (breaks are the gaps). Days off come from
//! `day-off/company/{idCompany}`; the past from the unit's clock. With these, a click on a
//! time nobody can take says why at once, with the booking check's own messages.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{Datelike, Duration, NaiveDate, NaiveTime};
use navalha_domain::availability::{blocked_on, format_minutes, spans_of_bounds, Span};
use navalha_domain::professional::status as professional_status;
use navalha_platform::auth::Auth;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;

use crate::consistency::ReadAfter;
use crate::days_off::DaysParam;
use crate::scope;
use crate::AppState;

/// A span of the day, `HH:MM` to `HH:MM`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct GridSpan {
    /// `HH:MM`.
    pub start: &'static str,
    /// `HH:MM` (24:00 for midnight).
    pub end: &'static str,
}

impl From<Span> for GridSpan {
    fn from(span: Span) -> Self {
        GridSpan { start: format_minutes(span.start), end: format_minutes(span.end) }
    }
}

/// A holiday of the unit on the day.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct GridHoliday {
    /// Its description ('Natal').
    pub description: String,
    /// Its window; null for the whole day.
    pub window: Option<GridSpan>,
}

/// One professional's working periods on the day.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct GridProfessional {
    /// IdProfessional.
    pub id_professional: i64,
    /// Their working periods, in order; none on a day they do not work.
    pub working: Vec<GridSpan>,
}

/// What the grid shades on one day.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct GridDay {
    /// `YYYY-MM-DD`.
    pub date: NaiveDate,
    /// The unit's opening hours; null when it is closed that weekday.
    pub opening: Option<GridSpan>,
    /// The unit's holidays that touch the day.
    pub holidays: Vec<GridHoliday>,
    /// The unit's active professionals (only oneself for BARBER1, BARBER2 and DEFAULT).
    pub professionals: Vec<GridProfessional>,
}

/// A holiday as read: description, first and last day, whole days, window.
type HolidayRow = (String, NaiveDate, NaiveDate, bool, Option<NaiveTime>, Option<NaiveTime>);

fn minutes(time: NaiveTime) -> u16 {
    (time - NaiveTime::MIN).num_minutes().clamp(0, 24 * 60) as u16
}

#[utoipa::path(
    get,
    path = "/scheduling/company/{idCompany}/working-times",
    tag = "Agenda",
    summary = "What the agenda's grid shades on a day or a week: opening hours, holidays, working periods (issue 45)",
    description = "Any staff member of the unit; roles that see only their own agenda get only their own periods. A unit the caller does not belong to is 404.",
    params(
        ("idCompany" = i64, Path),
        ("date" = chrono::NaiveDate, Query),
        ("dateEnd" = Option<chrono::NaiveDate>, Query, description = "The last day (a week view); at most 7 days from date"),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "One entry per day", body = Vec<GridDay>),
        (status = 400, description = "More than 7 days", body = ErrorBody),
        (status = 404, description = "A unit the caller does not belong to", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
pub(super) async fn working_times(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(company_id): PathParam<i64>,
    QueryParams(days): QueryParams<DaysParam>,
) -> Result<(HeaderMap, Json<Vec<GridDay>>), ApiError> {
    let (date, last) = (days.date, days.last_day_at(&auth, company_id)?);
    let consistency = read_after
        .wait_all(&state.watch, &[&read_models::FREE_TIME, &read_models::PROFESSIONAL, &read_models::HOLIDAY])
        .await?;
    let only = (!auth.role.may_choose_any_professional()).then_some(auth.professional_id);
    let mut tx = scope::of(&state.pool, &auth).await?;
    let opening: BTreeMap<i16, Span> = sqlx::query_as::<_, (i16, i32, i32)>(
        "select week_day, lower(hours), upper(hours) from rm_free_time.opening where company_id = $1",
    )
    .bind(company_id)
    .fetch_all(&mut *tx)
    .await?
    .into_iter()
    .map(|(day, start, end)| (day, Span { start: start as u16, end: end as u16 }))
    .collect();
    let working: Vec<(i64, i16, Vec<i32>)> = sqlx::query_as(
        "select p.professional_id, w.week_day, rm_free_time.bounds(w.periods)
           from rm_professional.membership m
           join rm_professional.professional p on p.professional_id = m.professional_id
           join rm_free_time.working w on w.professional_id = p.professional_id
          where m.company_id = $1 and p.status = $2 and ($3::bigint is null or p.professional_id = $3)
          order by p.name, p.professional_id, w.week_day",
    )
    .bind(company_id)
    .bind(professional_status::ACTIVE)
    .bind(only)
    .fetch_all(&mut *tx)
    .await?;
    let professionals: Vec<i64> = sqlx::query_scalar(
        "select p.professional_id from rm_professional.membership m
           join rm_professional.professional p on p.professional_id = m.professional_id
          where m.company_id = $1 and p.status = $2 and ($3::bigint is null or p.professional_id = $3)
          order by p.name, p.professional_id",
    )
    .bind(company_id)
    .bind(professional_status::ACTIVE)
    .bind(only)
    .fetch_all(&mut *tx)
    .await?;
    let holidays: Vec<HolidayRow> = sqlx::query_as(
        "select description, start_date, end_date, all_day, start_time, end_time
           from rm_holiday.holiday h
          where start_date <= $3 and end_date >= $2
            and (all_companies or exists (select 1 from rm_holiday.holiday_company c
                                           where c.holiday_id = h.holiday_id and c.company_id = $1))
          order by start_date, holiday_id",
    )
    .bind(company_id)
    .bind(date)
    .bind(last)
    .fetch_all(&mut *tx)
    .await?;
    let days = (0..=(last - date).num_days()).map(|offset| date + Duration::days(offset));
    let answer = days
        .map(|day| {
            let week_day = day.weekday().num_days_from_sunday() as i16;
            GridDay {
                date: day,
                opening: opening.get(&week_day).copied().map(GridSpan::from),
                holidays: holidays
                    .iter()
                    .filter_map(|(description, first, last, all_day, start, end)| {
                        let window = match (all_day, start, end) {
                            (false, Some(start), Some(end)) => {
                                Some(Span { start: minutes(*start), end: minutes(*end) })
                            }
                            _ => None,
                        };
                        // As bookings are refused: a window runs from the first day's start to
                        // the last day's end (`blocked_on`), so a middle day is whole.
                        let blocked = blocked_on(day, *first, *last, window)?;
                        Some(GridHoliday {
                            description: description.clone(),
                            window: (blocked != Span::DAY).then(|| blocked.into()),
                        })
                    })
                    .collect(),
                professionals: professionals
                    .iter()
                    .map(|id| GridProfessional {
                        id_professional: *id,
                        working: working
                            .iter()
                            .filter(|(professional, day, _)| professional == id && *day == week_day)
                            .flat_map(|(_, _, bounds)| spans_of_bounds(bounds))
                            .map(GridSpan::from)
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();
    Ok((consistency.headers(), Json(answer)))
}
