-- A client is in one chair at a time, and a service may keep its professional busy after it
-- (issue 45, docs/agenda.md 'One chair at a time' and 'Intervals after a service').
--
-- One chair at a time:
-- command-api refuses a booking or a move that overlaps another active appointment of the
-- client, with any professional, unless the desk chose 'Agendar mesmo assim' (the event's
-- `client_overlap`). This constraint is what keeps two desks booking the same client at
-- once from both succeeding. Slots the desk allowed are outside it.
-- The client's time is the appointment's, start to end; `during` is the professional's, which
-- may go on after the client left (a cleaning interval, issue 45 point 3).
alter table appointment_slot
    add column client_overlap boolean not null default false,
    add column client_during  tsrange;
update appointment_slot set client_during = during;

-- What was booked before the rule stays as agreed: slots that overlap another of their
-- client's count as allowed (none are moved or cancelled).
update appointment_slot s
   set client_overlap = true
 where s.client_id is not null
   and exists (select 1 from appointment_slot o
                where o.client_id = s.client_id and o.appointment_id <> s.appointment_id
                  and o.client_during && s.client_during);

alter table appointment_slot
    add constraint appointment_slot_client_no_overlap
        exclude using gist (client_id with =, client_during with &&)
        where (client_id is not null and not client_overlap);

-- 'Intervalo após' (issue 45 point 3, docs/agenda.md 'Intervals after a service'): a
-- professional's service may keep them busy some minutes after it (cleaning after a
-- 'Pigmentação'). The booking records each service's interval as offered when booked
-- (`services[].interval_after`), and the professional's slot runs on through their sum, so
-- PostgreSQL refuses a booking inside another's interval as it refuses an overlap. The
-- client's time (`client_during`) stays start to end: the client has left.
--
-- As the professional's lock (namespace 4) lets a second append wait for the first and
-- then be refused at once, rather than both waiting on the exclusion check until the
-- deadlock timeout, the client's is taken after it (namespace 5), always in that order.
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
