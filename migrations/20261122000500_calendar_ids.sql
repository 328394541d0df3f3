-- Ids of days off and holidays, allocated before their first event is appended.
create sequence day_off_id_seq;
create sequence holiday_id_seq;
