//! `club`: plans, their services, partner companies and subscriptions, for the plans and
//! subscribers screens.
//!
//! Plans and subscriptions keep their whole aggregate state (`state`, the domain's own
//! fold, so read and write sides agree on what a report means) next to the columns the
//! lists filter and sort by. Those states are versioned (`STATE_VERSION`, see
//! [`ReadModel::stored_states`]): a new shape rebuilds the model.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use async_trait::async_trait;
use navalha_domain::partner_company::{PartnerCompany, PartnerCompanyEvent};
use navalha_domain::plan::{Plan, PlanDetails, PlanService};
use navalha_domain::subscription::{Subscription, SubscriptionDetails};
use navalha_domain::Aggregate;
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, ReadModel};

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_club.*`.
pub struct Club;

#[async_trait]
impl Projection for Club {
    fn model(&self) -> &'static ReadModel {
        &read_models::CLUB
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }

    /// Folds the batch per plan, subscription and partner company in memory, over the
    /// states already stored, and writes each table once.
    async fn apply_all(&self, conn: &mut PgConnection, events: &[StoredEvent]) -> anyhow::Result<()> {
        let mut fold = Fold::default();
        let ids_of = |aggregate_type: &str| -> anyhow::Result<Vec<i64>> {
            events
                .iter()
                .filter(|e| e.aggregate_type == aggregate_type)
                .map(StoredEvent::numeric_id)
                .collect()
        };
        fold.plans = stored(
            &mut *conn,
            "select plan_id, state from plan where plan_id = any($1) and business_id = navalha_event_business()",
            &ids_of(Plan::TYPE)?,
        )
        .await?;
        fold.subscriptions = stored(
            &mut *conn,
            "select subscription_id, state from subscription where subscription_id = any($1) and business_id = navalha_event_business()",
            &ids_of(Subscription::TYPE)?,
        )
        .await?;
        for event in events {
            let id = event.numeric_id()?;
            match event.aggregate_type.as_str() {
                t if t == Plan::TYPE => {
                    fold.plans.entry(id).or_default().apply(event.decode()?);
                    fold.touched_plans.insert(id);
                }
                t if t == Subscription::TYPE => {
                    fold.subscriptions.entry(id).or_default().apply(event.decode()?);
                    fold.touched_subscriptions.insert(id);
                }
                t if t == PartnerCompany::TYPE => {
                    let PartnerCompanyEvent::PartnerCompanyRegistered { name } = event.decode()?;
                    fold.partners.insert(id, name);
                }
                _ => {}
            }
        }
        fold.write(conn).await
    }
}

/// The stored states of these aggregates, by id.
async fn stored<T: serde::de::DeserializeOwned>(
    conn: &mut PgConnection,
    sql: &str,
    ids: &[i64],
) -> anyhow::Result<HashMap<i64, T>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(i64, serde_json::Value)> = sqlx::query_as(sql).bind(ids).fetch_all(conn).await?;
    rows.into_iter().map(|(id, state)| Ok((id, serde_json::from_value(state)?))).collect()
}

/// What a batch did to the club: the plans' and subscriptions' states (those it touched,
/// over the stored ones) and the partner companies' last names.
#[derive(Default)]
struct Fold {
    plans: HashMap<i64, Plan>,
    touched_plans: BTreeSet<i64>,
    subscriptions: HashMap<i64, Subscription>,
    touched_subscriptions: BTreeSet<i64>,
    partners: BTreeMap<i64, String>,
}

impl Fold {
    /// One multi-row statement per table. A plan or subscription not created yet (no
    /// details) is not written, as event by event.
    async fn write(self, conn: &mut PgConnection) -> anyhow::Result<()> {
        let plans: Vec<(i64, &Plan, &PlanDetails)> = self
            .touched_plans
            .iter()
            .filter_map(|id| self.plans.get(id).and_then(|plan| plan.details().map(|d| (*id, plan, d))))
            .collect();
        if !plans.is_empty() {
            write_plans(&mut *conn, &plans).await?;
        }
        let subscriptions: Vec<(i64, &Subscription, &SubscriptionDetails)> = self
            .touched_subscriptions
            .iter()
            .filter_map(|id| self.subscriptions.get(id).and_then(|s| s.details().map(|d| (*id, s, d))))
            // A checkout attempt whose first card charge was denied is no subscriber.
            .filter(|(_, s, _)| !s.first_charge_denied())
            .collect();
        if !subscriptions.is_empty() {
            write_subscriptions(&mut *conn, &subscriptions).await?;
        }
        if !self.partners.is_empty() {
            let (ids, names): (Vec<i64>, Vec<String>) = self.partners.into_iter().unzip();
            sqlx::query(
                "insert into partner_company (partner_company_id, name)
                 select * from unnest($1::bigint[], $2::text[])
                 on conflict (partner_company_id) do update set name = excluded.name",
            )
            .bind(ids)
            .bind(names)
            .execute(conn)
            .await?;
        }
        Ok(())
    }
}

async fn write_plans(conn: &mut PgConnection, plans: &[(i64, &Plan, &PlanDetails)]) -> anyhow::Result<()> {
    let ids: Vec<i64> = plans.iter().map(|(id, ..)| *id).collect();
    let states =
        plans.iter().map(|(_, plan, _)| serde_json::to_value(plan)).collect::<Result<Vec<_>, _>>()?;
    let text = |get: fn(&PlanDetails) -> String| plans.iter().map(|(.., d)| get(d)).collect::<Vec<_>>();
    sqlx::query(
        "insert into plan (plan_id, plan_name, description, value_cents, active, payment_method, search, state)
         select u.plan_id, u.plan_name, u.description, u.value_cents, u.active, u.payment_method,
                lower(public.unaccent(u.plan_name || ' ' || u.description)), u.state
           from unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::boolean[], $6::text[], $7::jsonb[])
                as u (plan_id, plan_name, description, value_cents, active, payment_method, state)
         on conflict (plan_id) do update
            set plan_name = excluded.plan_name, description = excluded.description,
                value_cents = excluded.value_cents, active = excluded.active,
                payment_method = excluded.payment_method, search = excluded.search, state = excluded.state",
    )
    .bind(&ids)
    .bind(text(|d| d.plan_name.clone()))
    .bind(text(|d| d.description.clone()))
    .bind(plans.iter().map(|(.., d)| d.value_cents).collect::<Vec<_>>())
    .bind(plans.iter().map(|(.., d)| d.active).collect::<Vec<_>>())
    .bind(text(|d| d.payment_method.code().to_owned()))
    .bind(states)
    .execute(&mut *conn)
    .await?;
    // Each written plan's services are replaced by its current ones.
    sqlx::query(
        "delete from plan_service where plan_id = any($1) and business_id = navalha_event_business()",
    )
    .bind(&ids)
    .execute(&mut *conn)
    .await?;
    let services: Vec<(i64, &PlanService)> =
        plans.iter().flat_map(|(id, plan, _)| plan.services().iter().map(move |s| (*id, s))).collect();
    if services.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "insert into plan_service (plan_service_id, plan_id, service_id, description, original_cents,
                                   discount, value_cents)
         select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[],
                              $7::bigint[])",
    )
    .bind(services.iter().map(|(_, s)| s.id).collect::<Vec<_>>())
    .bind(services.iter().map(|(plan_id, _)| *plan_id).collect::<Vec<_>>())
    .bind(services.iter().map(|(_, s)| s.service_id).collect::<Vec<_>>())
    .bind(services.iter().map(|(_, s)| s.description.clone()).collect::<Vec<_>>())
    .bind(services.iter().map(|(_, s)| s.original_cents).collect::<Vec<_>>())
    .bind(services.iter().map(|(_, s)| s.discount).collect::<Vec<_>>())
    .bind(services.iter().map(|(_, s)| s.value_cents()).collect::<Vec<_>>())
    .execute(conn)
    .await?;
    Ok(())
}

/// A subscription's row is inserted once, from its creation; later changes only move its
/// statuses and state.
async fn write_subscriptions(
    conn: &mut PgConnection,
    subscriptions: &[(i64, &Subscription, &SubscriptionDetails)],
) -> anyhow::Result<()> {
    let states =
        subscriptions.iter().map(|(_, s, _)| serde_json::to_value(s)).collect::<Result<Vec<_>, _>>()?;
    let text = |get: fn(&SubscriptionDetails) -> String| {
        subscriptions.iter().map(|(.., d)| get(d)).collect::<Vec<_>>()
    };
    sqlx::query(
        "insert into subscription (subscription_id, plan_id, user_id, plan_name, value_cents, user_name, phone,
                                   internal_status, status, created_at, search, state)
         select u.subscription_id, u.plan_id, u.user_id, u.plan_name, u.value_cents, u.user_name, u.phone,
                u.internal_status, u.status, u.created_at,
                lower(public.unaccent(u.user_name || ' ' || u.email)) || ' ' || u.cpf || ' ' || u.phone, u.state
           from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[],
                       $8::text[], $9::text[], $10::timestamptz[], $11::text[], $12::text[], $13::jsonb[])
                as u (subscription_id, plan_id, user_id, plan_name, value_cents, user_name, phone,
                      internal_status, status, created_at, email, cpf, state)
         on conflict (subscription_id) do update
            set internal_status = excluded.internal_status, status = excluded.status, state = excluded.state",
    )
    .bind(subscriptions.iter().map(|(id, ..)| *id).collect::<Vec<_>>())
    .bind(subscriptions.iter().map(|(.., d)| d.plan_id).collect::<Vec<_>>())
    .bind(subscriptions.iter().map(|(.., d)| d.user.user_id).collect::<Vec<_>>())
    .bind(text(|d| d.plan_name.clone()))
    .bind(subscriptions.iter().map(|(.., d)| d.plan_value_cents).collect::<Vec<_>>())
    .bind(text(|d| d.user.name.clone()))
    .bind(text(|d| d.user.phone.clone()))
    .bind(subscriptions.iter().map(|(_, s, _)| s.contract_status().code().to_owned()).collect::<Vec<_>>())
    .bind(subscriptions.iter().map(|(_, s, _)| s.status().map(|s| s.code().to_owned())).collect::<Vec<_>>())
    .bind(subscriptions.iter().map(|(.., d)| d.created_at).collect::<Vec<_>>())
    .bind(text(|d| d.user.email.clone()))
    .bind(text(|d| d.user.cpf.clone()))
    .bind(states)
    .execute(conn)
    .await?;
    Ok(())
}
