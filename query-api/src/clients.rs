//! Clients: `GET user/filter` and `GET user/{id}` (spec 01 §7, spec 02 §7), and the client's
//! visits for the client form (`GET user/{id}/visits`, issue 17).

use axum::extract::State;
use axum::http::HeaderMap;
use std::collections::HashMap;

use chrono::NaiveDate;
use navalha_domain::online::NO_SHOW_DAYS;
use navalha_platform::auth::Auth;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::refused;
use navalha_platform::ApiError;
use navalha_read_models as read_models;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::consistency::ReadAfter;
use crate::list_arguments;
use crate::paging::{page_of, ListFilter, ListQuery, Page};
use crate::scheduling::{attendance, WITH_COMANDA};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(filter)).routes(routes!(one)).routes(routes!(visits))
}

/// A client in a list.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ClientItem {
    /// IdUser.
    pub id_user: i64,
    /// Name.
    pub name: String,
    /// Phone digits.
    pub phone: String,
    /// E-mail.
    pub email: String,
    /// CPF digits.
    pub cpf: String,
    /// Active or not.
    pub status: bool,
    /// Made by the client on a unit's public page and not confirmed by staff yet (issue 39).
    pub unconfirmed: bool,
    /// The client's subscriptions, from the club's read model.
    #[sqlx(skip)]
    pub subscription_user: Vec<crate::club::SubscriptionSummary>,
    /// 'Não compareceu' in the user's units, ever and in the last 90 days (issue 44).
    #[sqlx(skip)]
    #[serde(flatten)]
    pub no_shows: NoShows,
}

/// How often a client was marked 'Não compareceu' in the user's units (issue 44): what the
/// client search and the booking wizard show ('2 faltas') and the online block counts.
#[derive(Debug, Default, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct NoShows {
    /// Ever.
    pub no_shows: i64,
    /// On days from 90 days ago (on the unit's clock) to today.
    #[serde(rename = "NoShowsLast90Days")]
    pub no_shows_last_90_days: i64,
}

/// The [`NoShows`] of `clients` in `companies`, by client; a client never marked is left out.
async fn no_shows_of(
    tx: &mut sqlx::PgConnection,
    clients: &[i64],
    companies: &[i64],
) -> Result<HashMap<i64, NoShows>, ApiError> {
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
        "select a.client_id, count(*),
                count(*) filter (where a.date >= ($3::timestamptz at time zone
                                   coalesce(c.time_zone, 'America/Sao_Paulo'))::date - $4::int)
           from rm_agenda.appointment a
           left join rm_company.company c on c.company_id = a.company_id
          where a.client_id = any($1) and a.company_id = any($2) and a.attendance = 'NO_SHOW' and a.status
          group by a.client_id",
    )
    .bind(clients)
    .bind(companies)
    .bind(navalha_platform::clock::now())
    .bind(NO_SHOW_DAYS as i32)
    .fetch_all(tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, ever, recent)| (id, NoShows { no_shows: ever, no_shows_last_90_days: recent }))
        .collect())
}

#[utoipa::path(
    get,
    path = "/user/filter",
    tag = "Clients",
    summary = "Clients, paged, searched by name, phone, e-mail or CPF ignoring accents and case",
    params(
        ListFilter,
        ReadAfter,
    ),
    responses(
        (status = 200, description = "{content, total, count}", body = Page<ClientItem>),
        refused::Unauthenticated,
    ),
    security(("bearer" = [])),
)]
async fn filter(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(filter): QueryParams<ListFilter>,
) -> Result<(HeaderMap, Json<Page<ClientItem>>), ApiError> {
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::CLIENT, &read_models::AGENDA]).await?;
    let Some(status) = filter.status()?.active_flag() else {
        return Ok((consistency.headers(), Json(Page::empty())));
    };
    // Ordered as the read model's `client_order` index keeps the rows: by a bounded prefix
    // of the search text (issue 39), which leads with the name.
    let query = ListQuery {
        columns: "client_id as id_user, name, phone, email, cpf, status, unconfirmed",
        from: "rm_client.client",
        condition: "($1::boolean is null or status = $1)
            and ($2::text is null or search like lower(public.unaccent($2)))",
        order: "left(search, 200), client_id",
    };
    let mut tx = scope::of(&state.pool, &auth).await?;
    let arguments = list_arguments![status, filter.pattern()];
    let mut page: Page<ClientItem> = page_of(&mut tx, &query, arguments, filter.limit_offset()?).await?;
    let ids: Vec<i64> = page.content.iter().map(|c| c.id_user).collect();
    let mut subscriptions = crate::club::subscriptions_of(&mut tx, &ids, &auth.companies).await?;
    let no_shows = no_shows_of(&mut tx, &ids, &auth.companies).await?;
    for client in &mut page.content {
        client.subscription_user = subscriptions.remove(&client.id_user).unwrap_or_default();
        client.no_shows = no_shows.get(&client.id_user).copied().unwrap_or_default();
    }
    Ok((consistency.headers(), Json(page)))
}

