-- Unique claims, second version:
-- * a command whose several events carry the same claims claims each value once (the
--   aggregate already holding a value may claim it again);
-- * `released_claims` in the metadata gives values back, e.g. the old e-mail when a
--   professional's e-mail changes. Only the holder can release a value.
create or replace function events_claim_unique_values() returns trigger
    language plpgsql as
$$
declare
    claim jsonb;
begin
    if new.metadata ? 'released_claims' then
        delete from unique_claim u
         using jsonb_array_elements((new.metadata ->> 'released_claims')::jsonb) released
         where u.scope = released ->> 'scope'
           and u.value = released ->> 'value'
           and u.aggregate_type = new.aggregate_type
           and u.aggregate_id = new.aggregate_id;
    end if;
    if new.metadata ? 'unique_claims' then
        for claim in select * from jsonb_array_elements((new.metadata ->> 'unique_claims')::jsonb)
        loop
            perform 1 from unique_claim u
              where u.scope = claim ->> 'scope' and u.value = claim ->> 'value'
                and u.aggregate_type = new.aggregate_type and u.aggregate_id = new.aggregate_id;
            if not found then
                -- A concurrent holder makes this insert wait for it and then fail.
                insert into unique_claim (scope, value, aggregate_type, aggregate_id)
                values (claim ->> 'scope', claim ->> 'value', new.aggregate_type, new.aggregate_id);
            end if;
        end loop;
    end if;
    return new;
end
$$;

create sequence service_id_seq;
create sequence professional_service_id_seq;
create sequence gallery_image_id_seq;
create sequence company_professional_id_seq;
