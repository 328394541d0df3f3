//! Appending the data set to the event log in bulk: big transactions of multi-row INSERTs
//! (one `unnest` of arrays per statement), so that PostgreSQL's triggers on `events`
//! (unique claims, appointment slots, the projector's wake-up) run exactly as for
//! command-api's appends.

use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sqlx::PgPool;

use navalha_domain::professional::{Employment, Membership, ProfessionalEvent};

use crate::events::{Actor, EventBuilder, EventRow, IdBases};
use crate::Dataset;

/// Rows per INSERT statement.
const ROWS_PER_STATEMENT: usize = 5_000;
/// Statements per transaction.
const STATEMENTS_PER_TRANSACTION: usize = 4;

const INSERT: &str = "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
     select t, i, s, e, v, p::jsonb, m::jsonb
       from unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[])
            as u(t, i, s, e, v, p, m)";

/// Reserves `count` consecutive values of `sequence` and returns the first. Nothing else
/// writes while the bench loads, and `setval` moves the sequence past the range, so later
/// HTTP commands never collide with the loaded ids.
pub async fn reserve(pool: &PgPool, sequence: &str, count: usize) -> anyhow::Result<i64> {
    let mut tx = pool.begin().await?;
    // An advisory lock keyed on the name: two loaders cannot interleave.
    sqlx::query("select pg_advisory_xact_lock(hashtext($1))").bind(sequence).execute(&mut *tx).await?;
    let first: i64 = sqlx::query_scalar(&format!("select nextval('{sequence}')")).fetch_one(&mut *tx).await?;
    if count > 1 {
        sqlx::query(&format!("select setval('{sequence}', $1)"))
            .bind(first + count as i64 - 1)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(first)
}

/// Reserves every id range the data set needs.
pub async fn reserve_ids(pool: &PgPool, data: &Dataset) -> anyhow::Result<IdBases> {
    Ok(IdBases {
        company: reserve(pool, "company_id_seq", data.units.len()).await?,
        service: reserve(pool, "service_id_seq", crate::dataset::CATALOGUE.len()).await?,
        professional: reserve(pool, "professional_id_seq", data.staff.len()).await?,
        membership: reserve(pool, "company_professional_id_seq", data.staff.len()).await?,
        offer: reserve(pool, "professional_service_id_seq", data.offer_count.max(1)).await?,
        client: reserve(pool, "client_id_seq", data.customers.len().max(1)).await?,
        appointment: reserve(pool, "appointment_id_seq", data.visits.len().max(1)).await?,
    })
}

/// The admin who books the loaded appointments: the demo admin.
pub async fn demo_admin(pool: &PgPool, email: &str) -> anyhow::Result<Actor> {
    let id: i64 = sqlx::query_scalar("select professional_id from staff_credential where email = $1")
        .bind(email)
        .fetch_one(pool)
        .await
        .with_context(|| format!("finding {email} (did seed-demo run?)"))?;
    let name: Option<String> = sqlx::query_scalar(
        "select payload -> 'ProfessionalRegistered' -> 'personal' ->> 'name'
           from events where aggregate_type = 'Professional' and aggregate_id = $1 and sequence = 1",
    )
    .bind(id.to_string())
    .fetch_optional(pool)
    .await?
    .flatten();
    Ok(Actor { id, name: name.unwrap_or_else(|| "Administrador".to_owned()) })
}

/// Makes the admin who books a member of the loaded units, as an admin would by adding them
/// to their own units: staff reach only the units they belong to (issue 12), so without it
/// every booking and agenda read of the load would be refused.
pub async fn admit_admin(
    pool: &PgPool,
    builder: &EventBuilder<'_>,
    actor: &Actor,
    units: usize,
) -> anyhow::Result<()> {
    let id = actor.id.to_string();
    let (last, employment): (i64, serde_json::Value) = sqlx::query_as(
        "select (select max(sequence) from events where aggregate_type = 'Professional' and aggregate_id = $1),
                staff_access_of(payload)
           from events
          where aggregate_type = 'Professional' and aggregate_id = $1 and staff_access_of(payload) is not null
          order by sequence desc limit 1",
    )
    .bind(&id)
    .fetch_one(pool)
    .await
    .context("reading the admin's employment")?;
    let mut employment: Employment = serde_json::from_value(employment)?;
    let first = reserve(pool, "company_professional_id_seq", units).await?;
    for unit in 0..units {
        employment
            .memberships
            .push(Membership { id: first + unit as i64, company_id: builder.company_id(unit) });
    }
    let row = builder.professional_row(actor.id, last + 1, &ProfessionalEvent::EmploymentChanged(employment));
    let mut tx = pool.begin().await?;
    insert(&mut tx, &[row]).await?;
    tx.commit().await?;
    Ok(())
}

/// Appends a small business's whole data set in one transaction, without a progress bar
/// (the fan-out opens a hundred of them).
pub async fn append_business(
    pool: &PgPool,
    builder: &EventBuilder<'_>,
    data: &Dataset,
) -> anyhow::Result<()> {
    let mut rows = builder.setup_rows();
    rows.extend(builder.appointment_rows(0..data.visits.len()));
    append_rows(pool, &rows).await
}

/// Appends `rows` in one transaction.
pub async fn append_rows(pool: &PgPool, rows: &[EventRow]) -> anyhow::Result<()> {
    let mut tx = pool.begin().await?;
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        insert(&mut tx, chunk).await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn insert(tx: &mut sqlx::PgConnection, rows: &[EventRow]) -> anyhow::Result<()> {
    let column = |f: fn(&EventRow) -> String| rows.iter().map(f).collect::<Vec<String>>();
    sqlx::query(INSERT)
        .bind(column(|r| r.aggregate_type.to_owned()))
        .bind(column(|r| r.aggregate_id.clone()))
        .bind(rows.iter().map(|r| r.sequence).collect::<Vec<i64>>())
        .bind(column(|r| r.event_type.clone()))
        .bind(column(|r| r.event_version.clone()))
        .bind(column(|r| r.payload.clone()))
        .bind(column(|r| r.metadata.clone()))
        .execute(&mut *tx)
        .await
        .context("appending events")?;
    Ok(())
}

/// What the load did.
#[derive(Debug, Clone, Copy)]
pub struct LoadReport {
    /// Events appended.
    pub events: u64,
    /// Wall time.
    pub seconds: f64,
}

/// Appends the whole data set: setup streams first, then the appointments in booking
/// order. Shows a progress bar.
pub async fn append_all(
    pool: &PgPool,
    builder: &EventBuilder<'_>,
    data: &Dataset,
) -> anyhow::Result<LoadReport> {
    let started = Instant::now();
    let setup = builder.setup_rows();
    // About 1.6 events per appointment; the bar's length is refined as we go.
    let estimate = setup.len() as u64 + (data.visits.len() as f64 * 1.45) as u64;
    let bar = ProgressBar::new(estimate);
    bar.set_style(
        ProgressStyle::with_template("  loading events [{bar:40.cyan/blue}] {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let mut events = 0_u64;
    let mut tx = pool.begin().await?;
    for chunk in setup.chunks(ROWS_PER_STATEMENT) {
        insert(&mut tx, chunk).await?;
        events += chunk.len() as u64;
        bar.set_position(events);
    }
    tx.commit().await?;
    let per_transaction = ROWS_PER_STATEMENT * STATEMENTS_PER_TRANSACTION;
    // Appointment events are built per transaction, to keep memory flat.
    let mut start = 0;
    while start < data.visits.len() {
        let end = (start + per_transaction * 2 / 3).min(data.visits.len());
        let rows = builder.appointment_rows(start..end);
        let mut tx = pool.begin().await?;
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            insert(&mut tx, chunk).await?;
            events += chunk.len() as u64;
            bar.set_position(events);
        }
        tx.commit().await?;
        start = end;
    }
    bar.set_length(events);
    bar.finish_and_clear();
    Ok(LoadReport { events, seconds: started.elapsed().as_secs_f64() })
}
