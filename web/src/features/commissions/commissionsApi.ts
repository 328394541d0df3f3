import { api, QUIET } from '@/api/api';
import { queryString } from '@/api/queryString';
import type {
  ClosePeriodPayload,
  EntryCreated,
  EntryPayload,
  Period,
  PeriodClosed,
  Statement,
  StatementChanges,
  StatementTarget,
} from './types';

// The commission calls (issue 42). Reads answer read-your-writes through the base query
// (X-Navalha-Position); every write sends an Idempotency-Key, so a retry after a lost answer
// is the same write to the server.

export const statementUrl = ({ idProfessional, from, to, asOf }: StatementTarget) =>
  `commission/statement?${queryString({ idProfessional, from, to, asOf })}`;

/** GET commission/statement/changes: the statement as of `asOf` against now, line by line. */
export const changesUrl = ({ idProfessional, from, to, asOf }: StatementTarget) =>
  `commission/statement/changes?${queryString({ idProfessional, from, to, since: asOf })}`;

export const periodsUrl = (idProfessional: number) => `commission/periods?${queryString({ idProfessional })}`;

const keyed = (idempotencyKey: string) => ({ 'Idempotency-Key': idempotencyKey });

// Statements and periods have no tag type of their own; they hang off their professional.
const statementTag = (idProfessional: number) => ({ type: 'Professional' as const, id: `STATEMENT-${idProfessional}` });
const periodsTag = (idProfessional: number) => ({ type: 'Professional' as const, id: `PERIODS-${idProfessional}` });

/** A comanda's close, reopen or correction moves the statements (the comandas' list tag). */
const COMANDAS = { type: 'Comanda' as const, id: 'LIST' };

export const commissionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStatement: build.query<Statement, StatementTarget>({
      query: statementUrl,
      // The screen shows its own failures: a 422 on the period under its field, the rest on the page.
      extraOptions: QUIET,
      providesTags: (_result, _error, { idProfessional }) => [statementTag(idProfessional), COMANDAS],
    }),
    getStatementChanges: build.query<StatementChanges, StatementTarget>({
      query: changesUrl,
      providesTags: (_result, _error, { idProfessional }) => [statementTag(idProfessional), COMANDAS],
    }),
    getPeriods: build.query<Period[], number>({
      query: periodsUrl,
      providesTags: (_result, _error, idProfessional) => [periodsTag(idProfessional)],
    }),
    recordEntry: build.mutation<EntryCreated, { payload: EntryPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({
        url: 'commission/entry',
        method: 'POST',
        body: payload,
        headers: keyed(idempotencyKey),
      }),
      invalidatesTags: (_result, _error, { payload }) => [statementTag(payload.idProfessional ?? 0)],
    }),
    closePeriod: build.mutation<PeriodClosed, { payload: ClosePeriodPayload; idempotencyKey: string }>({
      query: ({ payload, idempotencyKey }) => ({
        url: 'commission/period/close',
        method: 'POST',
        body: payload,
        headers: keyed(idempotencyKey),
      }),
      invalidatesTags: (_result, _error, { payload }) => [
        statementTag(payload.idProfessional ?? 0),
        periodsTag(payload.idProfessional ?? 0),
      ],
    }),
  }),
});

export const {
  useGetStatementQuery,
  useGetStatementChangesQuery,
  useGetPeriodsQuery,
  useRecordEntryMutation,
  useClosePeriodMutation,
} = commissionsApi;
