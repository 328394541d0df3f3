// Wire shapes of the products' calls (issue 41; docs/money.md 'Calls').

import type { Schemas } from '@/api/wire';

/** GET product/{id}, and a row of GET product. */
export type Product = Schemas['ProductItem'];

/** A page of GET product. */
export type ProductPage = Schemas['Page_ProductItem'];

export interface ProductFilter {
  page: number;
  pageSize: number;
  search: string;
  /** '' all, '1' sold, '2' not any more. */
  status: string;
}

/** Body of POST product and PUT product/{id}. */
export type ProductPayload = Schemas['ProductForm'];

/** The answer of POST product and PUT product/{id}. */
export type ProductWritten = Schemas['IdProduct'];
