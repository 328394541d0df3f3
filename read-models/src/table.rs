//! A read model's table described once: its columns give the table's DDL here, and the
//! projector's batch upsert and binary `COPY` row (`projector/src/rows.rs`), so a column is
//! added in one place.

/// A column's type, as the DDL names it and as a batch carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    BigInt,
    Integer,
    SmallInt,
    Boolean,
    Date,
    Time,
    /// An instant (`timestamptz`): when an event was recorded.
    Timestamptz,
    Text,
    /// `json`, not `jsonb`: read whole, and a rebuild copies its text as given.
    Json,
    Int4Range,
    Int4Array,
    Int8Array,
    Int4Multirange,
}

impl Type {
    /// The type in the DDL.
    pub const fn sql(self) -> &'static str {
        match self {
            Type::BigInt => "bigint",
            Type::Integer => "integer",
            Type::SmallInt => "smallint",
            Type::Boolean => "boolean",
            Type::Date => "date",
            Type::Time => "time",
            Type::Timestamptz => "timestamptz",
            Type::Text => "text",
            Type::Json => "json",
            Type::Int4Range => "int4range",
            Type::Int4Array => "int4[]",
            Type::Int8Array => "int8[]",
            Type::Int4Multirange => "int4multirange",
        }
    }

    /// The type a batch upsert passes the column's values in (an array of these): json,
    /// ranges and arrays travel as their text and are cast back, since an array of arrays
    /// cannot be unnested into rows.
    pub const fn batch_sql(self) -> &'static str {
        match self {
            Type::Json | Type::Int4Range | Type::Int4Array | Type::Int8Array | Type::Int4Multirange => "text",
            other => other.sql(),
        }
    }
}

/// What an upsert does to a column of a row already there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnConflict {
    /// Takes the new value.
    Set,
    /// Adds the new value to the old one (a figure's delta).
    Add,
    /// Keeps the old value.
    Keep,
    /// Takes this SQL over the old row (the table's name) and `excluded`.
    Expression(&'static str),
}

/// A column: its name, type and default, and what an upsert does with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub ty: Type,
    /// SQL of its default, if it has one.
    pub default: Option<&'static str>,
    pub on_conflict: OnConflict,
    /// In an upsert, the value comes from this SQL over the batch's row `b` and the table's
    /// [`Table::upsert_join`], not from the row written (a copy of another table's value).
    pub upsert_from: Option<&'static str>,
    /// A note written above the column in the DDL.
    pub note: &'static str,
}

impl Column {
    /// A `not null` column that an upsert sets.
    pub const fn new(name: &'static str, ty: Type) -> Column {
        Column { name, ty, default: None, on_conflict: OnConflict::Set, upsert_from: None, note: "" }
    }

    pub const fn default(self, sql: &'static str) -> Column {
        Column { default: Some(sql), ..self }
    }

    /// An upsert adds to it.
    pub const fn adds(self) -> Column {
        Column { on_conflict: OnConflict::Add, ..self }
    }

    /// An upsert keeps the old value.
    pub const fn keeps(self) -> Column {
        Column { on_conflict: OnConflict::Keep, ..self }
    }

    /// An upsert sets it to `sql`.
    pub const fn on_conflict(self, sql: &'static str) -> Column {
        Column { on_conflict: OnConflict::Expression(sql), ..self }
    }

    /// An upsert takes it from `sql` (see [`Column::upsert_from`]).
    pub const fn upsert_from(self, sql: &'static str) -> Column {
        Column { upsert_from: Some(sql), ..self }
    }

    pub const fn note(self, note: &'static str) -> Column {
        Column { note, ..self }
    }
}

/// A table of a read model. Every table also has `business_id` first, given by a `COPY`
/// and defaulted from the batch's event otherwise.
#[derive(Debug, PartialEq, Eq)]
pub struct Table {
    pub name: &'static str,
    pub columns: &'static [Column],
    /// The primary key, an upsert's conflict target; it may name `business_id`.
    pub key: &'static [&'static str],
    /// The joins an upsert's [`Column::upsert_from`] columns read, after
    /// `unnest(...) as b (...)`.
    pub upsert_join: &'static str,
    /// A note written above the table in the DDL.
    pub note: &'static str,
    /// DDL run after the table: its indexes.
    pub then: &'static str,
}

