//! `holiday`: the holidays list and form, searchable by description ignoring accents and
//! case. Unit names are read from `rm_company` at query time, so a renamed unit shows its
//! new name without replaying holidays.

use async_trait::async_trait;
use navalha_domain::holiday::{HolidayDetails, HolidayEvent};
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, ReadModel};

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_holiday.holiday` and `rm_holiday.holiday_company`.
pub struct Holidays;

#[async_trait]
impl Projection for Holidays {
    fn model(&self) -> &'static ReadModel {
        &read_models::HOLIDAY
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        match event.decode::<HolidayEvent>()? {
            HolidayEvent::HolidayCreated(details) | HolidayEvent::HolidayChanged(details) => {
                upsert(conn, id, &details).await?;
            }
            HolidayEvent::HolidayRemoved => {
                sqlx::query(
                    "delete from holiday where holiday_id = $1 and business_id = navalha_event_business()",
                )
                .bind(id)
                .execute(conn)
                .await?;
            }
        }
        Ok(())
    }
}

async fn upsert(conn: &mut PgConnection, id: i64, details: &HolidayDetails) -> anyhow::Result<()> {
    sqlx::query(
        "insert into holiday (holiday_id, description, start_date, end_date, all_day, start_time, end_time,
                              all_companies, search)
         values ($1, $2, $3, $4, $5, $6::time, $7::time, $8, lower(public.unaccent($2)))
         on conflict (holiday_id) do update
            set description = excluded.description, start_date = excluded.start_date,
                end_date = excluded.end_date, all_day = excluded.all_day, start_time = excluded.start_time,
                end_time = excluded.end_time, all_companies = excluded.all_companies, search = excluded.search",
    )
    .bind(id)
    .bind(&details.description)
    .bind(details.start_date)
    .bind(details.end_date)
    .bind(details.all_day)
    .bind(details.start_time.map(|t| t.to_string()))
    .bind(details.end_time.map(|t| t.to_string()))
    .bind(details.all_companies)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "delete from holiday_company where holiday_id = $1 and business_id = navalha_event_business()",
    )
    .bind(id)
    .execute(&mut *conn)
    .await?;
    sqlx::query("insert into holiday_company (holiday_id, company_id) select $1, unnest($2::bigint[])")
        .bind(id)
        .bind(&details.company_ids)
        .execute(conn)
        .await?;
    Ok(())
}
