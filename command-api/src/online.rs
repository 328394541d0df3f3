//! Online booking (issue 18, docs/online-booking.md): a unit's clients book, cancel and
//! move their own appointments on its public page, with the same rules as staff bookings
//! (`scheduling::booking_of` and `check_time`) and the same no-overlap constraint.
//!
//! Identity without passwords: a 6-digit code e-mailed to the client is exchanged for a
//! short-lived booking token; each booking then gets a link token that opens it alone.
//! Both are JWTs signed like sign-in tokens, with their own audiences, so no staff
//! endpoint accepts them.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use chrono::{NaiveDate, NaiveDateTime};
use navalha_domain::appointment::{Appointment, AppointmentCommand, AppointmentError, Standing, TimesType};
use navalha_domain::client::{cpf_claim, Client, ClientCommand, ClientDetails, CPF_SCOPE, MSG_DUPLICATE_CPF};
use navalha_domain::company::Company;
use navalha_domain::metadata::EventMetadata;
use navalha_domain::online::{self, BookingView, ClientIdentity, Names, OnlineRules};
use navalha_domain::professional::Professional;
use navalha_domain::validation::{form_date, FieldErrors, TimeOfDay};
use navalha_domain::Aggregate as _;
use navalha_platform::auth::{
    bearer_token, now_seconds, OnlineClaims, ISSUER, ONLINE_BOOKING_AUDIENCE, ONLINE_CLIENT_AUDIENCE,
};
use navalha_platform::calendar::unit_working_minutes;
use navalha_platform::error::ErrorBody;
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::position::Position;
use navalha_platform::refused;
use navalha_platform::ApiError;
use rand::Rng;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::commands::{
    claim_holder, execute, execute_claiming, execute_new, invalid, load, next_id, position_headers, Claim,
    Streams,
};
use crate::idempotency;
use crate::identity::recovery::sha256;
use crate::identity::throttle;
use crate::read_models::{self, OnlineUnit};
use crate::scheduling::{booking_of, day_of, Booker, Checked, Request};
use crate::state::AppState;

/// How long a code lives.
const CODE_MINUTES: i32 = 10;
/// Wrong tries after which a code is dead.
const MAX_WRONG_ATTEMPTS: i32 = 5;
/// How long the booking token made from a code lives.
const CLIENT_TOKEN_SECONDS: i64 = 30 * 60;
/// How long a booking's link works after the booking's day.
const LINK_DAYS_AFTER: i64 = 30;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_code))
        .routes(routes!(verify_code))
        .routes(routes!(book))
        .routes(routes!(cancel))
        .routes(routes!(reschedule))
}

async fn open_unit(state: &AppState, company_id: i64) -> Result<OnlineUnit, ApiError> {
    read_models::online_unit(&state.pool, company_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(online::MSG_UNIT_NOT_FOUND.to_owned()))
}

/// Refuses a client past the unit's no-show limit (issue 44), naming the shop's phone.
async fn admits_after_no_shows(
    state: &AppState,
    unit: &OnlineUnit,
    claims: &OnlineClaims,
    client_id: i64,
) -> Result<(), ApiError> {
    if unit.rules.no_show_limit == 0 {
        return Ok(());
    }
    let since = unit.now.date() - chrono::Duration::days(online::NO_SHOW_DAYS);
    let no_shows = read_models::recent_no_shows_of(&state.pool, claims, client_id, since).await?;
    if unit.rules.admits_after_no_shows(no_shows) {
        return Ok(());
    }
    let phone = crate::whatsapp::templates::phone_text(&unit.phone);
    Err(ApiError::Unprocessable(online::msg_blocked_by_no_shows(&phone)))
}

/// The events' author: the client, on the unit's page.
fn metadata(business_id: i64, origin: &RequestOrigin) -> EventMetadata {
    let mut metadata = EventMetadata::system(online::AUTHOR, business_id);
    metadata.request_id = origin.request_id.clone();
    metadata.client_ip = origin.client_ip.clone();
    metadata
}

/// A code e-mailed: the request it answers, to send back with the code.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct CodeSent {
    #[serde(rename = "RequestId")]
    request_id: String,
    message: &'static str,
}

/// What the public page keeps after the code: the token that books, for 30 minutes.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct ClientToken {
    token: String,
    /// The client's name, for the page's greeting.
    name: String,
    /// Seconds the token lasts.
    expires_in: i64,
}

