// The commission screen's words and figures, pure: labels, who may do what, the period's
// defaults and rules, the comandas' rows, the chart's bars, the CSV and the forms' rules.
import * as yup from 'yup';
import { fieldErrorsOf } from '@/components/form/serverErrors';
import { addDays, formatDateBR, MONTH_NAMES, parseIso } from '@/lib/dates';
import { csvDocument, csvNumber, csvText, fileSlug } from '@/lib/csv';
import { formatBRL } from '@/lib/money';
import type { EntryKind, PayoutMethod, Period, Statement, StatementEntry, StatementLine } from './types';

export const COMMISSION_PATH = '/dashboard/commission';

/** A comanda's screen, where its lines and commissions are. */
export const comandaPath = (id: number) => `/dashboard/comanda/${id}`;

export const ENTRY_KINDS: readonly EntryKind[] = ['vale', 'bonus'];

export const ENTRY_KIND_LABELS: Record<EntryKind, string> = { vale: 'Vale', bonus: 'Bônus' };

/** An entry's kind as the screen names it; an unknown code shows as sent. */
export const entryKindLabel = (kind: string) => ENTRY_KIND_LABELS[kind as EntryKind] ?? kind;

export const PAYOUT_METHODS: readonly PayoutMethod[] = ['cash', 'pix', 'transfer'];

export const PAYOUT_METHOD_LABELS: Record<PayoutMethod, string> = { cash: 'Dinheiro', pix: 'Pix', transfer: 'Transferência' };

/** A payout's method as the screen names it; an unknown code shows as sent. */
export const payoutMethodLabel = (method: string) => PAYOUT_METHOD_LABELS[method as PayoutMethod] ?? method;

/**
 * Only ADMIN picks a professional, records vales and bonuses, closes periods and looks at a
 * statement as it stood; everyone else reads their own (the server answers another's with 404).
 */
export const mayManageCommissions = (role: string | null | undefined) => role === 'ADMIN';

// ---------------------------------------------------------------------------
// The period

export const isIsoDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The default period: the first day of today's month to today. */
export const monthToDate = (today: string) => ({ from: `${today.slice(0, 8)}01`, to: today });

export const FROM_REQUIRED = 'Informe a data inicial.';
export const TO_REQUIRED = 'Informe a data final.';
export const TO_BEFORE_FROM = 'A data final deve ser igual ou posterior à inicial.';

/** What is wrong with a period as typed (the server's own rules, e.g. one year at most, answer a 422). */
export function periodErrors(from: string, to: string): { from?: string; to?: string } {
  const errors: { from?: string; to?: string } = {};
  if (!isIsoDay(from)) errors.from = FROM_REQUIRED;
  if (!isIsoDay(to)) errors.to = TO_REQUIRED;
  else if (!errors.from && to < from) errors.to = TO_BEFORE_FROM;
  return errors;
}

/** The 'Ver como estava em' control's value as asOf ('YYYY-MM-DDTHH:MM[:SS]', the units' clock), or null. */
export function asOfOfInput(value: string): string | null {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? value : null;
}

/** '01/11/2026 a 27/11/2026'. */
export const periodText = (from: string, to: string) => `${formatDateBR(from)} a ${formatDateBR(to)}`;

/** 'Período fechado e pago em 30/11/2026 por Pix'. */
export const paidText = (period: Pick<Period, 'PaidAt' | 'Method'>) =>
  `Período fechado e pago em ${formatDateBR(period.PaidAt)} por ${payoutMethodLabel(period.Method)}`;

/** How a statement's read failed: a 422's field messages, the professional unknown to the user (404), or anything else. */
export type StatementFailure = { kind: 'fields'; errors: Record<string, string> } | { kind: 'notFound' } | { kind: 'other' };

export function statementFailure(error: unknown): StatementFailure {
  const errors = fieldErrorsOf(error);
  if (errors) return { kind: 'fields', errors };
  if (error && typeof error === 'object' && 'status' in error && error.status === 404) return { kind: 'notFound' };
  return { kind: 'other' };
}

// ---------------------------------------------------------------------------
// Figures

/** Reais to integer centavos, so sums never drift. */
const cents = (reais: number) => Math.round(reais * 100);

/** The negative of a value (a vale, a card fee), never '-R$ 0,00'. */
export const negated = (value: number) => (value === 0 ? 0 : -value);

/** An entry's effect on what is due: a vale takes off, a bonus adds. */
export const entryEffect = (entry: Pick<StatementEntry, 'Kind' | 'Value'>) => (entry.Kind === 'vale' ? negated(entry.Value) : entry.Value);

export interface Figure {
  label: string;
  value: number;
  /** The one the others add up to ('Líquido a pagar'). */
  total?: boolean;
}

