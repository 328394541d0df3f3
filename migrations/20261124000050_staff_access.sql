-- What a token's bearer may do now: role, status and units, as the professional's latest
-- ProfessionalRegistered or EmploymentChanged event says. Every request reads its row,
-- so a deactivation, a role change or a new unit takes effect on the next request, not
-- when the token expires. Written by this trigger in the events' own transaction, like
-- `appointment_slot` (design.md), so it is never behind the event log.
create table staff_access
(
    professional_id bigint primary key,
    role            text     not null,
    status          smallint not null,
    companies       bigint[] not null
);

create function staff_access_of(payload jsonb) returns jsonb
    language sql immutable as
$$
    select coalesce(payload -> 'ProfessionalRegistered' -> 'employment', payload -> 'EmploymentChanged')
$$;

create function events_keep_staff_access() returns trigger
    language plpgsql as
$$
declare
    employment jsonb := staff_access_of(new.payload);
begin
    if new.aggregate_type = 'Professional' and employment is not null then
        insert into staff_access (professional_id, role, status, companies)
        values (new.aggregate_id::bigint, employment ->> 'role', (employment ->> 'status')::smallint,
                array(select (m ->> 'company_id')::bigint
                        from jsonb_array_elements(employment -> 'memberships') with ordinality as t(m, n)
                       order by n))
        on conflict (professional_id) do update
            set role = excluded.role, status = excluded.status, companies = excluded.companies;
    end if;
    return new;
end
$$;

create trigger events_staff_access
    after insert on events
    for each row
    when (new.aggregate_type = 'Professional')
    execute function events_keep_staff_access();

-- The professionals registered before this table: their latest employment.
insert into staff_access (professional_id, role, status, companies)
select distinct on (aggregate_id)
       aggregate_id::bigint, e ->> 'role', (e ->> 'status')::smallint,
       array(select (m ->> 'company_id')::bigint
               from jsonb_array_elements(e -> 'memberships') with ordinality as t(m, n)
              order by n)
  from events, staff_access_of(payload) as t(e)
 where aggregate_type = 'Professional' and e is not null
 order by aggregate_id, sequence desc;
