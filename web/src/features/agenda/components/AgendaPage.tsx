import { skipToken } from '@reduxjs/toolkit/query';
import { useGetCompaniesQuery } from '@/api/companiesApi';
import { useLiveChanges } from '@/api/liveChanges';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { Icon } from '@/components/Icon';
import { ToggleGroup, type ToggleOption } from '@/components/ToggleGroup';
import { useNarrowScreen } from '@/components/useNarrowScreen';
import { isPast } from '@/lib/dates';
import { useGetUnitProfessionalsQuery } from '../api/agendaApi';
import { dayChosen, modalOpened, pastViewChosen, selectAgenda, viewChosen, type AgendaState } from '../model/agendaSlice';
import { AgendaFilters } from './AgendaFilters';
import { AppointmentCard } from './AppointmentCard';
import { AgendaAppointmentModal } from './AppointmentModal';
import { DayNavigator } from './DayNavigator';
import { EMPTY_AGENDA, timelineColumns, useDay } from '../model/day';
import { useAgendaOpensOnLastUnit, useAgendaScope, useNow } from '../hooks/hooks';
import { MobileScheduling } from './MobileScheduling';
import { PAST_VIEW, openingInstant } from '../model/pastView';
import { PastViewBar } from './PastViewBar';
import { Timeline } from './Timeline';
import { NOW_LINE_REFRESH_MS } from '../model/timeline';
import type { DayItem } from '../model/types';
import { useDayActions } from '../hooks/useDayActions';
import { useGridActions } from '../hooks/useGridActions';
import { CHOOSE_PROFESSIONAL_FOR_WEEK, WeekView } from './WeekView';
import { weekOf } from '../model/timeline';


/** The agenda's views (spec 01 §2: list and timeline; issue 14: the week). */
const VIEWS: ToggleOption<AgendaState['view']>[] = [
  { value: 'list', label: <><Icon name="list" /> Lista</> },
  { value: 'timeline', label: <><Icon name="timeline" /> Linha do tempo</> },
  { value: 'week', label: <><Icon name="calendar" /> Semana</> },
];

/** /dashboard/scheduling: the desktop agenda, or the mobile screen at 700 px or less. */
export default function AgendaPage() {
  const narrow = useNarrowScreen();
  // Re-read the unit list (a new unit shows without signing in again).
  useGetCompaniesQuery();
  // Other desks' bookings, moves, confirmations and cancellations show without a reload.
  useLiveChanges();
  // The unit the user last chose in the agenda (issue 45).
  useAgendaOpensOnLastUnit();
  return narrow ? <MobileScheduling /> : <DesktopAgenda />;
}

function DesktopAgenda() {
  const dispatch = useAppDispatch();
  const now = useNow(NOW_LINE_REFRESH_MS);
  const scope = useAgendaScope(now);
  const agenda = useAppSelector(selectAgenda);
  const professionals = useGetUnitProfessionalsQuery(scope.company?.IdCompany ?? skipToken);
  // ADMIN's past view (the server answers 403 to everyone else): read-only, from the events.
  const mayLookBack = scope.role === 'ADMIN';
  const asOf = mayLookBack ? agenda.asOf : null;
  const { items, loaded } = useDay(scope, agenda.status, agenda.idUser, asOf);
  const { actions, dialogs } = useDayActions(scope.company?.IdCompany ?? null);
  const past = (item: DayItem) => isPast(item.Date, item.StartTime, now);
  const companyName = scope.company?.Name ?? '';
  const weekProfessional = (professionals.data ?? []).find((p) => p.IdProfessional === scope.professional);
  const days = agenda.view === 'week' ? weekOf(scope.date) : agenda.view === 'timeline' ? [scope.date] : null;
  const { grid, dialogs: gridDialogs } = useGridActions(scope, professionals.data ?? [], days, now);
  // The toggle shows when the day has appointments (spec 01 §2), and stays while a grid is
  // open, so that an empty day's slots can be clicked and the week left.
  const showToggle = items.length > 0 || agenda.view !== 'list';

  return (
    <section className={`page agenda${asOf ? ' agenda-past' : ''}`}>
      <header className="agenda-header">
        <div className="agenda-title">
          <h1 className="page-title">Agenda</h1>
          {mayLookBack && !asOf && (
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => dispatch(pastViewChosen(openingInstant(now)))}
            >
              <Icon name="history" size={18} /> {PAST_VIEW}
            </button>
          )}
        </div>
        <DayNavigator date={scope.date} today={scope.today} onChange={(iso) => dispatch(dayChosen(iso))} />
      </header>
      {asOf && (
        <PastViewBar
          date={scope.date}
          asOf={asOf}
          now={now}
          onChange={(instant) => dispatch(pastViewChosen(instant))}
          onClose={() => dispatch(pastViewChosen(null))}
        />
      )}
      <AgendaFilters scope={scope} professionals={professionals.data ?? []} />

      {showToggle && (
        <ToggleGroup label="Visualização" options={VIEWS} value={agenda.view} onChange={(view) => dispatch(viewChosen(view))} />
      )}

      {loaded && items.length === 0 && agenda.view === 'list' && <p className="empty">{EMPTY_AGENDA}</p>}
      {items.length > 0 && agenda.view === 'list' && (
        <div className="appointment-list" role="list" aria-label="Agendamentos">
          {items.map((item) => (
            <div role="listitem" key={item.IdScheduling}>
              <AppointmentCard
                item={item}
                companyName={companyName}
                past={past(item)}
                today={scope.today}
                readOnly={Boolean(asOf)}
                {...actions}
              />
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
          readOnly={Boolean(asOf)}
          {...actions}
          {...(asOf ? {} : grid)}
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
            asOf={asOf}
            {...actions}
          />
        ) : (
          <p className="empty">{CHOOSE_PROFESSIONAL_FOR_WEEK}</p>
        ))}

      {!asOf && (
        <button type="button" className="fab" aria-label="Novo agendamento" onClick={() => dispatch(modalOpened(null))}>
          <Icon name="add" size={28} />
        </button>
      )}
      <AgendaAppointmentModal scope={scope} />
      {dialogs}
      {gridDialogs}
    </section>
  );
}
