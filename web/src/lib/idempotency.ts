import { useCallback, useRef } from 'react';

/** A random v4 UUID; crypto.randomUUID exists only on secure origins, getRandomValues everywhere. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether a create's outcome spends its `Idempotency-Key`. `error` is what the call threw
 * (`.unwrap()` throws RTK Query's `FetchBaseQueryError`), or `undefined` after a success.
 *
 * Spent (true): a success, or an error with a numeric 4xx `status`: the server's own answer,
 * which it stores under the key and would give again, so the next submission needs a new key.
 * Kept (false): a 5xx (the server stores no answer: a retry runs again), `FETCH_ERROR`,
 * `TIMEOUT_ERROR`, `PARSING_ERROR`, `CUSTOM_ERROR` or anything else thrown: the write may
 * have been committed without the browser learning it, and only a retry with the same key
 * gets its answer instead of a duplicate (or a 409 for the create's own data).
 */
export function keySpent(error: unknown): boolean {
  if (error === undefined) return true;
  if (!error || typeof error !== 'object' || !('status' in error)) return false;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** Sends one create with the hook's current key; see {@link useIdempotencyKey}. */
export type IdempotentSend = <T>(send: (idempotencyKey: string) => Promise<T>, request?: string) => Promise<T>;

/**
 * The one way a form sends a create: `await withKey((idempotencyKey) => create({ ..., idempotencyKey }).unwrap())`.
 * The key stays for the next submission until the server has answered this one ({@link keySpent}:
 * a success or a 4xx), so a retry after a lost answer or a 5xx is the same request to the
 * server, which gives the first answer instead of creating twice. `request`, when given,
 * names what is sent (e.g. the booking's JSON): another request starts with a new key.
 */
export function useIdempotencyKey(): IdempotentSend {
  const current = useRef<{ key: string; request?: string } | null>(null);
  return useCallback(async <T>(send: (idempotencyKey: string) => Promise<T>, request?: string): Promise<T> => {
    if (!current.current || current.current.request !== request) current.current = { key: newIdempotencyKey(), request };
    const attempt = current.current;
    // Only this attempt's own key is dropped: another request may have replaced it meanwhile.
    const spend = () => {
      if (current.current === attempt) current.current = null;
    };
    try {
      const answer = await send(attempt.key);
      spend();
      return answer;
    } catch (error) {
      if (error !== undefined && keySpent(error)) spend();
      throw error;
    }
  }, []);
}
