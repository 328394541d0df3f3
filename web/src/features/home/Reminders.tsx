import { skipToken } from '@reduxjs/toolkit/query';
import { useId, useMemo } from 'react';
import { todayIso } from '@/lib/dates';
import { ReminderDaysChart } from './charts';
import { useGetMessageSummaryQuery } from './homeApi';
import { useMinuteClock, type HomeFilters, type HomeScope } from './scope';
import {
  confirmationRateText,
  confirmedText,
  hasReminderData,
  mayReadReminders,
  periodDays,
  reminderDayBars,
} from './shaping';

/**
 * 'Confirmação dos lembretes' (issue 44), ADMIN only: of the WhatsApp reminders sent in the
 * home's period and unit, the share the clients confirmed; for the week and the 30 days, the
 * sent and confirmed ones per day too. The period's days are the unit's (with every unit, the
 * first one's, as GET dashboard counts them).
 */
export function RemindersCard({ scope, filters }: { scope: HomeScope; filters: HomeFilters }) {
  const now = useMinuteClock();
  const titleId = useId();
  const allowed = mayReadReminders(scope.role);
  const unit = scope.companies.find((c) => c.IdCompany === filters.idCompany) ?? scope.companies[0];
  const { start, end } = periodDays(filters.period, todayIso(now, unit?.TimeZone));
  // Another role would be answered 403: nothing is asked.
  const { data, isFetching, isError } = useGetMessageSummaryQuery(
    allowed ? { idCompany: filters.idCompany, start, end } : skipToken,
  );
  const perDay = filters.period !== 'today';
  const bars = useMemo(() => (data && perDay ? reminderDayBars(data.Days, start, end) : []), [data, perDay, start, end]);

  if (!allowed) return null;
  return (
    <section className="home-card home-reminders" aria-labelledby={titleId} aria-busy={isFetching || undefined}>
      <h2 id={titleId} className="home-card-title">
        Confirmação dos lembretes
      </h2>
      {data ? (
        <div className={`home-reminders-body${isFetching ? ' home-stale' : ''}`}>
          <dl className="home-reminders-figure">
            <dt>Taxa de confirmação</dt>
            <dd>
              <span className="home-figure-value" data-testid="home-reminders-rate">
                {confirmationRateText(data.Totals.ConfirmationRate)}
              </span>
              <span className="home-figure-detail">{confirmedText(data.Totals)}</span>
            </dd>
          </dl>
          {hasReminderData(bars) && (
            <div className="home-reminders-chart">
              <ReminderDaysChart bars={bars} />
            </div>
          )}
        </div>
      ) : isError && !isFetching ? (
        <p className="home-empty">Não foi possível carregar os lembretes.</p>
      ) : (
        <p className="page-loading">Carregando...</p>
      )}
    </section>
  );
}
