//! A professional's day off or vacation: a date range, whole days or a time window on each.
//!
//! Aggregate id = the day off's numeric id (`day_off_id_seq`). Removing ends the stream:
//! a removed day off cannot be changed or removed again.

use chrono::NaiveDate;
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::validation::{
    date_range, has_long_word, FieldErrors, RangeForm, RangeInput, TimeOfDay, DAY_OFF_RANGE, MAX_TEXT,
};

/// Answer for an unknown or removed day off.
pub const MSG_NOT_FOUND: &str = "Folga/férias não encontrada.";
/// Answer for a day off without its professional.
pub const MSG_PROFESSIONAL_REQUIRED: &str = "Informe o profissional";

/// A day off as scheduled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayOffDetails {
    /// Whose day off it is.
    pub professional_id: i64,
    /// What it is ('Férias', 'Consulta médica', ...).
    pub description: String,
    /// First day.
    pub date_start: NaiveDate,
    /// Last day, inclusive.
    pub date_end: NaiveDate,
    /// Whole days, or only the window on each day.
    pub all_day: bool,
    /// Window start; `None` when all-day.
    pub start_time: Option<TimeOfDay>,
    /// Window end; `None` when all-day.
    pub end_time: Option<TimeOfDay>,
}

/// The day-off form as sent (`POST day-off`, `PUT day-off/{idDayOff}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct DayOffForm {
    /// Description.
    pub description: Option<String>,
    /// `YYYY-MM-DD` or an ISO date-time.
    pub date_start: Option<String>,
    /// `YYYY-MM-DD` or an ISO date-time.
    pub date_end: Option<String>,
    /// Whole days; absent means a time window.
    pub all_day: Option<bool>,
    /// `HH:MM` or `HH:MM:SS`; null when all-day.
    pub start_time: Option<String>,
    /// `HH:MM` or `HH:MM:SS`; null when all-day.
    pub end_time: Option<String>,
    /// The professional.
    pub id_professional: Option<i64>,
}

/// Reads a form date: `YYYY-MM-DD`, or an ISO date-time whose first 10 characters are one.
/// Empty is `Ok(None)` (the range rule says it is required); anything else is an error.
pub(crate) fn form_date(text: Option<&str>) -> Result<Option<NaiveDate>, ()> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(text) => {
            NaiveDate::parse_from_str(text.get(..10).unwrap_or(text), "%Y-%m-%d").map(Some).map_err(|_| ())
        }
    }
}

/// Checks the dates and time window of a range form, with a clear message for a date that
/// cannot be read; returns the range's dates and window.
pub(crate) fn checked_range(
    form: RangeForm,
    start: Option<&str>,
    end: Option<&str>,
    all_day: bool,
    start_time: &Option<String>,
    end_time: &Option<String>,
    errors: &mut FieldErrors,
) -> Option<(NaiveDate, NaiveDate, Option<TimeOfDay>, Option<TimeOfDay>)> {
    let mut date_errors = FieldErrors::default();
    let mut date = |field: &str, text: Option<&str>| {
        form_date(text).unwrap_or_else(|()| {
            date_errors.add(field, "Digite uma data válida");
            None
        })
    };
    let input = RangeInput {
        start_date: date(form.start_date_field, start),
        end_date: date(form.end_date_field, end),
        all_day,
        start_time: start_time.clone(),
        end_time: end_time.clone(),
    };
    let checked = date_range(form, &input);
    // An unreadable date keeps its own message over the range rule's 'required'.
    let range_errors = checked.as_ref().err().cloned().unwrap_or_default();
    for (field, message) in date_errors.0.iter().chain(&range_errors.0) {
        errors.add(field, message);
    }
    match (checked, input.start_date, input.end_date) {
        (Ok(window), Some(start), Some(end)) if date_errors.is_empty() => {
            Some((start, end, window.map(|p| p.start), window.map(|p| p.end)))
        }
        _ => None,
    }
}