impl Table {
    /// A table with no upsert join, note or index.
    pub const fn new(name: &'static str, columns: &'static [Column], key: &'static [&'static str]) -> Table {
        Table { name, columns, key, upsert_join: "", note: "", then: "" }
    }

    /// The table's DDL, with its indexes.
    pub fn ddl(&self) -> String {
        let mut lines =
            vec!["business_id bigint not null default public.navalha_event_business()".to_owned()];
        for column in self.columns {
            let mut line = String::new();
            if !column.note.is_empty() {
                line.push_str(&format!("-- {}\n    ", column.note));
            }
            line.push_str(&format!("{} {} not null", column.name, column.ty.sql()));
            if let Some(default) = column.default {
                line.push_str(&format!(" default {default}"));
            }
            lines.push(line);
        }
        lines.push(format!("primary key ({})", self.key.join(", ")));
        let note = if self.note.is_empty() { String::new() } else { format!("-- {}\n", self.note) };
        let then = if self.then.is_empty() { String::new() } else { format!("\n{}", self.then) };
        format!("{note}create table {} (\n    {}\n);{then}\n", self.name, lines.join(",\n    "))
    }

    /// Every column's name, in order: what a `COPY` writes after `business_id`.
    pub fn column_list(&self) -> String {
        self.columns.iter().map(|column| column.name).collect::<Vec<_>>().join(", ")
    }

    /// The columns a batch upsert is given values of, in order.
    pub fn batch_columns(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|column| column.upsert_from.is_none())
    }

    /// The batch upsert: one array parameter per [`batch column`](Self::batch_columns),
    /// unnested into rows.
    pub fn upsert_sql(&self) -> String {
        let batch: Vec<&Column> = self.batch_columns().collect();
        let parameters: Vec<String> = batch
            .iter()
            .enumerate()
            .map(|(i, column)| format!("${}::{}[]", i + 1, column.ty.batch_sql()))
            .collect();
        let batch_names: Vec<&str> = batch.iter().map(|column| column.name).collect();
        let values: Vec<String> = self
            .columns
            .iter()
            .map(|column| match column.upsert_from {
                Some(sql) => sql.to_owned(),
                None if column.ty.batch_sql() != column.ty.sql() => {
                    format!("b.{}::{}", column.name, column.ty.sql())
                }
                None => format!("b.{}", column.name),
            })
            .collect();
        let updates: Vec<String> = self
            .columns
            .iter()
            .filter(|column| !self.key.contains(&column.name))
            .filter_map(|column| {
                let name = column.name;
                match column.on_conflict {
                    OnConflict::Set => Some(format!("{name} = excluded.{name}")),
                    OnConflict::Add => Some(format!("{name} = {}.{name} + excluded.{name}", self.name)),
                    OnConflict::Keep => None,
                    OnConflict::Expression(sql) => Some(format!("{name} = {sql}")),
                }
            })
            .collect();
        let action = if updates.is_empty() {
            "nothing".to_owned()
        } else {
            format!("update set {}", updates.join(", "))
        };
        let join = if self.upsert_join.is_empty() { String::new() } else { format!(" {}", self.upsert_join) };
        format!(
            "insert into {table} ({columns}) select {values} from unnest({parameters}) as b ({batch_names}){join} \
             on conflict ({key}) do {action}",
            table = self.name,
            columns = self.column_list(),
            values = values.join(", "),
            parameters = parameters.join(", "),
            batch_names = batch_names.join(", "),
            key = self.key.join(", "),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIGURE: Table = Table {
        note: "Per day.",
        then: "create index figure_day on figure (date);",
        ..Table::new(
            "figure",
            &[
                Column::new("date", Type::Date),
                Column::new("label", Type::Text).note("shown as is"),
                Column::new("booked", Type::BigInt).adds(),
                Column::new("free", Type::Int4Array).default("'{}'"),
                Column::new("first", Type::Boolean).keeps(),
            ],
            &["business_id", "date"],
        )
    };

    #[test]
    fn the_ddl_upsert_and_copy_follow_the_columns() {
        assert_eq!(
            FIGURE.ddl(),
            "-- Per day.\ncreate table figure (\n    business_id bigint not null default public.navalha_event_business(),\n    \
             date date not null,\n    -- shown as is\n    label text not null,\n    booked bigint not null,\n    \
             free int4[] not null default '{}',\n    first boolean not null,\n    primary key (business_id, date)\n);\n\
             create index figure_day on figure (date);\n"
        );
        assert_eq!(FIGURE.column_list(), "date, label, booked, free, first");
        assert_eq!(
            FIGURE.upsert_sql(),
            "insert into figure (date, label, booked, free, first) select b.date, b.label, b.booked, b.free::int4[], \
             b.first from unnest($1::date[], $2::text[], $3::bigint[], $4::text[], $5::boolean[]) as b (date, label, \
             booked, free, first) on conflict (business_id, date) do update set label = excluded.label, \
             booked = figure.booked + excluded.booked, free = excluded.free"
        );
    }

    #[test]
    fn an_upsert_reads_copied_columns_from_its_join_and_does_nothing_without_updates() {
        const PLACE: Table = Table::new("place", &[Column::new("id", Type::BigInt)], &["id"]);
        assert_eq!(
            PLACE.upsert_sql(),
            "insert into place (id) select b.id from unnest($1::bigint[]) as b (id) on conflict (id) do nothing"
        );
        const COPIED: Table = Table {
            upsert_join: "left join client c on c.client_id = b.id",
            ..Table::new(
                "copied",
                &[
                    Column::new("id", Type::BigInt),
                    Column::new("name", Type::Text).upsert_from("coalesce(c.name, '')"),
                ],
                &["id"],
            )
        };
        assert_eq!(COPIED.batch_columns().count(), 1);
        assert_eq!(
            COPIED.upsert_sql(),
            "insert into copied (id, name) select b.id, coalesce(c.name, '') from unnest($1::bigint[]) as b (id) \
             left join client c on c.client_id = b.id on conflict (id) do update set name = excluded.name"
        );
    }
}
