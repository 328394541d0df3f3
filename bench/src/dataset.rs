//! The benchmark's data set, generated deterministically from a seed: units, a service
//! catalogue, professionals with their hours and services, clients, and appointments that
//! lie inside working and opening hours and never overlap for one professional or client.
//!
//! Everything here is indexed from 0; the database ids are assigned when the events are
//! built (see `events.rs`), from ranges reserved on the id sequences.
//!
//! Capacity: a professional working ~9 hours fits ~12 appointments a day, so 50
//! professionals fit ~12,500 appointments in a month. The month around today gets a
//! realistic occupancy (dense in the past, thinning out over the next two weeks); the rest
//! of the requested appointments are earlier history, filled at the same density, so that
//! the log and the read models have the requested size.

use std::collections::HashMap;

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime};
use navalha_domain::availability::Span;
use navalha_domain::role::Role;
use navalha_domain::validation::{Period, TimeOfDay};

use crate::rng::Rng;

/// How big the data set is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// Units.
    pub units: usize,
    /// Professionals who take appointments.
    pub professionals: usize,
    /// Of them, how many work in the first unit (the big one).
    pub big_unit_professionals: usize,
    /// Clients.
    pub clients: usize,
    /// Appointments.
    pub appointments: usize,
    /// Seed of the generator.
    pub seed: u64,
    /// Which business of the run this is (0: the big one): keeps the CNPJs, the
    /// professionals' CPFs and e-mails, which are unique across businesses, apart.
    pub namespace: u64,
}

/// Days of the month around today before it (today − 15 .. today + 14).
pub const MONTH_BEFORE: i64 = 15;
/// Days of the month around today from today on.
pub const MONTH_AFTER: i64 = 15;
/// The agenda grid, in minutes.
pub const GRID: u16 = 15;

/// A unit.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Trade name.
    pub name: String,
    /// CNPJ digits (valid).
    pub cnpj: String,
    /// City.
    pub city: &'static str,
    /// State.
    pub state: &'static str,
    /// Street.
    pub street: &'static str,
    /// District.
    pub district: &'static str,
    /// CEP.
    pub zip: &'static str,
    /// Opening hours per weekday (0 = Sunday).
    pub hours: [Option<Period>; 7],
}

/// A catalogue service.
#[derive(Debug, Clone)]
pub struct CatalogueItem {
    /// Description.
    pub description: &'static str,
    /// Default price in cents.
    pub cents: i64,
    /// Default minutes.
    pub minutes: i64,
    /// Sold as a combo.
    pub combo: bool,
    /// Weight when a client picks a first service.
    pub weight: u32,
}

/// The bench catalogue.
pub const CATALOGUE: [CatalogueItem; 6] = [
    CatalogueItem { description: "Corte masculino", cents: 4500, minutes: 30, combo: false, weight: 40 },
    CatalogueItem { description: "Barba completa", cents: 3500, minutes: 30, combo: false, weight: 15 },
    CatalogueItem { description: "Corte e barba", cents: 7000, minutes: 60, combo: true, weight: 30 },
    CatalogueItem {
        description: "Sobrancelha na navalha",
        cents: 1500,
        minutes: 15,
        combo: false,
        weight: 5,
    },
    CatalogueItem {
        description: "Pigmentação de barba", cents: 5000, minutes: 45, combo: false, weight: 5
    },
    CatalogueItem { description: "Hidratação capilar", cents: 4000, minutes: 30, combo: false, weight: 5 },
];

/// A service a professional offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    /// Index among all offers (for the `professional_service_id_seq` range).
    pub index: usize,
    /// Index into [`CATALOGUE`].
    pub service: usize,
    /// Their minutes.
    pub minutes: i64,
    /// Their price.
    pub cents: i64,
}

/// A professional.
#[derive(Debug, Clone)]
pub struct Staff {
    /// Full name.
    pub name: String,
    /// CPF digits (valid).
    pub cpf: String,
    /// E-mail.
    pub email: String,
    /// Mobile phone digits.
    pub phone: String,
    /// Birth date.
    pub birth_date: NaiveDate,
    /// Their unit (one membership each).
    pub unit: usize,
    /// Role.
    pub role: Role,
    /// Agenda colour.
    pub color: &'static str,
    /// Working periods per weekday (0 = Sunday).
    pub hours: [Vec<Period>; 7],
    /// Services offered.
    pub offers: Vec<Offer>,
}

