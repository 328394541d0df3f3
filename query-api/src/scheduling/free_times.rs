//! `GET no-auth/scheduling/available-times`: free start times for the next 30 days, from
//! the `free_time` model (ADR 0015), days off and holidays cut, services fitted.

use std::collections::HashMap;

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use chrono::{Datelike, Duration, NaiveDate, Timelike};
use navalha_domain::appointment::TimesType;
use navalha_domain::availability::{
    first_bookable_minute, fit, format_minutes, spans_of_bounds, subtract, Span,
};
use navalha_domain::professional::status as professional_status;
use navalha_platform::auth::MaybeAuth;
use navalha_platform::calendar::{blocked_ranges, BlockedRange};
use navalha_platform::error::ErrorBody;
use navalha_platform::http::Json;
use navalha_platform::ApiError;
use serde::Serialize;
use sqlx::PgConnection;

use crate::consistency::ReadAfter;
use crate::kept::MayServeKept;
use crate::params::Params;
use crate::scope;
use crate::AppState;

use super::{
    json_answer, json_body, minute, oldest_checkpoint, unit, Unit, BOOKING_TOKEN_HEADER, FREE_TIME_DAYS,
    FREE_TIME_MODELS, MSG_COMPANY_NOT_FOUND,
};

/// A professional offered by `available-times`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FreeProfessional {
    /// The professional.
    pub id_professional: i64,
    /// Their membership in the unit (what a booking sends).
    pub id_company_professional: i64,
    /// Name.
    pub name: String,
    /// Agenda colour.
    pub color: String,
    /// The chosen services' price with this professional now, in reais: what a move to them
    /// would charge if repriced (issue 45: the move asks).
    pub value: f64,
}

/// A free time of one professional.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FreeHour {
    /// `HH:MM`.
    pub start: &'static str,
    /// `HH:MM`: the start plus that professional's times for the services.
    pub end: &'static str,
    /// Whose.
    pub id_professional: i64,
}

/// The free times of one day.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FreeDay {
    /// `YYYY-MM-DD`.
    pub short_date: NaiveDate,
    /// By start, then by professional.
    pub free_hours: Vec<FreeHour>,
}

/// The `available-times` answer.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct FreeTimes {
    /// Who can perform every chosen service.
    pub professionals: Vec<FreeProfessional>,
    /// Days with at least one free time.
    pub times: Vec<FreeDay>,
}

