//! The home's figures (issue 17): `GET dashboard?period=today|week|30d[&idCompany]`.
//!
//! Read from the `dashboard` read model, which the projector keeps per unit, day and
//! professional (projector/src/models/dashboard.rs), plus working hours, opening hours, days
//! off and holidays for the occupancy, and the club's model for its figures. Nothing is
//! replayed from the events. ADMIN and ATTENDANT see their units' figures and the club's;
//! every other role sees only their own appointments (`Own`).

use std::collections::{BTreeMap, HashMap};

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use chrono::{Datelike, Duration, NaiveDate};
use navalha_domain::availability::{DayRules, Span};
use navalha_domain::commission::PeriodKind;
use navalha_domain::role::Role;
use navalha_domain::subscription::Subscription;
use navalha_platform::auth::Auth;
use navalha_platform::calendar::blocked_ranges;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::Json;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use serde_json::Value;
use sqlx::PgConnection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::ReadAfter;
use crate::params::Params;
use crate::scheduling::{professional_names, span_of, working_weeks, MSG_COMPANY_NOT_FOUND};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(dashboard))
}

/// How many months the club's chart shows, the current one last.
const CLUB_MONTHS: u32 = 6;
/// How many pending charges the home lists.
const PENDING_LIMIT: usize = 20;

/// The period asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Window {
    Today,
    /// Monday to Sunday of the current week.
    Week,
    /// The last 30 days, today included.
    Last30Days,
}

impl Window {
    fn parse(text: Option<&str>) -> Result<Window, ApiError> {
        match text {
            None | Some("today") => Ok(Window::Today),
            Some("week") => Ok(Window::Week),
            Some("30d") => Ok(Window::Last30Days),
            Some(_) => Err(ApiError::field("period", "Período inválido: use today, week ou 30d.")),
        }
    }

    /// First and last day, inclusive.
    fn days(self, today: NaiveDate) -> (NaiveDate, NaiveDate) {
        match self {
            Window::Today => (today, today),
            Window::Week => {
                let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
                (monday, monday + Duration::days(6))
            }
            Window::Last30Days => (today - Duration::days(29), today),
        }
    }
}

/// Money in reais, as the rest of the API answers it.
fn reais(cents: i64) -> f64 {
    cents as f64 / 100.0
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct Answer {
    start: NaiveDate,
    end: NaiveDate,
    /// The figures are the signed-in professional's own.
    own: bool,
    days: Vec<DayFigures>,
    occupancy: Vec<Occupancy>,
    services: Vec<ServiceFigures>,
    busy_hours: Vec<BusyHour>,
    totals: Totals,
    /// What the closed comandas of the period brought in (issue 41), beside the expected.
    received: ReceivedFigures,
    /// Commissions earned in the current commission period (issue 42), whatever the home's
    /// period: the unit's usual one (a week, a fortnight or a month) for ADMIN and ATTENDANT,
    /// the month so far on a barber's own home.
    commissions: CommissionFigures,
    club: Option<Club>,
    /// Products below their minimum at the home's units (issue 43); none on a barber's own.
    low_stock: Vec<LowStockItem>,
}

/// A product a unit holds less of than its minimum.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct LowStockItem {
    id_product: i64,
    name: String,
    /// `un`, `ml` or `g`.
    unit: String,
    id_company: i64,
    company_name: String,
    quantity: i64,
    minimum: i64,
}

/// How many low-stock products the home lists.
const LOW_STOCK_LIMIT: i64 = 20;

/// The units' products held below their minimum, by unit and name.
async fn low_stock(conn: &mut sqlx::PgConnection, companies: &[i64]) -> Result<Vec<LowStockItem>, ApiError> {
    Ok(sqlx::query_as(
        "select p.product_id as id_product, p.name, p.unit, c.company_id as id_company, c.name as company_name,
                coalesce(l.quantity, 0) as quantity, (e ->> 'minimum')::bigint as minimum
           from rm_product.product p
          cross join lateral json_array_elements(p.minimums) e
           join rm_company.company c on c.company_id = (e ->> 'company_id')::bigint
           left join rm_product.stock_level l on l.product_id = p.product_id and l.company_id = c.company_id
          where p.active and c.company_id = any($1) and coalesce(l.quantity, 0) < (e ->> 'minimum')::bigint
          order by lower(c.name), lower(public.unaccent(p.name))
          limit $2",
    )
    .bind(companies)
    .bind(LOW_STOCK_LIMIT)
    .fetch_all(conn)
    .await?)
}

