// Wire shapes of the audits (query-api/src/history.rs, `HistoryEntry`): one per event of a
// stream, oldest first, with who made it and which fields changed.

/** One field that changed. `From` is null when it had no value before. */
export interface HistoryChange {
  /** A path: `start`, `address.city`, `weekDay 2.periods`, `item 7.minutes`... */
  Field: string;
  From: unknown;
  To: unknown;
}

export interface HistoryEntry {
  /** The event's number within the stream, from 1. */
  Sequence: number;
  /** RFC 3339, UTC. */
  At: string;
  /** The acting professional; null for the system (demo load, provider webhooks). */
  UserId: number | null;
  /** Their name at the time, or what the system was doing. */
  UserName: string;
  /** Their role at the time (`ADMIN`, `BARBER_LEADE`...); null for the system. */
  Role: string | null;
  /** `AppointmentChanged`, `ClientUpdated`... */
  Event: string;
  /** Why, when the action recorded it (a staff sweep of online bookings, issue 39). */
  Reason?: string;
  Changes: HistoryChange[];
}

/** Whose history: an appointment, a client, a professional or a unit. */
export type HistorySubject = 'appointment' | 'client' | 'professional' | 'company';

export interface HistoryTarget {
  subject: HistorySubject;
  id: number;
}
