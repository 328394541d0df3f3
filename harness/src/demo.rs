//! The demo data as tests meet it: its ids looked up by name, days relative to today,
//! booking bodies, and a second business to prove that nothing crosses between businesses.

use axum::http::{Method, StatusCode};
use chrono::{Datelike, Duration, NaiveDate, Weekday};
use navalha_command_api::businesses::{open_with_admin, FirstAdmin};
use serde_json::{json, Value};

use crate::in_process::{Answer, System};

/// Today on the demo units' clock (America/Sao_Paulo), on the system's clock: placed with
/// the services by `NAVALHA_CLOCK_OFFSET_SECONDS` (ADR 0021).
pub fn today() -> NaiveDate {
    navalha_platform::clock::today()
}

/// Places this test's process at `wall`, a wall-clock time in São Paulo ('2026-12-31 23:58'),
/// before anything reads the clock (ADR 0021). Each test runs in a process of its own under
/// cargo nextest, as `./navalha test` runs them.
///
/// # Panics
/// When `wall` is no such time, or the clock was read already.
pub fn place_at(wall: &str) {
    let wall = chrono::NaiveDateTime::parse_from_str(wall, "%Y-%m-%d %H:%M").expect("a wall-clock time");
    let at = navalha_platform::clock::instant_of(wall, navalha_platform::clock::DEFAULT_TIME_ZONE);
    navalha_platform::clock::place_at(at).unwrap_or_else(|why| panic!("placing the clock at {at}: {why}"));
}

/// The first `weekday` after today (1 to 7 days ahead), so always in the future.
pub fn next(weekday: Weekday) -> NaiveDate {
    let mut day = today() + Duration::days(1);
    while day.weekday() != weekday {
        day += Duration::days(1);
    }
    day
}

/// A Tuesday about a year ahead, within the booking window and free of the demo's
/// appointments: for tests that need a day nobody else books.
pub fn far_tuesday() -> NaiveDate {
    let mut day = today() + Duration::days(400);
    while day.weekday() != Weekday::Tue {
        day += Duration::days(1);
    }
    day
}

/// The last day before today that the demo units open (Monday to Saturday).
pub fn last_open_day() -> NaiveDate {
    let mut day = today() - Duration::days(1);
    while day.weekday() == Weekday::Sun {
        day -= Duration::days(1);
    }
    day
}

/// Demo ids, looked up rather than assumed.
pub struct Demo {
    pub centro: i64,
    pub savassi: i64,
    /// Memberships (IdCompanyProfessional) in Centro.
    pub barber1: i64,
    pub barber2: i64,
    /// Gabriel's, in Savassi.
    pub gabriel: i64,
    /// Professional ids.
    pub barber1_id: i64,
    pub barber2_id: i64,
    /// Services.
    pub haircut: i64,
    pub beard: i64,
    pub eyebrows: i64,
    pub pigmentation: i64,
    /// An active client, and the inactive one.
    pub client: i64,
    pub other_client: i64,
    pub inactive_client: i64,
}

async fn lookup(system: &System, sql: &str, bind: &str) -> i64 {
    sqlx::query_scalar(sql).bind(bind).fetch_one(&system.pool).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
}

pub async fn demo(system: &System) -> Demo {
    let membership = "select m.membership_id from rm_professional.membership m
                        join staff_credential c on c.professional_id = m.professional_id
                       where c.email = $1 order by m.position limit 1";
    let professional = "select professional_id from staff_credential where email = $1";
    let company = "select company_id from rm_company.company where name = $1";
    let service = "select service_id from rm_professional.catalogue_service where description = $1";
    let client = "select client_id from rm_client.client where name = $1";
    Demo {
        centro: lookup(system, company, "Navalha Centro").await,
        savassi: lookup(system, company, "Navalha Savassi").await,
        barber1: lookup(system, membership, "barbeiro1@navalha.dev").await,
        barber2: lookup(system, membership, "barbeiro2@navalha.dev").await,
        gabriel: lookup(system, membership, "gabriel@navalha.dev").await,
        barber1_id: lookup(system, professional, "barbeiro1@navalha.dev").await,
        barber2_id: lookup(system, professional, "barbeiro2@navalha.dev").await,
        haircut: lookup(system, service, "Corte de cabelo").await,
        beard: lookup(system, service, "Barba").await,
        eyebrows: lookup(system, service, "Sobrancelha").await,
        pigmentation: lookup(system, service, "Pigmentação").await,
        client: lookup(system, client, "João Conceição").await,
        other_client: lookup(system, client, "Pedro Henrique Lima").await,
        inactive_client: lookup(system, client, "Rodrigo Antunes").await,
    }
}

