//! Rows written with `COPY ... FROM STDIN`, in its binary format. A rebuild fills its empty
//! tables this way: on this machine `COPY` wrote 100,000 rows in 125 ms where a multi-row
//! upsert took 283 ms (docs/bench.md), and the binary format took the agenda's 121,080
//! appointments in 240 ms where the text format took 290: PostgreSQL parses no numbers,
//! dates or times, and the projector formats none.
//!
//! Each value is checked against its column's type as it is written (`crate::rows`), and
//! PostgreSQL checks it again.

use navalha_read_models::table::Table;
use sqlx::postgres::PgCopyIn;
use sqlx::PgConnection;

use crate::rows::{Cursor, Fields, Value};

/// Bytes encoded before they are sent: PostgreSQL reads one piece while the next is
/// encoded, and memory holds one piece, not the table.
const CHUNK: usize = 1 << 20;

/// The binary format's signature, flags and header extension length.
const HEADER: &[u8] = b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0";

/// Rows of one business for one table, sent as they are encoded.
pub struct CopyIn<'c> {
    copy: PgCopyIn<&'c mut PgConnection>,
    rows: CopyRows,
    cursor: Cursor,
}

impl<'c> CopyIn<'c> {
    /// Starts copying rows of `business_id` into every column of `table`.
    pub async fn start(
        conn: &'c mut PgConnection,
        business_id: i64,
        table: &'static Table,
    ) -> sqlx::Result<CopyIn<'c>> {
        let copy = conn
            .copy_in_raw(&format!(
                "copy {} (business_id, {}) from stdin with (format binary)",
                table.name,
                table.column_list()
            ))
            .await?;
        Ok(CopyIn { copy, rows: CopyRows::new(business_id), cursor: Cursor::new(table) })
    }

    /// Ends the current row, and sends the rows so far once they fill a piece.
    pub async fn end_row(&mut self) -> anyhow::Result<()> {
        self.cursor.end_row()?;
        self.rows.end_row();
        if self.rows.bytes.len() >= CHUNK {
            self.copy.send(self.rows.bytes.as_slice()).await?;
            self.rows.bytes.clear();
        }
        Ok(())
    }

    /// Sends the last rows and the trailer, and ends the copy; answers how many rows were
    /// written.
    pub async fn finish(mut self) -> sqlx::Result<u64> {
        self.rows.end();
        self.copy.send(self.rows.bytes.as_slice()).await?;
        self.copy.finish().await
    }
}

impl Fields for CopyIn<'_> {
    fn field(&mut self, value: impl Value) -> &mut Self {
        if self.cursor.next(&value, true).is_some() {
            self.rows.field(value);
        }
        self
    }
}

/// Rows encoded in `COPY`'s binary format, each starting with its business.
struct CopyRows {
    /// Written first in each row: given, not left to the column's default, whose function
    /// call per row cost about a tenth of a copy's time.
    business_id: i64,
    bytes: Vec<u8>,
    /// Where the current row's field count is, once it has a field.
    row: Option<usize>,
    fields: i16,
}

impl CopyRows {
    fn new(business_id: i64) -> Self {
        CopyRows { business_id, bytes: HEADER.to_vec(), row: None, fields: 0 }
    }

    fn field(&mut self, value: impl Value) {
        if self.row.is_none() {
            self.row = Some(self.bytes.len());
            // The field count, known at the row's end.
            self.bytes.extend_from_slice(&0_i16.to_be_bytes());
            self.fields = 0;
            self.push(self.business_id);
        }
        self.push(value);
    }

    /// A field: its length, then its bytes.
    fn push(&mut self, value: impl Value) {
        let at = self.bytes.len();
        self.bytes.extend_from_slice(&0_i32.to_be_bytes());
        value.write_to(&mut self.bytes);
        let length = i32::try_from(self.bytes.len() - at - 4).unwrap_or(i32::MAX);
        self.bytes[at..at + 4].copy_from_slice(&length.to_be_bytes());
        self.fields += 1;
    }

    fn end_row(&mut self) {
        if let Some(at) = self.row.take() {
            self.bytes[at..at + 2].copy_from_slice(&self.fields.to_be_bytes());
        }
    }

    /// The trailer: a field count of -1.
    fn end(&mut self) {
        self.end_row();
        self.bytes.extend_from_slice(&(-1_i16).to_be_bytes());
    }
}

/// Rows in the order of their primary key: a copy then adds to the end of the key's index
/// instead of all over it (86,711 figure rows: 90 ms in key order, 130 ms in hash order).
pub fn in_key_order<K: Ord, V>(rows: impl IntoIterator<Item = (K, V)>) -> Vec<(K, V)> {
    let mut rows: Vec<(K, V)> = rows.into_iter().collect();
    rows.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_start_with_their_business_and_each_field_with_its_length() {
        use crate::rows::Int4Range;
        use chrono::{NaiveDate, NaiveTime};
        let mut rows = CopyRows::new(3);
        rows.field(7_i16);
        rows.field("ç\t");
        rows.field(true);
        rows.field(NaiveDate::from_ymd_opt(2000, 1, 3).expect("date"));
        rows.field(NaiveTime::from_hms_opt(0, 0, 2).expect("time"));
        rows.end_row();
        rows.field(Int4Range(540, 600));
        rows.field(&[1_i32][..]);
        rows.end();
        let mut expected = HEADER.to_vec();
        expected.extend_from_slice(&[0, 6]);
        expected.extend_from_slice(&[0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 3]);
        expected.extend_from_slice(&[0, 0, 0, 2, 0, 7]);
        expected.extend_from_slice(&[0, 0, 0, 3, 0xc3, 0xa7, b'\t']);
        expected.extend_from_slice(&[0, 0, 0, 1, 1]);
        expected.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 2]);
        expected.extend_from_slice(&[0, 0, 0, 8, 0, 0, 0, 0, 0, 0x1e, 0x84, 0x80]);
        expected.extend_from_slice(&[0, 3]);
        expected.extend_from_slice(&[0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 3]);
        expected.extend_from_slice(&[0, 0, 0, 17, 2, 0, 0, 0, 4, 0, 0, 2, 28, 0, 0, 0, 4, 0, 0, 2, 88]);
        expected
            .extend_from_slice(&[0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 23, 0, 0, 0, 1, 0, 0, 0, 1]);
        expected.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 1]);
        expected.extend_from_slice(&[0xff, 0xff]);
        assert_eq!(rows.bytes, expected);
    }
}
