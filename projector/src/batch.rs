//! A live batch's rows of one described table, written by one upsert: each column's values
//! are an array parameter, unnested into rows (`Table::upsert_sql`).

use navalha_read_models::table::Table;
use sqlx::PgConnection;

use crate::rows::{Buffer, Cursor, Fields, Value};

/// Rows of `table`, gathered to be upserted at once.
pub struct Batch {
    cursor: Cursor,
    /// One per column; `None` for a column the upsert reads from its join.
    buffers: Vec<Option<Buffer>>,
    rows: usize,
}

impl Batch {
    pub fn new(table: &'static Table) -> Self {
        let buffers = table
            .columns
            .iter()
            .map(|column| column.upsert_from.is_none().then(|| Buffer::of(column.ty)))
            .collect();
        Batch { cursor: Cursor::new(table), buffers, rows: 0 }
    }

    /// Ends the current row.
    pub fn end_row(&mut self) -> anyhow::Result<()> {
        self.cursor.end_row()?;
        self.rows += 1;
        Ok(())
    }

    /// Upserts the rows, if any.
    pub async fn upsert(self, conn: &mut PgConnection) -> anyhow::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let sql = self.cursor.table.upsert_sql();
        let mut query = sqlx::query(&sql);
        for buffer in self.buffers.into_iter().flatten() {
            query = match buffer {
                Buffer::BigInt(values) => query.bind(values),
                Buffer::Integer(values) => query.bind(values),
                Buffer::SmallInt(values) => query.bind(values),
                Buffer::Boolean(values) => query.bind(values),
                Buffer::Date(values) => query.bind(values),
                Buffer::Time(values) => query.bind(values),
                Buffer::Timestamptz(values) => query.bind(values),
                Buffer::Text(values) => query.bind(values),
            };
        }
        query.execute(conn).await?;
        Ok(())
    }
}

impl Fields for Batch {
    fn field(&mut self, value: impl Value) -> &mut Self {
        let at = self.cursor.at;
        if self.cursor.table.columns.get(at).is_some_and(|column| column.upsert_from.is_some()) {
            // The upsert reads this column from its join.
            self.cursor.at += 1;
            return self;
        }
        if self.cursor.next(&value, false).is_some() {
            if let Some(Some(buffer)) = self.buffers.get_mut(at) {
                value.push_to(buffer);
            }
        }
        self
    }
}
