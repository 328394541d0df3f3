//! WhatsApp through Meta's WhatsApp Business Platform (Cloud API), issue 44. The contract,
//! field by field and with its sources, is in docs/messages.md:
//!
//! - [`client`]: template messages sent to `POST {NAVALHA_WHATSAPP_URL}/{phone-number-id}/messages`
//!   with the system user's bearer token;
//! - [`webhook`]: `GET no-auth/whatsapp/webhook` (the subscription handshake) and
//!   `POST no-auth/whatsapp/webhook` (delivery reports and button replies, signed with the
//!   app secret in `X-Hub-Signature-256`).
//!
//! Each message is a `Message` aggregate (domain/src/message.rs) whose id is its key: the
//! decision to send is recorded before the call ([`send`]), the provider's id after it.

pub mod client;
pub mod replies;
pub mod templates;
pub mod webhook;

use navalha_domain::message::{Channel, Message, MessageCommand, MessageError, MessageRequest};
use navalha_platform::http::RequestOrigin;
use navalha_platform::ApiError;
use utoipa_axum::router::OpenApiRouter;

use crate::commands::{execute, system_metadata, DomainError};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    webhook::router()
}

impl DomainError for MessageError {
    fn to_api(&self) -> ApiError {
        match self {
            MessageError::AlreadyRequested | MessageError::NothingToRetry => {
                ApiError::Conflict(self.to_string())
            }
            MessageError::NotFound => ApiError::NotFound(self.to_string()),
        }
    }
}

/// What became of a send.
#[derive(Debug, PartialEq, Eq)]
pub enum Sent {
    /// The provider accepted it under this id.
    Accepted(String),
    /// The provider refused it (recorded); sending it again would be refused again.
    Refused(String),
    /// It was decided before, by this or another instance: not sent again.
    AlreadyRequested,
}

/// Sends `request` as the message `key` of `business_id`, at most once: the decision is
/// recorded first (a second decision for the same key is refused by the stream), then the
/// provider is called, then its answer recorded. A provider that cannot be reached leaves
/// the decision without an outcome and answers the error.
pub async fn send(
    state: &AppState,
    business_id: i64,
    key: &str,
    request: MessageRequest,
    origin: &RequestOrigin,
) -> Result<Sent, ApiError> {
    let decision = MessageCommand::Request(request.clone());
    deliver(state, business_id, key, decision, &request, origin).await
}

/// Records that message `key` will not be sent (`reason`), unless it was decided already:
/// whether this call recorded it.
pub async fn skip(
    state: &AppState,
    business_id: i64,
    key: &str,
    request: MessageRequest,
    reason: &str,
    origin: &RequestOrigin,
) -> Result<bool, ApiError> {
    let metadata = system_metadata("Lembrete não enviado", business_id, origin);
    let command = MessageCommand::Skip { request, reason: reason.to_owned() };
    match execute::<Message>(&state.events, key, command, &metadata).await {
        Ok(_) => Ok(true),
        Err(ApiError::Conflict(_)) => Ok(false),
        Err(error) => Err(error),
    }
}

/// Tries again a send of `message` (its stream `key`) that has no outcome, at most once
/// per attempt: another instance retrying it at the same time gets `AlreadyRequested`.
pub async fn retry(
    state: &AppState,
    business_id: i64,
    key: &str,
    message: &Message,
    origin: &RequestOrigin,
) -> Result<Sent, ApiError> {
    let request = message.request().cloned().ok_or_else(|| MessageError::NotFound.to_api())?;
    let decision = MessageCommand::Retry { after_attempt: message.attempts() };
    deliver(state, business_id, key, decision, &request, origin).await
}

/// Records `decision` (refused when another caller took it first), then calls the
/// provider and records its answer.
async fn deliver(
    state: &AppState,
    business_id: i64,
    key: &str,
    decision: MessageCommand,
    request: &MessageRequest,
    origin: &RequestOrigin,
) -> Result<Sent, ApiError> {
    let metadata = system_metadata("Mensagem ao cliente", business_id, origin);
    match execute::<Message>(&state.events, key, decision, &metadata).await {
        Ok(_) => {}
        Err(ApiError::Conflict(_)) => return Ok(Sent::AlreadyRequested),
        Err(error) => return Err(error),
    }
    let (command, sent) = match transmit(state, request, key).await {
        Ok(provider_id) => {
            (MessageCommand::RecordAccepted { provider_id: provider_id.clone() }, Sent::Accepted(provider_id))
        }
        Err(client::SendError::Refused(reason)) => {
            (MessageCommand::RecordRefused { reason: reason.clone() }, Sent::Refused(reason))
        }
        Err(client::SendError::Unavailable(reason)) => {
            tracing::warn!(key, %reason, "the WhatsApp provider could not be reached");
            return Err(ApiError::Unavailable(reason));
        }
    };
    execute::<Message>(&state.events, key, command, &metadata).await?;
    tracing::info!(key, ?sent, channel = ?request.channel, "message to a client sent");
    Ok(sent)
}

/// The provider's id for an e-mail: SMTP gives none the webhook would name.
pub const EMAIL_PROVIDER_ID: &str = "email";

/// Hands `request` to its channel: the Cloud API, or the mailer with the template's e-mail
/// text (a client who does not accept WhatsApp but has an address, issue 44).
async fn transmit(
    state: &AppState,
    request: &MessageRequest,
    key: &str,
) -> Result<String, client::SendError> {
    match request.channel {
        Channel::Whatsapp => client::send(&state.http, &state.settings, request, key).await,
        Channel::Email => {
            let template = templates::named(&request.template).ok_or_else(|| {
                client::SendError::Refused(format!("modelo desconhecido: {}", request.template))
            })?;
            let text = template.render_email(&request.variables);
            match state.mailer.send(&request.to, template.subject, &text).await {
                Ok(()) => Ok(EMAIL_PROVIDER_ID.to_owned()),
                Err(error) => Err(client::SendError::Unavailable(error.to_string())),
            }
        }
    }
}
