import { skipToken } from '@reduxjs/toolkit/query';
import { useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SelectField } from '@/components/form/fields';
import { Icon } from '@/components/Icon';
import { DataTable, type Column } from '@/components/list/ListPage';
import { LoadFailed } from '@/components/LoadFailed';
import { UnitSelectField, useChosenUnit } from '@/components/staff/UnitSelect';
import { TextField } from '@/components/TextField';
import { formatDateBR, todayIso } from '@/lib/dates';
import { downloadCsv } from '@/lib/csv';
import { formatBRL } from '@/lib/money';
import { useGetUnitProfessionalsQuery } from '@/features/agenda/api/agendaApi';
import { wallClockInput } from '@/features/subscribers/timeline';
import { useAppSelector } from '@/state/hooks';
import { selectRoleType, selectUnitTimeZone, selectUserName } from '@/state/sessionSlice';
import { CommissionChart } from './CommissionChart';
import { ClosePeriodDialog, CLOSE_PERIOD, EntryDialog, NEW_ENTRY } from './CommissionDialogs';
import { useGetPeriodsQuery, useGetStatementChangesQuery, useGetStatementQuery } from './commissionsApi';
import {
  asOfOfInput,
  comandaPath,
  comandaRows,
  csvFileName,
  entryEffect,
  entryKindLabel,
  mayManageCommissions,
  monthToDate,
  paidText,
  payoutMethodLabel,
  periodErrors,
  periodText,
  lineDetail,
  statementCsv,
  statementFailure,
  statementFigures,
  type ComandaRow,
} from './model';
import type { Period, Statement, StatementChange, StatementEntry, StatementLine, StatementTarget } from './types';
import './commissions.css';

/** 'dd/mm/aaaa HH:MM[:SS]' of the past view's value (already on the units' clock). */
const wallClockText = (value: string) => `${formatDateBR(value.slice(0, 10))} ${value.slice(11, 19)}`;


type Dialog = 'entry' | 'close' | null;

/**
 * /dashboard/commission ('Comissões', issue 42): a professional's statement for a period, its
 * comandas, vales, bonuses and adjustments, printable and exported as CSV. ADMIN picks the
 * professional, records vales and bonuses, closes periods and looks back; everyone else reads
 * their own. The filters live in the address (?idProfessional&from&to&asOf).
 */
