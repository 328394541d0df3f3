//! A professional's favourite menu items: the stars of the side menu.
//!
//! One stream per professional (aggregate id = the professional's id).

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::menu;
use crate::role::Role;

/// The favourites of one professional.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct FavoriteMenu {
    slugs: Vec<String>,
}

impl FavoriteMenu {
    /// The favourite slugs, in the order they were marked.
    pub fn slugs(&self) -> &[String] {
        &self.slugs
    }
}

/// What a professional can do with their favourites.
#[derive(Debug, Clone, PartialEq)]
pub enum FavoriteMenuCommand {
    /// Star a menu item.
    MarkFavorite {
        /// The menu item.
        slug: String,
        /// The acting professional's role: only reachable items can be starred.
        role: Role,
    },
    /// Remove a star.
    UnmarkFavorite {
        /// The menu item.
        slug: String,
    },
}

/// What happened to a professional's favourites.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FavoriteMenuEvent {
    /// A menu item was starred.
    FavoriteMenuMarked {
        /// The menu item.
        slug: String,
    },
    /// A star was removed.
    FavoriteMenuUnmarked {
        /// The menu item.
        slug: String,
    },
}

impl DomainEvent for FavoriteMenuEvent {
    fn event_type(&self) -> String {
        match self {
            FavoriteMenuEvent::FavoriteMenuMarked { .. } => "FavoriteMenuMarked",
            FavoriteMenuEvent::FavoriteMenuUnmarked { .. } => "FavoriteMenuUnmarked",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a favourite command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FavoriteMenuError {
    /// The slug names no menu item.
    #[error("Item de menu desconhecido.")]
    UnknownMenuItem,
    /// The role cannot open this menu item, so it cannot star it either.
    #[error("Este item de menu não está disponível para o seu perfil.")]
    NotReachable,
}

impl Aggregate for FavoriteMenu {
    const TYPE: &'static str = "FavoriteMenu";
    type Command = FavoriteMenuCommand;
    type Event = FavoriteMenuEvent;
    type Error = FavoriteMenuError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            FavoriteMenuCommand::MarkFavorite { slug, role } => {
                if menu::find(&slug).is_none() {
                    return Err(FavoriteMenuError::UnknownMenuItem);
                }
                if !menu::reaches(role, &slug) {
                    return Err(FavoriteMenuError::NotReachable);
                }
                // Marking twice is a no-op, so a double click appends nothing.
                if !self.slugs.contains(&slug) {
                    sink.write(FavoriteMenuEvent::FavoriteMenuMarked { slug }, self).await;
                }
            }
            FavoriteMenuCommand::UnmarkFavorite { slug } => {
                if self.slugs.contains(&slug) {
                    sink.write(FavoriteMenuEvent::FavoriteMenuUnmarked { slug }, self).await;
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            FavoriteMenuEvent::FavoriteMenuMarked { slug } => self.slugs.push(slug),
            FavoriteMenuEvent::FavoriteMenuUnmarked { slug } => self.slugs.retain(|s| *s != slug),
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    type Favorites = TestFramework<FavoriteMenu>;

    fn marked(slug: &str) -> FavoriteMenuEvent {
        FavoriteMenuEvent::FavoriteMenuMarked { slug: slug.to_owned() }
    }

    fn mark(slug: &str, role: Role) -> FavoriteMenuCommand {
        FavoriteMenuCommand::MarkFavorite { slug: slug.to_owned(), role }
    }

    #[test]
    fn marking_a_reachable_item_records_it() {
        Favorites::with(())
            .given_no_previous_events()
            .when(mark("scheduling", Role::Barber1))
            .then_expect_events(vec![marked("scheduling")]);
    }

    #[test]
    fn marking_an_item_twice_appends_nothing() {
        Favorites::with(())
            .given(vec![marked("client")])
            .when(mark("client", Role::Admin))
            .then_expect_events(vec![]);
    }

    #[test]
    fn an_unknown_item_is_refused() {
        Favorites::with(())
            .given_no_previous_events()
            .when(mark("payroll", Role::Admin))
            .then_expect_error(FavoriteMenuError::UnknownMenuItem);
    }

    #[test]
    fn a_barber_cannot_star_the_professionals_screen() {
        Favorites::with(())
            .given_no_previous_events()
            .when(mark("professional", Role::Barber2))
            .then_expect_error_message("Este item de menu não está disponível para o seu perfil.");
    }

    #[test]
    fn unmarking_removes_only_existing_stars() {
        Favorites::with(())
            .given(vec![marked("client"), marked("holiday")])
            .when(FavoriteMenuCommand::UnmarkFavorite { slug: "client".to_owned() })
            .then_expect_events(vec![FavoriteMenuEvent::FavoriteMenuUnmarked { slug: "client".to_owned() }]);
        Favorites::with(())
            .given(vec![marked("holiday")])
            .when(FavoriteMenuCommand::UnmarkFavorite { slug: "client".to_owned() })
            .then_expect_events(vec![]);
    }

    #[test]
    fn state_keeps_the_order_of_marking() {
        let mut favorites = FavoriteMenu::default();
        for event in [
            marked("a"),
            marked("b"),
            FavoriteMenuEvent::FavoriteMenuUnmarked { slug: "a".into() },
            marked("c"),
        ] {
            favorites.apply(event);
        }
        assert_eq!(favorites.slugs(), ["b", "c"]);
    }

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<FavoriteMenu>(&[
            marked("client"),
            FavoriteMenuEvent::FavoriteMenuUnmarked { slug: "client".to_owned() },
        ]);
    }
}
