// The 'Mensagens' screen's words and figures, pure (issue 44): the reminder's kind, its
// delivery and the client's reply as the desk reads them, and the day's figures.

import { formatDateBR, shortTime } from '@/lib/dates';
import { formatPhone } from '@/lib/masks';
import { PHONE_COUNTRY_CODE } from '@/lib/whatsapp';
import type { MessageDelivery, MessageItem, MessageKind, MessageOutcome, MessageReply, MessageTotals } from './types';

export const MESSAGES_PATH = '/dashboard/messages';

export const NO_MESSAGES = 'Nenhuma mensagem neste dia.';
export const LOAD_FAILED = 'Não foi possível carregar as mensagens.';

/** 'YYYY-MM-DD' of the day control or the address, or null. */
export const dayOfInput = (value: string | null | undefined): string | null =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;

// ---------------------------------------------------------------------------
// A message of the day

export const KIND_LABELS: Record<MessageKind, string> = { r24: '24 h antes', r2: '2 h antes' };

/** Which reminder it is; an unknown kind shows as sent. */
export const kindLabel = (kind: string) => KIND_LABELS[kind as MessageKind] ?? kind;

/** 'dd/mm HH:MM' of the appointment as it stands. */
export const appointmentText = (item: Pick<MessageItem, 'Date' | 'StartTime'>) =>
  `${formatDateBR(item.Date).slice(0, 5)} ${shortTime(item.StartTime)}`;

/** The number it went to as the screens write phones: '(11) 98765-4321' of '5511987654321'. */
export function phoneText(to: string): string {
  const national = to.startsWith(PHONE_COUNTRY_CODE) && to.length > 11 ? to.slice(PHONE_COUNTRY_CODE.length) : to;
  return formatPhone(national);
}

/** How a delivery reads: waiting, on its way, on the phone, or a failure the desk should call about. */
export type DeliveryTone = 'waiting' | 'sent' | 'delivered' | 'failed';

export interface DeliveryState {
  label: string;
  tone: DeliveryTone;
  /** The provider's words for a refusal or a failure, or why it was skipped (the label's title). */
  title?: string;
}

const DELIVERY: Record<MessageDelivery, Omit<DeliveryState, 'title'>> = {
  SENT: { label: 'Enviada', tone: 'sent' },
  DELIVERED: { label: 'Entregue', tone: 'delivered' },
  READ: { label: 'Lida', tone: 'delivered' },
  FAILED: { label: 'Não entregue', tone: 'failed' },
};

/**
 * The 'Entrega' column: never sent ('Não enviada') or refused ('Recusada') first; then the
 * furthest report; without one, 'Aguardando provedor' until the provider answers the send,
 * 'Enviada' once it accepted it.
 */
export function deliveryState(item: Pick<MessageItem, 'Outcome' | 'Delivery' | 'Error'>): DeliveryState {
  const title = item.Error || undefined;
  const outcome = item.Outcome as MessageOutcome;
  if (outcome === 'SKIPPED') return { label: 'Não enviada', tone: 'failed', title };
  if (outcome === 'REFUSED') return { label: 'Recusada', tone: 'failed', title };
  if (item.Delivery) {
    const known = DELIVERY[item.Delivery as MessageDelivery];
    if (!known) return { label: item.Delivery, tone: 'sent' };
    return known.tone === 'failed' ? { ...known, title } : known;
  }
  if (outcome === 'REQUESTED') return { label: 'Aguardando provedor', tone: 'waiting' };
  return DELIVERY.SENT;
}

/** The 'Resposta' column: 'Confirmou 14:05', 'Cancelou 14:05' or '—'. */
export function replyText(item: Pick<MessageItem, 'Reply' | 'RepliedAt'>): string {
  const words: Record<MessageReply, string> = { CONFIRMAR: 'Confirmou', CANCELAR: 'Cancelou' };
  const said = item.Reply ? words[item.Reply as MessageReply] : undefined;
  if (!said) return '—';
  return item.RepliedAt ? `${said} ${item.RepliedAt}` : said;
}

/** '2 tentativas' when the send was tried more than once (a crash or a provider outage). */
export const attemptsText = (attempts: number) => (attempts > 1 ? `${attempts} tentativas` : null);

// ---------------------------------------------------------------------------
// The day's figures

const rate = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/** '33,3%' of 33.3 (the server's percent, one decimal); '—' when none was sent. */
export const confirmationRateText = (value: number | null | undefined) => (value == null ? '—' : `${rate.format(value)}%`);

export interface DayFigure {
  label: string;
  value: string;
}

/** The tiles over the list, in order. */
export const dayFigures = (totals: MessageTotals): DayFigure[] => [
  { label: 'Enviadas', value: String(totals.Sent) },
  { label: 'Entregues', value: String(totals.Delivered) },
  { label: 'Lidas', value: String(totals.Read) },
  { label: 'Falharam', value: String(totals.Failed) },
  { label: 'Confirmadas', value: String(totals.Confirmed) },
  { label: 'Canceladas', value: String(totals.Cancelled) },
  { label: 'Taxa de confirmação', value: confirmationRateText(totals.ConfirmationRate) },
];
