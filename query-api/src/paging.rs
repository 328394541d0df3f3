//! Paged answers: `{content, total, count}`, page size 5 unless asked otherwise.

use navalha_platform::ApiError;
use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::{Arguments as _, PgConnection};

/// Default page size everywhere (spec 02 §9).
pub const DEFAULT_PAGE_SIZE: i64 = 5;
/// Largest page a client may ask for.
pub const MAX_PAGE_SIZE: i64 = 100;

/// `?page&pageSize` (pages start at 1). Their bounds are written into the documents from
/// the constants above (`openapi.rs`).
#[derive(Debug, Clone, Copy, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct PageRequest {
    /// 1-based page.
    pub page: Option<i64>,
    /// Items per page.
    pub page_size: Option<i64>,
}

impl PageRequest {
    /// SQL `limit` and `offset`.
    pub fn limit_offset(self) -> Result<(i64, i64), ApiError> {
        let page = self.page.unwrap_or(1);
        let size = self.page_size.unwrap_or(DEFAULT_PAGE_SIZE);
        let invalid = || {
            ApiError::BadRequest(format!(
                "Paginação inválida: page a partir de 1 e pageSize entre 1 e {MAX_PAGE_SIZE}."
            ))
        };
        if page < 1 || !(1..=MAX_PAGE_SIZE).contains(&size) {
            return Err(invalid());
        }
        // A page far past any list is still a valid (empty) page, not an overflow.
        let offset = (page - 1).checked_mul(size).ok_or_else(invalid)?;
        Ok((size, offset))
    }
}

/// `?page&pageSize&search&status`: the filter of the back office's lists of units,
/// professionals and clients (spec 02 §9).
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListFilter {
    /// 1-based page.
    pub page: Option<i64>,
    /// Items per page.
    pub page_size: Option<i64>,
    /// Words found in the name, phone, e-mail or document, ignoring accents and case.
    #[serde(default)]
    pub search: Option<String>,
    /// 1 active, 2 inactive, 0 pending; absent or empty: all.
    #[serde(default)]
    pub status: Option<String>,
}

impl ListFilter {
    /// SQL `limit` and `offset`.
    pub fn limit_offset(&self) -> Result<(i64, i64), ApiError> {
        PageRequest { page: self.page, page_size: self.page_size }.limit_offset()
    }

    /// The `like` pattern of the search, if any (`search::search_pattern`).
    pub fn pattern(&self) -> Option<String> {
        crate::search::search_pattern(self.search.as_deref().unwrap_or_default())
    }

    /// The status asked for.
    pub fn status(&self) -> Result<StatusFilter, ApiError> {
        match self.status.as_deref().map(str::trim) {
            None | Some("") => Ok(StatusFilter::All),
            Some("1") => Ok(StatusFilter::Active(true)),
            Some("2") => Ok(StatusFilter::Active(false)),
            Some("0") => Ok(StatusFilter::Pending),
            Some(_) => Err(ApiError::BadRequest("Status inválido: use 0, 1 ou 2.".to_owned())),
        }
    }
}

/// Status filter of the lists: 1 active, 2 inactive, 0 pending, empty all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    /// Todos.
    All,
    /// Ativo / Inativo.
    Active(bool),
    /// Pendente: no unit or client is ever pending.
    Pending,
}

impl StatusFilter {
    /// For a list whose rows are active or not: the flag to filter on (`None`: all), or
    /// `None` for 'Pendente', which no such row is (the page is empty).
    pub fn active_flag(self) -> Option<Option<bool>> {
        match self {
            StatusFilter::All => Some(None),
            StatusFilter::Active(active) => Some(Some(active)),
            StatusFilter::Pending => None,
        }
    }
}

/// One page of a list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Page<T> {
    /// The items of this page.
    pub content: Vec<T>,
    /// How many items match in all pages.
    pub total: i64,
    /// How many items this page has.
    pub count: i64,
}

impl<T> Page<T> {
    /// A page and the total it was cut from.
    pub fn new(content: Vec<T>, total: i64) -> Self {
        let count = content.len() as i64;
        Self { content, total, count }
    }

