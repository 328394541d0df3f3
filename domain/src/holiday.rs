//! A holiday: a date range, whole days or a time window on each, for every unit or for
//! some of them.
//!
//! Aggregate id = the holiday's numeric id (`holiday_id_seq`). Removing ends the stream.

use chrono::NaiveDate;
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::day_off::{checked_description, checked_range};
use crate::validation::{FieldErrors, TimeOfDay, HOLIDAY_RANGE};

/// Answer for an unknown or removed holiday.
pub const MSG_NOT_FOUND: &str = "Feriado não encontrado.";
/// Answer for a holiday without units.
pub const MSG_COMPANY_REQUIRED: &str = "Informe pelo menos uma empresa";
/// Answer for a unit that does not exist.
pub const MSG_UNKNOWN_COMPANY: &str = "Empresa não encontrada.";

/// A holiday as created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HolidayDetails {
    /// Its name ('Natal', 'Aniversário da cidade', ...).
    pub description: String,
    /// First day.
    pub start_date: NaiveDate,
    /// Last day, inclusive.
    pub end_date: NaiveDate,
    /// Whole days, or only the window on each day.
    pub all_day: bool,
    /// Window start; `None` when all-day.
    pub start_time: Option<TimeOfDay>,
    /// Window end; `None` when all-day.
    pub end_time: Option<TimeOfDay>,
    /// Every unit, present and future.
    pub all_companies: bool,
    /// The units, ascending and without repeats; empty when `all_companies`.
    pub company_ids: Vec<i64>,
}

/// The holiday form as sent (`POST holiday`, `PUT holiday/{id}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct HolidayForm {
    /// Description.
    pub description: Option<String>,
    /// `YYYY-MM-DD` or an ISO date-time.
    pub start_date: Option<String>,
    /// `YYYY-MM-DD` or an ISO date-time.
    pub end_date: Option<String>,
    /// Whole days; absent means a time window.
    pub all_day: Option<bool>,
    /// `HH:MM` or `HH:MM:SS`; null when all-day.
    pub start_time: Option<String>,
    /// `HH:MM` or `HH:MM:SS`; null when all-day.
    pub end_time: Option<String>,
    /// The units.
    pub ids_companies: Option<Vec<i64>>,
    /// Every unit; absent means false (see docs/back-office.md).
    pub all_companies: Option<bool>,
}

impl HolidayForm {
    /// Applies spec 02 §5 'Holiday form' (the description at most 1,000 characters).
    /// Whether the units exist is command-api's check.
    pub fn validate(&self) -> Result<HolidayDetails, FieldErrors> {
        let mut errors = FieldErrors::default();
        let description =
            checked_description(self.description.as_deref(), "Digite a descrição do feriado", &mut errors);
        let all_companies = self.all_companies.unwrap_or(false);
        // Choosing every unit clears the list, as on the plan form.
        let mut company_ids =
            if all_companies { Vec::new() } else { self.ids_companies.clone().unwrap_or_default() };
        company_ids.sort_unstable();
        company_ids.dedup();
        errors.check(!all_companies && company_ids.is_empty(), "idsCompanies", MSG_COMPANY_REQUIRED);
        let all_day = self.all_day.unwrap_or(false);
        let range = checked_range(
            HOLIDAY_RANGE,
            self.start_date.as_deref(),
            self.end_date.as_deref(),
            all_day,
            &self.start_time,
            &self.end_time,
            &mut errors,
        );
        match range {
            Some((start_date, end_date, start_time, end_time)) if errors.is_empty() => Ok(HolidayDetails {
                description,
                start_date,
                end_date,
                all_day,
                start_time,
                end_time,
                all_companies,
                company_ids,
            }),
            _ => Err(errors),
        }
    }
}

/// A holiday.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Holiday {
    details: Option<HolidayDetails>,
    removed: bool,
}

impl Holiday {
    /// The holiday as it stands; `None` before creation and after removal.
    pub fn current(&self) -> Option<&HolidayDetails> {
        self.details.as_ref().filter(|_| !self.removed)
    }
}

/// What an admin can do with a holiday.
#[derive(Debug, Clone, PartialEq)]
pub enum HolidayCommand {
    /// Create it.
    CreateHoliday(HolidayDetails),
    /// Change it.
    ChangeHoliday(HolidayDetails),
    /// Remove it.
    RemoveHoliday,
}

/// What happened to a holiday.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum HolidayEvent {
    /// It was created.
    HolidayCreated(HolidayDetails),
    /// It changed.
    HolidayChanged(HolidayDetails),
    /// It was removed.
    HolidayRemoved,
}

