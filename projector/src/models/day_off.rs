//! `day_off`: each professional's days off and vacations, newest first, and the units of
//! each professional so that query-api can tell who may read them.

use async_trait::async_trait;
use navalha_domain::day_off::{DayOff, DayOffDetails, DayOffEvent};
use navalha_domain::professional::{Professional, ProfessionalEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_day_off.day_off` and `rm_day_off.professional`.
pub struct DaysOff;

#[async_trait]
impl Projection for DaysOff {
    fn name(&self) -> &'static str {
        "day_off"
    }

    fn schema_sql(&self) -> &'static str {
        "create table day_off (
             business_id bigint not null default public.navalha_event_business(),
             day_off_id      bigint  primary key,
             professional_id bigint  not null,
             description     text    not null,
             date_start      date    not null,
             date_end        date    not null,
             all_day         boolean not null,
             -- null when all_day
             start_time      time,
             end_time        time
         );
         create index day_off_professional on day_off (professional_id, date_start desc, day_off_id desc);
         -- the units of every professional: who may read whose days off
         create table professional (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint   primary key,
             companies       bigint[] not null
         );"
    }

    fn aggregate_types(&self) -> &'static [&'static str] {
        &[DayOff::TYPE, Professional::TYPE]
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        if event.aggregate_type == Professional::TYPE {
            let employment = match event.decode::<ProfessionalEvent>()? {
                ProfessionalEvent::ProfessionalRegistered { employment, .. }
                | ProfessionalEvent::EmploymentChanged(employment) => employment,
                ProfessionalEvent::PersonalDataChanged(_)
                | ProfessionalEvent::WorkingDaySet { .. }
                | ProfessionalEvent::ServiceAdded(_)
                | ProfessionalEvent::ServiceChanged(_) => return Ok(()),
            };
            sqlx::query(
                "insert into professional (professional_id, companies) values ($1, $2)
                 on conflict (professional_id) do update set companies = excluded.companies",
            )
            .bind(id)
            .bind(employment.company_ids())
            .execute(conn)
            .await?;
            return Ok(());
        }
        match event.decode::<DayOffEvent>()? {
            DayOffEvent::DayOffScheduled(details) | DayOffEvent::DayOffChanged(details) => {
                upsert(conn, id, &details).await?;
            }
            // The list shows what is planned; the audit replays the stream for the rest.
            DayOffEvent::DayOffRemoved => {
                sqlx::query("delete from day_off where day_off_id = $1").bind(id).execute(conn).await?;
            }
        }
        Ok(())
    }
}

async fn upsert(conn: &mut PgConnection, id: i64, details: &DayOffDetails) -> anyhow::Result<()> {
    sqlx::query(
        "insert into day_off (day_off_id, professional_id, description, date_start, date_end, all_day, start_time, end_time)
         values ($1, $2, $3, $4, $5, $6, $7::time, $8::time)
         on conflict (day_off_id) do update
            set professional_id = excluded.professional_id, description = excluded.description,
                date_start = excluded.date_start, date_end = excluded.date_end, all_day = excluded.all_day,
                start_time = excluded.start_time, end_time = excluded.end_time",
    )
    .bind(id)
    .bind(details.professional_id)
    .bind(&details.description)
    .bind(details.date_start)
    .bind(details.date_end)
    .bind(details.all_day)
    .bind(details.start_time.map(|t| t.to_string()))
    .bind(details.end_time.map(|t| t.to_string()))
    .execute(conn)
    .await?;
    Ok(())
}
