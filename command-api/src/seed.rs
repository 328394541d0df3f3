//! `command-api seed-demo`: the demo data, loaded once through the same commands staff use.
//! The accounts are listed in README.md.

use navalha_domain::client::{cpf_claim, Client, ClientCommand, ClientDetails, CPF_SCOPE};
use navalha_domain::company::{
    Company, CompanyCommand, CompanyProfile, GalleryImage, Reminders, CNPJ_SCOPE, DEFAULT_TIME_ZONE,
};
use navalha_domain::day_off::{DayOff, DayOffCommand, DayOffDetails};
use navalha_domain::holiday::{Holiday, HolidayCommand, HolidayDetails};
use navalha_domain::metadata::EventMetadata;
use navalha_domain::online::OnlineRules;
use navalha_domain::professional::{
    status as professional_status, Employment, Membership, OfferedService, PersonalData, Professional,
    ProfessionalCommand, CPF_SCOPE as PROFESSIONAL_CPF_SCOPE, EMAIL_SCOPE,
};
use navalha_domain::role::Role;
use navalha_domain::service::Service;
use navalha_domain::validation::{Period, TimeOfDay};
use navalha_domain::values::{Address, Cpf};
use navalha_platform::ApiError;

use chrono::Datelike;
use navalha_domain::appointment::{Appointment, AppointmentCommand, BookedService, Booking, Day, TimesType};
use navalha_domain::availability::{DayRules, Span};
use navalha_platform::clock::now_in;

use crate::businesses::{self, STANDARD_SERVICES};
use crate::commands::{execute, execute_new, load, next_id};
use crate::identity::accounts::create_account;
use crate::state::AppState;

/// The password of every demo account.
pub const DEMO_PASSWORD: &str = "Navalha@2026";
/// The demo administrator.
pub const DEMO_ADMIN: &str = "admin@navalha.dev";

/// Completes a 9-digit base into a valid CPF.
pub fn cpf_from_base(base: &str) -> String {
    let mut digits: Vec<u32> = base.chars().filter_map(|c| c.to_digit(10)).collect();
    for len in [9, 10] {
        let sum: u32 = (0..len).map(|i| digits[i] * (len as u32 + 1 - i as u32)).sum();
        let rest = (sum * 10) % 11;
        digits.push(if rest == 10 { 0 } else { rest });
    }
    digits.iter().map(|d| char::from_digit(*d, 10).unwrap_or('0')).collect()
}

/// Completes a 12-digit base into a valid CNPJ.
pub fn cnpj_from_base(base: &str) -> String {
    let mut digits: Vec<u32> = base.chars().filter_map(|c| c.to_digit(10)).collect();
    for weights in [&[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2][..], &[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2][..]] {
        let sum: u32 = weights.iter().zip(&digits).map(|(w, d)| w * d).sum();
        let rest = sum % 11;
        digits.push(if rest < 2 { 0 } else { 11 - rest });
    }
    digits.iter().map(|d| char::from_digit(*d, 10).unwrap_or('0')).collect()
}

struct DemoCompany {
    name: &'static str,
    city: &'static str,
    state: &'static str,
    street: &'static str,
    district: &'static str,
    zip: &'static str,
}

const COMPANIES: &[DemoCompany] = &[
    DemoCompany {
        name: "Navalha Centro",
        city: "São Paulo",
        state: "SP",
        street: "Rua Barão de Itapetininga",
        district: "República",
        zip: "01042001",
    },
    DemoCompany {
        name: "Navalha Savassi",
        city: "Belo Horizonte",
        state: "MG",
        street: "Rua Pernambuco",
        district: "Savassi",
        zip: "30130150",
    },
    DemoCompany {
        name: "Navalha Batel",
        city: "Curitiba",
        state: "PR",
        street: "Avenida do Batel",
        district: "Batel",
        zip: "80420090",
    },
];

/// A demo staff member: e-mail, name, role, colour, and indexes into [`COMPANIES`].
pub struct DemoProfessional {
    /// Sign-in e-mail.
    pub email: &'static str,
    /// Full name.
    pub name: &'static str,
    /// Role.
    pub role: Role,
    /// Agenda colour.
    pub color: &'static str,
    /// Units, by index into the demo companies.
    pub companies: &'static [usize],
    /// Whether the agenda books them (they get working hours and services).
    pub takes_appointments: bool,
}

