// Wire shapes of the WhatsApp reminders' calls (issue 44, docs/messages.md). Answers
// PascalCase; days 'YYYY-MM-DD', times on the unit's clock.

import type { Schemas } from '@/api/wire';

/** What a day's (or a period's) messages came to; ConfirmationRate in percent (33.3), null when none was sent. */
export type MessageTotals = Schemas['MessageTotals'];

/** One message of the day: its appointment as it stands, its delivery and the client's reply. */
export type MessageItem = Schemas['MessageItem'];

/** GET message/day: a unit's messages sent on a day, in the order sent, and their totals. */
export type MessageDay = Schemas['MessageDay'];

/** GET message/day's parameters. */
export interface MessageDayTarget {
  idCompany: number;
  /** The day they were sent, on the unit's clock. */
  date: string;
}

/** The reminder 24 hours or 2 hours before the appointment. */
export type MessageKind = 'r24' | 'r2';

/** What the provider answered to the send: nothing yet, accepted, refused; or never sent. */
export type MessageOutcome = 'REQUESTED' | 'ACCEPTED' | 'REFUSED' | 'SKIPPED';

/** The furthest delivery report (READ counts as delivered too). */
export type MessageDelivery = 'SENT' | 'DELIVERED' | 'READ' | 'FAILED';

/** The quick-reply button the client pressed. */
export type MessageReply = 'CONFIRMAR' | 'CANCELAR';
