//! A message to a client (issue 44): a WhatsApp template message, sent once.
//!
//! Aggregate id = the message's key, which names what it is about, e.g. `a812-r24-202612011000`
//! (appointment 812's 24-hour reminder for 01/12 at 10:00): deterministic, so the decision
//! to send is taken once, whichever instance takes it first, because a stream's first event
//! is unique. The decision is recorded before the provider is called (`MessageRequested`),
//! the provider's message id after (`MessageAccepted`), and its delivery reports and the
//! client's button replies as they arrive. docs/messages.md has the provider's contract.

use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

/// How a message reaches the client.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// A WhatsApp template message (clients who accept WhatsApp).
    #[default]
    Whatsapp,
    /// An e-mail: the fallback for clients who do not accept WhatsApp and have an address.
    Email,
}

/// What a message says and to whom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRequest {
    /// The appointment it is about, if any.
    pub appointment_id: Option<i64>,
    /// How it goes; WhatsApp in payloads recorded before there was a choice (1.1).
    #[serde(default)]
    pub channel: Channel,
    /// The client's number with country code, digits (`5511987654321`), or their e-mail
    /// address for [`Channel::Email`].
    pub to: String,
    /// The approved template's name.
    pub template: String,
    /// The template's body variables, in order.
    pub variables: Vec<String>,
    /// The quick-reply buttons' payloads, in order (empty for none).
    pub buttons: Vec<String>,
    /// A free text instead of a template: an answer to a client who just wrote (the
    /// provider takes text only within 24 hours of the client's last message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A delivery report of the provider, in the order a message goes through them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// The provider sent it.
    Sent,
    /// It reached the client's phone.
    Delivered,
    /// The client read it.
    Read,
    /// It could not be delivered.
    Failed,
}

impl DeliveryStatus {
    /// The provider's word (`sent`, `delivered`, `read`, `failed`).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "sent" => Some(Self::Sent),
            "delivered" => Some(Self::Delivered),
            "read" => Some(Self::Read),
            "failed" => Some(Self::Failed),
            _ => None,
        }
    }
}

/// What happened to a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MessageEvent {
    /// Navalha decided to send it; the provider is called after this is recorded.
    MessageRequested(MessageRequest),
    /// Its time passed while nothing could send it (e.g. everything was down until the
    /// appointment started): it is not sent, ever.
    MessageSkipped {
        /// What it would have said.
        request: MessageRequest,
        /// Why not.
        reason: String,
    },
    /// A send without an outcome (the process stopped between deciding and recording the
    /// provider's answer, or the provider could not be reached) is tried again: decided
    /// once, as the first send was.
    SendRetried {
        /// The attempt, from 2.
        attempt: u32,
    },
    /// The provider accepted it, under its own id (`wamid....`).
    MessageAccepted {
        /// The provider's message id.
        provider_id: String,
    },
    /// The provider refused it.
    MessageRefused {
        /// The provider's words.
        reason: String,
    },
    /// A delivery report arrived.
    DeliveryReported {
        /// The status.
        status: DeliveryStatus,
        /// When the provider says it happened.
        at: DateTime<Utc>,
        /// The provider's error, for `failed`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// The client pressed a button of it.
    ReplyReceived {
        /// The reply's own provider id (a replayed webhook carries the same).
        provider_id: String,
        /// The button's payload.
        payload: String,
        /// When the client pressed it.
        at: DateTime<Utc>,
    },
}