/// A client.
#[derive(Debug, Clone)]
pub struct Customer {
    /// Full name.
    pub name: String,
    /// CPF digits (valid).
    pub cpf: String,
    /// E-mail.
    pub email: String,
    /// Mobile phone digits.
    pub phone: String,
    /// WhatsApp flag.
    pub whatsapp: bool,
    /// Birth date.
    pub birth_date: Option<NaiveDate>,
    /// Active or not.
    pub active: bool,
}

/// An appointment.
#[derive(Debug, Clone)]
pub struct Visit {
    /// Index into the professionals.
    pub professional: usize,
    /// Index into the clients.
    pub client: usize,
    /// The day.
    pub date: NaiveDate,
    /// Start minute.
    pub start: u16,
    /// End minute.
    pub end: u16,
    /// The professional's offers booked (indexes into their `offers`).
    pub offers: Vec<usize>,
    /// Notes.
    pub observation: &'static str,
    /// The client confirmed it.
    pub confirmed: bool,
    /// It was cancelled afterwards.
    pub cancelled: bool,
    /// When it was booked (UTC).
    pub booked_at: NaiveDateTime,
}

impl Visit {
    /// Its minutes.
    pub fn span(&self) -> Span {
        Span { start: self.start, end: self.end }
    }
}

/// The whole data set.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Units.
    pub units: Vec<Unit>,
    /// Professionals.
    pub staff: Vec<Staff>,
    /// Clients.
    pub customers: Vec<Customer>,
    /// Appointments, in the order they were booked.
    pub visits: Vec<Visit>,
    /// Offers in all (size of the offer id range).
    pub offer_count: usize,
    /// The first and last day holding appointments.
    pub first_day: NaiveDate,
    /// The last day holding appointments.
    pub last_day: NaiveDate,
}

/// Completes a 9-digit base into a valid CPF.
pub fn cpf_from_base(base: u64) -> String {
    let mut digits: Vec<u32> =
        format!("{:09}", base % 1_000_000_000).chars().filter_map(|c| c.to_digit(10)).collect();
    for len in [9_u32, 10] {
        let sum: u32 = (0..len).map(|i| digits[i as usize] * (len + 1 - i)).sum();
        let rest = (sum * 10) % 11;
        digits.push(if rest == 10 { 0 } else { rest });
    }
    digits.iter().filter_map(|d| char::from_digit(*d, 10)).collect()
}

/// Completes a 12-digit base into a valid CNPJ.
pub fn cnpj_from_base(base: u64) -> String {
    let mut digits: Vec<u32> =
        format!("{:012}", base % 1_000_000_000_000).chars().filter_map(|c| c.to_digit(10)).collect();
    for weights in [&[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2][..], &[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2][..]] {
        let sum: u32 = weights.iter().zip(&digits).map(|(w, d)| w * d).sum();
        let rest = sum % 11;
        digits.push(if rest < 2 { 0 } else { 11 - rest });
    }
    digits.iter().filter_map(|d| char::from_digit(*d, 10)).collect()
}

fn time(minutes: u16) -> TimeOfDay {
    TimeOfDay::from_minutes(minutes).unwrap_or_else(|| unreachable!("{minutes} is a time of day"))
}

fn period(start: (u16, u16), end: (u16, u16)) -> Period {
    Period { start: time(start.0 * 60 + start.1), end: time(end.0 * 60 + end.1) }
}

const PLACES: [(&str, &str, &str, &str, &str); 10] = [
    ("São Paulo", "SP", "Avenida Paulista", "Bela Vista", "01310100"),
    ("Rio de Janeiro", "RJ", "Rua Visconde de Pirajá", "Ipanema", "22410002"),
    ("Belo Horizonte", "MG", "Rua da Bahia", "Lourdes", "30160011"),
    ("Porto Alegre", "RS", "Rua Padre Chagas", "Moinhos de Vento", "90570080"),
    ("Salvador", "BA", "Avenida Sete de Setembro", "Barra", "40130001"),
    ("Recife", "PE", "Avenida Boa Viagem", "Boa Viagem", "51011000"),
    ("Fortaleza", "CE", "Avenida Beira Mar", "Meireles", "60165121"),
    ("Brasília", "DF", "SCLN 210 Bloco A", "Asa Norte", "70862510"),
    ("Goiânia", "GO", "Avenida T-10", "Setor Bueno", "74223060"),
    ("Florianópolis", "SC", "Rua Bocaiúva", "Centro", "88015530"),
];

