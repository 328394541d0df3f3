import { useNavigate } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import { SelectField } from '@/components/form/fields';
import { DataTable, LIST_PAGE_SIZE, ListFilters, ListPage, STATUS_FILTER_OPTIONS, useListFilters, type Column } from '@/components/list/ListPage';
import { TextField } from '@/components/TextField';
import { formatCnpj, formatPhone } from '@/lib/masks';
import { selectRoleType } from '@/state/sessionSlice';
import { useFilterCompaniesQuery } from './companyApi';
import type { CompanyListItem } from './types';
import './companies.css';

const COLUMNS: Column<CompanyListItem>[] = [
  { header: 'Empresa', cell: (c) => c.Name },
  { header: 'Telefone', cell: (c) => formatPhone(c.Phone) },
  { header: 'CNPJ', cell: (c) => formatCnpj(c.Cnpj) },
  {
    header: 'Status',
    cell: (c) => <span className={c.Status ? 'status-active' : 'status-inactive'}>{c.Status ? 'Ativo' : 'Inativo'}</span>,
  },
];

/** /dashboard/company: the units ('Empresas'), searched on the server, 5 per page. */
export default function CompanyListPage() {
  const navigate = useNavigate();
  const isAdmin = useAppSelector(selectRoleType) === 'ADMIN';
  // Spec 02 §2: status defaults to active, the search to empty.
  const filters = useListFilters({ search: '', status: '1' });
  const { data, isFetching } = useFilterCompaniesQuery({
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
    search: filters.applied.search.trim(),
    status: filters.applied.status,
  });

  return (
    <ListPage
      title="Empresas"
      actions={
        isAdmin && (
          <button type="button" className="button button-primary" onClick={() => navigate('/dashboard/company/new')}>
            Nova empresa
          </button>
        )
      }
      filters={
        <ListFilters onSearch={filters.search} onClear={filters.clear}>
          <TextField
            label="Busque pela unidade, telefone ou CNPJ"
            variant="search"
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
          label="Empresas"
          columns={COLUMNS}
          rows={data?.content}
          rowKey={(c) => c.IdCompany}
          onRowClick={(c) => navigate(`/dashboard/company/${c.IdCompany}`)}
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
