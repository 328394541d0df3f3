//! Businesses (tenants), opened by Navalha's operators with `command-api open-business`:
//! the business, its service catalogue, and its first admin, who gets a registration link
//! and then registers the business's units from the web app (docs/operations.md).

use navalha_domain::business::{BillingStatus, Business, BusinessCommand};
use navalha_domain::metadata::EventMetadata;
use navalha_domain::professional::{status, Employment, PersonalData, Professional, ProfessionalCommand};
use navalha_domain::professional::{CPF_SCOPE, EMAIL_SCOPE, MSG_DUPLICATE_CPF, MSG_DUPLICATE_EMAIL, PALETTE};
use navalha_domain::role::Role;
use navalha_domain::service::{CatalogueEntry, Service, ServiceCommand};
use navalha_domain::validation::{msg_too_long, too_long, MAX_EMAIL, MAX_NAME};
use navalha_domain::values::{Address, Cpf, Email};
use navalha_platform::ApiError;

use crate::commands::{claim_holder, execute, next_id};
use crate::identity::{accounts, register};
use crate::state::AppState;

/// The catalogue every business starts with: description, default price in cents, default
/// minutes, and whether it is a combo (for the demo's professionals).
pub const STANDARD_SERVICES: &[(&str, i64, i64, bool)] = &[
    ("Corte de cabelo", 4500, 30, false),
    ("Barba", 3500, 30, false),
    ("Corte e barba", 7000, 60, true),
    ("Sobrancelha", 1500, 15, false),
    ("Pigmentação", 5000, 45, false),
];

/// Opens a business with the standard catalogue: its id and the catalogue's service ids, in
/// the order of [`STANDARD_SERVICES`].
pub async fn open(state: &AppState, name: &str, reason: &str) -> Result<(i64, Vec<i64>), ApiError> {
    let business_id = next_id(&state.pool, "business_id_seq").await?;
    let metadata = EventMetadata::system(reason, business_id);
    execute::<Business>(
        &state.events,
        &business_id.to_string(),
        BusinessCommand::Open { name: name.to_owned() },
        &metadata,
    )
    .await?;
    let mut service_ids = Vec::with_capacity(STANDARD_SERVICES.len());
    for (description, cents, minutes, _) in STANDARD_SERVICES {
        let id = next_id(&state.pool, "service_id_seq").await?;
        let entry = CatalogueEntry {
            description: (*description).to_owned(),
            default_cents: *cents,
            default_minutes: *minutes,
            active: true,
        };
        execute::<Service>(&state.events, &id.to_string(), ServiceCommand::Create(entry), &metadata).await?;
        service_ids.push(id);
    }
    tracing::info!(business_id, "business opened");
    Ok((business_id, service_ids))
}

/// Records whether a business is paying Navalha (`command-api business-billing`): while its
/// payment is pending, its staff see the 'Pagamento pendente !' notice after signing in.
/// Saying the same status again records nothing. An unknown business is 404.
pub async fn set_billing(state: &AppState, business_id: i64, status: BillingStatus) -> Result<(), ApiError> {
    let metadata = EventMetadata::system("Cobrança da empresa", business_id);
    execute::<Business>(
        &state.events,
        &business_id.to_string(),
        BusinessCommand::SetBilling { status },
        &metadata,
    )
    .await?;
    tracing::info!(business_id, status = status.code(), "business billing set");
    Ok(())
}

/// The first admin of a new business.
#[derive(Debug, Clone)]
pub struct FirstAdmin {
    /// Full name.
    pub name: String,
    /// Sign-in e-mail.
    pub email: String,
    /// CPF, with or without punctuation.
    pub cpf: String,
    /// Phone digits.
    pub phone: String,
}

/// A business just opened: its id, its admin's id and the admin's registration link.
#[derive(Debug, Clone)]
pub struct Opened {
    /// The business.
    pub business_id: i64,
    /// Its first admin (IdProfessional).
    pub admin_id: i64,
    /// Where the admin sets their password.
    pub registration_link: String,
}

/// Opens a business and registers its first admin, in no unit yet: the admin signs in
/// through the link and registers the units, which are theirs from the start.
pub async fn open_with_admin(state: &AppState, name: &str, admin: &FirstAdmin) -> Result<Opened, ApiError> {
    // The same text bounds as the forms (issue 39).
    for (field, text, max) in [
        ("name", name, MAX_NAME),
        ("adminName", admin.name.as_str(), MAX_NAME),
        ("email", admin.email.as_str(), MAX_EMAIL),
    ] {
        if too_long(text.trim(), max) {
            return Err(ApiError::field(field, &msg_too_long(max)));
        }
    }
    let cpf = Cpf::parse(&admin.cpf).map_err(|error| ApiError::field("cpf", &error.to_string()))?;
    let email = Email::parse(&admin.email).map_err(|error| ApiError::field("email", &error.to_string()))?;
    let email = email.as_str().to_owned();
    // Checked before anything is written, so a taken e-mail or CPF leaves no business behind.
    for (scope, value, taken) in
        [(EMAIL_SCOPE, &email, MSG_DUPLICATE_EMAIL), (CPF_SCOPE, &cpf.as_str().to_owned(), MSG_DUPLICATE_CPF)]
    {
        if claim_holder(&state.pool, scope, value).await?.is_some() {
            return Err(ApiError::Conflict(taken.to_owned()));
        }
    }
    let (business_id, _) = open(state, name, "Abertura da empresa").await?;
    let metadata = EventMetadata::system("Abertura da empresa", business_id)
        .claiming(CPF_SCOPE, cpf.as_str())
        .claiming(EMAIL_SCOPE, &email);
    let admin_id = next_id(&state.pool, "professional_id_seq").await?;
    let personal = PersonalData {
        name: admin.name.trim().to_owned(),
        cpf: cpf.as_str().to_owned(),
        email: email.clone(),
        phone: admin.phone.chars().filter(char::is_ascii_digit).collect(),
        whatsapp: false,
        birth_date: None,
        address: Address::default(),
    };
    let employment = Employment {
        color: PALETTE[0].to_owned(),
        role: Role::Admin,
        status: status::ACTIVE,
        memberships: vec![],
    };
    execute::<Professional>(
        &state.events,
        &admin_id.to_string(),
        ProfessionalCommand::Register { personal, employment },
        &metadata,
    )
    .await?;
    accounts::create_account(&state.pool, admin_id, &email, Some(cpf.as_str()), None).await?;
    let token = register::create_invite(&state.pool, admin_id).await?;
    let registration_link = format!(
        "{}/sign-up-password?complete-register={token}",
        state.settings.public_url.trim_end_matches('/')
    );
    Ok(Opened { business_id, admin_id, registration_link })
}
