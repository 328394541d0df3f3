//! The data set as rows of the `events` table, written exactly as command-api writes them
//! through postgres-es: the payload is the domain event enum serialized by serde_json, the
//! metadata is `EventMetadata::to_map()`, `event_type`/`event_version` come from
//! `DomainEvent`, `aggregate_type` from `Aggregate::TYPE`, and `sequence` counts from 1 in
//! each stream. The `appointment_slot` trigger claims each booking's slot from its payload
//! and frees it on cancellation, as for a command; every registration carries its unique claims (CNPJ, CPF, e-mail), so the claim tables end up as if
//! the commands had been sent one by one.

use chrono::{DateTime, Duration, NaiveDateTime, NaiveTime, Utc};
use cqrs_es::DomainEvent;
use navalha_domain::appointment::{Appointment, AppointmentEvent, BookedService, Booking, TimesType};
use navalha_domain::business::{Business, BusinessEvent};
use navalha_domain::client::{cpf_claim, Client, ClientDetails, ClientEvent, CPF_SCOPE as CLIENT_CPF_SCOPE};
use navalha_domain::company::{
    Company, CompanyEvent, CompanyProfile, Reminders, CNPJ_SCOPE, DEFAULT_TIME_ZONE,
};
use navalha_domain::metadata::EventMetadata;
use navalha_domain::online::OnlineRules;
use navalha_domain::professional::{
    status as professional_status, Employment, Membership, OfferedService, PersonalData, Professional,
    ProfessionalEvent, CPF_SCOPE as PROFESSIONAL_CPF_SCOPE, EMAIL_SCOPE,
};
use navalha_domain::role::Role;
use navalha_domain::service::{CatalogueEntry, Service, ServiceEvent};
use navalha_domain::validation::TimeOfDay;
use navalha_domain::values::{Address, Cpf};
use navalha_domain::Aggregate;

use crate::dataset::{Dataset, CATALOGUE};

/// One row of `events`.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRow {
    /// `Aggregate::TYPE`.
    pub aggregate_type: &'static str,
    /// The stream's id.
    pub aggregate_id: String,
    /// 1, 2, ... within the stream.
    pub sequence: i64,
    /// `DomainEvent::event_type`.
    pub event_type: String,
    /// `DomainEvent::event_version`.
    pub event_version: String,
    /// The event, as JSON text.
    pub payload: String,
    /// The metadata map, as JSON text.
    pub metadata: String,
}

/// First id of each range reserved on the id sequences; the data set's index `i` gets
/// `first + i`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IdBases {
    /// `company_id_seq`.
    pub company: i64,
    /// `service_id_seq`.
    pub service: i64,
    /// `professional_id_seq`.
    pub professional: i64,
    /// `company_professional_id_seq` (one membership per professional).
    pub membership: i64,
    /// `professional_service_id_seq`.
    pub offer: i64,
    /// `client_id_seq`.
    pub client: i64,
    /// `appointment_id_seq`.
    pub appointment: i64,
}

/// Who books the appointments (the demo admin, as at the front desk).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// Their professional id.
    pub id: i64,
    /// Their name.
    pub name: String,
}

/// Turns a data set into event rows.
pub struct EventBuilder<'a> {
    data: &'a Dataset,
    ids: IdBases,
    actor: Actor,
    business_id: i64,
    system: EventMetadata,
}

fn idx(base: i64, index: usize) -> i64 {
    base + index as i64
}

fn minutes(minute: u16) -> TimeOfDay {
    TimeOfDay::from_minutes(minute).unwrap_or_else(|| unreachable!("{minute} is a time of day"))
}

fn row<A: Aggregate>(id: i64, sequence: i64, event: &A::Event, metadata: &EventMetadata) -> EventRow {
    EventRow {
        aggregate_type: A::TYPE,
        aggregate_id: id.to_string(),
        sequence,
        event_type: event.event_type(),
        event_version: event.event_version(),
        payload: serde_json::to_string(event).unwrap_or_else(|e| unreachable!("events serialize: {e}")),
        metadata: serde_json::to_string(&metadata.to_map())
            .unwrap_or_else(|e| unreachable!("maps serialize: {e}")),
    }
}

/// The benchmark's big business, the first of an empty database (the demo's).
pub const BENCH_BUSINESS_ID: i64 = 1;

impl<'a> EventBuilder<'a> {
    /// A builder for `data` of business `business_id` with these id ranges, bookings made by
    /// `actor`.
    pub fn new(data: &'a Dataset, ids: IdBases, actor: Actor, business_id: i64) -> Self {
        let system = EventMetadata::system("Carga do benchmark", business_id);
        Self { data, ids, actor, business_id, system }
    }