#[utoipa::path(
    post,
    path = "/no-auth/online-booking/{idCompany}/code",
    tag = "Online booking",
    summary = "E-mail a 6-digit code to a client on the unit's public page (to the e-mail on file for a returning client; the same answer whoever the CPF is)",
    params(("idCompany" = i64, Path)),
    request_body = ClientIdentity,
    responses(
        (status = 200, description = "Sent (or not, unseen: the same answer)", body = CodeSent),
        (status = 404, description = "Unknown or inactive unit", body = ErrorBody),
        (status = 422, description = "Validation: `errors` on name, phone, cpf, email", body = ErrorBody),
        (status = 429, description = "Too many codes for this CPF or from this address", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all, fields(company_id))]
async fn request_code(
    State(state): State<AppState>,
    origin: RequestOrigin,
    PathParam(company_id): PathParam<i64>,
    Json(body): Json<ClientIdentity>,
) -> Result<Json<CodeSent>, ApiError> {
    let unit = open_unit(&state, company_id).await?;
    let identity = body.validate().map_err(invalid)?;
    let cpf = identity.cpf.as_str().to_owned();
    throttle::enter(&state.pool, throttle::ONLINE_CODE, &format!("cpf:{cpf}"), &origin.client_ip, None)
        .await?;
    // A returning client's code goes to the e-mail on file: typing someone's CPF with
    // one's own e-mail does not let one book as them.
    let on_file = match claim_holder(&state.pool, CPF_SCOPE, &cpf_claim(unit.business_id, &cpf)).await? {
        Some(id) => load::<Client>(&state.events, unit.business_id, &id)
            .await?
            .details()
            .map(|details| details.email.clone())
            .filter(|email| !email.is_empty()),
        None => None,
    };
    let mut to = on_file.or(identity.email.clone()).unwrap_or_default();
    if !to.is_empty() && !throttle::code_mail_allowed(&state.pool, &to).await? {
        // The code is kept but never sent: it cannot be confirmed, and the answer is the same.
        to.clear();
    }
    let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000));
    let salt: [u8; 16] = rand::thread_rng().gen();
    let request_id = uuid::Uuid::new_v4().to_string();
    sqlx::query(
        "insert into online_code (request_id, business_id, company_id, cpf, name, phone, email, code_salt, code_hash,
                                  expires_at, whatsapp)
         values ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(mins => $10), $11)",
    )
    .bind(&request_id)
    .bind(unit.business_id)
    .bind(company_id)
    .bind(&cpf)
    .bind(&identity.name)
    .bind(&identity.phone)
    .bind(&to)
    .bind(salt.as_slice())
    .bind(sha256(&[&salt, code.as_bytes()]))
    .bind(CODE_MINUTES)
    .bind(identity.whatsapp)
    .execute(&state.pool)
    .await?;
    if to.is_empty() {
        tracing::info!(company_id, "online code asked without an e-mail to send it to; nothing sent");
    } else {
        // After the answer, so it takes the same time whether or not an e-mail goes out.
        let mailer = state.mailer.clone();
        tokio::spawn(async move {
            let text = format!(
                "Olá!\n\nSeu código para agendar: {code}\n\n\
                 Ele vale por {CODE_MINUTES} minutos e pode ser usado uma vez.\n\
                 Se você não pediu este código, ignore este e-mail."
            );
            if let Err(error) = mailer.send(&to, "Navalha: seu código para agendar", &text).await {
                tracing::warn!(%error, "online booking code e-mail failed; the client can ask again");
            }
        });
    }
    Ok(Json(CodeSent { request_id, message: online::MSG_CODE_SENT }))
}

/// A code row, with whether it can still be used.
#[derive(sqlx::FromRow)]
struct OpenCode {
    business_id: i64,
    cpf: String,
    name: String,
    phone: String,
    email: String,
    whatsapp: bool,
    code_salt: Vec<u8>,
    code_hash: Vec<u8>,
    open: bool,
}

/// `POST no-auth/online-booking/{idCompany}/verify`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
struct VerifyBody {
    /// `RequestId` of the code's answer.
    request_id: String,
    /// The 6 digits.
    code: String,
}

