-- The subscription club (issue 5): ids allocated before a stream's first event, checkout
-- links (secrets: only their hash is kept, never in an event) and the webhooks accepted
-- from the payment provider (to refuse a replayed confirmation on another body).
create sequence subscription_detail_id_seq;
create sequence subscription_service_id_seq;
create sequence subscription_user_id_seq;
create sequence partner_company_id_seq;

create table checkout_token
(
    token_hash      bytea primary key,
    user_id         bigint      not null,
    plan_id         bigint      not null,
    created_by      bigint      not null,
    created_at      timestamptz not null default now(),
    expires_at      timestamptz not null,
    -- set when the link is used; a used link never works again
    used_at         timestamptz,
    subscription_id bigint
);

create table provider_webhook
(
    webhook_id  bigint primary key,
    body_sha256 bytea       not null,
    received_at timestamptz not null default now()
);