/** The statement's key figures, signed as they count towards what is due. */
export function statementFigures(statement: Statement): Figure[] {
  return [
    { label: 'Serviços', value: statement.Services },
    { label: 'Produtos', value: statement.Products },
    { label: 'Comissão', value: statement.Commission },
    { label: 'Gorjetas', value: statement.Tips },
    { label: 'Vales', value: negated(statement.Vales) },
    { label: 'Bônus', value: statement.Bonuses },
    // The card machine's fee shared, for a professional whose rates share it.
    ...(statement.CardFees ? [{ label: 'Taxas de cartão', value: negated(statement.CardFees) }] : []),
    { label: 'Ajustes', value: statement.Adjustments },
    { label: 'Líquido a pagar', value: statement.Net, total: true },
    // Lei 13.352/2016: a profissional-parceiro's statement names both cota-partes.
    ...(statement.Partner
      ? [
          { label: 'Cota-parte do profissional-parceiro', value: statement.PartnerShare },
          { label: 'Cota-parte do salão-parceiro', value: statement.SalonShare },
        ]
      : []),
  ];
}

const percentFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/** A line's rate at the close, as the comanda's screen writes it: '40%', '12,5%' or 'R$ 30,00 fixo' (per unit). */
export function rateText(line: Pick<StatementLine, 'Percent' | 'Fixed'>): string {
  if (line.Fixed != null) return `${formatBRL(line.Fixed)} fixo`;
  if (line.Percent != null) return `${percentFormat.format(line.Percent)}%`;
  return '-';
}

const KIND_LABELS: Record<string, string> = { service: 'Serviço', product: 'Produto' };

/**
 * What a line sold and at which rate: 'Serviço · Assinatura · R$ 50,00 · 40% · taxa de cartão
 * -R$ 0,60' (the club's cover and the card fee shared only when they apply).
 */
