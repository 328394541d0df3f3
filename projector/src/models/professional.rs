//! `professional`: professionals with their units, weekly hours and offered services, and
//! the service catalogue, for the professionals list and detail, my-profile and the agenda.

use async_trait::async_trait;
use navalha_domain::professional::{Employment, PersonalData, ProfessionalEvent};
use navalha_domain::service::{Service, ServiceEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, ReadModel};

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_professional`.
pub struct Professionals;

async fn set_personal(conn: &mut PgConnection, id: i64, personal: &PersonalData) -> anyhow::Result<()> {
    sqlx::query(
        "update professional
            set name = $2, cpf = $3, email = $4, phone = $5, whatsapp = $6, birth_date = $7, address = $8,
                search = lower(public.unaccent($2 || ' ' || $4 || ' ' || $5 || ' ' || $3))
          where professional_id = $1 and business_id = navalha_event_business()",
    )
    .bind(id)
    .bind(&personal.name)
    .bind(&personal.cpf)
    .bind(&personal.email)
    .bind(&personal.phone)
    .bind(personal.whatsapp)
    .bind(personal.birth_date)
    .bind(serde_json::to_value(&personal.address)?)
    .execute(conn)
    .await?;
    Ok(())
}

async fn set_employment(conn: &mut PgConnection, id: i64, employment: &Employment) -> anyhow::Result<()> {
    sqlx::query("update professional set color = $2, role_id = $3, status = $4 where professional_id = $1 and business_id = navalha_event_business()")
        .bind(id)
        .bind(&employment.color)
        .bind(employment.role.id() as i16)
        .bind(employment.status)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "delete from membership where professional_id = $1 and business_id = navalha_event_business()",
    )
    .bind(id)
    .execute(&mut *conn)
    .await?;
    for (position, membership) in employment.memberships.iter().enumerate() {
        sqlx::query(
            "insert into membership (membership_id, professional_id, company_id, position) values ($1, $2, $3, $4)",
        )
        .bind(membership.id)
        .bind(id)
        .bind(membership.company_id)
        .bind(position as i32)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

#[async_trait]
impl Projection for Professionals {
    fn model(&self) -> &'static ReadModel {
        &read_models::PROFESSIONAL
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        if event.aggregate_type == Service::TYPE {
            // What a service uses is the product model's (issue 43).
            let ServiceEvent::ServiceCreated(entry) = event.decode::<ServiceEvent>()? else {
                return Ok(());
            };
            sqlx::query(
                "insert into catalogue_service (service_id, description, default_cents, default_minutes, active)
                 values ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(&entry.description)
            .bind(entry.default_cents)
            .bind(entry.default_minutes as i32)
            .bind(entry.active)
            .execute(conn)
            .await?;
            return Ok(());
        }
        match event.decode::<ProfessionalEvent>()? {
            ProfessionalEvent::ProfessionalRegistered { personal, employment } => {
                sqlx::query("insert into professional (professional_id) values ($1)")
                    .bind(id)
                    .execute(&mut *conn)
                    .await?;
                set_personal(conn, id, &personal).await?;
                set_employment(conn, id, &employment).await?;
            }
            ProfessionalEvent::PersonalDataChanged(personal) => set_personal(conn, id, &personal).await?,
            ProfessionalEvent::EmploymentChanged(employment) => set_employment(conn, id, &employment).await?,
            ProfessionalEvent::WorkingDaySet { week_day, periods } => {
                sqlx::query("delete from working_day where professional_id = $1 and week_day = $2 and business_id = navalha_event_business()")
                    .bind(id)
                    .bind(i16::from(week_day))
                    .execute(&mut *conn)
                    .await?;
                if !periods.is_empty() {
                    sqlx::query(
                        "insert into working_day (professional_id, week_day, periods) values ($1, $2, $3)",
                    )
                    .bind(id)
                    .bind(i16::from(week_day))
                    .bind(serde_json::to_value(&periods)?)
                    .execute(conn)
                    .await?;
                }
            }
            ProfessionalEvent::CommissionRatesSet(rates) => {
                sqlx::query("update professional set commission = $2 where professional_id = $1 and business_id = navalha_event_business()")
                    .bind(id)
                    .bind(serde_json::to_value(&rates)?)
                    .execute(conn)
                    .await?;
            }
            ProfessionalEvent::ServiceAdded(service) | ProfessionalEvent::ServiceChanged(service) => {
                sqlx::query(
                    "insert into offered_service (offered_id, professional_id, service_id, minutes, cents, combo, active,
                                                  interval_after)
                     values ($1, $2, $3, $4, $5, $6, $7, $8)
                     on conflict (offered_id) do update
                        set service_id = excluded.service_id, minutes = excluded.minutes, cents = excluded.cents,
                            combo = excluded.combo, active = excluded.active, interval_after = excluded.interval_after",
                )
                .bind(service.id)
                .bind(id)
                .bind(service.service_id)
                .bind(service.minutes as i32)
                .bind(service.cents)
                .bind(service.combo)
                .bind(service.active)
                .bind(service.interval_after as i32)
                .execute(conn)
                .await?;
            }
        }
        Ok(())
    }
}
