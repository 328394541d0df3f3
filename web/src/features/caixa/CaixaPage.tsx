import { yupResolver } from '@hookform/resolvers/yup';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Form, FormButtons } from '@/components/form/Form';
import { DataTable, LIST_PAGE_SIZE, ListFilters, stopRowClick, useListFilters, type Column } from '@/components/list/ListPage';
import { MoneyField } from '@/components/MoneyField';
import { Paginator } from '@/components/Paginator';
import { UnitSelectField, useChosenUnit } from '@/components/staff/UnitSelect';
import { TextField } from '@/components/TextField';
import { formatDateBR } from '@/lib/dates';
import { useIdempotencyKey } from '@/lib/idempotency';
import { formatBRL } from '@/lib/money';
import { notifySuccess } from '@/lib/notify';
import { useGetUnitProfessionalsQuery } from '@/features/agenda/api/agendaApi';
import { useAppSelector } from '@/state/hooks';
import { selectRoleType } from '@/state/sessionSlice';
import { useGetCaixaQuery, useGetCaixasQuery, useOpenCaixaMutation } from './caixaApi';
import { CloseDialog, MovementDialog } from './CaixaDialogs';
import { CaixaFiguresView, Difference } from './CaixaFigures';
import { caixaReportPath, mayOperateCaixa, openCaixaSchema, statusLabel, type OpenCaixaValues } from './model';
import type { CaixaListItem, CaixaWritten, MovementKind } from './types';
import './caixa.css';

export const OPENED_MESSAGE = 'Caixa aberto com sucesso!';

/** 'Caixa': the unit's open caixa (or 'Abrir caixa'), and its caixas by date. */
export default function CaixaPage() {
  const { units, unit } = useChosenUnit();
  const mayOperate = mayOperateCaixa(useAppSelector(selectRoleType));
  // The last close of this screen, shown until the unit changes or the next caixa opens.
  const [closed, setClosed] = useState<CaixaWritten | null>(null);

  return (
    <section className="page caixa-page">
      <header className="list-page-header">
        <h1 className="page-title">Caixa</h1>
      </header>
      <div className="caixa-unit">
        <UnitSelectField />
      </div>
      {unit ? (
        <>
          <CurrentCaixa
            key={unit.IdCompany}
            idCompany={unit.IdCompany}
            mayOperate={mayOperate}
            closed={closed?.IdCompany === unit.IdCompany ? closed : null}
            onClosed={setClosed}
            onOpened={() => setClosed(null)}
          />
          <CaixaHistory key={`history-${unit.IdCompany}`} idCompany={unit.IdCompany} />
        </>
      ) : (
        <p className="page-loading">{units ? 'Nenhuma unidade encontrada.' : 'Carregando...'}</p>
      )}
    </section>
  );
}

interface CurrentCaixaProps {
  idCompany: number;
  mayOperate: boolean;
  closed: CaixaWritten | null;
  onClosed: (written: CaixaWritten) => void;
  onOpened: () => void;
}

/** The unit's open caixa with its actions; without one, what the last close left and 'Abrir caixa'. */
function CurrentCaixa({ idCompany, mayOperate, closed, onClosed, onOpened }: CurrentCaixaProps) {
  const { data: open, isLoading, isError } = useGetCaixasQuery(
    { idCompany, date: '', status: 'OPEN', page: 1, pageSize: 1 },
    { refetchOnMountOrArgChange: true },
  );
  const idOpen = open?.content[0]?.IdCaixa ?? null;

  if (isLoading) return <p className="page-loading">Carregando...</p>;
  if (isError) return <p className="empty">Não foi possível carregar o caixa da unidade.</p>;
  return (
    <>
      {closed && <ClosedSummary closed={closed} />}
      {idOpen !== null ? (
        <OpenCaixa idCaixa={idOpen} idCompany={idCompany} mayOperate={mayOperate} onClosed={onClosed} />
      ) : (
        mayOperate && <OpenCaixaForm idCompany={idCompany} onOpened={onOpened} />
      )}
    </>
  );
}

/** What the close just wrote: expected, counted and the difference (red when cash is missing). */
function ClosedSummary({ closed }: { closed: CaixaWritten }) {
  const titleId = useId();
  return (
    <section className="caixa-card caixa-closed" aria-labelledby={titleId}>
      <h2 id={titleId} className="caixa-card-title">
        Caixa fechado
      </h2>
      <table className="caixa-table">
        <tbody>
          <tr>
            <th scope="row">Dinheiro esperado</th>
            <td className="caixa-value">{formatBRL(closed.ExpectedCash)}</td>
          </tr>
          <tr>
            <th scope="row">Dinheiro contado</th>
            <td className="caixa-value">{formatBRL(closed.CountedCash ?? 0)}</td>
          </tr>
          <tr className="caixa-total">
            <th scope="row">Diferença</th>
            <td className="caixa-value">
              <Difference value={closed.Difference ?? 0} />
            </td>
          </tr>
        </tbody>
      </table>
      <Link className="button button-secondary" to={caixaReportPath(closed.IdCaixa)}>
        Ver relatório
      </Link>
    </section>
  );
}

interface OpenCaixaProps {
  idCaixa: number;
  idCompany: number;
  mayOperate: boolean;
  onClosed: (written: CaixaWritten) => void;
}

type Dialog = { kind: 'movement'; movement: MovementKind } | { kind: 'close' } | null;

