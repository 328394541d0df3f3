-- Idempotency-Key on every create (command-api/src/idempotency.rs): the first answer to a
-- key, stored for 24 hours and given again to a retry with the same request. `status` is
-- null while the first request is in flight; `started_at` marks that run, so a run taken
-- over after it was lost cannot overwrite the answer of the run that replaced it.
create table idempotent_request
(
    caller       text        not null,
    key          text        not null,
    request_hash bytea       not null,
    created_at   timestamptz not null default now(),
    started_at   timestamptz not null default now(),
    status       smallint,
    headers      jsonb,
    body         bytea,
    primary key (caller, key)
);
create index idempotent_request_created on idempotent_request (created_at);

-- The per-route reservation this replaces (scheduling and plans only).
drop table idempotency_key;