    /// No items.
    pub fn empty() -> Self {
        Self::new(Vec::new(), 0)
    }

    /// The same page, each item made into another.
    pub fn map<U>(self, item: impl FnMut(T) -> U) -> Page<U> {
        Page { content: self.content.into_iter().map(item).collect(), total: self.total, count: self.count }
    }
}

/// A filter that takes one of a few codes (`status=OPEN`): `None` when absent or empty, a
/// 422 on `field` naming the codes otherwise.
pub fn one_of(field: &str, value: Option<&str>, codes: &[&str]) -> Result<Option<String>, ApiError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(code) if codes.contains(&code) => Ok(Some(code.to_owned())),
        Some(_) => {
            let (last, first) = codes.split_last().unwrap_or((&"", &[]));
            let listed =
                if first.is_empty() { (*last).to_owned() } else { format!("{} ou {last}", first.join(", ")) };
            Err(ApiError::field(field, &format!("Use {listed}.")))
        }
    }
}

/// A paged list's query: `select {columns} from {from} where {condition} order by {order}`.
/// The condition's parameters are `$1..$n`, bound by [`page_of`]'s arguments.
pub struct ListQuery<'a> {
    pub columns: &'a str,
    pub from: &'a str,
    pub condition: &'a str,
    pub order: &'a str,
}

/// One page of `query` and the total that matches: the count and the page bind the same
/// `arguments`, and the page adds its limit and offset after them.
pub async fn page_of<T>(
    conn: &mut PgConnection,
    query: &ListQuery<'_>,
    arguments: PgArguments,
    (limit, offset): (i64, i64),
) -> Result<Page<T>, ApiError>
where
    T: for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin,
{
    let ListQuery { columns, from, condition, order } = query;
    let count = format!("select count(*) from {from} where {condition}");
    let total: i64 = sqlx::query_scalar_with(&count, arguments.clone()).fetch_one(&mut *conn).await?;
    let bound = arguments.len();
    let mut arguments = arguments;
    arguments.add(limit).map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
    arguments.add(offset).map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
    let page = format!(
        "select {columns} from {from} where {condition} order by {order} limit ${} offset ${}",
        bound + 1,
        bound + 2
    );
    let content: Vec<T> = sqlx::query_as_with(&page, arguments).fetch_all(conn).await?;
    Ok(Page::new(content, total))
}

/// The arguments of a list's condition, in the order of its parameters.
#[macro_export]
macro_rules! list_arguments {
    ($($value:expr),* $(,)?) => {{
        use sqlx::Arguments as _;
        let mut arguments = sqlx::postgres::PgArguments::default();
        $(arguments.add($value).map_err(|e| navalha_platform::ApiError::Internal(anyhow::anyhow!(e)))?;)*
        arguments
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_filter_takes_its_codes_and_names_them_otherwise() {
        let codes = ["OPEN", "CLOSED", "CANCELED"];
        assert_eq!(one_of("status", None, &codes).ok(), Some(None));
        assert_eq!(one_of("status", Some(" "), &codes).ok(), Some(None));
        assert_eq!(one_of("status", Some(" OPEN"), &codes).ok(), Some(Some("OPEN".to_owned())));
        let refused = one_of("status", Some("open"), &codes).err().map(|e| format!("{e:?}"));
        assert!(refused.is_some_and(|text| text.contains("Use OPEN, CLOSED ou CANCELED.")));
    }

    #[test]
    fn pages_are_bounded_and_never_overflow() {
        let request = |page, size| PageRequest { page: Some(page), page_size: Some(size) }.limit_offset();
        assert_eq!(request(3, 5).ok(), Some((5, 10)));
        assert!(request(0, 5).is_err());
        assert!(request(1, MAX_PAGE_SIZE + 1).is_err());
        assert!(request(i64::MAX, 100).is_err(), "the offset would overflow");
        assert!(request(i64::MAX / 100, 100).is_ok());
    }
}
