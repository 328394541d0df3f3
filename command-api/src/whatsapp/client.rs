//! The Cloud API's send call: a template message with its body variables and quick-reply
//! buttons, `biz_opaque_callback_data` carrying the message's key so that every delivery
//! report names the message it is about (docs/messages.md, "Sending").

use navalha_domain::message::MessageRequest;
use serde_json::{json, Value};

use crate::config::Settings;

/// The templates' language: Brazilian Portuguese.
pub const LANGUAGE: &str = "pt_BR";

/// Why a message was not sent.
#[derive(Debug, PartialEq, Eq)]
pub enum SendError {
    /// The provider answered 4xx: the message as it is will not be sent (its words).
    Refused(String),
    /// The provider could not be reached, timed out or answered 5xx: it may be tried later.
    Unavailable(String),
}

/// The body of `POST /{phone-number-id}/messages` for `request`.
pub fn body(request: &MessageRequest, key: &str) -> Value {
    if let Some(text) = &request.text {
        return json!({
            "messaging_product": "whatsapp",
            "recipient_type": "individual",
            "to": request.to,
            "type": "text",
            "text": { "preview_url": false, "body": text },
            "biz_opaque_callback_data": key,
        });
    }
    let mut components = Vec::new();
    if !request.variables.is_empty() {
        let parameters: Vec<Value> =
            request.variables.iter().map(|text| json!({ "type": "text", "text": text })).collect();
        components.push(json!({ "type": "body", "parameters": parameters }));
    }
    for (index, payload) in request.buttons.iter().enumerate() {
        components.push(json!({
            "type": "button",
            "sub_type": "quick_reply",
            "index": index.to_string(),
            "parameters": [{ "type": "payload", "payload": payload }],
        }));
    }
    json!({
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": request.to,
        "type": "template",
        "template": {
            "name": request.template,
            "language": { "code": LANGUAGE },
            "components": components,
        },
        "biz_opaque_callback_data": key,
    })
}

/// Sends `request` as message `key`: the provider's message id (`wamid....`).
pub async fn send(
    http: &reqwest::Client,
    settings: &Settings,
    request: &MessageRequest,
    key: &str,
) -> Result<String, SendError> {
    if settings.whatsapp_token.expose().is_empty() || settings.whatsapp_phone_number_id.is_empty() {
        return Err(SendError::Refused("WhatsApp não configurado".to_owned()));
    }
    let url = format!(
        "{}/{}/messages",
        settings.whatsapp_url.trim_end_matches('/'),
        settings.whatsapp_phone_number_id
    );
    let answer = http
        .post(&url)
        .bearer_auth(settings.whatsapp_token.expose())
        .json(&body(request, key))
        .send()
        .await
        .map_err(|error| SendError::Unavailable(error.to_string()))?;
    let status = answer.status();
    let value: Value = answer.json().await.unwrap_or(Value::Null);
    if status.is_server_error() || status == reqwest::StatusCode::TOO_MANY_REQUESTS {
        return Err(SendError::Unavailable(format!("{status}: {}", error_text(&value))));
    }
    if !status.is_success() {
        return Err(SendError::Refused(error_text(&value)));
    }
    value["messages"][0]["id"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| SendError::Unavailable(format!("an answer without a message id: {value}")))
}

/// The Graph API's error object in a line: `(#131030) Recipient phone number not in allowed list`.
fn error_text(value: &Value) -> String {
    let error = &value["error"];
    match (error["code"].as_i64(), error["message"].as_str()) {
        (Some(code), Some(message)) => format!("(#{code}) {message}"),
        (None, Some(message)) => message.to_owned(),
        _ => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_message_carries_its_variables_buttons_and_key_as_the_api_asks() {
        let request = MessageRequest {
            appointment_id: Some(812),
            channel: navalha_domain::message::Channel::Whatsapp,
            to: "5511987654321".into(),
            template: "lembrete_agendamento".into(),
            variables: vec!["Navalha Centro".into(), "terça-feira, 01/12 às 10:00".into()],
            buttons: vec!["CONFIRMAR:a812-r24".into(), "CANCELAR:a812-r24".into()],
            text: None,
        };
        let sent = body(&request, "a812-r24");
        assert_eq!(sent["messaging_product"], "whatsapp");
        assert_eq!(sent["to"], "5511987654321");
        assert_eq!(sent["template"]["language"]["code"], "pt_BR");
        assert_eq!(sent["template"]["components"][0]["parameters"][1]["text"], "terça-feira, 01/12 às 10:00");
        assert_eq!(sent["template"]["components"][2]["index"], "1");
        assert_eq!(sent["template"]["components"][2]["sub_type"], "quick_reply");
        assert_eq!(sent["template"]["components"][2]["parameters"][0]["payload"], "CANCELAR:a812-r24");
        assert_eq!(sent["biz_opaque_callback_data"], "a812-r24");
        let answer = body(&MessageRequest { text: Some("Obrigado!".into()), ..request }, "r-1");
        assert_eq!(
            (answer["type"].clone(), answer["text"]["body"].clone()),
            (json!("text"), json!("Obrigado!"))
        );
        assert_eq!(
            error_text(
                &json!({"error": {"message": "Recipient phone number not in allowed list", "code": 131030}})
            ),
            "(#131030) Recipient phone number not in allowed list"
        );
    }
}
