// Wire shapes of the stock's calls (issue 43; docs/money.md). Answers PascalCase, bodies
// camelCase; money in reais; quantities whole, in the product's unit of measure ('un', 'ml', 'g').

import type { Schemas } from '@/api/wire';

/** What a movement the screen records does: stock in, used in the shop, counted, or moved to another unit. */
export type MovementKind = 'entrada' | 'uso_interno' | 'ajuste' | 'transferencia';

/** A movement as the history lists it: the recorded ones, and a comanda's sale. */
export type MovementItemKind = MovementKind | 'venda';

/** A product's stock in a unit (a row of GET stock): Quantity below zero where the unit sells without stock. */
export type StockRow = Schemas['StockRow'];

/** GET stock?idCompany[&asOf]: a unit's stock, low stock first, and its value at cost. */
export type StockAnswer = Schemas['StockAnswer'];

/** GET stock's parameters: with `asOf`, as it stood then. */
export interface StockTarget {
  idCompany: number;
  /** 'YYYY-MM-DDTHH:MM[:SS]' (the units' clock) or an RFC 3339 instant; null: now. */
  asOf?: string | null;
}

/**
 * Body of POST product/{id}/movements: the kind, the unit and the quantity (an adjustment's,
 * the quantity counted), then only the kind's own fields: an entrada's unitCost and supplier,
 * a uso_interno's or an ajuste's reason, a transferencia's idCompanyTo.
 */
export type StockMovementPayload = Partial<Schemas['StockMovementForm']> & {
  kind: MovementKind;
  idCompany: number;
  quantity: number;
};

/** The answer of POST product/{id}/movements: the unit's quantity after it. */
export type StockMoved = Schemas['StockMoved'];

/** A movement of a product (a row of GET product/{id}/movements, newest first; `Kind` a {@link MovementItemKind}). */
export type MovementItem = Schemas['MovementItem'];

/** A page of GET product/{id}/movements. */
export type MovementPage = Schemas['Page_MovementItem'];

/** GET product/{id}/movements' parameters. */
export interface MovementFilter {
  idProduct: number;
  page: number;
  pageSize: number;
  /** null: every unit. */
  idCompany: number | null;
}