/// What the closed comandas of the current commission period earned each professional.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct CommissionFigures {
    start: NaiveDate,
    end: NaiveDate,
    /// week, fortnight or month.
    period: &'static str,
    professionals: Vec<ProfessionalCommission>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ProfessionalCommission {
    id_professional: i64,
    /// The lines' commission less the card fees shared.
    commission: f64,
    tips: f64,
    /// Commission and tips: what the comandas earned them (before vales, bonuses and
    /// adjustments, which the statement adds).
    earned: f64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct DayFigures {
    date: NaiveDate,
    booked: i64,
    confirmed: i64,
    cancelled: i64,
    /// Booked appointments served: their comanda is closed (issue 41).
    attended: i64,
    /// Booked appointments marked 'Não compareceu'.
    no_shows: i64,
    /// The day's expected revenue, summed into the totals.
    #[serde(skip)]
    revenue_cents: i64,
}

/// 'Recebido': the closed comandas' payments (by the day they were opened), by method and by
/// professional (their lines after the discounts, plus their tips). A barber's home has only
/// their own share.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ReceivedFigures {
    total: f64,
    days: Vec<ReceivedDay>,
    /// cash, pix, credit, debit, subscription; empty on a barber's own home.
    methods: Vec<ReceivedBy>,
    /// Each professional's share (`Key` is the IdProfessional).
    professionals: Vec<ReceivedBy>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ReceivedDay {
    date: NaiveDate,
    value: f64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ReceivedBy {
    key: String,
    value: f64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct Occupancy {
    id_professional: i64,
    name: String,
    color: String,
    booked_minutes: i64,
    working_minutes: i64,
}

#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ServiceFigures {
    id_service: i64,
    description: String,
    count: i64,
    /// Reais.
    value: f64,
}

#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct BusyHour {
    /// 0 Sunday to 6 Saturday.
    weekday: i32,
    hour: i32,
    count: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct Totals {
    appointments: i64,
    cancelled: i64,
    cancellation_rate: f64,
    /// Appointments served (their comanda closed) and marked 'Não compareceu'.
    attended: i64,
    no_shows: i64,
    /// No-shows over the appointments settled either way (served or not come); 0 when none.
    no_show_rate: f64,
    expected_revenue: f64,
    new_clients: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct Club {
    active_subscribers: i64,
    monthly_recurring_revenue: f64,
    months: Vec<ClubMonth>,
    pending: Vec<PendingCharge>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ClubMonth {
    /// `YYYY-MM`.
    month: String,
    received: f64,
    to_receive: f64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct PendingCharge {
    id_subscription_user: i64,
    user_name: String,
    plan_name: String,
    value: f64,
    due_date: Option<NaiveDate>,
}

/// `GET dashboard?period=today|week|30d[&idCompany]`: the home's figures for a unit, or for
/// every unit of the user when `idCompany` is absent.
#[utoipa::path(
    get,
    path = "/dashboard",
    tag = "Home",
    summary = "The home's figures (issue 17): a unit's, or every unit's of the user; the own figures for roles other than ADMIN and ATTENDANT",
    params(
        ("period" = Option<String>, Query, description = "today (default), week (Monday to Sunday), 30d (the last 30 days, today included)"),
        ("idCompany" = Option<i64>, Query, description = "A unit of the user; absent: all of them"),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The figures", body = Answer),
        (status = 404, description = "Unknown unit, or one the user does not work in", body = ErrorBody),
        (status = 422, description = "Validation: a period that is not today, week or 30d", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
async fn dashboard(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    RawQuery(query): RawQuery,
) -> Result<(HeaderMap, Json<Answer>), ApiError> {
    let params = Params::parse(query.as_deref())?;
    let window = Window::parse(params.text("period"))?;
    let chosen = params.id("idCompany")?;
    let own = !matches!(auth.role, Role::Admin | Role::Attendant);
    let professional = own.then_some(auth.professional_id);
    let consistency = read_after
        .wait_all(
            &state.watch,
            &[&read_models::DASHBOARD, &read_models::COMANDA, &read_models::AGENDA, &read_models::PRODUCT],
        )
        .await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let units: Vec<(i64, NaiveDate)> = sqlx::query_as(
        "select company_id, ($3::timestamptz at time zone time_zone)::date from rm_company.company
          where company_id = any($1) and ($2::bigint is null or company_id = $2) and (status or company_id = $2)
          order by company_id",
    )
    .bind(&auth.companies)
    .bind(chosen)
    .bind(navalha_platform::clock::now())
    .fetch_all(&mut *tx)
    .await?;
    if chosen.is_some_and(|id| !auth.belongs_to(id)) || (chosen.is_some() && units.is_empty()) {
        return Err(ApiError::NotFound(MSG_COMPANY_NOT_FOUND.to_owned()));
    }
    let companies: Vec<i64> = units.iter().map(|(id, _)| *id).collect();
    let today = units.first().map_or_else(navalha_platform::clock::today, |u| u.1);
    let (start, end) = window.days(today);
    let filter = Filter { companies: &companies, start, end, professional };

    let days = day_figures(&mut tx, &filter).await?;
    let occupancy = occupancy(&mut tx, auth.business_id, &filter).await?;
    let services = service_figures(&mut tx, &filter).await?;
    let busy_hours: Vec<BusyHour> = sqlx::query_as(
        "select extract(dow from date)::int as weekday, hour::int as hour, sum(booked)::bigint as count
           from rm_dashboard.hour_figure
          where company_id = any($1) and date between $2 and $3 and ($4::bigint is null or professional_id = $4)
          group by 1, 2 having sum(booked) > 0 order by 1, 2",
    )
    .bind(filter.companies)
    .bind(start)
    .bind(end)
    .bind(professional)
    .fetch_all(&mut *tx)
    .await?;
    let new_clients = if own {
        None
    } else {
        Some(
            sqlx::query_scalar::<_, i64>(
                "select coalesce(sum(clients), 0)::bigint from rm_dashboard.client_registration
                  where date between $1 and $2",
            )
            .bind(start)
            .bind(end)
            .fetch_one(&mut *tx)
            .await?,
        )
    };
    let appointments: i64 = days.iter().map(|d| d.booked).sum();
    let cancelled: i64 = days.iter().map(|d| d.cancelled).sum();
    let attended: i64 = days.iter().map(|d| d.attended).sum();
    let no_shows: i64 = days.iter().map(|d| d.no_shows).sum();
    let rate = |part: i64, whole: i64| if whole == 0 { 0.0 } else { part as f64 / whole as f64 };
    let totals = Totals {
        appointments,
        cancelled,
        cancellation_rate: rate(cancelled, appointments + cancelled),
        attended,
        no_shows,
        no_show_rate: rate(no_shows, attended + no_shows),
        expected_revenue: reais(days.iter().map(|d| d.revenue_cents).sum()),
        new_clients,
    };
    let club = if own { None } else { Some(club(&mut tx, today, &auth.companies).await?) };
    let received = received(&mut tx, &filter).await?;
    let commissions = commissions(&mut tx, &companies, today, professional).await?;
    let low_stock = if own { Vec::new() } else { low_stock(&mut tx, &companies).await? };
    let answer = Answer {
        start,
        end,
        own,
        days,
        occupancy,
        services,
        busy_hours,
        totals,
        received,
        commissions,
        club,
        low_stock,
    };
    Ok((consistency.headers(), Json(answer)))
}

/// Which figures: these units, these days, one professional or all.
struct Filter<'a> {
    companies: &'a [i64],
    start: NaiveDate,
    end: NaiveDate,
    professional: Option<i64>,
}

/// What the period's closed comandas brought in (`rm_comanda.comanda.received`), read in
/// one pass: each comanda's sums by method and by professional, per day.
async fn received(conn: &mut PgConnection, filter: &Filter<'_>) -> Result<ReceivedFigures, ApiError> {
    let rows: Vec<(NaiveDate, bool, String, i64)> = sqlx::query_as(
        "select c.opened_on, s.by_method, s.key, sum(s.value::text::bigint)::bigint
           from rm_comanda.comanda c,
                lateral (select true as by_method, m.key, m.value from json_each(c.received -> 'methods') m
                         union all
                         select false, p.key, p.value from json_each(c.received -> 'professionals') p) s
          where c.company_id = any($1) and c.opened_on between $2 and $3 and c.status = 'CLOSED'
            and ($4::bigint is null or (not s.by_method and s.key = $4::text))
          group by 1, 2, 3",
    )
    .bind(filter.companies)
    .bind(filter.start)
    .bind(filter.end)
    .bind(filter.professional)
    .fetch_all(conn)
    .await?;
    // A barber's home sums their own share; the desk's, the payments.
    let own = filter.professional.is_some();
    let mut days: BTreeMap<NaiveDate, i64> = BTreeMap::new();
    let (mut methods, mut professionals): (HashMap<String, i64>, HashMap<String, i64>) = Default::default();
    for (date, by_method, key, cents) in rows {
        if by_method != own {
            *days.entry(date).or_default() += cents;
        }
        *(if by_method { &mut methods } else { &mut professionals }).entry(key).or_default() += cents;
    }
    let ranked = |sums: HashMap<String, i64>| {
        let mut sums: Vec<(String, i64)> = sums.into_iter().collect();
        sums.sort_by(|(a_key, a), (b_key, b)| b.cmp(a).then_with(|| a_key.cmp(b_key)));
        sums.into_iter().map(|(key, cents)| ReceivedBy { key, value: reais(cents) }).collect()
    };
    Ok(ReceivedFigures {
        total: reais(days.values().sum()),
        days: days.into_iter().map(|(date, cents)| ReceivedDay { date, value: reais(cents) }).collect(),
        methods: ranked(methods),
        professionals: ranked(professionals),
    })
}

/// The commission period holding `today`: the first unit's usual one (the month on a barber's
/// own home), from its first day to today.
async fn commissions(
    conn: &mut PgConnection,
    companies: &[i64],
    today: NaiveDate,
    professional: Option<i64>,
) -> Result<CommissionFigures, ApiError> {
    let usual: Option<String> = match (professional, companies.first()) {
        (None, Some(unit)) => sqlx::query_scalar(
            "select profile -> 'commission' ->> 'period' from rm_company.company where company_id = $1",
        )
        .bind(unit)
        .fetch_optional(&mut *conn)
        .await?
        .flatten(),
        _ => None,
    };
    let period = usual.as_deref().and_then(PeriodKind::parse).unwrap_or_default();
    let start = period_start(period, today);
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
        "select (e ->> 'professional_id')::bigint,
                coalesce(sum((select sum((l ->> 'commission_cents')::bigint - coalesce((l ->> 'card_fee_cents')::bigint, 0))
                                 from jsonb_array_elements(e -> 'lines') l)), 0)::bigint,
                coalesce(sum((e ->> 'tips_cents')::bigint), 0)::bigint
           from rm_comanda.comanda c, jsonb_array_elements(c.state::jsonb -> 'earnings') e
          where c.company_id = any($1) and c.opened_on between $2 and $3 and c.status = 'CLOSED'
            and ($4::bigint is null or (e ->> 'professional_id')::bigint = $4)
          group by 1 order by 2 + 3 desc, 1",
    )
    .bind(companies)
    .bind(start)
    .bind(today)
    .bind(professional)
    .fetch_all(conn)
    .await?;
    Ok(CommissionFigures {
        start,
        end: today,
        period: period.code(),
        professionals: rows
            .into_iter()
            .map(|(id_professional, commission, tips)| ProfessionalCommission {
                id_professional,
                commission: reais(commission),
                tips: reais(tips),
                earned: reais(commission + tips),
            })
            .collect(),
    })
}

/// The first day of the commission period of `kind` holding `day`.
fn period_start(kind: PeriodKind, day: NaiveDate) -> NaiveDate {
    match kind {
        PeriodKind::Week => day - Duration::days(i64::from(day.weekday().num_days_from_monday())),
        PeriodKind::Fortnight if day.day() > 15 => day.with_day(16).unwrap_or(day),
        PeriodKind::Fortnight | PeriodKind::Month => day.with_day(1).unwrap_or(day),
    }
}

/// Every day of the period, zeros included.
async fn day_figures(conn: &mut PgConnection, filter: &Filter<'_>) -> Result<Vec<DayFigures>, ApiError> {
    let rows: Vec<(NaiveDate, i64, i64, i64, i64)> = sqlx::query_as(
        "select date, sum(booked)::bigint, sum(confirmed)::bigint, sum(cancelled)::bigint,
                sum(revenue_cents)::bigint
           from rm_dashboard.day_figure
          where company_id = any($1) and date between $2 and $3 and ($4::bigint is null or professional_id = $4)
          group by date",
    )
    .bind(filter.companies)
    .bind(filter.start)
    .bind(filter.end)
    .bind(filter.professional)
    .fetch_all(&mut *conn)
    .await?;
    let found: HashMap<NaiveDate, (i64, i64, i64, i64)> =
        rows.into_iter().map(|(date, b, c, x, r)| (date, (b, c, x, r))).collect();
    // Whether the client came is the agenda's (NO_SHOW) and the comanda's (closed): read
    // where they live rather than copied into the dashboard's sums.
    let attendance: Vec<(NaiveDate, i64, i64)> = sqlx::query_as(
        "select a.date,
                count(*) filter (where exists (
                    select 1 from rm_comanda.comanda c
                     where c.appointment_id = a.appointment_id and c.status = 'CLOSED'))::bigint,
                count(*) filter (where a.attendance = 'NO_SHOW')::bigint
           from rm_agenda.appointment a
          where a.company_id = any($1) and a.date between $2 and $3 and a.status
            and ($4::bigint is null or a.professional_id = $4)
          group by a.date",
    )
    .bind(filter.companies)
    .bind(filter.start)
    .bind(filter.end)
    .bind(filter.professional)
    .fetch_all(&mut *conn)
    .await?;
    let came: HashMap<NaiveDate, (i64, i64)> =
        attendance.into_iter().map(|(date, a, n)| (date, (a, n))).collect();
    Ok(filter
        .start
        .iter_days()
        .take_while(|date| *date <= filter.end)
        .map(|date| {
            let (booked, confirmed, cancelled, revenue_cents) = found.get(&date).copied().unwrap_or_default();
            let (attended, no_shows) = came.get(&date).copied().unwrap_or_default();
            DayFigures { date, booked, confirmed, cancelled, attended, no_shows, revenue_cents }
        })
        .collect())
}

async fn service_figures(
    conn: &mut PgConnection,
    filter: &Filter<'_>,
) -> Result<Vec<ServiceFigures>, ApiError> {
    Ok(sqlx::query_as(
        "select service_id as id_service, max(description) as description, sum(booked)::bigint as count,
                sum(revenue_cents)::float8 / 100 as value
           from rm_dashboard.service_figure
          where company_id = any($1) and date between $2 and $3 and ($4::bigint is null or professional_id = $4)
          group by service_id having sum(booked) > 0
          order by sum(revenue_cents) desc, max(description)",
    )
    .bind(filter.companies)
    .bind(filter.start)
    .bind(filter.end)
    .bind(filter.professional)
    .fetch_all(conn)
    .await?)
}

/// Booked over working minutes per professional: those who work in the units in the period
/// (not inactive) or have appointments in it. Working minutes are each day's working periods inside
/// the unit's opening hours, less days off and holidays (`DayRules::working_minutes`),
/// summed over the units (a professional of two units counts in each).
async fn occupancy(
    conn: &mut PgConnection,
    business_id: i64,
    filter: &Filter<'_>,
) -> Result<Vec<Occupancy>, ApiError> {
    let booked: HashMap<i64, i64> = sqlx::query_as::<_, (i64, i64)>(
        "select professional_id, sum(booked_minutes)::bigint from rm_dashboard.day_figure
          where company_id = any($1) and date between $2 and $3 and ($4::bigint is null or professional_id = $4)
          group by professional_id",
    )
    .bind(filter.companies)
    .bind(filter.start)
    .bind(filter.end)
    .bind(filter.professional)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .collect();
    // Members of each unit who are not inactive, or who have bookings.
    let members: Vec<(i64, i64)> = sqlx::query_as(
        "select m.company_id, m.professional_id from rm_professional.membership m
           join rm_professional.professional p on p.professional_id = m.professional_id
          where m.company_id = any($1) and ($2::bigint is null or m.professional_id = $2)
            and (p.status <> $4 or m.professional_id = any($3))",
    )
    .bind(filter.companies)
    .bind(filter.professional)
    .bind(booked.keys().copied().collect::<Vec<_>>())
    .bind(navalha_domain::professional::status::INACTIVE)
    .fetch_all(&mut *conn)
    .await?;
    let mut working_minutes: BTreeMap<i64, i64> = booked.keys().map(|id| (*id, 0)).collect();
    let professionals: Vec<i64> = {
        let mut ids: Vec<i64> = members.iter().map(|(_, p)| *p).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let weeks = working_weeks(&mut *conn, &professionals).await?;
    let openings: HashMap<(i64, i16), Span> = sqlx::query_as::<_, (i64, i16, String, String)>(
        "select company_id, week_day, start_time, end_time from rm_company.company_day where company_id = any($1)",
    )
    .bind(filter.companies)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .filter_map(|(company, day, start, end)| Some(((company, day), span_of(&start, &end)?)))
    .collect();
    for company in filter.companies {
        let here: Vec<i64> = members.iter().filter(|(c, _)| c == company).map(|(_, p)| *p).collect();
        if here.is_empty() {
            continue;
        }
        let blocked =
            blocked_ranges(&mut *conn, business_id, &here, *company, filter.start, filter.end).await?;
        for date in filter.start.iter_days().take_while(|date| *date <= filter.end) {
            let week_day = date.weekday().num_days_from_sunday() as i16;
            for id in &here {
                let rules = DayRules {
                    working: weeks.get(&(*id, week_day)).cloned().unwrap_or_default(),
                    opening: openings.get(&(*company, week_day)).copied(),
                    blocked: blocked.iter().filter_map(|range| range.on(date, *id)).collect(),
                    busy: Vec::new(),
                };
                *working_minutes.entry(*id).or_default() += i64::from(rules.working_minutes());
            }
        }
    }
    let ids: Vec<i64> = working_minutes.keys().copied().collect();
    let names = professional_names(&mut *conn, &ids).await?;
    // Staff who neither work nor were booked in the period (an admin, the front desk) are
    // left out.
    let mut list: Vec<Occupancy> = working_minutes
        .into_iter()
        .filter(|(id, working)| *working > 0 || booked.get(id).is_some_and(|minutes| *minutes > 0))
        .map(|(id, working)| {
            let (name, color) = names.get(&id).cloned().unwrap_or_default();
            Occupancy {
                id_professional: id,
                name,
                color,
                booked_minutes: booked.get(&id).copied().unwrap_or_default(),
                working_minutes: working,
            }
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name).then(a.id_professional.cmp(&b.id_professional)));
    Ok(list)
}

/// The club's figures for the subscriptions the caller reaches (`companies`, their units: the
/// subscribers list's rule, plans of every unit or of one of theirs): subscribers in force
/// and their monthly value; received and to receive by due month, for the six months ending
/// with the current one; and the open charges, oldest due first.
async fn club(conn: &mut PgConnection, today: NaiveDate, companies: &[i64]) -> Result<Club, ApiError> {
    let rows: Vec<(i64, String, String, i64, String, Value)> = sqlx::query_as(&format!(
        "select subscription_id, user_name, plan_name, value_cents, internal_status, state
           from rm_club.subscription s where {}",
        crate::club::subscription_in_reach(1)
    ))
    .bind(companies)
    .fetch_all(conn)
    .await?;
    let first_month = {
        let mut month = today.with_day(1).unwrap_or(today);
        for _ in 1..CLUB_MONTHS {
            month = (month - Duration::days(1)).with_day(1).unwrap_or(month);
        }
        month
    };
    let mut months: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    let mut month = first_month;
    while month <= today {
        months.insert(month.format("%Y-%m").to_string(), (0, 0));
        month = (month + Duration::days(32)).with_day(1).unwrap_or(today + Duration::days(1));
    }
    let (mut active, mut recurring) = (0, 0);
    let mut pending: Vec<PendingCharge> = Vec::new();
    for (id, user_name, plan_name, value_cents, internal_status, state) in rows {
        if internal_status == "ACTIVE" {
            active += 1;
            recurring += value_cents;
        }
        let subscription: Subscription =
            serde_json::from_value(state).map_err(|e| ApiError::Internal(e.into()))?;
        for charge in subscription.transactions() {
            if let Some(entry) =
                charge.payday.and_then(|day| months.get_mut(&day.format("%Y-%m").to_string()))
            {
                if charge.status.is_received() {
                    entry.0 += charge.value_cents;
                } else if charge.status.is_to_receive() {
                    entry.1 += charge.value_cents;
                }
            }
            if charge.status.is_to_receive() {
                pending.push(PendingCharge {
                    id_subscription_user: id,
                    user_name: user_name.clone(),
                    plan_name: plan_name.clone(),
                    value: reais(charge.value_cents),
                    due_date: charge.payday,
                });
            }
        }
    }
    pending.sort_by(|a, b| {
        a.due_date.cmp(&b.due_date).then(a.id_subscription_user.cmp(&b.id_subscription_user))
    });
    pending.truncate(PENDING_LIMIT);
    Ok(Club {
        active_subscribers: active,
        monthly_recurring_revenue: reais(recurring),
        months: months
            .into_iter()
            .map(|(month, (received, to_receive))| ClubMonth {
                month,
                received: reais(received),
                to_receive: reais(to_receive),
            })
            .collect(),
        pending,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commission_period_starts_on_its_monday_its_fortnight_or_its_month() {
        let day = |d| NaiveDate::from_ymd_opt(2026, 11, d).unwrap_or_default();
        // Friday 27 November 2026.
        assert_eq!(period_start(PeriodKind::Week, day(27)), day(23));
        assert_eq!(period_start(PeriodKind::Fortnight, day(27)), day(16));
        assert_eq!(period_start(PeriodKind::Fortnight, day(15)), day(1));
        assert_eq!(period_start(PeriodKind::Month, day(27)), day(1));
    }

    #[test]
    fn periods_are_today_monday_to_sunday_and_the_last_thirty_days() {
        let day = |d: u32| NaiveDate::from_ymd_opt(2026, 11, d).unwrap_or_default();
        let tuesday = day(24);
        assert_eq!(Window::Today.days(tuesday), (tuesday, tuesday));
        assert_eq!(Window::Week.days(tuesday), (day(23), day(29)));
        assert_eq!(Window::Week.days(day(29)), (day(23), day(29)), "Sunday ends the week");
        assert_eq!(
            Window::Last30Days.days(tuesday),
            (NaiveDate::from_ymd_opt(2026, 10, 26).unwrap_or_default(), tuesday)
        );
        assert!(Window::parse(Some("year")).is_err());
        assert_eq!(Window::parse(None).ok(), Some(Window::Today));
    }
}
