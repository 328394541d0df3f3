import { Link, useNavigate } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import {
  DataTable,
  LIST_PAGE_SIZE,
  ListFilters,
  ListPage,
  useListFilters,
  type Column,
} from '@/components/list/ListPage';
import { TextField } from '@/components/TextField';
import { formatDateBR } from '@/lib/dates';
import { selectRoleType } from '@/state/sessionSlice';
import { useGetHolidaysQuery } from './holidaysApi';
import { mayEditHolidays } from './schema';
import type { Holiday } from './types';
import './holidays.css';

export const HOLIDAYS_PATH = '/dashboard/holiday';

/** 'dd/mm/aaaa', with the time when the holiday is a time window. */
export const holidayMoment = (date: string, time?: string | null) =>
  time ? (
    <>
      {formatDateBR(date.slice(0, 10))} <span className="holiday-time">{time}</span>
    </>
  ) : (
    formatDateBR(date.slice(0, 10))
  );

const columns: Column<Holiday>[] = [
  { header: 'Descrição', cell: (holiday) => holiday.Description },
  { header: 'Início', cell: (holiday) => holidayMoment(holiday.StartDate, holiday.AllDay ? null : holiday.StartTime) },
  { header: 'Fim', cell: (holiday) => holidayMoment(holiday.EndDate, holiday.AllDay ? null : holiday.EndTime) },
];

/** Holidays: search by description, newest first, 5 per page. */
export default function HolidayListPage() {
  const navigate = useNavigate();
  const canEdit = mayEditHolidays(useAppSelector(selectRoleType));
  const filters = useListFilters({ search: '' });
  const { data, isFetching } = useGetHolidaysQuery({
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
    search: filters.applied.search,
  });

  return (
    <ListPage
      title="Feriados"
      actions={
        canEdit && (
          <Link className="button button-primary" to={`${HOLIDAYS_PATH}/new`}>
            Novo feriado
          </Link>
        )
      }
      filters={
        <ListFilters onSearch={filters.search} onClear={filters.clear}>
          <TextField
            label="Busque pela descrição"
            variant="search"
            autoComplete="off"
            {...filters.field('search')}
          />
        </ListFilters>
      }
      table={
        <DataTable
          label="Feriados"
          columns={columns}
          rows={data?.content}
          rowKey={(holiday) => holiday.IdHoliday}
          onRowClick={(holiday) => navigate(`${HOLIDAYS_PATH}/${holiday.IdHoliday}`)}
          emptyText="Nenhum registro encontrado"
          loading={isFetching}
        />
      }
      page={filters.page}
      total={data?.total}
      onPage={filters.setPage}
    />
  );
}
