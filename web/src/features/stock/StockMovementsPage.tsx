import { skipToken } from '@reduxjs/toolkit/query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useMemberCompanies } from '@/api/companiesApi';
import { SelectField } from '@/components/form/fields';
import { Icon } from '@/components/Icon';
import { DataTable, LIST_PAGE_SIZE, type Column } from '@/components/list/ListPage';
import { Paginator } from '@/components/Paginator';
import { useGetProductQuery } from '@/features/products/productsApi';
import { formatInstant } from '@/features/subscribers/timeline';
import {
  comandaPath,
  comandaText,
  movementDetails,
  movementKindLabel,
  quantityText,
  signedQuantityText,
  STOCK_PATH,
} from './model';
import { useGetMovementsQuery } from './stockApi';
import type { MovementItem } from './types';
import './stock.css';

/** The supplier, the reason, where a transfer went or came from, and a sale's comanda (a link). */
function Detail({ item }: { item: MovementItem }) {
  const details = movementDetails(item);
  if (!details.length && item.IdComanda == null) return <>—</>;
  return (
    <span className="stock-detail">
      {details.join(' · ')}
      {item.IdComanda != null && (
        <>
          {details.length ? ' · ' : ''}
          <Link to={comandaPath(item.IdComanda)}>{comandaText(item.IdComanda)}</Link>
        </>
      )}
    </span>
  );
}

/**
 * /dashboard/stock/{idProduct} (from 'Estoque'): a product's movements, newest first, in every
 * unit or in one (?idCompany); a sale links to its comanda.
 */
export default function StockMovementsPage() {
  const navigate = useNavigate();
  const { idProduct = '' } = useParams();
  const id = /^\d+$/.test(idProduct) ? Number(idProduct) : null;
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get('idCompany'));
  const idCompany = Number.isInteger(asked) && asked > 0 ? asked : null;
  const [page, setPage] = useState(1);
  const units = useMemberCompanies();
  const { data: product, isError: productMissing } = useGetProductQuery(id ?? 0, { skip: id === null });
  const { data: movements, isFetching } = useGetMovementsQuery(
    id === null ? skipToken : { idProduct: id, page, pageSize: LIST_PAGE_SIZE, idCompany },
    { refetchOnMountOrArgChange: true },
  );
  const unit = product?.Unit ?? 'un';
  const back = () => ((window.history.state as { idx?: number } | null)?.idx ? navigate(-1) : navigate(STOCK_PATH));

  const columns: Column<MovementItem>[] = [
    { header: 'Data', cell: (item) => formatInstant(item.At) },
    { header: 'Tipo', cell: (item) => movementKindLabel(item.Kind) },
    { header: 'Unidade', cell: (item) => item.CompanyName },
    {
      header: 'Quantidade',
      cell: (item) => (
        <span className={item.Quantity < 0 ? 'stock-negative' : undefined}>{signedQuantityText(item.Quantity, unit)}</span>
      ),
      className: 'stock-number',
    },
    {
      header: 'Saldo',
      cell: (item) => (
        <span className={item.QuantityAfter < 0 ? 'stock-negative' : undefined}>{quantityText(item.QuantityAfter, unit)}</span>
      ),
      className: 'stock-number',
    },
    { header: 'Quem', cell: (item) => item.UserName || '—' },
    { header: 'Motivo/Detalhe', cell: (item) => <Detail item={item} /> },
  ];

  return (
    <section className="page stock-movements-page" aria-busy={isFetching || undefined}>
      <header className="page-header">
        <button type="button" className="icon-button" aria-label="Voltar" onClick={back}>
          <Icon name="arrowBack" />
        </button>
        <h1 className="page-title">{product?.Name ?? (productMissing || id === null ? 'Produto' : 'Carregando...')}</h1>
      </header>
      <p className="muted stock-movements-facts">
        Movimentações de estoque{product?.Brand ? ` · ${product.Brand}` : ''}
      </p>
      <div className="stock-filters">
        <SelectField
          label="Unidade"
          options={[{ value: '', label: 'Todas as unidades' }, ...(units ?? []).map((c) => ({ value: c.IdCompany, label: c.Name }))]}
          value={idCompany ?? ''}
          onChange={(event) => {
            setPage(1);
            setParams(event.target.value ? { idCompany: event.target.value } : {}, { replace: true });
          }}
        />
      </div>
      {id === null ? (
        <p className="empty">Produto não encontrado.</p>
      ) : (
        <>
          <DataTable
            label="Movimentações"
            columns={columns}
            // Movements have no id of their own: their place on the page.
            rows={movements?.content.map((item, index) => ({ ...item, index }))}
            rowKey={(item) => item.index}
            emptyText="Nenhuma movimentação."
            loading={isFetching}
          />
          {!!movements?.total && <Paginator page={page} pageSize={LIST_PAGE_SIZE} total={movements.total} onPage={setPage} />}
        </>
      )}
    </section>
  );
}
