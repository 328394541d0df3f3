//! An appointment ('agendamento'): a client booked with a professional in a unit, for
//! some services, at a time on the unit's wall clock.
//!
//! Aggregate id = the appointment's number (users see 'Agendamento N.º {id}'). That no two
//! active appointments of one professional overlap is enforced by PostgreSQL in the same
//! transaction as the events (the `appointment_slot` migration). The aggregate decides
//! first, against the day command-api read ([`Day`]), to give the precise refusal.

use chrono::{NaiveDate, NaiveDateTime};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::availability::{DayRules, Span, Unavailable};
use crate::series::SeriesLink;
use crate::validation::TimeOfDay;

/// How free a booking's time must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TimesType {
    /// Inside working and opening hours, outside days off, holidays and other bookings.
    OnlyAvailables,
    /// Anywhere, as long as it overlaps no other booking.
    AllTimes,
}

impl TimesType {
    /// The wire and read-model code, as serialized: `ONLY_AVAILABLES` or `ALL_TIMES`.
    pub fn code(self) -> &'static str {
        match self {
            TimesType::OnlyAvailables => "ONLY_AVAILABLES",
            TimesType::AllTimes => "ALL_TIMES",
        }
    }

    /// Reads the query or body value; absent (the mobile flow) means `ONLY_AVAILABLES`.
    pub fn parse(text: Option<&str>) -> Option<TimesType> {
        match text.map(str::trim).filter(|t| !t.is_empty()) {
            None | Some("ONLY_AVAILABLES") => Some(TimesType::OnlyAvailables),
            Some("ALL_TIMES") => Some(TimesType::AllTimes),
            Some(_) => None,
        }
    }
}

/// A service as booked: what it cost and took with that professional at booking time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookedService {
    /// The catalogue service.
    pub service_id: i64,
    /// Its description.
    pub description: String,
    /// Minutes.
    pub minutes: i64,
    /// Price in cents.
    pub cents: i64,
    /// Minutes the professional stays busy after it ('Intervalo após', issue 45), as
    /// offered when booked; the client has left by then.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub interval_after: i64,
}

fn is_zero(minutes: &i64) -> bool {
    *minutes == 0
}

/// What a booking is: who, with whom, where, when and for what.
/// How far back a staff booking may be dated (ALL_TIMES records a visit after the fact).
pub const BOOKING_DAYS_BACK: i64 = 365;
/// How far ahead any booking may be dated.
pub const BOOKING_DAYS_AHEAD: i64 = 730;

