import { api } from '@/api/api';
import { queryString } from '@/api/queryString';
import type {
  ClientConfirmed,
  ClientDetail,
  ClientFilter,
  ClientPage,
  ClientPayload,
  ClientVisits,
  ClientWritten,
  QuickClientPayload,
  SocialLoginsRemoved,
} from './types';

const LIST = 'LIST';

export const clientFilterUrl = ({ page, pageSize, search, status }: ClientFilter) =>
  `user/filter?${queryString({ page, pageSize, search: search.trim(), status })}`;

export const clientsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getClients: build.query<ClientPage, ClientFilter>({
      query: clientFilterUrl,
      // The same list tag as the agenda's client search, so a save there re-reads it too.
      providesTags: (result) => [
        { type: 'Client', id: LIST },
        ...(result?.content ?? []).map((client) => ({ type: 'Client' as const, id: client.IdUser })),
      ],
    }),
    getClient: build.query<ClientDetail, number>({
      query: (id) => `user/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Client', id }],
    }),
    getClientVisits: build.query<ClientVisits, number>({
      query: (id) => `user/${id}/visits`,
      // Re-read after bookings, moves and cancellations (the agenda's tag) and client edits.
      providesTags: (_result, _error, id) => [
        { type: 'Client', id },
        { type: 'Scheduling', id: LIST },
      ],
    }),
    createClient: build.mutation<ClientWritten, { payload: ClientPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({
        url: 'user/professional',
        method: 'POST',
        body: payload,
        // One key per submission: a double click or a retry registers the client once.
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: [{ type: 'Client', id: LIST }],
    }),
    /**
     * The desk's new client (issue 45): a name and a mobile, and the CPF if given. Other
     * features (the agenda's client search) register through here.
     */
    registerQuickClient: build.mutation<ClientWritten, { payload: QuickClientPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({
        url: 'user/quick',
        method: 'POST',
        body: payload,
        // One key per submission, as for the full registration.
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: [{ type: 'Client', id: LIST }],
    }),
    /** The payload's cpf is null for a record with a CPF (the server ignores it then); see `clientPayload`. */
    updateClient: build.mutation<ClientWritten, { id: number; payload: ClientPayload }>({
      query: ({ id, payload }) => ({ url: `user/${id}`, method: 'PUT', body: payload }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Client', id },
        { type: 'Client', id: LIST },
      ],
    }),
    confirmClient: build.mutation<ClientConfirmed, number>({
      query: (id) => ({ url: `user/${id}/confirm`, method: 'PUT' }),
      invalidatesTags: (_result, _error, id) => [
        { type: 'Client', id },
        { type: 'Client', id: LIST },
      ],
    }),
    removeSocialLogins: build.mutation<SocialLoginsRemoved, number>({
      query: (idUser) => ({ url: 'user/remove-all-login-social', method: 'PUT', body: { idUser } }),
      invalidatesTags: (_result, _error, id) => [{ type: 'Client', id }],
    }),
  }),
});

export const {
  useGetClientsQuery,
  useGetClientQuery,
  useGetClientVisitsQuery,
  useCreateClientMutation,
  useRegisterQuickClientMutation,
  useUpdateClientMutation,
  useConfirmClientMutation,
  useRemoveSocialLoginsMutation,
} = clientsApi;
