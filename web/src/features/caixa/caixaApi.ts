import { api } from '@/api/api';
import { queryString } from '@/api/queryString';
import type {
  CaixaClosePayload,
  CaixaCreated,
  CaixaDetail,
  CaixaFilter,
  CaixaMovementPayload,
  CaixaOpenPayload,
  CaixaPage,
  CaixaReopenPayload,
  CaixaTarget,
  CaixaWritten,
} from './types';

// The caixa's calls (docs/money.md). Reads answer read-your-writes through the base query
// (X-Navalha-Position); every write sends an Idempotency-Key, so a retry after a lost
// answer is the same write to the server.

const CAIXA = 'Caixa' as const;
const LIST = 'LIST';

export const caixaListUrl = ({ idCompany, date, status, page, pageSize }: CaixaFilter) =>
  `caixa?${queryString({ idCompany, date, status, page, pageSize })}`;

export const caixaUrl = ({ id, asOf }: CaixaTarget) => `caixa/${id}${asOf ? `?${queryString({ asOf })}` : ''}`;

const keyed = (idempotencyKey: string) => ({ 'Idempotency-Key': idempotencyKey });

/** A comanda's payment, refund or reopen moves its caixa's figures (the comandas' list tag). */
const COMANDAS = { type: 'Comanda' as const, id: LIST };

/** What a write to one caixa changes: itself, and the lists (the open one included). */
const changed = (_result: unknown, _error: unknown, { id }: { id: number }) => [
  { type: CAIXA, id },
  { type: CAIXA, id: LIST },
];

export const caixaApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCaixas: build.query<CaixaPage, CaixaFilter>({
      query: caixaListUrl,
      providesTags: (result) => [
        { type: CAIXA, id: LIST },
        ...(result?.content ?? []).map((caixa) => ({ type: CAIXA, id: caixa.IdCaixa })),
        COMANDAS,
      ],
    }),
    getCaixa: build.query<CaixaDetail, CaixaTarget>({
      query: caixaUrl,
      providesTags: (_result, _error, { id }) => [{ type: CAIXA, id }, COMANDAS],
    }),
    openCaixa: build.mutation<CaixaCreated, { payload: CaixaOpenPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({ url: 'caixa', method: 'POST', body: payload, headers: keyed(idempotencyKey) }),
      invalidatesTags: [{ type: CAIXA, id: LIST }],
    }),
    moveCash: build.mutation<CaixaWritten, { id: number; payload: CaixaMovementPayload; idempotencyKey: string }>({
      query: ({ id, payload, idempotencyKey }) => ({
        url: `caixa/${id}/movements`,
        method: 'POST',
        body: payload,
        headers: keyed(idempotencyKey),
      }),
      invalidatesTags: changed,
    }),
    closeCaixa: build.mutation<CaixaWritten, { id: number; payload: CaixaClosePayload; idempotencyKey: string }>({
      query: ({ id, payload, idempotencyKey }) => ({
        url: `caixa/${id}/close`,
        method: 'POST',
        body: payload,
        headers: keyed(idempotencyKey),
      }),
      invalidatesTags: changed,
    }),
    reopenCaixa: build.mutation<CaixaWritten, { id: number; payload: CaixaReopenPayload; idempotencyKey: string }>({
      query: ({ id, payload, idempotencyKey }) => ({
        url: `caixa/${id}/reopen`,
        method: 'POST',
        body: payload,
        headers: keyed(idempotencyKey),
      }),
      invalidatesTags: changed,
    }),
  }),
});

export const {
  useGetCaixasQuery,
  useGetCaixaQuery,
  useOpenCaixaMutation,
  useMoveCashMutation,
  useCloseCaixaMutation,
  useReopenCaixaMutation,
} = caixaApi;