const FIRST_NAMES: [&str; 24] = [
    "João",
    "Pedro",
    "Lucas",
    "Gabriel",
    "Rafael",
    "Matheus",
    "Gustavo",
    "Felipe",
    "Bruno",
    "Thiago",
    "André",
    "Rodrigo",
    "Marcelo",
    "Eduardo",
    "Leonardo",
    "Vinícius",
    "Caio",
    "Daniel",
    "Diego",
    "Fernando",
    "Henrique",
    "Igor",
    "Júlio",
    "Otávio",
];
const LAST_NAMES: [&str; 24] = [
    "Silva",
    "Santos",
    "Oliveira",
    "Souza",
    "Rodrigues",
    "Ferreira",
    "Alves",
    "Pereira",
    "Lima",
    "Gomes",
    "Costa",
    "Ribeiro",
    "Martins",
    "Carvalho",
    "Almeida",
    "Lopes",
    "Soares",
    "Fernandes",
    "Vieira",
    "Barbosa",
    "Rocha",
    "Dias",
    "Nascimento",
    "Araújo",
];
const AREA_CODES: [&str; 10] = ["11", "21", "31", "51", "71", "81", "85", "61", "62", "48"];
const OBSERVATIONS: [&str; 4] = [
    "Prefere máquina 2 nas laterais",
    "Cliente novo, indicação",
    "Trazer a barba mais curta",
    "Chega 5 min atrasado",
];

/// The three weekly patterns of the professionals, all inside the units' 09:00-21:00.
fn working_hours(pattern: usize) -> [Vec<Period>; 7] {
    let mut hours: [Vec<Period>; 7] = Default::default();
    match pattern % 3 {
        0 => {
            for day in hours.iter_mut().skip(2) {
                *day = vec![period((9, 0), (12, 0)), period((13, 0), (19, 0))];
            }
            hours[6].push(period((19, 30), (21, 0)));
        }
        1 => {
            for day in hours.iter_mut().take(6).skip(1) {
                *day = vec![period((10, 0), (14, 0)), period((15, 0), (20, 0))];
            }
        }
        _ => {
            for day in [1, 3, 4, 5, 6] {
                hours[day] =
                    vec![period((9, 0), (13, 0)), period((14, 0), (18, 0)), period((18, 30), (21, 0))];
            }
        }
    }
    hours
}

/// The chance that the next slot of a working period is booked, on a day `offset` days
/// from today (an empty slot is skipped 15 or 30 minutes at a time).
pub fn occupancy(offset: i64) -> f64 {
    match offset {
        o if o < 0 => 0.85,
        0 => 0.8,
        o => (0.75 - 0.04 * o as f64).max(0.1),
    }
}

