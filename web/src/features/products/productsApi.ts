import { api } from '@/api/api';
import { queryString } from '@/api/queryString';
import type {
  Product,
  ProductFilter,
  ProductImage,
  ProductPage,
  ProductPayload,
  ProductUseBody,
  ProductWritten,
  ServiceUses,
} from './types';

const LIST = 'LIST';

export const productFilterUrl = ({ page, pageSize, search, status }: ProductFilter) =>
  `product?${queryString({ page, pageSize, search: search.trim(), status })}`;

export const productsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProducts: build.query<ProductPage, ProductFilter>({
      query: productFilterUrl,
      providesTags: (result) => [
        { type: 'Product', id: LIST },
        ...(result?.content ?? []).map((product) => ({ type: 'Product' as const, id: product.IdProduct })),
      ],
    }),
    getProduct: build.query<Product, number>({
      query: (id) => `product/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Product', id }],
    }),
    createProduct: build.mutation<ProductWritten, { payload: ProductPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({
        url: 'product',
        method: 'POST',
        body: payload,
        // One key per submission: a double click or a retry adds the product once.
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: [{ type: 'Product', id: LIST }],
    }),
    updateProduct: build.mutation<ProductWritten, { id: number; payload: ProductPayload }>({
      query: ({ id, payload }) => ({ url: `product/${id}`, method: 'PUT', body: payload }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Product', id },
        { type: 'Product', id: LIST },
      ],
    }),
    // How much of the product a catalogue service uses each time (issue 43); 0 removes the use.
    setServiceUse: build.mutation<ServiceUses, { idService: number; idProduct: number; quantity: number }>({
      query: ({ idService, idProduct, quantity }) => ({
        url: `service/${idService}/products/${idProduct}`,
        method: 'PUT',
        body: { quantity } satisfies ProductUseBody,
      }),
      // GET product/{id} answers the uses (`UsedBy`); a 404 refreshes them as well.
      invalidatesTags: (_result, _error, { idProduct }) => [{ type: 'Product', id: idProduct }],
    }),
    // The product's photo (ADMIN). Multipart: a FormData body, so fetch sets the boundary's
    // Content-Type itself. The product and the list pages showing it read `UrlImage` again.
    setProductImage: build.mutation<ProductImage, { id: number; body: FormData }>({
      query: ({ id, body }) => ({ url: `product/${id}/image`, method: 'POST', body }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [{ type: 'Product', id }]),
    }),
    removeProductImage: build.mutation<ProductImage, number>({
      query: (id) => ({ url: `product/${id}/image`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [{ type: 'Product', id }]),
    }),
  }),
});

export const {
  useGetProductsQuery,
  useGetProductQuery,
  useCreateProductMutation,
  useUpdateProductMutation,
  useSetServiceUseMutation,
  useSetProductImageMutation,
  useRemoveProductImageMutation,
} = productsApi;
