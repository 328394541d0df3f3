-- Appointments. No two active appointments of one professional overlap, whatever the
-- concurrency (design.md): a command booking or moving an appointment puts the slot in its
-- events' metadata as `slot` ({"professional_id", "start", "end"}, wall-clock timestamps
-- of the unit), and this trigger writes it to `appointment_slot` in the same transaction.
-- The exclusion constraint refuses an overlap (SQLSTATE 23P01), so the events are not
-- written either. `slot_release` frees the slot (a cancellation).
create extension if not exists btree_gist;

create table appointment_slot
(
    appointment_id  text    primary key,
    professional_id bigint  not null,
    during          tsrange not null,
    constraint appointment_slot_no_overlap exclude using gist (professional_id with =, during with &&)
);

create function events_claim_appointment_slot() returns trigger
    language plpgsql as
$$
declare
    slot jsonb;
begin
    if new.metadata ? 'slot_release' then
        delete from appointment_slot where appointment_id = new.aggregate_id;
    end if;
    if new.metadata ? 'slot' then
        slot := (new.metadata ->> 'slot')::jsonb;
        insert into appointment_slot (appointment_id, professional_id, during)
        values (new.aggregate_id, (slot ->> 'professional_id')::bigint,
                tsrange((slot ->> 'start')::timestamp, (slot ->> 'end')::timestamp, '[)'))
        on conflict (appointment_id) do update
            set professional_id = excluded.professional_id, during = excluded.during;
    end if;
    return new;
end
$$;

create trigger events_appointment_slot
    after insert on events
    for each row
    when (new.aggregate_type = 'Appointment')
    execute function events_claim_appointment_slot();

create sequence appointment_id_seq;

-- Idempotency-Key of creating commands: a retry with the same key and body gets the
-- first answer, because it reuses the id reserved here and the aggregate refuses a second
-- creation; the same key with another body is refused.
create table idempotency_key
(
    scope        text        not null,
    key          text        not null,
    user_id      bigint      not null,
    request_hash bytea       not null,
    aggregate_id text        not null,
    created_at   timestamptz not null default now(),
    primary key (scope, user_id, key)
);
