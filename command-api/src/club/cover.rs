//! The club at the counter (issue 41, point 2): a comanda's service line is covered by the
//! client's subscription whose plan includes the service, at the plan's discount. The part
//! covered is paid by 'Assinatura' (the comanda aggregate writes that payment), the rest by
//! the client. docs/money.md, "The club at the counter".

use chrono::NaiveDate;
use navalha_domain::comanda::ClubCover;
use navalha_domain::plan::Plan;
use navalha_domain::subscription::{ContractStatus, Subscription};
use navalha_domain::Aggregate as _;
use navalha_platform::ApiError;

use crate::commands::Streams;
use crate::state::AppState;

/// The subscriptions created for a client, from their creation events (index
/// `events_subscription_user`; `event_payload::SQL_READS` pins the field).
pub const SUBSCRIPTIONS_OF_CLIENT: &str = "
    select aggregate_id from events
     where aggregate_type = 'SubscriptionUser' and event_type = 'SubscriptionCreated'
       and payload -> 'SubscriptionCreated' -> 'user' ->> 'user_id' = $1";

/// What a client's club covers in a unit on a day: each service with the best cover.
#[derive(Debug, Default)]
pub struct Club {
    covers: Vec<(i64, ClubCover)>,
}

impl Club {
    /// The cover of `service_id`, if the club has one.
    pub fn cover(&self, service_id: i64) -> Option<ClubCover> {
        self.covers.iter().find(|(service, _)| *service == service_id).map(|(_, cover)| cover.clone())
    }

    /// The services the club of `client_id` covers in unit `company_id` on `day`: from each
    /// subscription that is active ('Ativo': its latest charge paid) and in force that day,
    /// to a plan of the unit, the plan's services at its discount (the best one when two
    /// plans include a service). None for a walk-in without a client.
    pub async fn of(
        state: &AppState,
        business_id: i64,
        client_id: Option<i64>,
        company_id: i64,
        day: NaiveDate,
    ) -> Result<Club, ApiError> {
        let Some(client_id) = client_id else { return Ok(Club::default()) };
        let ids: Vec<String> = sqlx::query_scalar(SUBSCRIPTIONS_OF_CLIENT)
            .bind(client_id.to_string())
            .fetch_all(&state.pool)
            .await?;
        if ids.is_empty() {
            return Ok(Club::default());
        }
        let wanted: Vec<(&'static str, String)> =
            ids.iter().map(|id| (Subscription::TYPE, id.clone())).collect();
        let streams = Streams::fetch(&state.events, business_id, &wanted).await?;
        let mut in_force = Vec::new();
        for id in &ids {
            let subscription: Subscription = streams.replay(id)?;
            let Some(details) = subscription.details() else { continue };
            let current = (details.validity_start..=details.validity_end).contains(&day);
            if current && subscription.contract_status() == ContractStatus::Active {
                in_force.push((id.parse::<i64>().unwrap_or_default(), details.plan_id));
            }
        }
        if in_force.is_empty() {
            return Ok(Club::default());
        }
        let wanted: Vec<(&'static str, String)> =
            in_force.iter().map(|(_, plan)| (Plan::TYPE, plan.to_string())).collect();
        let plans = Streams::fetch(&state.events, business_id, &wanted).await?;
        let mut club = Club::default();
        for (subscription_id, plan_id) in in_force {
            let plan: Plan = plans.replay(&plan_id.to_string())?;
            let Some(details) = plan.details() else { continue };
            if !(details.all_companies || details.company_ids.contains(&company_id)) {
                continue;
            }
            for service in plan.services() {
                let cover = ClubCover {
                    subscription_id,
                    plan_id,
                    plan_name: details.plan_name.clone(),
                    percent: service.discount,
                };
                match club.covers.iter_mut().find(|(id, _)| *id == service.service_id) {
                    Some((_, best)) if best.percent >= cover.percent => {}
                    Some((_, best)) => *best = cover,
                    None => club.covers.push((service.service_id, cover)),
                }
            }
        }
        Ok(club)
    }
}
