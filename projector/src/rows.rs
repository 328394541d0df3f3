//! Rows written to a described table ([`navalha_read_models::table`]): a model writes each
//! row once, as a function over [`Fields`], and the same function fills a rebuild's `COPY`
//! (`copy.rs`) and a live batch's upsert (`batch.rs`). Each field is checked against its
//! column's type as it is written.

use chrono::{DateTime, NaiveDate, NaiveTime, Timelike as _, Utc};
use navalha_read_models::table::{Column, Table, Type};

/// Where a row's fields go, in the table's column order.
pub trait Fields {
    /// Writes the next field.
    fn field(&mut self, value: impl Value) -> &mut Self;
}

/// The position in a row as fields are written, and the first field that did not fit.
pub(crate) struct Cursor {
    pub table: &'static Table,
    pub at: usize,
    pub misfit: Option<String>,
}

impl Cursor {
    pub fn new(table: &'static Table) -> Self {
        Cursor { table, at: 0, misfit: None }
    }

    /// The column the next field goes to, if `value` fits it (by `COPY` when `copy`).
    pub fn next(&mut self, value: &impl Value, copy: bool) -> Option<&'static Column> {
        let table = self.table;
        let column = table.columns.get(self.at);
        self.at += 1;
        match column {
            Some(column) if value.fits(column.ty, copy) => Some(column),
            _ => {
                self.misfit.get_or_insert_with(|| {
                    let column = column.map_or("past the last column", |column| column.name);
                    format!("{}: field {} ({column}) does not fit its column", table.name, self.at)
                });
                None
            }
        }
    }

    /// Ends a row: every column written, each with a value that fits.
    pub fn end_row(&mut self) -> anyhow::Result<()> {
        let written = std::mem::take(&mut self.at);
        if let Some(misfit) = self.misfit.take() {
            anyhow::bail!(misfit);
        }
        anyhow::ensure!(
            written == self.table.columns.len(),
            "{}: a row of {written} fields for {} columns",
            self.table.name,
            self.table.columns.len()
        );
        Ok(())
    }
}

/// A column's values in a batch: one array parameter of the upsert.
pub enum Buffer {
    BigInt(Vec<i64>),
    Integer(Vec<i32>),
    SmallInt(Vec<i16>),
    Boolean(Vec<bool>),
    Date(Vec<NaiveDate>),
    Time(Vec<NaiveTime>),
    Timestamptz(Vec<DateTime<Utc>>),
    Text(Vec<String>),
}

impl Buffer {
    /// The buffer of a column of type `ty` ([`Type::batch_sql`]).
    pub fn of(ty: Type) -> Buffer {
        match ty {
            Type::BigInt => Buffer::BigInt(Vec::new()),
            Type::Integer => Buffer::Integer(Vec::new()),
            Type::SmallInt => Buffer::SmallInt(Vec::new()),
            Type::Boolean => Buffer::Boolean(Vec::new()),
            Type::Date => Buffer::Date(Vec::new()),
            Type::Time => Buffer::Time(Vec::new()),
            Type::Timestamptz => Buffer::Timestamptz(Vec::new()),
            Type::Text
            | Type::Json
            | Type::Int4Range
            | Type::Int4Array
            | Type::Int8Array
            | Type::Int4Multirange => Buffer::Text(Vec::new()),
        }
    }
}

/// A field's value: `COPY`'s binary format of it (PostgreSQL's `send` function of its type),
/// and its place in a batch.
pub trait Value {
    /// Whether it can be written to a column of type `ty`, by `COPY` when `copy`.
    fn fits(&self, ty: Type, copy: bool) -> bool;
    /// Its bytes in `COPY`'s binary format.
    fn write_to(&self, out: &mut Vec<u8>);
    /// Adds it to its column's buffer (of a type it [fits](Self::fits)).
    fn push_to(self, buffer: &mut Buffer);
}

