-- Comandas (issue 41, ADR 0025): their numbers. One comanda per appointment is a unique claim
-- (`comanda_appointment`) in the events' own transaction, released when it is cancelled.
create sequence comanda_id_seq;
-- The products a business sells at the counter.
create sequence product_id_seq;
-- Caixas (cash registers). One open per unit is a unique claim (`caixa_open`), released at
-- the close.
create sequence caixa_id_seq;
