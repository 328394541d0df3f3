//! Limits on the doors that take guesses: signing in, asking for a recovery code and
//! checking one (issue 12, item 3).
//!
//! Each door counts failures over a window three ways:
//! - one subject (the typed e-mail or CPF, or the account) from one address: stops a
//!   guesser without touching the real user, who signs in from elsewhere;
//! - one address, whatever the subject: stops one client spraying many accounts;
//! - one subject from every address: guessing spread over many addresses. It is set well
//!   above the first, so one address alone never reaches it. Past it, attempts are slowed
//!   down ([`SLOW_DOWN`]), never refused: refusing would let a handful of addresses lock the
//!   owner out of their own account (issue 39), and the owner's right password or code
//!   still works, a little later.
//!
//! An address is counted by its range (`navalha_address_range`: IPv4 whole, IPv6 by /64),
//! so one home's IPv6 network is one address, not endless ones.
//!
//! An attempt is stored as failed before it is judged and marked as succeeded after, so
//! guesses sent in parallel all count; advisory locks make the check and the record one step.

use std::time::Duration;

use navalha_platform::ApiError;
use sqlx::{PgConnection, PgPool};

/// How much later an attempt past a subject's limit from all addresses is answered.
pub const SLOW_DOWN: Duration = Duration::from_secs(2);

/// A door and its limits.
#[derive(Debug, Clone, Copy)]
pub struct Door {
    /// Its name in `access_attempt`.
    pub name: &'static str,
    /// Failures counted over this many minutes.
    pub window_minutes: i32,
    /// Failures allowed for one subject from one address.
    pub per_subject_and_address: i64,
    /// Failures allowed from one address.
    pub per_address: i64,
    /// Failures for one subject from all addresses together past which attempts are slowed.
    pub per_subject: i64,
    /// The 429 message; `{wait}` becomes "5 minutos", "2 horas"...
    pub message: &'static str,
}

/// Sign-in with e-mail and password. Failures before a password reset do not count.
pub const LOGIN: Door = Door {
    name: "login",
    window_minutes: 15,
    per_subject_and_address: 10,
    per_address: 30,
    per_subject: 100,
    message: "Muitas tentativas de login sem sucesso. Tente novamente em {wait} ou use 'Esqueci minha senha' para receber por e-mail um código e um link de acesso.",
};

/// Asking for a recovery code: every request counts, each one is an e-mail.
pub const RECOVERY_REQUEST: Door = Door {
    name: "recovery-request",
    window_minutes: 60,
    per_subject_and_address: 5,
    per_address: 20,
    per_subject: 20,
    message: "Muitos pedidos de código. Tente novamente em {wait}.",
};

/// Wrong recovery codes, counted per account across codes: a new code does not give fresh
/// guesses. A code dies after 5 wrong tries and a recipient gets at most 5 codes an hour
/// ([`CODE_MAILS_PER_HOUR`]), so a 6-digit code is out of reach however many addresses guess.
pub const RECOVERY_GUESS: Door = Door {
    name: "recovery-guess",
    window_minutes: 24 * 60,
    per_subject_and_address: 10,
    per_address: 50,
    per_subject: 20,
    message: "Muitas tentativas com código inválido. Tente novamente em {wait} ou abra o link do e-mail com o código.",
};

/// Asking for a code on a unit's public page (issue 18): each one may be an e-mail.
pub const ONLINE_CODE: Door = Door {
    name: "online-code",
    window_minutes: 60,
    per_subject_and_address: 5,
    per_address: 20,
    per_subject: 20,
    message: "Muitos pedidos de código. Tente novamente em {wait}.",
};

/// Wrong online-booking codes, per CPF across codes.
pub const ONLINE_GUESS: Door = Door {
    name: "online-guess",
    window_minutes: 24 * 60,
    per_subject_and_address: 10,
    per_address: 50,
    per_subject: 20,
    message: "Muitas tentativas com código inválido. Tente novamente em {wait}.",
};

/// Online bookings, cancellations and moves: every one counts, so one address cannot
/// churn a unit's agenda. A shop's own Wi-Fi, shared by its clients, stays well below.
pub const ONLINE_BOOKING: Door = Door {
    name: "online-booking",
    window_minutes: 60,
    per_subject_and_address: 15,
    per_address: 40,
    per_subject: 40,
    message: "Muitos agendamentos em pouco tempo. Tente novamente em {wait}.",
};

/// Code e-mails one recipient may get in an hour, across every door that sends codes
/// (booking codes, recovery codes), whoever asks for them and from wherever (issue 39).
pub const CODE_MAILS_PER_HOUR: i64 = 5;