impl Dataset {
    /// Generates the data set for `today` (the units' wall-clock date) and `now` (UTC).
    pub fn generate(params: &Params, today: NaiveDate, now: NaiveDateTime) -> Dataset {
        let root = Rng::new(params.seed);
        let units = Self::units(params.units, params.namespace);
        let (staff, offer_count) = Self::staff(params, &mut root.fork(1));
        let customers = Self::customers(params.clients, &mut root.fork(2));
        let mut rng = root.fork(3);
        let active_clients: Vec<usize> = (0..customers.len()).filter(|i| customers[*i].active).collect();

        // The month first, then history backwards, until the requested count.
        let month = (-MONTH_BEFORE..MONTH_AFTER).map(|o| today + Duration::days(o));
        let history = (1..).map(|back| today - Duration::days(MONTH_BEFORE + back));
        let mut visits = Vec::with_capacity(params.appointments);
        let (mut first_day, mut last_day) = (today, today);
        let mut empty_days = 0;
        for date in month.chain(history) {
            if visits.len() >= params.appointments || active_clients.is_empty() || empty_days > 14 {
                break;
            }
            let before = visits.len();
            // The clients' booked spans this day: a client is in one chair at a time.
            let mut clients_busy: HashMap<usize, Vec<(u16, u16)>> = HashMap::new();
            let offset = (date - today).num_days();
            let weekday = date.weekday().num_days_from_sunday() as usize;
            for (p, person) in staff.iter().enumerate() {
                let Some(opening) = units[person.unit].hours[weekday].map(Span::from) else { continue };
                for working in &person.hours[weekday] {
                    let window = Span::from(*working);
                    if !opening.contains(window) {
                        continue;
                    }
                    let mut at = window.start;
                    while at < window.end && visits.len() < params.appointments {
                        if !rng.chance(occupancy(offset)) {
                            at += GRID * (1 + rng.below(2) as u16);
                            continue;
                        }
                        let offers = pick_offers(&mut rng, person);
                        let minutes: i64 = offers.iter().map(|o| person.offers[*o].minutes).sum();
                        let end = at + minutes as u16;
                        if end > window.end {
                            at += GRID;
                            continue;
                        }
                        let start_at = date.and_time(NaiveTime::MIN) + Duration::minutes(i64::from(at));
                        // Booked 1 to 21 days before, at a shop hour; never after now. The unit
                        // is UTC-3: 12:00-20:59 UTC is 09:00-17:59 there.
                        let booked_at = (start_at.date().and_time(NaiveTime::MIN)
                            - Duration::days(1 + rng.below(21) as i64)
                            + Duration::minutes(12 * 60 + rng.below(9 * 60) as i64))
                        .min(now - Duration::minutes(1 + rng.below(600) as i64));
                        let first = rng.below(active_clients.len());
                        let free = |c: &usize| {
                            clients_busy
                                .get(c)
                                .is_none_or(|spans| spans.iter().all(|&(s, e)| e <= at || end <= s))
                        };
                        let Some(client) = (0..active_clients.len())
                            .map(|n| active_clients[(first + n) % active_clients.len()])
                            .find(free)
                        else {
                            at += GRID;
                            continue;
                        };
                        clients_busy.entry(client).or_default().push((at, end));
                        let cancelled = rng.chance(0.07);
                        let confirmed = !cancelled && rng.chance(if offset < 0 { 0.6 } else { 0.2 });
                        visits.push(Visit {
                            professional: p,
                            client,
                            date,
                            start: at,
                            end,
                            offers,
                            observation: if rng.chance(0.1) {
                                OBSERVATIONS[rng.below(OBSERVATIONS.len())]
                            } else {
                                ""
                            },
                            confirmed,
                            cancelled,
                            booked_at,
                        });
                        at = end;
                    }
                }
            }
            if visits.len() > before {
                first_day = first_day.min(date);
                last_day = last_day.max(date);
                empty_days = 0;
            } else {
                empty_days += 1;
            }
        }
        visits.sort_by_key(|v| v.booked_at);
        Dataset { units, staff, customers, visits, offer_count, first_day, last_day }
    }

    fn units(count: usize, namespace: u64) -> Vec<Unit> {
        (0..count)
            .map(|i| {
                let (city, state, street, district, zip) = PLACES[i % PLACES.len()];
                let mut hours = [None; 7];
                for day in hours.iter_mut().skip(1) {
                    *day = Some(period((9, 0), (21, 0)));
                }
                Unit {
                    name: format!("Navalha Bench {:02} {}", i + 1, city),
                    cnpj: cnpj_from_base(700_000_000_000 + (namespace * 1_000 + i as u64) * 10_000 + 1),
                    city,
                    state,
                    street,
                    district,
                    zip,
                    hours,
                }
            })
            .collect()
    }