/// The days a booking may fall on, from `today` on the unit's clock: ALL_TIMES accepted any
/// date from year 1 to 9999 (issue 39). `None` inside, else the message for the field.
pub fn outside_booking_window(date: NaiveDate, today: NaiveDate) -> Option<String> {
    let (first, last) = (
        today - chrono::Duration::days(BOOKING_DAYS_BACK),
        today + chrono::Duration::days(BOOKING_DAYS_AHEAD),
    );
    (date < first || date > last)
        .then(|| format!("Escolha uma data entre {} e {}", first.format("%d/%m/%Y"), last.format("%d/%m/%Y")))
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Booking {
    /// IdCompanyProfessional: the professional in the unit.
    pub membership_id: i64,
    /// The professional.
    pub professional_id: i64,
    /// The unit.
    pub company_id: i64,
    /// The client.
    pub client_id: i64,
    /// The day, on the unit's wall clock.
    pub date: NaiveDate,
    /// Start.
    pub start: TimeOfDay,
    /// End: the start plus the services' minutes.
    pub end: TimeOfDay,
    /// The services.
    pub services: Vec<BookedService>,
    /// Notes.
    pub observation: String,
    /// How it was checked.
    pub times_type: TimesType,
    /// Booked by the client on the unit's public page (issue 18), not by staff.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub online: bool,
    /// Booked online by a newcomer: a client whose record was made online and not confirmed
    /// by staff (issue 39). The unit's newcomer rules count these (the slot keeps the mark).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub newcomer: bool,
    /// The desk chose 'Agendar mesmo assim': the client may be in another chair at this
    /// time (issue 45). Without it a time overlapping another of the client's appointments
    /// is refused, here and by PostgreSQL (`appointment_slot_client_no_overlap`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub client_overlap: bool,
    /// The regulars' series it belongs to (issue 45 point 4), kept by every change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesLink>,
}

impl Booking {
    /// This booking at the prices `booked` promised for the services both have: a move or an
    /// edit keeps what the client was told (issue 45) unless the desk asks for the new
    /// professional's prices (`reprice`). A service added now is at its price now.
    pub fn keeping_prices_of(mut self, booked: &Booking) -> Booking {
        for service in &mut self.services {
            if let Some(promised) = booked.services.iter().find(|old| old.service_id == service.service_id) {
                service.cents = promised.cents;
            }
        }
        self
    }

    /// The end of a booking starting at `start`: the sum of the services' minutes later, or
    /// `None` when that passes 23:59.
    pub fn end_of(start: TimeOfDay, services: &[BookedService]) -> Option<TimeOfDay> {
        let minutes: i64 = services.iter().map(|s| s.minutes).sum();
        u16::try_from(i64::from(start.minutes()) + minutes).ok().and_then(TimeOfDay::from_minutes)
    }

    /// The minutes after its end the professional stays busy: the services' intervals.
    pub fn interval_after(&self) -> u16 {
        u16::try_from(self.services.iter().map(|s| s.interval_after.max(0)).sum::<i64>()).unwrap_or(u16::MAX)
    }

    /// The professional's time it takes: from its start to its end plus the services'
    /// intervals, which must fit the working and opening hours as the services do. The
    /// client's is `start..end`.
    pub fn professional_span(&self) -> Span {
        Span { start: self.start.minutes(), end: self.end.minutes().saturating_add(self.interval_after()) }
    }

    /// When it starts.
    pub fn starts_at(&self) -> NaiveDateTime {
        self.date.and_time(self.start.into())
    }

    /// Whether its time may be taken on `day`; else the first rule it breaks. `ALL_TIMES`
    /// lifts the clock, working hours, days off and holidays, not the unit's hours or the
    /// other bookings.
    pub fn check(&self, day: &Day) -> Result<(), AppointmentError> {
        let span = self.professional_span();
        let verdict = match self.times_type {
            TimesType::AllTimes => day.rules.check_all_times(span),
            TimesType::OnlyAvailables if self.starts_at() < day.now => {
                return Err(AppointmentError::PastTime)
            }
            TimesType::OnlyAvailables => day.rules.check(span),
        };
        verdict.map_err(AppointmentError::from)?;
        let client_span = Span { start: self.start.minutes(), end: self.end.minutes() };
        if !self.client_overlap && day.client_busy.iter().any(|other| other.overlaps(client_span)) {
            return Err(AppointmentError::ClientBusy);
        }
        Ok(())
    }
}

/// What a booking's time is checked against: the professional's day as command-api read it
/// (their working periods, the unit's hours, days off and holidays, their other bookings)
/// and the unit's wall clock.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Day {
    /// The day's rules for the booking's professional and unit.
    pub rules: DayRules,
    /// Now, on the unit's wall clock.
    pub now: NaiveDateTime,
    /// The client's other active appointments that day, with any professional of the
    /// business: a client is in one chair at a time.
    pub client_busy: Vec<Span>,
}

impl Day {
    /// A day with no rules and no clock, for appointments recorded as they happened (the
    /// demo's history). PostgreSQL still refuses an overlap.
    pub fn unrestricted() -> Self {
        let rules = DayRules { working: vec![Span::DAY], opening: Some(Span::DAY), ..DayRules::default() };
        Self { rules, now: NaiveDateTime::MIN, client_busy: Vec::new() }
    }
}

/// Whether an appointment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Standing {
    /// Not booked yet.
    #[default]
    None,
    /// Booked and not cancelled.
    Active,
    /// Cancelled.
    Cancelled,
}

/// Whether the client came (issue 41). 'Atendido' is not here: it is the appointment's
/// comanda, closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Attendance {
    /// Nothing recorded.
    #[default]
    Expected,
    /// 'Cliente chegou'.
    Arrived,
    /// 'Não compareceu'.
    NoShow,
}

impl Attendance {
    /// The day list's `Attendance` (`ARRIVED`, `NO_SHOW`), empty when nothing was recorded.
    pub fn code(self) -> &'static str {
        match self {
            Attendance::Expected => "",
            Attendance::Arrived => "ARRIVED",
            Attendance::NoShow => "NO_SHOW",
        }
    }
}

