-- 'Intervalo após' (issue 45 point 3, docs/agenda.md 'Intervals after a service'): a
-- professional's service may keep them busy some minutes after it (cleaning after a
-- 'Pigmentação'). The booking records each service's interval as offered when booked
-- (`services[].interval_after`), and the professional's slot runs on through their sum, so
-- PostgreSQL refuses a booking inside another's interval as it refuses an overlap. The
-- client's time (`client_during`) stays start to end: the client has left.
create or replace function events_claim_appointment_slot() returns trigger
    language plpgsql as
$$
declare
    booking  jsonb;
    online   boolean;
    overlap  boolean;
    starts   timestamp;
    ends     timestamp;
    interval_after integer;
begin
    case new.event_type
        when 'AppointmentBooked', 'AppointmentChanged' then
            booking := new.payload -> new.event_type;
            online := coalesce((booking ->> 'online')::boolean, false);
            overlap := coalesce((booking ->> 'client_overlap')::boolean, false);
            starts := ((booking ->> 'date') || ' ' || (booking ->> 'start'))::timestamp;
            ends := ((booking ->> 'date') || ' ' || (booking ->> 'end'))::timestamp;
            select coalesce(sum((service ->> 'interval_after')::integer), 0) into interval_after
              from jsonb_array_elements(coalesce(booking -> 'services', '[]'::jsonb)) service;
            perform pg_advisory_xact_lock(4, hashtext(booking ->> 'professional_id'));
            if not overlap and booking ->> 'client_id' is not null then
                perform pg_advisory_xact_lock(5, hashtext(booking ->> 'client_id'));
            end if;
            insert into appointment_slot (appointment_id, professional_id, during, client_id, company_id,
                                          newcomer, online_from, client_overlap, client_during)
            values (new.aggregate_id, (booking ->> 'professional_id')::bigint,
                    tsrange(starts, ends + make_interval(mins => interval_after), '[)'),
                    (booking ->> 'client_id')::bigint, (booking ->> 'company_id')::bigint,
                    coalesce((booking ->> 'newcomer')::boolean, false),
                    case when online then navalha_address_range(new.metadata ->> 'client_ip') end,
                    overlap, tsrange(starts, ends, '[)'))
            on conflict (appointment_id) do update
                set professional_id = excluded.professional_id, during = excluded.during,
                    client_id = excluded.client_id, company_id = excluded.company_id,
                    newcomer = excluded.newcomer, online_from = excluded.online_from,
                    client_overlap = excluded.client_overlap, client_during = excluded.client_during;
        when 'AppointmentCancelled' then
            delete from appointment_slot where appointment_id = new.aggregate_id;
        else
            null;
    end case;
    return new;
end
$$;
