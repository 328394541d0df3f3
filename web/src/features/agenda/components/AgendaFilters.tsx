import { useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { SearchableSelect, type SelectOption } from '@/components/SearchableSelect';
import { useSearchClientsQuery } from '../api/agendaApi';
import { clientFiltered, professionalFiltered, selectAgenda, statusFiltered } from '../model/agendaSlice';
import { CLIENT_STATUS_ACTIVE } from './ClientSearch';
import { useChooseAgendaUnit, useDebounced, type AgendaScope } from '../hooks/hooks';
import { STATUS_OPTIONS, type UnitProfessional } from '../model/types';

/** How many clients the Cliente filter offers per search. */
export const CLIENT_FILTER_SIZE = 20;

interface AgendaFiltersProps {
  scope: AgendaScope;
  professionals: UnitProfessional[];
}

/** Barbearia, Profissional, Cliente and Status, with the role rules of spec 01 §6. */
export function AgendaFilters({ scope, professionals }: AgendaFiltersProps) {
  const dispatch = useAppDispatch();
  const agenda = useAppSelector(selectAgenda);
  const chooseUnit = useChooseAgendaUnit();
  const companyOptions = scope.companies.map((c) => ({
    value: c.IdCompany,
    label: c.Name,
    detail: `${c.City} - ${c.State}`,
  }));

  return (
    <div className="agenda-filters" role="group" aria-label="Filtros">
      <SearchableSelect
        label="Barbearia"
        options={companyOptions}
        value={scope.company?.IdCompany ?? null}
        disabled={!scope.mayChangeCompany}
        onChange={chooseUnit}
      />
      <ProfessionalFilter scope={scope} professionals={professionals} />
      <ClientFilter />
      <SearchableSelect
        label="Status"
        options={STATUS_OPTIONS}
        value={agenda.status}
        onChange={(status) => dispatch(statusFiltered(status))}
      />
    </div>
  );
}

/** 'Todos' or one professional for the roles that choose any (spec 01 §6); the others see themselves. */
export function ProfessionalFilter({ scope, professionals }: AgendaFiltersProps) {
  const dispatch = useAppDispatch();
  const agenda = useAppSelector(selectAgenda);
  const userName = useAppSelector((state) => state.session.userName);
  const options: SelectOption<number>[] = scope.mayChooseAnyProfessional
    ? [{ value: 0, label: 'Todos' }, ...professionals.map((p) => ({ value: p.IdProfessional, label: p.Name }))]
    : [
        {
          value: scope.idProfessional ?? 0,
          label: professionals.find((p) => p.IdProfessional === scope.idProfessional)?.Name ?? userName,
        },
      ];
  return (
    <SearchableSelect
      label="Profissional"
      options={options}
      value={scope.mayChooseAnyProfessional ? agenda.idProfessional : (scope.idProfessional ?? 0)}
      disabled={!scope.mayChooseAnyProfessional}
      onChange={(id) => dispatch(professionalFiltered(id))}
    />
  );
}

/** 'Todos' or one client, searched on the server as the user types. */
export function ClientFilter() {
  const dispatch = useAppDispatch();
  const { idUser, clientName } = useAppSelector(selectAgenda);
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 300);
  const { data } = useSearchClientsQuery({
    page: 1,
    pageSize: CLIENT_FILTER_SIZE,
    search,
    status: CLIENT_STATUS_ACTIVE,
  });
  const options = useMemo(() => {
    const found = (data?.content ?? []).map((c) => ({ value: c.IdUser, label: c.Name, detail: c.Email || undefined }));
    // The chosen client stays an option whatever the current search finds.
    if (idUser && !found.some((option) => option.value === idUser)) found.unshift({ value: idUser, label: clientName, detail: undefined });
    return [{ value: 0, label: 'Todos' }, ...found];
  }, [data, idUser, clientName]);

  return (
    <SearchableSelect
      label="Cliente"
      options={options}
      value={idUser}
      onSearch={setText}
      emptyText="Nenhum usuário encontrado"
      onChange={(id) =>
        dispatch(clientFiltered({ idUser: id, name: options.find((option) => option.value === id)?.label ?? '' }))
      }
    />
  );
}
