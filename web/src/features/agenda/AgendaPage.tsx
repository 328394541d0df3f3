import { skipToken } from '@reduxjs/toolkit/query';
import { useGetCompaniesQuery } from '@/api/companiesApi';
import { useLiveChanges } from '@/api/liveChanges';
import { useAppDispatch, useAppSelector } from '@/app/store';
import { Icon } from '@/components/Icon';
import { isPast } from '@/lib/dates';
import { useGetUnitProfessionalsQuery } from './agendaApi';
import { dayChosen, modalOpened, selectAgenda, viewChosen } from './agendaSlice';
import { AgendaFilters } from './AgendaFilters';
import { AppointmentCard } from './AppointmentCard';
import { AgendaAppointmentModal } from './AppointmentModal';
import { DayNavigator } from './DayNavigator';
import { EMPTY_AGENDA, timelineColumns, useDay } from './day';
import { useAgendaScope, useNarrowScreen, useNow } from './hooks';
import { MobileScheduling } from './MobileScheduling';
import { Timeline } from './Timeline';
import { NOW_LINE_REFRESH_MS } from './timeline';
import type { DayItem } from './types';
import { useDayActions } from './useDayActions';
import { useGridActions } from './useGridActions';
import { CHOOSE_PROFESSIONAL_FOR_WEEK, WeekView } from './WeekView';
import { weekOf } from './timeline';


/** /dashboard/scheduling: the desktop agenda, or the mobile screen at 700 px or less. */
export default function AgendaPage() {
  const narrow = useNarrowScreen();
  // Re-read the unit list (a new unit shows without signing in again).
  useGetCompaniesQuery();
  // Other desks' bookings, moves, confirmations and cancellations show without a reload.
  useLiveChanges();
  return narrow ? <MobileScheduling /> : <DesktopAgenda />;
}

function DesktopAgenda() {
  const dispatch = useAppDispatch();
  const now = useNow(NOW_LINE_REFRESH_MS);
  const scope = useAgendaScope(now);
  const agenda = useAppSelector(selectAgenda);
  const professionals = useGetUnitProfessionalsQuery(scope.company?.IdCompany ?? skipToken);
  const { items, loaded } = useDay(scope, agenda.status, agenda.idUser);
  const { actions, dialogs } = useDayActions();
  const past = (item: DayItem) => isPast(item.Date, item.StartTime, now);
  const companyName = scope.company?.Name ?? '';
  const weekProfessional = (professionals.data ?? []).find((p) => p.IdProfessional === scope.professional);
  const days = agenda.view === 'week' ? weekOf(scope.date) : agenda.view === 'timeline' ? [scope.date] : null;
  const { grid, dialogs: gridDialogs } = useGridActions(scope, professionals.data ?? [], days);
  // The toggle shows when the day has appointments (spec 01 §2), and stays while a grid is
  // open, so that an empty day's slots can be clicked and the week left.
  const showToggle = items.length > 0 || agenda.view !== 'list';

  return (
    <section className="page agenda">
      <header className="agenda-header">
        <h1 className="page-title">Agenda</h1>
        <DayNavigator date={scope.date} today={scope.today} onChange={(iso) => dispatch(dayChosen(iso))} />
      </header>
      <AgendaFilters scope={scope} professionals={professionals.data ?? []} />

      {showToggle && (
        <div className="view-toggle" role="group" aria-label="Visualização">
          <button
            type="button"
            className={`toggle-button${agenda.view === 'list' ? ' toggle-button-on' : ''}`}
            aria-pressed={agenda.view === 'list'}
            onClick={() => dispatch(viewChosen('list'))}
          >
            <Icon name="list" /> Lista
          </button>
          <button
            type="button"
            className={`toggle-button${agenda.view === 'timeline' ? ' toggle-button-on' : ''}`}
            aria-pressed={agenda.view === 'timeline'}
            onClick={() => dispatch(viewChosen('timeline'))}
          >
            <Icon name="timeline" /> Linha do tempo
          </button>
          <button
            type="button"
            className={`toggle-button${agenda.view === 'week' ? ' toggle-button-on' : ''}`}
            aria-pressed={agenda.view === 'week'}
            onClick={() => dispatch(viewChosen('week'))}
          >
            <Icon name="calendar" /> Semana
          </button>
        </div>
      )}

      {loaded && items.length === 0 && agenda.view === 'list' && <p className="empty">{EMPTY_AGENDA}</p>}
      {items.length > 0 && agenda.view === 'list' && (
        <div className="appointment-list" role="list" aria-label="Agendamentos">
          {items.map((item) => (
            <div role="listitem" key={item.IdScheduling}>
              <AppointmentCard item={item} companyName={companyName} past={past(item)} {...actions} />
            </div>
          ))}
        </div>
      )}
      {loaded && agenda.view === 'timeline' && (
        <Timeline
          items={items}
          columns={timelineColumns(professionals.data ?? [], items, scope.professional)}
          date={scope.date}
          today={scope.today}
          now={now}
          isPast={past}
          {...actions}
          {...grid}
        />
      )}
      {agenda.view === 'week' &&
        (weekProfessional ? (
          <WeekView
            scope={scope}
            professional={weekProfessional}
            days={days ?? []}
            status={agenda.status}
            idUser={agenda.idUser}
            now={now}
            isPast={past}
            grid={grid}
            {...actions}
          />
        ) : (
          <p className="empty">{CHOOSE_PROFESSIONAL_FOR_WEEK}</p>
        ))}

      <button type="button" className="fab" aria-label="Novo agendamento" onClick={() => dispatch(modalOpened(null))}>
        <Icon name="add" size={28} />
      </button>
      <AgendaAppointmentModal scope={scope} />
      {dialogs}
      {gridDialogs}
    </section>
  );
}
