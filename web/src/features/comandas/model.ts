// The comanda screens' rules, kept apart from the components so they can be tested alone
// (issue 41 §8; the figures and their meaning are docs/money.md's).

import type { OfferedService } from '@/components/staff/types';
import { formatBRL } from '@/lib/money';
import type { UnitService } from '@/features/agenda';
import type {
  Comanda,
  ComandaCommissionLine,
  ComandaItem,
  ComandaPayment,
  ComandaPix,
  ComandaStatus,
  ComandaWritten,
  DiscountPayload,
  ItemPayload,
  PaymentPayload,
  PixStatus,
  PixWritten,
} from './types';

export const COMANDAS_PATH = '/dashboard/comanda';
export const comandaPath = (id: number) => `${COMANDAS_PATH}/${id}`;

export const STATUS_LABELS: Record<ComandaStatus, string> = {
  OPEN: 'Aberta',
  CLOSED: 'Fechada',
  CANCELED: 'Cancelada',
};

export const statusLabel = (status: string) => STATUS_LABELS[status as ComandaStatus] ?? status;

/** The badge class of a status (the agenda's badges). */
export const statusBadge = (status: string) =>
  status === 'OPEN' ? 'badge-warning' : status === 'CLOSED' ? 'badge-success' : 'badge-danger';

export const STATUS_FILTER_OPTIONS = [
  { value: '', label: 'Todos' },
  ...(Object.entries(STATUS_LABELS) as [ComandaStatus, string][]).map(([value, label]) => ({ value, label })),
];

/** The methods the desk takes ('subscription' is the club's, written by the server). */
export type DeskMethod = 'cash' | 'pix' | 'credit' | 'debit';

export const PAYMENT_METHODS: { value: DeskMethod; label: string }[] = [
  { value: 'cash', label: 'Dinheiro' },
  { value: 'pix', label: 'Pix' },
  { value: 'credit', label: 'Cartão de crédito' },
  { value: 'debit', label: 'Cartão de débito' },
];

export const methodLabel = (method: string) =>
  method === 'subscription' ? 'Assinatura' : (PAYMENT_METHODS.find((m) => m.value === method)?.label ?? method);

// --- Who may do what (docs/money.md 'Calls'). -------------------------------------------

/** ADMIN and ATTENDANT work the comanda; the barbers read theirs. */
export const mayOperate = (role: string | null) => role === 'ADMIN' || role === 'ATTENDANT';

/** Only ADMIN reopens a closed comanda. */
export const mayReopen = (role: string | null, status: string) => role === 'ADMIN' && status === 'CLOSED';

/** 'Estorno': ADMIN and ATTENDANT, on an open comanda (ADMIN reopens a closed one first). */
export const mayRefund = (role: string | null, status: string) => mayOperate(role) && status === 'OPEN';

/** Items, discounts, tips and payments change only while the comanda is open. */
export const isEditable = (role: string | null, comanda: Pick<Comanda, 'Status'>) => mayOperate(role) && comanda.Status === 'OPEN';

/** 'Fechar comanda': open, with items, nothing left to pay and no Pix waiting for the client. */
export const mayClose = (comanda: Pick<Comanda, 'Status' | 'Due' | 'Items' | 'Pending' | 'PixCharges'>) =>
  comanda.Status === 'OPEN' && comanda.Items.length > 0 && cents(comanda.Due) === 0 && !hasPendingPix(comanda);

// --- Money. ----------------------------------------------------------------------------

/** Reais to integer centavos (what the server keeps), so sums never drift. */
export const cents = (reais: number) => Math.round(reais * 100);

/** The change of a cash payment: what was handed over less the payment; null until it covers it. */
export function changeOf(value: number, received: number | null | undefined): number | null {
  if (received === null || received === undefined || received === 0) return null;
  const change = cents(received) - cents(value);
  return change >= 0 ? change / 100 : null;
}

/**
 * The comanda's figures in the order the totals block shows them; 'Aguardando Pix' (part of
 * what is left to pay) only while a Pix charge waits for the client.
 */
export function comandaFigures(comanda: Pick<Comanda, 'Subtotal' | 'Discount' | 'Total' | 'TipsTotal' | 'Paid' | 'Pending' | 'Due'>) {
  return [
    { label: 'Subtotal', value: comanda.Subtotal },
    { label: 'Desconto', value: comanda.Discount },
    { label: 'Total', value: comanda.Total },
    { label: 'Gorjetas', value: comanda.TipsTotal },
    { label: 'Pago', value: comanda.Paid },
    ...(cents(comanda.Pending) > 0 ? [{ label: PIX_FIGURE, value: comanda.Pending }] : []),
    { label: 'Falta pagar', value: comanda.Due },
  ];
}

