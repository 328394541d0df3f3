//! `client`: the clients list and form, searchable by name, phone, e-mail or CPF ignoring
//! accents and case.

use async_trait::async_trait;
use navalha_domain::client::{Client, ClientDetails, ClientEvent};
use navalha_domain::Aggregate as _;
use sqlx::PgConnection;

use crate::engine::Projection;
use crate::event::StoredEvent;

/// Builds `rm_client.client`.
pub struct ClientList;

#[async_trait]
impl Projection for ClientList {
    fn name(&self) -> &'static str {
        "client"
    }

    fn schema_sql(&self) -> &'static str {
        "create table client (
             business_id bigint not null default public.navalha_event_business(),
             client_id  bigint primary key,
             name       text    not null,
             cpf        text    not null,
             email      text    not null,
             phone      text    not null,
             whatsapp   boolean not null,
             birth_date date,
             status     boolean not null,
             login_type text    not null default 'PASSWORD',
             -- lower(unaccent(name email phone cpf)), for contains-search with a trigram index
             search     text    not null
         );
         create index client_search on client using gin (search public.gin_trgm_ops);
         create index client_order on client (status, search, client_id);"
    }

    fn aggregate_types(&self) -> &'static [&'static str] {
        &[Client::TYPE]
    }

    async fn apply(&self, conn: &mut PgConnection, event: &StoredEvent) -> anyhow::Result<()> {
        let client_id = event.numeric_id()?;
        match event.decode::<ClientEvent>()? {
            ClientEvent::ClientRegistered { cpf, details } => {
                sqlx::query(
                    "insert into client (client_id, name, cpf, email, phone, whatsapp, birth_date, status, search)
                     values ($1, $2, $3, $4, $5, $6, $7, $8, '')",
                )
                .bind(client_id)
                .bind(&details.name)
                .bind(&cpf)
                .bind(&details.email)
                .bind(&details.phone)
                .bind(details.whatsapp)
                .bind(details.birth_date)
                .bind(details.status)
                .execute(&mut *conn)
                .await?;
            }
            ClientEvent::ClientUpdated(ClientDetails {
                name,
                email,
                phone,
                whatsapp,
                birth_date,
                status,
            }) => {
                sqlx::query(
                    "update client set name = $2, email = $3, phone = $4, whatsapp = $5, birth_date = $6, status = $7
                      where client_id = $1",
                )
                .bind(client_id)
                .bind(name)
                .bind(email)
                .bind(phone)
                .bind(whatsapp)
                .bind(birth_date)
                .bind(status)
                .execute(&mut *conn)
                .await?;
            }
            ClientEvent::SocialLoginLinked { provider } => {
                sqlx::query("update client set login_type = $2 where client_id = $1")
                    .bind(client_id)
                    .bind(provider)
                    .execute(&mut *conn)
                    .await?;
            }
            ClientEvent::SocialLoginsRemoved => {
                sqlx::query("update client set login_type = $2 where client_id = $1")
                    .bind(client_id)
                    .bind(navalha_domain::client::LOGIN_PASSWORD)
                    .execute(&mut *conn)
                    .await?;
            }
        }
        sqlx::query(
            "update client set search = lower(public.unaccent(name || ' ' || email || ' ' || phone || ' ' || cpf))
              where client_id = $1",
        )
        .bind(client_id)
        .execute(conn)
        .await?;
        Ok(())
    }
}
