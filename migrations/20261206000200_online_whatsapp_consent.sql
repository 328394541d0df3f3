-- Issue 44: the online page asks whether the client accepts WhatsApp messages; the answer
-- travels with the code to the client's new record.
alter table online_code add column whatsapp boolean not null default false;