/// The demo staff, one per role plus more barbers.
pub const PROFESSIONALS: &[DemoProfessional] = &[
    DemoProfessional {
        email: DEMO_ADMIN,
        name: "Ana Administradora",
        role: Role::Admin,
        color: "#9E9E9E",
        companies: &[0, 1, 2],
        takes_appointments: false,
    },
    DemoProfessional {
        email: "atendente@navalha.dev",
        name: "Beatriz Atendente",
        role: Role::Attendant,
        color: "#F48FB1",
        companies: &[0, 1],
        takes_appointments: false,
    },
    DemoProfessional {
        email: "lider@navalha.dev",
        name: "Caio Líder",
        role: Role::BarberLeade,
        color: "#1565C0",
        companies: &[0],
        takes_appointments: true,
    },
    DemoProfessional {
        email: "barbeiro1@navalha.dev",
        name: "Diego Barbeiro",
        role: Role::Barber1,
        color: "#FF9800",
        companies: &[0],
        takes_appointments: true,
    },
    DemoProfessional {
        email: "barbeiro2@navalha.dev",
        name: "Eduardo Barbeiro",
        role: Role::Barber2,
        color: "#2E7D32",
        companies: &[0],
        takes_appointments: true,
    },
    DemoProfessional {
        email: "padrao@navalha.dev",
        name: "Fernanda Padrão",
        role: Role::Default,
        color: "#7B1FA2",
        companies: &[1],
        takes_appointments: false,
    },
    DemoProfessional {
        email: "gabriel@navalha.dev",
        name: "Gabriel Navalha",
        role: Role::Barber1,
        color: "#81D4FA",
        companies: &[1],
        takes_appointments: true,
    },
    DemoProfessional {
        email: "heitor@navalha.dev",
        name: "Heitor Tesoura",
        role: Role::Barber1,
        color: "#D32F2F",
        companies: &[2],
        takes_appointments: true,
    },
];

/// The demo business: the first one opened, on an empty database.
pub const DEMO_BUSINESS_ID: i64 = 1;
/// Its name.
pub const DEMO_BUSINESS_NAME: &str = "Navalha";

fn time(text: &str) -> Result<TimeOfDay, ApiError> {
    TimeOfDay::parse(text).map_err(|e| ApiError::Internal(anyhow::anyhow!("demo time {text}: {e}")))
}

fn period(start: &str, end: &str) -> Result<Period, ApiError> {
    Ok(Period { start: time(start)?, end: time(end)? })
}

