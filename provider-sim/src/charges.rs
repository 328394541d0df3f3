//! One-off charges (GalaxPay v2 `/charges`), as the counter's Pix uses them (issue 41): a
//! `pix` charge answers `Charge.Transactions[0].Pix` with the BR Code ('copia e cola'), the
//! QR code's image and a page for the client's phone, all served here. `/sim/charges/{id}/pay`,
//! `/expire` and `/refuse` end it as the bank would, and send `transaction.updateStatus`
//! with the `Charge` to the webhook address.

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::{authorized, deliver, error, now, set_status, Simulator, DATE_TIME};

/// The routes of this module.
pub fn router() -> Router<Simulator> {
    Router::new()
        .route("/v2/charges", post(create).get(list))
        .route("/v2/charges/{id}/{type_id}", delete(cancel))
        .route("/sim/charges/{id}/{outcome}", post(end))
        .route("/pix/{id}", get(page))
        .route("/pix/{id}/qr.svg", get(qr_svg))
}

/// CRC-16/CCITT-FALSE, the BR Code's checksum (EMV QRCPS, field 63).
fn crc16(text: &str) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for byte in text.bytes() {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
        }
    }
    crc
}

/// One EMV field: id, two-digit length, value.
fn field(id: &str, value: &str) -> String {
    format!("{id}{:02}{value}", value.len())
}

/// A dynamic Pix BR Code for `cents`, pointing at this charge (the Central Bank's layout).
pub fn br_code(location: &str, cents: i64, txid: &str) -> String {
    let account = field("00", "br.gov.bcb.pix") + &field("25", location);
    let amount = format!("{}.{:02}", cents / 100, cents % 100);
    let body = [
        field("00", "01"),
        field("01", "12"),
        field("26", &account),
        field("52", "0000"),
        field("53", "986"),
        field("54", &amount),
        field("58", "BR"),
        field("59", "NAVALHA BARBEARIA"),
        field("60", "SAO PAULO"),
        field("62", &field("05", txid)),
    ]
    .concat()
        + "6304";
    format!("{body}{:04X}", crc16(&body))
}

async fn create(State(sim): State<Simulator>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    if !authorized(&sim, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "Unauthorized.");
    }
    if body["mainPaymentMethodId"] != "pix" {
        return error(StatusCode::BAD_REQUEST, "The simulator's charges are pix only.");
    }
    let Some(cents) = body["value"].as_i64().filter(|cents| *cents > 0) else {
        return error(StatusCode::BAD_REQUEST, "value must be a positive number of cents.");
    };
    if body["Customer"]["document"].as_str().unwrap_or_default().is_empty() {
        return error(StatusCode::BAD_REQUEST, "Customer.document is required.");
    }
    let minutes = body["PaymentMethodPix"]["Deadline"]["value"].as_i64().unwrap_or(30);
    let mut inner = sim.inner.lock().await;
    inner.next_id += 2;
    let (id, transaction_id) = (inner.next_id - 1, inner.next_id);
    let base = sim.config.public_url.trim_end_matches('/');
    let stamp = now().format(DATE_TIME).to_string();
    let location =
        format!("{}/qr/v2/{id}", base.trim_start_matches("http://").trim_start_matches("https://"));
    let charge = json!({
        "galaxPayId": id,
        "myId": body["myId"].as_str().map(str::to_owned).unwrap_or_else(|| id.to_string()),
        "value": cents,
        "additionalInfo": body["additionalInfo"],
        "mainPaymentMethodId": "pix",
        "status": "active",
        "createdAt": stamp,
        "Customer": body["Customer"],
        "Transactions": [{
            "galaxPayId": transaction_id,
            "value": cents,
            "payday": now().date().to_string(),
            "status": "pendingPix",
            "statusDescription": "Aguardando pagamento",
            "statusDate": stamp,
            "createdAt": stamp,
            "expiresAt": (now() + chrono::Duration::minutes(minutes)).format(DATE_TIME).to_string(),
            "Pix": {
                "reference": format!("NAVALHA{id}"),
                "qrCode": br_code(&location, cents, &format!("NAVALHA{id}")),
                "image": format!("{base}/pix/{id}/qr.svg"),
                "page": format!("{base}/pix/{id}"),
            },
        }],
    });
    inner.charges.insert(id, charge.clone());
    Json(json!({ "type": true, "Charge": charge })).into_response()
}

async fn list(
    State(sim): State<Simulator>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    if !authorized(&sim, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "Unauthorized.");
    }
    let ids: Option<Vec<String>> =
        query.get("galaxPayIds").map(|list| list.split(',').map(|s| s.trim().to_owned()).collect());
    let inner = sim.inner.lock().await;
    let found: Vec<Value> = inner
        .charges
        .values()
        .filter(|charge| ids.as_ref().is_none_or(|ids| ids.contains(&charge["galaxPayId"].to_string())))
        .cloned()
        .collect();
    Json(json!({ "totalQtdFoundInPage": found.len(), "Charges": found })).into_response()
}

