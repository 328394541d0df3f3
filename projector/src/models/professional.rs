//! `professional`: professionals with their units, weekly hours and offered services, and
//! the service catalogue, for the professionals list and detail, my-profile and the agenda.
//!
//! Folded (issue 46): a shop's set-up is mostly these events (a professional's hours, one
//! event a weekday, and each service they offer), so with thousands of small shops applying
//! them one statement each made this model the slowest of a rebuild.

use std::collections::BTreeMap;

use async_trait::async_trait;
use navalha_domain::professional::{Employment, OfferedService, PersonalData, ProfessionalEvent};
use navalha_domain::service::{CatalogueEntry, Service, ServiceEvent};
use navalha_domain::Aggregate as _;
use serde_json::Value;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, ReadModel};

use crate::engine::{Fold, Projection, Tables};
use crate::event::StoredEvent;

/// Builds `rm_professional`.
pub struct Professionals;

#[async_trait]
impl Projection for Professionals {
    fn model(&self) -> &'static ReadModel {
        &read_models::PROFESSIONAL
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<ProfessionalFold>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

/// What a run of the model's events leaves: the professionals registered, then each one's
/// latest personal data, employment and commission rates, each weekday's latest hours, each
/// offered service's latest terms, and the catalogue's new services.
#[derive(Default)]
struct ProfessionalFold {
    registered: Vec<i64>,
    personal: BTreeMap<i64, PersonalData>,
    employment: BTreeMap<i64, Employment>,
    commission: BTreeMap<i64, Value>,
    /// By (professional, weekday); empty periods are a day off, a deleted row.
    working: BTreeMap<(i64, i16), Value>,
    /// By offered id: the professional who first offered it (a change keeps it), the terms.
    offered: BTreeMap<i64, (i64, OfferedService)>,
    catalogue: Vec<(i64, CatalogueEntry)>,
}

#[async_trait]
impl Fold for ProfessionalFold {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        if event.aggregate_type == Service::TYPE {
            // What a service uses is the product model's (issue 43).
            if let ServiceEvent::ServiceCreated(entry) = event.decode::<ServiceEvent>()? {
                self.catalogue.push((id, entry));
            }
            return Ok(());
        }
        match event.decode::<ProfessionalEvent>()? {
            ProfessionalEvent::ProfessionalRegistered { personal, employment } => {
                self.registered.push(id);
                self.personal.insert(id, personal);
                self.employment.insert(id, employment);
            }
            ProfessionalEvent::PersonalDataChanged(personal) => {
                self.personal.insert(id, personal);
            }
            ProfessionalEvent::EmploymentChanged(employment) => {
                self.employment.insert(id, employment);
            }
            ProfessionalEvent::WorkingDaySet { week_day, periods } => {
                self.working.insert((id, i16::from(week_day)), serde_json::to_value(&periods)?);
            }
            ProfessionalEvent::CommissionRatesSet(rates) => {
                self.commission.insert(id, serde_json::to_value(&rates)?);
            }
            ProfessionalEvent::ServiceAdded(service) | ProfessionalEvent::ServiceChanged(service) => {
                self.offered
                    .entry(service.id)
                    .and_modify(|(_, terms)| *terms = service)
                    .or_insert((id, service));
            }
        }
        Ok(())
    }

    /// A statement per table, over the rows already there: an update of a professional
    /// never registered changes nothing, as it did event by event.
    async fn write(self: Box<Self>, conn: &mut PgConnection, _: Tables) -> anyhow::Result<()> {
        let fold = *self;
        if !fold.registered.is_empty() {
            sqlx::query("insert into professional (professional_id) select unnest($1::bigint[])")
                .bind(&fold.registered)
                .execute(&mut *conn)
                .await?;
        }
        fold.write_personal(conn).await?;
        fold.write_employment(conn).await?;
        if !fold.commission.is_empty() {
            let (ids, rates): (Vec<i64>, Vec<Value>) = fold.commission.into_iter().unzip();
            sqlx::query(
                "update professional p set commission = u.rates
                   from unnest($1::bigint[], $2::jsonb[]) u (professional_id, rates)
                  where p.professional_id = u.professional_id and p.business_id = navalha_event_business()",
            )
            .bind(ids)
            .bind(rates)
            .execute(&mut *conn)
            .await?;
        }
        if !fold.working.is_empty() {
            let (ids, days): (Vec<i64>, Vec<i16>) = fold.working.keys().copied().unzip();
            sqlx::query(
                "delete from working_day w using unnest($1::bigint[], $2::smallint[]) u (professional_id, week_day)
                  where w.professional_id = u.professional_id and w.week_day = u.week_day
                    and w.business_id = navalha_event_business()",
            )
            .bind(&ids)
            .bind(&days)
            .execute(&mut *conn)
            .await?;
            let working: Vec<_> =
                fold.working.into_iter().filter(|(_, periods)| !is_day_off(periods)).collect();
            sqlx::query(
                "insert into working_day (professional_id, week_day, periods)
                 select * from unnest($1::bigint[], $2::smallint[], $3::jsonb[])",
            )
            .bind(working.iter().map(|((id, _), _)| *id).collect::<Vec<_>>())
            .bind(working.iter().map(|((_, day), _)| *day).collect::<Vec<_>>())
            .bind(working.into_iter().map(|(_, periods)| periods).collect::<Vec<_>>())
            .execute(&mut *conn)
            .await?;
        }
        if !fold.offered.is_empty() {
            let offered: Vec<(i64, OfferedService)> = fold.offered.into_values().collect();
            let terms =
                |get: fn(&OfferedService) -> i64| offered.iter().map(|(_, s)| get(s)).collect::<Vec<_>>();
            sqlx::query(
                "insert into offered_service (offered_id, professional_id, service_id, minutes, cents, combo, active,
                                              interval_after)
                 select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[], $5::bigint[], $6::boolean[],
                                      $7::boolean[], $8::int[])
                 on conflict (offered_id) do update
                    set service_id = excluded.service_id, minutes = excluded.minutes, cents = excluded.cents,
                        combo = excluded.combo, active = excluded.active, interval_after = excluded.interval_after",
            )
            .bind(terms(|s| s.id))
            .bind(offered.iter().map(|(professional, _)| *professional).collect::<Vec<_>>())
            .bind(terms(|s| s.service_id))
            .bind(offered.iter().map(|(_, s)| s.minutes as i32).collect::<Vec<_>>())
            .bind(terms(|s| s.cents))
            .bind(offered.iter().map(|(_, s)| s.combo).collect::<Vec<_>>())
            .bind(offered.iter().map(|(_, s)| s.active).collect::<Vec<_>>())
            .bind(offered.iter().map(|(_, s)| s.interval_after as i32).collect::<Vec<_>>())
            .execute(&mut *conn)
            .await?;
        }
        if !fold.catalogue.is_empty() {
            let entries = &fold.catalogue;
            sqlx::query(
                "insert into catalogue_service (service_id, description, default_cents, default_minutes, active)
                 select * from unnest($1::bigint[], $2::text[], $3::bigint[], $4::int[], $5::boolean[])",
            )
            .bind(entries.iter().map(|(id, _)| *id).collect::<Vec<_>>())
            .bind(entries.iter().map(|(_, e)| e.description.clone()).collect::<Vec<_>>())
            .bind(entries.iter().map(|(_, e)| e.default_cents).collect::<Vec<_>>())
            .bind(entries.iter().map(|(_, e)| e.default_minutes as i32).collect::<Vec<_>>())
            .bind(entries.iter().map(|(_, e)| e.active).collect::<Vec<_>>())
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    }
}