export default function CommissionPage() {
  const manager = mayManageCommissions(useAppSelector(selectRoleType));
  const ownId = useAppSelector((state) => state.session.idProfessional);
  const userName = useAppSelector(selectUserName);
  const today = todayIso(Date.now(), useAppSelector(selectUnitTimeZone));
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<Dialog>(null);

  // ADMIN: the professionals of the session's unit.
  const { units, unit } = useChosenUnit();
  const { data: professionals } = useGetUnitProfessionalsQuery(manager && unit ? unit.IdCompany : skipToken);

  const asked = Number(params.get('idProfessional'));
  let idProfessional: number | null = ownId;
  let name = userName;
  if (manager) {
    const chosen =
      professionals?.find((p) => p.IdProfessional === asked) ??
      professionals?.find((p) => p.IdProfessional === ownId) ??
      professionals?.[0];
    idProfessional = chosen?.IdProfessional ?? null;
    name = chosen?.Name ?? '';
  }

  const defaults = monthToDate(today);
  const from = params.get('from') ?? defaults.from;
  const to = params.get('to') ?? defaults.to;
  const asOf = manager ? asOfOfInput(params.get('asOf') ?? '') : null;
  const typed = periodErrors(from, to);
  const valid = idProfessional !== null && !typed.from && !typed.to;

  // currentData: another professional's or period's answer never stands in for the one asked.
  const statementQuery = useGetStatementQuery(
    valid ? { idProfessional: idProfessional!, from, to, asOf } : skipToken,
    { refetchOnMountOrArgChange: true },
  );
  const { currentData: statement, error, isFetching, refetch } = statementQuery;
  const periods = useGetPeriodsQuery(idProfessional ?? skipToken);
  const failure = valid && error && !isFetching ? statementFailure(error) : null;
  const serverErrors = failure?.kind === 'fields' ? failure.errors : {};

  /** Changes some filters in the address; null takes one out (its default applies). */
  const show = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  let body: ReactNode;
  if (manager && (!units || (unit && !professionals))) {
    body = <p className="page-loading">Carregando...</p>;
  } else if (idProfessional === null) {
    const none = manager ? 'Nenhum profissional nesta unidade.' : 'Nenhum profissional vinculado ao seu usuário.';
    body = <p className="empty">{none}</p>;
  } else if (!valid) {
    // The period's own messages are under its fields.
    body = null;
  } else if (statement) {
    body = (
      <StatementView
        statement={statement}
        manager={manager && !asOf}
        onEntry={() => setDialog('entry')}
        onClose={() => setDialog('close')}
      />
    );
  } else if (failure?.kind === 'fields') {
    const placed = ['from', 'to', 'asOf'].some((field) => serverErrors[field]);
    body = placed ? null : <p className="empty">{Object.values(serverErrors)[0]}</p>;
  } else if (failure?.kind === 'notFound') {
    const text = asOf ? `Em ${wallClockText(asOf)} este extrato ainda não existia.` : 'Extrato não encontrado.';
    body = <p className="empty">{text}</p>;
  } else if (failure) {
    body = <LoadFailed text="Não foi possível carregar o extrato." onRetry={refetch} />;
  } else {
    body = <p className="page-loading">Carregando...</p>;
  }

  return (
    <section className="page commission-page print-page" aria-busy={isFetching || undefined}>
      <header className="list-page-header">
        <h1 className="page-title">Comissões</h1>
        <div className="commission-toolbar no-print">
          <button type="button" className="button button-secondary" onClick={() => window.print()} disabled={!statement}>
            Imprimir
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={!statement}
            onClick={() => statement && downloadCsv(csvFileName(name, statement.From, statement.To), statementCsv(statement))}
          >
            Exportar CSV
          </button>
        </div>
      </header>

      <div className="commission-filters no-print">
        {manager && (units?.length ?? 0) > 1 && (
          <UnitSelectField onChosen={() => show({ idProfessional: null })} />
        )}
        {manager && (
          <SelectField
            label="Profissional"
            options={(professionals ?? []).map((p) => ({ value: p.IdProfessional, label: p.Name }))}
            value={idProfessional ?? ''}
            disabled={!professionals?.length}
            onChange={(event) => show({ idProfessional: event.target.value })}
          />
        )}
        <fieldset className="commission-period">
          <legend>Período</legend>
          <TextField
            label="De"
            type="date"
            max="9999-12-31"
            value={from}
            error={typed.from ?? serverErrors.from}
            onChange={(event) => show({ from: event.target.value })}
          />
          <TextField
            label="Até"
            type="date"
            max="9999-12-31"
            value={to}
            error={typed.to ?? serverErrors.to}
            onChange={(event) => show({ to: event.target.value })}
          />
        </fieldset>
        {manager && (
          <div className="commission-as-of">
            <TextField
              label="Ver como estava em"
              type="datetime-local"
              step={1}
              max={wallClockInput()}
              value={asOf ?? ''}
              error={serverErrors.asOf}
              onChange={(event) => {
                const value = asOfOfInput(event.target.value);
                if (value) show({ asOf: value });
              }}
            />
            {asOf && (
              <button type="button" className="button button-secondary button-small" onClick={() => show({ asOf: null })}>
                Voltar ao presente
              </button>
            )}
          </div>
        )}
      </div>

      {valid && (
        <p className="commission-facts">
          {[name, periodText(from, to)].filter(Boolean).join(' · ')}
        </p>
      )}
      {asOf && statement?.AsOf && (
        <p className="commission-past-view" role="status">
          <Icon name="history" /> Como estava em {wallClockText(asOf)}.
        </p>
      )}
      {body}
      {asOf && statement?.AsOf && idProfessional !== null && (
        <ChangesSince target={{ idProfessional, from, to, asOf }} />
      )}

      {idProfessional !== null && (
        <PaidPeriods
          periods={periods.data}
          loading={periods.isFetching}
          onShow={(period) => show({ from: period.From, to: period.To })}
        />
      )}

      {dialog === 'entry' && idProfessional !== null && (
        <EntryDialog idProfessional={idProfessional} name={name} onClose={() => setDialog(null)} />
      )}
      {dialog === 'close' && idProfessional !== null && statement && (
        <ClosePeriodDialog
          idProfessional={idProfessional}
          name={name}
          from={from}
          to={to}
          net={statement.Net}
          today={today}
          onClose={() => setDialog(null)}
          onClosed={(period) => {
            setDialog(null);
            show({ from: period.from, to: period.to });
          }}
        />
      )}
    </section>
  );
}

