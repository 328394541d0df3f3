import { api } from '@/api/api';
import { queryString } from '@/api/queryString';
import type { MessageDay, MessageDayTarget } from './types';

// The reminders' day (issue 44; ADMIN only: the server answers 403 to the others, 404 for
// another business's unit and 422 for a day it cannot read). The `message` read model's
// changes reach this tag through the live stream (api/liveChanges.ts).

export const messageDayUrl = ({ idCompany, date }: MessageDayTarget) => `message/day?${queryString({ idCompany, date })}`;

const MESSAGES = { type: 'Message' as const, id: 'LIST' };
/** A row shows its appointment as it stands: a cancellation or a move in this tab reads it again. */
const APPOINTMENTS = { type: 'Scheduling' as const, id: 'LIST' };

export const messagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMessageDay: build.query<MessageDay, MessageDayTarget>({
      query: messageDayUrl,
      providesTags: [MESSAGES, APPOINTMENTS],
    }),
  }),
});

export const { useGetMessageDayQuery } = messagesApi;
