import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import { DataTable, stopRowClick, type Column } from '@/components/list/ListPage';
import { formatDateBR } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { ClubMonthsChart } from './charts';
import type { DashboardClub, PendingCharge } from './homeApi';
import { KeyFigures } from './KeyFigures';
import { hasMonthData, monthBars } from './shaping';

/** The subscriber's page, where a pending charge is settled. */
export const subscriberPath = (id: number) => `/dashboard/subscription-user-detail-form/${id}`;

/**
 * 'Clube de assinaturas': subscribers, recurring revenue and the pending payments (a row opens
 * the subscriber; on the phone the list pattern shows each as a card). `compact` (the phone)
 * leaves out the months chart.
 */
export function Club({ club, compact = false }: { club: DashboardClub; compact?: boolean }) {
  const navigate = useNavigate();
  const titleId = useId();
  const pendingId = useId();
  const months = monthBars(club.Months);
  const columns: Column<PendingCharge>[] = [
    { header: 'Cliente', cell: (row) => <Link {...stopRowClick} to={subscriberPath(row.IdSubscriptionUser)}>{row.UserName}</Link> },
    { header: 'Plano', cell: (row) => row.PlanName },
    { header: 'Valor', cell: (row) => formatBRL(row.Value) },
    { header: 'Vencimento', cell: (row) => (row.DueDate ? formatDateBR(row.DueDate) : '—') },
  ];
  const pending = (
    <section className="home-card" aria-labelledby={pendingId}>
      <h2 id={pendingId} className="home-card-title">
        Pagamentos pendentes
      </h2>
      <DataTable
        label="Pagamentos pendentes"
        columns={columns}
        rows={club.Pending}
        // A subscriber may owe several months.
        rowKey={(row) => `${row.IdSubscriptionUser}-${row.DueDate}`}
        onRowClick={(row) => navigate(subscriberPath(row.IdSubscriptionUser))}
        emptyText="Nenhum pagamento pendente."
      />
    </section>
  );
  return (
    <section className="home-club" aria-labelledby={titleId}>
      <h2 id={titleId} className="home-section-title">
        Clube de assinaturas
      </h2>
      <KeyFigures
        label="Números do clube"
        figures={[
          { label: 'Assinantes ativos', value: club.ActiveSubscribers },
          { label: 'Receita recorrente mensal', value: formatBRL(club.MonthlyRecurringRevenue) },
        ]}
      />
      {compact ? (
        pending
      ) : (
        <div className="home-grid">
          <ClubMonthsChart bars={months} empty={!hasMonthData(months)} />
          {pending}
        </div>
      )}
    </section>
  );
}
