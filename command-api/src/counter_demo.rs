//! The counter's demo data (issue 41), loaded by `seed-demo` after the agenda: a product
//! catalogue with each unit's stock received (issue 43; one product below its minimum at
//! every unit, for the home's list); at the first unit, a caixa closed R$ 2,00 short after comandas paid by every method
//! (cash with change, Pix, credit in installments, debit), tips and a walk-in; one of those
//! comandas reopened, its card payment given back and paid again in the next caixa, which
//! stays open, so the first caixa's report shows a correction; and a client who did not come.
//!
//! Everything goes through the same aggregates and claims as the calls, and is recorded when
//! the seed runs: an event log does not backdate, so the demo's counter is "today so far".

use navalha_domain::appointment::{Appointment, AppointmentCommand, Standing};
use navalha_domain::caixa::{taken_with, Caixa, CaixaCommand, MovementKind, CARD_MACHINE_METHODS};
use navalha_domain::comanda::{Comanda, ComandaCommand, ItemKind, NewItem, NewPayment, PaymentMethod};
use navalha_domain::commission::CommissionRates;
use navalha_domain::company::DEFAULT_TIME_ZONE;
use navalha_domain::metadata::EventMetadata;
use navalha_domain::product::{Minimum, Product, ProductCommand, ProductDetails};
use navalha_domain::professional::{Professional, ProfessionalCommand};
use navalha_domain::service::{ProductUse, Service, ServiceCommand};
use navalha_domain::stock::{MeasureUnit, StockMovement};
use navalha_platform::clock::now_in;
use navalha_platform::ApiError;

use crate::caixas::{open_claim, taken};
use crate::comandas::{appointment_claim, booked_items, close_inputs};
use crate::commands::{execute, execute_claiming, execute_new, load, next_id};
use crate::seed::DEMO_BUSINESS_ID;
use crate::state::AppState;

/// A demo product.
pub struct DemoProduct {
    pub name: &'static str,
    pub price_cents: i64,
    pub active: bool,
    brand: &'static str,
    category: &'static str,
    unit: MeasureUnit,
    cost_cents: i64,
    /// Received at every unit.
    stock: i64,
    /// Each unit's minimum.
    minimum: i64,
}

const fn product(
    name: &'static str,
    price_cents: i64,
    brand: &'static str,
    category: &'static str,
) -> DemoProduct {
    DemoProduct {
        name,
        price_cents,
        active: true,
        brand,
        category,
        unit: MeasureUnit::Un,
        cost_cents: price_cents / 2,
        stock: 12,
        minimum: 4,
    }
}

/// The demo's products. The oil runs low (below its minimum); the pre-shave oil is counted
/// in ml and only used in the shop, by 'Barba'.
pub const PRODUCTS: &[DemoProduct] = &[
    product("Pomada modeladora", 3990, "Barba Forte", "Finalizadores"),
    DemoProduct { stock: 3, minimum: 5, ..product("Óleo para barba", 3490, "Barba Forte", "Barba") },
    product("Shampoo anticaspa", 2990, "Clean Men", "Cabelo"),
    product("Balm pós-barba", 2790, "Clean Men", "Barba"),
    DemoProduct {
        active: false,
        stock: 0,
        minimum: 0,
        ..product("Cera capilar (descontinuada)", 2500, "Barba Forte", "Finalizadores")
    },
    DemoProduct {
        unit: MeasureUnit::Ml,
        cost_cents: 12,
        stock: 600,
        minimum: 120,
        ..product("Óleo pré-barba (uso interno)", 100, "Barba Forte", "Barba")
    },
];

/// How many of the day's first appointments get a comanda.
const SERVED: usize = 4;

/// How each of the day's comandas is paid: the demo shows every method.
enum Paid {
    /// Cash, handed over in a note this big.
    Cash { note: i64 },
    /// Half by Pix, the rest by debit.
    PixAndDebit,
    /// Credit card in two installments.
    Credit,
}

fn payment(method: PaymentMethod, cents: i64, caixa_id: i64) -> NewPayment {
    NewPayment {
        method,
        cents,
        cash_received_cents: None,
        installments: None,
        brand: None,
        authorization_code: None,
        nsu: None,
        caixa_id: Some(caixa_id),
    }
}

