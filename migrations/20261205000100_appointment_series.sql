-- Issue 45 point 4: a regulars' series links its appointments by the id of its first one
-- (`series.id` on the booking). Cancelling "this and the following" or "all" finds them
-- through this index (command-api/src/scheduling/series.rs, SERIES_APPOINTMENTS).
create index events_appointment_series on events ((payload -> 'AppointmentBooked' -> 'series' ->> 'id'))
    where aggregate_type = 'Appointment' and event_type = 'AppointmentBooked';
