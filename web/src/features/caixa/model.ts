// The caixa's words and figures, pure: method labels, the difference's sign and tone, who
// may do what, the forms' rules, and what changed since the close.
import * as yup from 'yup';
import { formatBRL } from '@/lib/money';
import type {
  CaixaClosePayload,
  CaixaDetail,
  CaixaEntry,
  CaixaFigures,
  CaixaStatus,
  MovementKind,
  PaymentMethod,
  UnitProfessional,
} from './types';

export const CAIXA_PATH = '/dashboard/caixa';
export const caixaReportPath = (id: number) => `${CAIXA_PATH}/${id}`;

/** Every method, in the order the screens list them. */
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['cash', 'pix', 'credit', 'debit', 'subscription'];

export const METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Dinheiro',
  pix: 'Pix',
  credit: 'Cartão de crédito',
  debit: 'Cartão de débito',
  subscription: 'Assinatura',
};

/** A method's label; an unknown code shows as sent. */
export const methodLabel = (method: string) => METHOD_LABELS[method as PaymentMethod] ?? method;

export const MOVEMENT_LABELS: Record<MovementKind, string> = { sangria: 'Sangria', reforco: 'Reforço' };

export const movementLabel = (kind: string) => MOVEMENT_LABELS[kind as MovementKind] ?? kind;

export const STATUS_LABELS: Record<CaixaStatus, string> = { OPEN: 'Aberto', CLOSED: 'Fechado' };

export const statusLabel = (status: string) => STATUS_LABELS[status as CaixaStatus] ?? status;

/** One row per method, every method listed (zero when nothing came in with it). */
export function entryRows(entries: readonly CaixaEntry[]): CaixaEntry[] {
  const known = PAYMENT_METHODS.map(
    (method) => entries.find((entry) => entry.Method === method) ?? { Method: method, Count: 0, Value: 0 },
  );
  // A method the screens do not know yet still shows, after the known ones.
  return [...known, ...entries.filter((entry) => !(PAYMENT_METHODS as readonly string[]).includes(entry.Method))];
}

/** What the payments brought in, every method together. */
export const entriesTotal = (entries: readonly CaixaEntry[]) => sum(entries.map((entry) => entry.Value));

export const sum = (values: readonly number[]) => Math.round(values.reduce((total, value) => total + value * 100, 0)) / 100;

/** '3 pagamentos', '1 pagamento', '—'. */
export const countText = (count: number) => (count === 0 ? '—' : `${count} ${count === 1 ? 'pagamento' : 'pagamentos'}`);

export type DifferenceTone = 'missing' | 'over' | 'even';

/** Negative: cash is missing; positive: there is more than expected. */
export function differenceTone(difference: number): DifferenceTone {
  if (difference < 0) return 'missing';
  if (difference > 0) return 'over';
  return 'even';
}

/** The class that colours a difference: red when cash is missing. */
export const DIFFERENCE_CLASS: Record<DifferenceTone, string> = {
  missing: 'caixa-difference-missing',
  over: 'caixa-difference-over',
  even: 'caixa-difference-even',
};

/** '−R$ 2,00', '+R$ 1,50', 'R$ 0,00': the sign always written. */
export function differenceText(difference: number): string {
  const amount = formatBRL(Math.abs(difference));
  if (difference < 0) return `−${amount}`;
  if (difference > 0) return `+${amount}`;
  return amount;
}

/** What the difference means, in words (the colour is not the only sign). */
export const DIFFERENCE_HINT: Record<DifferenceTone, string> = {
  missing: 'Falta dinheiro',
  over: 'Sobra dinheiro',
  even: 'Sem diferença',
};

/** The same, for a card machine's total against the caixa's card payments. */
export const CARD_MACHINE_HINT: Record<DifferenceTone, string> = {
  missing: 'Maquininha abaixo dos pagamentos',
  over: 'Maquininha acima dos pagamentos',
  even: 'Confere',
};

/** ADMIN and ATTENDANT open, move and close a caixa (the server refuses the others). */
export const mayOperateCaixa = (role: string | null | undefined) => role === 'ADMIN' || role === 'ATTENDANT';

/** Only ADMIN reopens a closed caixa and looks at one as it stood at an earlier instant. */
export const mayReopenCaixa = (role: string | null | undefined) => role === 'ADMIN';
export const mayLookBack = mayReopenCaixa;

/** A professional's name for the tips; one the unit no longer lists shows by its number. */
export function professionalName(professionals: readonly UnitProfessional[] | undefined, id: number): string {
  return professionals?.find((professional) => professional.IdProfessional === id)?.Name ?? `Profissional n.º ${id}`;
}

