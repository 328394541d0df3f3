//! Every read of a read model that a command makes, by name.
//!
//! Commands decide on their aggregates' streams and on tables written in the events' own
//! transaction (`appointment_slot`, `unique_claims`, `staff_access`), never behind the log.
//! The few reads below go to read models, which trail the log by the projector's lag
//! (milliseconds when it runs; as long as it is down otherwise). ADR 0024 says, for each,
//! why that lag is acceptable and what it means.

use chrono::{NaiveDate, NaiveDateTime};
use navalha_domain::online::OnlineRules;
use navalha_platform::auth::OnlineClaims;
use sqlx::PgPool;

/// A unit open to online booking (`rm_company`): its business, its wall clock now and its
/// online rules; `None` for an unknown or inactive unit.
pub async fn online_unit(pool: &PgPool, company_id: i64) -> sqlx::Result<Option<OnlineUnit>> {
    let row: Option<(i64, NaiveDateTime, sqlx::types::Json<OnlineRules>, String)> = sqlx::query_as(
        "select business_id, ($2::timestamptz at time zone time_zone)::timestamp, coalesce(profile->'online', '{}'),
                coalesce(profile->>'phone', '')
           from rm_company.company
          where company_id = $1 and status",
    )
    .bind(company_id)
    .bind(navalha_platform::clock::now())
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(business_id, now, rules, phone)| OnlineUnit { business_id, now, rules: rules.0, phone }))
}

/// A unit open to online booking, as [`online_unit`] reads it.
pub struct OnlineUnit {
    pub business_id: i64,
    /// Its wall clock, now.
    pub now: NaiveDateTime,
    pub rules: OnlineRules,
    /// Its phone, digits, for the answers that ask the client to call.
    pub phone: String,
}

/// How many of the client's appointments in the business were marked 'Não compareceu' on
/// days from `since` on (issue 44's online block): the client by id, or by the CPF, mobile
/// or e-mail they identified with, as [`future_bookings_of`] finds them.
pub async fn recent_no_shows_of(
    pool: &PgPool,
    claims: &OnlineClaims,
    client_id: i64,
    since: NaiveDate,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(*) from rm_agenda.appointment
          where business_id = $1 and attendance = 'NO_SHOW' and status and date >= $2
            and (client_id = $3 or client_id in (select client_id from rm_client.client
                                                   where business_id = $1
                                                     and (cpf = $4 or phone = $5
                                                          or ($6 <> '' and lower(email) = lower($6)))))",
    )
    .bind(claims.biz)
    .bind(since)
    .bind(client_id)
    .bind(&claims.sub)
    .bind(&claims.phone)
    .bind(&claims.email)
    .fetch_one(pool)
    .await
}

/// The memberships in the unit (`rm_professional`) of active professionals offering every
/// one of `service_ids` (only `professional_id`'s, when given), by name: who an online
/// booking may go to.
pub async fn offering_memberships(
    pool: &PgPool,
    business_id: i64,
    company_id: i64,
    professional_id: Option<i64>,
    service_ids: &[i64],
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "select m.membership_id
           from rm_professional.membership m
           join rm_professional.professional p
             on p.business_id = m.business_id and p.professional_id = m.professional_id
           join rm_professional.offered_service o
             on o.business_id = p.business_id and o.professional_id = p.professional_id
          where m.business_id = $5 and m.company_id = $1 and p.status = $2 and o.active and o.service_id = any($3)
            and ($4::bigint is null or p.professional_id = $4)
          group by m.membership_id, p.name
         having count(distinct o.service_id) = cardinality($3)
          order by p.name, m.membership_id",
    )
    .bind(company_id)
    .bind(navalha_domain::professional::status::ACTIVE)
    .bind(service_ids)
    .bind(professional_id)
    .bind(business_id)
    .fetch_all(pool)
    .await
}

/// The future active bookings in the signed-in client's unit of `client_id` or of any
/// client with the same CPF, mobile or e-mail: the slots are written with the events,
/// the identities come from `rm_client`.
pub async fn future_bookings_of(
    pool: &PgPool,
    claims: &OnlineClaims,
    client_id: i64,
    now: NaiveDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(*) from appointment_slot
          where company_id = $1 and lower(during) > $2
            and (client_id = $3 or client_id in (select client_id from rm_client.client
                                                   where business_id = $4
                                                     and (cpf = $5 or phone = $6
                                                          or ($7 <> '' and lower(email) = lower($7)))))",
    )
    .bind(claims.unit)
    .bind(now)
    .bind(client_id)
    .bind(claims.biz)
    .bind(&claims.sub)
    .bind(&claims.phone)
    .bind(&claims.email)
    .fetch_one(pool)
    .await
}

