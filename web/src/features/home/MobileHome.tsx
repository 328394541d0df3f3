import { skipToken } from '@reduxjs/toolkit/query';
import { useId } from 'react';
import { Link } from 'react-router';
import { minutesNow, shortTime, todayIso, weekdayDateBR } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { useGetDashboardQuery, useGetTodayAppointmentsQuery } from './homeApi';
import { KeyFigures } from './KeyFigures';
import { LowStockCard } from './LowStockCard';
import { useHomeScope, useMinuteClock } from './scope';
import { commissionsTotal, nextAppointments, NO_NEXT_APPOINTMENT, percentText, seesOwnOnly, totalOccupancy } from './shaping';

/** The home at 700 px or less: today's four figures and next appointments of the shell's unit. */
export function MobileHome() {
  const scope = useHomeScope();
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
  const listId = useId();
  const totals = figures.data?.Totals;

  return (
    <section className="page home home-mobile" aria-busy={figures.isFetching || day.isFetching || undefined}>
      <h1 className="page-title">Início</h1>
      <p className="home-today muted">
        {scope.company ? `${scope.company.Name} · ` : ''}
        {weekdayDateBR(today)}
      </p>
      {figures.data && totals ? (
        <KeyFigures
          label="Números de hoje"
          className="home-figures-mobile"
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
    </section>
  );
}