/** The open caixa: its figures as they stand, 'Sangria', 'Reforço' and 'Fechar caixa'. */
function OpenCaixa({ idCaixa, idCompany, mayOperate, onClosed }: OpenCaixaProps) {
  const { data: caixa } = useGetCaixaQuery({ id: idCaixa, asOf: null }, { refetchOnMountOrArgChange: true });
  const { data: professionals } = useGetUnitProfessionalsQuery(idCompany);
  const [dialog, setDialog] = useState<Dialog>(null);
  const titleId = useId();

  return (
    <section className="caixa-open" aria-labelledby={titleId}>
      <header className="caixa-open-header">
        <h2 id={titleId} className="caixa-section-title">
          Caixa aberto{caixa ? ` em ${formatDateBR(caixa.OpenedOn)}` : ''}
        </h2>
        <Link to={caixaReportPath(idCaixa)}>Ver relatório</Link>
      </header>
      {mayOperate && (
        <div className="caixa-actions">
          <button type="button" className="button button-secondary" onClick={() => setDialog({ kind: 'movement', movement: 'sangria' })}>
            Sangria
          </button>
          <button type="button" className="button button-secondary" onClick={() => setDialog({ kind: 'movement', movement: 'reforco' })}>
            Reforço
          </button>
          <button type="button" className="button button-primary" onClick={() => setDialog({ kind: 'close' })}>
            Fechar caixa
          </button>
        </div>
      )}
      {caixa ? (
        <CaixaFiguresView figures={caixa} professionals={professionals} level={3} />
      ) : (
        <p className="page-loading">Carregando...</p>
      )}
      {dialog?.kind === 'movement' && (
        <MovementDialog idCaixa={idCaixa} kind={dialog.movement} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'close' && (
        <CloseDialog
          idCaixa={idCaixa}
          onClose={() => setDialog(null)}
          onClosed={(written) => {
            setDialog(null);
            onClosed(written);
          }}
        />
      )}
    </section>
  );
}

/** 'Abrir caixa' with the float ('Fundo de troco'). */
function OpenCaixaForm({ idCompany, onOpened }: { idCompany: number; onOpened: () => void }) {
  const form = useForm<OpenCaixaValues>({
    resolver: yupResolver(openCaixaSchema),
    defaultValues: { idCompany, openingCash: 0 },
  });
  const [openCaixa] = useOpenCaixaMutation();
  const withKey = useIdempotencyKey();
  const unitError = form.formState.errors.idCompany?.message;

  const submit = async (values: OpenCaixaValues) => {
    const payload = { idCompany: values.idCompany, openingCash: values.openingCash };
    await withKey((idempotencyKey) => openCaixa({ payload, idempotencyKey }).unwrap(), JSON.stringify(payload));
    notifySuccess(OPENED_MESSAGE);
    onOpened();
  };

  return (
    <section className="caixa-card caixa-open-form">
      <h2 className="caixa-card-title">Abrir caixa</h2>
      <p className="muted caixa-dialog-text">Nenhum caixa aberto nesta unidade. Informe o dinheiro que fica na gaveta para o troco.</p>
      <Form form={form} onSubmit={submit} aria-label="Abrir caixa" className="caixa-dialog-form">
        <Controller
          control={form.control}
          name="openingCash"
          render={({ field, fieldState }) => (
            <MoneyField label="Fundo de troco" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        {unitError && (
          <p className="field-error" role="alert">
            {unitError}
          </p>
        )}
        <FormButtons>
          <button type="submit" className="button button-primary" disabled={form.formState.isSubmitting}>
            Abrir caixa
          </button>
        </FormButtons>
      </Form>
    </section>
  );
}

const historyColumns: Column<CaixaListItem>[] = [
  {
    header: 'Data',
    cell: (caixa) => (
      <Link {...stopRowClick} to={caixaReportPath(caixa.IdCaixa)}>
        {formatDateBR(caixa.OpenedOn)}
      </Link>
    ),
  },
  { header: 'Situação', cell: (caixa) => statusLabel(caixa.Status) },
  { header: 'Fundo de troco', cell: (caixa) => formatBRL(caixa.OpeningCash) },
  { header: 'Dinheiro esperado', cell: (caixa) => formatBRL(caixa.ExpectedCash) },
  { header: 'Dinheiro contado', cell: (caixa) => (caixa.CountedCash == null ? '—' : formatBRL(caixa.CountedCash)) },
  { header: 'Diferença', cell: (caixa) => (caixa.Difference == null ? '—' : <Difference value={caixa.Difference} />) },
];

/** The unit's caixas, newest first, filtered by the day they opened; a row opens its report. */
function CaixaHistory({ idCompany }: { idCompany: number }) {
  const navigate = useNavigate();
  const titleId = useId();
  const filters = useListFilters({ date: '' });
  const { data, isFetching } = useGetCaixasQuery({
    idCompany,
    date: filters.applied.date,
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
  });

  return (
    <section className="caixa-history" aria-labelledby={titleId}>
      <h2 id={titleId} className="caixa-section-title">
        Caixas da unidade
      </h2>
      <ListFilters onSearch={filters.search} onClear={filters.clear}>
        <TextField label="Data" type="date" max="9999-12-31" {...filters.field('date')} />
      </ListFilters>
      <DataTable
        label="Caixas da unidade"
        columns={historyColumns}
        rows={data?.content}
        rowKey={(caixa) => caixa.IdCaixa}
        onRowClick={(caixa) => navigate(caixaReportPath(caixa.IdCaixa))}
        emptyText="Nenhum registro encontrado"
        loading={isFetching}
      />
      {!!data?.total && <Paginator page={filters.page} pageSize={LIST_PAGE_SIZE} total={data.total} onPage={filters.setPage} />}
    </section>
  );
}
