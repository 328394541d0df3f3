// Wire shapes of the products' calls (issue 41; issue 43 adds brand, barcode, category, cost,
// the unit of measure and the stock minimums per unit; docs/money.md 'Calls').

import type { Schemas } from '@/api/wire';

/** How a product is counted in stock: units, millilitres or grams (`Unit`, `unit`). */
export type ProductUnit = 'un' | 'ml' | 'g';

/** The least a unit (company) should hold of a product; below it, the stock shows 'Abaixo do mínimo'. */
export type ProductMinimum = Schemas['MinimumItem'];

/** GET product/{id}, and a row of GET product (`Unit`: a {@link ProductUnit}). */
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

/** Body of POST product and PUT product/{id}: `minimums` every unit's minimum (a unit left out has none). */
export type ProductPayload = Schemas['ProductForm'];

/** The answer of POST product and PUT product/{id}. */
export type ProductWritten = Schemas['IdProduct'];

/** A catalogue service that uses a product each time it is done (`UsedBy` of GET product/{id}), in the product's unit. */
export type ProductUse = Schemas['UsedByItem'];

/** Body of PUT service/{idService}/products/{idProduct}: 0 to 100.000; 0 removes the use. */
export type ProductUseBody = Schemas['ProductUseForm'];

/** The answer of PUT service/{idService}/products/{idProduct}: what the service uses now. */
export type ServiceUses = Schemas['ServiceUses'];

/** The answer of POST and DELETE product/{id}/image: where the photo is served now (null once removed). */
export type ProductImage = Schemas['ProductImage'];
