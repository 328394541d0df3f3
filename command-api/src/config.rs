//! command-api's settings, from flags or the environment.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use navalha_platform::Secret;

/// Navalha's write side.
#[derive(Debug, Parser)]
#[command(about = "Navalha command API: turns commands into events")]
pub struct Cli {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Secret,
    /// What to do; `serve` when absent.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// command-api's subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply the database migrations and exit.
    Migrate,
    /// Load the demo data unless it is already there, and exit.
    SeedDemo(Settings),
    /// Load the club's demo plans and subscribers through the running provider simulator
    /// (its webhooks reach the running command-api), unless a subscription exists; exit.
    SeedDemoClub(SeedClubArgs),
    /// Open a new business (tenant) with the standard service catalogue and its first admin,
    /// print the admin's registration link, and exit (docs/operations.md).
    OpenBusiness(OpenBusinessArgs),
    /// Record whether a business is paying Navalha: PENDING_PAYMENT shows its staff the
    /// 'Pagamento pendente !' notice, ACTIVE takes it away (docs/operations.md).
    BusinessBilling(BusinessBillingArgs),
    /// Serve HTTP.
    Serve(ServeArgs),
}

/// Arguments of `open-business`.
#[derive(Debug, Args)]
pub struct OpenBusinessArgs {
    /// The business's name, for the operators.
    #[arg(long)]
    pub name: String,
    /// The first admin's full name.
    #[arg(long)]
    pub admin_name: String,
    /// The first admin's sign-in e-mail.
    #[arg(long)]
    pub admin_email: String,
    /// The first admin's CPF.
    #[arg(long)]
    pub admin_cpf: String,
    /// The first admin's phone.
    #[arg(long, default_value = "")]
    pub admin_phone: String,
    #[command(flatten)]
    pub settings: Settings,
}

/// Arguments of `business-billing`.
#[derive(Debug, Args)]
pub struct BusinessBillingArgs {
    /// The business's id (`open-business` prints it; the demo business is 1).
    #[arg(long)]
    pub business: i64,
    /// ACTIVE or PENDING_PAYMENT.
    #[arg(long, value_parser = ["ACTIVE", "PENDING_PAYMENT"])]
    pub status: String,
    #[command(flatten)]
    pub settings: Settings,
}

/// Arguments of `seed-demo-club`.
#[derive(Debug, Args)]
pub struct SeedClubArgs {
    /// The simulator's own controls (not GalaxPay's API), to pay and deny charges.
    #[arg(long, env = "NAVALHA_PROVIDER_SIM_URL", default_value = "http://127.0.0.1:8090")]
    pub provider_sim_url: String,
    #[command(flatten)]
    pub settings: Settings,
}

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "NAVALHA_COMMAND_LISTEN", default_value = "127.0.0.1:8081")]
    pub listen: SocketAddr,
    #[command(flatten)]
    pub settings: Settings,
}

