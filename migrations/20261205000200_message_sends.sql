-- Issue 44: the reminders retry a send left without an outcome (a process stopped between
-- deciding and recording the provider's answer). command-api finds the last decisions to
-- send of the last day from the log (read_models::unanswered_messages) through this index.
create index events_message_sends on events (recorded_at)
    where aggregate_type = 'Message' and event_type in ('MessageRequested', 'SendRetried');
