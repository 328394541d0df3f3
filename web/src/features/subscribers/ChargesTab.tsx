import { DataTable, type Column } from '@/components/list/ListPage';
import { chargeGroup, chargeStatusLabel, offersBoletoPdf, offersPix } from '@/lib/club';
import { formatDateBR } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import type { Transaction } from './types';

/** How a charge is paid: the card's brand and last digits, or boleto. */
export function paymentInfo(transaction: Transaction, mainMethod: string | null): string {
  if (transaction.CardNumber || transaction.CardBrand) {
    const digits = (transaction.CardNumber ?? '').replace(/\D/g, '').slice(-4);
    const brand = transaction.CardBrand ? transaction.CardBrand.toUpperCase() : 'Cartão';
    const expires = transaction.CardExpiresAt ? ` (val. ${transaction.CardExpiresAt})` : '';
    return `${brand}${digits ? ` final ${digits}` : ''}${expires}`;
  }
  if (transaction.BoletoPdf || mainMethod === 'boleto') return 'Boleto';
  if (transaction.PixLink || mainMethod === 'pix') return 'Pix';
  return mainMethod === 'creditcard' ? 'Cartão de crédito' : '—';
}

const statusClass = (status: string) =>
  ({ received: 'status-active', toReceive: 'status-pending-payment', other: 'status-inactive' })[chargeGroup(status)];

/** Cobranças: the subscription's charges, with the boleto and Pix while they are open (spec 02 §2). */
export function ChargesTab({ transactions, mainMethod }: { transactions: Transaction[]; mainMethod: string | null }) {
  const rows = [...transactions].sort((a, b) => b.Installment - a.Installment);
  const columns: Column<Transaction>[] = [
    { header: 'Parcela', cell: (t) => t.Installment },
    { header: 'Valor', cell: (t) => formatBRL(t.Value) },
    { header: 'Vencimento', cell: (t) => (t.PaydayDate || t.Payday ? formatDateBR((t.PaydayDate || t.Payday)!) : '—') },
    { header: 'Status', cell: (t) => <span className={statusClass(t.Status)}>{chargeStatusLabel(t.Status)}</span> },
    { header: 'Pagamento', cell: (t) => paymentInfo(t, mainMethod) },
    {
      header: 'Ações',
      className: 'table-actions',
      cell: (t) => (
        <span className="subscriber-charge-actions">
          {offersBoletoPdf(t.Status) && t.BoletoPdf && (
            <a
              className="button button-secondary button-small"
              href={t.BoletoPdf}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Boleto PDF da parcela ${t.Installment}`}
            >
              Boleto PDF
            </a>
          )}
          {offersPix(t.Status) && t.PixLink && (
            <a
              className="button button-secondary button-small"
              href={t.PixLink}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Pix da parcela ${t.Installment}`}
            >
              Pix
            </a>
          )}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      label="Cobranças"
      columns={columns}
      rows={rows}
      rowKey={(t) => t.IdSubscriptionUserTransaction}
      emptyText="Nenhuma transação encontrado"
    />
  );
}