/// A membership's professional and unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    pub professional_id: i64,
    pub company_id: i64,
}

/// Whose a membership is (`rm_professional`): `None` for one the model does not know yet.
pub async fn membership_owner(
    pool: &PgPool,
    business_id: i64,
    membership_id: i64,
) -> sqlx::Result<Option<Owner>> {
    let row: Option<(i64, i64)> = sqlx::query_as(
        "select professional_id, company_id from rm_professional.membership
          where business_id = $1 and membership_id = $2",
    )
    .bind(business_id)
    .bind(membership_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(professional_id, company_id)| Owner { professional_id, company_id }))
}

/// A booking to cancel, with what its client's e-mail needs.
#[derive(sqlx::FromRow)]
pub struct Swept {
    pub appointment_id: String,
    pub starts: NaiveDateTime,
    pub unit: String,
    pub email: Option<String>,
}

/// The future online bookings sharing `by` with appointment `id`, in `units`: the
/// appointment's client's e-mail or mobile (as the clients model has them), or the address
/// range its latest booking event came from. The slots are written with the events, so a
/// booking made a moment ago is found.
const SWEPT: &str = "
    with opened as (select c.email, c.phone,
                           (select navalha_address_range(e.metadata ->> 'client_ip') from events e
                             where e.aggregate_type = 'Appointment' and e.aggregate_id = $1
                               and e.event_type in ('AppointmentBooked', 'AppointmentChanged')
                             order by e.sequence desc limit 1) as address
                      from rm_client.client c where c.client_id = $2 and c.business_id = $3)
    select s.appointment_id, lower(s.during) as starts, co.name as unit, c.email
      from appointment_slot s
      join rm_company.company co on co.company_id = s.company_id
      left join rm_client.client c on c.client_id = s.client_id
      cross join opened o
     where s.online_from is not null and s.company_id = any($4) and co.business_id = $3
       and lower(s.during) > ($5::timestamptz at time zone co.time_zone)
       and case $6 when 'EMAIL' then o.email <> '' and lower(c.email) = lower(o.email)
                   when 'PHONE' then o.phone <> '' and c.phone = o.phone
                   else o.address is not null and o.address <> '' and s.online_from = o.address end
     order by lower(s.during), s.appointment_id";

/// [`SWEPT`]: the future online bookings, in `units` of `business_id`, sharing `by`
/// (`EMAIL`, `PHONE` or `ADDRESS`) with appointment `id` of `client_id`.
pub async fn online_bookings_sharing(
    pool: &PgPool,
    id: i64,
    client_id: i64,
    business_id: i64,
    units: &[i64],
    by: &str,
) -> sqlx::Result<Vec<Swept>> {
    sqlx::query_as(SWEPT)
        .bind(id.to_string())
        .bind(client_id)
        .bind(business_id)
        .bind(units)
        .bind(navalha_platform::clock::now())
        .bind(by)
        .fetch_all(pool)
        .await
}

/// The comandas (`rm_comanda`) of the units opened on the days `from` to `to` or on any day
/// of `paid` (the professional's periods already paid), with their day: the candidates of a
/// commission period's close, whose figures are then read from their streams.
pub async fn comandas_of_days(
    pool: &PgPool,
    business_id: i64,
    companies: &[i64],
    (from, to): (NaiveDate, NaiveDate),
    paid: &[(NaiveDate, NaiveDate)],
) -> sqlx::Result<Vec<(i64, NaiveDate)>> {
    let (starts, ends): (Vec<NaiveDate>, Vec<NaiveDate>) = paid.iter().copied().unzip();
    // The same days as query-api's statement reads (`navalha_read_models::comanda::OF_DAYS`).
    sqlx::query_as(
        "select c.comanda_id, c.opened_on from rm_comanda.comanda c
          where c.business_id = $6 and c.company_id = any($1)
            and (c.opened_on between $2 and $3
                 or exists (select 1 from unnest($4::date[], $5::date[]) r (f, t) where c.opened_on between r.f and r.t))",
    )
    .bind(companies)
    .bind(from)
    .bind(to)
    .bind(starts)
    .bind(ends)
    .bind(business_id)
    .fetch_all(pool)
    .await
}

