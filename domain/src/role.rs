//! Staff roles ("profile types") and what each may see.

use serde::{Deserialize, Serialize};

/// A staff member's role. The spelling of each variant is the specification's, including
/// `BARBER_LEADE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Role {
    /// Manages everything.
    Admin,
    /// Front desk: agenda and clients of every unit.
    Attendant,
    /// Leads the barbers of a unit.
    #[serde(rename = "BARBER_LEADE")]
    BarberLeade,
    /// A barber who sees only their own agenda.
    #[serde(rename = "BARBER1")]
    Barber1,
    /// A barber who sees only their own agenda.
    #[serde(rename = "BARBER2")]
    Barber2,
    /// The role with no type; its menus are the admin's, its rights are not.
    Default,
}

impl Role {
    /// Every role, in the order of their profile-type ids.
    pub const ALL: [Role; 6] =
        [Role::Admin, Role::Attendant, Role::BarberLeade, Role::Barber1, Role::Barber2, Role::Default];

    /// The role's `IdTypeProfile`.
    pub fn id(self) -> i64 {
        match self {
            Role::Admin => 1,
            Role::Attendant => 2,
            Role::BarberLeade => 3,
            Role::Barber1 => 4,
            Role::Barber2 => 5,
            Role::Default => 6,
        }
    }

    /// The role with the given `IdTypeProfile`, if any.
    pub fn from_id(id: i64) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.id() == id)
    }

    /// The role with the given wire name, if any.
    pub fn from_code(code: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.code() == code)
    }

    /// The wire name (`ADMIN`, `BARBER_LEADE`, ...).
    pub fn code(self) -> &'static str {
        match self {
            Role::Admin => "ADMIN",
            Role::Attendant => "ATTENDANT",
            Role::BarberLeade => "BARBER_LEADE",
            Role::Barber1 => "BARBER1",
            Role::Barber2 => "BARBER2",
            Role::Default => "DEFAULT",
        }
    }

    /// The label shown to staff.
    pub fn description(self) -> &'static str {
        match self {
            Role::Admin => "Administrador",
            Role::Attendant => "Atendente",
            Role::BarberLeade => "Barbeiro líder",
            Role::Barber1 => "Barbeiro 1",
            Role::Barber2 => "Barbeiro 2",
            Role::Default => "Padrão",
        }
    }

    /// Roles to whom `GET company` lists every active unit, not only their own (spec 01 §6).
    /// They still reach and select only the units they belong to.
    pub fn sees_all_companies(self) -> bool {
        matches!(self, Role::Admin | Role::Attendant | Role::BarberLeade)
    }

    /// Roles that may pick any professional in the agenda (spec 01 §6).
    pub fn may_choose_any_professional(self) -> bool {
        matches!(self, Role::Admin | Role::Attendant | Role::BarberLeade)
    }

    /// Roles that may book a client into a second chair at the same time ('Agendar mesmo
    /// assim', issue 45): the front desk and the owner.
    pub fn may_overlap_clients(self) -> bool {
        matches!(self, Role::Admin | Role::Attendant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_codes_match_serde() {
        for role in Role::ALL {
            assert_eq!(Role::from_id(role.id()), Some(role));
            assert_eq!(Role::from_code(role.code()), Some(role));
            let json = serde_json::to_string(&role).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", role.code()));
        }
        assert_eq!(Role::from_id(0), None);
    }
}
