import { useId, useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Icon } from '@/components/Icon';
import { DataTable, type Column } from '@/components/list/ListPage';
import { formatDateBR } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { useAppSelector } from '@/state/hooks';
import { selectCompanyList, selectRoleType } from '@/state/sessionSlice';
import { useGetUnitProfessionalsQuery } from '@/features/agenda/api/agendaApi';
import { formatInstant, wallClockInput } from '@/features/subscribers/timeline';
import { useGetCaixaQuery } from './caixaApi';
import { ReopenDialog } from './CaixaDialogs';
import { CaixaFiguresView } from './CaixaFigures';
import {
  asOfOfInput,
  CAIXA_PATH,
  changedFigures,
  figuresOf,
  mayLookBack,
  mayReopenCaixa,
  showsComparison,
  statusLabel,
} from './model';
import type { CaixaCorrection, CaixaDetail, UnitProfessional } from './types';
import './caixa.css';

/** 'dd/mm/aaaa HH:MM[:SS]' of the past view's value (already on the units' clock). */
const wallClockText = (value: string) =>
  `${formatDateBR(value.slice(0, 10))} ${value.slice(11, 19)}`;

/** /dashboard/caixa/{idCaixa}: the caixa's report, printable; ADMIN reopens it and looks back. */
export default function CaixaReportPage() {
  const navigate = useNavigate();
  const { idCaixa = '' } = useParams();
  const id = /^\d+$/.test(idCaixa) ? Number(idCaixa) : null;
  const role = useAppSelector(selectRoleType);
  const lookBack = mayLookBack(role);
  const [params, setParams] = useSearchParams();
  const asOf = lookBack ? asOfOfInput(params.get('asOf') ?? '') : null;
  // currentData: an earlier instant's answer never stands in for the one asked.
  const { currentData: caixa, isError, isFetching } = useGetCaixaQuery(
    { id: id ?? 0, asOf },
    { skip: id === null, refetchOnMountOrArgChange: true },
  );
  const [reopening, setReopening] = useState(false);
  const back = () => ((window.history.state as { idx?: number } | null)?.idx ? navigate(-1) : navigate(CAIXA_PATH));
  const showAsOf = (value: string | null) => setParams(value ? { asOf: value } : {}, { replace: true });

  let body: ReactNode;
  if (caixa) body = <Report caixa={caixa} asOf={asOf} />;
  else if (isError || id === null)
    body = <p className="empty">{asOf ? `Em ${wallClockText(asOf)} este caixa ainda não existia.` : 'Caixa não encontrado.'}</p>;
  else body = <p className="page-loading">Carregando...</p>;

  return (
    <section className="page caixa-report print-page" aria-busy={isFetching || undefined}>
      <header className="page-header">
        <button type="button" className="icon-button no-print" aria-label="Voltar" onClick={back}>
          <Icon name="arrowBack" />
        </button>
        <h1 className="page-title">Relatório do caixa</h1>
      </header>
      <div className="caixa-toolbar no-print">
        <button type="button" className="button button-secondary" onClick={() => window.print()}>
          Imprimir
        </button>
        {caixa && mayReopenCaixa(role) && caixa.Status === 'CLOSED' && !asOf && (
          <button type="button" className="button button-primary" onClick={() => setReopening(true)}>
            Reabrir caixa
          </button>
        )}
        {lookBack && (
          <div className="caixa-as-of">
            <label className="caixa-as-of-field">
              <span>Ver como estava em</span>
              <input
                type="datetime-local"
                step={1}
                max={wallClockInput()}
                value={asOf ?? ''}
                onChange={(event) => {
                  const value = asOfOfInput(event.target.value);
                  if (value) showAsOf(value);
                }}
              />
            </label>
            {asOf && (
              <button type="button" className="button button-secondary button-small" onClick={() => showAsOf(null)}>
                Voltar ao presente
              </button>
            )}
          </div>
        )}
      </div>
      {body}
      {reopening && caixa && <ReopenDialog idCaixa={caixa.IdCaixa} onClose={() => setReopening(false)} />}
    </section>
  );
}