/// The description rules shared by days off and holidays: required, at most 1,000
/// characters, and a word longer than 2 characters. Returns it with its spaces tidied.
pub(crate) fn checked_description(text: Option<&str>, required: &str, errors: &mut FieldErrors) -> String {
    let description = text.unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ");
    errors.check_length("description", &description, MAX_TEXT);
    if description.is_empty() {
        errors.add("description", required);
    } else {
        errors.check(!has_long_word(&description), "description", "Digite uma descrição válida");
    }
    description
}

impl DayOffForm {
    /// Applies spec 02 §5 'Day off'.
    pub fn validate(&self) -> Result<DayOffDetails, FieldErrors> {
        let mut errors = FieldErrors::default();
        let description = checked_description(
            self.description.as_deref(),
            "Digite a descrição da folga/férias",
            &mut errors,
        );
        let all_day = self.all_day.unwrap_or(false);
        let range = checked_range(
            DAY_OFF_RANGE,
            self.date_start.as_deref(),
            self.date_end.as_deref(),
            all_day,
            &self.start_time,
            &self.end_time,
            &mut errors,
        );
        let professional_id = self.id_professional.filter(|id| *id > 0);
        errors.check(professional_id.is_none(), "idProfessional", MSG_PROFESSIONAL_REQUIRED);
        match (range, professional_id) {
            (Some((date_start, date_end, start_time, end_time)), Some(professional_id))
                if errors.is_empty() =>
            {
                Ok(DayOffDetails {
                    professional_id,
                    description,
                    date_start,
                    date_end,
                    all_day,
                    start_time,
                    end_time,
                })
            }
            _ => Err(errors),
        }
    }
}

/// A day off or vacation.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct DayOff {
    details: Option<DayOffDetails>,
    removed: bool,
}

impl DayOff {
    /// The day off as it stands; `None` before scheduling and after removal.
    pub fn current(&self) -> Option<&DayOffDetails> {
        self.details.as_ref().filter(|_| !self.removed)
    }
}

/// What an admin can do with a day off.
#[derive(Debug, Clone, PartialEq)]
pub enum DayOffCommand {
    /// Create it.
    ScheduleDayOff(DayOffDetails),
    /// Change it.
    ChangeDayOff(DayOffDetails),
    /// Remove it.
    RemoveDayOff,
}

/// What happened to a day off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DayOffEvent {
    /// It was created.
    DayOffScheduled(DayOffDetails),
    /// It changed.
    DayOffChanged(DayOffDetails),
    /// It was removed.
    DayOffRemoved,
}

