import { skipToken } from '@reduxjs/toolkit/query';
import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { fieldErrorsOf } from '@/components/form/serverErrors';
import { Icon } from '@/components/Icon';
import { DataTable, type Column } from '@/components/list/ListPage';
import { LoadFailed } from '@/components/LoadFailed';
import { UnitSelectField, useChosenUnit } from '@/components/staff/UnitSelect';
import { TextField } from '@/components/TextField';
import { wallClockInput } from '@/features/subscribers/timeline';
import { todayIso } from '@/lib/dates';
import { downloadCsv } from '@/lib/csv';
import { formatBRL } from '@/lib/money';
import { useAppSelector } from '@/state/hooks';
import { selectRoleType, selectUnitTimeZone } from '@/state/sessionSlice';
import { MovementDialog } from './MovementDialog';
import {
  asOfOfInput,
  mayLookBack,
  MOVEMENT_KIND_LABELS,
  movementKindsFor,
  pastViewText,
  quantityText,
  stockCsv,
  stockCsvFileName,
  stockMovementsPath,
} from './model';
import { useGetStockQuery } from './stockApi';
import type { MovementKind, StockRow } from './types';
import './stock.css';


/** A product, its brand under it; one no longer sold says so. */
function ProductCell({ row }: { row: StockRow }) {
  return (
    <span className="stock-product">
      <span className="stock-product-name">
        {row.Name}
        {!row.Active && <span className="muted"> (inativo)</span>}
      </span>
      {row.Brand && <span className="stock-product-brand">{row.Brand}</span>}
    </span>
  );
}

/** '3 un', red when negative, and the 'Abaixo do mínimo' badge. */
function QuantityCell({ row }: { row: StockRow }) {
  return (
    <span className="stock-quantity">
      <span className={row.Quantity < 0 ? 'stock-negative' : undefined}>{quantityText(row.Quantity, row.Unit)}</span>
      {row.Low && (
        <span className="badge badge-warning stock-low" data-testid="stock-low-badge">
          Abaixo do mínimo
        </span>
      )}
    </span>
  );
}

type Dialog = { kind: MovementKind; row: StockRow } | null;

/**
 * /dashboard/stock ('Estoque', issue 43): a unit's products and quantities, low stock first,
 * their value at the average cost, and the movements: ADMIN records every kind, ATTENDANT
 * entries and internal use. Both look at the stock as it stood at an earlier instant (?asOf),
 * read-only.
 */
export default function StockPage() {
  const role = useAppSelector(selectRoleType);
  const today = todayIso(Date.now(), useAppSelector(selectUnitTimeZone));
  const { units, unit } = useChosenUnit();
  const [params, setParams] = useSearchParams();
  const lookBack = mayLookBack(role);
  const asOf = lookBack ? asOfOfInput(params.get('asOf') ?? '') : null;
  // Nothing is recorded in the past.
  const kinds = asOf ? [] : movementKindsFor(role, units?.length ?? 0);
  const [dialog, setDialog] = useState<Dialog>(null);

  // currentData: another unit's or instant's answer never stands in for the one asked.
  const { currentData: stock, isFetching, isError, error, refetch } = useGetStockQuery(
    unit ? { idCompany: unit.IdCompany, asOf } : skipToken,
    { refetchOnMountOrArgChange: true },
  );

  // An instant the server cannot read: its message under the control.
  const asOfError = isFetching ? undefined : fieldErrorsOf(error)?.asOf;
  const showAsOf = (value: string | null) => setParams(value ? { asOf: value } : {}, { replace: true });

  const columns: Column<StockRow>[] = [
    { header: 'Produto', cell: (row) => <ProductCell row={row} /> },
    { header: 'Categoria', cell: (row) => row.Category || '—' },
    { header: 'Quantidade', cell: (row) => <QuantityCell row={row} />, className: 'stock-number' },
    { header: 'Mínimo', cell: (row) => (row.Minimum == null ? '—' : quantityText(row.Minimum, row.Unit)), className: 'stock-number' },
    { header: 'Custo médio', cell: (row) => (row.AverageCost == null ? '—' : formatBRL(row.AverageCost)), className: 'stock-number' },
    { header: 'Valor em estoque', cell: (row) => formatBRL(row.Value), className: 'stock-number' },
    {
      header: 'Ações',
      className: 'table-actions stock-actions',
      cell: (row) => (
        <span className="stock-row-actions">
          {kinds.map((kind) => (
            <button
              key={kind}
              type="button"
              className="button button-secondary button-small"
              data-testid={`stock-${kind}-${row.IdProduct}`}
              onClick={() => setDialog({ kind, row })}
            >
              {MOVEMENT_KIND_LABELS[kind]}
            </button>
          ))}
          <Link
            className="stock-movements-link"
            data-testid={`stock-movements-${row.IdProduct}`}
            to={stockMovementsPath(row.IdProduct, unit?.IdCompany)}
          >
            Movimentações
          </Link>
        </span>
      ),
    },
  ];

  let body: ReactNode;
  if (!unit) {
    body = <p className="page-loading">{units ? 'Nenhuma unidade encontrada.' : 'Carregando...'}</p>;
  } else if (stock) {
    body = (
      <>
        {stock.AllowsNegative && (
          <p className="muted stock-note">Esta unidade permite vender sem estoque: a quantidade pode ficar negativa.</p>
        )}
        <DataTable
          label="Estoque"
          columns={columns}
          rows={stock.Items}
          rowKey={(row) => row.IdProduct}
          emptyText="Nenhum produto cadastrado."
          loading={isFetching}
        />
        <p className="stock-total" data-testid="stock-total">
          {`Valor total em estoque: ${formatBRL(stock.TotalValue)}`}
        </p>
      </>
    );
  } else if (isError && !isFetching) {
    body = <LoadFailed text="Não foi possível carregar o estoque." onRetry={refetch} />;
  } else {
    body = <p className="page-loading">Carregando...</p>;
  }

  return (
    <section className="page stock-page" aria-busy={isFetching || undefined}>
      <header className="list-page-header">
        <h1 className="page-title">Estoque</h1>
        <div className="stock-toolbar">
          <button
            type="button"
            className="button button-secondary"
            disabled={!stock || !unit}
            onClick={() => stock && unit && downloadCsv(stockCsvFileName(unit.Name, asOf?.slice(0, 10) ?? today), stockCsv(stock))}
          >
            Exportar CSV
          </button>
        </div>
      </header>
      <div className="stock-filters">
        <UnitSelectField />
        {lookBack && (
          <div className="stock-as-of">
            <TextField
              label="Ver como estava em"
              type="datetime-local"
              step={1}
              max={wallClockInput()}
              value={asOf ?? ''}
              error={asOfError}
              onChange={(event) => {
                const value = asOfOfInput(event.target.value);
                if (value) showAsOf(value);
              }}
            />
            {asOf && (
              <button type="button" className="button button-secondary button-small" onClick={() => showAsOf(null)}>
                Voltar ao presente
              </button>
            )}
          </div>
        )}
      </div>
      {asOf && (
        <p className="stock-past-view" role="status">
          <Icon name="history" /> {pastViewText(asOf)}
        </p>
      )}
      {body}
      {dialog && unit && (
        <MovementDialog
          kind={dialog.kind}
          product={dialog.row}
          idCompany={unit.IdCompany}
          unitName={unit.Name}
          units={units ?? []}
          onClose={() => setDialog(null)}
        />
      )}
    </section>
  );
}