/// Implements [`Value`] for a type held as is in one buffer variant.
macro_rules! plain_value {
    ($($rust:ty => $variant:ident, $ty:ident;)*) => {$(
        impl Value for $rust {
            fn fits(&self, ty: Type, _copy: bool) -> bool {
                ty == Type::$ty
            }
            fn write_to(&self, out: &mut Vec<u8>) {
                self.binary(out);
            }
            fn push_to(self, buffer: &mut Buffer) {
                if let Buffer::$variant(values) = buffer {
                    values.push(self);
                }
            }
        }
    )*};
}

plain_value! {
    i64 => BigInt, BigInt;
    i32 => Integer, Integer;
    i16 => SmallInt, SmallInt;
    bool => Boolean, Boolean;
    NaiveDate => Date, Date;
    NaiveTime => Time, Time;
    DateTime<Utc> => Timestamptz, Timestamptz;
}

/// The binary format of the plain types.
trait Binary {
    fn binary(&self, out: &mut Vec<u8>);
}

/// `bigint`.
impl Binary for i64 {
    fn binary(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_be_bytes());
    }
}

/// `integer`.
impl Binary for i32 {
    fn binary(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_be_bytes());
    }
}

/// `smallint`.
impl Binary for i16 {
    fn binary(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_be_bytes());
    }
}

/// `boolean`.
impl Binary for bool {
    fn binary(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
}

/// `date`: days since 2000-01-01.
impl Binary for NaiveDate {
    fn binary(&self, out: &mut Vec<u8>) {
        let days = self.signed_duration_since(postgres_epoch()).num_days();
        (i32::try_from(days).unwrap_or(i32::MAX)).binary(out);
    }
}

/// `time` (without time zone): microseconds since midnight.
impl Binary for NaiveTime {
    fn binary(&self, out: &mut Vec<u8>) {
        let micros =
            i64::from(self.num_seconds_from_midnight()) * 1_000_000 + i64::from(self.nanosecond() / 1_000);
        micros.binary(out);
    }
}

/// `timestamptz`: microseconds since 2000-01-01 00:00 UTC.
impl Binary for DateTime<Utc> {
    fn binary(&self, out: &mut Vec<u8>) {
        let epoch = postgres_epoch().and_time(NaiveTime::MIN).and_utc();
        let micros = self.signed_duration_since(epoch).num_microseconds().unwrap_or(i64::MAX);
        micros.binary(out);
    }
}

fn postgres_epoch() -> NaiveDate {
    NaiveDate::from_ymd_opt(2000, 1, 1).unwrap_or_default()
}

/// `text`, or `json` (whose binary format is its text): UTF-8, nothing escaped.
impl Value for &str {
    fn fits(&self, ty: Type, _copy: bool) -> bool {
        matches!(ty, Type::Text | Type::Json)
    }
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
    fn push_to(self, buffer: &mut Buffer) {
        if let Buffer::Text(values) = buffer {
            values.push(self.to_owned());
        }
    }
}

impl Value for &String {
    fn fits(&self, ty: Type, copy: bool) -> bool {
        self.as_str().fits(ty, copy)
    }
    fn write_to(&self, out: &mut Vec<u8>) {
        self.as_str().write_to(out);
    }
    fn push_to(self, buffer: &mut Buffer) {
        self.as_str().push_to(buffer);
    }
}

/// A value as PostgreSQL's text of its column's type (a multirange's `{[540,720)}`), for a
/// batch only: the batch casts it back.
pub struct SqlText(pub String);

impl Value for SqlText {
    fn fits(&self, ty: Type, copy: bool) -> bool {
        !copy && ty.batch_sql() == "text"
    }
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.as_bytes());
    }
    fn push_to(self, buffer: &mut Buffer) {
        if let Buffer::Text(values) = buffer {
            values.push(self.0);
        }
    }
}

/// An `int4range` `[start, end)`.
pub struct Int4Range(pub i32, pub i32);