export function lineDetail(line: Pick<StatementLine, 'Kind' | 'Club' | 'Value' | 'Percent' | 'Fixed' | 'CardFee'>): string {
  return [
    KIND_LABELS[line.Kind] ?? line.Kind,
    line.Club ? 'Assinatura' : null,
    formatBRL(line.Value),
    rateText(line),
    line.CardFee ? `taxa de cartão ${formatBRL(negated(line.CardFee))}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A comanda of the statement with its lines. */
export interface ComandaRow {
  IdComanda: number;
  Date: string;
  Commission: number;
  Tips: number;
  Lines: StatementLine[];
}

const byDateThenComanda = (a: { Date: string; IdComanda: number }, b: { Date: string; IdComanda: number }) =>
  a.Date.localeCompare(b.Date) || a.IdComanda - b.IdComanda;

/** The statement's lines in the order the screen and the CSV list them: by day, comanda and item. */
export const sortedLines = (lines: readonly StatementLine[]) =>
  [...lines].sort((a, b) => byDateThenComanda(a, b) || a.IdItem - b.IdItem);

/**
 * One row per comanda, by day: its commission and tips, and its lines. A line whose comanda
 * the answer does not list still shows, under a row of its own.
 */
export function comandaRows(statement: Pick<Statement, 'Comandas' | 'Lines'>): ComandaRow[] {
  const rows = new Map<number, ComandaRow>();
  for (const comanda of statement.Comandas) rows.set(comanda.IdComanda, { ...comanda, Lines: [] });
  for (const line of sortedLines(statement.Lines)) {
    let row = rows.get(line.IdComanda);
    if (!row) {
      row = { IdComanda: line.IdComanda, Date: line.Date, Commission: 0, Tips: 0, Lines: [] };
      rows.set(line.IdComanda, row);
    }
    row.Lines.push(line);
  }
  // A row made up from lines alone earns what its lines do.
  const listed = new Set(statement.Comandas.map((comanda) => comanda.IdComanda));
  for (const row of rows.values()) {
    if (!listed.has(row.IdComanda)) row.Commission = sumOf(row.Lines.map((line) => line.Commission));
  }
  return [...rows.values()].sort(byDateThenComanda);
}

export const sumOf = (values: readonly number[]) => values.reduce((total, value) => total + cents(value), 0) / 100;

// ---------------------------------------------------------------------------
// The chart

/** Up to this many days the chart has a bar per day; a longer period, one per month. */
export const DAILY_LIMIT = 62;

export interface CommissionBar {
  key: string;
  /** The axis' label: '27/11' or 'nov/2026'. */
  label: string;
  /** The table's and the tooltip's: '27/11/2026' or 'Novembro de 2026'. */
  title: string;
  commission: number;
}

export interface CommissionBars {
  unit: 'day' | 'month';
  bars: CommissionBar[];
}

/** The comandas' commission per day of the period (every day, zero included), or per month for a long one. */
export function commissionBars(statement: Pick<Statement, 'From' | 'To' | 'Comandas' | 'Lines'>): CommissionBars {
  const perDay = new Map<string, number>();
  for (const row of comandaRows(statement)) perDay.set(row.Date, (perDay.get(row.Date) ?? 0) + cents(row.Commission));
  const days: string[] = [];
  if (isIsoDay(statement.From) && isIsoDay(statement.To)) {
    for (let day = statement.From; day <= statement.To && days.length <= 366; day = addDays(day, 1)) days.push(day);
  }
  if (days.length <= DAILY_LIMIT) {
    return {
      unit: 'day',
      bars: days.map((day) => ({
        key: day,
        label: formatDateBR(day).slice(0, 5),
        title: formatDateBR(day),
        commission: (perDay.get(day) ?? 0) / 100,
      })),
    };
  }
  const perMonth = new Map<string, CommissionBar>();
  for (const day of days) {
    const key = day.slice(0, 7);
    const [year, month] = parseIso(day);
    const name = MONTH_NAMES[month - 1];
    const bar = perMonth.get(key) ?? {
      key,
      label: `${name.slice(0, 3).toLowerCase()}/${year}`,
      title: `${name} de ${year}`,
      commission: 0,
    };
    bar.commission = (cents(bar.commission) + (perDay.get(day) ?? 0)) / 100;
    perMonth.set(key, bar);
  }
  return { unit: 'month', bars: [...perMonth.values()] };
}

/** What a chart shows when there is nothing to draw (the home's words). */
export const EMPTY_CHART = 'Sem dados no período.';

/** Nothing to draw when no comanda earned anything. */
export const hasCommission = (bars: readonly CommissionBar[]) => bars.some((bar) => bar.commission !== 0);

// ---------------------------------------------------------------------------
// The CSV

export const CSV_HEADER = ['Data', 'Comanda', 'Descrição', 'Quantidade', 'Valor', 'Regra', 'Comissão'];

/**
 * The statement's lines as a CSV for a spreadsheet: 'Data;Comanda;Descrição;Quantidade;Valor;
 * Regra;Comissão', a line per row, the lines' total, then the statement's figures; ';'
 * separated, decimal comma, CRLF line ends, UTF-8 with a BOM (Excel reads the accents right).
 */
export function statementCsv(statement: Statement): string {
  const lines = sortedLines(statement.Lines);
  const rows: string[][] = [
    CSV_HEADER,
    ...lines.map((line) => [
      formatDateBR(line.Date),
      String(line.IdComanda),
      csvText(line.Description),
      String(line.Quantity),
      csvNumber(line.Value),
      csvText(rateText(line)),
      csvNumber(line.Commission),
    ]),
    [
      'Total',
      '',
      '',
      String(lines.reduce((total, line) => total + line.Quantity, 0)),
      csvNumber(sumOf(lines.map((line) => line.Value))),
      '',
      csvNumber(sumOf(lines.map((line) => line.Commission))),
    ],
    [],
    ...statementFigures(statement).map((figure) => [csvText(figure.label), csvNumber(figure.value)]),
  ];
  return csvDocument(rows);
}

/** 'comissoes-diego-barbeiro-2026-11-01-2026-11-27.csv'. */
export const csvFileName = (name: string, from: string, to: string) => `comissoes-${fileSlug(name, 'profissional')}-${from}-${to}.csv`;

// ---------------------------------------------------------------------------
// Forms

const REASON_MAX = 500;

export interface EntryValues {
  kind: EntryKind;
  value: number;
  reason: string;
}

export const entrySchema = yup.object({
  kind: yup.string().oneOf(ENTRY_KINDS, 'Escolha o tipo.').required('Escolha o tipo.'),
  value: yup.number().default(0).moreThan(0, 'Informe um valor maior que zero.'),
  reason: yup
    .string()
    .default('')
    .trim()
    .required('Informe o motivo.')
    .max(REASON_MAX, `O motivo deve ter no máximo ${REASON_MAX} caracteres.`),
}) as yup.ObjectSchema<EntryValues>;

export interface ClosePeriodValues {
  from: string;
  to: string;
  paidAt: string;
  /** '' until chosen. */
  method: PayoutMethod | '';
}

export const closePeriodSchema = yup.object({
  from: yup.string().default('').matches(/^\d{4}-\d{2}-\d{2}$/, FROM_REQUIRED),
  to: yup
    .string()
    .default('')
    .matches(/^\d{4}-\d{2}-\d{2}$/, TO_REQUIRED)
    .test('after-from', TO_BEFORE_FROM, (to, context) => {
      const from = (context.parent as { from?: string }).from ?? '';
      return !isIsoDay(from) || !isIsoDay(to ?? '') || (to ?? '') >= from;
    }),
  paidAt: yup.string().default('').matches(/^\d{4}-\d{2}-\d{2}$/, 'Informe a data do pagamento.'),
  method: yup.string().default('').oneOf(PAYOUT_METHODS, 'Escolha a forma de pagamento.'),
}) as yup.ObjectSchema<ClosePeriodValues>;
