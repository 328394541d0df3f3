//! `PUT gallery-company/{idCompany}`: the unit's photo gallery (spec 02 §7), ADMIN only.
//!
//! The multipart body has repeated `file` parts (the new images) and repeated
//! `idGalleryCompanies` parts giving the final order: an id keeps that image, an empty
//! value takes the next new file. Everything is checked before anything is stored: at most
//! 5 images, each JPEG, PNG or WebP by its content (not its name), at most 5 MB. Files are
//! stored outside the database under `<media dir>/gallery/`, named by their SHA-256, so a
//! failed save leaves no half-written state and the same picture is stored once.

use std::collections::VecDeque;
use std::path::Path;

use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::HeaderMap;
use navalha_domain::company::{Company, CompanyCommand, GalleryImage, MAX_GALLERY_IMAGES};
use navalha_platform::auth::{AdminOnly, Auth};
use navalha_platform::http::{Json, PathParam, RequestOrigin};
use navalha_platform::refused;
use navalha_platform::ApiError;
use sha2::{Digest, Sha256};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::commands::{execute, metadata_of, next_id, position_headers};
use crate::companies::visible_company;
use crate::state::AppState;

/// Largest image accepted.
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// Too many images.
pub const MSG_TOO_MANY: &str = "A galeria aceita no máximo 5 imagens.";
/// Not an image we take.
pub const MSG_BAD_TYPE: &str = "Envie apenas imagens JPEG, PNG ou WebP.";
/// An image above 5 MB.
pub const MSG_TOO_BIG: &str = "Cada imagem deve ter no máximo 5 MB.";
/// An id that is not in the gallery.
pub const MSG_UNKNOWN_IMAGE: &str = "Imagem não encontrada na galeria.";
/// More empty ids than files.
pub const MSG_MISSING_FILE: &str = "Falta o arquivo de uma das imagens.";

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    // Five images of 5 MB plus the multipart framing.
    OpenApiRouter::new().routes(
        routes!(save).layer(DefaultBodyLimit::max(MAX_GALLERY_IMAGES * MAX_IMAGE_BYTES + 1024 * 1024)),
    )
}

/// The image formats accepted, recognised by their first bytes.
pub fn image_extension(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("jpg")
    } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Some("png")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("webp")
    } else {
        None
    }
}

/// One slot of the final order.
enum Slot {
    Existing(i64),
    New,
}

fn refused(message: &str) -> ApiError {
    ApiError::field("files", message)
}

/// Reads the multipart body: the new files (checked) and the order.
async fn read_body(
    mut multipart: Multipart,
) -> Result<(VecDeque<(Vec<u8>, &'static str)>, Vec<Slot>), ApiError> {
    let mut files = VecDeque::new();
    let mut order = Vec::new();
    while let Some(mut field) =
        multipart.next_field().await.map_err(|e| ApiError::BadRequest(format!("Envio inválido: {e}")))?
    {
        match field.name().unwrap_or_default() {
            "file" | "files" => {
                let Some((bytes, extension)) = image_part(&mut field, "files").await? else {
                    continue;
                };
                files.push_back((bytes, extension));
                if files.len() > MAX_GALLERY_IMAGES {
                    return Err(refused(MSG_TOO_MANY));
                }
            }
            "idGalleryCompanies" | "idGalleryCompany" => {
                let text =
                    field.text().await.map_err(|e| ApiError::BadRequest(format!("Envio inválido: {e}")))?;
                match text.trim() {
                    "" | "null" | "undefined" => order.push(Slot::New),
                    id => order.push(Slot::Existing(id.parse().map_err(|_| refused(MSG_UNKNOWN_IMAGE))?)),
                }
            }
            _ => {}
        }
    }
    Ok((files, order))
}

/// An image part of a multipart body, checked: at most [`MAX_IMAGE_BYTES`], and JPEG, PNG or
/// WebP by its first bytes (refused on `field_name`, naming the file, issue 45 point 7:
/// 'logo.gif: Envie apenas imagens JPEG, PNG ou WebP.'); `None` for an empty part.
pub async fn image_part(
    field: &mut axum::extract::multipart::Field<'_>,
    field_name: &str,
) -> Result<Option<(Vec<u8>, &'static str)>, ApiError> {
    let file = field.file_name().map(shown_file_name).unwrap_or_default();
    let refused = |message: &str| match file.as_str() {
        "" => ApiError::field(field_name, message),
        file => ApiError::field(field_name, &format!("{file}: {message}")),
    };
    let mut bytes = Vec::new();
    while let Some(chunk) =
        field.chunk().await.map_err(|e| ApiError::BadRequest(format!("Envio inválido: {e}")))?
    {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > MAX_IMAGE_BYTES {
            return Err(refused(MSG_TOO_BIG));
        }
    }
    if bytes.is_empty() {
        return Ok(None);
    }
    let extension = image_extension(&bytes).ok_or_else(|| refused(MSG_BAD_TYPE))?;
    Ok(Some((bytes, extension)))
}

/// A file name as a message may show it: its last path segment, without control
/// characters, at most 60 characters.
fn shown_file_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean: String = last.chars().filter(|c| !c.is_control()).collect();
    match clean.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &clean[..cut]),
        None => clean,
    }
}