#[derive(Debug, sqlx::FromRow)]
struct ClientRow {
    client_id: i64,
    name: String,
    cpf: String,
    email: String,
    phone: String,
    whatsapp: bool,
    birth_date: Option<NaiveDate>,
    status: bool,
    login_type: String,
    unconfirmed: bool,
}

/// One client, as the client form reads it (spec 02 §2).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ClientDetail {
    id_user: i64,
    name: String,
    cpf: String,
    email: String,
    phone: String,
    #[serde(rename = "WhatsApp")]
    whats_app: bool,
    birth_date: Option<NaiveDate>,
    /// Always null: Navalha keeps no last access (spec 02 names the field).
    last_access: Option<String>,
    status: bool,
    login_type: String,
    /// Made on a unit's public page and not yet confirmed by the staff.
    unconfirmed: bool,
    /// Always null: never sent to the staff.
    recovery_code: Option<String>,
    subscription_user: Vec<crate::club::SubscriptionSummary>,
    #[serde(flatten)]
    no_shows: NoShows,
}

#[utoipa::path(
    get,
    path = "/user/{id}",
    tag = "Clients",
    summary = "One client",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The client", body = ClientDetail),
        refused::Unauthenticated,
        (status = 404, description = "Unknown client", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<ClientDetail>), ApiError> {
    let consistency =
        read_after.wait_all(&state.watch, &[&read_models::CLIENT, &read_models::AGENDA]).await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let row: ClientRow = sqlx::query_as(
        "select client_id, name, cpf, email, phone, whatsapp, birth_date, status, login_type, unconfirmed
           from rm_client.client where client_id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| ApiError::NotFound("Cliente não encontrado.".to_owned()))?;
    let subscriptions = crate::club::subscriptions_of(&mut tx, &[row.client_id], &auth.companies).await?;
    let no_shows = no_shows_of(&mut tx, &[row.client_id], &auth.companies).await?;
    Ok((
        consistency.headers(),
        Json(ClientDetail {
            id_user: row.client_id,
            name: row.name,
            cpf: row.cpf,
            email: row.email,
            phone: row.phone,
            whats_app: row.whatsapp,
            birth_date: row.birth_date,
            last_access: None,
            status: row.status,
            login_type: row.login_type,
            unconfirmed: row.unconfirmed,
            recovery_code: None,
            subscription_user: subscriptions.get(&row.client_id).cloned().unwrap_or_default(),
            no_shows: no_shows.get(&row.client_id).copied().unwrap_or_default(),
        }),
    ))
}

/// The most visits the client form lists.
const VISITS_LIMIT: i64 = 200;

/// A client's appointments and what they add up to, as the client form's 'Visitas' shows them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Visits {
    /// Newest first, at most 200.
    visits: Vec<Visit>,
    /// Served: their comanda closed ('Realizado', issue 41).
    visits_made: usize,
    /// Reais: the booked prices of the visits made.
    total_spent: f64,
    /// Marked 'Não compareceu'.
    no_shows: usize,
    last_visit: Option<NaiveDate>,
    next_visit: Option<NaiveDate>,
    cancellations: usize,
    subscription_user: Vec<crate::club::SubscriptionSummary>,
}

