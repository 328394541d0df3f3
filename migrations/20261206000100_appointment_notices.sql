-- Issue 44, point 2: the client hears of an online booking, and of a move or cancellation by
-- the shop. command-api finds those of the last hours in the log
-- (read_models::appointment_changes) through this index.
create index events_appointment_notices on events (recorded_at)
    where aggregate_type = 'Appointment'
      and event_type in ('AppointmentBooked', 'AppointmentChanged', 'AppointmentCancelled');
