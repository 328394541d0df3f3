import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useGetCompaniesQuery, useMemberCompanies } from '@/api/companiesApi';
import { SelectField } from '@/components/form/fields';
import { DataTable, LIST_PAGE_SIZE, ListFilters, ListPage, useListFilters, type Column } from '@/components/list/ListPage';
import { TextField } from '@/components/TextField';
import { formatDateBR, todayIso } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { useAppSelector } from '@/state/hooks';
import { selectRoleType, selectUnitTimeZone } from '@/state/sessionSlice';
import { useGetComandasQuery } from './comandasApi';
import { comandaPath, mayOperate, STATUS_FILTER_OPTIONS, statusBadge, statusLabel } from './model';
import { NewComandaModal } from './NewComandaModal';
import type { ComandaListItem, ComandaStatus } from './types';
import './comandas.css';

/** Comandas: the day's (today on the unit's clock by default), by unit and status; 'Nova comanda' for the desk. */
export default function ComandaListPage() {
  const navigate = useNavigate();
  const canOperate = mayOperate(useAppSelector(selectRoleType));
  const today = todayIso(Date.now(), useAppSelector(selectUnitTimeZone));
  const filters = useListFilters({ idCompany: '', date: today, status: '' });
  const [opening, setOpening] = useState(false);
  const units = useMemberCompanies();
  // Every unit the user may see names a row, theirs or not.
  const { data: allUnits } = useGetCompaniesQuery();
  const unitName = (id: number) => allUnits?.find((unit) => unit.IdCompany === id)?.Name ?? `Unidade ${id}`;
  const { data, isFetching } = useGetComandasQuery({
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
    idCompany: filters.applied.idCompany,
    date: filters.applied.date,
    status: filters.applied.status as '' | ComandaStatus,
  });

  const columns: Column<ComandaListItem>[] = [
    { header: 'Número', cell: (comanda) => comanda.IdComanda },
    { header: 'Unidade', cell: (comanda) => unitName(comanda.IdCompany) },
    { header: 'Dia', cell: (comanda) => formatDateBR(comanda.OpenedOn) },
    {
      header: 'Status',
      cell: (comanda) => <span className={`badge ${statusBadge(comanda.Status)}`}>{statusLabel(comanda.Status)}</span>,
    },
    { header: 'Total', cell: (comanda) => formatBRL(comanda.Total) },
    { header: 'Pago', cell: (comanda) => formatBRL(comanda.Paid) },
  ];

  return (
    <>
      <ListPage
        title="Comandas"
        actions={
          canOperate && (
            <button type="button" className="button button-primary" onClick={() => setOpening(true)}>
              Nova comanda
            </button>
          )
        }
        filters={
          <ListFilters onSearch={filters.search} onClear={filters.clear}>
            <SelectField
              label="Unidade"
              options={[{ value: '', label: 'Todas' }, ...(units ?? []).map((unit) => ({ value: String(unit.IdCompany), label: unit.Name }))]}
              {...filters.field('idCompany')}
            />
            <TextField label="Dia" type="date" max="9999-12-31" {...filters.field('date')} />
            <SelectField label="Status" options={STATUS_FILTER_OPTIONS} {...filters.field('status')} />
          </ListFilters>
        }
        table={
          <DataTable
            label="Comandas"
            columns={columns}
            rows={data?.content}
            rowKey={(comanda) => comanda.IdComanda}
            onRowClick={(comanda) => navigate(comandaPath(comanda.IdComanda))}
            emptyText="Nenhum registro encontrado"
            loading={isFetching}
          />
        }
        page={filters.page}
        total={data?.total}
        onPage={filters.setPage}
      />
      {opening && <NewComandaModal onClose={() => setOpening(false)} />}
    </>
  );
}
