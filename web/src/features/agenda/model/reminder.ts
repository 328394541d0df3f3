// The WhatsApp reminder of an appointment on the agenda (issue 44): the latest one about its
// current time, as the day list answers it (`DayItem.Reminder`), in a few words for the card.

import type { DayItem } from './types';

/** How the latest reminder stands: decided, accepted, delivered, read, undelivered, or never sent. */
export type Reminder = 'SENDING' | 'SENT' | 'DELIVERED' | 'READ' | 'FAILED' | 'SKIPPED';

export const REMINDER_LABELS: Record<Reminder, string> = {
  SENDING: 'Enviando lembrete',
  SENT: 'Lembrete enviado',
  DELIVERED: 'Lembrete entregue',
  READ: 'Lembrete lido',
  FAILED: 'Lembrete não entregue',
  SKIPPED: 'Lembrete não enviado',
};

/** What the front desk should do about an undelivered reminder (the card's hint). */
export const REMINDER_FAILED_HINT = 'O WhatsApp não entregou o lembrete: ligue para o cliente.';

/** The reminder's state, or null (none was due, or a value this screen does not know). */
export const reminderOf = (item: Pick<DayItem, 'Reminder'>): Reminder | null =>
  item.Reminder && item.Reminder in REMINDER_LABELS ? (item.Reminder as Reminder) : null;

/** The hint shown on hover: only a failed reminder asks for something. */
export const reminderHint = (reminder: Reminder): string | undefined =>
  reminder === 'FAILED' ? REMINDER_FAILED_HINT : undefined;