    /// The business's opening (`command-api open-business` writes it first).
    pub fn business_row(&self, name: &str) -> EventRow {
        let event = BusinessEvent::BusinessOpened { name: name.to_owned() };
        row::<Business>(self.business_id, 1, &event, &self.system)
    }

    /// A professional's event, written as the benchmark's load.
    pub fn professional_row(&self, id: i64, sequence: i64, event: &ProfessionalEvent) -> EventRow {
        row::<Professional>(id, sequence, event, &self.system)
    }

    /// The database id of professional `p`.
    pub fn professional_id(&self, p: usize) -> i64 {
        idx(self.ids.professional, p)
    }

    /// The membership id of professional `p`.
    pub fn membership_id(&self, p: usize) -> i64 {
        idx(self.ids.membership, p)
    }

    /// The company id of unit `u`.
    pub fn company_id(&self, u: usize) -> i64 {
        idx(self.ids.company, u)
    }

    /// The catalogue id of service `s`.
    pub fn service_id(&self, s: usize) -> i64 {
        idx(self.ids.service, s)
    }

    /// The client id of client `c`.
    pub fn client_id(&self, c: usize) -> i64 {
        idx(self.ids.client, c)
    }

    /// The appointment id of visit `v`.
    pub fn appointment_id(&self, v: usize) -> i64 {
        idx(self.ids.appointment, v)
    }

    /// Units, catalogue, professionals and clients: what must exist before appointments.
    pub fn setup_rows(&self) -> Vec<EventRow> {
        let mut rows = Vec::new();
        for (u, unit) in self.data.units.iter().enumerate() {
            let id = self.company_id(u);
            let profile = CompanyProfile {
                name: unit.name.clone(),
                cnpj: unit.cnpj.clone(),
                email: format!("unidade{}@bench.navalha.dev", u + 1),
                phone: format!("119{:08}", 66_000_000 + u),
                whatsapp: true,
                status: true,
                facebook: "https://facebook.com/navalha".to_owned(),
                instagram: "https://instagram.com/navalha".to_owned(),
                observation: String::new(),
                address: Address {
                    zip_code: unit.zip.to_owned(),
                    street: unit.street.to_owned(),
                    number: format!("{}", 100 + u * 10),
                    district: unit.district.to_owned(),
                    city: unit.city.to_owned(),
                    state: unit.state.to_owned(),
                    complement: String::new(),
                },
                time_zone: DEFAULT_TIME_ZONE.to_owned(),
                online: OnlineRules::default(),
                attendant_discount_cap_percent: None,
                commission: Default::default(),
                allow_negative_stock: false,
                reminders: Reminders::default(),
            };
            let claimed = self.system.claiming(CNPJ_SCOPE, &unit.cnpj);
            rows.push(row::<Company>(id, 1, &CompanyEvent::CompanyRegistered(profile), &claimed));
            let mut sequence = 1;
            for (week_day, period) in unit.hours.iter().enumerate() {
                if let Some(period) = period {
                    sequence += 1;
                    let event =
                        CompanyEvent::CompanyDaySet { week_day: week_day as u8, period: Some(*period) };
                    rows.push(row::<Company>(id, sequence, &event, &self.system));
                }
            }
        }
        for (s, item) in CATALOGUE.iter().enumerate() {
            let entry = CatalogueEntry {
                description: item.description.to_owned(),
                default_cents: item.cents,
                default_minutes: item.minutes,
                active: true,
            };
            rows.push(row::<Service>(
                self.service_id(s),
                1,
                &ServiceEvent::ServiceCreated(entry),
                &self.system,
            ));
        }
        for (p, person) in self.data.staff.iter().enumerate() {
            let id = self.professional_id(p);
            let unit = &self.data.units[person.unit];
            let personal = PersonalData {
                name: person.name.clone(),
                cpf: person.cpf.clone(),
                email: person.email.clone(),
                phone: person.phone.clone(),
                whatsapp: p % 2 == 0,
                birth_date: Some(person.birth_date),
                address: Address {
                    zip_code: unit.zip.to_owned(),
                    street: unit.street.to_owned(),
                    number: format!("{}", 10 + p),
                    district: unit.district.to_owned(),
                    city: unit.city.to_owned(),
                    state: unit.state.to_owned(),
                    complement: String::new(),
                },
            };
            let employment = Employment {
                color: person.color.to_owned(),
                role: person.role,
                status: professional_status::ACTIVE,
                memberships: vec![Membership {
                    id: self.membership_id(p),
                    company_id: self.company_id(person.unit),
                }],
            };
            let claimed = self
                .system
                .claiming(PROFESSIONAL_CPF_SCOPE, &person.cpf)
                .claiming(EMAIL_SCOPE, &person.email);
            rows.push(row::<Professional>(
                id,
                1,
                &ProfessionalEvent::ProfessionalRegistered { personal, employment },
                &claimed,
            ));
            let mut sequence = 1;
            for (week_day, periods) in person.hours.iter().enumerate() {
                if !periods.is_empty() {
                    sequence += 1;
                    let event = ProfessionalEvent::WorkingDaySet {
                        week_day: week_day as u8,
                        periods: periods.clone(),
                    };
                    rows.push(row::<Professional>(id, sequence, &event, &self.system));
                }
            }
            for offer in &person.offers {
                sequence += 1;
                let offered = OfferedService {
                    id: idx(self.ids.offer, offer.index),
                    service_id: self.service_id(offer.service),
                    minutes: offer.minutes,
                    cents: offer.cents,
                    combo: CATALOGUE[offer.service].combo,
                    active: true,
                    interval_after: 0,
                };
                rows.push(row::<Professional>(
                    id,
                    sequence,
                    &ProfessionalEvent::ServiceAdded(offered),
                    &self.system,
                ));
            }
        }
        for (c, customer) in self.data.customers.iter().enumerate() {
            let cpf = Cpf::parse(&customer.cpf)
                .map(|c| c.as_str().to_owned())
                .unwrap_or_else(|_| customer.cpf.clone());
            let details = ClientDetails {
                name: customer.name.clone(),
                email: customer.email.clone(),
                phone: customer.phone.clone(),
                whatsapp: customer.whatsapp,
                birth_date: customer.birth_date,
                status: customer.active,
            };
            let claimed = self.system.claiming(CLIENT_CPF_SCOPE, &cpf_claim(self.business_id, &cpf));
            rows.push(row::<Client>(
                self.client_id(c),
                1,
                &ClientEvent::ClientRegistered { cpf, details, online: false },
                &claimed,
            ));
        }
        rows
    }

