-- Events written before businesses existed belong to business 1 (20261124003000_businesses),
-- but business 1 itself was never opened there: it has no `Business` stream, so it has no name
-- and its billing (`command-api business-billing`) cannot be recorded. Open it now, as the
-- demo loader and `open-business` open every later business. A database whose first events
-- came after that migration has business 1's stream already (or no events), and is left alone.
-- The name is the demo's: business 1 of an older database is the one it was created with.
insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
select 'Business', '1', 1, 'BusinessOpened', '1.0',
       jsonb_build_object('BusinessOpened', jsonb_build_object('name', 'Navalha')),
       jsonb_build_object('at', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
                          'client_ip', '', 'request_id', '', 'user_name', 'Abertura da empresa',
                          'business_id', '1')
 where exists (select 1 from events)
   and not exists (select 1 from events where aggregate_type = 'Business' and aggregate_id = '1');
