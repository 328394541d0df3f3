//! `day_off`: each professional's days off and vacations, newest first, and the units of
//! each professional so that query-api can tell who may read them.

use async_trait::async_trait;
use navalha_domain::day_off::{DayOffDetails, DayOffEvent};
use navalha_domain::professional::{Professional, ProfessionalEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, ReadModel};

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_day_off.day_off` and `rm_day_off.professional`.
pub struct DaysOff;

#[async_trait]
impl Projection for DaysOff {
    fn model(&self) -> &'static ReadModel {
        &read_models::DAY_OFF
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
                | ProfessionalEvent::ServiceChanged(_)
                | ProfessionalEvent::CommissionRatesSet(_) => return Ok(()),
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
                sqlx::query(
                    "delete from day_off where day_off_id = $1 and business_id = navalha_event_business()",
                )
                .bind(id)
                .execute(conn)
                .await?;
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