// --- Pix at the counter (docs/money.md 'Pix at the counter'). --------------------------

/** The totals' line of what waits in Pix charges. */
export const PIX_FIGURE = 'Aguardando Pix';

/** While a Pix waits, the comanda is read again this often, should a live notice be missed. */
export const PIX_POLL_MS = 5_000;

export const PIX_MSG = {
  waiting: 'Aguardando pagamento…',
  paid: 'Pix recebido',
  failed: 'Pix expirado ou recusado',
  toRefund: 'Pix pago após o cancelamento: devolva ao cliente.',
  copied: 'Código copiado',
  copyFailed: 'Não foi possível copiar: selecione o código e copie.',
  /** The server's 422 on closing, shown beside the disabled button. */
  closeBlocked: 'Há um Pix aguardando pagamento: espere o cliente pagar ou a cobrança expirar.',
  refund: (value: number) => `Pix pago após o cancelamento: devolva ${formatBRL(value)} ao cliente.`,
};

const PIX_STATUS_TEXT: Record<PixStatus, string> = {
  PENDING: PIX_MSG.waiting,
  PAID: PIX_MSG.paid,
  FAILED: PIX_MSG.failed,
  TO_REFUND: PIX_MSG.toRefund,
};

/** The status line of a Pix charge. */
export const pixStatusText = (status: string) => PIX_STATUS_TEXT[status as PixStatus] ?? status;

/** A Pix waiting for the client: nothing else may take its part, and the comanda does not close. */
export const hasPendingPix = (comanda: Pick<Comanda, 'Pending' | 'PixCharges'>) =>
  cents(comanda.Pending) > 0 || comanda.PixCharges.some((charge) => charge.Status === 'PENDING');

/** What the desk may still take: what is left to pay less what waits in Pix charges. */
export const payable = (comanda: Pick<Comanda, 'Due' | 'Pending'>) => Math.max(0, cents(comanda.Due) - cents(comanda.Pending)) / 100;

/** Pix charges paid after the comanda was cancelled: the shop gives the money back. */
export const pixToRefund = (comanda: Pick<Comanda, 'PixCharges'>) => comanda.PixCharges.filter((charge) => charge.Status === 'TO_REFUND');

/** The Pix charges the payments list shows apart: waiting, or expired and refused (paid ones are payments). */
export const pixOnHold = (comanda: Pick<Comanda, 'PixCharges'>) =>
  comanda.PixCharges.filter((charge) => charge.Status === 'PENDING' || charge.Status === 'FAILED');

/** The charge a Pix payment answered; null on any other write. */
export function pixWrittenOf(answer: ComandaWritten): PixWritten | null {
  const { GalaxPayId, PixQrCode, PixCopyPaste, PixPage } = answer;
  if (GalaxPayId === undefined || PixQrCode === undefined) return null;
  return { GalaxPayId, PixQrCode, PixCopyPaste: PixCopyPaste ?? '', PixPage: PixPage ?? '' };
}

/** The charge the Pix panel shows: the QR code, the 'copia e cola' text, the client's page and the value. */
export type PixShown = Pick<ComandaPix, 'GalaxPayId' | 'Value' | 'PixQrCode' | 'PixCopyPaste' | 'PixPage'>;

// --- Bodies. ---------------------------------------------------------------------------

/** A discount as typed: in reais or in percent. */
export type DiscountMode = 'value' | 'percent';

export const DISCOUNT_MODES: { value: DiscountMode; label: string }[] = [
  { value: 'value', label: 'R$' },
  { value: 'percent', label: '%' },
];

/** PUT comanda/{id}/discount: `{value}` or `{percent}`; zero takes the discount off. */
export function discountPayload(mode: DiscountMode, amount: number | ''): DiscountPayload {
  const value = amount === '' ? 0 : amount;
  if (value === 0) return {};
  return mode === 'percent' ? { percent: value } : { value };
}

export interface ItemValues {
  kind: 'service' | 'product';
  /** The service or the product; 0 none chosen. */
  id: number;
  /** 0 none (a product may go without who sold it). */
  idProfessional: number;
  quantity: number | '';
  discountMode: DiscountMode;
  discount: number | '';
}

/** POST comanda/{id}/items. */
export function itemPayload(values: ItemValues): ItemPayload {
  const discount = values.discount === '' ? 0 : values.discount;
  return {
    kind: values.kind,
    id: values.id || null,
    idProfessional: values.idProfessional || null,
    quantity: values.quantity === '' ? 1 : values.quantity,
    ...(discount === 0 ? {} : values.discountMode === 'percent' ? { discountPercent: discount } : { discount }),
  };
}

