//! The answer of every successful sign-in: a token and the user's data.

use navalha_domain::company::Company;
use navalha_domain::professional::{status, Professional};
use navalha_domain::role::Role;
use navalha_domain::Aggregate as _;
use navalha_platform::auth::now_seconds;
use navalha_platform::refused;
use navalha_platform::ApiError;
use serde::Serialize;

use crate::commands::{business_of, load};
use crate::state::AppState;

/// A unit as the session lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompanySummary {
    /// IdCompany.
    pub id: i64,
    /// Name.
    pub name: String,
    /// City.
    pub city: String,
    /// State.
    pub state: String,
    /// Active or not.
    pub status: bool,
}

/// A staff member who may sign in, as their events describe them now.
#[derive(Debug, Clone)]
pub struct Account {
    /// IdProfessional.
    pub professional_id: i64,
    /// Name.
    pub name: String,
    /// E-mail.
    pub email: String,
    /// Role.
    pub role: Role,
    /// Units, the professional's own first.
    pub companies: Vec<CompanySummary>,
}

/// Replays the professional and their units. Inactive professionals may not sign in.
pub async fn load_account(state: &AppState, professional_id: i64) -> Result<Account, ApiError> {
    let id = professional_id.to_string();
    let business_id = business_of(&state.pool, Professional::TYPE, &id).await?.ok_or_else(|| {
        ApiError::Internal(anyhow::anyhow!("credential {professional_id} has no professional"))
    })?;
    let professional: Professional = load(&state.events, business_id, &id).await?;
    let (Some(personal), Some(employment)) = (professional.personal(), professional.employment()) else {
        return Err(ApiError::Internal(anyhow::anyhow!("credential {professional_id} has no professional")));
    };
    if employment.status == status::INACTIVE {
        return Err(ApiError::Unprocessable(
            "Seu cadastro está inativo. Procure o administrador da barbearia.".to_owned(),
        ));
    }
    let mut companies = Vec::with_capacity(employment.memberships.len());
    for company_id in &employment.company_ids() {
        let company: Company = load(&state.events, business_id, &company_id.to_string()).await?;
        if let Some(company) = company.profile() {
            companies.push(CompanySummary {
                id: *company_id,
                name: company.name.clone(),
                city: company.address.city.clone(),
                state: company.address.state.clone(),
                status: company.status,
            });
        }
    }
    Ok(Account {
        professional_id,
        name: personal.name.clone(),
        email: personal.email.clone(),
        role: employment.role,
        companies,
    })
}

/// `{Token, user: {...}}`, as spec 01 §7 describes the login answer.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SessionResponse {
    /// The bearer token.
    #[serde(rename = "Token")]
    pub token: String,
    /// The user.
    pub user: SessionUser,
}

/// The `user` of a session answer.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SessionUser {
    /// Name.
    pub name: String,
    /// E-mail.
    pub email: String,
    /// IdProfessional.
    pub id_professional: i64,
    /// Units.
    pub companies: Vec<SessionCompany>,
    /// Role.
    pub role: SessionRole,
}

/// A unit in the session answer.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SessionCompany {
    /// IdCompany.
    pub id_company: i64,
    /// Name.
    pub name: String,
    /// City.
    pub city: String,
    /// State.
    pub state: String,
    /// Status.
    pub status: bool,
}

/// The role in the session answer; the web app picks its menus by `Type`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SessionRole {
    /// IdTypeProfile.
    pub id_type_profile: i64,
    /// ADMIN, ATTENDANT, ...
    #[serde(rename = "Type")]
    pub kind: &'static str,
    /// Label.
    pub description: &'static str,
}

/// Opens a session for the account, signs its token and shapes the answer.
pub async fn session_response(state: &AppState, account: &Account) -> Result<SessionResponse, ApiError> {
    let session_id = uuid::Uuid::new_v4();
    let now = now_seconds();
    let expires_at = now + state.issuer.lifetime_seconds();
    sqlx::query(
        "insert into staff_session (session_id, professional_id, expires_at)
         values ($1::uuid, $2, to_timestamp($3))",
    )
    .bind(session_id.to_string())
    .bind(account.professional_id)
    .bind(expires_at as f64)
    .execute(&state.pool)
    .await?;
    Ok(SessionResponse {
        token: state.issuer.issue(account.professional_id, &account.name, &account.email, session_id, now)?,
        user: SessionUser {
            name: account.name.clone(),
            email: account.email.clone(),
            id_professional: account.professional_id,
            companies: account
                .companies
                .iter()
                .map(|company| SessionCompany {
                    id_company: company.id,
                    name: company.name.clone(),
                    city: company.city.clone(),
                    state: company.state.clone(),
                    status: company.status,
                })
                .collect(),
            role: SessionRole {
                id_type_profile: account.role.id(),
                kind: account.role.code(),
                description: account.role.description(),
            },
        },
    })
}

/// Ends every open session of the professional: what a new password does.
pub async fn end_sessions(conn: &mut sqlx::PgConnection, professional_id: i64) -> Result<u64, ApiError> {
    let ended = sqlx::query(
        "update staff_session set revoked_at = now() where professional_id = $1 and revoked_at is null",
    )
    .bind(professional_id)
    .execute(conn)
    .await?;
    Ok(ended.rows_affected())
}

/// `POST session-professional/logout` ('Sair'): ends the caller's session, so its token
/// stops working everywhere at once. Other devices stay signed in.
#[utoipa::path(
    post,
    path = "/session-professional/logout",
    tag = "Session",
    summary = "Sign out ('Sair'): ends the caller's session, so its token stops working at once; other sessions stay",
    responses(
        (status = 204, description = "Signed out"),
        refused::Unauthenticated,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id))]
pub(crate) async fn logout(
    axum::extract::State(state): axum::extract::State<AppState>,
    auth: navalha_platform::auth::Auth,
) -> Result<axum::http::StatusCode, ApiError> {
    sqlx::query(
        "update staff_session set revoked_at = now() where session_id = $1::uuid and revoked_at is null",
    )
    .bind(auth.session_id.to_string())
    .execute(&state.pool)
    .await?;
    tracing::info!("signed out");
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// Forgets sessions that expired more than a day ago.
pub async fn forget_expired_sessions(pool: &sqlx::PgPool) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("delete from staff_session where expires_at < now() - interval '1 day'")
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}
