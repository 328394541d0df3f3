import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { ApiErrorBody } from './types';

// Error catalogue, spec 01 §8.
export const TIMEOUT_MESSAGE = 'Não foi possível comunicar com o servidor.';
export const GENERIC_ERROR_MESSAGE = 'Ocorreu um erro ao chamar o serviço.';

export type ErrorOutcome = { kind: 'signOut' } | { kind: 'toast'; message: string };

/** The server's message field, when it sent one. */
export function serverMessage(error: FetchBaseQueryError): string | null {
  const body = error.data as ApiErrorBody | undefined;
  if (body && typeof body === 'object' && typeof body.message === 'string' && body.message.trim()) {
    return body.message;
  }
  return null;
}

/** Decides what the user sees for a failed call. */
export function classifyError(error: FetchBaseQueryError): ErrorOutcome {
  if (error.status === 401) return { kind: 'signOut' };
  if (error.status === 'TIMEOUT_ERROR') return { kind: 'toast', message: TIMEOUT_MESSAGE };
  return { kind: 'toast', message: serverMessage(error) ?? GENERIC_ERROR_MESSAGE };
}
