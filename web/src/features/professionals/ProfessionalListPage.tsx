import { Link, useNavigate } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import { Icon } from '@/components/Icon';
import { TextField } from '@/components/TextField';
import { SelectField } from '@/components/form/fields';
import {
  DataTable,
  LIST_PAGE_SIZE,
  ListFilters,
  ListPage,
  STATUS_FILTER_OPTIONS,
  stopRowClick,
  useListFilters,
  type Column,
} from '@/components/list/ListPage';
import { formatPhone } from '@/lib/masks';
import { whatsAppLink } from '@/lib/whatsapp';
import { selectRoleType } from '@/state/sessionSlice';
import { PROFESSIONAL_STATUS_LABEL } from './palette';
import { useFilterProfessionalsQuery } from './professionalsApi';
import type { ProfessionalItem } from './types';
import './professionals.css';

// Every status at first: a professional is created pending, and saving returns here.
const DEFAULT_FILTERS = { search: '', status: '' };

const statusClass = (status: number) => (status === 1 ? 'status-active' : status === 2 ? 'status-inactive' : 'status-pending');

/** Professionals list (spec 02 §2 'Professionals list and detail'). */
export default function ProfessionalListPage() {
  const navigate = useNavigate();
  const isAdmin = useAppSelector(selectRoleType) === 'ADMIN';
  const filters = useListFilters(DEFAULT_FILTERS);
  const { data, isFetching } = useFilterProfessionalsQuery({
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
    ...filters.applied,
  });

  const open = (row: ProfessionalItem) => navigate(`/dashboard/professional/${row.IdProfessional}`);
  const columns: Column<ProfessionalItem>[] = [
    { header: 'Nome', cell: (row) => row.Name },
    { header: 'Telefone', cell: (row) => formatPhone(row.Phone) },
    { header: 'E-mail', cell: (row) => row.Email },
    {
      header: 'Status',
      cell: (row) => <span className={statusClass(row.Status)}>{PROFESSIONAL_STATUS_LABEL[row.Status] ?? row.Status}</span>,
    },
    {
      header: 'Ações',
      className: 'table-actions',
      cell: (row) => (
        <>
          <Link
            to={`/dashboard/professional/${row.IdProfessional}`}
            className="icon-button"
            aria-label={`Editar ${row.Name}`}
            title="Editar"
            {...stopRowClick}
          >
            <Icon name="edit" />
          </Link>
          {row.Phone && (
            <a
              href={whatsAppLink(row.Phone)}
              target="_blank"
              rel="noreferrer"
              className="icon-button whatsapp-link"
              aria-label={`WhatsApp de ${row.Name}`}
              title="WhatsApp"
              {...stopRowClick}
            >
              <Icon name="whatsapp" />
            </a>
          )}
        </>
      ),
    },
  ];

  return (
    <ListPage
      title="Profissionais"
      actions={
        isAdmin && (
          <Link to="/dashboard/professional/new" className="button button-primary link-button">
            <Icon name="add" /> Novo profissional
          </Link>
        )
      }
      filters={
        <ListFilters onSearch={filters.search} onClear={filters.clear}>
          <TextField
            label="Busque pelo nome, telefone, e-mail ou CPF"
            variant="search"
            className="professional-search"
            {...filters.field('search')}
          />
          <SelectField
            label="Status"
            options={STATUS_FILTER_OPTIONS}
            {...filters.field('status')}
          />
        </ListFilters>
      }
      table={
        <DataTable
          label="Profissionais"
          columns={columns}
          rows={data?.content}
          rowKey={(row) => row.IdProfessional}
          onRowClick={open}
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