    fn staff(params: &Params, rng: &mut Rng) -> (Vec<Staff>, usize) {
        let mut offer_count = 0;
        let big = params.big_unit_professionals.min(params.professionals);
        let staff = (0..params.professionals)
            .map(|i| {
                // The big unit first, then the others in turn.
                let unit = if i < big || params.units < 2 { 0 } else { 1 + (i - big) % (params.units - 1) };
                let first_of_unit = i == 0 || (i >= big && i - big < params.units.saturating_sub(1));
                let role = if first_of_unit {
                    Role::BarberLeade
                } else if i % 2 == 0 {
                    Role::Barber1
                } else {
                    Role::Barber2
                };
                let offers = CATALOGUE
                    .iter()
                    .enumerate()
                    .filter(|(s, _)| match s {
                        4 => i % 2 == 0,
                        5 => i % 3 != 0,
                        _ => true,
                    })
                    .map(|(s, item)| {
                        let minutes = if s == 0 && i % 4 == 0 { 45 } else { item.minutes };
                        let offer = Offer {
                            index: offer_count,
                            service: s,
                            minutes,
                            cents: item.cents + 500 * (i as i64 % 3),
                        };
                        offer_count += 1;
                        offer
                    })
                    .collect();
                let first = FIRST_NAMES[rng.below(FIRST_NAMES.len())];
                let last = LAST_NAMES[rng.below(LAST_NAMES.len())];
                Staff {
                    name: format!("{first} {last} Barbeiro{}", i + 1),
                    cpf: cpf_from_base(610_000_000 + (params.namespace * 1_000 + i as u64) * 11),
                    email: match params.namespace {
                        0 => format!("barbeiro{}@bench.navalha.dev", i + 1),
                        n => format!("barbeiro{}.{n}@bench.navalha.dev", i + 1),
                    },
                    phone: format!("{}9{:08}", AREA_CODES[i % AREA_CODES.len()], 71_000_000 + i),
                    birth_date: NaiveDate::from_ymd_opt(
                        1975 + (i % 25) as i32,
                        1 + (i % 12) as u32,
                        1 + (i % 28) as u32,
                    )
                    .unwrap_or_default(),
                    unit,
                    role,
                    color: navalha_domain::professional::PALETTE[i % 12],
                    hours: working_hours(i),
                    offers,
                }
            })
            .collect();
        (staff, offer_count)
    }

    fn customers(count: usize, rng: &mut Rng) -> Vec<Customer> {
        (0..count)
            .map(|i| {
                let first = FIRST_NAMES[rng.below(FIRST_NAMES.len())];
                let middle = LAST_NAMES[rng.below(LAST_NAMES.len())];
                let last = LAST_NAMES[rng.below(LAST_NAMES.len())];
                Customer {
                    name: format!("{first} {middle} {last}"),
                    cpf: cpf_from_base(500_000_000 + i as u64 * 7),
                    email: format!("cliente{}@exemplo.com.br", i + 1),
                    phone: format!("{}9{:08}", AREA_CODES[i % AREA_CODES.len()], 80_000_000 + i),
                    whatsapp: rng.chance(0.8),
                    birth_date: rng.chance(0.7).then(|| {
                        NaiveDate::from_ymd_opt(
                            1960 + rng.below(45) as i32,
                            1 + rng.below(12) as u32,
                            1 + rng.below(28) as u32,
                        )
                        .unwrap_or_default()
                    }),
                    active: !rng.chance(0.01),
                }
            })
            .collect()
    }
}

/// One service (70 %) or two (30 %), the first by popularity, among what the professional
/// offers. Returns indexes into their offers.
pub fn pick_offers(rng: &mut Rng, person: &Staff) -> Vec<usize> {
    let total: u32 = person.offers.iter().map(|o| CATALOGUE[o.service].weight).sum();
    let mut roll = rng.below(total.max(1) as usize) as u32;
    let mut first = 0;
    for (i, offer) in person.offers.iter().enumerate() {
        let weight = CATALOGUE[offer.service].weight;
        if roll < weight {
            first = i;
            break;
        }
        roll -= weight;
    }
    let mut picked = vec![first];
    if person.offers.len() > 1 && rng.chance(0.3) {
        let second = (first + 1 + rng.below(person.offers.len() - 1)) % person.offers.len();
        picked.push(second);
    }
    picked
}

#[cfg(test)]
mod tests {
    use navalha_domain::availability::DayRules;
    use navalha_domain::values::{Cnpj, Cpf};

    use super::*;

