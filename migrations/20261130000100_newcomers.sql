-- Newcomers on the public page (issue 39, docs/online-booking.md 'Newcomers'). A booking
-- made online by a client whose record was made online and not confirmed by staff is a
-- newcomer's: the unit's share of the day and the bookings per address count these. The
-- slot keeps the mark and, for every online booking, the address range it came from, so
-- both are counted in the events' own transaction, never behind the event log.

-- An address as the limits count it: IPv4 whole, IPv6 by its /64 (one subscriber's
-- network: counting IPv6 one by one would give one home endless addresses). Text that is
-- not an address counts as itself.
create function navalha_address_range(address text) returns text
    language plpgsql immutable as
$$
declare
    ip inet;
begin
    if address is null or address = '' then
        return '';
    end if;
    ip := address::inet;
    if family(ip) = 6 and not ip << '::ffff:0:0/96'::inet then
        return network(set_masklen(ip, 64))::text;
    end if;
    return host(ip);
exception
    when invalid_text_representation then
        return address;
end
$$;

alter table appointment_slot
    add column newcomer    boolean not null default false,
    add column online_from text;

update appointment_slot s
   set online_from = navalha_address_range(last.client_ip)
  from (select distinct on (aggregate_id) aggregate_id, payload -> event_type as booking,
               metadata ->> 'client_ip' as client_ip
          from events
         where aggregate_type = 'Appointment' and event_type in ('AppointmentBooked', 'AppointmentChanged')
         order by aggregate_id, sequence desc) last
 where last.aggregate_id = s.appointment_id and (last.booking ->> 'online')::boolean;

create index appointment_slot_newcomers on appointment_slot (company_id, lower(during)) where newcomer;
create index appointment_slot_online_from on appointment_slot (online_from, lower(during))
    where online_from is not null;

create or replace function events_claim_appointment_slot() returns trigger
    language plpgsql as
$$
declare
    booking jsonb;
    online  boolean;
begin
    case new.event_type
        when 'AppointmentBooked', 'AppointmentChanged' then
            booking := new.payload -> new.event_type;
            online := coalesce((booking ->> 'online')::boolean, false);
            perform pg_advisory_xact_lock(4, hashtext(booking ->> 'professional_id'));
            insert into appointment_slot (appointment_id, professional_id, during, client_id, company_id,
                                          newcomer, online_from)
            values (new.aggregate_id, (booking ->> 'professional_id')::bigint,
                    tsrange(((booking ->> 'date') || ' ' || (booking ->> 'start'))::timestamp,
                            ((booking ->> 'date') || ' ' || (booking ->> 'end'))::timestamp, '[)'),
                    (booking ->> 'client_id')::bigint, (booking ->> 'company_id')::bigint,
                    coalesce((booking ->> 'newcomer')::boolean, false),
                    case when online then navalha_address_range(new.metadata ->> 'client_ip') end)
            on conflict (appointment_id) do update
                set professional_id = excluded.professional_id, during = excluded.during,
                    client_id = excluded.client_id, company_id = excluded.company_id,
                    newcomer = excluded.newcomer, online_from = excluded.online_from;
        when 'AppointmentCancelled' then
            delete from appointment_slot where appointment_id = new.aggregate_id;
        else
            null;
    end case;
    return new;
end
$$;