impl DomainEvent for DayOffEvent {
    fn event_type(&self) -> String {
        match self {
            DayOffEvent::DayOffScheduled(_) => "DayOffScheduled",
            DayOffEvent::DayOffChanged(_) => "DayOffChanged",
            DayOffEvent::DayOffRemoved => "DayOffRemoved",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why a day-off command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DayOffError {
    /// The id is taken (ids are never reused, even after removal).
    #[error("Folga/férias já cadastrada.")]
    AlreadyScheduled,
    /// Never scheduled, or removed.
    #[error("Folga/férias não encontrada.")]
    NotFound,
}

impl Aggregate for DayOff {
    const TYPE: &'static str = "DayOff";
    type Command = DayOffCommand;
    type Event = DayOffEvent;
    type Error = DayOffError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            DayOffCommand::ScheduleDayOff(details) => {
                if self.details.is_some() {
                    return Err(DayOffError::AlreadyScheduled);
                }
                sink.write(DayOffEvent::DayOffScheduled(details), self).await;
            }
            DayOffCommand::ChangeDayOff(details) => {
                let Some(current) = self.current() else { return Err(DayOffError::NotFound) };
                // Saving an unchanged form records nothing.
                if *current != details {
                    sink.write(DayOffEvent::DayOffChanged(details), self).await;
                }
            }
            DayOffCommand::RemoveDayOff => {
                if self.current().is_none() {
                    return Err(DayOffError::NotFound);
                }
                sink.write(DayOffEvent::DayOffRemoved, self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            DayOffEvent::DayOffScheduled(details) | DayOffEvent::DayOffChanged(details) => {
                self.details = Some(details)
            }
            DayOffEvent::DayOffRemoved => self.removed = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    fn form() -> DayOffForm {
        DayOffForm {
            description: Some("  Consulta   médica ".into()),
            date_start: Some("2026-12-10".into()),
            date_end: Some("2026-12-10".into()),
            all_day: Some(false),
            start_time: Some("14:00".into()),
            end_time: Some("16:30:00".into()),
            id_professional: Some(4),
        }
    }

    fn details() -> DayOffDetails {
        form().validate().unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn time(text: &str) -> Option<TimeOfDay> {
        TimeOfDay::parse(text).ok()
    }

    #[test]
    fn a_valid_form_is_normalised() {
        let details = details();
        assert_eq!(details.description, "Consulta médica");
        assert_eq!(details.date_start, NaiveDate::from_ymd_opt(2026, 12, 10).unwrap_or_default());
        assert_eq!((details.start_time, details.end_time), (time("14:00"), time("16:30")));
        assert_eq!(details.professional_id, 4);
    }

    #[test]
    fn all_day_drops_the_times_and_iso_date_times_are_read_by_their_date() {
        let details = DayOffForm {
            all_day: Some(true),
            date_start: Some("2026-12-20T03:00:00.000Z".into()),
            date_end: Some("2027-01-05".into()),
            start_time: Some("09:00".into()),
            ..form()
        }
        .validate()
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(details.all_day);
        assert_eq!((details.start_time, details.end_time), (None, None));
        assert_eq!(details.date_start, NaiveDate::from_ymd_opt(2026, 12, 20).unwrap_or_default());
    }

    #[test]
    fn each_day_off_rule_has_its_message() {
        let cases: Vec<(DayOffForm, &str, &str)> = vec![
            (DayOffForm { description: None, ..form() }, "description", "Digite a descrição da folga/férias"),
            (
                DayOffForm { description: Some("   ".into()), ..form() },
                "description",
                "Digite a descrição da folga/férias",
            ),
            (
                DayOffForm { description: Some("ab c".into()), ..form() },
                "description",
                "Digite uma descrição válida",
            ),
            (DayOffForm { date_start: None, ..form() }, "dateStart", "Digite a data de início"),
            (DayOffForm { date_end: Some("".into()), ..form() }, "dateEnd", "Digite a data de fim"),
            (
                DayOffForm { date_start: Some("2000-12-31".into()), ..form() },
                "dateStart",
                "Digite uma data válida",
            ),
            (
                DayOffForm { date_start: Some("10/12/2026".into()), ..form() },
                "dateStart",
                "Digite uma data válida",
            ),
            (
                DayOffForm { date_end: Some("2026-12-09".into()), ..form() },
                "dateEnd",
                "Data deve ser maior ou igual à data inicio",
            ),
            (DayOffForm { start_time: None, ..form() }, "startTime", "Digite o horário inicial"),
            (DayOffForm { end_time: Some(" ".into()), ..form() }, "endTime", "Digite o horário final"),
            (DayOffForm { start_time: Some("2pm".into()), ..form() }, "startTime", "Formato incorreto."),
            (
                DayOffForm { end_time: Some("13:59".into()), ..form() },
                "endTime",
                "Horário deve ser maior que horário início",
            ),
            (DayOffForm { id_professional: None, ..form() }, "idProfessional", "Informe o profissional"),
            (DayOffForm { id_professional: Some(0), ..form() }, "idProfessional", "Informe o profissional"),
        ];
        for (form, field, message) in cases {
            let errors = form.validate().err().unwrap_or_default();
            assert_eq!(errors.get(field), Some(message), "{field}: {errors:?}");
        }
        // A window on a range of days only needs each time to be valid.
        let overnight =
            DayOffForm { date_end: Some("2026-12-11".into()), end_time: Some("08:00".into()), ..form() };
        assert!(overnight.validate().is_ok());
        // The spec's all-day body sends the times as null.
        let all_day = DayOffForm { all_day: Some(true), start_time: None, end_time: None, ..form() };
        assert!(all_day.validate().is_ok());
    }

    #[test]
    fn the_description_has_its_bound() {
        let description = |n: usize| Some(format!("Férias {}", "ã".repeat(n - 7)));
        let at_the_bound = DayOffForm { description: description(MAX_TEXT), ..form() }.validate();
        assert_eq!(at_the_bound.map(|d| d.description.chars().count()), Ok(MAX_TEXT));
        let errors = DayOffForm { description: description(MAX_TEXT + 1), ..form() }.validate();
        assert_eq!(errors.err().unwrap_or_default().get("description"), Some("Máximo de 1.000 caracteres."));
    }

    #[test]
    fn scheduling_changing_and_removing() {
        TestFramework::<DayOff>::with(())
            .given_no_previous_events()
            .when(DayOffCommand::ScheduleDayOff(details()))
            .then_expect_events(vec![DayOffEvent::DayOffScheduled(details())]);
        let changed = DayOffDetails { description: "Férias".into(), ..details() };
        TestFramework::<DayOff>::with(())
            .given(vec![DayOffEvent::DayOffScheduled(details())])
            .when(DayOffCommand::ChangeDayOff(changed.clone()))
            .then_expect_events(vec![DayOffEvent::DayOffChanged(changed.clone())]);
        TestFramework::<DayOff>::with(())
            .given(vec![DayOffEvent::DayOffScheduled(details()), DayOffEvent::DayOffChanged(changed)])
            .when(DayOffCommand::RemoveDayOff)
            .then_expect_events(vec![DayOffEvent::DayOffRemoved]);
    }

    #[test]
    fn an_unchanged_save_records_nothing() {
        TestFramework::<DayOff>::with(())
            .given(vec![DayOffEvent::DayOffScheduled(details())])
            .when(DayOffCommand::ChangeDayOff(details()))
            .then_expect_events(vec![]);
    }

    #[test]
    fn unknown_and_removed_days_off_cannot_be_changed_removed_or_scheduled_again() {
        TestFramework::<DayOff>::with(())
            .given_no_previous_events()
            .when(DayOffCommand::ChangeDayOff(details()))
            .then_expect_error(DayOffError::NotFound);
        TestFramework::<DayOff>::with(())
            .given_no_previous_events()
            .when(DayOffCommand::RemoveDayOff)
            .then_expect_error(DayOffError::NotFound);
        let removed = || vec![DayOffEvent::DayOffScheduled(details()), DayOffEvent::DayOffRemoved];
        TestFramework::<DayOff>::with(())
            .given(removed())
            .when(DayOffCommand::ChangeDayOff(details()))
            .then_expect_error(DayOffError::NotFound);
        TestFramework::<DayOff>::with(())
            .given(removed())
            .when(DayOffCommand::RemoveDayOff)
            .then_expect_error(DayOffError::NotFound);
        TestFramework::<DayOff>::with(())
            .given(removed())
            .when(DayOffCommand::ScheduleDayOff(details()))
            .then_expect_error(DayOffError::AlreadyScheduled);
        TestFramework::<DayOff>::with(())
            .given(vec![DayOffEvent::DayOffScheduled(details())])
            .when(DayOffCommand::ScheduleDayOff(details()))
            .then_expect_error(DayOffError::AlreadyScheduled);
        assert_eq!(DayOffError::NotFound.to_string(), MSG_NOT_FOUND);
    }

    #[test]
    fn a_removed_day_off_has_no_current_state() {
        let mut day_off = DayOff::default();
        day_off.apply(DayOffEvent::DayOffScheduled(details()));
        assert_eq!(day_off.current(), Some(&details()));
        day_off.apply(DayOffEvent::DayOffRemoved);
        assert_eq!(day_off.current(), None);
    }

    #[test]
    fn events_are_pinned() {
        crate::event_payload::assert_pinned::<DayOff>(&[
            DayOffEvent::DayOffScheduled(details()),
            DayOffEvent::DayOffChanged(details()),
            DayOffEvent::DayOffRemoved,
        ]);
    }
}
