import { useId, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { SelectField } from '@/components/form/fields';
import { ToggleGroup } from '@/components/ToggleGroup';
import { DataTable, stopRowClick, type Column } from '@/components/list/ListPage';
import { formatDateBR } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import {
  BusyHoursMap,
  ClubMonthsChart,
  DaysChart,
  CommissionsChart,
  MethodsChart,
  OccupancyChart,
  ReceivedDaysChart,
  ReceivedProfessionalsChart,
  ServicesChart,
} from './charts';
import { useGetDashboardQuery, type Dashboard, type DashboardClub, type PendingCharge, type Period } from './homeApi';
import { KeyFigures, type Figure } from './KeyFigures';
import { LowStockCard } from './LowStockCard';
import { useHomeScope } from './scope';
import {
  ALL_UNITS,
  commissionBars,
  commissionTitle,
  dayBars,
  hasDayData,
  hasMonthData,
  hasReceivedData,
  heatMap,
  mayChooseAllUnits,
  methodBars,
  monthBars,
  occupancyBars,
  percentText,
  PERIOD_OPTIONS,
  professionalReceivedBars,
  receivedDayBars,
  serviceBars,
} from './shaping';

/** The subscriber's page, where a pending charge is settled. */
export const subscriberPath = (id: number) => `/dashboard/subscription-user-detail-form/${id}`;

/** The home on a desktop: unit and period, key figures, charts and the club. */
export function DesktopHome() {
  const scope = useHomeScope();
  const [period, setPeriod] = useState<Period>('today');
  // null: the shell's selected unit; '' every unit; otherwise a unit's id.
  const [chosenUnit, setChosenUnit] = useState<string | null>(null);
  const allowAll = mayChooseAllUnits(scope.role, scope.companies.length);
  const unit = chosenUnit ?? String(scope.company?.IdCompany ?? '');
  const unitOptions = [
    ...(allowAll ? [{ value: '', label: ALL_UNITS }] : []),
    ...scope.companies.map((c) => ({ value: String(c.IdCompany), label: c.Name })),
  ];
  const { data, isFetching } = useGetDashboardQuery({ period, idCompany: unit ? Number(unit) : null });

  return (
    <section className="page home" aria-busy={isFetching || undefined}>
      <h1 className="page-title">Início</h1>
      <div className="home-filters">
        <SelectField
          label="Unidade"
          className="home-unit"
          options={unitOptions}
          value={unit}
          disabled={unitOptions.length <= 1}
          onChange={(event) => setChosenUnit(event.target.value)}
        />
        <ToggleGroup label="Período" options={PERIOD_OPTIONS} value={period} onChange={setPeriod} />
      </div>
      {data ? (
        <div className={isFetching ? 'home-stale' : undefined}>
          <Figures data={data} />
        </div>
      ) : (
        isFetching && <p className="page-loading">Carregando...</p>
      )}
    </section>
  );
}

function Figures({ data }: { data: Dashboard }) {
  const { Totals, Received } = data;
  const days = useMemo(() => dayBars(data.Days), [data.Days]);
  const received = useMemo(() => receivedDayBars(data.Days, Received.Days), [data.Days, Received.Days]);
  const map = useMemo(() => heatMap(data.BusyHours), [data.BusyHours]);
  const figures: Figure[] = [
    { label: 'Agendamentos', value: Totals.Appointments },
    { label: 'Atendidos', value: Totals.Attended },
    { label: 'Não compareceram', value: Totals.NoShows, detail: percentText(Totals.NoShowRate) },
    { label: 'Cancelamentos', value: Totals.Cancelled, detail: percentText(Totals.CancellationRate) },
    { label: 'Receita prevista', value: formatBRL(Totals.ExpectedRevenue) },
    { label: 'Recebido', value: formatBRL(Received.Total) },
    ...(data.Own || Totals.NewClients == null ? [] : [{ label: 'Novos clientes', value: Totals.NewClients }]),
  ];
  // Side by side: per day, per professional, per service and method. A barber's own home
  // has no methods, and its only professional is the barber (the 'Recebido' figure).
  return (
    <>
      <KeyFigures figures={figures} label="Números do período" />
      <LowStockCard items={data.LowStock} />
      <div className="home-grid">
        <DaysChart bars={days} empty={!hasDayData(days)} />
        <ReceivedDaysChart bars={received} empty={!hasReceivedData(received)} />
        <OccupancyChart bars={occupancyBars(data.Occupancy)} />
        {!data.Own && <ReceivedProfessionalsChart bars={professionalReceivedBars(Received.Professionals, data.Occupancy)} />}
        <CommissionsChart title={commissionTitle(data.Commissions)} bars={commissionBars(data.Commissions, data.Occupancy)} />
        <ServicesChart bars={serviceBars(data.Services)} />
        {!data.Own && <MethodsChart bars={methodBars(Received.Methods)} />}
        <BusyHoursMap map={map} />
      </div>
      {data.Club && <Club club={data.Club} />}
    </>
  );
}

function Club({ club }: { club: DashboardClub }) {
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
      <div className="home-grid">
        <ClubMonthsChart bars={months} empty={!hasMonthData(months)} />
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
      </div>
    </section>
  );
}
