-- Idempotency that survives a command-api killed mid-request (issue 16;
-- command-api/src/idempotency.rs).
--
-- `run` names one run of a key: the run that writes the answer must be the one that claimed
-- it. `owner` is the advisory-lock key the command-api process running it holds for as long
-- as it lives: a retry may take over a run in flight as soon as that lock is gone, instead of
-- waiting for it to go stale.
alter table idempotent_request
    add column run   bigint,
    add column owner bigint;
create index idempotent_request_run on idempotent_request (run);

-- A create whose answer is known before its events are appended (`{"IdScheduling": 12}`)
-- carries it in the events' metadata as `idempotency` = {"run", "status", "body"}; this
-- trigger stores it in the same transaction as the events. So there is no moment when the
-- events are committed and the answer is not: a process killed right after the commit
-- still leaves the answer for the client's retry. The position is the event's own.
create function navalha_idempotent_answer() returns trigger
    language plpgsql as
$$
declare
    answer jsonb := (new.metadata ->> 'idempotency')::jsonb;
begin
    update idempotent_request
       set status  = (answer ->> 'status')::smallint,
           headers = jsonb_build_object('content-type', 'application/json',
                                        'x-navalha-position', new.tx_id::text || '.' || new.global_position),
           body    = convert_to(answer ->> 'body', 'UTF8')
     where run = (answer ->> 'run')::bigint;
    return null;
end
$$;

create trigger events_idempotent_answer
    after insert on events
    for each row
    when (new.metadata ? 'idempotency')
execute function navalha_idempotent_answer();
