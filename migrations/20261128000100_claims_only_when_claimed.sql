-- The unique-claims trigger runs only for events that claim or release a value (issue 15).
-- Its WHEN clause is checked without entering PL/pgSQL, which every other event (a
-- booking's, among them) used to enter only to find nothing to do.
drop trigger events_unique_claims on events;
create trigger events_unique_claims
    after insert on events
    for each row
    when (new.metadata ? 'unique_claims' or new.metadata ? 'released_claims')
    execute function events_claim_unique_values();
