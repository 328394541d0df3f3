//! The dashboard's menu catalogue: which slugs exist and which roles reach them.

use crate::role::Role;

/// One entry of the side menu, identified by its slug.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenuItem {
    /// Stable identifier, also the favourite key.
    pub slug: &'static str,
    /// Label shown in the menu.
    pub label: &'static str,
}

/// Every menu item of the dashboard.
pub const MENU: &[MenuItem] = &[
    MenuItem { slug: "home", label: "Início" },
    MenuItem { slug: "scheduling", label: "Agenda" },
    MenuItem { slug: "caixa", label: "Caixa" },
    MenuItem { slug: "client", label: "Clientes" },
    MenuItem { slug: "professional", label: "Profissionais" },
    MenuItem { slug: "company", label: "Empresas" },
    MenuItem { slug: "subscription-detail-list", label: "Planos" },
    MenuItem { slug: "subscription-user-detail-list", label: "Assinantes" },
    MenuItem { slug: "holiday", label: "Feriados" },
    MenuItem { slug: "comanda", label: "Comandas" },
    MenuItem { slug: "product", label: "Produtos" },
    MenuItem { slug: "stock", label: "Estoque" },
    MenuItem { slug: "commission", label: "Comissões" },
    MenuItem { slug: "profile", label: "Meu Perfil" },
];

/// The menu item with this slug, if it exists.
pub fn find(slug: &str) -> Option<&'static MenuItem> {
    MENU.iter().find(|item| item.slug == slug)
}

/// Whether `role` reaches the menu item `slug` (spec 01 §6, spec 02 §6).
pub fn reaches(role: Role, slug: &str) -> bool {
    match role {
        Role::Admin | Role::Default => find(slug).is_some(),
        // Commissions are the owner's and each professional's own, not the front desk's.
        Role::Attendant => find(slug).is_some() && !matches!(slug, "professional" | "commission"),
        // Barbers read the comandas of their services, the products and their own
        // commissions; the caixa is the front desk's (issues 41, 42).
        Role::Barber1 | Role::Barber2 => {
            matches!(
                slug,
                "home" | "scheduling" | "client" | "comanda" | "product" | "commission" | "profile"
            )
        }
        Role::BarberLeade => matches!(
            slug,
            "home"
                | "scheduling"
                | "client"
                | "holiday"
                | "comanda"
                | "product"
                | "commission"
                | "subscription-user-detail-list"
                | "profile"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barbers_reach_only_scheduling_client_and_profile() {
        let reached: Vec<_> =
            MENU.iter().filter(|item| reaches(Role::Barber1, item.slug)).map(|item| item.slug).collect();
        assert_eq!(reached, ["home", "scheduling", "client", "comanda", "product", "commission", "profile"]);
        assert!(!reaches(Role::Attendant, "commission") && reaches(Role::BarberLeade, "commission"));
        assert!(!reaches(Role::BarberLeade, "caixa") && reaches(Role::Attendant, "caixa"));
    }

    #[test]
    fn attendant_reaches_everything_but_professionals() {
        assert!(!reaches(Role::Attendant, "professional"));
        assert!(reaches(Role::Attendant, "subscription-detail-list"));
        assert!(reaches(Role::Default, "professional"));
        assert!(!reaches(Role::Admin, "nope"));
    }
}
