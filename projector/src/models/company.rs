//! `company`: the units, their opening hours and galleries, for the companies list and
//! form, the session's company picker and the agenda; and the business they belong to, with
//! its standing with Navalha (the 'Pagamento pendente !' notice).

use async_trait::async_trait;
use navalha_domain::business::{Business, BusinessEvent};
use navalha_domain::company::{CompanyEvent, CompanyProfile};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, ReadModel};

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_company`.
pub struct CompanyList;

async fn upsert(conn: &mut PgConnection, company_id: i64, profile: &CompanyProfile) -> anyhow::Result<()> {
    sqlx::query(
        "insert into company (company_id, name, cnpj, email, phone, whatsapp, status, city, state, time_zone, profile, search)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
                 lower(public.unaccent($2 || ' ' || $5 || ' ' || $3)))
         on conflict (company_id) do update
            set name = excluded.name, cnpj = excluded.cnpj, email = excluded.email, phone = excluded.phone,
                whatsapp = excluded.whatsapp, status = excluded.status, city = excluded.city,
                state = excluded.state, time_zone = excluded.time_zone, profile = excluded.profile,
                search = excluded.search",
    )
    .bind(company_id)
    .bind(&profile.name)
    .bind(&profile.cnpj)
    .bind(&profile.email)
    .bind(&profile.phone)
    .bind(profile.whatsapp)
    .bind(profile.status)
    .bind(&profile.address.city)
    .bind(&profile.address.state)
    .bind(&profile.time_zone)
    .bind(serde_json::to_value(profile)?)
    .execute(conn)
    .await?;
    Ok(())
}

#[async_trait]
impl Projection for CompanyList {
    fn model(&self) -> &'static ReadModel {
        &read_models::COMPANY
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        if event.aggregate_type == Business::TYPE {
            return apply_business(conn, event).await;
        }
        let company_id = event.numeric_id()?;
        match event.decode::<CompanyEvent>()? {
            CompanyEvent::CompanyRegistered(profile) | CompanyEvent::CompanyUpdated(profile) => {
                upsert(conn, company_id, &profile).await?;
            }
            CompanyEvent::CompanyDaySet { week_day, period } => {
                sqlx::query("delete from company_day where company_id = $1 and week_day = $2 and business_id = navalha_event_business()")
                    .bind(company_id)
                    .bind(i16::from(week_day))
                    .execute(&mut *conn)
                    .await?;
                if let Some(period) = period {
                    sqlx::query(
                        "insert into company_day (company_id, week_day, start_time, end_time) values ($1, $2, $3, $4)",
                    )
                    .bind(company_id)
                    .bind(i16::from(week_day))
                    .bind(period.start.to_string())
                    .bind(period.end.to_string())
                    .execute(conn)
                    .await?;
                }
            }
            CompanyEvent::GallerySaved { images } => {
                sqlx::query("delete from gallery_image where company_id = $1 and business_id = navalha_event_business()")
                    .bind(company_id)
                    .execute(&mut *conn)
                    .await?;
                for (sequence, image) in images.iter().enumerate() {
                    sqlx::query(
                        "insert into gallery_image (image_id, company_id, sequence, file) values ($1, $2, $3, $4)",
                    )
                    .bind(image.id)
                    .bind(company_id)
                    .bind(sequence as i32 + 1)
                    .bind(&image.file)
                    .execute(&mut *conn)
                    .await?;
                }
            }
        }
        Ok(())
    }
}

async fn apply_business(conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
    let business_id = event.numeric_id()?;
    match event.decode::<BusinessEvent>()? {
        BusinessEvent::BusinessOpened { name } => {
            sqlx::query("insert into business (business_id, name) values ($1, $2) on conflict (business_id) do nothing")
                .bind(business_id)
                .bind(name)
                .execute(conn)
                .await?;
        }
        BusinessEvent::BusinessBillingChanged { status } => {
            sqlx::query("update business set billing_status = $2 where business_id = $1")
                .bind(business_id)
                .bind(status.code())
                .execute(conn)
                .await?;
        }
    }
    Ok(())
}