    /// The booking of visit `v`, as command-api would build it.
    pub fn booking(&self, v: usize) -> Booking {
        let visit = &self.data.visits[v];
        let person = &self.data.staff[visit.professional];
        Booking {
            membership_id: self.membership_id(visit.professional),
            professional_id: self.professional_id(visit.professional),
            company_id: self.company_id(person.unit),
            client_id: self.client_id(visit.client),
            date: visit.date,
            start: minutes(visit.start),
            end: minutes(visit.end),
            services: visit
                .offers
                .iter()
                .map(|o| {
                    let offer = &person.offers[*o];
                    BookedService {
                        service_id: self.service_id(offer.service),
                        description: CATALOGUE[offer.service].description.to_owned(),
                        minutes: offer.minutes,
                        cents: offer.cents,
                        interval_after: 0,
                    }
                })
                .collect(),
            observation: visit.observation.to_owned(),
            times_type: TimesType::OnlyAvailables,
            online: false,
            newcomer: false,
            client_overlap: false,
            series: None,
        }
    }

    fn actor_metadata(&self, v: usize, at: NaiveDateTime) -> EventMetadata {
        let mut metadata = EventMetadata::system(&self.actor.name, self.business_id);
        metadata.user_id = Some(self.actor.id);
        metadata.role = Some(Role::Admin);
        metadata.request_id = format!("bench-{v}");
        metadata.client_ip = "127.0.0.1".to_owned();
        metadata.at = DateTime::<Utc>::from_naive_utc_and_offset(at, Utc);
        metadata
    }

