//! `client`: the clients list and form, searchable by name, phone, e-mail or CPF ignoring
//! accents and case.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use chrono::NaiveDate;
use navalha_domain::client::{ClientDetails, ClientEvent, LOGIN_PASSWORD};
use sqlx::PgConnection;

use navalha_read_models::{self as read_models, ReadModel};

use crate::engine::{Fold, Projection, Tables};
use crate::event::StoredEvent;

/// Builds `rm_client.client`.
pub struct ClientList;

#[async_trait]
impl Projection for ClientList {
    fn model(&self) -> &'static ReadModel {
        &read_models::CLIENT
    }

    fn fold(&self) -> Option<Box<dyn Fold>> {
        Some(Box::<ClientFold>::default())
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        self.apply_all(conn, std::slice::from_ref(event)).await
    }
}

/// Client events in order, decoded.
#[derive(Default)]
struct ClientFold {
    events: Vec<(i64, ClientEvent)>,
}

#[async_trait]
impl Fold for ClientFold {
    fn add(&mut self, event: &StoredEvent) -> anyhow::Result<()> {
        self.events.push((event.numeric_id()?, event.decode()?));
        Ok(())
    }

    /// Folds the events per client in memory, over the rows already stored, and writes each
    /// touched client once: one read and one multi-row upsert. Upserted even into empty
    /// tables: the search text is PostgreSQL's `unaccent`, which Rust would only imitate.
    async fn write(self: Box<Self>, conn: &mut PgConnection, _: Tables) -> anyhow::Result<()> {
        let ids: Vec<i64> = self.events.iter().map(|(id, _)| *id).collect();
        let mut rows: HashMap<i64, Row> = sqlx::query_as::<_, Row>(
            "select client_id, name, cpf, email, phone, whatsapp, birth_date, status, login_type, unconfirmed
               from client where client_id = any($1) and business_id = navalha_event_business()",
        )
        .bind(&ids)
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|row| (row.client_id, row))
        .collect();
        let mut touched: HashSet<i64> = HashSet::new();
        for (client_id, event) in self.events {
            if let ClientEvent::ClientRegistered { cpf, details, online } = &event {
                rows.insert(client_id, Row::registered(client_id, cpf, details, *online));
            }
            // The domain registers a client first; anything else changes nothing, as an
            // update of a missing row would.
            let Some(row) = rows.get_mut(&client_id) else { continue };
            match event {
                ClientEvent::ClientRegistered { .. } => {}
                ClientEvent::ClientUpdated(details) => row.set(&details),
                ClientEvent::CpfAdded { cpf } => row.cpf = cpf,
                ClientEvent::SocialLoginLinked { provider } => row.login_type = provider,
                ClientEvent::SocialLoginsRemoved => row.login_type = LOGIN_PASSWORD.to_owned(),
                ClientEvent::ClientConfirmed => row.unconfirmed = false,
            }
            touched.insert(client_id);
        }
        let written: Vec<&Row> = touched.iter().filter_map(|id| rows.get(id)).collect();
        let column = |get: fn(&Row) -> String| written.iter().map(|row| get(row)).collect::<Vec<_>>();
        sqlx::query(
            "insert into client (client_id, name, cpf, email, phone, whatsapp, birth_date, status, login_type,
                                 unconfirmed, search)
             select u.*, lower(public.unaccent(u.name || ' ' || u.email || ' ' || u.phone || ' ' || u.cpf))
               from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[],
                           $7::date[], $8::boolean[], $9::text[], $10::boolean[])
                    as u (client_id, name, cpf, email, phone, whatsapp, birth_date, status, login_type, unconfirmed)
             on conflict (client_id) do update
                set name = excluded.name, cpf = excluded.cpf, email = excluded.email, phone = excluded.phone,
                    whatsapp = excluded.whatsapp, birth_date = excluded.birth_date, status = excluded.status,
                    login_type = excluded.login_type, unconfirmed = excluded.unconfirmed, search = excluded.search",
        )
        .bind(written.iter().map(|row| row.client_id).collect::<Vec<_>>())
        .bind(column(|row| row.name.clone()))
        .bind(column(|row| row.cpf.clone()))
        .bind(column(|row| row.email.clone()))
        .bind(column(|row| row.phone.clone()))
        .bind(written.iter().map(|row| row.whatsapp).collect::<Vec<_>>())
        .bind(written.iter().map(|row| row.birth_date).collect::<Vec<_>>())
        .bind(written.iter().map(|row| row.status).collect::<Vec<_>>())
        .bind(column(|row| row.login_type.clone()))
        .bind(written.iter().map(|row| row.unconfirmed).collect::<Vec<_>>())
        .execute(conn)
        .await?;
        Ok(())
    }
}

/// A client's row, as folded in memory.
#[derive(sqlx::FromRow)]
struct Row {
    client_id: i64,
    name: String,
    cpf: String,
    email: String,
    phone: String,
    whatsapp: bool,
    birth_date: Option<NaiveDate>,
    status: bool,
    login_type: String,
    unconfirmed: bool,
}

impl Row {
    fn registered(client_id: i64, cpf: &str, details: &ClientDetails, online: bool) -> Self {
        let mut row = Row {
            client_id,
            name: String::new(),
            cpf: cpf.to_owned(),
            email: String::new(),
            phone: String::new(),
            whatsapp: false,
            birth_date: None,
            status: false,
            login_type: LOGIN_PASSWORD.to_owned(),
            unconfirmed: online,
        };
        row.set(details);
        row
    }

    fn set(&mut self, details: &ClientDetails) {
        self.name.clone_from(&details.name);
        self.email.clone_from(&details.email);
        self.phone.clone_from(&details.phone);
        self.whatsapp = details.whatsapp;
        self.birth_date = details.birth_date;
        self.status = details.status;
    }
}
