-- The slot PostgreSQL guards comes from the appointment's own event, not from metadata
-- that every writer had to remember to attach (and to release on cancel): issue 15, ADR 0014.
-- `AppointmentBooked` and `AppointmentChanged` carry the whole booking (postgres-es stores
-- `{"<event type>": {...}}`: the unit's wall-clock `date`, `start`, `end`, and
-- `professional_id`); the trigger claims or moves its slot. `AppointmentCancelled` frees it.
-- The exclusion constraint still refuses an overlap (SQLSTATE 23P01) inside the append's
-- transaction, so the events are not written either.
create or replace function events_claim_appointment_slot() returns trigger
    language plpgsql as
$$
declare
    booking jsonb;
begin
    case new.event_type
        when 'AppointmentBooked', 'AppointmentChanged' then
            booking := new.payload -> new.event_type;
            insert into appointment_slot (appointment_id, professional_id, during)
            values (new.aggregate_id, (booking ->> 'professional_id')::bigint,
                    tsrange(((booking ->> 'date') || ' ' || (booking ->> 'start'))::timestamp,
                            ((booking ->> 'date') || ' ' || (booking ->> 'end'))::timestamp, '[)'))
            on conflict (appointment_id) do update
                set professional_id = excluded.professional_id, during = excluded.during;
        when 'AppointmentCancelled' then
            delete from appointment_slot where appointment_id = new.aggregate_id;
        else
            null;
    end case;
    return new;
end
$$;