/// Loads the demo data unless the demo admin already exists. Returns whether it loaded.
pub async fn seed_demo(state: &AppState) -> Result<bool, ApiError> {
    let exists: bool = sqlx::query_scalar("select exists (select 1 from staff_credential where email = $1)")
        .bind(DEMO_ADMIN)
        .fetch_one(&state.pool)
        .await?;
    if exists {
        tracing::info!("demo data already loaded");
        return Ok(false);
    }
    let (business_id, service_ids) =
        businesses::open(state, DEMO_BUSINESS_NAME, "Carga de demonstração").await?;
    if business_id != DEMO_BUSINESS_ID {
        return Err(ApiError::Internal(anyhow::anyhow!(
            "the demo loads into an empty database; business {business_id} would not be the demo's"
        )));
    }
    let metadata = EventMetadata::system("Carga de demonstração", DEMO_BUSINESS_ID);
    let mut company_ids = Vec::new();
    for (index, company) in COMPANIES.iter().enumerate() {
        let id = next_id(&state.pool, "company_id_seq").await?;
        let profile = CompanyProfile {
            name: company.name.to_owned(),
            cnpj: cnpj_from_base(&format!("4{index}1234560001")),
            email: format!("unidade{}@navalha.dev", index + 1),
            phone: format!("1199{index}001234"),
            whatsapp: true,
            status: true,
            facebook: "https://facebook.com/navalha".to_owned(),
            instagram: "https://instagram.com/navalha".to_owned(),
            observation: String::new(),
            address: Address {
                zip_code: company.zip.to_owned(),
                street: company.street.to_owned(),
                number: format!("{}", 100 + index * 10),
                district: company.district.to_owned(),
                city: company.city.to_owned(),
                state: company.state.to_owned(),
                complement: String::new(),
            },
            time_zone: DEFAULT_TIME_ZONE.to_owned(),
            online: OnlineRules::default(),
            attendant_discount_cap_percent: None,
            // The card machine's usual fees, which barbers who share them bear (issue 42).
            commission: navalha_domain::commission::CommissionSettings {
                card_fee_credit_points: 349,
                card_fee_debit_points: 199,
                ..Default::default()
            },
            // The third unit sells what its count has not caught up with (issue 43).
            allow_negative_stock: index == 2,
            // The demo's units remind their clients 24 and 2 hours before (issue 44).
            reminders: Reminders { before_24h: true, before_2h: true },
        };
        let aggregate_id = id.to_string();
        let claimed = metadata.claiming(CNPJ_SCOPE, &profile.cnpj);
        execute::<Company>(&state.events, &aggregate_id, CompanyCommand::RegisterCompany(profile), &claimed)
            .await?;
        // Open Monday to Saturday, 09:00-21:00; closed on Sundays.
        for week_day in 1..=6 {
            let command = CompanyCommand::SetDay { week_day, period: Some(period("09:00", "21:00")?) };
            execute::<Company>(&state.events, &aggregate_id, command, &metadata).await?;
        }
        company_ids.push(id);
        tracing::info!(id, name = company.name, "demo company");
    }
    for (index, demo) in PROFESSIONALS.iter().enumerate() {
        let id = next_id(&state.pool, "professional_id_seq").await?;
        let cpf = cpf_from_base(&format!("{:09}", 123_456_000 + index * 7));
        let personal = PersonalData {
            name: demo.name.to_owned(),
            cpf: cpf.clone(),
            email: demo.email.to_owned(),
            phone: format!("119{:08}", 87_650_000 + index),
            whatsapp: index % 2 == 0,
            birth_date: chrono::NaiveDate::from_ymd_opt(1985 + index as i32, 3, 10),
            address: Address {
                zip_code: "01042001".to_owned(),
                street: "Rua Barão de Itapetininga".to_owned(),
                number: "50".to_owned(),
                district: "República".to_owned(),
                city: "São Paulo".to_owned(),
                state: "SP".to_owned(),
                complement: String::new(),
            },
        };
        let mut memberships = Vec::new();
        for company in demo.companies {
            let membership_id = next_id(&state.pool, "company_professional_id_seq").await?;
            memberships.push(Membership { id: membership_id, company_id: company_ids[*company] });
        }
        let employment = Employment {
            color: demo.color.to_owned(),
            role: demo.role,
            status: professional_status::ACTIVE,
            memberships,
        };
        let aggregate_id = id.to_string();
        let claimed = metadata.claiming(PROFESSIONAL_CPF_SCOPE, &cpf).claiming(EMAIL_SCOPE, demo.email);
        execute::<Professional>(
            &state.events,
            &aggregate_id,
            ProfessionalCommand::Register { personal, employment },
            &claimed,
        )
        .await?;
        create_account(&state.pool, id, demo.email, Some(&cpf), Some(DEMO_PASSWORD)).await?;
        if demo.takes_appointments {
            // Tuesday to Saturday, 09:00-12:00 and 13:00-19:00, plus a Saturday evening.
            for week_day in 2..=6 {
                let mut periods = vec![period("09:00", "12:00")?, period("13:00", "19:00")?];
                if week_day == 6 {
                    periods.push(period("19:30", "21:00")?);
                }
                let command = ProfessionalCommand::SetWorkingDay { week_day, periods };
                execute::<Professional>(&state.events, &aggregate_id, command, &metadata).await?;
            }
            for (offset, (service_id, (name, cents, minutes, combo))) in
                service_ids.iter().zip(STANDARD_SERVICES).enumerate()
            {
                let offered = OfferedService {
                    id: next_id(&state.pool, "professional_service_id_seq").await?,
                    service_id: *service_id,
                    minutes: *minutes,
                    // Each barber has their own prices: a little more for the senior ones.
                    cents: cents + 500 * (index as i64 % 3),
                    combo: *combo,
                    active: offset != STANDARD_SERVICES.len() - 1 || index % 2 == 0,
                    // Cleaning after a pigmentation (issue 45's 'Intervalo após').
                    interval_after: if *name == "Pigmentação" { DEMO_PIGMENTATION_INTERVAL } else { 0 },
                };
                let command = ProfessionalCommand::AddService(offered);
                execute::<Professional>(&state.events, &aggregate_id, command, &metadata).await?;
            }
        }
        tracing::info!(id, email = demo.email, role = demo.role.code(), "demo professional");
    }
    for (index, name) in CLIENTS.iter().enumerate() {
        let id = next_id(&state.pool, "client_id_seq").await?;
        let cpf = Cpf::parse(&cpf_from_base(&format!("{:09}", 300_000_000 + index * 13)))
            .map_err(|_| ApiError::Internal(anyhow::anyhow!("demo CPF")))?;
        let first = name.split_whitespace().next().unwrap_or("cliente").to_lowercase();
        let details = ClientDetails {
            name: (*name).to_owned(),
            email: format!("{first}{index}@exemplo.com"),
            phone: format!("11{}", 987_650_100 + index),
            whatsapp: index % 3 != 0,
            birth_date: chrono::NaiveDate::from_ymd_opt(1970 + index as i32 * 2, 1 + index as u32 % 12, 5),
            status: index != CLIENTS.len() - 1,
        };
        let claimed = metadata.claiming(CPF_SCOPE, &cpf_claim(DEMO_BUSINESS_ID, cpf.as_str()));
        let aggregate_id = id.to_string();
        execute::<Client>(
            &state.events,
            &aggregate_id,
            ClientCommand::RegisterClient { cpf: Some(cpf), details, online: false },
            &claimed,
        )
        .await?;
        if index == 1 {
            // One client signs in to the app with Google, so 'Remover login social' shows.
            let command = ClientCommand::LinkSocialLogin("GOOGLE".to_owned());
            execute::<Client>(&state.events, &aggregate_id, command, &metadata).await?;
        }
    }
    tracing::info!(clients = CLIENTS.len(), "demo clients");
    for name in PARTNER_COMPANIES {
        let id = next_id(&state.pool, "partner_company_id_seq").await?;
        let command =
            navalha_domain::partner_company::PartnerCompanyCommand::Register { name: (*name).to_owned() };
        execute::<navalha_domain::partner_company::PartnerCompany>(
            &state.events,
            &id.to_string(),
            command,
            &metadata,
        )
        .await?;
    }
    Ok(true)
}

