//! Every read model the projector builds.

use std::sync::Arc;

use crate::engine::Projection;

pub mod agenda;
pub mod caixa;
pub mod client;
pub mod club;
pub mod comanda;
pub mod company;
pub mod dashboard;
pub mod day_off;
pub mod favorite_menu;
pub mod free_time;
pub mod holiday;
pub mod message;
pub mod product;
pub mod professional;

/// All read models, in the order they are started.
pub fn all() -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(client::ClientList),
        Arc::new(company::CompanyList),
        Arc::new(favorite_menu::FavoriteMenus),
        Arc::new(professional::Professionals),
        Arc::new(day_off::DaysOff),
        Arc::new(holiday::Holidays),
        Arc::new(agenda::Agenda),
        Arc::new(free_time::FreeTime),
        Arc::new(club::Club),
        Arc::new(dashboard::Dashboard),
        Arc::new(comanda::Comandas),
        Arc::new(product::Products),
        Arc::new(caixa::Caixas),
        Arc::new(message::Messages),
    ]
}

/// The read model with this name.
pub fn find(name: &str) -> Option<Arc<dyn Projection>> {
    all().into_iter().find(|model| model.name() == name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_model_of_the_catalogue_is_built_once_in_its_order() {
        let built: Vec<&str> = super::all().iter().map(|model| model.name()).collect();
        let catalogued: Vec<&str> = navalha_read_models::ALL.iter().map(|model| model.name).collect();
        assert_eq!(built, catalogued);
    }
}