interface StatementViewProps {
  statement: Statement;
  /** ADMIN, on the present: records vales and bonuses and closes the period. */
  manager: boolean;
  onEntry: () => void;
  onClose: () => void;
}

/** The statement itself: what is printed. */
function StatementView({ statement, manager, onEntry, onClose }: StatementViewProps) {
  const paid = statement.Period;
  return (
    <>
      {paid && (
        <p className="commission-paid" role="status">
          <Icon name="verified" /> {paidText(paid)}
        </p>
      )}
      {manager && !paid && (
        <div className="commission-manage no-print">
          <button type="button" className="button button-primary" onClick={onClose}>
            {CLOSE_PERIOD}
          </button>
        </div>
      )}
      <Figures statement={statement} />
      {statement.Partner && (
        <p className="muted commission-partner-note">
          Profissional-parceiro (Lei 13.352/2016): valores antes da retenção dos tributos e contribuições do profissional,
          que o salão-parceiro recolhe (art. 1º-A, § 3º).
        </p>
      )}
      <CommissionChart statement={statement} />
      <Comandas statement={statement} />
      <Entries entries={statement.Entries} manager={manager} onEntry={onEntry} />
      {statement.AdjustmentLines.length > 0 && <Adjustments statement={statement} />}
    </>
  );
}

const changeColumns: Column<StatementChange>[] = [
  { header: 'O que', cell: (change) => change.Description },
  { header: 'Então', cell: (change) => formatBRL(change.Then), className: 'commission-money' },
  { header: 'Agora', cell: (change) => formatBRL(change.Now), className: 'commission-money' },
  {
    header: 'Diferença',
    cell: (change) => <span className={change.Difference < 0 ? 'commission-negative' : undefined}>{formatBRL(change.Difference)}</span>,
    className: 'commission-money',
  },
];

/** The past view's 'O que mudou desde então': every figure that differs now, line by line. */
function ChangesSince({ target }: { target: StatementTarget }) {
  const { currentData: changes, isFetching } = useGetStatementChangesQuery(target, { refetchOnMountOrArgChange: true });
  return (
    <Section title="O que mudou desde então">
      {!changes ? (
        isFetching && <p className="page-loading">Carregando...</p>
      ) : changes.Changes.length === 0 ? (
        <p className="empty">Nada mudou desde então.</p>
      ) : (
        <>
          <p className="muted">
            Líquido então {formatBRL(changes.NetThen)}; agora {formatBRL(changes.NetNow)}.
          </p>
          <DataTable
            label="O que mudou desde então"
            columns={changeColumns}
            rows={changes.Changes}
            rowKey={(change) => `${change.Kind}-${change.IdComanda ?? ''}-${change.IdItem ?? ''}-${change.IdEntry ?? ''}`}
            emptyText="Nada mudou desde então."
          />
        </>
      )}
    </Section>
  );
}