async fn cancel(
    State(sim): State<Simulator>,
    headers: HeaderMap,
    Path((id, _type_id)): Path<(i64, String)>,
) -> Response {
    if !authorized(&sim, &headers).await {
        return error(StatusCode::UNAUTHORIZED, "Unauthorized.");
    }
    let mut inner = sim.inner.lock().await;
    let Some(charge) = inner.charges.get_mut(&id) else {
        return error(StatusCode::NOT_FOUND, "Charge not found.");
    };
    charge["status"] = json!("canceled");
    if charge["Transactions"][0]["status"] == "pendingPix" {
        set_status(&mut charge["Transactions"][0], "cancel");
    }
    Json(json!({ "type": true })).into_response()
}

/// `/sim/charges/{id}/pay|expire|refuse`: the client paid, the charge expired, or the bank
/// did not take it; `{"webhook": false}` holds the webhook back.
async fn end(
    State(sim): State<Simulator>,
    Path((id, outcome)): Path<(i64, String)>,
    body: Option<Json<Value>>,
) -> Response {
    let status = match outcome.as_str() {
        "pay" => "payedPix",
        "expire" => "unavailablePix",
        "refuse" => "notCompensated",
        _ => return error(StatusCode::NOT_FOUND, "Use pay, expire or refuse."),
    };
    let charge = {
        let mut inner = sim.inner.lock().await;
        let Some(charge) = inner.charges.get_mut(&id) else {
            return error(StatusCode::NOT_FOUND, "Charge not found.");
        };
        set_status(&mut charge["Transactions"][0], status);
        charge.clone()
    };
    let send = body.is_none_or(|Json(body)| body["webhook"].as_bool().unwrap_or(true));
    let hook = {
        let mut inner = sim.inner.lock().await;
        inner.next_webhook += 1;
        let mut summary = charge.clone();
        summary.as_object_mut().map(|o| o.remove("Transactions"));
        let hook = json!({
            "id": inner.next_webhook,
            "event": "transaction.updateStatus",
            "webhookId": inner.next_webhook,
            "confirmHash": sim.config.webhook_hash.expose(),
            "Transaction": charge["Transactions"][0],
            "Charge": summary,
        });
        inner.webhooks.push(json!({ "body": hook, "sent": send, "answer": Value::Null }));
        hook
    };
    if send {
        deliver(&sim, &hook).await;
    }
    Json(json!({ "Charge": charge, "webhook": hook })).into_response()
}

fn qr_of(charge: &Value) -> Option<String> {
    let code = charge["Transactions"][0]["Pix"]["qrCode"].as_str()?;
    let qr = qrcode::QrCode::new(code.as_bytes()).ok()?;
    Some(qr.render::<qrcode::render::svg::Color<'_>>().min_dimensions(240, 240).build())
}

async fn qr_svg(State(sim): State<Simulator>, Path(id): Path<String>) -> Response {
    let inner = sim.inner.lock().await;
    let svg = id.parse::<i64>().ok().and_then(|id| inner.charges.get(&id)).and_then(qr_of);
    match svg {
        Some(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        None => error(StatusCode::NOT_FOUND, "Charge not found."),
    }
}

/// The page the client opens on a phone: the amount, the QR code, 'copia e cola' and the
/// charge's status, read again every few seconds.
async fn page(State(sim): State<Simulator>, Path(id): Path<i64>) -> Response {
    let inner = sim.inner.lock().await;
    let Some(charge) = inner.charges.get(&id) else {
        return error(StatusCode::NOT_FOUND, "Charge not found.");
    };
    let cents = charge["value"].as_i64().unwrap_or(0);
    let transaction = &charge["Transactions"][0];
    let (status, refresh) = match transaction["status"].as_str().unwrap_or_default() {
        "payedPix" => ("Pagamento recebido. Obrigado!", ""),
        "pendingPix" => ("Aguardando pagamento", "<meta http-equiv=\"refresh\" content=\"5\">"),
        _ => ("Esta cobrança não está mais disponível.", ""),
    };
    let code = transaction["Pix"]["qrCode"].as_str().unwrap_or_default();
    let reais = format!("R$ {},{:02}", cents / 100, cents % 100);
    Html(format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">{refresh}\
         <title>Pagar com Pix</title><style>body{{font-family:system-ui,sans-serif;max-width:420px;\
         margin:24px auto;padding:0 16px;text-align:center;color:#111}}textarea{{width:100%;height:96px;\
         font-size:13px}}img{{width:240px;height:240px}}</style></head><body>\
         <h1>Pagar com Pix</h1><p style=\"font-size:28px;font-weight:700\">{reais}</p>\
         <p role=\"status\">{status}</p><img src=\"/pix/{id}/qr.svg\" alt=\"QR Code do Pix\">\
         <p><label for=\"code\">Pix copia e cola</label></p>\
         <textarea id=\"code\" readonly>{code}</textarea></body></html>"
    ))
    .into_response()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_br_code_carries_its_amount_and_a_valid_checksum() {
        let code = super::br_code("sim.local/qr/v2/7", 4550, "NAVALHA7");
        assert!(code.starts_with("000201010212"), "{code}");
        assert!(code.contains("540545.50"), "{code}");
        let (body, crc) = code.split_at(code.len() - 4);
        assert_eq!(format!("{:04X}", super::crc16(body)), crc);
        // The checksum of the standard's check string.
        assert_eq!(super::crc16("123456789"), 0x29B1);
    }
}