/// Whether one more code may be e-mailed to `recipient` now, counting it when so. Past the
/// cap the doors answer as always and send nothing, so the answer tells nothing either.
pub async fn code_mail_allowed(pool: &PgPool, recipient: &str) -> Result<bool, ApiError> {
    let recipient = recipient.trim().to_lowercase();
    let mut tx = pool.begin().await?;
    sqlx::query("select pg_advisory_xact_lock(1, hashtext('code-mail:' || $1))")
        .bind(&recipient)
        .execute(&mut *tx)
        .await?;
    let sent: i64 = sqlx::query_scalar(
        "select count(*) from access_attempt
          where door = 'code-mail' and subject = $1 and attempted_at > now() - interval '1 hour'",
    )
    .bind(&recipient)
    .fetch_one(&mut *tx)
    .await?;
    if sent >= CODE_MAILS_PER_HOUR {
        tracing::warn!("code e-mails to one recipient capped; nothing sent");
        return Ok(false);
    }
    sqlx::query("insert into access_attempt (door, subject, client_ip) values ('code-mail', $1, '')")
        .bind(&recipient)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

/// An attempt let through, recorded as failed until [`Attempt::succeeded`].
#[derive(Debug)]
pub struct Attempt {
    id: i64,
}

impl Attempt {
    /// The attempt turned out right: it stops counting.
    pub async fn succeeded(self, pool: &PgPool) -> Result<(), ApiError> {
        sqlx::query("update access_attempt set succeeded = true where access_attempt_id = $1")
            .bind(self.id)
            .execute(pool)
            .await?;
        Ok(())
    }
}

/// Lets an attempt through `door`, recording it, or answers 429 with `Retry-After`; past the
/// subject's limit from all addresses, lets it through [`SLOW_DOWN`] later. Failures of
/// `subject` before `since` (e.g. a password reset) do not count against it.
pub async fn enter(
    pool: &PgPool,
    door: Door,
    subject: &str,
    address: &str,
    since: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<Attempt, ApiError> {
    let mut tx = pool.begin().await?;
    let address: String =
        sqlx::query_scalar("select navalha_address_range($1)").bind(address).fetch_one(&mut *tx).await?;
    let address = address.as_str();
    // Subject first, address second, always: no two requests wait on each other in a cycle.
    sqlx::query("select pg_advisory_xact_lock(1, hashtext($1 || ':' || $2)), pg_advisory_xact_lock(2, hashtext($1 || ':' || $3))")
        .bind(door.name)
        .bind(subject)
        .bind(address)
        .execute(&mut *tx)
        .await?;
    let waits = [
        wait_seconds(&mut tx, door, Some(subject), Some(address), since, door.per_subject_and_address)
            .await?,
        wait_seconds(&mut tx, door, None, Some(address), None, door.per_address).await?,
    ];
    if let Some(wait) = waits.into_iter().flatten().max() {
        tracing::warn!(door = door.name, client_ip = %address, retry_after = wait, "attempts throttled");
        return Err(ApiError::TooManyRequests {
            message: door.message.replace("{wait}", &wait_text(wait)),
            retry_after_seconds: wait,
        });
    }
    let slowed = wait_seconds(&mut tx, door, Some(subject), None, since, door.per_subject).await?.is_some();
    let id = sqlx::query_scalar(
        "insert into access_attempt (door, subject, client_ip) values ($1, $2, $3) returning access_attempt_id",
    )
    .bind(door.name)
    .bind(subject)
    .bind(address)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    if slowed {
        tracing::warn!(door = door.name, client_ip = %address, "attempts on one subject from many addresses slowed down");
        tokio::time::sleep(SLOW_DOWN).await;
    }
    Ok(Attempt { id })
}

/// Seconds until the failures matching the subject and address fall below `limit`, when
/// they are at it now: the oldest of the latest `limit` failures leaving the window.
async fn wait_seconds(
    conn: &mut PgConnection,
    door: Door,
    subject: Option<&str>,
    address: Option<&str>,
    since: Option<chrono::DateTime<chrono::Utc>>,
    limit: i64,
) -> Result<Option<u64>, ApiError> {
    let seconds: Option<f64> = sqlx::query_scalar(
        "select extract(epoch from min(attempted_at) + make_interval(mins => $2) - now())::float8
           from (select attempted_at from access_attempt
                  where door = $1 and not succeeded
                    and attempted_at > greatest(now() - make_interval(mins => $2), coalesce($5, '-infinity'))
                    and ($3::text is null or subject = $3)
                    and ($4::text is null or client_ip = $4)
                  order by attempted_at desc
                  limit $6) latest
         having count(*) >= $6",
    )
    .bind(door.name)
    .bind(door.window_minutes)
    .bind(subject)
    .bind(address)
    .bind(since)
    .bind(limit)
    .fetch_optional(conn)
    .await?
    .flatten();
    Ok(seconds.map(|seconds| seconds.ceil().max(1.0) as u64))
}

/// "1 minuto", "15 minutos", "3 horas": the wait, rounded up, as the messages say it.
pub fn wait_text(seconds: u64) -> String {
    let minutes = seconds.div_ceil(60).max(1);
    let (amount, unit) = if minutes > 120 { (minutes.div_ceil(60), "hora") } else { (minutes, "minuto") };
    format!("{amount} {unit}{}", if amount == 1 { "" } else { "s" })
}

/// Forgets attempts older than every window.
pub async fn forget_old_attempts(pool: &PgPool) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("delete from access_attempt where attempted_at < now() - interval '2 days'")
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_read_as_people_say_them() {
        assert_eq!(wait_text(1), "1 minuto");
        assert_eq!(wait_text(60), "1 minuto");
        assert_eq!(wait_text(61), "2 minutos");
        assert_eq!(wait_text(900), "15 minutos");
        assert_eq!(wait_text(7200), "120 minutos");
        assert_eq!(wait_text(7201), "3 horas");
        assert_eq!(wait_text(86_400), "24 horas");
    }

    // One address alone never reaches an account's limit.
    const _: () = assert!(LOGIN.per_subject > LOGIN.per_subject_and_address * 2);
    const _: () = assert!(RECOVERY_GUESS.per_subject > RECOVERY_GUESS.per_subject_and_address);
    const _: () = assert!(ONLINE_GUESS.per_subject > ONLINE_GUESS.per_subject_and_address);
}
