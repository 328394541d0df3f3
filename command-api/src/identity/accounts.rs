//! Staff credentials: made when a professional is registered.

use navalha_platform::ApiError;
use sqlx::PgPool;

use super::passwords;

/// Creates the credential row of a professional, with a password or without one (then the
/// professional completes registration through an invite link or signs in with Google).
pub async fn create_account(
    pool: &PgPool,
    professional_id: i64,
    email: &str,
    cpf: Option<&str>,
    password: Option<&str>,
) -> Result<(), ApiError> {
    let password_hash = match password {
        Some(password) => Some(passwords::hash(password.to_owned()).await?),
        None => None,
    };
    sqlx::query(
        "insert into staff_credential (professional_id, email, cpf, password_hash) values ($1, lower($2), $3, $4)",
    )
    .bind(professional_id)
    .bind(email)
    .bind(cpf)
    .bind(password_hash)
    .execute(pool)
    .await
    .map_err(|error| match &error {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            ApiError::Conflict("Já existe um profissional com este e-mail ou CPF.".to_owned())
        }
        _ => error.into(),
    })?;
    Ok(())
}

/// What the user typed in a "CPF or e-mail" field, as one key: `cpf:` and the digits when
/// it reads as a CPF, `email:` and the lowercased text otherwise.
pub fn identifier_key(cpf_or_email: &str) -> String {
    let text = cpf_or_email.trim();
    let digits = navalha_domain::values::only_digits(text);
    if !text.contains('@') && digits.len() == 11 {
        format!("cpf:{digits}")
    } else {
        format!("email:{}", text.to_lowercase())
    }
}

/// Finds an account by e-mail (any case) or CPF (with or without mask).
pub async fn find_by_email_or_cpf(pool: &PgPool, cpf_or_email: &str) -> Result<Option<i64>, ApiError> {
    let key = identifier_key(cpf_or_email);
    let (sql, value) = match key.split_once(':') {
        Some(("cpf", digits)) => ("select professional_id from staff_credential where cpf = $1", digits),
        _ => ("select professional_id from staff_credential where email = $1", &key["email:".len()..]),
    };
    Ok(sqlx::query_scalar(sql).bind(value).fetch_optional(pool).await?)
}

/// Sets a new password, forgives earlier failed sign-ins (a user locked out by someone
/// guessing gets back in by resetting) and ends every open session: whoever knew the old
/// password is signed out at once.
pub async fn set_password(
    conn: &mut sqlx::PgConnection,
    professional_id: i64,
    password: &str,
) -> Result<(), ApiError> {
    let hashed = passwords::hash(password.to_owned()).await?;
    sqlx::query(
        "update staff_credential
            set password_hash = $2, login_failures_reset_at = now(), updated_at = now()
          where professional_id = $1",
    )
    .bind(professional_id)
    .bind(hashed)
    .execute(&mut *conn)
    .await?;
    super::session::end_sessions(conn, professional_id).await?;
    Ok(())
}
