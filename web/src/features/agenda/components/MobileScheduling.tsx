import { skipToken } from '@reduxjs/toolkit/query';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Icon } from '@/components/Icon';
import { SearchableSelect } from '@/components/SearchableSelect';
import { TextField } from '@/components/TextField';
import { isPast } from '@/lib/dates';
import { onlyDigits } from '@/lib/masks';
import { signedOut } from '@/state/sessionSlice';
import { cancelledToggled, dayChosen, selectAgenda } from '../model/agendaSlice';
import { EMPTY_AGENDA, useDay } from '../model/day';
import { AppointmentCard } from './AppointmentCard';
import { ClientFilter, ProfessionalFilter } from './AgendaFilters';
import { useGetUnitProfessionalsQuery } from '../api/agendaApi';
import { AgendaAppointmentModal } from './AppointmentModal';
import { DayNavigator } from './DayNavigator';
import { useAgendaScope, useChooseAgendaUnit, useNow } from '../hooks/hooks';
import { MobileNewAppointment } from './MobileNewAppointment';
import { NOW_LINE_REFRESH_MS } from '../model/timeline';
import type { DayItem } from '../model/types';
import { MOBILE_DELETED_MESSAGE, useDayActions } from '../hooks/useDayActions';

/** Whether an appointment matches the list's search box (name, phone or service). */
export function matchesSearch(item: DayItem, text: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
  const needle = fold(text.trim());
  if (!needle) return true;
  // A phone is searched by its digits, whatever the mask typed.
  const phone = /^[\d\s()+-]+$/.test(needle) ? onlyDigits(needle) : '';
  return (
    fold(item.UserName).includes(needle) ||
    item.Services.some((service) => fold(service).includes(needle)) ||
    (phone.length > 0 && onlyDigits(item.UserPhone).includes(phone))
  );
}

/** The scheduling screen at 700 px or less. */
export function MobileScheduling() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const now = useNow(NOW_LINE_REFRESH_MS);
  const scope = useAgendaScope(now);
  const chooseUnit = useChooseAgendaUnit();
  const agenda = useAppSelector(selectAgenda);
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useState('');
  const [exiting, setExiting] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(false);
  // Read only while the filters are open: the folded list does not need them.
  const professionals = useGetUnitProfessionalsQuery(
    filtersOpen && scope.company ? scope.company.IdCompany : skipToken,
  );
  const { items, loaded } = useDay(scope, agenda.showCancelled ? 2 : 1, agenda.idUser);
  const { actions, dialogs } = useDayActions(scope.company?.IdCompany ?? null, () => MOBILE_DELETED_MESSAGE);
  const shown = items.filter((item) => matchesSearch(item, search));
  const cancelExit = useCallback(() => setExiting(false), []);

  return (
    <section className="page mobile-agenda">
      <header className="mobile-topbar">
        <SearchableSelect
          label="Filial"
          className="branch-select"
          options={scope.companies.map((c) => ({ value: c.IdCompany, label: c.Name, detail: `${c.City} - ${c.State}` }))}
          value={scope.company?.IdCompany ?? null}
          onChange={chooseUnit}
        />
        <button type="button" className="button button-secondary mobile-exit" onClick={() => setExiting(true)}>
          <Icon name="logout" /> Sair
        </button>
      </header>
      <DayNavigator compact date={scope.date} today={scope.today} onChange={(iso) => dispatch(dayChosen(iso))} />
      {/* Spec 01 §2: on mobile the filters fold away. The unit is the 'Filial' above and the
          status the confirmed/cancelled switch below, so the block holds the other two. */}
      {!creating && (
        <div className="mobile-filters">
          <button
            type="button"
            className="button button-secondary button-small"
            aria-expanded={filtersOpen}
            aria-controls="mobile-filters"
            onClick={() => setFiltersOpen((open) => !open)}
          >
            <Icon name="filter" /> {filtersOpen ? 'Fechar Filtros' : 'Abrir Filtros'}
          </button>
          {filtersOpen && (
            <div id="mobile-filters" className="agenda-filters" role="group" aria-label="Filtros">
              <ProfessionalFilter scope={scope} professionals={professionals.data ?? []} />
              <ClientFilter />
            </div>
          )}
        </div>
      )}

      {creating ? (
        <MobileNewAppointment
          idCompany={scope.company?.IdCompany ?? null}
          agendaDay={scope.date}
          onDone={(bookedDate) => {
            if (bookedDate) dispatch(dayChosen(bookedDate));
            setCreating(false);
          }}
        />
      ) : (
        <section className="mobile-list" aria-labelledby="mobile-list-title">
          <div className="mobile-list-head">
            <h2 id="mobile-list-title" className="section-title">
              Agendamentos
            </h2>
            <button type="button" className="button button-secondary button-small" onClick={() => dispatch(cancelledToggled())}>
              {agenda.showCancelled ? 'Visualizar confirmados' : 'Visualizar cancelados'}
            </button>
          </div>
          <TextField label="Buscar" variant="search" value={search} onChange={(event) => setSearch(event.target.value)} />
          {loaded && shown.length === 0 && <p className="empty">{EMPTY_AGENDA}</p>}
          <div className="appointment-list" role="list" aria-label="Agendamentos">
            {shown.map((item) => (
              <div role="listitem" key={item.IdScheduling}>
                <AppointmentCard
                  item={item}
                  companyName={scope.company?.Name ?? ''}
                  past={isPast(item.Date, item.StartTime, now)}
                  today={scope.today}
                  {...actions}
                />
              </div>
            ))}
          </div>
          <button type="button" className="fab" aria-label="Novo agendamento" onClick={() => setCreating(true)}>
            <Icon name="add" size={28} />
          </button>
        </section>
      )}

      <AgendaAppointmentModal scope={scope} />
      {dialogs}
      <ConfirmDialog
        open={exiting}
        title="Atencão!"
        confirmLabel="Sair"
        cancelLabel="Cancelar"
        onConfirm={() => {
          setExiting(false);
          dispatch(signedOut());
          navigate('/', { replace: true });
        }}
        onCancel={cancelExit}
      >
        <p>Deseja realmente sair ?</p>
      </ConfirmDialog>
    </section>
  );
}