/// Writes a file under its content hash, through a temporary name so a reader never sees
/// half a file.
pub async fn store(dir: &Path, bytes: &[u8], extension: &str) -> Result<String, ApiError> {
    let hash: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
    let name = format!("{hash}.{extension}");
    let path = dir.join(&name);
    if tokio::fs::try_exists(&path).await.unwrap_or(false) {
        return Ok(name);
    }
    tokio::fs::create_dir_all(dir).await.map_err(|e| ApiError::Internal(e.into()))?;
    let temporary = dir.join(format!(".{name}.{}", uuid::Uuid::new_v4()));
    tokio::fs::write(&temporary, bytes).await.map_err(|e| ApiError::Internal(e.into()))?;
    tokio::fs::rename(&temporary, &path).await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(name)
}

/// A unit's gallery saved.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "PascalCase")]
struct GallerySaved {
    id_company: i64,
    /// How many images it now has.
    count: usize,
}

#[utoipa::path(
    put,
    path = "/gallery-company/{id}",
    tag = "Units",
    summary = "Replace the gallery (ADMIN): repeated file parts and idGalleryCompanies (empty for new files), at most 5 JPEG/PNG/WebP of 5 MB",
    params(
        ("id" = i64, Path),
    ),
    request_body(content = Object, content_type = "multipart/form-data", description = "Repeated `file` parts (JPEG, PNG or WebP, at most 5 MB each) and `idGalleryCompanies` parts giving the final order: an id keeps that image, an empty value takes the next new file; at most 5 images"),
    responses(
        (status = 200, description = "Saved", body = GallerySaved),
        refused::Forbidden,
        refused::NotFound,
        refused::Invalid,
    ),
    security(("bearer" = [])),
)]
#[tracing::instrument(skip_all, fields(professional_id = auth.professional_id, company_id = id))]
async fn save(
    State(state): State<AppState>,
    auth: Auth<AdminOnly>,
    origin: RequestOrigin,
    PathParam(id): PathParam<i64>,
    navalha_platform::http::Multipart(multipart): navalha_platform::http::Multipart,
) -> Result<(HeaderMap, Json<GallerySaved>), ApiError> {
    let company = visible_company(&state, &auth, id).await?;
    let (mut files, mut order) = read_body(multipart).await?;
    // Files beyond the empty slots (or all of them, without an order) go last, as sent.
    let empty_slots = order.iter().filter(|slot| matches!(slot, Slot::New)).count();
    if empty_slots > files.len() {
        return Err(refused(MSG_MISSING_FILE));
    }
    order.extend((empty_slots..files.len()).map(|_| Slot::New));
    if order.len() > MAX_GALLERY_IMAGES {
        return Err(refused(MSG_TOO_MANY));
    }
    let dir = state.settings.media_dir.join("gallery");
    let mut images = Vec::with_capacity(order.len());
    for slot in order {
        match slot {
            Slot::Existing(image_id) => {
                let image = company
                    .gallery()
                    .iter()
                    .find(|image| image.id == image_id)
                    .ok_or_else(|| refused(MSG_UNKNOWN_IMAGE))?;
                if images.iter().any(|i: &GalleryImage| i.id == image_id) {
                    return Err(refused(MSG_UNKNOWN_IMAGE));
                }
                images.push(image.clone());
            }
            Slot::New => {
                let (bytes, extension) = files.pop_front().ok_or_else(|| refused(MSG_MISSING_FILE))?;
                let file = store(&dir, &bytes, extension).await?;
                images.push(GalleryImage { id: next_id(&state.pool, "gallery_image_id_seq").await?, file });
            }
        }
    }
    let count = images.len();
    let position = execute::<Company>(
        &state.events,
        &id.to_string(),
        CompanyCommand::SaveGallery(images),
        &metadata_of(&auth, &origin),
    )
    .await?;
    tracing::info!(images = count, "gallery saved");
    Ok((position_headers(position), Json(GallerySaved { id_company: id, count })))
}

#[cfg(test)]
mod tests {
    use super::image_extension;

    #[test]
    fn images_are_recognised_by_content() {
        assert_eq!(image_extension(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0]), Some("jpg"));
        assert_eq!(image_extension(b"\x89PNG\r\n\x1a\n...."), Some("png"));
        assert_eq!(image_extension(b"RIFF\x10\x00\x00\x00WEBPVP8 "), Some("webp"));
        assert_eq!(image_extension(b"GIF89a......"), None);
        assert_eq!(image_extension(b"<svg xmlns="), None);
        assert_eq!(image_extension(b""), None);
    }
}
