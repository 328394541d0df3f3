//! A local postal-code service speaking ViaCEP's contract, for `./navalha up` and the tests
//! (the real one is out of reach here):
//!
//! - `GET /ws/{cep}/json/`: 200 with `cep`, `logradouro`, `complemento`, `bairro`,
//!   `localidade`, `uf`, ... for a known CEP;
//! - 200 with `{"erro": "true"}` for a well-formed CEP that does not exist (ViaCEP answered
//!   the string, and now answers `true`; clients must read both);
//! - 400 for a malformed one (not 8 digits, with or without the hyphen).

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

/// (CEP, street, district, city, UF): the demo units' addresses and a few well-known ones.
const ADDRESSES: &[(&str, &str, &str, &str, &str)] = &[
    ("01042001", "Rua Barão de Itapetininga", "República", "São Paulo", "SP"),
    ("01310100", "Avenida Paulista", "Bela Vista", "São Paulo", "SP"),
    ("30130150", "Rua Pernambuco", "Savassi", "Belo Horizonte", "MG"),
    ("30140071", "Avenida Afonso Pena", "Centro", "Belo Horizonte", "MG"),
    ("80420090", "Avenida do Batel", "Batel", "Curitiba", "PR"),
    ("80010000", "Rua XV de Novembro", "Centro", "Curitiba", "PR"),
    ("20040020", "Avenida Rio Branco", "Centro", "Rio de Janeiro", "RJ"),
    ("40020000", "Rua Chile", "Centro", "Salvador", "BA"),
];

/// The ViaCEP routes.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/ws/{cep}/json/", get(lookup)).route("/ws/{cep}/json", get(lookup))
}

async fn lookup(Path(cep): Path<String>) -> Response {
    let digits: String = cep.chars().filter(|c| *c != '-').collect();
    if digits.len() != 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return (StatusCode::BAD_REQUEST, "Bad Request").into_response();
    }
    match ADDRESSES.iter().find(|(known, ..)| *known == digits) {
        Some((_, street, district, city, uf)) => Json(json!({
            "cep": format!("{}-{}", &digits[..5], &digits[5..]),
            "logradouro": street,
            "complemento": "",
            "unidade": "",
            "bairro": district,
            "localidade": city,
            "uf": uf,
            "ibge": "",
            "gia": "",
            "ddd": "",
            "siafi": ""
        }))
        .into_response(),
        None => Json(json!({ "erro": "true" })).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::router;

    async fn serve() -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        tokio::spawn(async move { axum::serve(listener, router::<()>()).await.expect("serve") });
        format!("http://{address}/ws")
    }

    #[tokio::test]
    async fn answers_as_viacep_does_for_known_unknown_and_malformed_ceps() {
        let base = serve().await;
        let client = reqwest::Client::new();

        let known = client.get(format!("{base}/01310100/json/")).send().await.expect("known");
        assert_eq!(known.status(), 200);
        let body: serde_json::Value = known.json().await.expect("json");
        assert_eq!(body["logradouro"], "Avenida Paulista");
        assert_eq!(body["localidade"], "São Paulo");
        assert_eq!(body["bairro"], "Bela Vista");
        assert_eq!(body["uf"], "SP");
        assert_eq!(body["cep"], "01310-100");

        let unknown = client.get(format!("{base}/99999999/json/")).send().await.expect("unknown");
        assert_eq!(unknown.status(), 200);
        assert_eq!(unknown.json::<serde_json::Value>().await.expect("json")["erro"], "true");

        for malformed in ["0131010", "013101000", "0131010a"] {
            let answer = client.get(format!("{base}/{malformed}/json/")).send().await.expect("malformed");
            assert_eq!(answer.status(), 400, "{malformed}");
        }
    }
}