impl Value for Int4Range {
    fn fits(&self, ty: Type, _copy: bool) -> bool {
        ty == Type::Int4Range
    }
    fn write_to(&self, out: &mut Vec<u8>) {
        /// PostgreSQL's `RANGE_LB_INC`: the lower bound is included, the upper not.
        const LOWER_INCLUDED: u8 = 0x02;
        out.push(LOWER_INCLUDED);
        for bound in [self.0, self.1] {
            4_i32.binary(out);
            bound.binary(out);
        }
    }
    fn push_to(self, buffer: &mut Buffer) {
        if let Buffer::Text(values) = buffer {
            values.push(format!("[{},{})", self.0, self.1));
        }
    }
}

/// Implements [`Value`] for a one-dimensional array of integers (an empty one has no
/// dimension): PostgreSQL's `array_send`, with the elements' type oid and size.
macro_rules! integer_array {
    ($($rust:ty => $ty:ident, $oid:expr;)*) => {$(
        impl Value for &[$rust] {
            fn fits(&self, ty: Type, _copy: bool) -> bool {
                ty == Type::$ty
            }
            fn write_to(&self, out: &mut Vec<u8>) {
                let dimensions = i32::from(!self.is_empty());
                for header in [dimensions, 0, $oid] {
                    header.binary(out);
                }
                if self.is_empty() {
                    return;
                }
                // The length, and the lower bound of the index.
                i32::try_from(self.len()).unwrap_or(i32::MAX).binary(out);
                1_i32.binary(out);
                for element in self.iter() {
                    (std::mem::size_of::<$rust>() as i32).binary(out);
                    element.binary(out);
                }
            }
            fn push_to(self, buffer: &mut Buffer) {
                if let Buffer::Text(values) = buffer {
                    let numbers: Vec<String> = self.iter().map(<$rust>::to_string).collect();
                    values.push(format!("{{{}}}", numbers.join(",")));
                }
            }
        }
    )*};
}

// The oids are PostgreSQL's `INT4OID` and `INT8OID`.
integer_array! {
    i32 => Int4Array, 23;
    i64 => Int8Array, 20;
}

#[cfg(test)]
mod tests {
    use navalha_read_models::table::{Column, Table};

    use super::*;

    const T: Table = Table::new(
        "t",
        &[
            Column::new("id", Type::BigInt),
            Column::new("during", Type::Int4Range),
            Column::new("bounds", Type::Int4Array),
            Column::new("periods", Type::Int4Multirange),
        ],
        &["id"],
    );

    #[test]
    fn a_batch_carries_ranges_and_arrays_as_their_text() {
        let mut text = Buffer::of(Type::Int4Range);
        Int4Range(540, 600).push_to(&mut text);
        (&[540, 600, 630, 700][..]).push_to(&mut text);
        (&[][..] as &[i32]).push_to(&mut text);
        (&[7_i64, 8][..]).push_to(&mut text);
        let Buffer::Text(values) = text else { panic!("ranges travel as text") };
        assert_eq!(values, ["[540,600)", "{540,600,630,700}", "{}", "{7,8}"]);
    }

    #[test]
    fn a_field_that_does_not_fit_its_column_fails_the_row() {
        let mut cursor = Cursor::new(&T);
        assert!(cursor.next(&1_i64, true).is_some());
        assert!(cursor.next(&Int4Range(1, 2), true).is_some());
        assert!(cursor.next(&&[1_i32][..], true).is_some());
        assert!(cursor.next(&SqlText("{[1,2)}".to_owned()), true).is_none(), "a copy sends binary");
        assert!(cursor.end_row().is_err());
        for value in [1_i64, 2] {
            cursor.next(&value, false);
        }
        let error = cursor.end_row().err().map(|e| e.to_string());
        assert_eq!(error.as_deref(), Some("t: field 2 (during) does not fit its column"));
        cursor.next(&1_i64, false);
        let error = cursor.end_row().err().map(|e| e.to_string());
        assert_eq!(error.as_deref(), Some("t: a row of 1 fields for 4 columns"));
        assert!(SqlText(String::new()).fits(Type::Int4Multirange, false));
    }
}
