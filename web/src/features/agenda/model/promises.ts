import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { classifyError } from '@/api/errors';
import type { ApiErrorBody, RoleType } from '@/api/types';
import type { OfferedService } from '@/components/staff/types';
import { formatBRL } from '@/lib/money';
import type { FreeDay, FreeHour, SchedulingDetail } from './types';

// Issue 45, point 1: moves keep their promises. The price a client was quoted stays unless the
// user chooses the new professional's; a client is never in two chairs unless the front desk
// says so; a time another desk took is not kept selected for a 409.

export const PRICE_TITLE = 'Valor do agendamento';
/** 'O valor muda de R$ 45,00 para R$ 55,00.' */
export const priceChangeMessage = ({ kept, repriced }: PriceChange) =>
  `O valor muda de ${formatBRL(kept)} para ${formatBRL(repriced)}.`;
export const keepPriceLabel = ({ kept }: PriceChange) => `Manter ${formatBRL(kept)}`;
export const repriceLabel = ({ repriced }: PriceChange) => `Usar ${formatBRL(repriced)}`;

export const CLIENT_OVERLAP_TITLE = 'Cliente já agendado';
export const BOOK_ANYWAY = 'Agendar mesmo assim';

export const TAKEN_TIME_MESSAGE = 'Este horário acabou de ser reservado. Escolha outro.';

/** The body field of the server's 409 for a client's other appointment at the same time. */
export const CLIENT_OVERLAP_FIELD = 'allowClientOverlap';

/** What a move or an edit to another professional costs: the booked prices kept, or theirs now (reais). */
export interface PriceChange {
  kept: number;
  repriced: number;
}

/** The user's answer to a price change: keep the booked prices, use the new ones, or cancel (null). */
export type PriceAnswer = 'keep' | 'reprice' | null;

/** Reais in cents, so that sums of prices compare exactly. */
const cents = (reais: number) => Math.round(reais * 100);

/**
 * The two totals of an appointment moved to another professional, for the services it will
 * have: `kept` is what the server charges without `reprice` (each service the appointment
 * already had at its booked price, one added at the professional's price now), `repriced` is
 * every service at the professional's price now. null when there is nothing to ask: the totals
 * are equal, or a service is not (actively) offered by that professional, which the server
 * refuses anyway.
 */
export function priceChange(
  booked: Pick<SchedulingDetail['SchedulingServices'][number], 'IdService' | 'Value'>[],
  offered: Pick<OfferedService, 'IdService' | 'Value' | 'Status'>[],
  idServices: number[],
): PriceChange | null {
  let kept = 0;
  let repriced = 0;
  for (const id of idServices) {
    const theirs = offered.find((service) => service.IdService === id && service.Status);
    if (!theirs) return null;
    const was = booked.find((service) => service.IdService === id);
    kept += cents(was ? was.Value : theirs.Value);
    repriced += cents(theirs.Value);
  }
  return kept === repriced ? null : { kept: kept / 100, repriced: repriced / 100 };
}

/**
 * Who can read another professional's prices (GET professional-service/professional/{id}):
 * the roles that reach the professionals screen. The others move at the booked prices,
 * unasked, which is what the server keeps without `reprice`.
 */
export const mayReadPrices = (role: RoleType | null) =>
  role === 'ADMIN' || role === 'DEFAULT' || role === 'ATTENDANT' || role === 'BARBER_LEADE';

/** Who may book a client into a time they already have elsewhere ('Agendar mesmo assim'). */
export const mayOverlapClient = (role: RoleType | null) => role === 'ADMIN' || role === 'ATTENDANT';

const failedCall = (error: unknown): error is FetchBaseQueryError =>
  !!error && typeof error === 'object' && 'status' in error;

/** The server's message when a write was refused because the client has another appointment then. */
export function clientOverlapMessage(error: unknown): string | null {
  if (!failedCall(error) || error.status !== 409) return null;
  const body = error.data as ApiErrorBody | undefined;
  const field = body && typeof body === 'object' ? body.errors?.[CLIENT_OVERLAP_FIELD] : undefined;
  if (typeof field !== 'string') return null;
  return field.trim() || body?.message || null;
}

/**
 * The toast of a failed agenda write, whose endpoint is quiet so that the screen can answer a
 * client overlap with a question instead: the server's message as the base query would show
 * it, or null when there is nothing to show (a 401 signs out; a call that never ran).
 */
export function writeFailureMessage(error: unknown): string | null {
  if (!failedCall(error)) return null;
  const outcome = classifyError(error);
  return outcome.kind === 'toast' ? outcome.message : null;
}

/**
 * The chosen time as the free times read now offer it: the same start of the same
 * professional, or with 'Sem preferência' (`idProfessional` null) the same start of whoever is
 * free first then. null when nobody offers it any more.
 */
export function stillOffered(
  times: FreeDay[],
  date: string,
  hour: FreeHour,
  idProfessional: number | null,
): FreeHour | null {
  const free = times.find((day) => day.shortDate === date)?.freeHours ?? [];
  const same = free.find((other) => other.start === hour.start && other.idProfessional === hour.idProfessional);
  if (same) return same;
  if (idProfessional !== null) return null;
  return free.find((other) => other.start === hour.start) ?? null;
}
