-- Comandas (issue 41, ADR 0025): their numbers. One comanda per appointment is a unique claim
-- (`comanda_appointment`) in the events' own transaction, released when it is cancelled.
create sequence comanda_id_seq;
-- The products a business sells at the counter.
create sequence product_id_seq;
-- Caixas (cash registers). One open per unit is a unique claim (`caixa_open`), released at
-- the close.
create sequence caixa_id_seq;
-- The cash a caixa's payments brought in (command-api's `caixas::CASH_TAKEN`) is summed from
-- the comandas' events by caixa: without this, each caixa write would scan the whole log.
create index events_payment_caixa on events ((payload -> 'PaymentTaken' ->> 'caixa_id'))
    where aggregate_type = 'Comanda' and event_type = 'PaymentTaken';
