-- A professional's slots are claimed in turn (ADR 0006, amended). Two appends whose slots
-- overlap each inserted theirs and then each waited for the other's (an exclusion
-- constraint checks after inserting), until PostgreSQL's deadlock timeout, a second,
-- aborted one. Meanwhile both held back the commit horizon, and with it every read model.
-- Now an append first takes a transaction lock on its professional (advisory, namespace 4,
-- as the throttle takes 1 and 2 and online booking 3): the second waits for the first to
-- end, then finds its slot committed and is refused at once. The exclusion constraint is
-- still what guarantees no overlap.
create or replace function events_claim_appointment_slot() returns trigger
    language plpgsql as
$$
declare
    booking jsonb;
begin
    case new.event_type
        when 'AppointmentBooked', 'AppointmentChanged' then
            booking := new.payload -> new.event_type;
            perform pg_advisory_xact_lock(4, hashtext(booking ->> 'professional_id'));
            insert into appointment_slot (appointment_id, professional_id, during, client_id, company_id)
            values (new.aggregate_id, (booking ->> 'professional_id')::bigint,
                    tsrange(((booking ->> 'date') || ' ' || (booking ->> 'start'))::timestamp,
                            ((booking ->> 'date') || ' ' || (booking ->> 'end'))::timestamp, '[)'),
                    (booking ->> 'client_id')::bigint, (booking ->> 'company_id')::bigint)
            on conflict (appointment_id) do update
                set professional_id = excluded.professional_id, during = excluded.during,
                    client_id = excluded.client_id, company_id = excluded.company_id;
        when 'AppointmentCancelled' then
            delete from appointment_slot where appointment_id = new.aggregate_id;
        else
            null;
    end case;
    return new;
end
$$;
