// Wire shapes of the caixa's calls (issue 41 §4-§6, docs/money.md). Money in reais.

import type { Schemas } from '@/api/wire';

/** 'OPEN' while the caixa takes payments; 'CLOSED' once counted. */
export type CaixaStatus = 'OPEN' | 'CLOSED';

/** A payment method as the comanda and the caixa name it. */
export type PaymentMethod = 'cash' | 'pix' | 'credit' | 'debit' | 'subscription';

/** Body of POST caixa: `{idCompany, openingCash}`. */
export type CaixaOpenPayload = Schemas['OpenBody'];

/** Body of POST caixa/{id}/movements: `{kind: sangria|reforco, value, reason}`. */
export type CaixaMovementPayload = Schemas['MovementBody'];

/** Body of POST caixa/{id}/close: `{countedCash, machineCredit?, machineDebit?}`. */
export type CaixaClosePayload = Schemas['CloseBody'];

/** Body of POST caixa/{id}/reopen: `{reason}`. */
export type CaixaReopenPayload = Schemas['ReasonBody'];

/** The answer of POST caixa. */
export type CaixaCreated = Schemas['IdCaixa'];

/** The answer of every other caixa write: its figures after the change. */
export type CaixaWritten = Schemas['CaixaWritten'];

/** A sangria (cash out) or a reforço (cash in). */
export type MovementKind = 'sangria' | 'reforco';

/** A row of GET caixa?idCompany&date&status&page&pageSize. */
export type CaixaListItem = Schemas['CaixaListItem'];

/** A page of GET caixa (the shape of every list: content, count, total). */
export type CaixaPage = Schemas['Page_CaixaListItem'];

/** What a caixa's payments brought in with one method (`Method`: a {@link PaymentMethod}). */
export type CaixaEntry = Schemas['CaixaEntry'];

/** The card machine's total for credit or debit read at the close, beside the caixa's payments. */
export type CaixaCardMachine = Schemas['CaixaCardMachine'];

/** A professional's tips, from the comandas the caixa finished. */
export type CaixaTip = Schemas['CaixaTip'];

/** A sangria or reforço with its reason (`Kind`: a {@link MovementKind}). */
export type CaixaMovement = Schemas['CaixaMovement'];

/**
 * A caixa's figures: as it stands (or stood at asOf), and as it stood at its first close
 * (`AtClose`). CountedCash, Difference and ClosedAt only while closed.
 */
export type CaixaFigures = Schemas['CaixaFigures'];

/** A change after the caixa's first close (a comanda reopened, a refund, a reopen...), described in pt-BR. */
export type CaixaCorrection = Schemas['CaixaCorrection'];

/** GET caixa/{id} (`?asOf=` for ADMIN): the report. */
export type CaixaDetail = Schemas['CaixaAnswer'];

/** The list's filter. */
export interface CaixaFilter {
  idCompany: number;
  /** 'YYYY-MM-DD' or ''. */
  date: string;
  status?: CaixaStatus;
  page: number;
  pageSize: number;
}

/** GET caixa/{id}: with `asOf`, as it stood then (ADMIN). */
export interface CaixaTarget {
  id: number;
  asOf?: string | null;
}

/** A professional of a unit (GET professional/company/{id}), for the tips' names. */
export type UnitProfessional = Schemas['UnitProfessional'];
