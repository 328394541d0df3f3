// Wire shapes of the comanda's calls (issue 41; docs/money.md 'Calls').

import type { Schemas } from '@/api/wire';

/** GET comanda/{id}: items, payments, tips and figures, in reais. */
export type Comanda = Schemas['ComandaAnswer'];
export type ComandaItem = Schemas['ComandaItem'];
export type ComandaPayment = Schemas['ComandaPayment'];
export type ComandaTip = Schemas['ComandaTip'];

/** What a closed comanda earned one professional (issue 42): their lines' commission and their tips. */
export type ComandaCommission = Schemas['ComandaCommission'];

/** A line's commission, with the rate in force at the close (`Percent` or `Fixed` per unit). */
export type ComandaCommissionLine = Schemas['ComandaCommissionLine'];

/** A row of GET comanda. */
export type ComandaListItem = Schemas['ComandaListItem'];

/** A page of GET comanda. */
export type ComandaPage = Schemas['Page_ComandaListItem'];

/** A Pix charge of the comanda at the payment provider, and what becomes of it. */
export type ComandaPix = Schemas['ComandaPix'];

/** PENDING until the client pays; FAILED expired or refused; TO_REFUND paid after the comanda was cancelled. */
export type PixStatus = 'PENDING' | 'PAID' | 'FAILED' | 'TO_REFUND';

/** What a Pix payment answers besides the figures: the charge to show the client. */
export type PixWritten = Schemas['PixWritten'];

/**
 * The answer of every comanda write: its figures after the change (`Change` on a cash
 * payment; the charge's `GalaxPayId`, `PixQrCode`, `PixCopyPaste` and `PixPage` on a Pix).
 * The generated type makes the Pix fields always present (an optional flattened part
 * comes out as `(null | PixWritten) & ...`); only a Pix answer carries them.
 */
export type ComandaWritten = Omit<Schemas['ComandaWritten'], keyof PixWritten> & Partial<PixWritten>;

/** The answer of POST comanda. */
export type ComandaOpened = Schemas['IdComanda'];

/** OPEN, CLOSED or CANCELED. */
export type ComandaStatus = 'OPEN' | 'CLOSED' | 'CANCELED';

export interface ComandaFilter {
  page: number;
  pageSize: number;
  /** '' every unit of the user's. */
  idCompany: string;
  /** 'YYYY-MM-DD' the day it was opened; '' any day. */
  date: string;
  /** '' every status. */
  status: '' | ComandaStatus;
}

/** Body of POST comanda: `idScheduling` for an appointment's, `idUser` absent for 'Cliente avulso'. */
export type ComandaOpenPayload = Schemas['ComandaOpenBody'];

/** Body of POST comanda/{id}/items. */
export type ItemPayload = Schemas['ItemBody'];

/** Body of PUT comanda/{id}/discount. */
export type DiscountPayload = Schemas['DiscountBody'];

/** Body of POST comanda/{id}/tips. */
export type TipPayload = Schemas['TipBody'];

/** Body of POST comanda/{id}/payments. */
export type PaymentPayload = Schemas['PaymentBody'];

/** Body of reopen, cancel and refund. */
export type ReasonPayload = Schemas['ReasonBody'];