/** The report itself: what is printed. */
function Report({ caixa, asOf }: { caixa: CaixaDetail; asOf: string | null }) {
  const companies = useAppSelector(selectCompanyList);
  const { data: professionals } = useGetUnitProfessionalsQuery(caixa.IdCompany);
  const unit = companies.find((company) => company.IdCompany === caixa.IdCompany)?.Name;
  const closedAt = caixa.Status === 'CLOSED' && caixa.ClosedAt ? `Fechado em ${formatInstant(caixa.ClosedAt)}` : null;
  const facts = [unit, `Caixa de ${formatDateBR(caixa.OpenedOn)}`, closedAt ?? statusLabel(caixa.Status)].filter(Boolean);

  return (
    <>
      <p className="caixa-report-facts">{facts.join(' · ')}</p>
      {caixa.AsOf && (
        <p className="caixa-past-view" role="status">
          <Icon name="history" /> Como estava em {asOf ? wallClockText(asOf) : formatInstant(caixa.AsOf, true)}.
        </p>
      )}
      {showsComparison(caixa) ? (
        <Comparison caixa={caixa} professionals={professionals} asOf={asOf} />
      ) : (
        <CaixaFiguresView figures={caixa} professionals={professionals} chart />
      )}
      {caixa.Corrections.length > 0 && <Corrections corrections={caixa.Corrections} />}
    </>
  );
}

interface ComparisonProps {
  caixa: CaixaDetail;
  professionals: UnitProfessional[] | undefined;
  asOf: string | null;
}

/** 'No fechamento' and 'Agora' side by side (stacked on a phone); what moved is marked. */
function Comparison({ caixa, professionals, asOf }: ComparisonProps) {
  const atClose = caixa.AtClose!;
  const now = useMemo(() => figuresOf(caixa), [caixa]);
  const changed = useMemo(() => changedFigures(atClose, now), [atClose, now]);
  const closeId = useId();
  const nowId = useId();
  return (
    <div className="caixa-compare">
      <section className="caixa-compare-column" aria-labelledby={closeId}>
        <h2 id={closeId} className="caixa-section-title">
          No fechamento
        </h2>
        {atClose.ClosedAt && <p className="caixa-compare-note">Fechado em {formatInstant(atClose.ClosedAt)}</p>}
        <CaixaFiguresView figures={atClose} professionals={professionals} level={3} />
      </section>
      <section className="caixa-compare-column" aria-labelledby={nowId}>
        <h2 id={nowId} className="caixa-section-title">
          {asOf ? `Em ${wallClockText(asOf)}` : 'Agora'}
        </h2>
        <p className="caixa-compare-note">
          {changed.size ? 'Os valores alterados pelas correções estão destacados.' : 'Nenhum valor mudou desde o fechamento.'}
        </p>
        <CaixaFiguresView figures={now} professionals={professionals} level={3} changed={changed} chart />
      </section>
    </div>
  );
}

const correctionColumns: Column<CaixaCorrection>[] = [
  { header: 'Quando', cell: (correction) => formatInstant(correction.At) },
  { header: 'Quem', cell: (correction) => correction.UserName || '—' },
  {
    header: 'O que',
    cell: (correction) => (
      <>
        {correction.Description}
        {correction.IdComanda != null && <span className="caixa-correction-comanda"> (comanda n.º {correction.IdComanda})</span>}
      </>
    ),
  },
  { header: 'Valor', cell: (correction) => (correction.Value == null ? '—' : formatBRL(correction.Value)) },
  { header: 'Motivo', cell: (correction) => correction.Reason || '—' },
];

/** Every change after the first close, apart from what was closed. */
function Corrections({ corrections }: { corrections: CaixaCorrection[] }) {
  const titleId = useId();
  return (
    <section className="caixa-corrections" aria-labelledby={titleId}>
      <h2 id={titleId} className="caixa-section-title">
        Correções
      </h2>
      <DataTable
        label="Correções"
        columns={correctionColumns}
        rows={corrections.map((correction, index) => ({ ...correction, index }))}
        rowKey={(correction) => correction.index}
        emptyText="Nenhuma correção."
      />
    </section>
  );
}