/// An appointment.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Appointment {
    booking: Option<Booking>,
    standing: Standing,
    confirmed: bool,
    #[serde(default)]
    attendance: Attendance,
}

impl Appointment {
    /// The booking, `None` before it is made.
    pub fn booking(&self) -> Option<&Booking> {
        self.booking.as_ref()
    }

    /// Active or cancelled.
    pub fn standing(&self) -> Standing {
        self.standing
    }

    /// Whether the client confirmed it.
    pub fn confirmed(&self) -> bool {
        self.confirmed
    }

    /// Whether the client came.
    pub fn attendance(&self) -> Attendance {
        self.attendance
    }
}

/// What can be done with an appointment.
#[derive(Debug, Clone, PartialEq)]
pub enum AppointmentCommand {
    /// Book it, if its time is free on `day`.
    Book {
        /// The booking.
        booking: Booking,
        /// Its professional's day.
        day: Day,
    },
    /// Move it or change its services, client or notes: not once it started, and only to a
    /// time free on `day` (which leaves this appointment out).
    Change {
        /// The new booking.
        booking: Booking,
        /// The new booking's professional's day.
        day: Day,
    },
    /// The client confirmed it ('Confirmar'): not once it started (`now`, the unit's clock).
    Confirm { now: NaiveDateTime },
    /// Cancel it (`DELETE scheduling/{id}`).
    Cancel,
    /// 'Cliente chegou': on its day.
    Arrive { now: NaiveDateTime },
    /// 'Não compareceu': from its start on, unless the client arrived.
    MarkNoShow { now: NaiveDateTime },
    /// Undoes 'Não compareceu', on its day.
    UndoNoShow { now: NaiveDateTime },
}

/// What happened to an appointment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum AppointmentEvent {
    /// It was booked.
    AppointmentBooked(Booking),
    /// It was changed.
    AppointmentChanged(Booking),
    /// The client confirmed it.
    AppointmentConfirmed,
    /// It moved (day, time or professional) after the client confirmed it: a new promise the
    /// client has not confirmed yet (issue 44, point 4).
    ConfirmationCleared,
    /// It was cancelled.
    AppointmentCancelled,
    /// 'Cliente chegou'.
    ClientArrived,
    /// 'Não compareceu'.
    NoShowMarked,
    /// 'Não compareceu' undone.
    NoShowUndone,
}

impl DomainEvent for AppointmentEvent {
    fn event_type(&self) -> String {
        match self {
            AppointmentEvent::AppointmentBooked(_) => "AppointmentBooked",
            AppointmentEvent::AppointmentChanged(_) => "AppointmentChanged",
            AppointmentEvent::AppointmentConfirmed => "AppointmentConfirmed",
            AppointmentEvent::ConfirmationCleared => "ConfirmationCleared",
            AppointmentEvent::AppointmentCancelled => "AppointmentCancelled",
            AppointmentEvent::ClientArrived => "ClientArrived",
            AppointmentEvent::NoShowMarked => "NoShowMarked",
            AppointmentEvent::NoShowUndone => "NoShowUndone",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        crate::EVENT_VERSION.to_owned()
    }
}

/// Why an appointment command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppointmentError {
    /// The id is taken (an idempotent retry lands here).
    #[error("Agendamento já cadastrado.")]
    AlreadyBooked,
    /// No such appointment.
    #[error("Agendamento não encontrado.")]
    NotFound,
    /// It already started.
    #[error("Não é possível editar um agendamento passado")]
    InThePast,
    /// It was cancelled.
    #[error("Não é possível alterar um agendamento cancelado.")]
    Cancelled,
    /// A new time before now (`ONLY_AVAILABLES`).
    #[error("Não é possível agendar em um horário passado")]
    PastTime,
    /// A time outside the professional's working periods.
    #[error("Horário fora do expediente do profissional.")]
    OutsideWorkingHours,
    /// A time outside the unit's opening hours.
    #[error("A barbearia está fechada neste horário.")]
    UnitClosed,
    /// A time on a day off, a vacation or a holiday.
    #[error("O profissional não atende neste horário (folga, férias ou feriado).")]
    Blocked,
    /// A time overlapping another of the professional's bookings.
    #[error("Horário indisponível: o profissional já tem um agendamento neste horário.")]
    SlotTaken,
    /// A time overlapping another of the client's appointments, not allowed by the desk.
    #[error("Este cliente já tem outro agendamento neste horário.")]
    ClientBusy,
    /// 'Confirmar' on an appointment that already started.
    #[error("Não é possível confirmar um agendamento passado.")]
    ConfirmPast,
    /// 'Cliente chegou' on another day than the appointment's.
    #[error("Só é possível registrar a chegada no dia do agendamento.")]
    ArrivalNotToday,
    /// 'Não compareceu' before the start.
    #[error("Só é possível marcar 'Não compareceu' a partir do horário do agendamento.")]
    NoShowTooEarly,
    /// 'Não compareceu' for a client who arrived.
    #[error("O cliente já chegou.")]
    AlreadyArrived,
    /// 'Cliente chegou' for one marked absent.
    #[error("Este agendamento está marcado como 'Não compareceu'. Desfaça antes.")]
    MarkedNoShow,
    /// Undoing a 'Não compareceu' that is not there.
    #[error("Este agendamento não está marcado como 'Não compareceu'.")]
    NotNoShow,
    /// Undoing it after its day.
    #[error("Só é possível desfazer 'Não compareceu' no mesmo dia.")]
    UndoTooLate,
}

