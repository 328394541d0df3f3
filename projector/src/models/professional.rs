//! `professional`: professionals with their units, weekly hours and offered services, and
//! the service catalogue, for the professionals list and detail, my-profile and the agenda.

use async_trait::async_trait;
use navalha_domain::professional::{Employment, PersonalData, Professional, ProfessionalEvent};
use navalha_domain::service::{Service, ServiceEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_professional`.
pub struct Professionals;

async fn set_personal(conn: &mut PgConnection, id: i64, personal: &PersonalData) -> anyhow::Result<()> {
    sqlx::query(
        "update professional
            set name = $2, cpf = $3, email = $4, phone = $5, whatsapp = $6, birth_date = $7, address = $8,
                search = lower(public.unaccent($2 || ' ' || $4 || ' ' || $5 || ' ' || $3))
          where professional_id = $1",
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
    sqlx::query("update professional set color = $2, role_id = $3, status = $4 where professional_id = $1")
        .bind(id)
        .bind(&employment.color)
        .bind(employment.role.id() as i16)
        .bind(employment.status)
        .execute(&mut *conn)
        .await?;
    sqlx::query("delete from membership where professional_id = $1").bind(id).execute(&mut *conn).await?;
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
    fn name(&self) -> &'static str {
        "professional"
    }

    fn schema_sql(&self) -> &'static str {
        "create table professional (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint primary key,
             name            text     not null default '',
             cpf             text     not null default '',
             email           text     not null default '',
             phone           text     not null default '',
             whatsapp        boolean  not null default false,
             birth_date      date,
             address         jsonb    not null default '{}',
             color           text     not null default '',
             role_id         smallint not null default 6,
             status          smallint not null default 0,
             -- lower(unaccent(name email phone cpf)), for contains-search with a trigram index
             search          text     not null default ''
         );
         create index professional_search on professional using gin (search public.gin_trgm_ops);
         -- IdCompanyProfessional: a professional in a unit; position 0 is their own unit.
         create table membership (
             business_id bigint not null default public.navalha_event_business(),
             membership_id   bigint  primary key,
             professional_id bigint  not null,
             company_id      bigint  not null,
             position        integer not null
         );
         create index membership_company on membership (company_id, professional_id);
         create index membership_professional on membership (professional_id, position);
         -- Weekly hours: one row per working weekday (0 = Sunday), periods as [{start, end}].
         create table working_day (
             business_id bigint not null default public.navalha_event_business(),
             professional_id bigint   not null,
             week_day        smallint not null,
             periods         jsonb    not null,
             primary key (professional_id, week_day)
         );
         create table catalogue_service (
             business_id bigint not null default public.navalha_event_business(),
             service_id      bigint  primary key,
             description     text    not null,
             default_cents   bigint  not null,
             default_minutes integer not null,
             active          boolean not null
         );
         -- IdCompanyProfessionalService: a service as one professional performs it.
         create table offered_service (
             business_id bigint not null default public.navalha_event_business(),
             offered_id      bigint  primary key,
             professional_id bigint  not null,
             service_id      bigint  not null,
             minutes         integer not null,
             cents           bigint  not null,
             combo           boolean not null,
             active          boolean not null
         );
         create index offered_service_professional on offered_service (professional_id, offered_id);"
    }

    fn aggregate_types(&self) -> &'static [&'static str] {
        &[Professional::TYPE, Service::TYPE]
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        if event.aggregate_type == Service::TYPE {
            let ServiceEvent::ServiceCreated(entry) = event.decode::<ServiceEvent>()?;
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
                sqlx::query("delete from working_day where professional_id = $1 and week_day = $2")
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
            ProfessionalEvent::ServiceAdded(service) | ProfessionalEvent::ServiceChanged(service) => {
                sqlx::query(
                    "insert into offered_service (offered_id, professional_id, service_id, minutes, cents, combo, active)
                     values ($1, $2, $3, $4, $5, $6, $7)
                     on conflict (offered_id) do update
                        set service_id = excluded.service_id, minutes = excluded.minutes, cents = excluded.cents,
                            combo = excluded.combo, active = excluded.active",
                )
                .bind(service.id)
                .bind(id)
                .bind(service.service_id)
                .bind(service.minutes as i32)
                .bind(service.cents)
                .bind(service.combo)
                .bind(service.active)
                .execute(conn)
                .await?;
            }
        }
        Ok(())
    }
}
