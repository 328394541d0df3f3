import { api } from '@/api/api';
import { queryString } from '@/api/queryString';
import { cents, pixWrittenOf } from './model';
import type {
  Comanda,
  ComandaFilter,
  ComandaOpened,
  ComandaOpenPayload,
  ComandaPage,
  ComandaWritten,
  DiscountPayload,
  ItemPayload,
  PaymentPayload,
  ReasonPayload,
  TipPayload,
} from './types';

const LIST = 'LIST';

export const comandaFilterUrl = ({ page, pageSize, idCompany, date, status }: ComandaFilter) =>
  `comanda?${queryString({ idCompany, date, status, page, pageSize })}`;

/** A write changes the comanda and the list; the agenda too when the comanda is of an appointment. */
const changed = (id: number) => [
  { type: 'Comanda' as const, id },
  { type: 'Comanda' as const, id: LIST },
];
const changedWithAgenda = (id: number) => [...changed(id), { type: 'Scheduling' as const, id: LIST }];

/**
 * Every write answers the comanda's figures: the totals show them at once, while the comanda
 * (its lines, tips and payments) is read again.
 */
async function showFigures(
  id: number,
  dispatch: (action: unknown) => unknown,
  queryFulfilled: Promise<{ data: ComandaWritten }>,
): Promise<void> {
  try {
    const { data } = await queryFulfilled;
    dispatch(
      comandasApi.util.updateQueryData('getComanda', id, (draft) => {
        Object.assign(draft, {
          Status: data.Status,
          Subtotal: data.Subtotal,
          Discount: data.Discount,
          Total: data.Total,
          TipsTotal: data.Tips,
          Paid: data.Paid,
          Due: data.Due,
        });
      }),
    );
  } catch {
    // Reported by the base query.
  }
}

export const comandasApi = api.injectEndpoints({
  endpoints: (build) => ({
    getComandas: build.query<ComandaPage, ComandaFilter>({
      query: comandaFilterUrl,
      providesTags: (result) => [
        { type: 'Comanda', id: LIST },
        ...(result?.content ?? []).map((comanda) => ({ type: 'Comanda' as const, id: comanda.IdComanda })),
      ],
    }),
    getComanda: build.query<Comanda, number>({
      query: (id) => `comanda/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Comanda', id }],
    }),
    openComanda: build.mutation<ComandaOpened, { payload: ComandaOpenPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({
        url: 'comanda',
        method: 'POST',
        body: payload,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: [
        { type: 'Comanda', id: LIST },
        { type: 'Scheduling', id: LIST },
      ],
    }),
    addItem: build.mutation<ComandaWritten, { id: number; body: ItemPayload; idempotencyKey: string }>({
      query: ({ id, body, idempotencyKey }) => ({
        url: `comanda/${id}/items`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      onQueryStarted: (arg, { dispatch, queryFulfilled }) => showFigures(arg.id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, { id }) => changed(id),
    }),
    removeItem: build.mutation<ComandaWritten, { id: number; idItem: number }>({
      query: ({ id, idItem }) => ({ url: `comanda/${id}/items/${idItem}`, method: 'DELETE' }),
      onQueryStarted: (arg, { dispatch, queryFulfilled }) => showFigures(arg.id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, { id }) => changed(id),
    }),
    setDiscount: build.mutation<ComandaWritten, { id: number; body: DiscountPayload }>({
      query: ({ id, body }) => ({ url: `comanda/${id}/discount`, method: 'PUT', body }),
      onQueryStarted: (arg, { dispatch, queryFulfilled }) => showFigures(arg.id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, { id }) => changed(id),
    }),
    addTip: build.mutation<ComandaWritten, { id: number; body: TipPayload; idempotencyKey: string }>({
      query: ({ id, body, idempotencyKey }) => ({
        url: `comanda/${id}/tips`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      onQueryStarted: (arg, { dispatch, queryFulfilled }) => showFigures(arg.id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, { id }) => changed(id),
    }),
    removeTip: build.mutation<ComandaWritten, { id: number; idTip: number }>({
      query: ({ id, idTip }) => ({ url: `comanda/${id}/tips/${idTip}`, method: 'DELETE' }),
      onQueryStarted: (arg, { dispatch, queryFulfilled }) => showFigures(arg.id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, { id }) => changed(id),
    }),
    takePayment: build.mutation<ComandaWritten, { id: number; body: PaymentPayload; idempotencyKey: string }>({
      query: ({ id, body, idempotencyKey }) => ({
        url: `comanda/${id}/payments`,
        method: 'POST',
        body,
        // A payment must never be taken twice: a retry after a lost answer sends the same key.
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      onQueryStarted: async (arg, { dispatch, queryFulfilled }) => {
        await showFigures(arg.id, dispatch, queryFulfilled);
        try {
          const pix = pixWrittenOf((await queryFulfilled).data);
          if (!pix) return;
          // A Pix charge waits for the client, not paid yet: listed as waiting at once (so the
          // panel and the closing rules know it) until the comanda read again says more.
          dispatch(
            comandasApi.util.updateQueryData('getComanda', arg.id, (draft) => {
              if (draft.PixCharges.some((charge) => charge.GalaxPayId === pix.GalaxPayId)) return;
              const value = arg.body.value ?? 0;
              draft.PixCharges.push({ ...pix, IdPayment: 0, Value: value, Status: 'PENDING' });
              draft.Pending = (cents(draft.Pending) + cents(value)) / 100;
            }),
          );
        } catch {
          // Reported by the base query.
        }
      },
      invalidatesTags: (_result, _error, { id }) => changed(id),
    }),
    // 'Estorno': on an open comanda only (a closed one is reopened first, by ADMIN).
    refundPayment: build.mutation<ComandaWritten, { id: number; idPayment: number; body: ReasonPayload }>({
      query: ({ id, idPayment, body }) => ({ url: `comanda/${id}/payments/${idPayment}/refund`, method: 'POST', body }),
      onQueryStarted: (arg, { dispatch, queryFulfilled }) => showFigures(arg.id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, { id }) => changed(id),
    }),
    closeComanda: build.mutation<ComandaWritten, number>({
      query: (id) => ({ url: `comanda/${id}/close`, method: 'POST' }),
      onQueryStarted: (id, { dispatch, queryFulfilled }) => showFigures(id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, id) => changedWithAgenda(id),
    }),
    reopenComanda: build.mutation<ComandaWritten, { id: number; body: ReasonPayload }>({
      query: ({ id, body }) => ({ url: `comanda/${id}/reopen`, method: 'POST', body }),
      onQueryStarted: (arg, { dispatch, queryFulfilled }) => showFigures(arg.id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, { id }) => changedWithAgenda(id),
    }),
    cancelComanda: build.mutation<ComandaWritten, { id: number; body: ReasonPayload }>({
      query: ({ id, body }) => ({ url: `comanda/${id}/cancel`, method: 'POST', body }),
      onQueryStarted: (arg, { dispatch, queryFulfilled }) => showFigures(arg.id, dispatch, queryFulfilled),
      invalidatesTags: (_result, _error, { id }) => changedWithAgenda(id),
    }),
  }),
});

export const {
  useGetComandasQuery,
  useGetComandaQuery,
  useOpenComandaMutation,
  useAddItemMutation,
  useRemoveItemMutation,
  useSetDiscountMutation,
  useAddTipMutation,
  useRemoveTipMutation,
  useTakePaymentMutation,
  useRefundPaymentMutation,
  useCloseComandaMutation,
  useReopenComandaMutation,
  useCancelComandaMutation,
} = comandasApi;