    fn small() -> Params {
        Params {
            units: 4,
            professionals: 12,
            big_unit_professionals: 5,
            clients: 500,
            appointments: 6000,
            seed: 42,
            namespace: 0,
        }
    }

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 24).unwrap_or_default()
    }

    fn now() -> NaiveDateTime {
        today().and_hms_opt(13, 0, 0).unwrap_or_default()
    }

    #[test]
    fn documents_are_valid_and_unique() {
        let data = Dataset::generate(&small(), today(), now());
        for unit in &data.units {
            assert!(Cnpj::parse(&unit.cnpj).is_ok(), "{}", unit.cnpj);
        }
        let mut cpfs = std::collections::HashSet::new();
        for cpf in data.staff.iter().map(|s| &s.cpf).chain(data.customers.iter().map(|c| &c.cpf)) {
            assert!(Cpf::parse(cpf).is_ok(), "{cpf}");
            assert!(cpfs.insert(cpf.clone()), "repeated CPF {cpf}");
        }
        for phone in data.staff.iter().map(|s| &s.phone).chain(data.customers.iter().map(|c| &c.phone)) {
            assert!(navalha_domain::validation::is_mobile(phone), "{phone}");
        }
        assert_eq!(cpf_from_base(529_982_247), "52998224725");
        assert_eq!(cnpj_from_base(112_223_330_001), "11222333000181");
    }

    #[test]
    fn the_big_unit_and_the_spread() {
        let data = Dataset::generate(&small(), today(), now());
        let mut per_unit = vec![0; data.units.len()];
        for person in &data.staff {
            per_unit[person.unit] += 1;
            assert!(!person.offers.is_empty());
        }
        assert_eq!(per_unit, vec![5, 3, 2, 2]);
        let full = Params { units: 10, professionals: 50, big_unit_professionals: 20, ..small() };
        let data = Dataset::generate(&Params { appointments: 0, clients: 0, ..full }, today(), now());
        let mut per_unit = vec![0; 10];
        data.staff.iter().for_each(|s| per_unit[s.unit] += 1);
        assert_eq!(per_unit[0], 20);
        assert!(per_unit[1..].iter().all(|n| (3..=4).contains(n)), "{per_unit:?}");
        assert_eq!(data.offer_count, data.staff.iter().map(|s| s.offers.len()).sum::<usize>());
    }

    #[test]
    fn appointments_fit_hours_and_never_overlap() {
        let params = small();
        let data = Dataset::generate(&params, today(), now());
        assert_eq!(data.visits.len(), params.appointments);
        let mut days: HashMap<(usize, NaiveDate), Vec<Span>> = HashMap::new();
        let mut clients: HashMap<(usize, NaiveDate), Vec<Span>> = HashMap::new();
        for visit in &data.visits {
            let person = &data.staff[visit.professional];
            let weekday = visit.date.weekday().num_days_from_sunday() as usize;
            let minutes: i64 = visit.offers.iter().map(|o| person.offers[*o].minutes).sum();
            assert_eq!(i64::from(visit.end - visit.start), minutes, "the end follows from the services");
            assert_eq!(visit.start % GRID, 0);
            let rules = DayRules {
                working: person.hours[weekday].iter().map(|p| Span::from(*p)).collect(),
                opening: data.units[person.unit].hours[weekday].map(Span::from),
                blocked: Vec::new(),
                busy: days.get(&(visit.professional, visit.date)).cloned().unwrap_or_default(),
            };
            assert_eq!(rules.check(visit.span()), Ok(()), "{visit:?}");
            assert!(data.customers[visit.client].active);
            assert!(visit.booked_at < now());
            assert!(visit.booked_at < visit.date.and_time(NaiveTime::MIN) + Duration::hours(3));
            let mut offers = visit.offers.clone();
            offers.dedup();
            assert_eq!(offers.len(), visit.offers.len(), "no service twice");
            days.entry((visit.professional, visit.date)).or_default().push(visit.span());
            let client_day = clients.entry((visit.client, visit.date)).or_default();
            assert!(
                !client_day.iter().any(|s| s.overlaps(visit.span())),
                "a client in two chairs: {visit:?}"
            );
            client_day.push(visit.span());
        }
        // The month around today is filled first, the history before it.
        assert!(data.last_day <= today() + Duration::days(MONTH_AFTER - 1));
        assert!(data.first_day < today() - Duration::days(MONTH_BEFORE), "6000 appointments exceed a month");
        let future = data.visits.iter().filter(|v| v.date > today()).count();
        assert!(future > 100, "{future}");
        assert!(data.visits.windows(2).all(|w| w[0].booked_at <= w[1].booked_at));
    }

    #[test]
    fn the_same_seed_gives_the_same_data() {
        let a = Dataset::generate(&small(), today(), now());
        let b = Dataset::generate(&small(), today(), now());
        assert_eq!(a.visits.len(), b.visits.len());
        assert!(a.visits.iter().zip(&b.visits).all(|(x, y)| x.date == y.date
            && x.start == y.start
            && x.professional == y.professional
            && x.client == y.client));
        let c = Dataset::generate(&Params { seed: 43, ..small() }, today(), now());
        assert!(a.visits.iter().zip(&c.visits).any(|(x, y)| x.start != y.start || x.client != y.client));
    }
}
