-- The event log: postgres-es's `events` table, extended so that the projector can read it
-- in commit order (see docs/adr/0001-projection-ordering.md).
create table events
(
    aggregate_type  text                         not null,
    aggregate_id    text                         not null,
    sequence        bigint check (sequence >= 0) not null,
    event_type      text                         not null,
    event_version   text                         not null,
    payload         jsonb                        not null,
    metadata        jsonb                        not null,
    -- Allocation order, not commit order: two transactions can commit in the opposite
    -- order to their positions, which is why the projector's cursor leads with tx_id.
    global_position bigint generated always as identity,
    tx_id           xid8        not null default pg_current_xact_id(),
    recorded_at     timestamptz not null default now(),
    primary key (aggregate_type, aggregate_id, sequence)
);

create unique index events_commit_order on events (tx_id, global_position);
create unique index events_global_position on events (global_position);

-- Events are facts: nobody rewrites or removes them, not even a superuser's session in
-- replica mode (hence `enable always`).
create function events_refuse_change() returns trigger
    language plpgsql as
$$
begin
    raise exception 'events are append-only: % refused', tg_op
        using errcode = 'insufficient_privilege';
end
$$;

create trigger events_append_only
    before update or delete on events
    for each row execute function events_refuse_change();
create trigger events_no_truncate
    before truncate on events
    for each statement execute function events_refuse_change();
alter table events enable always trigger events_append_only;
alter table events enable always trigger events_no_truncate;

-- Wakes the projector. The notification is delivered at commit, and identical ones of one
-- transaction are merged, so a command costs one wake-up however many events it appends.
create function events_notify() returns trigger
    language plpgsql as
$$
begin
    perform pg_notify('navalha_events', '');
    return null;
end
$$;

create trigger events_wake_projector
    after insert on events
    for each statement execute function events_notify();
