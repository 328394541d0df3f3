-- command-api wakes the projector itself, after the commit (ADR 0007). A NOTIFY inside the
-- events' transaction takes a database-wide lock that is held until the commit's WAL flush
-- ends, so concurrent commands could not share a flush and committed one at a time.
drop trigger events_wake_projector on events;
drop function events_notify();
