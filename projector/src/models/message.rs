//! `message`: each WhatsApp message to a client (issue 44), one row updated by its events.

use async_trait::async_trait;
use navalha_domain::message::{DeliveryStatus, MessageEvent, MessageRequest};
use navalha_read_models::{self as read_models, ReadModel};
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_message.message`.
pub struct Messages;

#[async_trait]
impl Projection for Messages {
    fn model(&self) -> &'static ReadModel {
        &read_models::MESSAGE
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let key = event.aggregate_id.as_str();
        match event.decode::<MessageEvent>()? {
            MessageEvent::MessageRequested(request) => {
                insert(conn, key, &request, event, "REQUESTED", None).await?;
            }
            MessageEvent::MessageSkipped { request, reason } => {
                insert(conn, key, &request, event, "SKIPPED", Some(&reason)).await?;
            }
            MessageEvent::SendRetried { attempt } => {
                sqlx::query("update message set attempts = $2 where message_key = $1 and business_id = navalha_event_business()")
                    .bind(key)
                    .bind(attempt as i32)
                    .execute(conn)
                    .await?;
            }
            MessageEvent::MessageAccepted { .. } => {
                sqlx::query("update message set outcome = 'ACCEPTED' where message_key = $1 and business_id = navalha_event_business()")
                    .bind(key)
                    .execute(conn)
                    .await?;
            }
            MessageEvent::MessageRefused { reason } => {
                sqlx::query("update message set outcome = 'REFUSED', error = $2 where message_key = $1 and business_id = navalha_event_business()")
                    .bind(key)
                    .bind(reason)
                    .execute(conn)
                    .await?;
            }
            MessageEvent::DeliveryReported { status, error, .. } => {
                // Reports may arrive out of order: the furthest one stands, and a failure
                // over all of them.
                sqlx::query(
                    "update message set delivery = $2, error = coalesce($3, error)
                      where message_key = $1 and business_id = navalha_event_business() and (delivery is null or $4 > (case delivery
                            when 'SENT' then 1 when 'DELIVERED' then 2 when 'READ' then 3 else 4 end))",
                )
                .bind(key)
                .bind(delivery_code(status))
                .bind(error)
                .bind(delivery_rank(status))
                .execute(conn)
                .await?;
            }
            MessageEvent::ReplyReceived { payload, at, .. } => {
                let button = payload.split(':').next().unwrap_or_default().to_owned();
                sqlx::query("update message set reply = $2, replied_at = $3 where message_key = $1 and business_id = navalha_event_business()")
                    .bind(key)
                    .bind(button)
                    .bind(at)
                    .execute(conn)
                    .await?;
            }
        }
        Ok(())
    }
}

async fn insert(
    conn: &mut PgConnection,
    key: &str,
    request: &MessageRequest,
    event: &StoredEvent,
    outcome: &str,
    error: Option<&str>,
) -> anyhow::Result<()> {
    sqlx::query(
        "insert into message (message_key, appointment_id, kind, template, to_phone, requested_at, outcome, error)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (message_key) do nothing",
    )
    .bind(key)
    .bind(request.appointment_id)
    .bind(kind_of(key))
    .bind(&request.template)
    .bind(&request.to)
    .bind(event.recorded_at)
    .bind(outcome)
    .bind(error)
    .execute(conn)
    .await?;
    Ok(())
}

/// The kind a key names: an appointment's message `a812-r24-202612011000` is `r24`; any
/// other key's kind is its last part (an answer to a reply, `{reply id}-resposta`, is
/// `resposta`).
fn kind_of(key: &str) -> &str {
    let parts: Vec<&str> = key.split('-').collect();
    match parts.as_slice() {
        [appointment, kind, _start] if appointment.starts_with('a') => kind,
        _ => parts.last().copied().unwrap_or_default(),
    }
}

fn delivery_code(status: DeliveryStatus) -> &'static str {
    match status {
        DeliveryStatus::Sent => "SENT",
        DeliveryStatus::Delivered => "DELIVERED",
        DeliveryStatus::Read => "READ",
        DeliveryStatus::Failed => "FAILED",
    }
}

fn delivery_rank(status: DeliveryStatus) -> i32 {
    match status {
        DeliveryStatus::Sent => 1,
        DeliveryStatus::Delivered => 2,
        DeliveryStatus::Read => 3,
        DeliveryStatus::Failed => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reminders_kind_is_the_keys_second_part() {
        assert_eq!(kind_of("a812-r24-202612011000"), "r24");
        assert_eq!(kind_of("a812-r2-202612011000"), "r2");
        assert_eq!(kind_of("wamid.HBgNNTUxMTk4NzY1MDEwNBUCABEYEjQ-resposta"), "resposta");
        assert_eq!(kind_of("welcome"), "welcome");
    }

    #[test]
    fn a_failure_outranks_every_other_report() {
        let ranks: Vec<i32> =
            [DeliveryStatus::Sent, DeliveryStatus::Delivered, DeliveryStatus::Read, DeliveryStatus::Failed]
                .into_iter()
                .map(delivery_rank)
                .collect();
        assert!(ranks.windows(2).all(|pair| pair[0] < pair[1]));
    }
}
