-- The club at the counter (issue 41): a comanda's service line is covered by the client's
-- subscription whose plan includes the service. command-api finds the client's
-- subscriptions from their creation events (`comandas::SUBSCRIPTIONS_OF_CLIENT`); without
-- this, each covered line would scan every subscription ever created.
create index events_subscription_user on events ((payload -> 'SubscriptionCreated' -> 'user' ->> 'user_id'))
    where aggregate_type = 'SubscriptionUser' and event_type = 'SubscriptionCreated';
