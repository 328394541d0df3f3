import { Link, useNavigate } from 'react-router';
import { SelectField } from '@/components/form/fields';
import {
  DataTable,
  LIST_PAGE_SIZE,
  ListFilters,
  ListPage,
  STATUS_FILTER_OPTIONS,
  useListFilters,
  type Column,
} from '@/components/list/ListPage';
import { TextField } from '@/components/TextField';
import { formatBRL } from '@/lib/money';
import { useAppSelector } from '@/state/hooks';
import { selectRoleType } from '@/state/sessionSlice';
import { useGetProductsQuery } from './productsApi';
import { mayEditProducts } from './schema';
import type { Product } from './types';
import './products.css';

export const PRODUCTS_PATH = '/dashboard/product';
export const productPath = (id: number) => `${PRODUCTS_PATH}/${id}`;

/** A product is sold or not: no 'Pendente' in this list. */
const PRODUCT_STATUS_OPTIONS = STATUS_FILTER_OPTIONS.filter((option) => option.value !== '0');

/** Search empty and status 1 (Ativo) by default, as the other lists. */
const DEFAULT_FILTERS = { search: '', status: '1' };

const columns: Column<Product>[] = [
  {
    header: 'Nome',
    // The photo's thumbnail before the name, when it has one (decorative: the name says it).
    cell: (product) =>
      product.UrlImage ? (
        <span className="product-name">
          <img className="product-thumb" src={product.UrlImage} alt="" width={32} height={32} loading="lazy" />
          {product.Name}
        </span>
      ) : (
        product.Name
      ),
  },
  // Hidden on a phone (products.css).
  { header: 'Marca', cell: (product) => product.Brand || '—', className: 'product-extra' },
  { header: 'Categoria', cell: (product) => product.Category || '—', className: 'product-extra' },
  { header: 'Preço', cell: (product) => formatBRL(product.Price) },
  {
    header: 'Status',
    cell: (product) => (
      <span className={product.Active ? 'status-active' : 'status-inactive'}>{product.Active ? 'Ativo' : 'Inativo'}</span>
    ),
  },
];

/** Produtos: search by name, status filter, 5 per page; 'Novo produto' for ADMIN. */
export default function ProductListPage() {
  const navigate = useNavigate();
  const canEdit = mayEditProducts(useAppSelector(selectRoleType));
  const filters = useListFilters(DEFAULT_FILTERS);
  const { data, isFetching } = useGetProductsQuery({
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
    search: filters.applied.search,
    status: filters.applied.status,
  });

  return (
    <ListPage
      title="Produtos"
      actions={
        canEdit && (
          <Link className="button button-primary" to={`${PRODUCTS_PATH}/new`}>
            Novo produto
          </Link>
        )
      }
      filters={
        <ListFilters onSearch={filters.search} onClear={filters.clear}>
          <TextField label="Busque pelo nome" variant="search" autoComplete="off" {...filters.field('search')} />
          <SelectField label="Status" options={PRODUCT_STATUS_OPTIONS} {...filters.field('status')} />
        </ListFilters>
      }
      table={
        <DataTable
          label="Produtos"
          columns={columns}
          rows={data?.content}
          rowKey={(product) => product.IdProduct}
          onRowClick={(product) => navigate(productPath(product.IdProduct))}
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
