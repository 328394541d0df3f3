//! `company`: the units, for lists and the session's company picker.

use async_trait::async_trait;
use navalha_domain::company::{Company, CompanyEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_company.company`.
pub struct CompanyList;

#[async_trait]
impl Projection for CompanyList {
    fn name(&self) -> &'static str {
        "company"
    }

    fn schema_sql(&self) -> &'static str {
        "create table company (
             company_id  bigint primary key,
             name        text    not null,
             cnpj        text    not null,
             email       text    not null,
             phone       text    not null,
             whatsapp    boolean not null,
             status      boolean not null,
             city        text    not null,
             state       text    not null,
             time_zone   text    not null,
             profile     jsonb   not null
         );"
    }

    fn aggregate_types(&self) -> &'static [&'static str] {
        &[Company::TYPE]
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let company_id = event.numeric_id()?;
        match event.decode::<CompanyEvent>()? {
            CompanyEvent::CompanyRegistered(profile) => {
                sqlx::query(
                    "insert into company (company_id, name, cnpj, email, phone, whatsapp, status, city, state, time_zone, profile)
                     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
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
                .bind(serde_json::to_value(&profile)?)
                .execute(conn)
                .await?;
            }
        }
        Ok(())
    }
}
