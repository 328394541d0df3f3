import { api, QUIET } from '@/api/api';
import type { HistoryEntry, HistorySubject, HistoryTarget } from './types';

/** The audit of each subject (ADMIN only; 404 for an id out of the caller's reach). */
const PATHS: Record<HistorySubject, string> = {
  appointment: 'scheduling',
  client: 'user',
  professional: 'professional',
  company: 'company',
  comanda: 'comanda',
};

/** The cache tag whose mutations change the subject (so its history is read again). */
const TAGS = {
  appointment: 'Scheduling',
  client: 'Client',
  professional: 'Professional',
  company: 'Company',
  comanda: 'Comanda',
} as const satisfies Record<HistorySubject, string>;

export const historyUrl = ({ subject, id }: HistoryTarget) => `${PATHS[subject]}/${id}/history`;

export const historyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHistory: build.query<HistoryEntry[], HistoryTarget>({
      query: historyUrl,
      // The list says why it failed; no toast on top of it.
      extraOptions: QUIET,
      providesTags: (_result, _error, { subject, id }) => [{ type: TAGS[subject], id }],
    }),
  }),
});

export const { useGetHistoryQuery } = historyApi;
