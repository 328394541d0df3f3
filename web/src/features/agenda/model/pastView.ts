// The agenda's past view (issue 14): ADMIN sees a day as it stood at an earlier instant,
// replayed by the server from the appointments' events. Instants are 'YYYY-MM-DDTHH:MM:SS' on
// the unit's clock, the value of a datetime-local input with seconds, which the server reads
// at UTC-3. Seconds, because a booking and its move are often less than a minute apart.

import { formatDateBR, unitWallClock } from '@/lib/dates';

/** The unit's clock at `now`, to the second: 'YYYY-MM-DDTHH:MM:SS'. */
export function instantOf(now: number): string {
  return unitWallClock(now).toISOString().slice(0, 19);
}

/** Milliseconds of a wall-clock instant, counted as if it were UTC (only differences matter). */
const wallMs = (instant: string) => Date.parse(`${instant}Z`);

/**
 * The control's value as an instant, or null when it is not a whole one. The input leaves the
 * seconds out when they are zero.
 */
export function readInstant(value: string): string | null {
  const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00` : value;
  const valid = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(instant) && !Number.isNaN(wallMs(instant));
  return valid ? instant : null;
}

/** An instant kept at or before now (the past view shows no future). */
export const clampInstant = (instant: string, now: number) => {
  const latest = instantOf(now);
  return instant > latest ? latest : instant;
};

/** `instant` moved by `minutes`, never past now. */
export const shiftInstant = (instant: string, minutes: number, now: number) =>
  clampInstant(new Date(wallMs(instant) + minutes * 60_000).toISOString().slice(0, 19), now);

/** Where the past view opens: an hour before now. */
export const openingInstant = (now: number) => shiftInstant(instantOf(now), -60, now);

/** '24/11/2026 às 10:30:05'. */
export const instantBR = (instant: string) => `${formatDateBR(instant.slice(0, 10))} às ${instant.slice(11, 19)}`;

/** The banner of the past view. */
export const pastViewText = (date: string, instant: string) =>
  `A agenda de ${formatDateBR(date)} como estava em ${instantBR(instant)}. Somente leitura: nada pode ser alterado aqui.`;

/** The button that opens the past view, and the title of its bar. */
export const PAST_VIEW = 'Visão do passado';
export const BACK_TO_NOW = 'Voltar ao presente';
export const INSTANT_LABEL = 'Como estava em';
