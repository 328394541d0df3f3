-- Whether a read model has events of its own after its checkpoint, in one probe per
-- aggregate type (issue 15): the projector asks it on every wake-up of every model, and
-- query-api when a reader waits for a position. Walking `events_commit_order` instead read
-- every other model's event since the checkpoint: thousands under a booking load, for each
-- of the models that no booking touches.
create index events_by_type_in_commit_order on events (aggregate_type, tx_id, global_position);
