//! The unit's gallery: images checked by content and size, order kept, files outside the
//! database served with caching headers, and nothing stored when anything is refused.

use axum::http::{Method, StatusCode};
use navalha_harness::database::demo_database;
use serde_json::{json, Value};

use crate::support::{Answer, System};

pub const BOUNDARY: &str = "navalha-boundary";

pub fn png(seed: u8) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend(std::iter::repeat_n(seed, 64));
    bytes
}

fn jpeg(seed: u8) -> Vec<u8> {
    let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0];
    bytes.extend(std::iter::repeat_n(seed, 64));
    bytes
}

/// A multipart body: `(name, file name, bytes)` parts, in order.
pub fn multipart(parts: &[(&str, Option<&str>, Vec<u8>)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, file_name, bytes) in parts {
        body.extend(format!("--{BOUNDARY}\r\n").as_bytes());
        match file_name {
            Some(file_name) => body.extend(
                format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: image/png\r\n\r\n"
                )
                .as_bytes(),
            ),
            None => body.extend(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
        }
        body.extend(bytes);
        body.extend(b"\r\n");
    }
    body.extend(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

async fn save(system: &System, token: &str, company: i64, parts: &[(&str, Option<&str>, Vec<u8>)]) -> Answer {
    system
        .send_raw(
            Method::PUT,
            &format!("/api/gallery-company/{company}"),
            token,
            &format!("multipart/form-data; boundary={BOUNDARY}"),
            multipart(parts),
        )
        .await
}

async fn gallery(system: &System, token: &str, company: i64) -> Vec<Value> {
    system.project().await;
    let answer =
        system.call(Method::GET, &format!("/api/gallery-company/{company}"), Some(token), None).await;
    answer.body.as_array().cloned().unwrap_or_default()
}

fn stored_files(system: &System) -> usize {
    std::fs::read_dir(system.media.path().join("gallery")).map(|dir| dir.count()).unwrap_or(0)
}

#[tokio::test]
async fn images_are_saved_in_order_reordered_and_served_with_caching() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let company = 1;
    let saved = save(
        &system,
        &admin,
        company,
        &[("file", Some("a.png"), png(1)), ("file", Some("b.jpg"), jpeg(2)), ("file", Some("c.png"), png(3))],
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    let images = gallery(&system, &admin, company).await;
    assert_eq!(images.len(), 3);
    assert_eq!(
        images.iter().map(|i| i["Sequence"].clone()).collect::<Vec<_>>(),
        [json!(1), json!(2), json!(3)]
    );

    let url = images[1]["Url"].as_str().expect("url");
    let (status, headers, bytes) = system.get_bytes(url).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(bytes, jpeg(2));
    assert_eq!(headers["content-type"], "image/jpeg");
    assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable");

    // Reorder: the third first, drop the first, and add a new one between.
    let id = |i: usize| images[i]["IdGalleryCompany"].to_string().into_bytes();
    let saved = save(
        &system,
        &admin,
        company,
        &[
            ("idGalleryCompanies", None, id(2)),
            ("idGalleryCompanies", None, Vec::new()),
            ("idGalleryCompanies", None, id(1)),
            ("file", Some("d.png"), png(4)),
        ],
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{saved:?}");
    let reordered = gallery(&system, &admin, company).await;
    assert_eq!(reordered.len(), 3);
    assert_eq!(reordered[0]["IdGalleryCompany"], images[2]["IdGalleryCompany"]);
    assert_eq!(reordered[2]["IdGalleryCompany"], images[1]["IdGalleryCompany"]);
    let (_, _, bytes) = system.get_bytes(reordered[1]["Url"].as_str().expect("url")).await;
    assert_eq!(bytes, png(4));
}

#[tokio::test]
async fn anything_but_five_small_images_is_refused_and_nothing_is_stored() {
    let pool = demo_database().await;
    let system = System::start(pool).await;
    let admin = system.sign_in("admin@navalha.dev").await;
    let six: Vec<_> = (0..6).map(|i| ("file", Some("x.png"), png(i))).collect();
    let mut huge = png(9);
    huge.resize(5 * 1024 * 1024 + 1, 0);
    let cases = [
        (six, "A galeria aceita no máximo 5 imagens."),
        // A file refused is named (issue 45 point 7).
        (
            vec![("file", Some("x.gif"), b"GIF89a-------".to_vec())],
            "x.gif: Envie apenas imagens JPEG, PNG ou WebP.",
        ),
        // A script named like a picture is still refused: the content decides.
        (
            vec![
                ("file", Some("x.png"), png(1)),
                ("file", Some("evil.png"), b"<svg onload=alert(1)>".to_vec()),
            ],
            "evil.png: Envie apenas imagens JPEG, PNG ou WebP.",
        ),
        (vec![("file", Some("C:\\Fotos\\big.png"), huge)], "big.png: Cada imagem deve ter no máximo 5 MB."),
        (vec![("idGalleryCompanies", None, b"12345".to_vec())], "Imagem não encontrada na galeria."),
    ];
    for (parts, message) in cases {
        let answer = save(&system, &admin, 1, &parts).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{message}");
        assert_eq!(answer.body["errors"]["files"], message);
    }
    assert_eq!(stored_files(&system), 0, "no file was written");
    assert!(gallery(&system, &admin, 1).await.is_empty());

    // Only ADMIN saves galleries; other units are 404.
    let attendant = system.sign_in("atendente@navalha.dev").await;
    let answer = save(&system, &attendant, 1, &[("file", Some("a.png"), png(1))]).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    let answer = save(&system, &admin, 999, &[("file", Some("a.png"), png(1))]).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let (status, _, _) = system.get_bytes("/api/media/gallery/..%2F..%2Fetc%2Fpasswd").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_demo_showcase_gives_every_unit_photos_two_holidays_and_a_vacation() {
    let pool = demo_database().await;
    let system = System::start(pool.clone()).await;
    let settings = navalha_command_api::config::Settings {
        media_dir: system.media.path().to_path_buf(),
        ..Default::default()
    };
    let state = navalha_command_api::AppState::new(pool, settings).await.expect("state");
    navalha_command_api::seed::seed_demo_showcase(&state).await.expect("showcase");
    system.project().await;
    let admin = system.sign_in("admin@navalha.dev").await;

    let units =
        system.call(Method::GET, "/api/company/filter?pageSize=10&status=1", Some(&admin), None).await;
    let ids: Vec<i64> = units.body["content"]
        .as_array()
        .expect("units")
        .iter()
        .map(|u| u["IdCompany"].as_i64().expect("id"))
        .collect();
    assert_eq!(ids.len(), 3);
    for id in ids {
        let gallery =
            system.call(Method::GET, &format!("/api/gallery-company/{id}"), Some(&admin), None).await;
        let images = gallery.body.as_array().expect("images");
        assert_eq!(images.len(), 3, "unit {id}");
        let url = images[0]["Url"].as_str().expect("url");
        let file =
            system.call(Method::GET, url.trim_start_matches("http://localhost:8080"), None, None).await;
        assert_eq!(file.status, StatusCode::OK, "{url}");
    }

    let holidays = system.call(Method::GET, "/api/holiday/filter?pageSize=10", Some(&admin), None).await;
    let names: Vec<&str> = holidays.body["content"]
        .as_array()
        .expect("holidays")
        .iter()
        .filter_map(|h| h["Description"].as_str())
        .collect();
    assert!(names.contains(&"Natal") && names.contains(&"Confraternização Universal"), "{names:?}");

    let gabriel: i64 = sqlx::query_scalar(
        "select professional_id from staff_credential where email = 'gabriel@navalha.dev'",
    )
    .fetch_one(&system.pool)
    .await
    .expect("gabriel");
    let days_off = system.call(Method::GET, &format!("/api/day-off/{gabriel}"), Some(&admin), None).await;
    assert_eq!(days_off.body["total"], 1, "{:?}", days_off.body);
    assert_eq!(days_off.body["content"][0]["Description"], "Férias");
}
