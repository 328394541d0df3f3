//! Outgoing e-mail: over SMTP when configured, otherwise to an outbox folder a developer (or
//! an end-to-end test) can read, with a log line that names the file.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use navalha_platform::ApiError;
use serde_json::json;

use crate::config::Settings;

/// Where e-mails go.
#[derive(Clone)]
pub enum Mailer {
    /// A real SMTP server.
    Smtp {
        /// The connection pool to the server.
        transport: Box<AsyncSmtpTransport<Tokio1Executor>>,
        /// The sender.
        from: Mailbox,
    },
    /// One JSON file per e-mail in this folder, and a log line (without the text).
    Outbox {
        /// The folder.
        dir: PathBuf,
        /// Keeps file names unique within a millisecond.
        counter: Arc<AtomicU64>,
    },
}

impl Mailer {
    /// SMTP when `smtp_url` is set, the outbox otherwise.
    pub fn from_settings(settings: &Settings) -> anyhow::Result<Self> {
        match &settings.smtp_url {
            Some(url) => Ok(Mailer::Smtp {
                transport: Box::new(
                    AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())
                        .context("NAVALHA_SMTP_URL is not a valid SMTP address")?
                        .build(),
                ),
                from: settings.mail_from.parse().context("NAVALHA_MAIL_FROM is not a mailbox")?,
            }),
            None => Ok(Mailer::Outbox { dir: settings.outbox_dir.clone(), counter: Arc::default() }),
        }
    }

    /// Sends a plain-text e-mail.
    pub async fn send(&self, to: &str, subject: &str, text: &str) -> Result<(), ApiError> {
        match self {
            Mailer::Smtp { transport, from } => {
                let message = Message::builder()
                    .from(from.clone())
                    .to(to.parse().map_err(|error| {
                        ApiError::Internal(anyhow::anyhow!("bad recipient {to}: {error}"))
                    })?)
                    .subject(subject)
                    .body(text.to_owned())
                    .map_err(|error| ApiError::Internal(error.into()))?;
                transport.send(message).await.map_err(|error| ApiError::Internal(error.into()))?;
                tracing::info!(to, subject, "e-mail sent");
            }
            Mailer::Outbox { dir, counter } => {
                tokio::fs::create_dir_all(dir).await.map_err(|error| ApiError::Internal(error.into()))?;
                let now = navalha_platform::clock::now();
                let name = format!(
                    "{}-{:04}.json",
                    now.format("%Y%m%dT%H%M%S%.3f"),
                    counter.fetch_add(1, Ordering::Relaxed)
                );
                let body = json!({ "to": to, "subject": subject, "text": text, "at": now.to_rfc3339() });
                tokio::fs::write(dir.join(&name), serde_json::to_vec_pretty(&body).unwrap_or_default())
                    .await
                    .map_err(|error| ApiError::Internal(error.into()))?;
                // Not the text: it holds recovery codes and link tokens. The file has it.
                tracing::info!(to, subject, file = %dir.join(&name).display(), "e-mail written to the outbox");
            }
        }
        Ok(())
    }
}