/// Loads the counter's demo. Returns how many comandas it closed.
/// Closes the demo's comanda `id` of `unit` at the rates in force and the unit's settings, as
/// a desk's close does (issue 42).
async fn close_at_rates(
    state: &AppState,
    (unit, id): (i64, &str),
    at: chrono::NaiveDateTime,
    system: &EventMetadata,
) -> Result<(), ApiError> {
    let comanda: Comanda = load(&state.events, DEMO_BUSINESS_ID, id).await?;
    let (_, rates, settings, allow_negative_stock, uses) =
        close_inputs(state, DEMO_BUSINESS_ID, unit, &comanda).await?;
    let close = ComandaCommand::Close { at, rates, settings, allow_negative_stock, uses };
    execute::<Comanda>(&state.events, id, close, system).await?;
    Ok(())
}

/// The demo's commission rates (issue 42): every professional earns 40 % of services and 10 %
/// of products; the first shares the card fee, the second is a profissional-parceiro.
async fn demo_commissions(state: &AppState, system: &EventMetadata) -> Result<(), ApiError> {
    let ids: Vec<String> = sqlx::query_scalar(
        "select aggregate_id from events where aggregate_type = 'Professional' and sequence = 1
          order by global_position",
    )
    .fetch_all(&state.pool)
    .await?;
    for (n, id) in ids.iter().enumerate() {
        let rates = CommissionRates {
            service_points: 4000,
            product_points: 1000,
            services: Vec::new(),
            card_fee_shared: n == 1,
            partner: n == 2,
        };
        execute::<Professional>(&state.events, id, ProfessionalCommand::SetCommission(rates), system).await?;
    }
    Ok(())
}

/// The demo's 'Barba' uses 5 ml of the pre-shave oil each time (issue 43).
async fn demo_service_use(state: &AppState, oil: i64, system: &EventMetadata) -> Result<(), ApiError> {
    let beard: Option<String> = sqlx::query_scalar(
        "select aggregate_id from events
          where aggregate_type = 'Service' and payload -> 'ServiceCreated' ->> 'description' = 'Barba'
            and metadata ->> 'business_id' = $1
          order by global_position limit 1",
    )
    .bind(DEMO_BUSINESS_ID.to_string())
    .fetch_optional(&state.pool)
    .await?;
    if let Some(service) = beard {
        let used = ServiceCommand::SetProductUse(ProductUse { product_id: oil, quantity: 5 });
        execute::<Service>(&state.events, &service, used, system).await?;
    }
    Ok(())
}

