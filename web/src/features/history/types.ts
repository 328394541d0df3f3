// Wire shapes of the audits (query-api/src/history.rs, `HistoryEntry`): one per event of a
// stream, oldest first, with who made it and which fields changed.

import type { Schemas } from '@/api/wire';

/** One field that changed (`Field` a path: `start`, `address.city`, `weekDay 2.periods`...). */
export type HistoryChange = Schemas['Change'];

/**
 * One event of the stream: who made it (UserId and Role null for the system: demo load,
 * provider webhooks), why when the action recorded it, and the fields it changed.
 */
export type HistoryEntry = Schemas['HistoryEntry'];

/** Whose history: an appointment, a client, a professional, a unit or a comanda (issue 41). */
export type HistorySubject = 'appointment' | 'client' | 'professional' | 'company' | 'comanda';

export interface HistoryTarget {
  subject: HistorySubject;
  id: number;
}