#[utoipa::path(
    post,
    path = "/no-auth/online-booking/{idCompany}/verify",
    tag = "Online booking",
    summary = "Exchange the e-mailed code for a booking token (30 minutes; the code works once)",
    params(("idCompany" = i64, Path)),
    request_body = VerifyBody,
    responses(
        (status = 200, description = "The booking token", body = ClientToken),
        (status = 404, description = "Unknown or inactive unit", body = ErrorBody),
        (status = 422, description = "A wrong, used or expired code", body = ErrorBody),
        (status = 429, description = "Too many wrong codes for this CPF or from this address", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all, fields(company_id))]
async fn verify_code(
    State(state): State<AppState>,
    origin: RequestOrigin,
    PathParam(company_id): PathParam<i64>,
    Json(body): Json<VerifyBody>,
) -> Result<Json<ClientToken>, ApiError> {
    open_unit(&state, company_id).await?;
    if body.code.trim().is_empty() {
        return Err(ApiError::field("code", "Digite o código."));
    }
    let bad_code = || ApiError::Unprocessable(online::MSG_BAD_CODE.to_owned());
    let request_id = body.request_id.trim().parse::<uuid::Uuid>().map_err(|_| bad_code())?.to_string();
    let mut tx = state.pool.begin().await?;
    let row: Option<OpenCode> = sqlx::query_as(
        "select business_id, cpf, name, phone, email, whatsapp, code_salt, code_hash,
                used_at is null and expires_at > now() and wrong_attempts < $3 as open
           from online_code where request_id = $1::uuid and company_id = $2 for update",
    )
    .bind(&request_id)
    .bind(company_id)
    .bind(MAX_WRONG_ATTEMPTS)
    .fetch_optional(&mut *tx)
    .await?;
    // Wrong codes count per CPF across codes: asking for a new one gives no fresh guesses.
    let subject = row.as_ref().map_or_else(|| format!("request:{request_id}"), |r| format!("cpf:{}", r.cpf));
    let attempt =
        throttle::enter(&state.pool, throttle::ONLINE_GUESS, &subject, &origin.client_ip, None).await?;
    let Some(OpenCode {
        business_id,
        cpf,
        name,
        phone,
        email,
        whatsapp,
        code_salt: salt,
        code_hash: hash,
        open,
    }) = row
    else {
        return Err(bad_code());
    };
    if !open || email.is_empty() {
        return Err(bad_code());
    }
    if sha256(&[&salt, body.code.trim().as_bytes()]) != hash {
        sqlx::query(
            "update online_code set wrong_attempts = wrong_attempts + 1
              where business_id = $2 and request_id = $1::uuid",
        )
        .bind(&request_id)
        .bind(business_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        return Err(bad_code());
    }
    sqlx::query("update online_code set used_at = now() where business_id = $2 and request_id = $1::uuid")
        .bind(&request_id)
        .bind(business_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    attempt.succeeded(&state.pool).await?;
    let now = now_seconds();
    let token = state.issuer.issue_online(&OnlineClaims {
        sub: cpf,
        biz: business_id,
        unit: company_id,
        name: name.clone(),
        phone,
        email,
        whatsapp,
        aud: ONLINE_CLIENT_AUDIENCE.to_owned(),
        iss: ISSUER.to_owned(),
        iat: now,
        exp: now + CLIENT_TOKEN_SECONDS,
    })?;
    tracing::info!(company_id, "online booking code confirmed");
    Ok(Json(ClientToken { token, name, expires_in: CLIENT_TOKEN_SECONDS }))
}

/// The client behind a booking token for the unit `company_id`.
async fn client_of(state: &AppState, headers: &HeaderMap, company_id: i64) -> Result<OnlineClaims, ApiError> {
    let expired = || ApiError::VerificationExpired(online::MSG_VERIFICATION_EXPIRED.to_owned());
    let token = bearer_token(headers).ok_or_else(expired)?;
    let claims = state.verifier.verify_online(token, ONLINE_CLIENT_AUDIENCE, expired).await?;
    if claims.unit != company_id {
        return Err(expired());
    }
    Ok(claims)
}

/// The client's record: the CPF's, or a new one registered from what they typed.
async fn client_id(state: &AppState, claims: &OnlineClaims, origin: &RequestOrigin) -> Result<i64, ApiError> {
    let claim_value = cpf_claim(claims.biz, &claims.sub);
    if let Some(id) = claim_holder(&state.pool, CPF_SCOPE, &claim_value).await? {
        return id.parse().map_err(|e: std::num::ParseIntError| ApiError::Internal(e.into()));
    }
    let cpf = navalha_domain::values::Cpf::parse(&claims.sub).map_err(|_| ApiError::Unauthorized)?;
    let id = next_id(&state.pool, "client_id_seq").await?;
    let details = ClientDetails {
        name: claims.name.clone(),
        email: claims.email.clone(),
        phone: claims.phone.clone(),
        // What the client ticked on the page; a record the shop has keeps its own.
        whatsapp: claims.whatsapp,
        birth_date: None,
        status: true,
    };
    let claim =
        Claim { scope: CPF_SCOPE, value: claim_value.clone(), duplicate: MSG_DUPLICATE_CPF, field: None };
    let registered = execute_claiming::<Client>(
        &state.events,
        &id.to_string(),
        ClientCommand::RegisterClient { cpf: Some(cpf), details, online: true },
        &metadata(claims.biz, origin),
        &[claim],
        &[],
    )
    .await;
    match registered {
        Ok(_) => {
            tracing::info!(client_id = id, "client registered by online booking");
            Ok(id)
        }
        // Registered by a booking of theirs running at the same time.
        Err(ApiError::Conflict(_)) => claim_holder(&state.pool, CPF_SCOPE, &claim_value)
            .await?
            .ok_or_else(|| ApiError::Conflict(MSG_DUPLICATE_CPF.to_owned()))?
            .parse()
            .map_err(|e: std::num::ParseIntError| ApiError::Internal(e.into())),
        Err(error) => Err(error),
    }
}

/// `POST no-auth/online-booking/{idCompany}/scheduling` and the move's body.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
struct TimeChoice {
    /// The services (ignored when moving: a move keeps them).
    id_services: Vec<i64>,
    /// The professional, or null for 'Sem preferência'.
    id_professional: Option<i64>,
    /// `YYYY-MM-DD`.
    date: Option<String>,
    /// `HH:MM`.
    start_time: Option<String>,
}

/// A checked choice of time.
struct Choice {
    professional_id: Option<i64>,
    date: NaiveDate,
    start: TimeOfDay,
}

impl TimeChoice {
    fn check(&self, today: NaiveDate, needs_services: bool) -> Result<Choice, ApiError> {
        let mut errors = FieldErrors::default();
        errors.check(
            needs_services && self.id_services.is_empty(),
            "idServices",
            "Escolha pelo menos um serviço",
        );
        let date = form_date(self.date.as_deref()).ok().flatten();
        let last = today + chrono::Duration::days(online::DAYS_AHEAD - 1);
        errors.check(!date.is_some_and(|d| d >= today && d <= last), "date", "Escolha um dia da lista");
        let start = self.start_time.as_deref().and_then(|t| TimeOfDay::parse(t).ok());
        errors.check(start.is_none(), "startTime", "Escolha o horário");
        match (date, start) {
            (Some(date), Some(start)) if errors.is_empty() => {
                Ok(Choice { professional_id: self.id_professional, date, start })
            }
            _ => Err(invalid(errors)),
        }
    }
}

/// The memberships that may take the choice, in the order they are tried: the chosen
/// professional's, or for 'Sem preferência' every active one offering all the services.
async fn candidates(
    state: &AppState,
    (business_id, company_id): (i64, i64),
    professional_id: Option<i64>,
    service_ids: &[i64],
) -> Result<Vec<i64>, ApiError> {
    let memberships =
        read_models::offering_memberships(&state.pool, business_id, company_id, professional_id, service_ids)
            .await?;
    if memberships.is_empty() {
        return Err(ApiError::field("idProfessional", "Profissional indisponível para estes serviços"));
    }
    Ok(memberships)
}

/// What [`place`] does on the first professional free at the chosen time.
enum Placing<'a> {
    /// Books appointment `id` (an id not used yet).
    Book { id: i64 },
    /// Moves appointment `id`.
    Move { id: &'a str },
}

/// Books or moves on the first candidate free at the chosen time, with the same checks as
/// staff bookings. A candidate lost to a concurrent booking (the constraint's 409) gives way
/// to the next. Answers the position of the events and the booking as the page shows it
/// (with its link's `ManageToken` when booking).
async fn place(
    state: &AppState,
    line: &mut sqlx::PgConnection,
    (business_id, company_id, rules): (i64, i64, &OnlineRules),
    memberships: &[i64],
    make: impl Fn(i64) -> Request,
    placing: Placing<'_>,
    origin: &RequestOrigin,
) -> Result<(Option<Position>, BookedOnline), ApiError> {
    let booker = Booker::Online { business_id, company_id };
    let moving = match placing {
        Placing::Book { .. } => None,
        Placing::Move { id } => Some(id),
    };
    let mut refusal = None;
    for membership_id in memberships {
        let checked = booking_of(state, &booker, make(*membership_id), false).await?;
        if checked.booking.newcomer {
            newcomers_have_room(line, &checked, rules, &origin.client_ip, moving).await?;
        }
        let day = day_of(state, &checked, moving).await?;
        let (aggregate_id, command, answer, metadata) = match placing {
            Placing::Book { id } => {
                let answer = BookedOnline {
                    view: view_of(id, &checked),
                    manage_token: Some(link_token(state, business_id, company_id, id, checked.booking.date)?),
                };
                let metadata = idempotency::answering(
                    metadata(business_id, origin),
                    origin,
                    StatusCode::CREATED,
                    &answer,
                );
                (id.to_string(), AppointmentCommand::Book { booking: checked.booking, day }, answer, metadata)
            }
            Placing::Move { id } => {
                let number = id.parse().map_err(|e: std::num::ParseIntError| ApiError::Internal(e.into()))?;
                let answer = BookedOnline { view: view_of(number, &checked), manage_token: None };
                let command = AppointmentCommand::Change { booking: checked.booking, day };
                (id.to_owned(), command, answer, metadata(business_id, origin))
            }
        };
        let executed = match placing {
            Placing::Book { .. } => {
                execute_new::<Appointment>(&state.events, &aggregate_id, command, &metadata).await
            }
            Placing::Move { .. } => {
                execute::<Appointment>(&state.events, &aggregate_id, command, &metadata).await
            }
        };
        // A time this candidate cannot take (a rule, or a concurrent booking) tries the next.
        match executed {
            // The client's own other appointment then: no professional would do.
            Err(ApiError::ConflictOn { .. }) => {
                return Err(ApiError::Conflict(online::MSG_CLIENT_BUSY.to_owned()))
            }
            Err(error @ (ApiError::Conflict(_) | ApiError::Validation { .. })) => refusal = Some(error),
            Ok(position) => return Ok((position, answer)),
            Err(error) => return Err(error),
        }
    }
    Err(match refusal {
        Some(ApiError::Conflict(message)) if message == AppointmentError::SlotTaken.to_string() => {
            ApiError::Conflict(online::MSG_TIME_TAKEN.to_owned())
        }
        Some(ApiError::Conflict(_) | ApiError::Validation { .. }) | None => {
            ApiError::Conflict(online::MSG_TIME_UNAVAILABLE.to_owned())
        }
        Some(other) => other,
    })
}

/// A booking as the public page shows it, with its link's token when just booked.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct BookedOnline {
    #[serde(flatten)]
    view: BookingView,
    /// The token of the booking's link, to cancel or move it: only in the booking's answer.
    #[serde(rename = "ManageToken", skip_serializing_if = "Option::is_none")]
    manage_token: Option<String>,
}

/// Whether a newcomer's booking fits the unit's newcomer rules on its day (issue 39): the
/// newcomers' bookings hold at most the unit's share of its professionals' working minutes,
/// and those from one address range (`navalha_address_range`) at most
/// [`online::NEWCOMER_BOOKINGS_PER_ADDRESS`]. Holds the unit's day for newcomers for the
/// rest of `line`, so concurrent newcomers are counted one after another; the count is taken
/// from `appointment_slot`, written with the events.
async fn newcomers_have_room(
    line: &mut sqlx::PgConnection,
    checked: &Checked,
    rules: &OnlineRules,
    address: &str,
    moving: Option<&str>,
) -> Result<(), ApiError> {
    let booking = &checked.booking;
    sqlx::query("select pg_advisory_xact_lock(3, hashtext($1))")
        .bind(format!("newcomers:{}:{}", booking.company_id, booking.date))
        .execute(&mut *line)
        .await?;
    let (held, from_here): (i64, i64) = sqlx::query_as(
        "select coalesce(sum(extract(epoch from upper(during) - lower(during)))::bigint / 60, 0),
                count(*) filter (where online_from = navalha_address_range($4))
           from appointment_slot
          where company_id = $1 and newcomer and lower(during) >= $2::date and lower(during) < $2::date + 1
            and appointment_id is distinct from $3",
    )
    .bind(booking.company_id)
    .bind(booking.date)
    .bind(moving)
    .bind(address)
    .fetch_one(&mut *line)
    .await?;
    if from_here >= online::NEWCOMER_BOOKINGS_PER_ADDRESS {
        tracing::warn!(company_id = booking.company_id, client_ip = %address, "newcomer bookings from one address refused");
        return Err(ApiError::Conflict(online::MSG_NEWCOMER_ADDRESS_FULL.to_owned()));
    }
    let working =
        unit_working_minutes(&mut *line, checked.business_id, booking.company_id, booking.date).await?;
    let minutes = i64::from(booking.end.minutes()) - i64::from(booking.start.minutes());
    if !rules.newcomers_may_take(held, minutes, working) {
        tracing::warn!(company_id = booking.company_id, held, working, "newcomers' share of the day refused");
        return Err(ApiError::Conflict(online::MSG_NEWCOMER_DAY_FULL.to_owned()));
    }
    Ok(())
}

/// Holds the client's place in line for the rest of `tx`: bookings by one CPF, one mobile
/// or one e-mail run one at a time, so the limit of future bookings cannot be raced past.
async fn one_at_a_time(tx: &mut sqlx::PgConnection, claims: &OnlineClaims) -> Result<(), ApiError> {
    let mut keys = [
        format!("cpf:{}:{}", claims.biz, claims.sub),
        format!("phone:{}:{}", claims.biz, claims.phone),
        format!("email:{}:{}", claims.biz, claims.email.to_lowercase()),
    ];
    keys.sort();
    for key in keys {
        sqlx::query("select pg_advisory_xact_lock(3, hashtext($1))").bind(key).execute(&mut *tx).await?;
    }
    Ok(())
}

/// The client's future active bookings in the unit, by CPF, mobile or e-mail, from the
/// slots written with the events (never behind them).
async fn future_bookings(
    state: &AppState,
    claims: &OnlineClaims,
    client_id: i64,
    now: NaiveDateTime,
) -> Result<i64, ApiError> {
    Ok(read_models::future_bookings_of(&state.pool, claims, client_id, now).await?)
}

/// The booking's link token.
fn link_token(
    state: &AppState,
    business_id: i64,
    company_id: i64,
    id: i64,
    date: NaiveDate,
) -> Result<String, ApiError> {
    let now = now_seconds();
    let days_left = (date - navalha_platform::clock::now().date_naive()).num_days().max(0);
    state.issuer.issue_online(&OnlineClaims {
        sub: id.to_string(),
        biz: business_id,
        unit: company_id,
        name: String::new(),
        phone: String::new(),
        email: String::new(),
        whatsapp: false,
        aud: ONLINE_BOOKING_AUDIENCE.to_owned(),
        iss: ISSUER.to_owned(),
        iat: now,
        exp: now + (days_left + LINK_DAYS_AFTER) * 86_400,
    })
}

/// The page's view of a booking just checked (its aggregates hold the names).
fn view_of(id: i64, checked: &Checked) -> BookingView {
    let names = names(&checked.company, &checked.professional);
    BookingView::new(id, &checked.booking, true, names, &checked.company.online_rules(), checked.now)
}

/// What the page shows of the unit and the professional.
fn names(company: &Company, professional: &Professional) -> Names {
    Names {
        company: company.profile().map(|p| p.name.clone()).unwrap_or_default(),
        address: company.profile().map(|p| p.address.one_line()).unwrap_or_default(),
        professional: professional.personal().map(|p| p.name.clone()).unwrap_or_default(),
    }
}

/// The page's view of a linked booking just cancelled: the appointment is already loaded,
/// the unit and the professional come in one round trip.
async fn cancelled_view(state: &AppState, linked: &Linked) -> Result<BookingView, ApiError> {
    let booking = linked
        .appointment
        .booking()
        .ok_or_else(|| ApiError::NotFound(online::MSG_BOOKING_NOT_FOUND.to_owned()))?;
    let (company_id, professional_id) = (booking.company_id.to_string(), booking.professional_id.to_string());
    let wanted = [(Company::TYPE, company_id.clone()), (Professional::TYPE, professional_id.clone())];
    let streams = Streams::fetch(&state.events, linked.claims.biz, &wanted).await?;
    let (company, professional) = (streams.replay(&company_id)?, streams.replay(&professional_id)?);
    let names = names(&company, &professional);
    Ok(BookingView::new(linked.id, booking, false, names, &company.online_rules(), linked.now))
}

#[utoipa::path(
    post,
    path = "/no-auth/online-booking/{idCompany}/scheduling",
    tag = "Online booking",
    summary = "Book with a booking token: the same checks as a staff booking; 'Sem preferência' (idProfessional null) takes the first professional free",
    params(("idCompany" = i64, Path)),
    request_body = TimeChoice,
    responses(
        (status = 201, description = "The booking and its link's ManageToken", body = BookedOnline, headers(("X-Navalha-Position" = String, description = "The position of the events appended"))),
        (status = 401, description = "No booking token, or an expired one", body = ErrorBody),
        (status = 404, description = "Unknown or inactive unit", body = ErrorBody),
        (status = 409, description = "The time was taken meanwhile, or is not free", body = ErrorBody),
        (status = 422, description = "Validation, or the limit of future bookings", body = ErrorBody),
        (status = 429, description = "Too many bookings from this address or for this CPF", body = ErrorBody),
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(company_id))]
async fn book(
    State(state): State<AppState>,
    origin: RequestOrigin,
    headers: HeaderMap,
    PathParam(company_id): PathParam<i64>,
    Json(body): Json<TimeChoice>,
) -> Result<(StatusCode, HeaderMap, Json<BookedOnline>), ApiError> {
    let claims = client_of(&state, &headers, company_id).await?;
    let unit = open_unit(&state, company_id).await?;
    let choice = body.check(unit.now.date(), true)?;
    throttle::enter(
        &state.pool,
        throttle::ONLINE_BOOKING,
        &format!("cpf:{}", claims.sub),
        &origin.client_ip,
        None,
    )
    .await?;
    let client_id = client_id(&state, &claims, &origin).await?;
    let _turn = state.online_turns.wait(company_id, choice.date).await;
    let mut line = state.pool.begin().await?;
    one_at_a_time(&mut line, &claims).await?;
    let limit = unit.rules.max_future_bookings;
    if future_bookings(&state, &claims, client_id, unit.now).await? >= limit {
        return Err(ApiError::Unprocessable(online::msg_too_many_bookings(limit)));
    }
    admits_after_no_shows(&state, &unit, &claims, client_id).await?;
    let mut service_ids = body.id_services.clone();
    service_ids.sort_unstable();
    service_ids.dedup();
    let memberships =
        candidates(&state, (unit.business_id, company_id), choice.professional_id, &service_ids).await?;
    let id = state.appointment_ids.next(&state.pool).await?;
    let make = |membership_id| Request {
        membership_id,
        date: choice.date,
        start: choice.start,
        service_ids: service_ids.clone(),
        client_id,
        observation: String::new(),
        times_type: TimesType::OnlyAvailables,
        reprice: true,
        client_overlap: false,
    };
    let unit_rules = (unit.business_id, company_id, &unit.rules);
    let (position, answer) =
        place(&state, &mut line, unit_rules, &memberships, make, Placing::Book { id }, &origin).await?;
    line.commit().await?;
    tracing::info!(appointment_id = id, "appointment booked online");
    mail_confirmation(&state, &claims.email, company_id, &answer);
    Ok((StatusCode::CREATED, position_headers(position), Json(answer)))
}

