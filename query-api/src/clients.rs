//! Clients: `GET user/filter` and `GET user/{id}` (spec 01 §7, spec 02 §7).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::get;
use axum::Router;
use chrono::NaiveDate;
use navalha_platform::auth::Auth;
use navalha_platform::http::{Json, PathParam, QueryParams};
use navalha_platform::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::consistency::ReadAfter;
use crate::paging::{Page, PageRequest};
use crate::scope;
use crate::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new().route("/user/filter", get(filter)).route("/user/{id}", get(one))
}

/// A client in a list.
#[derive(Debug, Serialize, sqlx::FromRow)]
#[serde(rename_all = "PascalCase")]
pub struct ClientItem {
    /// IdUser.
    pub id_user: i64,
    /// Name.
    pub name: String,
    /// Phone digits.
    pub phone: String,
    /// E-mail.
    pub email: String,
    /// CPF digits.
    pub cpf: String,
    /// Active or not.
    pub status: bool,
    /// The client's subscriptions, from the club's read model.
    #[sqlx(skip)]
    pub subscription_user: Vec<serde_json::Value>,
}

/// `?page&pageSize&search&status`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterParams {
    page: Option<i64>,
    page_size: Option<i64>,
    #[serde(default)]
    search: String,
    /// 1 active, 2 inactive, 0 pending (no client is pending); absent or empty: all.
    #[serde(default)]
    status: Option<String>,
}

/// Turns what a user typed into a LIKE pattern over the normalised search column: masked
/// documents and phones are matched by their digits.
pub fn search_pattern(search: &str) -> Option<String> {
    let term = search.trim();
    if term.is_empty() {
        return None;
    }
    let has_letters = term.chars().any(char::is_alphabetic);
    let term = if has_letters || term.contains('@') {
        term.to_owned()
    } else {
        navalha_domain::values::only_digits(term)
    };
    let escaped = term.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    Some(format!("%{escaped}%"))
}

async fn filter(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    QueryParams(params): QueryParams<FilterParams>,
) -> Result<(HeaderMap, Json<Page<ClientItem>>), ApiError> {
    let consistency = read_after.wait(&state.watch, "client").await?;
    let status: Option<bool> = match params.status.as_deref().map(str::trim) {
        None | Some("") => None,
        Some("1") => Some(true),
        Some("2") => Some(false),
        Some("0") => return Ok((consistency.headers(), Json(Page::empty()))),
        Some(_) => return Err(ApiError::BadRequest("Status inválido: use 0, 1 ou 2.".to_owned())),
    };
    let pattern = search_pattern(&params.search);
    let (limit, offset) = PageRequest { page: params.page, page_size: params.page_size }.limit_offset()?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let total: i64 = sqlx::query_scalar(
        "select count(*) from rm_client.client
          where ($1::boolean is null or status = $1)
            and ($2::text is null or search like lower(public.unaccent($2)))",
    )
    .bind(status)
    .bind(&pattern)
    .fetch_one(&mut *tx)
    .await?;
    let mut content: Vec<ClientItem> = sqlx::query_as(
        "select client_id as id_user, name, phone, email, cpf, status from rm_client.client
          where ($1::boolean is null or status = $1)
            and ($2::text is null or search like lower(public.unaccent($2)))
          order by search, client_id
          limit $3 offset $4",
    )
    .bind(status)
    .bind(&pattern)
    .bind(limit)
    .bind(offset)
    .fetch_all(&mut *tx)
    .await?;
    let ids: Vec<i64> = content.iter().map(|c| c.id_user).collect();
    let mut subscriptions = crate::club::subscriptions_of(&mut tx, &ids).await?;
    for client in &mut content {
        client.subscription_user = subscriptions.remove(&client.id_user).unwrap_or_default();
    }
    Ok((consistency.headers(), Json(Page::new(content, total))))
}

#[derive(Debug, sqlx::FromRow)]
struct ClientRow {
    client_id: i64,
    name: String,
    cpf: String,
    email: String,
    phone: String,
    whatsapp: bool,
    birth_date: Option<NaiveDate>,
    status: bool,
    login_type: String,
}

async fn one(
    State(state): State<AppState>,
    auth: Auth,
    read_after: ReadAfter,
    PathParam(id): PathParam<i64>,
) -> Result<(HeaderMap, Json<serde_json::Value>), ApiError> {
    let consistency = read_after.wait(&state.watch, "client").await?;
    let mut tx = scope::of(&state.pool, &auth).await?;
    let row: ClientRow = sqlx::query_as(
        "select client_id, name, cpf, email, phone, whatsapp, birth_date, status, login_type
           from rm_client.client where client_id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| ApiError::NotFound("Cliente não encontrado.".to_owned()))?;
    let subscriptions = crate::club::subscriptions_of(&mut tx, &[row.client_id]).await?;
    Ok((
        consistency.headers(),
        Json(json!({
            "IdUser": row.client_id,
            "Name": row.name,
            "Cpf": row.cpf,
            "Email": row.email,
            "Phone": row.phone,
            "WhatsApp": row.whatsapp,
            "BirthDate": row.birth_date,
            "LastAccess": null,
            "Status": row.status,
            "LoginType": row.login_type,
            "RecoveryCode": null,
            "SubscriptionUser": subscriptions.get(&row.client_id).cloned().unwrap_or_default(),
        })),
    ))
}

#[cfg(test)]
mod tests {
    use super::search_pattern;

    #[test]
    fn masked_documents_search_by_digits_and_wildcards_are_literal() {
        assert_eq!(search_pattern("529.982.247-25").as_deref(), Some("%52998224725%"));
        assert_eq!(search_pattern("(11) 98765").as_deref(), Some("%1198765%"));
        assert_eq!(search_pattern(" João ").as_deref(), Some("%João%"));
        assert_eq!(search_pattern("100%_x").as_deref(), Some("%100\\%\\_x%"));
        assert_eq!(search_pattern("  "), None);
    }
}