impl DomainEvent for MessageEvent {
    fn event_type(&self) -> String {
        match self {
            MessageEvent::MessageRequested(_) => "MessageRequested",
            MessageEvent::MessageSkipped { .. } => "MessageSkipped",
            MessageEvent::SendRetried { .. } => "SendRetried",
            MessageEvent::MessageAccepted { .. } => "MessageAccepted",
            MessageEvent::MessageRefused { .. } => "MessageRefused",
            MessageEvent::DeliveryReported { .. } => "DeliveryReported",
            MessageEvent::ReplyReceived { .. } => "ReplyReceived",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// What can be done with a message.
#[derive(Debug, Clone, PartialEq)]
pub enum MessageCommand {
    /// Decide to send it: refused when it was decided already.
    Request(MessageRequest),
    /// Decide not to send it, its time having passed: refused when it was decided already.
    Skip {
        /// What it would have said.
        request: MessageRequest,
        /// Why not.
        reason: String,
    },
    /// Try a send without an outcome again, as the caller saw it at `after_attempt`:
    /// refused when another caller retried it first, when it has an outcome, or when the
    /// provider already reported it (it was sent after all).
    Retry {
        /// The attempt the caller saw.
        after_attempt: u32,
    },
    /// Record the provider's id; again changes nothing.
    RecordAccepted {
        /// The provider's message id.
        provider_id: String,
    },
    /// Record the provider's refusal.
    RecordRefused {
        /// The provider's words.
        reason: String,
    },
    /// Record a delivery report; one already recorded changes nothing.
    ReportDelivery {
        /// The status.
        status: DeliveryStatus,
        /// When.
        at: DateTime<Utc>,
        /// The provider's error.
        error: Option<String>,
    },
    /// Record a button reply; one already recorded (by its provider id) changes nothing.
    RecordReply {
        /// The reply's provider id.
        provider_id: String,
        /// The button's payload.
        payload: String,
        /// When.
        at: DateTime<Utc>,
    },
}

/// Why a message command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// Another instance (or an earlier run) decided to send it already.
    #[error("Esta mensagem já foi enviada.")]
    AlreadyRequested,
    /// Never requested.
    #[error("Mensagem não encontrada.")]
    NotFound,
    /// Sent, refused, reported or retried by another caller already: nothing to retry.
    #[error("Esta mensagem não precisa ser reenviada.")]
    NothingToRetry,
}

/// A message.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    request: Option<MessageRequest>,
    provider_id: Option<String>,
    refused: Option<String>,
    /// Every delivery report, in arrival order.
    reports: Vec<(DeliveryStatus, DateTime<Utc>)>,
    /// The replies' provider ids.
    replies: Vec<String>,
    /// Decided not to send.
    skipped: bool,
    /// Sends decided so far (1 once requested).
    attempts: u32,
}

impl Message {
    /// What it says and to whom; `None` before it was requested.
    pub fn request(&self) -> Option<&MessageRequest> {
        self.request.as_ref()
    }

    /// The provider's id, once it accepted it.
    pub fn provider_id(&self) -> Option<&str> {
        self.provider_id.as_deref()
    }

    /// Whether it was decided not to send it.
    pub fn skipped(&self) -> bool {
        self.skipped
    }

    /// Sends decided so far.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Whether a send was decided and nothing came of it yet: no answer, no report.
    pub fn awaiting_outcome(&self) -> bool {
        self.request.is_some()
            && !self.skipped
            && self.provider_id.is_none()
            && self.refused.is_none()
            && self.reports.is_empty()
    }