    /// The events of appointments `range` (indexes into the visits): the booking, then a
    /// confirmation or a cancellation for some.
    pub fn appointment_rows(&self, range: std::ops::Range<usize>) -> Vec<EventRow> {
        let mut rows = Vec::with_capacity(range.len() * 2);
        for v in range {
            let visit = &self.data.visits[v];
            let id = self.appointment_id(v);
            let booking = self.booking(v);
            let metadata = self.actor_metadata(v, visit.booked_at);
            rows.push(row::<Appointment>(id, 1, &AppointmentEvent::AppointmentBooked(booking), &metadata));
            // Follow-ups an hour later (or at the visit, for past ones): never after now.
            let later = (visit.booked_at + Duration::hours(1))
                .min(visit.date.and_time(NaiveTime::MIN).max(visit.booked_at + Duration::minutes(1)));
            let follow_up = self.actor_metadata(v, later);
            if visit.confirmed {
                rows.push(row::<Appointment>(id, 2, &AppointmentEvent::AppointmentConfirmed, &follow_up));
            }
            if visit.cancelled {
                rows.push(row::<Appointment>(id, 2, &AppointmentEvent::AppointmentCancelled, &follow_up));
            }
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use chrono::NaiveDate;

    use super::*;
    use crate::dataset::Params;

    fn data() -> Dataset {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap_or_default();
        let params = Params {
            units: 3,
            professionals: 6,
            big_unit_professionals: 3,
            clients: 50,
            appointments: 400,
            seed: 9,
            namespace: 0,
        };
        Dataset::generate(&params, today, today.and_hms_opt(15, 0, 0).unwrap_or_default())
    }

    fn bases() -> IdBases {
        IdBases {
            company: 4,
            service: 6,
            professional: 9,
            membership: 12,
            offer: 30,
            client: 13,
            appointment: 1,
        }
    }

    fn actor() -> Actor {
        Actor { id: 1, name: "Ana Administradora".to_owned() }
    }

    #[test]
    fn payloads_read_back_as_domain_events() {
        let data = data();
        let builder = EventBuilder::new(&data, bases(), actor(), BENCH_BUSINESS_ID);
        let rows = builder.setup_rows();
        let mut streams: HashMap<(&str, String), Vec<i64>> = HashMap::new();
        for row in &rows {
            streams.entry((row.aggregate_type, row.aggregate_id.clone())).or_default().push(row.sequence);
            assert_eq!(row.event_version, navalha_domain::EVENT_VERSION);
            match row.aggregate_type {
                "Company" => {
                    let event: CompanyEvent =
                        serde_json::from_str(&row.payload).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(row.event_type, event.event_type());
                }
                "Professional" => {
                    let event: ProfessionalEvent =
                        serde_json::from_str(&row.payload).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(row.event_type, event.event_type());
                }
                "Client" => {
                    let _: ClientEvent = serde_json::from_str(&row.payload).unwrap_or_else(|e| panic!("{e}"));
                }
                "Service" => {
                    let _: ServiceEvent =
                        serde_json::from_str(&row.payload).unwrap_or_else(|e| panic!("{e}"));
                }
                other => panic!("unexpected aggregate {other}"),
            }
        }
        for sequences in streams.values() {
            assert_eq!(*sequences, (1..=sequences.len() as i64).collect::<Vec<_>>());
        }
        assert_eq!(streams.len(), 3 + CATALOGUE.len() + 6 + 50);
        let first = &rows[0];
        let metadata: HashMap<String, String> = serde_json::from_str(&first.metadata).unwrap_or_default();
        let claims: serde_json::Value =
            serde_json::from_str(metadata.get("unique_claims").map_or("null", String::as_str))
                .unwrap_or_default();
        assert_eq!(claims[0]["scope"], "company_cnpj");
    }

    #[test]
    fn bookings_are_written_as_command_api_writes_them() {
        let data = data();
        let builder = EventBuilder::new(&data, bases(), actor(), BENCH_BUSINESS_ID);
        let rows = builder.appointment_rows(0..data.visits.len());
        let booked: Vec<&EventRow> = rows.iter().filter(|r| r.event_type == "AppointmentBooked").collect();
        assert_eq!(booked.len(), data.visits.len());
        for row in &booked {
            let AppointmentEvent::AppointmentBooked(booking) =
                serde_json::from_str(&row.payload).unwrap_or_else(|e| panic!("{e}"))
            else {
                panic!("not a booking: {}", row.payload)
            };
            let metadata: HashMap<String, String> = serde_json::from_str(&row.metadata).unwrap_or_default();
            assert_eq!(metadata.get("role").map(String::as_str), Some("ADMIN"));
            assert_eq!(metadata.get("user_id").map(String::as_str), Some("1"));
            let minutes: i64 = booking.services.iter().map(|s| s.minutes).sum();
            assert_eq!(i64::from(booking.end.minutes() - booking.start.minutes()), minutes);
        }
        let cancelled = rows.iter().filter(|r| r.event_type == "AppointmentCancelled").count();
        assert_eq!(cancelled, data.visits.iter().filter(|v| v.cancelled).count());
    }
}
