-- Deactivating a staff member ends their sessions (issue 39). Tokens were refused while the
-- professional was inactive, but a reactivation revived every session opened before it:
-- a token taken from a shared computer worked again. Now the deactivation's own event
-- revokes them, in its transaction; a reactivated professional signs in again.
create or replace function events_keep_staff_access() returns trigger
    language plpgsql as
$$
declare
    employment jsonb := staff_access_of(new.payload);
    inactive constant smallint := 2; -- navalha_domain::professional::status::INACTIVE
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
        if (employment ->> 'status')::smallint = inactive then
            update staff_session set revoked_at = now()
             where professional_id = new.aggregate_id::bigint and revoked_at is null;
        end if;
    end if;
    return new;
end
$$;
