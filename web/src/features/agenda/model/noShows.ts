// A client's 'Não compareceu' as the client search and the booking wizard show them (issue 44):
// a badge when the client missed an appointment in the last 90 days.

import type { ClientItem } from './types';

/** The counts a badge reads; a client read from elsewhere (an edit's prefill) may have none. */
export type NoShowCounts = Partial<Pick<ClientItem, 'NoShows' | 'NoShowsLast90Days'>>;

/** '1 falta', '2 faltas'. */
export const noShowsText = (count: number) => `${count} ${count === 1 ? 'falta' : 'faltas'}`;

/** The badge's hint: the last 90 days, and ever when it is known. */
export function noShowsHint({ NoShows, NoShowsLast90Days = 0 }: NoShowCounts): string {
  const recent = `Faltas nos últimos 90 dias: ${NoShowsLast90Days}`;
  return NoShows === undefined ? recent : `${recent} (no total: ${NoShows})`;
}

/** Whether the client search and the wizard mark the client: a no-show in the last 90 days. */
export const hasRecentNoShows = (client: NoShowCounts) => (client.NoShowsLast90Days ?? 0) > 0;
