//! `club`: plans, their services, partner companies and subscriptions, for the plans and
//! subscribers screens.
//!
//! Plans and subscriptions keep their whole aggregate state (`state`, the domain's own
//! fold, so read and write sides agree on what a report means) next to the columns the
//! lists filter and sort by. Those states are versioned (`STATE_VERSION`, see
//! [`Projection::stored_states`]): a new shape rebuilds the model.

use async_trait::async_trait;
use navalha_domain::partner_company::{PartnerCompany, PartnerCompanyEvent};
use navalha_domain::plan::{Plan, PlanEvent};
use navalha_domain::subscription::{Subscription, SubscriptionEvent};
use navalha_domain::Aggregate;
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_club.*`.
pub struct Club;

#[async_trait]
impl Projection for Club {
    fn name(&self) -> &'static str {
        "club"
    }

    fn schema_sql(&self) -> &'static str {
        "create table plan (
             business_id bigint not null default public.navalha_event_business(),
             plan_id        bigint  primary key,
             plan_name      text    not null,
             description    text    not null,
             value_cents    bigint  not null,
             active         boolean not null,
             payment_method text    not null,
             -- lower(unaccent(plan name and description)), for contains-search
             search         text    not null,
             state          jsonb   not null
         );
         create index plan_search on plan using gin (search public.gin_trgm_ops);
         create table plan_service (
             business_id bigint not null default public.navalha_event_business(),
             plan_service_id bigint primary key,
             plan_id         bigint not null,
             service_id      bigint not null,
             description     text   not null,
             original_cents  bigint not null,
             discount        bigint not null,
             value_cents     bigint not null
         );
         create index plan_service_plan on plan_service (plan_id);
         create table partner_company (
             business_id bigint not null default public.navalha_event_business(),
             partner_company_id bigint primary key,
             name               text   not null
         );
         create table subscription (
             business_id bigint not null default public.navalha_event_business(),
             subscription_id bigint      primary key,
             plan_id         bigint      not null,
             user_id         bigint      not null,
             plan_name       text        not null,
             value_cents     bigint      not null,
             user_name       text        not null,
             phone           text        not null,
             internal_status text        not null,
             status          text,
             created_at      timestamptz not null,
             -- lower(unaccent(name, e-mail)) plus CPF and phone digits
             search          text        not null,
             state           jsonb       not null
         );
         create index subscription_plan on subscription (plan_id);
         create index subscription_user on subscription (user_id);
         create index subscription_search on subscription using gin (search public.gin_trgm_ops);"
    }

    fn aggregate_types(&self) -> &'static [&'static str] {
        &[Plan::TYPE, Subscription::TYPE, PartnerCompany::TYPE]
    }

    fn stored_states(&self) -> &'static [(&'static str, u32)] {
        &[(Plan::TYPE, Plan::STATE_VERSION), (Subscription::TYPE, Subscription::STATE_VERSION)]
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.numeric_id()?;
        match event.aggregate_type.as_str() {
            t if t == Plan::TYPE => apply_plan(conn, id, event.decode()?).await,
            t if t == Subscription::TYPE => apply_subscription(conn, id, event.decode()?).await,
            t if t == PartnerCompany::TYPE => {
                let PartnerCompanyEvent::PartnerCompanyRegistered { name } = event.decode()?;
                sqlx::query(
                    "insert into partner_company (partner_company_id, name) values ($1, $2)
                     on conflict (partner_company_id) do update set name = excluded.name",
                )
                .bind(id)
                .bind(name)
                .execute(conn)
                .await?;
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

async fn stored<T: serde::de::DeserializeOwned + Default>(
    conn: &mut PgConnection,
    sql: &str,
    id: i64,
) -> anyhow::Result<T> {
    let state: Option<serde_json::Value> = sqlx::query_scalar(sql).bind(id).fetch_optional(conn).await?;
    Ok(match state {
        Some(state) => serde_json::from_value(state)?,
        None => T::default(),
    })
}

async fn apply_plan(conn: &mut PgConnection, id: i64, event: PlanEvent) -> anyhow::Result<()> {
    let mut plan: Plan = stored(&mut *conn, "select state from plan where plan_id = $1", id).await?;
    plan.apply(event);
    let Some(details) = plan.details() else { return Ok(()) };
    sqlx::query(
        "insert into plan (plan_id, plan_name, description, value_cents, active, payment_method, search, state)
         values ($1, $2, $3, $4, $5, $6, lower(public.unaccent($2 || ' ' || $3)), $7)
         on conflict (plan_id) do update
            set plan_name = excluded.plan_name, description = excluded.description,
                value_cents = excluded.value_cents, active = excluded.active,
                payment_method = excluded.payment_method, search = excluded.search, state = excluded.state",
    )
    .bind(id)
    .bind(&details.plan_name)
    .bind(&details.description)
    .bind(details.value_cents)
    .bind(details.active)
    .bind(details.payment_method.code())
    .bind(serde_json::to_value(&plan)?)
    .execute(&mut *conn)
    .await?;
    sqlx::query("delete from plan_service where plan_id = $1").bind(id).execute(&mut *conn).await?;
    for service in plan.services() {
        sqlx::query(
            "insert into plan_service (plan_service_id, plan_id, service_id, description, original_cents,
                                       discount, value_cents)
             values ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(service.id)
        .bind(id)
        .bind(service.service_id)
        .bind(&service.description)
        .bind(service.original_cents)
        .bind(service.discount)
        .bind(service.value_cents())
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

async fn apply_subscription(
    conn: &mut PgConnection,
    id: i64,
    event: SubscriptionEvent,
) -> anyhow::Result<()> {
    let mut subscription: Subscription =
        stored(&mut *conn, "select state from subscription where subscription_id = $1", id).await?;
    subscription.apply(event);
    let Some(details) = subscription.details() else { return Ok(()) };
    sqlx::query(
        "insert into subscription (subscription_id, plan_id, user_id, plan_name, value_cents, user_name, phone,
                                   internal_status, status, created_at, search, state)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                 lower(public.unaccent($6 || ' ' || $11)) || ' ' || $12 || ' ' || $7, $13)
         on conflict (subscription_id) do update
            set internal_status = excluded.internal_status, status = excluded.status, state = excluded.state",
    )
    .bind(id)
    .bind(details.plan_id)
    .bind(details.user.user_id)
    .bind(&details.plan_name)
    .bind(details.plan_value_cents)
    .bind(&details.user.name)
    .bind(&details.user.phone)
    .bind(subscription.contract_status().code())
    .bind(subscription.status().map(|s| s.code().to_owned()))
    .bind(details.created_at)
    .bind(&details.user.email)
    .bind(&details.user.cpf)
    .bind(serde_json::to_value(&subscription)?)
    .execute(conn)
    .await?;
    Ok(())
}
