import { useMemo } from 'react';
import {
  BusyHoursMap,
  DaysChart,
  CommissionsChart,
  MethodsChart,
  OccupancyChart,
  ReceivedDaysChart,
  ReceivedProfessionalsChart,
  ServicesChart,
} from './charts';
import { Club } from './Club';
import { FilterBar } from './FilterBar';
import { useGetDashboardQuery, type Dashboard } from './homeApi';
import { LowStockCard } from './LowStockCard';
import { PeriodFigures } from './PeriodFigures';
import { RemindersCard } from './Reminders';
import type { HomeFilters, HomeScope } from './scope';
import {
  commissionBars,
  commissionTitle,
  dayBars,
  hasDayData,
  hasReceivedData,
  heatMap,
  methodBars,
  occupancyBars,
  professionalReceivedBars,
  receivedDayBars,
  serviceBars,
} from './shaping';

/** The home on a desktop: unit and period, key figures, the reminders' confirmation, charts and the club. */
export function DesktopHome({ scope, filters }: { scope: HomeScope; filters: HomeFilters }) {
  const { data, isFetching } = useGetDashboardQuery({ period: filters.period, idCompany: filters.idCompany });

  return (
    <section className="page home" aria-busy={isFetching || undefined}>
      <h1 className="page-title">Início</h1>
      <FilterBar filters={filters} />
      {data ? (
        <div className={isFetching ? 'home-stale' : undefined}>
          <Figures data={data} scope={scope} filters={filters} />
        </div>
      ) : (
        isFetching && <p className="page-loading">Carregando...</p>
      )}
    </section>
  );
}

function Figures({ data, scope, filters }: { data: Dashboard; scope: HomeScope; filters: HomeFilters }) {
  const { Received } = data;
  const days = useMemo(() => dayBars(data.Days), [data.Days]);
  const received = useMemo(() => receivedDayBars(data.Days, Received.Days), [data.Days, Received.Days]);
  const map = useMemo(() => heatMap(data.BusyHours), [data.BusyHours]);
  // Side by side: per day, per professional, per service and method. A barber's own home
  // has no methods, and its only professional is the barber (the 'Recebido' figure).
  return (
    <>
      <PeriodFigures data={data} />
      <RemindersCard scope={scope} filters={filters} />
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
