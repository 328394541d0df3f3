//! Pix at the counter (issue 41, point 3): `POST comanda/{id}/payments` with `method: pix`
//! creates a one-off charge at the payment provider (GalaxPay's `POST /charges`), whose QR
//! code and 'copia e cola' the desk shows and whose page the client opens on a phone. The
//! provider's webhook (`club::webhooks`, the club's hash and replay checks) then settles it:
//! the charge is read back from the provider, whose word wins over the webhook's (ADR 0023),
//! and the comanda records it paid or failed. A Pix paid after its comanda was cancelled is
//! recorded to be given back, never lost (docs/money.md).

use navalha_domain::client::Client;
use navalha_domain::comanda::{Comanda, ComandaCommand, ComandaError};
use navalha_domain::company::Company;
use navalha_domain::metadata::EventMetadata;
use navalha_domain::Aggregate as _;
use navalha_platform::auth::Principal;
use navalha_platform::position::Position;
use navalha_platform::ApiError;
use serde::Serialize;
use serde_json::{json, Value};

use crate::commands::{business_of, execute, load, DomainError};
use crate::state::AppState;

/// A Pix charge just asked for: what the desk's screen and the client's phone show.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PixWritten {
    /// The provider's charge (provider-sim's /sim controls pay, expire or refuse it by it).
    pub galax_pay_id: i64,
    /// The QR code's image.
    pub pix_qr_code: String,
    /// 'Pix copia e cola'.
    pub pix_copy_paste: String,
    /// The provider's page for the client's phone.
    pub pix_page: String,
}

/// How a counter Pix's `myId` at the provider starts; the comanda's id follows.
pub const PIX_MY_ID: &str = "comanda-";

/// Who the provider charges: the comanda's client, or for a walk-in the unit itself.
pub async fn customer(state: &AppState, principal: &Principal, comanda: &Comanda) -> Result<Value, ApiError> {
    let opening = comanda.opening().ok_or_else(|| ComandaError::NotOpen.to_api())?;
    if let Some(client_id) = opening.client_id {
        let client: Client = load(&state.events, principal.business_id, &client_id.to_string()).await?;
        if let (Some(details), Some(cpf)) = (client.details(), client.cpf()) {
            return Ok(json!({
                "myId": format!("client-{client_id}"),
                "name": details.name,
                "document": cpf,
                "emails": [details.email],
            }));
        }
    }
    let company: Company =
        load(&state.events, principal.business_id, &opening.company_id.to_string()).await?;
    let profile = company.profile().ok_or_else(ApiError::not_found)?;
    Ok(json!({
        "myId": format!("company-{}", opening.company_id),
        "name": profile.name,
        "document": profile.cnpj,
        "emails": [profile.email],
    }))
}

/// Settles the counter Pix a provider webhook names (`Charge.myId` starting with
/// [`PIX_MY_ID`]): `None` when the webhook is not about one.
pub async fn settle_from_webhook(
    state: &AppState,
    hook: &Value,
    metadata: impl FnOnce(i64) -> EventMetadata,
) -> Result<Option<Option<Position>>, ApiError> {
    let Some(rest) = hook["Charge"]["myId"].as_str().and_then(|my_id| my_id.strip_prefix(PIX_MY_ID)) else {
        return Ok(None);
    };
    let not_found = || ApiError::NotFound(navalha_domain::comanda::MSG_NOT_OPEN.to_owned());
    let comanda_id: i64 = rest.split('-').next().and_then(|id| id.parse().ok()).ok_or_else(not_found)?;
    let galax_pay_id = hook["Charge"]["galaxPayId"].as_i64().ok_or_else(not_found)?;
    let business_id =
        business_of(&state.pool, Comanda::TYPE, &comanda_id.to_string()).await?.ok_or_else(not_found)?;
    let comanda: Comanda = load(&state.events, business_id, &comanda_id.to_string()).await?;
    if !comanda.pix_charges().iter().any(|charge| charge.galax_pay_id == galax_pay_id) {
        return Err(not_found());
    }
    // The webhook only says "look": the provider's own read decides.
    let Some(remote) = state.galaxpay.pix_charge(galax_pay_id).await? else {
        tracing::warn!(galax_pay_id, "a webhook named a Pix charge the provider does not know");
        return Err(not_found());
    };
    if !remote.paid() && !remote.failed() {
        return Ok(Some(None));
    }
    let command =
        ComandaCommand::SettlePix { galax_pay_id, paid: remote.paid(), status: remote.status.clone() };
    let position =
        execute::<Comanda>(&state.events, &comanda_id.to_string(), command, &metadata(business_id))
            .await
            .map_err(|error| match error {
                ApiError::NotFound(_) => ComandaError::UnknownPix.to_api(),
                other => other,
            })?;
    tracing::info!(comanda_id, galax_pay_id, status = remote.status, "pix settled");
    Ok(Some(position))
}