/// An appointment a reminder may be due for (issue 44): active, on a day from `from` to
/// `to`, in an active unit whose 'Lembretes' are on, for a client who accepts WhatsApp
/// (`rm_agenda`'s copy of the client's flag, `rm_company`'s settings). A reminder read a
/// moment late is sent a moment late; whether it is sent twice is the message stream's
/// decision, not this read's (ADR 0028).
#[derive(Debug, sqlx::FromRow)]
pub struct ReminderCandidate {
    /// The business.
    pub business_id: i64,
    /// The appointment.
    pub appointment_id: i64,
    /// Its unit's name.
    pub unit_name: String,
    /// Its unit's IANA zone.
    pub time_zone: String,
    /// Its unit's reminders.
    pub reminders: sqlx::types::Json<navalha_domain::company::Reminders>,
    /// The client.
    pub client_name: String,
    /// Their mobile, digits.
    pub client_phone: String,
    /// Whether they accept WhatsApp (with a mobile): else they get e-mail.
    pub client_whatsapp: bool,
    /// Their e-mail address, empty when none.
    pub client_email: String,
    /// The professional.
    pub professional_name: String,
    /// The services.
    pub services: sqlx::types::Json<Vec<navalha_domain::appointment::BookedService>>,
    /// The day.
    pub date: NaiveDate,
    /// The start.
    pub start: chrono::NaiveTime,
}

/// See [`ReminderCandidate`].
pub async fn reminder_candidates(
    pool: &PgPool,
    from: NaiveDate,
    to: NaiveDate,
) -> sqlx::Result<Vec<ReminderCandidate>> {
    sqlx::query_as(
        "select c.business_id, a.appointment_id, c.name as unit_name, c.time_zone,
                c.profile -> 'reminders' as reminders, a.client_name, a.client_phone,
                a.client_whatsapp and a.client_phone <> '' as client_whatsapp,
                coalesce(k.email, '') as client_email, a.professional_name,
                a.services, a.date, a.start_time as start
           from rm_agenda.appointment a
           join rm_company.company c on c.company_id = a.company_id
           left join rm_client.client k on k.client_id = a.client_id
          where a.status and ((a.client_whatsapp and a.client_phone <> '') or coalesce(k.email, '') <> '') and c.status
            and a.date between $1 and $2
            and (c.profile -> 'reminders' ->> 'before_24h' = 'true' or c.profile -> 'reminders' ->> 'before_2h' = 'true')
          order by a.date, a.start_time, a.appointment_id",
    )
    .bind(from)
    .bind(to)
    .fetch_all(pool)
    .await
}

/// Messages whose last decision to send (`MessageRequested` or `SendRetried`) was
/// recorded before `before` and within the last day, and nothing after it: `(business,
/// key)`. From the log itself (index `events_message_sends`), not a read model.
pub async fn unanswered_messages(
    pool: &PgPool,
    before: chrono::DateTime<chrono::Utc>,
) -> sqlx::Result<Vec<(i64, String)>> {
    sqlx::query_as(
        "select (e.metadata ->> 'business_id')::bigint, e.aggregate_id
           from events e
          where e.aggregate_type = 'Message' and e.event_type in ('MessageRequested', 'SendRetried')
            and e.recorded_at < $1 and e.recorded_at > $1 - interval '1 day'
            and not exists (select 1 from events later
                             where later.aggregate_type = 'Message' and later.aggregate_id = e.aggregate_id
                               and later.sequence > e.sequence)",
    )
    .bind(before)
    .fetch_all(pool)
    .await
}

/// A booking, move or cancellation recorded in the log (issue 44, point 2's notices).
#[derive(Debug, sqlx::FromRow)]
pub struct AppointmentChange {
    pub business_id: i64,
    /// The appointment's id (its stream).
    pub aggregate_id: String,
    pub event_type: String,
    pub event_version: String,
    /// The event's payload.
    pub payload: String,
    /// Made by a staff member (the metadata names a role): not the client online, by
    /// WhatsApp, nor the system.
    pub by_staff: bool,
    /// The stream's booking before this event (the last `AppointmentBooked` or
    /// `AppointmentChanged` before it), with its version: what a change moved from.
    pub previous: Option<String>,
    pub previous_type: Option<String>,
    pub previous_version: Option<String>,
    /// Recorded within the notice window (a change older than it is passed over, not told).
    pub recent: bool,
    /// Its place in the commit order: the page key.
    pub tx_id: i64,
    pub global_position: i64,
}

