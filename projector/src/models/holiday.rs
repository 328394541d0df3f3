//! `holiday`: the holidays list and form, searchable by description ignoring accents and
//! case. Unit names are read from `rm_company` at query time, so a renamed unit shows its
//! new name without replaying holidays.

use async_trait::async_trait;
use navalha_domain::holiday::{Holiday, HolidayDetails, HolidayEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_holiday.holiday` and `rm_holiday.holiday_company`.
pub struct Holidays;

#[async_trait]
impl Projection for Holidays {
    fn name(&self) -> &'static str {
        "holiday"
    }

    fn schema_sql(&self) -> &'static str {
        "create table holiday (
             business_id bigint not null default public.navalha_event_business(),
             holiday_id    bigint  primary key,
             description   text    not null,
             start_date    date    not null,
             end_date      date    not null,
             all_day       boolean not null,
             -- null when all_day
             start_time    time,
             end_time      time,
             all_companies boolean not null,
             -- lower(unaccent(description)), for contains-search with a trigram index
             search        text    not null
         );
         create index holiday_search on holiday using gin (search public.gin_trgm_ops);
         create index holiday_order on holiday (start_date desc, holiday_id desc);
         create table holiday_company (
             business_id bigint not null default public.navalha_event_business(),
             holiday_id bigint not null references holiday on delete cascade,
             company_id bigint not null,
             primary key (holiday_id, company_id)
         );
         create index holiday_company_company on holiday_company (company_id);"
    }

    fn aggregate_types(&self) -> &'static [&'static str] {
        &[Holiday::TYPE]
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        match event.decode::<HolidayEvent>()? {
            HolidayEvent::HolidayCreated(details) | HolidayEvent::HolidayChanged(details) => {
                upsert(conn, id, &details).await?;
            }
            HolidayEvent::HolidayRemoved => {
                sqlx::query("delete from holiday where holiday_id = $1").bind(id).execute(conn).await?;
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
    sqlx::query("delete from holiday_company where holiday_id = $1").bind(id).execute(&mut *conn).await?;
    sqlx::query("insert into holiday_company (holiday_id, company_id) select $1, unnest($2::bigint[])")
        .bind(id)
        .bind(&details.company_ids)
        .execute(conn)
        .await?;
    Ok(())
}