/// The demo units' gallery pictures, in [`COMPANIES`]' order, three each (drawn by
/// `scripts/demo-gallery.py`).
const GALLERY: [[&[u8]; 3]; 3] = [
    [
        include_bytes!("../demo/gallery/centro-fachada.jpg"),
        include_bytes!("../demo/gallery/centro-salao.jpg"),
        include_bytes!("../demo/gallery/centro-ferramentas.jpg"),
    ],
    [
        include_bytes!("../demo/gallery/savassi-fachada.jpg"),
        include_bytes!("../demo/gallery/savassi-salao.jpg"),
        include_bytes!("../demo/gallery/savassi-ferramentas.jpg"),
    ],
    [
        include_bytes!("../demo/gallery/batel-fachada.jpg"),
        include_bytes!("../demo/gallery/batel-salao.jpg"),
        include_bytes!("../demo/gallery/batel-ferramentas.jpg"),
    ],
];

/// The showcase on top of [`seed_demo`] and [`seed_demo_agenda`], so every back-office
/// screen of `./navalha up` has something believable: each unit's photo gallery, the next
/// two national holidays for every unit, and a barber's vacation. Separate from
/// [`seed_demo`] because the Rust tests count holidays and days off from a known start.
pub async fn seed_demo_showcase(state: &AppState) -> Result<(), ApiError> {
    let metadata = EventMetadata::system("Carga de demonstração", DEMO_BUSINESS_ID);
    let company_ids: Vec<i64> = sqlx::query_scalar(
        "select aggregate_id::bigint from events where aggregate_type = 'Company' and sequence = 1
          order by global_position limit 3",
    )
    .fetch_all(&state.pool)
    .await?;
    let dir = state.settings.media_dir.join("gallery");
    for (company_id, pictures) in company_ids.iter().zip(GALLERY) {
        let mut images = Vec::new();
        for bytes in pictures {
            let file = crate::gallery::store(&dir, bytes, "jpg").await?;
            images.push(GalleryImage { id: next_id(&state.pool, "gallery_image_id_seq").await?, file });
        }
        let command = CompanyCommand::SaveGallery(images);
        execute::<Company>(&state.events, &company_id.to_string(), command, &metadata).await?;
    }

    let today = now_in(DEFAULT_TIME_ZONE).date();
    let christmas = |year| chrono::NaiveDate::from_ymd_opt(year, 12, 25);
    let new_year = |year| chrono::NaiveDate::from_ymd_opt(year, 1, 1);
    let next = |date: fn(i32) -> Option<chrono::NaiveDate>| {
        date(today.year()).filter(|day| *day >= today).or_else(|| date(today.year() + 1))
    };
    for (description, day) in [("Natal", next(christmas)), ("Confraternização Universal", next(new_year))] {
        let day = day.ok_or_else(|| ApiError::Internal(anyhow::anyhow!("demo holiday date")))?;
        let details = HolidayDetails {
            description: description.to_owned(),
            start_date: day,
            end_date: day,
            all_day: true,
            start_time: None,
            end_time: None,
            all_companies: true,
            company_ids: Vec::new(),
        };
        let id = next_id(&state.pool, "holiday_id_seq").await?;
        let command = HolidayCommand::CreateHoliday(details);
        execute::<Holiday>(&state.events, &id.to_string(), command, &metadata).await?;
    }

    // Gabriel (Savassi) takes a week of vacation in about six weeks: far from the days the
    // demo agenda and the end-to-end tests book.
    let gabriel: i64 = sqlx::query_scalar(
        "select aggregate_id::bigint from events
          where aggregate_type = 'Professional' and sequence = 1
            and payload #>> '{ProfessionalRegistered,personal,email}' = $1",
    )
    .bind("gabriel@navalha.dev")
    .fetch_one(&state.pool)
    .await?;
    let start = today + chrono::Duration::days(42);
    let details = DayOffDetails {
        professional_id: gabriel,
        description: "Férias".to_owned(),
        date_start: start,
        date_end: start + chrono::Duration::days(6),
        all_day: true,
        start_time: None,
        end_time: None,
    };
    let id = next_id(&state.pool, "day_off_id_seq").await?;
    execute::<DayOff>(&state.events, &id.to_string(), DayOffCommand::ScheduleDayOff(details), &metadata)
        .await?;
    tracing::info!("demo gallery, holidays and a vacation");
    Ok(())
}