impl From<Unavailable> for AppointmentError {
    fn from(why: Unavailable) -> Self {
        match why {
            Unavailable::OutsideWorkingHours => AppointmentError::OutsideWorkingHours,
            Unavailable::UnitClosed => AppointmentError::UnitClosed,
            Unavailable::Blocked => AppointmentError::Blocked,
            Unavailable::Busy => AppointmentError::SlotTaken,
        }
    }
}

impl Aggregate for Appointment {
    const TYPE: &'static str = "Appointment";
    type Command = AppointmentCommand;
    type Event = AppointmentEvent;
    type Error = AppointmentError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        if let AppointmentCommand::Book { booking, day } = command {
            if self.booking.is_some() {
                return Err(AppointmentError::AlreadyBooked);
            }
            booking.check(&day)?;
            sink.write(AppointmentEvent::AppointmentBooked(booking), self).await;
            return Ok(());
        }
        let Some(current) = &self.booking else { return Err(AppointmentError::NotFound) };
        if self.standing == Standing::Cancelled {
            return Err(AppointmentError::Cancelled);
        }
        match command {
            AppointmentCommand::Book { .. } => unreachable!("handled above"),
            AppointmentCommand::Change { booking, day } => {
                // A change never takes an appointment out of its series or into another.
                let booking = Booking { series: current.series, ..booking };
                if current.starts_at() <= day.now {
                    return Err(AppointmentError::InThePast);
                }
                booking.check(&day)?;
                if *current != booking {
                    let moved = (current.date, current.start, current.professional_id)
                        != (booking.date, booking.start, booking.professional_id);
                    sink.write(AppointmentEvent::AppointmentChanged(booking), self).await;
                    if moved && self.confirmed {
                        sink.write(AppointmentEvent::ConfirmationCleared, self).await;
                    }
                }
            }
            AppointmentCommand::Confirm { now } => {
                if current.starts_at() <= now {
                    return Err(AppointmentError::ConfirmPast);
                }
                if !self.confirmed {
                    sink.write(AppointmentEvent::AppointmentConfirmed, self).await;
                }
            }
            AppointmentCommand::Cancel => sink.write(AppointmentEvent::AppointmentCancelled, self).await,
            AppointmentCommand::Arrive { now } => {
                if now.date() != current.date {
                    return Err(AppointmentError::ArrivalNotToday);
                }
                match self.attendance {
                    Attendance::Arrived => {}
                    Attendance::NoShow => return Err(AppointmentError::MarkedNoShow),
                    Attendance::Expected => sink.write(AppointmentEvent::ClientArrived, self).await,
                }
            }
            AppointmentCommand::MarkNoShow { now } => {
                if current.starts_at() > now {
                    return Err(AppointmentError::NoShowTooEarly);
                }
                match self.attendance {
                    Attendance::NoShow => {}
                    Attendance::Arrived => return Err(AppointmentError::AlreadyArrived),
                    Attendance::Expected => sink.write(AppointmentEvent::NoShowMarked, self).await,
                }
            }
            AppointmentCommand::UndoNoShow { now } => {
                if self.attendance != Attendance::NoShow {
                    return Err(AppointmentError::NotNoShow);
                }
                if now.date() != current.date {
                    return Err(AppointmentError::UndoTooLate);
                }
                sink.write(AppointmentEvent::NoShowUndone, self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            AppointmentEvent::AppointmentBooked(booking) => {
                self.booking = Some(booking);
                self.standing = Standing::Active;
            }
            AppointmentEvent::AppointmentChanged(booking) => self.booking = Some(booking),
            AppointmentEvent::AppointmentConfirmed => self.confirmed = true,
            AppointmentEvent::ConfirmationCleared => self.confirmed = false,
            AppointmentEvent::AppointmentCancelled => self.standing = Standing::Cancelled,
            AppointmentEvent::ClientArrived => self.attendance = Attendance::Arrived,
            AppointmentEvent::NoShowMarked => self.attendance = Attendance::NoShow,
            AppointmentEvent::NoShowUndone => self.attendance = Attendance::Expected,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_booking_is_dated_within_a_year_back_and_two_ahead() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap_or_default();
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default();
        assert_eq!(super::outside_booking_window(day(2025, 11, 27), today), None);
        assert_eq!(super::outside_booking_window(day(2028, 11, 26), today), None);
        assert_eq!(
            super::outside_booking_window(day(9999, 12, 31), today).as_deref(),
            Some("Escolha uma data entre 27/11/2025 e 26/11/2028")
        );
        assert!(super::outside_booking_window(day(1, 1, 1), today).is_some());
    }

    use cqrs_es::test::TestFramework;

    use super::*;

    fn time(text: &str) -> TimeOfDay {
        TimeOfDay::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn booking() -> Booking {
        Booking {
            membership_id: 10,
            professional_id: 4,
            company_id: 1,
            client_id: 7,
            date: NaiveDate::from_ymd_opt(2026, 12, 1).unwrap_or_default(),
            start: time("09:00"),
            end: time("09:30"),
            services: vec![BookedService {
                service_id: 1,
                description: "Corte".into(),
                minutes: 30,
                cents: 4500,
                interval_after: 0,
            }],
            observation: String::new(),
            times_type: TimesType::OnlyAvailables,
            online: false,
            newcomer: false,
            client_overlap: false,
            series: None,
        }
    }

    fn at(day: u32, hour: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 12, day).and_then(|d| d.and_hms_opt(hour, 0, 0)).unwrap_or_default()
    }

    /// 1 December at `now`: works 08:00-12:00 in a unit open 08:00-18:00, nothing else.
    fn open(now: NaiveDateTime) -> Day {
        let rules = DayRules {
            working: vec![Span { start: 8 * 60, end: 12 * 60 }],
            opening: Some(Span { start: 8 * 60, end: 18 * 60 }),
            ..DayRules::default()
        };
        Day { rules, now, client_busy: Vec::new() }
    }

    #[test]
    fn a_client_is_in_one_chair_at_a_time_unless_the_desk_allows_it() {
        let mut day = open(at(1, 7));
        // The client's 09:15-09:45 with another professional.
        day.client_busy = vec![Span { start: 9 * 60 + 15, end: 9 * 60 + 45 }];
        assert_eq!(booking().check(&day), Err(AppointmentError::ClientBusy));
        let after = Booking { start: time("09:45"), end: time("10:15"), ..booking() };
        assert_eq!(after.check(&day), Ok(()), "back to back is not an overlap");
        let allowed = Booking { client_overlap: true, ..booking() };
        assert_eq!(allowed.check(&day), Ok(()));
        // The professional's own rules come first.
        day.rules.busy = vec![Span { start: 9 * 60, end: 9 * 60 + 30 }];
        assert_eq!(allowed.check(&day), Err(AppointmentError::SlotTaken));
        // The choice is recorded in the event, and only when made.
        let recorded = serde_json::to_value(&allowed).unwrap_or_default();
        assert_eq!(recorded["client_overlap"], true);
        assert!(serde_json::to_value(booking()).unwrap_or_default().get("client_overlap").is_none());
    }

    #[test]
    fn a_booking_is_refused_for_the_first_rule_its_time_breaks() {
        let at_time = |start: &str, end: &str, times_type| Booking {
            start: time(start),
            end: time(end),
            times_type,
            ..booking()
        };
        let mut day = open(at(1, 9));
        day.rules.blocked = vec![Span { start: 11 * 60, end: 12 * 60 }];
        day.rules.busy = vec![Span { start: 10 * 60, end: 10 * 60 + 30 }];
        let only = TimesType::OnlyAvailables;
        let all = TimesType::AllTimes;
        let cases = [
            (at_time("08:30", "09:00", only), Err(AppointmentError::PastTime)),
            (at_time("12:00", "12:30", only), Err(AppointmentError::OutsideWorkingHours)),
            (at_time("11:30", "12:30", only), Err(AppointmentError::OutsideWorkingHours)),
            (at_time("11:00", "11:30", only), Err(AppointmentError::Blocked)),
            (at_time("10:15", "10:45", only), Err(AppointmentError::SlotTaken)),
            (at_time("09:30", "10:00", only), Ok(())),
            // ALL_TIMES: the clock, working hours and days off are lifted...
            (at_time("08:30", "09:00", all), Ok(())),
            (at_time("12:00", "12:30", all), Ok(())),
            (at_time("11:00", "11:30", all), Ok(())),
            // ...the unit's hours and the other bookings are not.
            (at_time("17:45", "18:15", all), Err(AppointmentError::UnitClosed)),
            (at_time("10:15", "10:45", all), Err(AppointmentError::SlotTaken)),
        ];
        for (booking, expected) in cases {
            assert_eq!(booking.check(&day), expected, "{} {:?}", booking.start, booking.times_type);
        }
        let mut closed = open(at(1, 7));
        closed.rules.opening = None;
        assert_eq!(at_time("09:00", "09:30", only).check(&closed), Err(AppointmentError::UnitClosed));
        assert_eq!(booking().check(&Day::unrestricted()), Ok(()));
        TestFramework::<Appointment>::with(())
            .given_no_previous_events()
            .when(AppointmentCommand::Book { booking: at_time("11:00", "11:30", only), day })
            .then_expect_error(AppointmentError::Blocked);
    }

    #[test]
    fn a_booking_ends_after_its_services_within_the_day() {
        let service = |minutes| BookedService {
            service_id: 1,
            description: "x".into(),
            minutes,
            cents: 0,
            interval_after: 0,
        };
        assert_eq!(Booking::end_of(time("09:00"), &[service(30), service(15)]), Some(time("09:45")));
        assert_eq!(Booking::end_of(time("23:00"), &[service(59)]), Some(time("23:59")));
        assert_eq!(Booking::end_of(time("23:30"), &[service(30)]), None, "24:00 is the next day");
    }

    #[test]
    fn times_type_defaults_to_only_available_times() {
        assert_eq!(TimesType::parse(None), Some(TimesType::OnlyAvailables));
        assert_eq!(TimesType::parse(Some("ALL_TIMES")), Some(TimesType::AllTimes));
        assert_eq!(TimesType::parse(Some("SOMETIMES")), None);
        for times_type in [TimesType::OnlyAvailables, TimesType::AllTimes] {
            assert_eq!(serde_json::to_value(times_type).ok(), Some(serde_json::json!(times_type.code())));
            assert_eq!(TimesType::parse(Some(times_type.code())), Some(times_type));
        }
    }

    #[test]
    fn booking_twice_with_one_id_is_refused() {
        TestFramework::<Appointment>::with(())
            .given(vec![AppointmentEvent::AppointmentBooked(booking())])
            .when(AppointmentCommand::Book { booking: booking(), day: open(at(1, 8)) })
            .then_expect_error(AppointmentError::AlreadyBooked);
    }

    #[test]
    fn a_future_appointment_can_be_moved_a_past_one_cannot() {
        let moved = Booking { start: time("10:00"), end: time("10:30"), ..booking() };
        TestFramework::<Appointment>::with(())
            .given(vec![AppointmentEvent::AppointmentBooked(booking())])
            .when(AppointmentCommand::Change { booking: moved.clone(), day: open(at(1, 8)) })
            .then_expect_events(vec![AppointmentEvent::AppointmentChanged(moved.clone())]);
        TestFramework::<Appointment>::with(())
            .given(vec![AppointmentEvent::AppointmentBooked(booking())])
            .when(AppointmentCommand::Change { booking: moved, day: open(at(1, 9)) })
            .then_expect_error(AppointmentError::InThePast);
        TestFramework::<Appointment>::with(())
            .given(vec![AppointmentEvent::AppointmentBooked(booking())])
            .when(AppointmentCommand::Change { booking: booking(), day: open(at(1, 8)) })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_change_keeps_the_appointment_in_its_series() {
        let series = Some(SeriesLink { id: 5, index: 2, count: 4, every_weeks: 1 });
        let moved = Booking { start: time("10:00"), end: time("10:30"), ..booking() };
        TestFramework::<Appointment>::with(())
            .given(vec![AppointmentEvent::AppointmentBooked(Booking { series, ..booking() })])
            .when(AppointmentCommand::Change { booking: moved.clone(), day: open(at(1, 8)) })
            .then_expect_events(vec![AppointmentEvent::AppointmentChanged(Booking { series, ..moved })]);
    }

    #[test]
    fn a_move_keeps_the_prices_promised_and_prices_a_new_service_now() {
        let service = |service_id, cents| BookedService {
            service_id,
            description: "x".into(),
            minutes: 30,
            cents,
            interval_after: 0,
        };
        let booked = Booking { services: vec![service(1, 4500)], ..booking() };
        let elsewhere =
            Booking { professional_id: 99, services: vec![service(1, 5500), service(2, 3000)], ..booking() };
        let kept = elsewhere.clone().keeping_prices_of(&booked);
        assert_eq!(kept.services.iter().map(|s| s.cents).collect::<Vec<_>>(), [4500, 3000]);
        assert_eq!(kept.professional_id, 99);
    }

    #[test]
    fn a_confirmed_appointment_moved_is_a_new_promise_to_confirm() {
        let confirmed =
            vec![AppointmentEvent::AppointmentBooked(booking()), AppointmentEvent::AppointmentConfirmed];
        let later = Booking { start: time("10:00"), end: time("10:30"), ..booking() };
        TestFramework::<Appointment>::with(())
            .given(confirmed.clone())
            .when(AppointmentCommand::Change { booking: later.clone(), day: open(at(1, 8)) })
            .then_expect_events(vec![
                AppointmentEvent::AppointmentChanged(later),
                AppointmentEvent::ConfirmationCleared,
            ]);
        let other_barber = Booking { professional_id: booking().professional_id + 1, ..booking() };
        TestFramework::<Appointment>::with(())
            .given(confirmed.clone())
            .when(AppointmentCommand::Change { booking: other_barber.clone(), day: open(at(1, 8)) })
            .then_expect_events(vec![
                AppointmentEvent::AppointmentChanged(other_barber),
                AppointmentEvent::ConfirmationCleared,
            ]);
        // A note changed is not a move: the client's word stands.
        let noted = Booking { observation: "Traz o filho".into(), ..booking() };
        TestFramework::<Appointment>::with(())
            .given(confirmed.clone())
            .when(AppointmentCommand::Change { booking: noted.clone(), day: open(at(1, 8)) })
            .then_expect_events(vec![AppointmentEvent::AppointmentChanged(noted)]);
        let mut appointment = Appointment::default();
        for event in [confirmed, vec![AppointmentEvent::ConfirmationCleared]].concat() {
            appointment.apply(event);
        }
        assert!(!appointment.confirmed());
    }

    #[test]
    fn a_cancelled_appointment_is_final() {
        let cancelled =
            vec![AppointmentEvent::AppointmentBooked(booking()), AppointmentEvent::AppointmentCancelled];
        TestFramework::<Appointment>::with(())
            .given(cancelled.clone())
            .when(AppointmentCommand::Cancel)
            .then_expect_error(AppointmentError::Cancelled);
        TestFramework::<Appointment>::with(())
            .given(cancelled.clone())
            .when(AppointmentCommand::Change { booking: booking(), day: open(at(1, 8)) })
            .then_expect_error(AppointmentError::Cancelled);
        TestFramework::<Appointment>::with(())
            .given(cancelled)
            .when(AppointmentCommand::Confirm { now: at(1, 8) })
            .then_expect_error(AppointmentError::Cancelled);
        TestFramework::<Appointment>::with(())
            .given_no_previous_events()
            .when(AppointmentCommand::Cancel)
            .then_expect_error(AppointmentError::NotFound);
    }

    #[test]
    fn confirming_is_recorded_once() {
        TestFramework::<Appointment>::with(())
            .given(vec![AppointmentEvent::AppointmentBooked(booking())])
            .when(AppointmentCommand::Confirm { now: at(1, 8) })
            .then_expect_events(vec![AppointmentEvent::AppointmentConfirmed]);
        TestFramework::<Appointment>::with(())
            .given(vec![
                AppointmentEvent::AppointmentBooked(booking()),
                AppointmentEvent::AppointmentConfirmed,
            ])
            .when(AppointmentCommand::Confirm { now: at(1, 8) })
            .then_expect_events(vec![]);
        // From its start on, it is too late to confirm.
        TestFramework::<Appointment>::with(())
            .given(vec![AppointmentEvent::AppointmentBooked(booking())])
            .when(AppointmentCommand::Confirm { now: at(1, 9) })
            .then_expect_error(AppointmentError::ConfirmPast);
    }

    #[test]
    fn a_client_arrives_on_the_day_or_is_marked_absent_from_the_start_and_that_is_undone_the_same_day() {
        let booked = || vec![AppointmentEvent::AppointmentBooked(booking())];
        let when = |given: Vec<AppointmentEvent>, command| {
            TestFramework::<Appointment>::with(()).given(given).when(command)
        };
        when(booked(), AppointmentCommand::Arrive { now: at(1, 8) })
            .then_expect_events(vec![AppointmentEvent::ClientArrived]);
        when(booked(), AppointmentCommand::Arrive { now: at(30, 8) })
            .then_expect_error(AppointmentError::ArrivalNotToday);
        when(booked(), AppointmentCommand::MarkNoShow { now: at(1, 8) })
            .then_expect_error(AppointmentError::NoShowTooEarly);
        when(booked(), AppointmentCommand::MarkNoShow { now: at(1, 9) })
            .then_expect_events(vec![AppointmentEvent::NoShowMarked]);
        let arrived = [booked(), vec![AppointmentEvent::ClientArrived]].concat();
        when(arrived.clone(), AppointmentCommand::MarkNoShow { now: at(1, 10) })
            .then_expect_error(AppointmentError::AlreadyArrived);
        when(arrived, AppointmentCommand::Arrive { now: at(1, 9) }).then_expect_events(vec![]);
        let absent = [booked(), vec![AppointmentEvent::NoShowMarked]].concat();
        when(absent.clone(), AppointmentCommand::MarkNoShow { now: at(1, 10) }).then_expect_events(vec![]);
        when(absent.clone(), AppointmentCommand::Arrive { now: at(1, 10) })
            .then_expect_error(AppointmentError::MarkedNoShow);
        when(absent.clone(), AppointmentCommand::UndoNoShow { now: at(1, 23) })
            .then_expect_events(vec![AppointmentEvent::NoShowUndone]);
        when(absent, AppointmentCommand::UndoNoShow { now: at(2, 0) })
            .then_expect_error(AppointmentError::UndoTooLate);
        when(booked(), AppointmentCommand::UndoNoShow { now: at(1, 10) })
            .then_expect_error(AppointmentError::NotNoShow);
        let mut state = Appointment::default();
        for event in [AppointmentEvent::AppointmentBooked(booking()), AppointmentEvent::NoShowMarked] {
            state.apply(event);
        }
        assert_eq!(state.attendance().code(), "NO_SHOW");
    }

    #[test]
    fn events_are_pinned() {
        let series = Some(SeriesLink { id: 5, index: 2, count: 4, every_weeks: 2 });
        let booked = Booking {
            observation: "Prefere máquina".into(),
            online: true,
            newcomer: true,
            client_overlap: true,
            series,
            ..booking()
        };
        crate::event_payload::assert_pinned::<Appointment>(&[
            AppointmentEvent::AppointmentBooked(booked.clone()),
            AppointmentEvent::AppointmentChanged(Booking { times_type: TimesType::AllTimes, ..booked }),
            AppointmentEvent::AppointmentConfirmed,
            AppointmentEvent::ConfirmationCleared,
            AppointmentEvent::AppointmentCancelled,
            AppointmentEvent::ClientArrived,
            AppointmentEvent::NoShowMarked,
            AppointmentEvent::NoShowUndone,
        ]);
    }
}
