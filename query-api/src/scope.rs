//! Reads scoped to one business (tenant).
//!
//! Every read model row carries its business, and row-level security lets query-api's role
//! see only the rows of the business named by the transaction-local setting
//! `navalha.business`: a read without it sees nothing. So every read of the read models runs
//! in a transaction begun here, and its queries take `&mut *tx`. Wait for read-your-writes
//! before beginning one, so no connection is held while waiting.
//!
//! The business is a line below the unit rules, not a replacement: handlers keep checking
//! the caller's units as before.

use navalha_domain::company::Company;
use navalha_domain::Aggregate;
use navalha_platform::auth::Principal;
use navalha_platform::ApiError;
use sqlx::{PgPool, Postgres, Transaction};

/// The condition that keeps an `events e` read to the transaction's business. `events` has
/// no row-level security, so the audits and as-of replays that read it add this, or an
/// admin could read the history of another business's client by its id.
pub const EVENT_IN_SCOPE: &str = "exists (select 1 from aggregate_business b
        where b.aggregate_type = e.aggregate_type and b.aggregate_id = e.aggregate_id
          and b.business_id = public.navalha_business())";

/// A read transaction scoped to one business. Dropping it ends it (reads commit nothing).
pub type Scoped = Transaction<'static, Postgres>;

/// A transaction that reads what the signed-in `principal`'s business may see.
pub async fn of(pool: &PgPool, principal: &Principal) -> Result<Scoped, ApiError> {
    of_business(pool, principal.business_id).await
}

/// A transaction that reads the rows of `business_id`. BEGIN and the setting go in one
/// simple-protocol message, so a scoped read costs one round trip before its queries (issue
/// 15). The id is an integer, so writing it into the SQL text is safe.
pub async fn of_business(pool: &PgPool, business_id: i64) -> Result<Scoped, ApiError> {
    Ok(pool
        .begin_with(format!("begin; select set_config('navalha.business', '{business_id}', true)"))
        .await?)
}

/// For anonymous callers, who bring no business: a transaction that reads the business of
/// unit `company_id`, or `None` when no unit has that id (the caller answers its 404).
/// `aggregate_business` has no row-level security, so the look-up needs no transaction.
pub async fn of_unit(pool: &PgPool, company_id: i64) -> Result<Option<Scoped>, ApiError> {
    Ok(of_unit_and_business(pool, company_id).await?.map(|(tx, _)| tx))
}

/// [`of_unit`], with the business it reads.
pub async fn of_unit_and_business(pool: &PgPool, company_id: i64) -> Result<Option<(Scoped, i64)>, ApiError> {
    let business: Option<i64> = sqlx::query_scalar(
        "select business_id from aggregate_business where aggregate_type = $1 and aggregate_id = $2",
    )
    .bind(Company::TYPE)
    .bind(company_id.to_string())
    .fetch_optional(pool)
    .await?;
    match business {
        Some(business) => Ok(Some((of_business(pool, business).await?, business))),
        None => Ok(None),
    }
}