/// Settings shared by every subcommand that executes commands. Secrets are [`Secret`]s, so
/// that a `Debug` print of the settings (a log line) never shows them.
#[derive(Debug, Clone, Args)]
pub struct Settings {
    /// Where e-mails are written when no SMTP server is configured.
    #[arg(long, env = "NAVALHA_OUTBOX_DIR", default_value = ".data/outbox")]
    pub outbox_dir: PathBuf,
    /// SMTP server, e.g. `smtp://user:pass@host:587` or `smtps://...`; without it e-mails
    /// go to the outbox folder (the log names the file, never the text).
    #[arg(long, env = "NAVALHA_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<Secret>,
    /// Sender of the e-mails.
    #[arg(long, env = "NAVALHA_MAIL_FROM", default_value = "Navalha <nao-responda@navalha.dev>")]
    pub mail_from: String,
    /// Google's token-information address, where the server learns who owns an access
    /// token and which app it was issued to.
    #[arg(
        long,
        env = "NAVALHA_GOOGLE_TOKENINFO_URL",
        default_value = "https://oauth2.googleapis.com/tokeninfo"
    )]
    pub google_tokeninfo_url: String,
    /// Navalha's OAuth client id at Google (the web app's `VITE_GOOGLE_CLIENT_ID`): only
    /// access tokens issued to it sign in. Empty turns Google sign-in off.
    #[arg(long, env = "NAVALHA_GOOGLE_CLIENT_ID", default_value = "")]
    pub google_client_id: String,
    /// The web app's public address, for links in e-mails.
    #[arg(long, env = "NAVALHA_PUBLIC_URL", default_value = "http://localhost:8080")]
    pub public_url: String,
    /// Where uploaded images (the units' galleries) are stored; query-api serves them.
    #[arg(long, env = "NAVALHA_MEDIA_DIR", default_value = ".data/media")]
    pub media_dir: PathBuf,
    /// How long a sign-in token lasts, in hours.
    #[arg(long, env = "NAVALHA_TOKEN_HOURS", default_value_t = 12)]
    pub token_hours: i64,
    /// The payment provider's (GalaxPay v2) API address: the real one, its sandbox, or the
    /// local simulator (`provider-sim`).
    #[arg(long, env = "NAVALHA_GALAXPAY_URL", default_value = "https://api.galaxpay.com.br/v2")]
    pub galaxpay_url: String,
    /// The provider account's GalaxId.
    #[arg(long, env = "NAVALHA_GALAXPAY_ID", default_value = "")]
    pub galaxpay_id: String,
    /// The provider account's GalaxHash (API secret).
    #[arg(long, env = "NAVALHA_GALAXPAY_HASH", default_value = "", hide_env_values = true)]
    pub galaxpay_hash: Secret,
    /// The webhook confirmation hash configured at the provider; webhooks without it are
    /// refused. Empty refuses every webhook.
    #[arg(long, env = "NAVALHA_GALAXPAY_WEBHOOK_HASH", default_value = "", hide_env_values = true)]
    pub galaxpay_webhook_hash: Secret,
    /// GalaxPay's browser-side card tokenizer (checkout.js), which the checkout page loads
    /// so that card numbers go from the browser to the provider and never through Navalha.
    #[arg(long, env = "NAVALHA_GALAXPAY_JS_URL", default_value = "https://js.cel.cash/checkout.min.js")]
    pub galaxpay_js_url: String,
    /// The provider account's public token for the tokenizer (not a secret: the page shows
    /// it). Empty: no card payments are offered.
    #[arg(long, env = "NAVALHA_GALAXPAY_PUBLIC_TOKEN", default_value = "")]
    pub galaxpay_public_token: String,
    /// Seconds between two reconciliations with the provider; 0 turns the job off.
    #[arg(long, env = "NAVALHA_RECONCILE_SECONDS", default_value_t = 300)]
    pub reconcile_seconds: u64,
    /// How long a checkout link lasts, in hours.
    #[arg(long, env = "NAVALHA_CHECKOUT_TOKEN_HOURS", default_value_t = 72)]
    pub checkout_token_hours: i64,
    /// Meta's Graph API with its version, where WhatsApp messages are sent (the Cloud API),
    /// or the local twin (`provider-sim`'s `/whatsapp/v21.0`).
    #[arg(long, env = "NAVALHA_WHATSAPP_URL", default_value = "https://graph.facebook.com/v21.0")]
    pub whatsapp_url: String,
    /// The system user's access token. Empty: no WhatsApp message is sent.
    #[arg(long, env = "NAVALHA_WHATSAPP_TOKEN", default_value = "", hide_env_values = true)]
    pub whatsapp_token: Secret,
    /// The business phone number's id at Meta.
    #[arg(long, env = "NAVALHA_WHATSAPP_PHONE_NUMBER_ID", default_value = "")]
    pub whatsapp_phone_number_id: String,
    /// The Meta app's secret, which signs the webhook's deliveries. Empty refuses every one.
    #[arg(long, env = "NAVALHA_WHATSAPP_APP_SECRET", default_value = "", hide_env_values = true)]
    pub whatsapp_app_secret: Secret,
    /// The verify token of the webhook's subscription handshake. Empty refuses it.
    #[arg(long, env = "NAVALHA_WHATSAPP_VERIFY_TOKEN", default_value = "", hide_env_values = true)]
    pub whatsapp_verify_token: Secret,
    /// Seconds between two passes of the reminders (docs/messages.md); 0 turns them off.
    #[arg(long, env = "NAVALHA_REMINDER_SECONDS", default_value_t = 60)]
    pub reminder_seconds: u64,
    /// How long a send may stay without an outcome before a pass tries it again (ADR 0028);
    /// the resilience tests shorten it.
    #[arg(long, env = "NAVALHA_REMINDER_GRACE_SECONDS", default_value_t = REMINDER_GRACE_SECONDS)]
    pub reminder_grace_seconds: i64,
}

/// The default of `NAVALHA_REMINDER_GRACE_SECONDS` (`reminders::GRACE_SECONDS`).
pub const REMINDER_GRACE_SECONDS: i64 = 120;

impl Default for Settings {
    fn default() -> Self {
        Self {
            outbox_dir: PathBuf::from(".data/outbox"),
            smtp_url: None,
            mail_from: "Navalha <nao-responda@navalha.dev>".to_owned(),
            google_tokeninfo_url: "https://oauth2.googleapis.com/tokeninfo".to_owned(),
            google_client_id: String::new(),
            public_url: "http://localhost:8080".to_owned(),
            media_dir: PathBuf::from(".data/media"),
            token_hours: 12,
            galaxpay_url: "https://api.galaxpay.com.br/v2".to_owned(),
            galaxpay_id: String::new(),
            galaxpay_hash: Secret::default(),
            galaxpay_webhook_hash: Secret::default(),
            galaxpay_js_url: "https://js.cel.cash/checkout.min.js".to_owned(),
            galaxpay_public_token: String::new(),
            reconcile_seconds: 300,
            checkout_token_hours: 72,
            whatsapp_url: "https://graph.facebook.com/v21.0".to_owned(),
            whatsapp_token: Secret::default(),
            whatsapp_phone_number_id: String::new(),
            whatsapp_app_secret: Secret::default(),
            whatsapp_verify_token: Secret::default(),
            reminder_seconds: 60,
            reminder_grace_seconds: REMINDER_GRACE_SECONDS,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Cli, Command};

    #[test]
    fn a_debug_print_of_the_settings_shows_no_secret() {
        let cli = Cli::try_parse_from([
            "command-api",
            "--database-url",
            "postgres://navalha_command:db-password-1@db/navalha",
            "serve",
            "--smtp-url",
            "smtps://mailer:smtp-password-2@smtp.example:465",
            "--galaxpay-hash",
            "galax-hash-3",
            "--galaxpay-webhook-hash",
            "webhook-hash-4",
        ])
        .expect("flags parse");
        let Some(Command::Serve(serve)) = &cli.command else { panic!("serve expected") };
        assert_eq!(serve.settings.galaxpay_hash.expose(), "galax-hash-3");
        assert_eq!(
            serve.settings.smtp_url.as_ref().map(|url| url.expose()),
            Some("smtps://mailer:smtp-password-2@smtp.example:465")
        );
        let printed = format!("{cli:?} {cli:#?}");
        for secret in ["db-password-1", "smtp-password-2", "galax-hash-3", "webhook-hash-4"] {
            assert!(!printed.contains(secret), "{secret} printed in {printed}");
        }
        assert!(printed.contains("[redacted]"));
    }
}
