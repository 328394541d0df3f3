-- The domain check before a booking reads one professional's slots of one day. The GiST
-- index of the exclusion constraint answers it too, but slowly under concurrent inserts
-- (the benchmark saw it take most of the database's time); a btree on the start does not.
create index appointment_slot_professional_start on appointment_slot (professional_id, lower(during));