export interface PaymentValues {
  /** Where the server's 422s on the method (no caixa open) land. */
  method: DeskMethod;
  value: number;
  cashReceived: number;
  installments: number | '';
  brand: string;
  authorizationCode: string;
  nsu: string;
}

export const paymentValues = (method: DeskMethod, due: number): PaymentValues => ({
  method,
  value: due,
  cashReceived: 0,
  installments: 1,
  brand: '',
  authorizationCode: '',
  nsu: '',
});

const text = (value: string) => value.trim() || null;

/** POST comanda/{id}/payments: each method with its own details only. */
export function paymentPayload(values: PaymentValues): PaymentPayload {
  const body: PaymentPayload = { method: values.method, value: values.value };
  if (values.method === 'cash' && values.cashReceived > 0) body.cashReceived = values.cashReceived;
  if (values.method === 'credit') body.installments = values.installments === '' ? 1 : values.installments;
  if (values.method === 'debit') {
    body.brand = text(values.brand);
    body.authorizationCode = text(values.authorizationCode);
    body.nsu = text(values.nsu);
  }
  return body;
}

/** The second line of a payment in the list. */
export function paymentDetail(payment: ComandaPayment, items: ComandaItem[] = []): string {
  const parts: string[] = [];
  // The club's payment names the line it covers.
  const covered = payment.IdItem != null ? items.find((item) => item.IdItem === payment.IdItem) : undefined;
  if (covered?.Club) parts.push(`${covered.Club.PlanName}: ${covered.Description}`);
  if (payment.CashReceived != null) parts.push(`Recebido ${formatBRL(payment.CashReceived)}`);
  if (payment.Change) parts.push(`Troco ${formatBRL(payment.Change)}`);
  if (payment.Installments && payment.Installments > 1) parts.push(`${payment.Installments}x`);
  if (payment.Brand) parts.push(payment.Brand);
  if (payment.AuthorizationCode) parts.push(`Aut. ${payment.AuthorizationCode}`);
  if (payment.Nsu) parts.push(`NSU ${payment.Nsu}`);
  return parts.join(' · ');
}

/** A line's club cover, in words: 'Clube Navalha −50% · R$ 17,50 pela assinatura'. */
export function clubText(item: ComandaItem): string | null {
  if (!item.Club) return null;
  return `${item.Club.PlanName} −${item.Club.Percent}% · ${formatBRL(item.Club.Covered)} pela assinatura`;
}

// --- Commissions (issue 42; docs/money.md 'Commissions'). -------------------------------

const percentFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/** A line's rate at the close: '40%', '12,5%' or 'R$ 30,00 fixo' (per unit). */
export function commissionRateText(line: Pick<ComandaCommissionLine, 'Percent' | 'Fixed'>): string {
  if (line.Fixed != null) return `${formatBRL(line.Fixed)} fixo`;
  if (line.Percent != null) return `${percentFormat.format(line.Percent)}%`;
  return '-';
}

/** The description of a commission's line: its item's, or 'Item N.º 7' for one no longer listed. */
export const commissionLineText = (items: Pick<ComandaItem, 'IdItem' | 'Description'>[], line: Pick<ComandaCommissionLine, 'IdItem'>) =>
  items.find((item) => item.IdItem === line.IdItem)?.Description ?? `Item N.º ${line.IdItem}`;

// --- Services a professional does in the unit. -----------------------------------------

export interface ServiceChoice {
  id: number;
  label: string;
  price: number;
  /** false: the unit's highest price (the professional's own is known once added). */
  exact: boolean;
}

/**
 * The services to offer for a professional: the ones they offer in this unit at their own
 * price when their list can be read (ADMIN), otherwise the unit's services at the unit's
 * highest price (an ATTENDANT may not read a professional's services; the server answers
 * the line at the professional's price, or refuses a service they do not offer).
 */
export function serviceChoices(unit: UnitService[] | undefined, offered: OfferedService[] | undefined): ServiceChoice[] {
  if (!unit) return [];
  if (!offered) return unit.map((s) => ({ id: s.IdService, label: s.Description, price: s.MaxValue, exact: false }));
  const sold = new Set(unit.map((s) => s.IdService));
  return offered
    .filter((s) => s.Status && sold.has(s.IdService))
    .map((s) => ({ id: s.IdService, label: s.Description, price: s.Value, exact: true }));
}

/** 'Diego' for a professional of the unit; 'Profissional N.º 9' for one no longer listed. */
export const professionalName = (names: Map<number, string>, id: number | null | undefined) =>
  id ? (names.get(id) ?? `Profissional N.º ${id}`) : '-';
