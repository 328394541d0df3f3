-- Businesses (issue 12; docs/adr/0010-businesses.md). Navalha serves many barbershop
-- businesses; each owns its units, staff, clients, services, plans and everything made from
-- them. Every event names its business in its metadata (`business_id`, set from the signed-in
-- user or, for the system's own work, from what it works on), and this table remembers each
-- aggregate's business from its first event. The trigger below refuses an event whose
-- business is not its aggregate's, so no code path can write across businesses.
create table aggregate_business
(
    aggregate_type text   not null,
    aggregate_id   text   not null,
    business_id    bigint not null,
    primary key (aggregate_type, aggregate_id)
);

create sequence business_id_seq;

-- Events written before businesses existed belong to the first business.
insert into aggregate_business (aggregate_type, aggregate_id, business_id)
select distinct aggregate_type, aggregate_id, coalesce((metadata ->> 'business_id')::bigint, 1)
  from events;
select setval('business_id_seq', 1) where exists (select 1 from events);

-- The event's business, checked against its aggregate's. SECURITY DEFINER: the services may
-- not rewrite `aggregate_business` themselves, only through events.
create function events_keep_business() returns trigger
    language plpgsql security definer set search_path = public as
$$
declare
    business bigint := (new.metadata ->> 'business_id')::bigint;
    owner    bigint;
begin
    if business is null then
        raise exception 'event % of % % names no business', new.event_type, new.aggregate_type, new.aggregate_id
            using errcode = 'NV400';
    end if;
    insert into aggregate_business (aggregate_type, aggregate_id, business_id)
    values (new.aggregate_type, new.aggregate_id, business)
    on conflict do nothing;
    select business_id into owner from aggregate_business
     where aggregate_type = new.aggregate_type and aggregate_id = new.aggregate_id;
    if owner <> business then
        raise exception '% % belongs to another business', new.aggregate_type, new.aggregate_id
            using errcode = 'NV404';
    end if;
    return new;
end
$$;

create trigger events_business
    before insert on events
    for each row execute function events_keep_business();

revoke all on aggregate_business from navalha_command;
grant select on aggregate_business to navalha_command, navalha_query;

-- The business a query-api transaction reads (`set_config('navalha.business', ..., true)`),
-- which the read models' row-level security compares with each row's. Unset is no business:
-- a read that forgot its scope sees nothing.
create function navalha_business() returns bigint
    language sql stable as
$$
    select nullif(current_setting('navalha.business', true), '')::bigint
$$;

-- The business of the event the projector is applying: the default of every read model's
-- `business_id` column. Unset is an error, not a guess.
create function navalha_event_business() returns bigint
    language plpgsql stable as
$$
declare
    business text := current_setting('navalha.event_business', true);
begin
    if coalesce(business, '') = '' then
        raise exception 'navalha.event_business is not set: rows must be written by the projector';
    end if;
    return business::bigint;
end
$$;

-- A staff member's business, read with role and units on every request.
alter table staff_access add column business_id bigint not null default 1;
alter table staff_access alter column business_id drop default;

create or replace function events_keep_staff_access() returns trigger
    language plpgsql as
$$
declare
    employment jsonb := staff_access_of(new.payload);
begin
    if new.aggregate_type = 'Professional' and employment is not null then
        insert into staff_access (professional_id, role, status, companies, business_id)
        values (new.aggregate_id::bigint, employment ->> 'role', (employment ->> 'status')::smallint,
                array(select (m ->> 'company_id')::bigint
                        from jsonb_array_elements(employment -> 'memberships') with ordinality as t(m, n)
                       order by n),
                (new.metadata ->> 'business_id')::bigint)
        on conflict (professional_id) do update
            set role = excluded.role, status = excluded.status, companies = excluded.companies;
    end if;
    return new;
end
$$;

-- A client's CPF is unique within its business, not across businesses: the same person may
-- be a client of two shops, and a 409 must not tell one business about another's clients.
update unique_claim set value = '1:' || value where scope = 'client_cpf';