/// One of a client's appointments, as the client form lists it.
#[derive(Debug, Serialize, sqlx::FromRow, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Visit {
    id_scheduling: i64,
    date: NaiveDate,
    start_time: String,
    end_time: String,
    services: Vec<String>,
    professional_name: String,
    company_name: String,
    /// The services' prices as booked.
    value: f64,
    /// true booked, false cancelled.
    status: bool,
    confirmation: bool,
    /// Already started, on the unit's clock.
    past: bool,
    /// ATTENDED ('Realizado': its comanda closed), ARRIVED or NO_SHOW; null otherwise.
    #[sqlx(skip)]
    attendance: Option<String>,
    #[serde(skip)]
    #[schema(ignore)]
    recorded_attendance: String,
    #[serde(skip)]
    #[schema(ignore)]
    comanda_status: Option<String>,
}

/// `GET user/{id}/visits`: the client's appointments in the user's units, newest first (at
/// most 200), with the visits made, the total spent on them, the last and next visit, the
/// cancellations and the subscriptions. Roles that see only their own agenda see only their
/// own appointments with the client. Read from the agenda's model, not from the events.
#[utoipa::path(
    get,
    path = "/user/{id}/visits",
    tag = "Clients",
    summary = "A client's appointments in the user's units, newest first (at most 200), with visits made, total spent, last and next visit, cancellations and subscriptions; own-agenda roles see only their own",
    params(
        ("id" = i64, Path),
        ReadAfter,
    ),
    responses(
        (status = 200, description = "The visits", body = Visits),
        (status = 404, description = "Unknown client", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
async fn visits(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<Visits>), ApiError> {
    let consistency = read_after
        .wait_all(&state.watch, &[&read_models::CLIENT, &read_models::AGENDA, &read_models::COMANDA])
        .await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let known: Option<i64> =
        sqlx::query_scalar("select client_id from rm_client.client where client_id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    known.ok_or_else(|| ApiError::NotFound("Cliente não encontrado.".to_owned()))?;
    let own = (!auth.role.may_choose_any_professional()).then_some(auth.professional_id);
    let mut rows: Vec<Visit> = sqlx::query_as(&format!(
        "select a.appointment_id as id_scheduling, a.date, a.start_time::text as start_time,
                a.end_time::text as end_time,
                array(select s ->> 'description' from json_array_elements(a.services) s) as services,
                coalesce(p.name, '') as professional_name, coalesce(c.name, '') as company_name,
                (select coalesce(sum((s ->> 'cents')::bigint), 0) from json_array_elements(a.services) s)::float8 / 100
                    as value,
                a.status, a.confirmation,
                a.date + a.start_time <= ($5::timestamptz at time zone coalesce(c.time_zone, 'America/Sao_Paulo'))::timestamp
                    as past,
                a.attendance as recorded_attendance, k.status as comanda_status
           from rm_agenda.appointment a
           {WITH_COMANDA}
           left join rm_agenda.professional p on p.professional_id = a.professional_id
           left join rm_company.company c on c.company_id = a.company_id
          where a.client_id = $1 and a.company_id = any($2) and ($3::bigint is null or a.professional_id = $3)
          order by a.date desc, a.start_time desc, a.appointment_id desc
          limit $4"
    ))
    .bind(id)
    .bind(&auth.companies)
    .bind(own)
    .bind(VISITS_LIMIT)
    .bind(navalha_platform::clock::now())
    .fetch_all(&mut *tx)
    .await?;
    for visit in &mut rows {
        visit.attendance = attendance(visit.comanda_status.as_deref(), &visit.recorded_attendance);
    }
    let made: Vec<&Visit> = rows.iter().filter(|v| v.attendance.as_deref() == Some("ATTENDED")).collect();
    // Folded from +0.0: `sum` of no floats is -0.0, which a screen shows as '-R$ 0,00'.
    let total_spent: f64 = made.iter().fold(0.0, |total, v| total + v.value);
    let next = rows.iter().filter(|v| v.status && !v.past).map(|v| v.date).min();
    let subscriptions = crate::club::subscriptions_of(&mut tx, &[id], &auth.companies).await?;
    Ok((
        consistency.headers(),
        Json(Visits {
            visits_made: made.len(),
            total_spent: (total_spent * 100.0).round() / 100.0,
            last_visit: made.first().map(|v| v.date),
            next_visit: next,
            cancellations: rows.iter().filter(|v| !v.status).count(),
            no_shows: rows.iter().filter(|v| v.attendance.as_deref() == Some("NO_SHOW")).count(),
            subscription_user: subscriptions.get(&id).cloned().unwrap_or_default(),
            visits: rows,
        }),
    ))
}
