//! What a client's button reply does (issue 44, point 3): 'Confirmar' confirms the
//! appointment ('Confirmado pelo cliente', live on the card); 'Cancelar' cancels it while
//! the unit's online cut-off allows, and otherwise asks the client to call the shop; a reply
//! about an appointment that has since moved or been cancelled changes nothing and says so.
//! Each effect is an event of the appointment whose reason names the reply's message id, so
//! its history shows "… pelo cliente via WhatsApp". The client gets a text answer, itself a
//! message sent once (`{reply id}-resposta`).

use chrono::Duration;
use navalha_domain::appointment::{Appointment, AppointmentCommand, Standing};
use navalha_domain::company::Company;
use navalha_domain::message::{Channel, Message, MessageRequest};
use navalha_platform::http::RequestOrigin;
use navalha_platform::ApiError;

use crate::commands::{execute, load, system_metadata};
use crate::companies::clock_of;
use crate::state::AppState;

/// The answer to 'Confirmar'.
pub const MSG_CONFIRMED: &str = "Obrigado! Seu horário está confirmado.";
/// The answer to 'Cancelar' inside the cut-off.
pub const MSG_CANCELLED: &str = "Seu horário foi cancelado. Até a próxima!";

/// The answer to 'Cancelar' past the unit's cut-off.
pub fn too_late(hours: i64, phone: &str) -> String {
    format!("Não é possível cancelar por aqui com menos de {hours} horas do horário. Ligue para a barbearia: {phone}.")
}

/// The answer to a reply about an appointment that moved, was cancelled or started.
pub fn changed(phone: &str) -> String {
    format!("Este horário mudou ou não está mais ativo, então sua resposta não alterou nada. Fale com a barbearia: {phone}.")
}

/// Acts on reply `reply_id` (`payload`, e.g. `CONFIRMAR:<key>`) to message `key`, and
/// answers the client.
pub async fn act(
    state: &AppState,
    business_id: i64,
    key: &str,
    reply_id: &str,
    payload: &str,
    origin: &RequestOrigin,
) -> Result<(), ApiError> {
    let message: Message = load(&state.events, business_id, key).await?;
    let Some(request) = message.request().cloned() else { return Ok(()) };
    let Some(appointment_id) = request.appointment_id else { return Ok(()) };
    let appointment: Appointment = load(&state.events, business_id, &appointment_id.to_string()).await?;
    let Some(booking) = appointment.booking().cloned() else { return Ok(()) };
    let company: Company = load(&state.events, business_id, &booking.company_id.to_string()).await?;
    let profile = company.profile().cloned().ok_or_else(ApiError::not_found)?;
    let phone = super::templates::phone_text(&profile.phone);
    let now = clock_of(&company);
    let current = appointment.standing() == Standing::Active
        && key.ends_with(&booking.starts_at().format("%Y%m%d%H%M").to_string())
        && booking.starts_at() > now;
    let id = appointment_id.to_string();
    let answer = if !current {
        changed(&phone)
    } else if payload.starts_with("CONFIRMAR:") {
        let reason = format!("Confirmado pelo cliente via WhatsApp (mensagem {reply_id})");
        let confirmed = AppointmentCommand::Confirm { now };
        match execute::<Appointment>(
            &state.events,
            &id,
            confirmed,
            &system_metadata(&reason, business_id, origin),
        )
        .await
        {
            Ok(_) => MSG_CONFIRMED.to_owned(),
            Err(ApiError::Internal(error)) => return Err(ApiError::Internal(error)),
            Err(_) => changed(&phone),
        }
    } else if payload.starts_with("CANCELAR:") {
        let cutoff = profile.online.cancel_cutoff_hours;
        if booking.starts_at() - now < Duration::hours(cutoff) {
            too_late(cutoff, &phone)
        } else {
            let reason = format!("Cancelado pelo cliente via WhatsApp (mensagem {reply_id})");
            let metadata = system_metadata(&reason, business_id, origin);
            match execute::<Appointment>(&state.events, &id, AppointmentCommand::Cancel, &metadata).await {
                Ok(_) => MSG_CANCELLED.to_owned(),
                Err(ApiError::Internal(error)) => return Err(ApiError::Internal(error)),
                Err(_) => changed(&phone),
            }
        }
    } else {
        return Ok(());
    };
    tracing::info!(key, reply_id, answer, "WhatsApp reply acted on");
    let answer = MessageRequest {
        appointment_id: Some(appointment_id),
        channel: Channel::Whatsapp,
        to: request.to,
        template: String::new(),
        variables: Vec::new(),
        buttons: Vec::new(),
        text: Some(answer),
    };
    // The effect is recorded; an answer the provider cannot take now is left (logged).
    if let Err(error) = super::send(state, business_id, &format!("{reply_id}-resposta"), answer, origin).await
    {
        tracing::warn!(key, reply_id, %error, "the answer to a WhatsApp reply was not sent");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_name_the_shops_phone() {
        assert_eq!(
            too_late(2, "(11) 3333-4444"),
            "Não é possível cancelar por aqui com menos de 2 horas do horário. Ligue para a barbearia: (11) 3333-4444."
        );
        assert!(changed("(11) 3333-4444").ends_with("Fale com a barbearia: (11) 3333-4444."));
    }
}