/**
 * The keys of the figures that differ between two readings of a caixa ('ExpectedCash',
 * 'entry:cash', 'tip:7', ...): what a correction after the close moved.
 */
export function changedFigures(before: CaixaFigures, now: CaixaFigures): Set<string> {
  const changed = new Set<string>();
  const scalars = ['OpeningCash', 'CashTaken', 'Sangrias', 'Reforcos', 'ExpectedCash', 'CountedCash', 'Difference'] as const;
  // Counted and difference are absent (or null) while open.
  for (const key of scalars) if ((before[key] ?? null) !== (now[key] ?? null)) changed.add(key);
  const beforeEntries = entryRows(before.Entries);
  for (const entry of entryRows(now.Entries)) {
    const old = beforeEntries.find((e) => e.Method === entry.Method);
    if (!old || old.Value !== entry.Value || old.Count !== entry.Count) changed.add(`entry:${entry.Method}`);
  }
  for (const count of now.CardMachine) {
    const old = before.CardMachine.find((c) => c.Method === count.Method);
    if (!old || old.Expected !== count.Expected || old.Counted !== count.Counted) changed.add(`machine:${count.Method}`);
  }
  const ids = new Set([...before.Tips, ...now.Tips].map((tip) => tip.IdProfessional));
  for (const id of ids) {
    const value = (tips: CaixaFigures['Tips']) => tips.find((tip) => tip.IdProfessional === id)?.Value ?? 0;
    if (value(before.Tips) !== value(now.Tips)) changed.add(`tip:${id}`);
  }
  return changed;
}

/** Whether the report shows the close and now side by side: a close, and corrections after it. */
export const showsComparison = (caixa: CaixaDetail) => Boolean(caixa.AtClose) && caixa.Corrections.length > 0;

/** The figures of a caixa's answer (the top level: as it stands, or stood at asOf). */
export function figuresOf(caixa: CaixaFigures): CaixaFigures {
  const { OpeningCash, Entries, Tips, Sangrias, Reforcos, Movements, CashTaken, ExpectedCash, CountedCash, Difference, ClosedAt, CardMachine } =
    caixa;
  return { OpeningCash, Entries, Tips, Sangrias, Reforcos, Movements, CashTaken, ExpectedCash, CountedCash, Difference, ClosedAt, CardMachine };
}

/** The 'Ver como estava em' control's value as asOf ('YYYY-MM-DDTHH:MM[:SS]', the units' clock), or null. */
export function asOfOfInput(value: string): string | null {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? value : null;
}

// ---------------------------------------------------------------------------
// Forms

const REASON_MAX = 500;

const reasonRule = yup
  .string()
  .default('')
  .trim()
  .required('Informe o motivo.')
  .max(REASON_MAX, `O motivo deve ter no máximo ${REASON_MAX} caracteres.`);

export interface OpenCaixaValues {
  /** Not a field of its own: the unit chosen above (the server's 422 on it shows here). */
  idCompany: number;
  openingCash: number;
}

export const openCaixaSchema = yup.object({
  idCompany: yup.number().required(),
  openingCash: yup.number().default(0).min(0, 'O valor não pode ser negativo.'),
}) as yup.ObjectSchema<OpenCaixaValues>;

export interface MovementValues {
  value: number;
  reason: string;
}

export const movementSchema = yup.object({
  value: yup.number().default(0).moreThan(0, 'Informe o valor.'),
  reason: reasonRule,
}) as yup.ObjectSchema<MovementValues>;

export interface CloseValues {
  countedCash: number;
  /** Whether the desk read the card machine's totals (then both are sent, R$ 0,00 included). */
  withCardMachine: boolean;
  machineCredit: number;
  machineDebit: number;
}

const notNegative = () => yup.number().default(0).min(0, 'O valor não pode ser negativo.');

export const closeSchema = yup.object({
  countedCash: notNegative(),
  withCardMachine: yup.boolean().default(false),
  machineCredit: notNegative(),
  machineDebit: notNegative(),
}) as yup.ObjectSchema<CloseValues>;

/** POST caixa/{id}/close: the cash counted, and the card machine's totals when read. */
export function closePayload(values: CloseValues): CaixaClosePayload {
  if (!values.withCardMachine) return { countedCash: values.countedCash };
  return { countedCash: values.countedCash, machineCredit: values.machineCredit, machineDebit: values.machineDebit };
}

export interface ReasonValues {
  reason: string;
}

export const reasonSchema = yup.object({ reason: reasonRule }) as yup.ObjectSchema<ReasonValues>;
