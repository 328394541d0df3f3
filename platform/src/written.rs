//! What a write answers: the id of the record it wrote, under the record's own key
//! (`{"IdUser": 12}`), with the position of its events in `X-Navalha-Position`. One type
//! per key, so that the OpenAPI documents (and the web's generated types) name the field.

use serde::{Deserialize, Serialize};

/// Declares a written-id answer: the type's name is its JSON key.
macro_rules! written_id {
    ($($(#[$doc:meta])* $name:ident { $field:ident })*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
        #[serde(rename_all = "PascalCase")]
        pub struct $name {
            /// The id of the record written.
            pub $field: i64,
        }
    )*};
}

written_id! {
    /// A client written.
    IdUser { id_user }
    /// A unit written.
    IdCompany { id_company }
    /// A professional written.
    IdProfessional { id_professional }
    /// A day off written.
    IdDayOff { id_day_off }
    /// A holiday written.
    IdHoliday { id_holiday }
    /// An appointment written.
    IdScheduling { id_scheduling }
    /// A plan written.
    IdSubscriptionDetail { id_subscription_detail }
    /// A plan's service written.
    IdSubscriptionService { id_subscription_service }
    /// A subscription written.
    IdSubscriptionUser { id_subscription_user }
    /// A comanda written.
    IdComanda { id_comanda }
    /// A product written.
    IdProduct { id_product }
    /// A caixa written.
    IdCaixa { id_caixa }
    /// A vale or bonus of a professional's commission ledger written.
    IdEntry { id_entry }
    /// A commission period closed and paid.
    IdPeriod { id_period }
}

/// A write that answers a sentence for the user (`{"message": "Código enviado com sucesso."}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Message {
    /// What was done, in Brazilian Portuguese, ready to show.
    pub message: String,
}

impl Message {
    pub fn new(message: &str) -> Self {
        Message { message: message.to_owned() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_types_name() {
        assert_eq!(
            serde_json::to_value(IdDayOff { id_day_off: 7 }).ok(),
            Some(serde_json::json!({ "IdDayOff": 7 }))
        );
        assert_eq!(
            serde_json::to_value(IdSubscriptionService { id_subscription_service: 2 }).ok(),
            Some(serde_json::json!({ "IdSubscriptionService": 2 }))
        );
    }
}