    /// Where it got: the furthest status reported (`failed` beats all), `None` before any.
    pub fn status(&self) -> Option<DeliveryStatus> {
        self.reports.iter().map(|(status, _)| *status).max()
    }
}

impl Aggregate for Message {
    const TYPE: &'static str = "Message";
    type Command = MessageCommand;
    type Event = MessageEvent;
    type Error = MessageError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            MessageCommand::Request(_) | MessageCommand::Skip { .. } if self.request.is_some() => {
                return Err(MessageError::AlreadyRequested)
            }
            MessageCommand::Request(request) => {
                sink.write(MessageEvent::MessageRequested(request), self).await;
                return Ok(());
            }
            MessageCommand::Skip { request, reason } => {
                sink.write(MessageEvent::MessageSkipped { request, reason }, self).await;
                return Ok(());
            }
            _ => {}
        }
        if self.request.is_none() {
            return Err(MessageError::NotFound);
        }
        match command {
            MessageCommand::Request(_) | MessageCommand::Skip { .. } => {}
            MessageCommand::Retry { after_attempt } => {
                if !self.awaiting_outcome() || self.attempts != after_attempt {
                    return Err(MessageError::NothingToRetry);
                }
                sink.write(MessageEvent::SendRetried { attempt: after_attempt + 1 }, self).await;
            }
            MessageCommand::RecordAccepted { provider_id } => {
                if self.provider_id.is_none() {
                    sink.write(MessageEvent::MessageAccepted { provider_id }, self).await;
                }
            }
            MessageCommand::RecordRefused { reason } => {
                if self.provider_id.is_none() && self.refused.is_none() {
                    sink.write(MessageEvent::MessageRefused { reason }, self).await;
                }
            }
            MessageCommand::ReportDelivery { status, at, error } => {
                if !self.reports.contains(&(status, at)) {
                    sink.write(MessageEvent::DeliveryReported { status, at, error }, self).await;
                }
            }
            MessageCommand::RecordReply { provider_id, payload, at } => {
                if !self.replies.contains(&provider_id) {
                    sink.write(MessageEvent::ReplyReceived { provider_id, payload, at }, self).await;
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            MessageEvent::MessageRequested(request) => {
                self.request = Some(request);
                self.attempts = 1;
            }
            MessageEvent::MessageSkipped { request, .. } => {
                self.request = Some(request);
                self.skipped = true;
            }
            MessageEvent::SendRetried { attempt } => self.attempts = attempt,
            MessageEvent::MessageAccepted { provider_id } => self.provider_id = Some(provider_id),
            MessageEvent::MessageRefused { reason } => self.refused = Some(reason),
            MessageEvent::DeliveryReported { status, at, .. } => self.reports.push((status, at)),
            MessageEvent::ReplyReceived { provider_id, .. } => self.replies.push(provider_id),
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    fn request() -> MessageRequest {
        MessageRequest {
            appointment_id: Some(812),
            channel: Channel::Whatsapp,
            to: "5511987654321".into(),
            template: "lembrete_agendamento".into(),
            variables: vec!["Navalha Centro".into(), "terça-feira, 01/12 às 10:00".into()],
            buttons: vec!["CONFIRMAR:a812-r24".into(), "CANCELAR:a812-r24".into()],
            text: None,
        }
    }

    fn at(minute: u32) -> DateTime<Utc> {
        chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 12, 1, 12, minute, 0).single().unwrap_or_default()
    }

    #[test]
    fn a_message_is_requested_once_and_its_provider_id_recorded_once() {
        let requested = MessageEvent::MessageRequested(request());
        TestFramework::<Message>::with(())
            .given_no_previous_events()
            .when(MessageCommand::Request(request()))
            .then_expect_events(vec![requested.clone()]);
        TestFramework::<Message>::with(())
            .given(vec![requested.clone()])
            .when(MessageCommand::Request(request()))
            .then_expect_error(MessageError::AlreadyRequested);
        let accepted = MessageEvent::MessageAccepted { provider_id: "wamid.1".into() };
        TestFramework::<Message>::with(())
            .given(vec![requested.clone(), accepted])
            .when(MessageCommand::RecordAccepted { provider_id: "wamid.1".into() })
            .then_expect_events(vec![]);
        TestFramework::<Message>::with(())
            .given_no_previous_events()
            .when(MessageCommand::RecordAccepted { provider_id: "wamid.1".into() })
            .then_expect_error(MessageError::NotFound);
    }

    #[test]
    fn reports_and_replies_delivered_twice_are_recorded_once_and_the_status_is_the_furthest() {
        let requested = MessageEvent::MessageRequested(request());
        let delivered =
            MessageEvent::DeliveryReported { status: DeliveryStatus::Delivered, at: at(2), error: None };
        TestFramework::<Message>::with(())
            .given(vec![requested.clone(), delivered.clone()])
            .when(MessageCommand::ReportDelivery {
                status: DeliveryStatus::Delivered,
                at: at(2),
                error: None,
            })
            .then_expect_events(vec![]);
        let reply = MessageEvent::ReplyReceived {
            provider_id: "wamid.r".into(),
            payload: "CONFIRMAR:x".into(),
            at: at(3),
        };
        TestFramework::<Message>::with(())
            .given(vec![requested.clone(), reply])
            .when(MessageCommand::RecordReply {
                provider_id: "wamid.r".into(),
                payload: "CONFIRMAR:x".into(),
                at: at(3),
            })
            .then_expect_events(vec![]);
        // Reports arrive out of order: the furthest wins.
        let mut message = Message::default();
        for event in [
            requested,
            MessageEvent::DeliveryReported { status: DeliveryStatus::Read, at: at(4), error: None },
            delivered,
            MessageEvent::DeliveryReported { status: DeliveryStatus::Sent, at: at(1), error: None },
        ] {
            message.apply(event);
        }
        assert_eq!(message.status(), Some(DeliveryStatus::Read));
        assert_eq!(DeliveryStatus::parse("failed"), Some(DeliveryStatus::Failed));
        assert_eq!(DeliveryStatus::parse("deleted"), None);
    }

    #[test]
    fn a_send_without_outcome_is_retried_once_per_attempt_and_a_skipped_one_never_sent() {
        let requested = MessageEvent::MessageRequested(request());
        TestFramework::<Message>::with(())
            .given(vec![requested.clone()])
            .when(MessageCommand::Retry { after_attempt: 1 })
            .then_expect_events(vec![MessageEvent::SendRetried { attempt: 2 }]);
        // Another caller retried first: this one saw attempt 1.
        TestFramework::<Message>::with(())
            .given(vec![requested.clone(), MessageEvent::SendRetried { attempt: 2 }])
            .when(MessageCommand::Retry { after_attempt: 1 })
            .then_expect_error(MessageError::NothingToRetry);
        // The provider reported it: it was sent after all.
        let reported =
            MessageEvent::DeliveryReported { status: DeliveryStatus::Sent, at: at(1), error: None };
        TestFramework::<Message>::with(())
            .given(vec![requested.clone(), reported])
            .when(MessageCommand::Retry { after_attempt: 1 })
            .then_expect_error(MessageError::NothingToRetry);
        let skipped =
            MessageEvent::MessageSkipped { request: request(), reason: "O horário já começou.".into() };
        TestFramework::<Message>::with(())
            .given(vec![skipped.clone()])
            .when(MessageCommand::Request(request()))
            .then_expect_error(MessageError::AlreadyRequested);
        TestFramework::<Message>::with(())
            .given(vec![skipped])
            .when(MessageCommand::Retry { after_attempt: 0 })
            .then_expect_error(MessageError::NothingToRetry);
    }

    #[test]
    fn events_are_pinned() {
        let answer =
            MessageRequest { text: Some("Obrigado! Seu horário está confirmado.".into()), ..request() };
        crate::event_payload::assert_pinned::<Message>(&[
            MessageEvent::MessageRequested(answer),
            MessageEvent::MessageSkipped { request: request(), reason: "O horário já começou.".into() },
            MessageEvent::SendRetried { attempt: 2 },
            MessageEvent::MessageAccepted { provider_id: "wamid.HBgN".into() },
            MessageEvent::MessageRefused {
                reason: "(#131030) Recipient phone number not in allowed list".into(),
            },
            MessageEvent::DeliveryReported {
                status: DeliveryStatus::Failed,
                at: at(1),
                error: Some("131026: Message undeliverable".into()),
            },
            MessageEvent::ReplyReceived {
                provider_id: "wamid.r".into(),
                payload: "CONFIRMAR:a812-r24".into(),
                at: at(2),
            },
        ]);
    }
}
