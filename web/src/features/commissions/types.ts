// Wire shapes of the commission calls (issue 42; docs/money.md 'Commissions'). Money in reais.

import type { Schemas } from '@/api/wire';

/** A vale (an advance, taken off what is due) or a bonus (added to it). */
export type EntryKind = 'vale' | 'bonus';

/** How a period was paid out. */
export type PayoutMethod = 'cash' | 'pix' | 'transfer';

/**
 * GET commission/statement: a professional's figures for a range of days, their comandas'
 * lines with the rate in force at each close, the vales and bonuses, the adjustments of
 * comandas of periods already paid, and the period when the range is one closed and paid.
 */
export type Statement = Schemas['StatementAnswer'];

/** A line of a comanda the professional served or sold (`Kind`: 'service' or 'product'). */
export type StatementLine = Schemas['StatementLine'];

/** A comanda of the statement: what its lines earned and the tips. */
export type StatementComanda = Schemas['StatementComanda'];

/** A vale or a bonus (`Kind`: an {@link EntryKind}). */
export type StatementEntry = Schemas['StatementEntry'];

/** A comanda of a period already paid whose earning changed since: the difference. */
export type StatementAdjustment = Schemas['StatementAdjustment'];

/** A period closed and paid (`Method`: a {@link PayoutMethod}). */
export type Period = Schemas['PeriodAnswer'];

/** Body of POST commission/entry. */
export type EntryPayload = Schemas['EntryBody'];

/** The answer of POST commission/entry. */
export type EntryCreated = Schemas['IdEntry'];

/** Body of POST commission/period/close. */
export type ClosePeriodPayload = Schemas['ClosePeriodBody'];

/** The answer of POST commission/period/close. */
export type PeriodClosed = Schemas['IdPeriod'];

/** GET commission/statement's parameters: with `asOf`, as it stood then (ADMIN). */
export interface StatementTarget {
  idProfessional: number;
  /** 'YYYY-MM-DD', the first day. */
  from: string;
  /** 'YYYY-MM-DD', the last day (inclusive). */
  to: string;
  asOf?: string | null;
}

/** A professional of a unit (GET professional/company/{id}), for the picker and the names. */
export type UnitProfessional = Schemas['UnitProfessional'];

/** GET commission/statement/changes: the statement then and now, and what changed, line by line. */
export type StatementChanges = Schemas['ChangesAnswer'];

/** One figure that differs between then and now. */
export type StatementChange = Schemas['StatementChange'];