pub async fn seed_demo_counter(state: &AppState) -> Result<usize, ApiError> {
    let system = EventMetadata::system("Carga de demonstração", DEMO_BUSINESS_ID);
    let log = &state.events;
    demo_commissions(state, &system).await?;
    let units: Vec<i64> = sqlx::query_scalar(
        "select aggregate_id::bigint from events where aggregate_type = 'Company' and sequence = 1
          order by global_position",
    )
    .fetch_all(&state.pool)
    .await?;
    let unit = *units.first().ok_or_else(|| ApiError::Internal(anyhow::anyhow!("the demo has no unit")))?;
    let mut products = Vec::new();
    for demo in PRODUCTS {
        let id = next_id(&state.pool, "product_id_seq").await?;
        let details = ProductDetails {
            name: demo.name.to_owned(),
            price_cents: demo.price_cents,
            active: demo.active,
            brand: Some(demo.brand.to_owned()),
            barcode: None,
            category: Some(demo.category.to_owned()),
            cost_cents: Some(demo.cost_cents),
            unit: demo.unit,
            minimums: units
                .iter()
                .filter(|_| demo.minimum > 0)
                .map(|company_id| Minimum { company_id: *company_id, minimum: demo.minimum })
                .collect(),
            image: None,
        };
        execute_new::<Product>(log, &id.to_string(), ProductCommand::Create(details), &system).await?;
        for company_id in units.iter().filter(|_| demo.stock > 0) {
            let movement = StockMovement::Receive {
                company_id: *company_id,
                quantity: demo.stock,
                unit_cost_cents: demo.cost_cents,
                supplier: "Distribuidora Central".to_owned(),
            };
            let stock_moves = movement.moves(id, 0, false, demo.unit).map_err(crate::commands::invalid)?;
            execute::<Product>(
                log,
                &id.to_string(),
                ProductCommand::MoveStock { movement, stock_moves },
                &system,
            )
            .await?;
        }
        products.push((id, demo.name, demo.price_cents));
        if demo.unit == MeasureUnit::Ml {
            demo_service_use(state, id, &system).await?;
        }
    }
    let now = now_in(DEFAULT_TIME_ZONE);
    // The unit's appointments today, earliest first.
    let today: Vec<i64> = sqlx::query_scalar(
        "select aggregate_id::bigint from events
          where aggregate_type = 'Appointment' and event_type = 'AppointmentBooked'
            and (payload -> 'AppointmentBooked' ->> 'company_id')::bigint = $1
            and payload -> 'AppointmentBooked' ->> 'date' = $2
          order by payload -> 'AppointmentBooked' ->> 'start', global_position",
    )
    .bind(unit)
    .bind(now.date().to_string())
    .fetch_all(&state.pool)
    .await?;
    let mut appointments = Vec::new();
    for id in today {
        let appointment: Appointment = load(log, DEMO_BUSINESS_ID, &id.to_string()).await?;
        if appointment.standing() == Standing::Active {
            appointments.push((id, appointment));
        }
    }

    let first_caixa = next_id(&state.pool, "caixa_id_seq").await?;
    let open = CaixaCommand::Open { company_id: unit, opening_cents: 15_000 };
    execute_claiming::<Caixa>(log, &first_caixa.to_string(), open, &system, &[open_claim(unit)], &[]).await?;

    let plans: [Paid; SERVED] =
        [Paid::Cash { note: 10_000 }, Paid::PixAndDebit, Paid::Credit, Paid::Cash { note: 5_000 }];
    let mut closed = Vec::new();
    for (n, ((appointment_id, appointment), paid)) in appointments.iter().zip(plans).enumerate() {
        let Some(booking) = appointment.booking() else { continue };
        let id = next_id(&state.pool, "comanda_id_seq").await?;
        let mut items = booked_items(*appointment_id, booking);
        if let Some((product, name, cents)) = products.get(n % 3) {
            items.push(NewItem {
                kind: ItemKind::Product,
                ref_id: *product,
                description: (*name).to_owned(),
                professional_id: Some(booking.professional_id),
                quantity: 1,
                unit_cents: *cents,
                discount: None,
                appointment_id: None,
                club: None,
            });
        }
        let opening = ComandaCommand::Open {
            company_id: unit,
            appointment_id: Some(*appointment_id),
            client_id: Some(booking.client_id),
            items: Vec::new(),
        };
        let claims = [appointment_claim(*appointment_id)];
        execute_claiming::<Comanda>(log, &id.to_string(), opening, &system, &claims, &[]).await?;
        for item in items {
            execute::<Comanda>(log, &id.to_string(), ComandaCommand::AddItem { item, cap: None }, &system)
                .await?;
        }
        if n % 2 == 1 {
            let tip = ComandaCommand::AddTip { professional_id: booking.professional_id, cents: 1_000 };
            execute::<Comanda>(log, &id.to_string(), tip, &system).await?;
        }
        let comanda: Comanda = load(log, DEMO_BUSINESS_ID, &id.to_string()).await?;
        let due = comanda.totals().remaining();
        let payments = match paid {
            Paid::Cash { note } => {
                let received = due.div_euclid(note) * note + if due % note == 0 { 0 } else { note };
                vec![NewPayment {
                    cash_received_cents: Some(received),
                    ..payment(PaymentMethod::Cash, due, first_caixa)
                }]
            }
            Paid::PixAndDebit => vec![
                payment(PaymentMethod::Pix, due / 2, first_caixa),
                NewPayment {
                    brand: Some("Mastercard".to_owned()),
                    authorization_code: Some("482913".to_owned()),
                    nsu: Some("000731".to_owned()),
                    ..payment(PaymentMethod::Debit, due - due / 2, first_caixa)
                },
            ],
            Paid::Credit => vec![NewPayment {
                installments: Some(2),
                brand: Some("Visa".to_owned()),
                authorization_code: Some("120455".to_owned()),
                nsu: Some("000732".to_owned()),
                ..payment(PaymentMethod::Credit, due, first_caixa)
            }],
        };
        for taken in payments {
            execute::<Comanda>(log, &id.to_string(), ComandaCommand::TakePayment(taken), &system).await?;
        }
        close_at_rates(state, (unit, &id.to_string()), now, &system).await?;
        closed.push(id);
    }

    // A walk-in buys two pomades and pays in cash.
    if let Some((product, name, cents)) = products.first() {
        let id = next_id(&state.pool, "comanda_id_seq").await?;
        let line = NewItem {
            kind: ItemKind::Product,
            ref_id: *product,
            description: (*name).to_owned(),
            professional_id: None,
            quantity: 2,
            unit_cents: *cents,
            discount: None,
            appointment_id: None,
            club: None,
        };
        let opening = ComandaCommand::Open {
            company_id: unit,
            appointment_id: None,
            client_id: None,
            items: vec![line],
        };
        execute_new::<Comanda>(log, &id.to_string(), opening, &system).await?;
        let cash = NewPayment {
            cash_received_cents: Some(10_000),
            ..payment(PaymentMethod::Cash, 2 * cents, first_caixa)
        };
        execute::<Comanda>(log, &id.to_string(), ComandaCommand::TakePayment(cash), &system).await?;
        close_at_rates(state, (unit, &id.to_string()), now, &system).await?;
        closed.push(id);
    }

    // A sangria to the safe, and the close: R$ 2,00 missing.
    let taken_by_method = taken(&state.pool, first_caixa).await?;
    let taken = taken_with(&taken_by_method, PaymentMethod::Cash);
    let sangria = CaixaCommand::Move {
        kind: MovementKind::Sangria,
        cents: 5_000,
        reason: "Depósito no cofre".to_owned(),
        cash_taken_cents: taken,
    };
    execute::<Caixa>(log, &first_caixa.to_string(), sangria, &system).await?;
    let caixa: Caixa = load(log, DEMO_BUSINESS_ID, &first_caixa.to_string()).await?;
    let counted_cents = caixa.expected_cash(taken) - 200;
    // The card machine read at the close agrees with the card payments.
    let card_machine =
        CARD_MACHINE_METHODS.map(|method| (method, taken_with(&taken_by_method, method))).to_vec();
    let close = CaixaCommand::Close { at: now, counted_cents, taken: taken_by_method, card_machine };
    let released = [(crate::caixas::CAIXA_OPEN, unit.to_string())];
    execute_claiming::<Caixa>(log, &first_caixa.to_string(), close, &system, &[], &released).await?;

    // The next caixa opens; the credit card comanda is reopened, its payment given back and
    // paid again by debit there: a correction of the first caixa.
    let next_caixa = next_id(&state.pool, "caixa_id_seq").await?;
    let open = CaixaCommand::Open { company_id: unit, opening_cents: 10_000 };
    execute_claiming::<Caixa>(log, &next_caixa.to_string(), open, &system, &[open_claim(unit)], &[]).await?;
    if let Some(id) = closed.get(2) {
        let id = id.to_string();
        let reason = "Cliente pediu para pagar no débito".to_owned();
        execute::<Comanda>(log, &id, ComandaCommand::Reopen { reason: reason.clone() }, &system).await?;
        let comanda: Comanda = load(log, DEMO_BUSINESS_ID, &id).await?;
        for paid in comanda.payments().to_vec() {
            let refund =
                ComandaCommand::RefundPayment { payment_id: paid.payment_id, reason: reason.clone() };
            execute::<Comanda>(log, &id, refund, &system).await?;
            let again = payment(PaymentMethod::Debit, paid.cents, next_caixa);
            execute::<Comanda>(log, &id, ComandaCommand::TakePayment(again), &system).await?;
        }
        close_at_rates(state, (unit, &id), now, &system).await?;
    }

    // The next client who should have arrived by now did not.
    if let Some((id, _)) = appointments
        .iter()
        .skip(SERVED)
        .find(|(_, appointment)| appointment.booking().is_some_and(|b| b.starts_at() <= now))
    {
        execute::<Appointment>(log, &id.to_string(), AppointmentCommand::MarkNoShow { now }, &system).await?;
    }
    tracing::info!(comandas = closed.len(), "demo counter");
    Ok(closed.len())
}