/// Demo partner companies of the club (no screen edits them).
pub const PARTNER_COMPANIES: &[&str] = &["Academia Forma Física", "Ótica Visão Clara"];

/// Books the demo agenda: a week of appointments from today for every demo barber, at
/// times inside their hours, through the same aggregate and slot claim as `POST
/// scheduling/professional`. Some are confirmed by the client, one a day is cancelled.
/// Separate from [`seed_demo`] so tests start from an empty agenda.
pub async fn seed_demo_agenda(state: &AppState) -> Result<usize, ApiError> {
    let metadata = EventMetadata::system("Carga de demonstração", DEMO_BUSINESS_ID);
    let clients: Vec<i64> = sqlx::query_scalar(
        "select aggregate_id::bigint from events where aggregate_type = 'Client' and sequence = 1
          order by global_position",
    )
    .fetch_all(&state.pool)
    .await?;
    let mut active_clients = Vec::new();
    for id in clients {
        let client: Client = load(&state.events, DEMO_BUSINESS_ID, &id.to_string()).await?;
        if client.details().is_some_and(|d| d.status) {
            active_clients.push(id);
        }
    }
    let mut booked = 0;
    // Each client's booked spans per day, across professionals: a client is in one chair
    // at a time (issue 45), so a pick that would overlap takes the next client who is free.
    let mut clients_busy: std::collections::HashMap<(chrono::NaiveDate, i64), Vec<Span>> = Default::default();
    // Start times tried each day, shifted per barber so the timeline shows overlaps across
    // columns but never within one.
    const STARTS: [&str; 8] = ["09:00", "09:45", "10:30", "11:15", "13:00", "14:30", "16:00", "17:30"];
    for (index, demo) in PROFESSIONALS.iter().enumerate().filter(|(_, d)| d.takes_appointments) {
        let professional_id: i64 =
            sqlx::query_scalar("select professional_id from staff_credential where email = $1")
                .bind(demo.email)
                .fetch_one(&state.pool)
                .await?;
        let professional: Professional =
            load(&state.events, DEMO_BUSINESS_ID, &professional_id.to_string()).await?;
        let Some(membership) = professional.employment().and_then(|e| e.memberships.first()).cloned() else {
            continue;
        };
        let company: Company =
            load(&state.events, DEMO_BUSINESS_ID, &membership.company_id.to_string()).await?;
        let time_zone = company.profile().map(|p| p.time_zone.clone()).unwrap_or_default();
        let today = now_in(&time_zone).date();
        let mut offered = Vec::new();
        for service in professional.services().iter().filter(|s| s.active) {
            let entry: Service =
                load(&state.events, DEMO_BUSINESS_ID, &service.service_id.to_string()).await?;
            let description = entry.entry().map(|e| e.description.clone()).unwrap_or_default();
            offered.push(BookedService {
                service_id: service.service_id,
                description,
                minutes: service.minutes,
                cents: service.cents,
                interval_after: service.interval_after,
            });
        }
        for offset in 0..7 {
            let date = today + chrono::Duration::days(offset);
            let weekday = date.weekday().num_days_from_sunday() as usize;
            let mut rules = DayRules {
                working: professional.hours()[weekday].iter().map(|p| Span::from(*p)).collect(),
                opening: company.hours()[weekday].map(Span::from),
                ..DayRules::default()
            };
            let mut of_the_day = Vec::new();
            for (slot, start) in STARTS.iter().enumerate() {
                let pick = index + slot + offset as usize;
                if pick.is_multiple_of(3) {
                    continue; // leave some free time
                }
                let services: Vec<BookedService> = offered
                    .iter()
                    .cycle()
                    .skip(pick % offered.len().max(1))
                    .take(1 + pick % 2)
                    .cloned()
                    .collect();
                let start = time(start)?;
                let Some(end) = Booking::end_of(start, &services) else { continue };
                let span = Span { start: start.minutes(), end: end.minutes() };
                // The professional's time runs on through the services' intervals.
                let interval: i64 = services.iter().map(|s| s.interval_after).sum();
                let busy = Span { end: span.end.saturating_add(interval as u16), ..span };
                if services.is_empty() || rules.check(busy).is_err() {
                    continue;
                }
                let free = |client: &i64| {
                    clients_busy
                        .get(&(date, *client))
                        .is_none_or(|spans| !spans.iter().any(|s| s.overlaps(span)))
                };
                let Some(client_id) = (0..active_clients.len())
                    .map(|n| active_clients[(pick + n) % active_clients.len()])
                    .find(free)
                else {
                    continue;
                };
                clients_busy.entry((date, client_id)).or_default().push(span);
                rules.busy.push(busy);
                let booking = Booking {
                    membership_id: membership.id,
                    professional_id,
                    company_id: membership.company_id,
                    client_id,
                    date,
                    start,
                    end,
                    services,
                    observation: if pick % 4 == 1 {
                        "Cliente prefere máquina 2 nas laterais".to_owned()
                    } else {
                        String::new()
                    },
                    times_type: TimesType::OnlyAvailables,
                    online: false,
                    newcomer: false,
                    client_overlap: false,
                    series: None,
                };
                let id = next_id(&state.pool, "appointment_id_seq").await?.to_string();
                // The demo's history and its coming days, recorded as they are: no clock or hours
                // to check (the seed places them inside the hours, one after another).
                execute_new::<Appointment>(
                    &state.events,
                    &id,
                    AppointmentCommand::Book { booking, day: Day::unrestricted() },
                    &metadata,
                )
                .await?;
                of_the_day.push(id);
                booked += 1;
            }
            for (n, id) in of_the_day.iter().enumerate() {
                if n.is_multiple_of(3) {
                    let confirm = AppointmentCommand::Confirm { now: chrono::NaiveDateTime::MIN };
                    execute::<Appointment>(&state.events, id, confirm, &metadata).await?;
                }
            }
            if let Some(last) = of_the_day.last().filter(|_| of_the_day.len() > 2) {
                execute::<Appointment>(&state.events, last, AppointmentCommand::Cancel, &metadata).await?;
            }
        }
    }
    tracing::info!(appointments = booked, "demo agenda");
    Ok(booked)
}

/// The demo's 'Intervalo após' for a pigmentation, in minutes.
pub const DEMO_PIGMENTATION_INTERVAL: i64 = 15;

/// Demo clients; the last one is inactive.
pub const CLIENTS: &[&str] = &[
    "João Conceição",
    "Maria Aparecida Souza",
    "Pedro Henrique Lima",
    "Lucas Gonçalves",
    "Rafael Araújo",
    "Thiago Nogueira",
    "Bruno César Prado",
    "Matheus Albuquerque",
    "Gustavo Ribeiro",
    "André Luís Barros",
    "Felipe Magalhães",
    "Rodrigo Antunes",
];

#[cfg(test)]
mod tests {
    use navalha_domain::values::{Cnpj, Cpf};

    use super::*;

    #[test]
    fn generated_documents_are_valid() {
        for base in ["123456000", "987654321", "000000001"] {
            let cpf = cpf_from_base(base);
            assert!(Cpf::parse(&cpf).is_ok(), "{cpf}");
        }
        assert_eq!(cpf_from_base("529982247"), "52998224725");
        assert_eq!(cnpj_from_base("112223330001"), "11222333000181");
        assert!(Cnpj::parse(&cnpj_from_base("401234560001")).is_ok());
    }
}
