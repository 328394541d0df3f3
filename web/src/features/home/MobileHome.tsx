import { skipToken } from '@reduxjs/toolkit/query';
import { useId } from 'react';
import { Link } from 'react-router';
import { minutesNow, shortTime, todayIso, weekdayDateBR } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { Club } from './Club';
import { FilterBar } from './FilterBar';
import { useGetDashboardQuery, useGetTodayAppointmentsQuery } from './homeApi';
import { KeyFigures } from './KeyFigures';
import { LowStockCard } from './LowStockCard';
import { PeriodFigures } from './PeriodFigures';
import { RemindersCard } from './Reminders';
import { useMinuteClock, type HomeFilters, type HomeScope } from './scope';
import { commissionsTotal, nextAppointments, NO_NEXT_APPOINTMENT, percentText, seesOwnOnly, totalOccupancy } from './shaping';

/**
 * The home at 700 px or less. First today in the shell's unit, the one 'Abrir agenda' opens:
 * its figures, the next appointments. Then what the desktop shows without its charts (issue
 * 45, the owner on a phone): the unit and period switches, the period's key figures and the
 * club with its pending payments; the owner, the reminders' confirmation too (issue 44, with
 * its small chart per day).
 */
export function MobileHome({ scope, filters }: { scope: HomeScope; filters: HomeFilters }) {
  const now = useMinuteClock();
  const timeZone = scope.company?.TimeZone;
  const today = todayIso(now, timeZone);
  const idCompany = scope.company?.IdCompany ?? null;
  const figures = useGetDashboardQuery({ period: 'today', idCompany });
  const own = seesOwnOnly(scope.role) && scope.idProfessional !== null;
  const day = useGetTodayAppointmentsQuery(
    idCompany === null ? skipToken : { idCompany, date: today, idProfessional: own ? scope.idProfessional : null },
  );
  const next = nextAppointments(day.data ?? [], today, minutesNow(now, timeZone));
  const period = useGetDashboardQuery({ period: filters.period, idCompany: filters.idCompany });
  const listId = useId();
  const periodId = useId();
  const totals = figures.data?.Totals;

  return (
    <section className="page home home-mobile" aria-busy={figures.isFetching || day.isFetching || period.isFetching || undefined}>
      <h1 className="page-title">Início</h1>
      <p className="home-today muted">
        {scope.company ? `${scope.company.Name} · ` : ''}
        {weekdayDateBR(today)}
      </p>
      {figures.data && totals ? (
        <KeyFigures
          label="Números de hoje"
          // Two by two: the day's work, then its money (expected beside received).
          figures={[
            { label: 'Agendamentos hoje', value: totals.Appointments },
            { label: 'Ocupação', value: percentText(totalOccupancy(figures.data.Occupancy)) },
            { label: 'Receita prevista', value: formatBRL(totals.ExpectedRevenue) },
            { label: 'Recebido', value: formatBRL(figures.data.Received.Total) },
            // Issue 42: a barber's own month so far; the unit's period for the front desk.
            {
              label: figures.data.Own ? 'Minhas comissões no mês' : 'Comissões no período',
              value: formatBRL(commissionsTotal(figures.data.Commissions)),
            },
          ]}
        />
      ) : (
        figures.isFetching && <p className="page-loading">Carregando...</p>
      )}
      <LowStockCard items={figures.data?.LowStock} />
      <section className="home-card" aria-labelledby={listId}>
        <h2 id={listId} className="home-card-title">
          Próximos agendamentos
        </h2>
        {day.data === undefined ? (
          day.isFetching && <p className="page-loading">Carregando...</p>
        ) : next.length === 0 ? (
          <p className="home-empty">{NO_NEXT_APPOINTMENT}</p>
        ) : (
          <ul className="home-next" aria-labelledby={listId}>
            {next.map((item) => (
              <li key={item.IdScheduling} className="home-next-item" style={{ borderLeftColor: item.ProfessionalColor || undefined }}>
                <span className="home-next-time">{shortTime(item.StartTime)}</span>
                <span className="home-next-client">{item.UserName}</span>
                <span className="home-next-services">{item.Services.join(', ')}</span>
                <span className="home-next-professional">{item.ProfessionalName}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Link className="button button-primary home-open-agenda" to="/dashboard/scheduling">
        Abrir agenda
      </Link>
      <section className="home-period" aria-labelledby={periodId}>
        <h2 id={periodId} className="home-section-title">
          Resumo do período
        </h2>
        <FilterBar filters={filters} />
        {period.data ? (
          <div className={period.isFetching ? 'home-stale' : undefined}>
            <PeriodFigures data={period.data} />
            <RemindersCard scope={scope} filters={filters} />
            {period.data.Club && <Club club={period.data.Club} compact />}
          </div>
        ) : (
          period.isFetching && <p className="page-loading">Carregando...</p>
        )}
      </section>
    </section>
  );
}
