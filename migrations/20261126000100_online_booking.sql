-- Online booking (issue 18, docs/online-booking.md).

-- Codes asked for on a unit's public page. The code is stored only as a hash, lives 10
-- minutes, dies after 5 wrong tries and works once. What the client typed rides along, so
-- the booking token made from it says who they are.
create table online_code
(
    request_id     uuid primary key,
    business_id    bigint      not null,
    company_id     bigint      not null,
    cpf            text        not null,
    name           text        not null,
    phone          text        not null,
    email          text        not null,
    code_salt      bytea       not null,
    code_hash      bytea       not null,
    wrong_attempts integer     not null default 0,
    created_at     timestamptz not null default now(),
    expires_at     timestamptz not null,
    used_at        timestamptz
);
create index online_code_age on online_code (created_at);
grant select, insert, update, delete on online_code to navalha_command;

-- Whose slot it is, and in which unit: the limit on a client's future online bookings is
-- counted here, in the same transaction as the events, never behind the event log.
alter table appointment_slot add column client_id bigint, add column company_id bigint;
update appointment_slot s
   set client_id  = (last.booking ->> 'client_id')::bigint,
       company_id = (last.booking ->> 'company_id')::bigint
  from (select distinct on (aggregate_id) aggregate_id, payload -> event_type as booking
          from events
         where aggregate_type = 'Appointment' and event_type in ('AppointmentBooked', 'AppointmentChanged')
         order by aggregate_id, sequence desc) last
 where last.aggregate_id = s.appointment_id;
create index appointment_slot_client on appointment_slot (client_id, company_id, lower(during));

create or replace function events_claim_appointment_slot() returns trigger
    language plpgsql as
$$
declare
    booking jsonb;
begin
    case new.event_type
        when 'AppointmentBooked', 'AppointmentChanged' then
            booking := new.payload -> new.event_type;
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
