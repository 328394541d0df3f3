//! The `client` read model (schema `rm_client`), built by `projector/src/models/client.rs`.

use navalha_domain::client::Client;
use navalha_domain::Aggregate as _;

use crate::ReadModel;

/// The `client` read model.
pub const CLIENT: ReadModel = ReadModel {
    name: "client",
    aggregate_types: &[Client::TYPE],
    stored_states: &[],
    tables: &[],
    ddl: "create table client (
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
             -- Made by the client on a unit's public page, not confirmed by staff yet.
             unconfirmed boolean not null default false,
             -- lower(unaccent(name email phone cpf)), for contains-search with a trigram index
             search     text    not null
         );
         create index client_search on client using gin (search public.gin_trgm_ops);
         -- The order of the list, on a bounded prefix: a btree entry holds at most about 2,700
         -- bytes, and a client recorded before the text bounds (issue 39) may have a name of
         -- any length. query-api/src/clients.rs orders by this same expression.
         create index client_order on client (status, left(search, 200), client_id);",
};
