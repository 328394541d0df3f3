import { useState, type FormEvent, type ReactNode } from 'react';
import { Paginator } from '../Paginator';

/** Page size of every back-office list (spec 02 §9). */
export const LIST_PAGE_SIZE = 5;

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** e.g. 'table-actions' for the icon column. */
  className?: string;
}

interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  onRowClick?: (row: T) => void;
  emptyText: string;
  loading?: boolean;
  label: string;
}

/** The table of a list page; a row click opens the item, icon cells stop the click. */
export function DataTable<T>({ columns, rows, rowKey, onRowClick, emptyText, loading, label }: DataTableProps<T>) {
  return (
    <div className="table-wrap">
      <table className="table list-table" aria-label={label} aria-busy={loading || undefined}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row) => (
            <tr
              key={rowKey(row)}
              className={onRowClick ? 'table-row-selectable' : undefined}
              onClick={onRowClick ? () => onRowClick(row) : undefined}
            >
              {columns.map((column) => (
                <td key={column.header} data-label={column.header} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
          {rows && rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="table-empty">
                {emptyText}
              </td>
            </tr>
          )}
          {!rows && loading && (
            <tr>
              <td colSpan={columns.length} className="table-empty">
                Carregando...
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Stops a row's click from also opening the row (icon links and buttons inside it). */
export const stopRowClick = { onClick: (event: { stopPropagation: () => void }) => event.stopPropagation() };

interface ListFiltersProps {
  children: ReactNode;
  onSearch: () => void;
  onClear: () => void;
}

/** The filter bar: fields, 'Limpar' and 'Pesquisar'; Enter in a field searches. */
export function ListFilters({ children, onSearch, onClear }: ListFiltersProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <form className="list-filters" role="search" onSubmit={submit}>
      <div className="list-filters-fields">{children}</div>
      <div className="list-filters-buttons">
        <button type="button" className="button button-secondary" onClick={onClear}>
          Limpar
        </button>
        <button type="submit" className="button button-primary">
          Pesquisar
        </button>
      </div>
    </form>
  );
}

/**
 * Filter state of a list page: what is typed (`draft`) and what was searched (`applied`,
 * sent to the server), and the page. 'Pesquisar' applies the draft from page 1; 'Limpar'
 * restores the defaults and searches them.
 */
export function useListFilters<F extends object>(defaults: F) {
  const [draft, setDraft] = useState(defaults);
  const [applied, setApplied] = useState(defaults);
  const [page, setPage] = useState(1);
  const edit = <K extends keyof F>(key: K, value: F[K]) => setDraft((current) => ({ ...current, [key]: value }));
  return {
    draft,
    applied,
    page,
    setPage,
    /** Changes one filter field of the draft. */
    edit,
    /** `value` and `onChange` of a text or select filter bound to one string field of the draft. */
    field: <K extends { [P in keyof F]: F[P] extends string ? P : never }[keyof F]>(key: K) => ({
      value: draft[key] as string,
      onChange: (event: { target: { value: string } }) => edit(key, event.target.value as F[K]),
    }),
    search: () => {
      setApplied(draft);
      setPage(1);
    },
    clear: () => {
      setDraft(defaults);
      setApplied(defaults);
      setPage(1);
    },
  };
}

interface ListPageProps {
  title: string;
  /** 'Novo cliente', ... */
  actions?: ReactNode;
  filters?: ReactNode;
  table: ReactNode;
  page: number;
  total: number | undefined;
  onPage: (page: number) => void;
}

/** The one list-page pattern: heading with actions, filters, table, paginator. */
export function ListPage({ title, actions, filters, table, page, total, onPage }: ListPageProps) {
  return (
    <section className="page list-page">
      <header className="list-page-header">
        <h1 className="page-title">{title}</h1>
        {actions && <div className="list-page-actions">{actions}</div>}
      </header>
      {filters}
      {table}
      {!!total && <Paginator page={page} pageSize={LIST_PAGE_SIZE} total={total} onPage={onPage} />}
    </section>
  );
}

/** Status filter options of lists (spec 02 §4: Pending=0, Active=1, Inactive=2). '' is 'Todos'. */
export const STATUS_FILTER_OPTIONS = [
  { value: '', label: 'Todos' },
  { value: '1', label: 'Ativo' },
  { value: '2', label: 'Inativo' },
  { value: '0', label: 'Pendente' },
] as const;