/// A page of a notice pass's reading of the log (the clients' notices): bookings, changes and
/// cancellations in commit order after `after` (a `(tx_id, global_position)`), committed in
/// the snapshot `now` and not in the snapshot `before` (the previous pass's; `None` on a
/// process's first pass), each marked `recent` when recorded since `since`. At most `limit`:
/// a restore or an import puts a window's worth of appointment events in the log at once,
/// and one read of 107,117 rows took command-api past its memory bound in the bench. From
/// the log itself (index `events_by_type_in_commit_order`), not a read model.
pub async fn appointment_changes(
    pool: &PgPool,
    since: chrono::DateTime<chrono::Utc>,
    after: (i64, i64),
    now: &str,
    before: Option<&str>,
    limit: i64,
) -> sqlx::Result<Vec<AppointmentChange>> {
    sqlx::query_as(&appointment_changes_sql(limit))
        .bind(since)
        .bind(after.0)
        .bind(after.1)
        .bind(now)
        .bind(before)
        .fetch_all(pool)
        .await
}

/// The statement of [`appointment_changes`] for pages of `limit`. The page's size is
/// written in, not bound: with `limit $6` the generic plan priced a page at a tenth of
/// the window (7,453 rows with 10,000 businesses), past `jit_above_cost`, so every page
/// compiled its plan (94 ms) and started two parallel workers: 230 ms a page against 21 ms.
pub fn appointment_changes_sql(limit: i64) -> String {
    format!("{APPOINTMENT_CHANGES} limit {limit}")
}

/// The statement of [`appointment_changes`], but its limit. Whether an event is recent is a column, not a
/// condition: with `recorded_at > $1` in the `where`, the generic plan a prepared statement
/// settles on read every recent appointment event through `events_appointment_notices` and
/// sorted them all for each page (issue 46: 5.9 s a page once a bulk load had put 1.45
/// million events in the window). Read in commit order, a page stops at its limit.
const APPOINTMENT_CHANGES: &str = "\
    select (e.metadata ->> 'business_id')::bigint as business_id, e.aggregate_id, e.event_type,
           e.event_version, e.payload::text as payload, coalesce(e.metadata ->> 'role', '') <> '' as by_staff,
           p.payload::text as previous, p.event_type as previous_type, p.event_version as previous_version,
           e.recorded_at > $1 as recent, e.tx_id::text::bigint as tx_id, e.global_position
      from events e
      left join lateral (
           select b.payload, b.event_type, b.event_version from events b
            where b.aggregate_type = 'Appointment' and b.aggregate_id = e.aggregate_id
              and b.sequence < e.sequence and b.event_type in ('AppointmentBooked', 'AppointmentChanged')
            order by b.sequence desc limit 1) p on e.event_type = 'AppointmentChanged'
     where e.aggregate_type = 'Appointment'
       and (e.tx_id, e.global_position) > ($2::bigint::text::xid8, $3)
       and e.event_type in ('AppointmentBooked', 'AppointmentChanged', 'AppointmentCancelled')
       and pg_visible_in_snapshot(e.tx_id, $4::text::pg_snapshot)
       and not coalesce(pg_visible_in_snapshot(e.tx_id, $5::text::pg_snapshot), false)
     order by e.tx_id, e.global_position";

/// Where a notice pass starts reading the log: the oldest transaction of the appointment
/// events recorded since `since` (`None` when there are none). Read once, on a process's
/// first pass; later passes start at the previous snapshot's oldest transaction.
pub async fn appointment_changes_start(
    pool: &PgPool,
    since: chrono::DateTime<chrono::Utc>,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "select min(tx_id)::text::bigint from events
          where aggregate_type = 'Appointment'
            and event_type in ('AppointmentBooked', 'AppointmentChanged', 'AppointmentCancelled')
            and recorded_at > $1",
    )
    .bind(since)
    .fetch_one(pool)
    .await
}
