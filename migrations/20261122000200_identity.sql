-- Secrets owned by command-api. None of this ever appears in an event
-- (docs/adr/0002-identity.md).

-- The token signing key pair, made on first start. query-api reads only public_key.
create table signing_key
(
    signing_key_id text primary key,
    algorithm      text        not null,
    private_key    bytea       not null,
    public_key     bytea       not null,
    created_at     timestamptz not null default now()
);

-- One row per staff account. email and cpf are lookup keys copied from the
-- professional's events when the account is made.
create table staff_credential
(
    professional_id          bigint primary key,
    email                    text        not null unique,
    cpf                      text unique,
    password_hash            text,
    google_sub               text unique,
    login_failures_reset_at  timestamptz not null default '-infinity',
    created_at               timestamptz not null default now(),
    updated_at               timestamptz not null default now()
);

-- Sign-in attempts, for throttling. Keyed by the e-mail typed, so unknown accounts are
-- throttled exactly like known ones and the answer does not reveal which exist.
create table login_attempt
(
    login_attempt_id bigint generated always as identity primary key,
    email            text        not null,
    succeeded        boolean     not null,
    client_ip        text        not null,
    attempted_at     timestamptz not null default now()
);
create index login_attempt_recent_failures on login_attempt (email, attempted_at) where not succeeded;

-- Password recovery: a 6-digit code and a link token, both stored only as hashes.
create table recovery_code
(
    recovery_code_id  bigint generated always as identity primary key,
    professional_id   bigint      not null references staff_credential (professional_id),
    code_salt         bytea       not null,
    code_hash         bytea       not null,
    link_token_hash   bytea       not null unique,
    wrong_attempts    integer     not null default 0,
    created_at        timestamptz not null default now(),
    expires_at        timestamptz not null,
    used_at           timestamptz,
    superseded_at     timestamptz
);
create index recovery_code_open on recovery_code (professional_id) where used_at is null and superseded_at is null;

-- Registration links sent to new professionals: the link's token, hashed.
create table registration_invite
(
    registration_invite_id bigint generated always as identity primary key,
    professional_id        bigint      not null references staff_credential (professional_id),
    token_hash             bytea       not null unique,
    created_at             timestamptz not null default now(),
    expires_at             timestamptz not null,
    used_at                timestamptz
);

-- Numeric ids for aggregates that users see as numbers.
create sequence company_id_seq;
create sequence professional_id_seq;