impl ProfessionalFold {
    async fn write_personal(&self, conn: &mut PgConnection) -> anyhow::Result<()> {
        if self.personal.is_empty() {
            return Ok(());
        }
        let people: Vec<(&i64, &PersonalData)> = self.personal.iter().collect();
        let text = |get: fn(&PersonalData) -> &String| {
            people.iter().map(|(_, p)| get(p).clone()).collect::<Vec<_>>()
        };
        let addresses: Vec<Value> =
            people.iter().map(|(_, p)| serde_json::to_value(&p.address)).collect::<Result<_, _>>()?;
        sqlx::query(
            "update professional p
                set name = u.name, cpf = u.cpf, email = u.email, phone = u.phone, whatsapp = u.whatsapp,
                    birth_date = u.birth_date, address = u.address,
                    search = lower(public.unaccent(u.name || ' ' || u.email || ' ' || u.phone || ' ' || u.cpf))
               from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::date[],
                           $8::jsonb[]) u (professional_id, name, cpf, email, phone, whatsapp, birth_date, address)
              where p.professional_id = u.professional_id and p.business_id = navalha_event_business()",
        )
        .bind(people.iter().map(|(id, _)| **id).collect::<Vec<_>>())
        .bind(text(|p| &p.name))
        .bind(text(|p| &p.cpf))
        .bind(text(|p| &p.email))
        .bind(text(|p| &p.phone))
        .bind(people.iter().map(|(_, p)| p.whatsapp).collect::<Vec<_>>())
        .bind(people.iter().map(|(_, p)| p.birth_date).collect::<Vec<_>>())
        .bind(addresses)
        .execute(conn)
        .await?;
        Ok(())
    }

    /// Colour, role and status, and the units in order (a professional's memberships are
    /// replaced by their latest employment's).
    async fn write_employment(&self, conn: &mut PgConnection) -> anyhow::Result<()> {
        if self.employment.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = self.employment.keys().copied().collect();
        let jobs: Vec<&Employment> = self.employment.values().collect();
        sqlx::query(
            "update professional p set color = u.color, role_id = u.role_id, status = u.status
               from unnest($1::bigint[], $2::text[], $3::smallint[], $4::smallint[]) u (professional_id, color, role_id, status)
              where p.professional_id = u.professional_id and p.business_id = navalha_event_business()",
        )
        .bind(&ids)
        .bind(jobs.iter().map(|job| job.color.clone()).collect::<Vec<_>>())
        .bind(jobs.iter().map(|job| job.role.id() as i16).collect::<Vec<_>>())
        .bind(jobs.iter().map(|job| job.status).collect::<Vec<_>>())
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "delete from membership where professional_id = any($1) and business_id = navalha_event_business()",
        )
        .bind(&ids)
        .execute(&mut *conn)
        .await?;
        let memberships: Vec<(i64, usize, i64, i64)> = self
            .employment
            .iter()
            .flat_map(|(id, job)| {
                job.memberships.iter().enumerate().map(|(at, m)| (*id, at, m.id, m.company_id))
            })
            .collect();
        sqlx::query(
            "insert into membership (membership_id, professional_id, company_id, position)
             select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[])",
        )
        .bind(memberships.iter().map(|m| m.2).collect::<Vec<_>>())
        .bind(memberships.iter().map(|m| m.0).collect::<Vec<_>>())
        .bind(memberships.iter().map(|m| m.3).collect::<Vec<_>>())
        .bind(memberships.iter().map(|m| m.1 as i32).collect::<Vec<_>>())
        .execute(conn)
        .await?;
        Ok(())
    }
}

/// Empty periods: the weekday is off (no row).
fn is_day_off(periods: &Value) -> bool {
    periods.as_array().is_some_and(Vec::is_empty)
}
