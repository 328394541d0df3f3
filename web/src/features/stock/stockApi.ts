import { api } from '@/api/api';
import { queryString } from '@/api/queryString';
import type {
  MovementFilter,
  MovementPage,
  StockAnswer,
  StockMovementPayload,
  StockMoved,
  StockTarget,
} from './types';

// The stock's calls (issue 43). Reads answer read-your-writes through the base query
// (X-Navalha-Position); a movement sends an Idempotency-Key, so a retry after a lost answer
// is the same movement to the server.

export const stockUrl = ({ idCompany, asOf }: StockTarget) => `stock?${queryString({ idCompany, asOf })}`;

export const movementsUrl = ({ idProduct, page, pageSize, idCompany }: MovementFilter) =>
  `product/${idProduct}/movements?${queryString({ page, pageSize, idCompany })}`;

// The stock has no tag type of its own; it hangs off the products (a product's name, unit or
// minimum changes its rows: the products' list tag).
const STOCK = { type: 'Product' as const, id: 'STOCK' };
const PRODUCTS = { type: 'Product' as const, id: 'LIST' };
const movementsTag = (idProduct: number) => ({ type: 'Product' as const, id: `MOVEMENTS-${idProduct}` });

/** A comanda's close (or reopen) sells (or gives back) its products (the comandas' list tag). */
const COMANDAS = { type: 'Comanda' as const, id: 'LIST' };

export const stockApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStock: build.query<StockAnswer, StockTarget>({
      query: stockUrl,
      providesTags: [STOCK, PRODUCTS, COMANDAS],
    }),
    getMovements: build.query<MovementPage, MovementFilter>({
      query: movementsUrl,
      providesTags: (_result, _error, { idProduct }) => [movementsTag(idProduct), COMANDAS],
    }),
    recordMovement: build.mutation<
      StockMoved,
      { idProduct: number; payload: StockMovementPayload; idempotencyKey: string }
    >({
      query: ({ idProduct, payload, idempotencyKey }) => ({
        url: `product/${idProduct}/movements`,
        method: 'POST',
        body: payload,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // A refused movement changed nothing.
      invalidatesTags: (_result, error, { idProduct }) => (error ? [] : [STOCK, movementsTag(idProduct)]),
    }),
  }),
});

export const { useGetStockQuery, useGetMovementsQuery, useRecordMovementMutation } = stockApi;