pub fn body(membership: i64, date: NaiveDate, start: &str, services: &[i64], client: i64) -> Value {
    json!({
        "idCompanyProfessional": membership, "date": date.to_string(), "startTime": start,
        "endTime": null, "idServices": services, "idUser": client, "observation": "",
        "timesType": "ONLY_AVAILABLES",
    })
}

pub async fn book(system: &System, token: &str, body: Value) -> Answer {
    system.call(Method::POST, "/api/scheduling/professional", Some(token), Some(body)).await
}

pub fn id_of(answer: &Answer) -> i64 {
    assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
    answer.body["IdScheduling"].as_i64().expect("IdScheduling")
}

/// A CPF with valid check digits, from nine digits.
pub fn cpf(base: u64) -> String {
    let mut digits: Vec<u64> = format!("{base:09}").chars().map(|c| u64::from(c as u8 - b'0')).collect();
    for length in [9, 10] {
        let sum: u64 =
            digits.iter().take(length).enumerate().map(|(i, d)| d * (length as u64 + 1 - i as u64)).sum();
        let rest = sum * 10 % 11;
        digits.push(if rest == 10 { 0 } else { rest });
    }
    digits.iter().map(u64::to_string).collect()
}

pub fn company(name: &str, cnpj: &str) -> Value {
    json!({
        "name": name, "cnpj": cnpj, "email": "unidade@navalha.dev", "phone": "(11) 9 8765-4321",
        "zipCode": "01042-001", "whatsApp": true, "district": "República", "state": "SP", "status": true,
        "facebook": "https://facebook.com/navalha", "instagram": "https://instagram.com/navalha",
        "observation": "", "street": "Rua Barão de Itapetininga", "number": "120", "city": "São Paulo",
        "complement": "",
    })
}

/// Opens another business with its first admin, who registers a unit: the admin's token,
/// the unit and the business.
pub async fn another_business(system: &System) -> (String, i64, i64) {
    let admin = FirstAdmin {
        name: "Rita Vila Rica".into(),
        email: "rita@vilarica.dev".into(),
        cpf: cpf(420_000_001),
        phone: "(31) 9 8765-4321".into(),
    };
    let opened = open_with_admin(&system.state, "Barbearia Vila Rica", &admin).await.expect("business");
    let invite = opened.registration_link.split("complete-register=").nth(1).expect("token").to_owned();
    let done = system
        .call(
            Method::PUT,
            "/api/no-auth/professional/complete-register",
            None,
            Some(json!({ "completeRegister": invite, "password": "VilaRica@123" })),
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{done:?}");
    let token = done.body["Token"].as_str().expect("token").to_owned();
    let unit = system
        .call(
            Method::POST,
            "/api/company",
            Some(&token),
            Some(company("Vila Rica Savassi", "11.444.777/0001-61")),
        )
        .await;
    assert_eq!(unit.status, StatusCode::CREATED, "{unit:?}");
    (token, unit.body["IdCompany"].as_i64().expect("unit"), opened.business_id)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// The Rust files of the tests and of what they run the system with.
    fn test_sources(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() && !matches!(name.as_str(), "target" | "node_modules" | ".git" | ".data" | "web")
            {
                test_sources(&path, found);
            } else if name.ends_with(".rs") {
                let text = path.to_string_lossy().into_owned();
                if text.contains("/tests/") || text.contains("/harness/src/") {
                    found.push(path);
                }
            }
        }
    }

    /// Issue 38: a test placed by `./navalha test --at` must read the placed clock
    /// (`navalha_platform::clock::now`, `demo::today`), never the machine's; a line that means
    /// the machine's (a token's expiry, a seed) says so in the comment above it.
    #[test]
    fn tests_read_the_date_only_through_the_placed_clock() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        test_sources(&root, &mut files);
        assert!(files.len() > 20, "found only {} test sources under {}", files.len(), root.display());
        let machine_clock = ["Utc::now()", "Local::now()", "SystemTime::now()", "Utc::today()"];
        let mut offenders = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            for (number, line) in lines.iter().enumerate() {
                // The comment above the statement, which may have begun a line earlier.
                let said =
                    lines[number.saturating_sub(2)..number].iter().any(|l| l.contains("Machine clock"));
                if machine_clock.iter().any(|call| line.contains(call))
                    && !said
                    && !line.contains("machine_clock")
                {
                    offenders.push(format!("{}:{}: {}", file.display(), number + 1, line.trim()));
                }
            }
        }
        assert!(offenders.is_empty(), "the machine's clock read in tests:\n{}", offenders.join("\n"));
    }
}