/// E-mails the booking's link, after the answer.
fn mail_confirmation(state: &AppState, to: &str, company_id: i64, answer: &BookedOnline) {
    if to.is_empty() {
        return;
    }
    let link = format!(
        "{}/agendar/{company_id}/reserva/{}",
        state.settings.public_url.trim_end_matches('/'),
        answer.manage_token.as_deref().unwrap_or_default()
    );
    let text = format!(
        "Olá!\n\nSeu horário está agendado: {} às {}, com {}, em {}.\n\n\
         Para cancelar ou remarcar, abra: {link}\n",
        answer.view.date, answer.view.start_time, answer.view.professional_name, answer.view.company_name,
    );
    let (mailer, to) = (state.mailer.clone(), to.to_owned());
    tokio::spawn(async move {
        if let Err(error) = mailer.send(&to, "Navalha: agendamento confirmado", &text).await {
            tracing::warn!(%error, "online booking confirmation e-mail failed");
        }
    });
}

/// The booking a link token opens, checked against the cut-off.
struct Linked {
    claims: OnlineClaims,
    id: i64,
    appointment: Appointment,
    now: NaiveDateTime,
    rules: OnlineRules,
}

async fn linked(state: &AppState, token: &str, origin: &RequestOrigin) -> Result<Linked, ApiError> {
    let (claims, id) = state.verifier.booking_link(token).await?;
    let not_found = || ApiError::NotFound(online::MSG_BOOKING_NOT_FOUND.to_owned());
    throttle::enter(
        &state.pool,
        throttle::ONLINE_BOOKING,
        &format!("appointment:{id}"),
        &origin.client_ip,
        None,
    )
    .await?;
    let unit = open_unit(state, claims.unit).await?;
    let appointment: Appointment = load(&state.events, claims.biz, &id.to_string()).await?;
    let booking = appointment.booking().ok_or_else(not_found)?;
    if appointment.standing() == Standing::Cancelled {
        return Err(ApiError::Conflict(online::MSG_ALREADY_CANCELLED.to_owned()));
    }
    if unit.now >= unit.rules.changeable_until(booking) {
        return Err(ApiError::Conflict(online::MSG_TOO_LATE.to_owned()));
    }
    Ok(Linked { claims, id, appointment, now: unit.now, rules: unit.rules })
}

