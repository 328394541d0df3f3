-- Commissions (issue 42): vales and bonuses ('Vale', 'Bônus') are numbered across the
-- business's ledgers, so that a create answers its id before the append (Idempotency-Key).
create sequence commission_entry_id_seq;
-- Periods closed and paid ('Fechar período'), numbered the same way.
create sequence commission_period_id_seq;
