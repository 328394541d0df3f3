-- Uniqueness across streams (one client per CPF, ...), enforced by PostgreSQL in the same
-- transaction as the events: a command that must own a value puts it in its events'
-- metadata as `unique_claims` (a JSON text of [{scope, value}]), and this trigger claims it.
-- Two racing commands cannot both commit: the second gets a unique violation.
create table unique_claim
(
    scope          text        not null,
    value          text        not null,
    aggregate_type text        not null,
    aggregate_id   text        not null,
    claimed_at     timestamptz not null default now(),
    primary key (scope, value)
);

create function events_claim_unique_values() returns trigger
    language plpgsql as
$$
begin
    if new.metadata ? 'unique_claims' then
        insert into unique_claim (scope, value, aggregate_type, aggregate_id)
        select claim ->> 'scope', claim ->> 'value', new.aggregate_type, new.aggregate_id
          from jsonb_array_elements((new.metadata ->> 'unique_claims')::jsonb) claim;
    end if;
    return new;
end
$$;

create trigger events_unique_claims
    after insert on events
    for each row execute function events_claim_unique_values();

create sequence client_id_seq;

-- Accent- and case-insensitive search in read models.
create extension if not exists pg_trgm;
create extension if not exists unaccent;