#[utoipa::path(
    post,
    path = "/no-auth/online-booking/booking/{token}/cancel",
    tag = "Online booking",
    summary = "Cancel the booking a link opens, until the unit's cut-off (2 hours before by default)",
    params(("token" = String, Path)),
    responses(
        (status = 200, description = "The booking, CANCELLED", body = BookingView),
        (status = 404, description = "A bad link", body = ErrorBody),
        (status = 409, description = "After the cut-off, or already cancelled", body = ErrorBody),
        (status = 429, description = "Too many changes from this address", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
async fn cancel(
    State(state): State<AppState>,
    origin: RequestOrigin,
    PathParam(token): PathParam<String>,
) -> Result<(HeaderMap, Json<BookingView>), ApiError> {
    let linked = linked(&state, &token, &origin).await?;
    let position = execute::<Appointment>(
        &state.events,
        &linked.id.to_string(),
        AppointmentCommand::Cancel,
        &metadata(linked.claims.biz, &origin),
    )
    .await?;
    tracing::info!(appointment_id = linked.id, "appointment cancelled online");
    Ok((position_headers(position), Json(cancelled_view(&state, &linked).await?)))
}

#[utoipa::path(
    put,
    path = "/no-auth/online-booking/booking/{token}",
    tag = "Online booking",
    summary = "Move the booking a link opens (same services), until the cut-off",
    params(("token" = String, Path)),
    request_body = TimeChoice,
    responses(
        (status = 200, description = "The booking, moved", body = BookingView),
        (status = 404, description = "A bad link", body = ErrorBody),
        (status = 409, description = "After the cut-off, or the time is not free", body = ErrorBody),
        refused::Invalid,
        (status = 429, description = "Too many changes from this address", body = ErrorBody),
    ),
)]
#[tracing::instrument(skip_all)]
async fn reschedule(
    State(state): State<AppState>,
    origin: RequestOrigin,
    PathParam(token): PathParam<String>,
    Json(body): Json<TimeChoice>,
) -> Result<(HeaderMap, Json<BookedOnline>), ApiError> {
    let linked = linked(&state, &token, &origin).await?;
    let choice = body.check(linked.now.date(), false)?;
    let Some(current) = linked.appointment.booking() else {
        return Err(ApiError::NotFound(online::MSG_BOOKING_NOT_FOUND.to_owned()));
    };
    let service_ids: Vec<i64> = current.services.iter().map(|s| s.service_id).collect();
    let company_id = linked.claims.unit;
    let memberships =
        candidates(&state, (linked.claims.biz, company_id), choice.professional_id, &service_ids).await?;
    let make = |membership_id| Request {
        membership_id,
        date: choice.date,
        start: choice.start,
        service_ids: service_ids.clone(),
        client_id: current.client_id,
        observation: current.observation.clone(),
        times_type: TimesType::OnlyAvailables,
        // The page showed the client the prices of the time chosen: they are the new promise.
        reprice: true,
        client_overlap: false,
    };
    let aggregate_id = linked.id.to_string();
    let unit = (linked.claims.biz, company_id, &linked.rules);
    let _turn = state.online_turns.wait(company_id, choice.date).await;
    let mut line = state.pool.begin().await?;
    let (position, moved) =
        place(&state, &mut line, unit, &memberships, make, Placing::Move { id: &aggregate_id }, &origin)
            .await?;
    line.commit().await?;
    tracing::info!(appointment_id = linked.id, "appointment moved online");
    Ok((position_headers(position), Json(moved)))
}