impl DomainEvent for HolidayEvent {
    fn event_type(&self) -> String {
        match self {
            HolidayEvent::HolidayCreated(_) => "HolidayCreated",
            HolidayEvent::HolidayChanged(_) => "HolidayChanged",
            HolidayEvent::HolidayRemoved => "HolidayRemoved",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a holiday command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HolidayError {
    /// The id is taken (ids are never reused, even after removal).
    #[error("Feriado já cadastrado.")]
    AlreadyCreated,
    /// Never created, or removed.
    #[error("Feriado não encontrado.")]
    NotFound,
}

impl Aggregate for Holiday {
    const TYPE: &'static str = "Holiday";
    type Command = HolidayCommand;
    type Event = HolidayEvent;
    type Error = HolidayError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            HolidayCommand::CreateHoliday(details) => {
                if self.details.is_some() {
                    return Err(HolidayError::AlreadyCreated);
                }
                sink.write(HolidayEvent::HolidayCreated(details), self).await;
            }
            HolidayCommand::ChangeHoliday(details) => {
                let Some(current) = self.current() else { return Err(HolidayError::NotFound) };
                // Saving an unchanged form records nothing.
                if *current != details {
                    sink.write(HolidayEvent::HolidayChanged(details), self).await;
                }
            }
            HolidayCommand::RemoveHoliday => {
                if self.current().is_none() {
                    return Err(HolidayError::NotFound);
                }
                sink.write(HolidayEvent::HolidayRemoved, self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            HolidayEvent::HolidayCreated(details) | HolidayEvent::HolidayChanged(details) => {
                self.details = Some(details)
            }
            HolidayEvent::HolidayRemoved => self.removed = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    fn form() -> HolidayForm {
        HolidayForm {
            description: Some("Aniversário da cidade".into()),
            start_date: Some("2027-01-25".into()),
            end_date: Some("2027-01-25".into()),
            all_day: Some(false),
            start_time: Some("12:00".into()),
            end_time: Some("18:00".into()),
            ids_companies: Some(vec![3, 1, 3]),
            all_companies: None,
        }
    }

    fn details() -> HolidayDetails {
        form().validate().unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn a_valid_form_is_normalised() {
        let details = details();
        assert_eq!(details.company_ids, [1, 3], "sorted, without repeats");
        assert!(!details.all_companies, "allCompanies absent means false");
        assert_eq!(details.start_time.map(|t| t.to_string()).as_deref(), Some("12:00"));
        let everywhere = HolidayForm {
            all_companies: Some(true),
            all_day: Some(true),
            start_time: None,
            end_time: None,
            start_date: Some("2026-12-25T00:00:00-03:00".into()),
            end_date: Some("2026-12-25".into()),
            ..form()
        }
        .validate()
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(everywhere.company_ids, Vec::<i64>::new(), "every unit clears the list");
        assert_eq!((everywhere.start_time, everywhere.end_time), (None, None));
        assert_eq!(everywhere.start_date, NaiveDate::from_ymd_opt(2026, 12, 25).unwrap_or_default());
    }

    #[test]
    fn each_holiday_rule_has_its_message() {
        let cases: Vec<(HolidayForm, &str, &str)> = vec![
            (HolidayForm { description: None, ..form() }, "description", "Digite a descrição do feriado"),
            (
                HolidayForm { description: Some("a b".into()), ..form() },
                "description",
                "Digite uma descrição válida",
            ),
            (HolidayForm { ids_companies: None, ..form() }, "idsCompanies", "Informe pelo menos uma empresa"),
            (
                HolidayForm { ids_companies: Some(vec![]), all_companies: Some(false), ..form() },
                "idsCompanies",
                "Informe pelo menos uma empresa",
            ),
            (HolidayForm { start_date: None, ..form() }, "startDate", "Digite o início"),
            (HolidayForm { end_date: None, ..form() }, "endDate", "Digite o fim"),
            (
                HolidayForm { start_date: Some("1999-12-25".into()), ..form() },
                "startDate",
                "Digite uma data válida",
            ),
            (
                HolidayForm { end_date: Some("2000-01-01".into()), ..form() },
                "endDate",
                "Digite uma data válida",
            ),
            (
                HolidayForm { end_date: Some("25/01/2027".into()), ..form() },
                "endDate",
                "Digite uma data válida",
            ),
            (
                HolidayForm { end_date: Some("2027-01-24".into()), ..form() },
                "endDate",
                "Data deve ser maior ou igual à data inicio",
            ),
            (HolidayForm { start_time: Some("12h".into()), ..form() }, "startTime", "Formato incorreto."),
            (HolidayForm { end_time: Some("25:00".into()), ..form() }, "endTime", "Formato incorreto."),
            (HolidayForm { start_time: None, ..form() }, "startTime", "Digite o horário inicial"),
            (HolidayForm { end_time: None, ..form() }, "endTime", "Digite o horário final"),
            (
                HolidayForm { end_time: Some("12:00".into()), ..form() },
                "endTime",
                "Horário deve ser maior que horário início",
            ),
        ];
        for (form, field, message) in cases {
            let errors = form.validate().err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(message), "{field}: {errors:?}");
        }
        let every_unit = HolidayForm { ids_companies: None, all_companies: Some(true), ..form() };
        assert!(every_unit.validate().is_ok());
    }

    #[test]
    fn the_description_has_its_bound() {
        use crate::validation::MAX_TEXT;
        let description = |n: usize| Some(format!("Natal {}", "é".repeat(n - 6)));
        assert!(HolidayForm { description: description(MAX_TEXT), ..form() }.validate().is_ok());
        let errors = HolidayForm { description: description(MAX_TEXT + 1), ..form() }.validate();
        assert_eq!(errors.err().unwrap_or_default().get("description"), Some("Máximo de 1.000 caracteres."));
    }

    #[test]
    fn creating_changing_and_removing() {
        TestFramework::<Holiday>::with(())
            .given_no_previous_events()
            .when(HolidayCommand::CreateHoliday(details()))
            .then_expect_events(vec![HolidayEvent::HolidayCreated(details())]);
        let changed = HolidayDetails { all_companies: true, company_ids: vec![], ..details() };
        TestFramework::<Holiday>::with(())
            .given(vec![HolidayEvent::HolidayCreated(details())])
            .when(HolidayCommand::ChangeHoliday(changed.clone()))
            .then_expect_events(vec![HolidayEvent::HolidayChanged(changed.clone())]);
        TestFramework::<Holiday>::with(())
            .given(vec![HolidayEvent::HolidayCreated(details()), HolidayEvent::HolidayChanged(changed)])
            .when(HolidayCommand::RemoveHoliday)
            .then_expect_events(vec![HolidayEvent::HolidayRemoved]);
    }

    #[test]
    fn an_unchanged_save_records_nothing() {
        TestFramework::<Holiday>::with(())
            .given(vec![HolidayEvent::HolidayCreated(details())])
            .when(HolidayCommand::ChangeHoliday(details()))
            .then_expect_events(vec![]);
    }

    #[test]
    fn unknown_and_removed_holidays_cannot_be_changed_removed_or_created_again() {
        TestFramework::<Holiday>::with(())
            .given_no_previous_events()
            .when(HolidayCommand::ChangeHoliday(details()))
            .then_expect_error(HolidayError::NotFound);
        TestFramework::<Holiday>::with(())
            .given_no_previous_events()
            .when(HolidayCommand::RemoveHoliday)
            .then_expect_error(HolidayError::NotFound);
        let removed = || vec![HolidayEvent::HolidayCreated(details()), HolidayEvent::HolidayRemoved];
        TestFramework::<Holiday>::with(())
            .given(removed())
            .when(HolidayCommand::ChangeHoliday(details()))
            .then_expect_error(HolidayError::NotFound);
        TestFramework::<Holiday>::with(())
            .given(removed())
            .when(HolidayCommand::RemoveHoliday)
            .then_expect_error(HolidayError::NotFound);
        TestFramework::<Holiday>::with(())
            .given(removed())
            .when(HolidayCommand::CreateHoliday(details()))
            .then_expect_error(HolidayError::AlreadyCreated);
        assert_eq!(HolidayError::NotFound.to_string(), MSG_NOT_FOUND);
    }

    #[test]
    fn payloads_keep_times_as_hh_mm() {
        let json = serde_json::to_value(HolidayEvent::HolidayCreated(details())).unwrap_or_default();
        assert_eq!(json["HolidayCreated"]["start_time"], "12:00");
        assert_eq!(json["HolidayCreated"]["company_ids"], serde_json::json!([1, 3]));
        let back: HolidayEvent = serde_json::from_value(json).unwrap_or(HolidayEvent::HolidayRemoved);
        assert_eq!(back, HolidayEvent::HolidayCreated(details()));
    }

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<Holiday>(&[
            HolidayEvent::HolidayCreated(details()),
            HolidayEvent::HolidayChanged(details()),
            HolidayEvent::HolidayRemoved,
        ]);
    }
}
