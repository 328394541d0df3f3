-- Sign-in sessions (issue 12, item 3). Every token names its session (`sid`) and every
-- request checks that the session is still open, so 'Sair' and a password reset end
-- tokens at once instead of when they expire. Deactivation and role changes already apply
-- at once through `staff_access`.
create table staff_session
(
    session_id      uuid primary key,
    professional_id bigint      not null,
    created_at      timestamptz not null default now(),
    expires_at      timestamptz not null,
    revoked_at      timestamptz
);
create index staff_session_open on staff_session (professional_id) where revoked_at is null;
create index staff_session_expiry on staff_session (expires_at);
grant select on staff_session to navalha_query;

-- Attempts at the doors that take guesses: signing in, asking for a recovery code and
-- checking one (command-api/src/identity/throttle.rs). An attempt is stored as failed
-- before it is checked and marked as succeeded afterwards, so guesses in flight count.
create table access_attempt
(
    access_attempt_id bigint generated always as identity primary key,
    door              text        not null,
    -- The typed e-mail or CPF, or the account: unknown accounts are throttled like known ones.
    subject           text        not null,
    client_ip         text        not null,
    succeeded         boolean     not null default false,
    attempted_at      timestamptz not null default now()
);
create index access_attempt_by_subject on access_attempt (door, subject, attempted_at) where not succeeded;
create index access_attempt_by_address on access_attempt (door, client_ip, attempted_at) where not succeeded;
create index access_attempt_age on access_attempt (attempted_at);

drop table login_attempt;

-- Recovery codes asked for, made and e-mailed by a worker after the answer, so that the
-- answer is the same, in body and in time, whether or not the account exists and whether or
-- not the mail server is up (identity/recovery.rs).
create table recovery_request
(
    recovery_request_id bigint generated always as identity primary key,
    cpf_or_email        text        not null,
    requested_at        timestamptz not null default now(),
    attempts            integer     not null default 0,
    next_attempt_at     timestamptz not null default now(),
    done_at             timestamptz
);
create index recovery_request_pending on recovery_request (next_attempt_at) where done_at is null;
