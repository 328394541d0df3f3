// The time travel's words: what each timeline entry means in pt-BR, when it happened on the
// units' clock (UTC-3) and what caused it; and the past view's banner.
import { chargeGroup, chargeStatusLabel, contractStatusLabel, subscriptionStatusLabel } from '@/lib/club';
import { unitWallClock } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import type { Schemas } from '@/api/wire';
import type { TimelineCharge, TimelineEntry } from './types';

const pad = (n: number) => String(n).padStart(2, '0');

/** 'dd/mm/aaaa HH:MM' (or with seconds) of an instant, on the units' clock (UTC-3). */
export function formatInstant(iso: string, withSeconds = false): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const clock = unitWallClock(time);
  const date = `${pad(clock.getUTCDate())}/${pad(clock.getUTCMonth() + 1)}/${clock.getUTCFullYear()}`;
  const hours = `${pad(clock.getUTCHours())}:${pad(clock.getUTCMinutes())}`;
  return `${date} ${hours}${withSeconds ? `:${pad(clock.getUTCSeconds())}` : ''}`;
}

/** 'dd/mm/aaaa HH:MM' of a datetime-local value ('YYYY-MM-DDTHH:MM', already UTC-3). */
export function formatWallClock(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]} ${match[4]}:${match[5]}` : value;
}

/** The datetime-local value of an instant on the units' clock. */
export function wallClockInput(now: number = Date.now()): string {
  const clock = unitWallClock(now);
  return clock.toISOString().slice(0, 16);
}

/** What the screen is looking at: the present, or the state at an instant. */
export interface PastView {
  /** Sent as ?asOf: an entry's RFC 3339 instant, or a typed 'YYYY-MM-DDTHH:MM' (UTC-3). */
  asOf: string;
  /** 'dd/mm/aaaa HH:MM[:SS]' as the user chose it. */
  label: string;
}

/** The past view of a timeline entry: the state right after it (asOf includes the instant). */
export const pastViewOfEntry = (entry: TimelineEntry): PastView => ({
  asOf: entry.At,
  label: formatInstant(entry.At, true),
});

/** The past view of a typed date and time, or null when the text is not one. */
export function pastViewOfInput(value: string): PastView | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  return { asOf: value, label: formatWallClock(value) };
}

export const pastViewBanner = (view: PastView) => `Visualizando como estava em ${view.label}`;

/** Why a past view has nothing to show. */
export const notYetText = (view: PastView) => `Em ${view.label} esta assinatura ainda não existia.`;

// ---------------------------------------------------------------------------
// Entries

const TRANSACTION_FIELD = /^Transaction (\d+) \(parcela (\d+)\)$/;

/** A charge move as the timeline shows it: one read from an older answer's Changes has no value. */
export type ChargeMove = Omit<TimelineCharge, 'Value' | 'To'> & { Value: number | null; To: string | null };

/** The charge moves of an entry: the structured Charges, or (older answers) those in Changes. */
export function chargeMoves(entry: TimelineEntry): ChargeMove[] {
  if (Array.isArray(entry.Charges)) return entry.Charges;
  return (entry.Changes ?? []).flatMap((change) => {
    const match = TRANSACTION_FIELD.exec(change.Field);
    if (!match) return [];
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return [
      {
        GalaxPayId: Number(match[1]),
        Installment: Number(match[2]),
        Value: null,
        From: text(change.From),
        To: text(change.To),
      },
    ];
  });
}

const change = (entry: TimelineEntry, field: string) => (entry.Changes ?? []).find((c) => c.Field === field);

const installmentText = (charge: ChargeMove) =>
  charge.Installment ? `Parcela ${charge.Installment}` : `Cobrança ${charge.GalaxPayId ?? ''}`.trim();

const valueText = (charge: ChargeMove) =>
  typeof charge.Value === 'number' ? ` de ${formatBRL(charge.Value)}` : '';

type ChargeKind = 'created' | 'paid' | 'denied' | 'reversed' | 'canceled' | 'changed';

function chargeKind(charge: ChargeMove): ChargeKind {
  const to = charge.To ?? '';
  if (charge.From === null || charge.From === undefined) {
    return chargeGroup(to) === 'received' ? 'paid' : to === 'denied' ? 'denied' : 'created';
  }
  if (chargeGroup(to) === 'received') return 'paid';
  if (to === 'denied') return 'denied';
  if (to === 'reversed' || to === 'chargeback') return 'reversed';
  if (to === 'cancel' || to === 'cancelByContract' || to === 'notCompensated') return 'canceled';
  return 'changed';
}

/** One line per charge move: 'Parcela 1 de R$ 89,90 criada: Boleto em aberto'. */
export function chargeLine(charge: ChargeMove): string {
  const name = `${installmentText(charge)}${valueText(charge)}`;
  const to = chargeStatusLabel(charge.To ?? '');
  switch (chargeKind(charge)) {
    case 'created':
      return `${name} criada: ${to}`;
    case 'paid':
      return charge.From ? `${name} paga: ${to}` : `${name} criada e paga: ${to}`;
    case 'denied':
      return `${name} negada: ${to}`;
    default:
      return `${name}: ${chargeStatusLabel(charge.From ?? '')} → ${to}`;
  }
}

const KIND_TITLES: [ChargeKind, string][] = [
  ['paid', 'Pagamento recebido'],
  ['denied', 'Pagamento negado'],
  ['reversed', 'Pagamento estornado'],
  ['canceled', 'Cobrança cancelada'],
  ['created', 'Cobrança criada'],
  ['changed', 'Cobrança atualizada'],
];

const STATUS_TITLES: Record<string, string> = {
  canceled: 'Assinatura cancelada no provedor',
  closed: 'Assinatura encerrada',
  stopped: 'Assinatura interrompida',
  inactive: 'Assinatura inativada',
  active: 'Assinatura ativada no provedor',
  waitingPayment: 'Assinatura aguardando pagamento',
};

function providerTitle(entry: TimelineEntry, charges: ChargeMove[]): string {
  const kinds = new Set(charges.map(chargeKind));
  const byCharge = KIND_TITLES.find(([kind]) => kinds.has(kind));
  if (byCharge) return byCharge[1];
  const status = change(entry, 'Status');
  if (status && typeof status.To === 'string') return STATUS_TITLES[status.To] ?? 'Situação da assinatura alterada';
  if ((entry.Changes ?? []).length === 0) {
    return entry.Reason === 'reconciliation' ? 'Conciliação sem mudanças' : 'Dados conferidos no provedor, sem mudanças';
  }
  return 'Dados atualizados pelo provedor';
}

/** Who or what caused an entry. */
export function causeOf(entry: TimelineEntry): string {
  // Either source's fields, where it has them.
  const source: Partial<Schemas['StaffSource'] & Schemas['WebhookSource']> = entry.Source ?? {};
  const staffName = entry.UserName ?? (typeof source.UserName === 'string' ? source.UserName : null);
  switch (entry.Reason) {
    case 'webhook': {
      const event = typeof source.WebhookEvent === 'string' ? ` (${source.WebhookEvent})` : '';
      return `Webhook do provedor de pagamento${event}`;
    }
    case 'reconciliation':
      return 'Conciliação automática com o provedor';
    case 'checkout':
      return entry.UserName?.trim() ? entry.UserName : 'Checkout';
    case 'cancellation':
      return 'Resposta do provedor ao cancelamento';
    case 'staff':
      return staffName ? `${staffName} (equipe)` : 'Equipe';
    default:
      return entry.Reason || '—';
  }
}

export type EntryTone = 'good' | 'bad' | 'neutral';

export interface EntryText {
  when: string;
  title: string;
  details: string[];
  cause: string;
  tone: EntryTone;
}

/** An entry in words: when, what happened (a title and its details) and what caused it. */
export function describeEntry(entry: TimelineEntry): EntryText {
  const charges = chargeMoves(entry);
  const details: string[] = charges.map(chargeLine);
  const status = change(entry, 'Status');
  if (status) {
    const from = status.From ? `${subscriptionStatusLabel(String(status.From))} → ` : '';
    details.push(`Assinatura: ${from}${subscriptionStatusLabel(String(status.To ?? ''))}`);
  }
  const contract = change(entry, 'InternalStatus');
  if (contract) {
    const from = contract.From ? `${contractStatusLabel(String(contract.From))} → ` : '';
    details.push(`Contrato: ${from}${contractStatusLabel(String(contract.To ?? ''))}`);
  }
  const received = change(entry, 'AmountReceived');
  if (received) details.push(`Valor recebido: ${formatBRL(Number(received.To ?? 0))}`);
  const toReceive = change(entry, 'AmountToReceive');
  if (toReceive) details.push(`Valor a receber: ${formatBRL(Number(toReceive.To ?? 0))}`);

  let title: string;
  switch (entry.Event) {
    case 'SubscriptionCreated':
      title = 'Assinatura criada';
      break;
    case 'CancellationRequested':
      title = 'Cancelamento solicitado';
      break;
    case 'ReminderSent':
      title = 'Lembrete de cobrança enviado por WhatsApp';
      break;
    case 'ProviderReported':
      title = providerTitle(entry, charges);
      break;
    default:
      title = entry.Event;
  }
  if (entry.Reason === 'reconciliation' && entry.Event === 'ProviderReported' && !title.startsWith('Conciliação')) {
    title = `Conciliação: ${title.charAt(0).toLowerCase()}${title.slice(1)}`;
  }

  const kinds = new Set(charges.map(chargeKind));
  const tone: EntryTone = kinds.has('paid')
    ? 'good'
    : kinds.has('denied') || kinds.has('reversed') || entry.Event === 'CancellationRequested'
      ? 'bad'
      : 'neutral';
  return { when: formatInstant(entry.At, true), title, details, cause: causeOf(entry), tone };
}