/** The key figures, as a description list of cards. */
function Figures({ statement }: { statement: Statement }) {
  return (
    <dl className="commission-figures" aria-label="Resumo do período">
      {statementFigures(statement).map((figure) => (
        <div key={figure.label} className={`commission-figure${figure.total ? ' commission-figure-total' : ''}`}>
          <dt>{figure.label}</dt>
          <dd className={figure.value < 0 ? 'commission-negative' : undefined}>{formatBRL(figure.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A titled section of the statement. */
interface SectionProps {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

function Section({ title, actions, children, className }: SectionProps) {
  const id = useId();
  return (
    <section className={`commission-section${className ? ` ${className}` : ''}`} aria-labelledby={id}>
      <header className="commission-section-header">
        <h2 id={id} className="commission-section-title">
          {title}
        </h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A comanda's lines: what each sold, at which rate, and what it earned. */
function Lines({ lines }: { lines: StatementLine[] }) {
  if (lines.length === 0) return <>—</>;
  return (
    <ul className="commission-lines">
      {lines.map((line) => (
        <li key={line.IdItem} className="commission-line">
          <span className="commission-line-name">
            {line.Quantity > 1 ? `${line.Quantity}× ` : ''}
            {line.Description}
          </span>
          <span className="commission-line-detail">{lineDetail(line)}</span>
          <span className="commission-line-value">{formatBRL(line.Commission)}</span>
        </li>
      ))}
    </ul>
  );
}

const comandaColumns: Column<ComandaRow>[] = [
  { header: 'Data', cell: (row) => formatDateBR(row.Date) },
  { header: 'Comanda', cell: (row) => <Link to={comandaPath(row.IdComanda)}>N.º {row.IdComanda}</Link> },
  { header: 'Serviços e produtos', cell: (row) => <Lines lines={row.Lines} />, className: 'commission-lines-cell' },
  { header: 'Comissão', cell: (row) => formatBRL(row.Commission), className: 'commission-money' },
  { header: 'Gorjeta', cell: (row) => (row.Tips ? formatBRL(row.Tips) : '—'), className: 'commission-money' },
];

function Comandas({ statement }: { statement: Statement }) {
  return (
    <Section title="Comandas" className="commission-comandas">
      <DataTable
        label="Comandas"
        columns={comandaColumns}
        rows={comandaRows(statement)}
        rowKey={(row) => row.IdComanda}
        emptyText="Nenhuma comanda no período."
      />
    </Section>
  );
}

const entryColumns: Column<StatementEntry>[] = [
  { header: 'Data', cell: (entry) => formatDateBR(entry.Date) },
  { header: 'Tipo', cell: (entry) => entryKindLabel(entry.Kind) },
  { header: 'Motivo', cell: (entry) => entry.Reason || '—' },
  { header: 'Valor', cell: (entry) => formatBRL(entryEffect(entry)), className: 'commission-money' },
];

function Entries({ entries, manager, onEntry }: { entries: StatementEntry[]; manager: boolean; onEntry: () => void }) {
  return (
    <Section
      title="Vales e bônus"
      actions={
        manager && (
          <button type="button" className="button button-secondary no-print" onClick={onEntry}>
            {NEW_ENTRY}
          </button>
        )
      }
    >
      <DataTable
        label="Vales e bônus"
        columns={entryColumns}
        rows={entries}
        rowKey={(entry) => entry.IdEntry}
        emptyText="Nenhum vale ou bônus no período."
      />
    </Section>
  );
}

/** Comandas of periods already paid whose earning changed since: the difference enters this one. */
function Adjustments({ statement }: { statement: Statement }) {
  return (
    <Section title="Ajustes">
      <p className="commission-note">Comandas de períodos já pagos que mudaram depois: a diferença entra neste período.</p>
      <ul className="commission-adjustments">
        {statement.AdjustmentLines.map((line) => (
          <li key={line.IdComanda}>
            <Link to={comandaPath(line.IdComanda)}>Comanda N.º {line.IdComanda}</Link> (já paga):{' '}
            <span className={line.Value < 0 ? 'commission-negative' : undefined}>{formatBRL(line.Value)}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

interface PaidPeriodsProps {
  periods: Period[] | undefined;
  loading: boolean;
  onShow: (period: Period) => void;
}

/** The professional's periods closed and paid, latest first; one shows its statement. */
function PaidPeriods({ periods, loading, onShow }: PaidPeriodsProps) {
  const columns: Column<Period>[] = [
    {
      header: 'Período',
      cell: (period) => (
        <button
          type="button"
          className="commission-period-link"
          onClick={(event) => {
            event.stopPropagation();
            onShow(period);
          }}
        >
          {periodText(period.From, period.To)}
        </button>
      ),
    },
    { header: 'Pago em', cell: (period) => formatDateBR(period.PaidAt) },
    { header: 'Forma', cell: (period) => payoutMethodLabel(period.Method) },
    { header: 'Líquido', cell: (period) => formatBRL(period.Net), className: 'commission-money' },
  ];
  return (
    <Section title="Períodos pagos" className="no-print">
      <DataTable
        label="Períodos pagos"
        columns={columns}
        rows={periods}
        rowKey={(period) => period.IdPeriod}
        onRowClick={onShow}
        emptyText="Nenhum período pago."
        loading={loading}
      />
    </Section>
  );
}