/// `GET no-auth/scheduling/available-times?idCompany&idServices&timesType[&idProfessionals]
/// [&idSchedulingEdit]`: free start times on the 15-minute grid for the next 30 days. Public
/// (the mobile flow), but a signed-in professional who may not choose others gets only
/// their own (spec 01 §5).
#[utoipa::path(
    get,
    path = "/no-auth/scheduling/available-times",
    tag = "Agenda",
    summary = "Free start times on a 15-minute grid for the next 30 days (public; a signed-in BARBER1, BARBER2 or DEFAULT gets their own only)",
    params(
        ("idCompany" = i64, Query),
        ("idServices" = String, Query, description = "[1,2], or repeated idServices=1&idServices=2"),
        ("timesType" = Option<String>, Query, description = "Absent means ONLY_AVAILABLES"),
        ("idProfessionals" = Option<String>, Query, description = "[ids] or repeated"),
        ("idSchedulingEdit" = Option<i64>, Query, description = "Signed in: the appointment being edited, whose own time counts as free (ignored without a token: it would reveal another booking's time)"),
        ("X-Booking-Token" = Option<String>, Header, description = "Anonymous: a booking link's token; that booking's own time counts as free (online reschedule)"),
        ReadAfter,
        MayServeKept,
    ),
    responses(
        (status = 200, description = "{professionals[{idProfessional, idCompanyProfessional, name, color}], times[{shortDate, freeHours[{start, end, idProfessional}]}]}. X-Navalha-Answer says `kept` when it was served as kept between reads (ADR 0018), `read` when read now", body = FreeTimes),
        (status = 401, description = "A token that is present but bad", body = ErrorBody),
        (status = 404, description = "Unknown or inactive unit, or a bad booking link", body = ErrorBody),
        (status = 422, description = "No service, or a bad timesType", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
pub(super) async fn available_times(
    State(state): State<AppState>,
    auth: MaybeAuth,
    read_after: ReadAfter,
    may_serve_kept: MayServeKept,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let company_id =
        params.id("idCompany")?.ok_or_else(|| ApiError::field("idCompany", "Escolha a barbearia"))?;
    let service_ids = params.ids("idServices")?;
    if service_ids.is_empty() {
        return Err(ApiError::field("idServices", "Escolha pelo menos um serviço"));
    }
    let times_type = TimesType::parse(params.text("timesType")).ok_or_else(|| {
        ApiError::field("timesType", "Tipo de horário inválido: use ONLY_AVAILABLES ou ALL_TIMES")
    })?;
    let mut chosen = params.ids("idProfessionals")?;
    if let Some(principal) = auth.0.as_ref().filter(|p| !p.role.may_choose_any_professional()) {
        if !chosen.is_empty() && !chosen.contains(&principal.professional_id) {
            return Ok(Json(FreeTimes { professionals: Vec::new(), times: Vec::new() }).into_response());
        }
        chosen = vec![principal.professional_id];
    }
    let company_not_found = || ApiError::NotFound(MSG_COMPANY_NOT_FOUND.to_owned());
    let link = headers.get(BOOKING_TOKEN_HEADER).map(|token| token.to_str().unwrap_or_default());
    let editing = match (&auth.0, link) {
        (Some(_), _) => params.id("idSchedulingEdit")?,
        (None, Some(token)) => {
            let (claims, id) = state.verifier.booking_link(token).await?;
            if claims.unit != company_id {
                return Err(company_not_found());
            }
            Some(id)
        }
        (None, None) => None,
    };
    let consistency = read_after.wait_all(&state.watch, FREE_TIME_MODELS).await?;
    // Kept between reads (ADR 0018), but for an appointment being moved: its own time.
    let key = editing.is_none().then(|| FreeTimesKey {
        company_id,
        service_ids: service_ids.clone(),
        times_type: times_type.code(),
        chosen: chosen.clone(),
    });
    let kept =
        key.as_ref().filter(|_| may_serve_kept.0).and_then(|key| state.free_times.get(key, read_after.0));
    if let Some(kept) = kept {
        // A unit of another business is not found for a signed-in caller, kept or not.
        if auth.0.as_ref().is_none_or(|principal| principal.business_id == kept.business_id) {
            return Ok(json_answer(consistency, kept.body, "kept"));
        }
    }
    // Signed in: the professional's business. Anonymous (the mobile flow): the unit's.
    let (mut tx, business_id) = match &auth.0 {
        Some(principal) => (scope::of(&state.pool, principal).await?, principal.business_id),
        None => scope::of_unit_and_business(&state.pool, company_id).await?.ok_or_else(company_not_found)?,
    };
    let stamp = key.as_ref().and_then(|_| state.free_times.stamp(business_id));
    // Read before the rows, so that they are at least as new as the checkpoint kept.
    let checkpoint = oldest_checkpoint(&mut tx, FREE_TIME_MODELS).await?;
    let unit = unit(&mut tx, company_id).await?.filter(|unit| unit.active).ok_or_else(company_not_found)?;
    let answer = free_times(&mut tx, company_id, &unit, &service_ids, &chosen, times_type, editing).await?;
    let body = json_body(&answer)?;
    if let (Some(key), Some(stamp)) = (key, stamp) {
        // Today's first free time moves with the unit's clock: kept until its next minute.
        let to_next_minute = Duration::seconds(60 - i64::from(unit.now.second()));
        state.free_times.put(
            key,
            stamp,
            checkpoint,
            body.clone(),
            to_next_minute.to_std().unwrap_or_default(),
        );
    }
    Ok(json_answer(consistency, body, "read"))
}

/// What a kept free-times answer answers; the business comes with the unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FreeTimesKey {
    company_id: i64,
    service_ids: Vec<i64>,
    times_type: &'static str,
    /// The professionals asked for, or forced for the roles that see only their own.
    chosen: Vec<i64>,
}

pub(super) async fn free_times(
    conn: &mut PgConnection,
    company_id: i64,
    unit: &Unit,
    service_ids: &[i64],
    chosen: &[i64],
    times_type: TimesType,
    editing: Option<i64>,
) -> Result<FreeTimes, ApiError> {
    // Active professionals of the unit offering every chosen service, with the total time
    // and the intervals after (the professional's time runs on through them, issue 45).
    let rows: Vec<(i64, i64, String, String, i64, i64, i64)> = sqlx::query_as(
        "select p.professional_id, m.membership_id, p.name, p.color, sum(o.minutes)::bigint,
                sum(o.interval_after)::bigint, sum(o.cents)::bigint
           from rm_professional.membership m
           join rm_professional.professional p on p.professional_id = m.professional_id
           join rm_professional.offered_service o on o.professional_id = p.professional_id
           join rm_professional.catalogue_service s on s.service_id = o.service_id
          where m.company_id = $1 and p.status = $2 and o.active and s.active
            and o.service_id = any($3)
            and (cardinality($4::bigint[]) = 0 or p.professional_id = any($4))
          group by p.professional_id, m.membership_id, p.name, p.color
         having count(distinct o.service_id) = cardinality($3)
          order by p.name, p.professional_id",
    )
    .bind(company_id)
    .bind(professional_status::ACTIVE)
    .bind(service_ids)
    .bind(chosen)
    .fetch_all(&mut *conn)
    .await?;
    let professionals: Vec<FreeProfessional> = rows
        .iter()
        .map(|(id, membership, name, color, _, _, cents)| FreeProfessional {
            id_professional: *id,
            id_company_professional: *membership,
            name: name.clone(),
            color: color.clone(),
            value: navalha_domain::money::reais(*cents),
        })
        .collect();
    let minutes = |total: i64| u16::try_from(total).unwrap_or(u16::MAX);
    let durations: Vec<(i64, u16, u16)> =
        rows.iter().map(|row| (row.0, minutes(row.4), minutes(row.5))).collect();
    let ids: Vec<i64> = durations.iter().map(|(id, ..)| *id).collect();
    if ids.is_empty() {
        return Ok(FreeTimes { professionals, times: Vec::new() });
    }

    let today = unit.now.date();
    let last = today + Duration::days(FREE_TIME_DAYS - 1);
    let free = match times_type {
        TimesType::OnlyAvailables => {
            let mut free =
                FreeSource::only_available(&mut *conn, company_id, &ids, today, last, editing).await?;
            free.blocked =
                blocked_ranges(&mut *conn, unit.business_id, &ids, company_id, today, last).await?;
            free
        }
        TimesType::AllTimes => {
            FreeSource::all_times(&mut *conn, company_id, &ids, today, last, editing).await?
        }
    };
    let mut times = Vec::new();
    for offset in 0..FREE_TIME_DAYS {
        let date = today + Duration::days(offset);
        let not_before = if date == today { first_bookable_minute(unit.now.time()) } else { 0 };
        let mut free_hours = Vec::new();
        for (id, duration, interval) in &durations {
            let taken = duration.saturating_add(*interval);
            free_hours.extend(fit(&free.on(*id, date), taken, not_before).into_iter().map(|slot| FreeHour {
                start: format_minutes(slot.start),
                end: format_minutes(slot.start + duration),
                id_professional: *id,
            }));
        }
        if !free_hours.is_empty() {
            // Stable: professionals keep their order within one start time.
            free_hours.sort_by_key(|hour| hour.start);
            times.push(FreeDay { short_date: date, free_hours });
        }
    }
    Ok(FreeTimes { professionals, times })
}

/// Where free times come from, read from the `free_time` model (ADR 0015): each
/// professional-day's free pieces, less what is cut at read time.
#[derive(Default)]
pub(super) struct FreeSource {
    /// By `(professional, weekday from Sunday = 0)`: a date with no entry in `days`.
    weekly: HashMap<(i64, i16), Vec<Span>>,
    /// By `(professional, date)`.
    days: HashMap<(i64, NaiveDate), Vec<Span>>,
    /// Cut from those pieces: days off and holidays (`ONLY_AVAILABLES`).
    blocked: Vec<BlockedRange>,
    /// Cut from those pieces: bookings (`ALL_TIMES`).
    busy: HashMap<(i64, NaiveDate), Vec<Span>>,
}

impl FreeSource {
    /// The free pieces of `professional_id` on `date`.
    fn on(&self, professional_id: i64, date: NaiveDate) -> Vec<Span> {
        let week_day = date.weekday().num_days_from_sunday() as i16;
        let pieces = self
            .days
            .get(&(professional_id, date))
            .or_else(|| self.weekly.get(&(professional_id, week_day)))
            .map_or(&[][..], Vec::as_slice);
        let mut cuts: Vec<Span> =
            self.blocked.iter().filter_map(|range| range.on(date, professional_id)).collect();
        cuts.extend(self.busy.get(&(professional_id, date)).into_iter().flatten());
        if cuts.is_empty() {
            pieces.to_vec()
        } else {
            subtract(pieces, &cuts)
        }
    }

    /// `ONLY_AVAILABLES`: working periods inside the opening hours less bookings, as the
    /// model keeps them, one statement. The appointment being edited frees its own time: its
    /// day is computed again from the template and the day's other bookings.
    async fn only_available(
        conn: &mut PgConnection,
        company_id: i64,
        ids: &[i64],
        from: NaiveDate,
        to: NaiveDate,
        editing: Option<i64>,
    ) -> Result<FreeSource, ApiError> {
        // A template row has its weekday, a booked day's row its date.
        type Row = (i64, Option<i16>, Option<NaiveDate>, Vec<i32>);
        let rows: Vec<Row> = sqlx::query_as(
            "select professional_id, week_day, null::date, bounds from rm_free_time.template
              where company_id = $1 and professional_id = any($2)
             union all
             select professional_id, null, date, bounds from rm_free_time.day
              where company_id = $1 and professional_id = any($2) and date between $3 and $4",
        )
        .bind(company_id)
        .bind(ids)
        .bind(from)
        .bind(to)
        .fetch_all(&mut *conn)
        .await?;
        let mut free = FreeSource::default();
        for (id, week_day, date, bounds) in rows {
            match (week_day, date) {
                (Some(week_day), _) => free.weekly.insert((id, week_day), spans_of_bounds(&bounds)),
                (None, Some(date)) => free.days.insert((id, date), spans_of_bounds(&bounds)),
                (None, None) => None,
            };
        }
        let Some(editing) = editing else { return Ok(free) };
        let others: Vec<(i64, NaiveDate, Option<i32>, Option<i32>)> = sqlx::query_as(
            "select e.professional_id, e.date, lower(o.during), upper(o.during)
               from rm_free_time.booked e
               left join rm_free_time.booked o
                 on o.professional_id = e.professional_id and o.date = e.date and o.appointment_id <> e.appointment_id
              where e.appointment_id = $1",
        )
        .bind(editing)
        .fetch_all(&mut *conn)
        .await?;
        if let Some((id, date, ..)) = others.first().copied() {
            let week_day = date.weekday().num_days_from_sunday() as i16;
            let busy: Vec<Span> = others
                .iter()
                .filter_map(|(.., start, end)| Some(Span { start: minute(*start)?, end: minute(*end)? }))
                .collect();
            let template = free.weekly.get(&(id, week_day)).cloned().unwrap_or_default();
            free.days.insert((id, date), subtract(&template, &busy));
        }
        Ok(free)
    }

    /// `ALL_TIMES`: the unit's opening hours less bookings (except the one being edited).
    async fn all_times(
        conn: &mut PgConnection,
        company_id: i64,
        ids: &[i64],
        from: NaiveDate,
        to: NaiveDate,
        editing: Option<i64>,
    ) -> Result<FreeSource, ApiError> {
        let opening: HashMap<i16, Span> = sqlx::query_as::<_, (i16, i32, i32)>(
            "select week_day, lower(hours), upper(hours) from rm_free_time.opening where company_id = $1",
        )
        .bind(company_id)
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .filter_map(|(day, start, end)| {
            Some((day, Span { start: minute(Some(start))?, end: minute(Some(end))? }))
        })
        .collect();
        let booked: Vec<(i64, NaiveDate, i32, i32)> = sqlx::query_as(
            "select professional_id, date, lower(during), upper(during) from rm_free_time.booked
              where professional_id = any($1) and date between $2 and $3
                and ($4::bigint is null or appointment_id <> $4)",
        )
        .bind(ids)
        .bind(from)
        .bind(to)
        .bind(editing)
        .fetch_all(&mut *conn)
        .await?;
        let mut free = FreeSource::default();
        for (id, date, start, end) in booked {
            if let (Some(start), Some(end)) = (minute(Some(start)), minute(Some(end))) {
                free.busy.entry((id, date)).or_default().push(Span { start, end });
            }
        }
        for id in ids {
            for (week_day, hours) in &opening {
                free.weekly.insert((*id, *week_day), vec![*hours]);
            }
        }
        Ok(free)
    }
}
