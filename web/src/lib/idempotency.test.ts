import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { keySpent, newIdempotencyKey, useIdempotencyKey } from './idempotency';

describe('newIdempotencyKey', () => {
  it('is a v4 UUID, another each time', () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(key);
  });
});

describe('keySpent', () => {
  // The shapes `.unwrap()` throws: RTK Query's FetchBaseQueryError, a SerializedError, anything.
  const outcomes: [string, unknown, boolean][] = [
    ['a success', undefined, true],
    ['400', { status: 400, data: { message: 'Pedido inválido.' } }, true],
    ['401', { status: 401, data: null }, true],
    ['409', { status: 409, data: { message: 'Horário ocupado.' } }, true],
    ['422', { status: 422, data: { message: 'Dados inválidos.', errors: { cpf: 'CPF inválido.' } } }, true],
    ['429', { status: 429, data: null }, true],
    ['499', { status: 499, data: null }, true],
    ['500', { status: 500, data: { message: 'Erro interno.' } }, false],
    ['502', { status: 502, data: null }, false],
    ['503', { status: 503, data: { message: 'Serviço indisponível.' } }, false],
    ['a 3xx (never an answer to a create)', { status: 304, data: null }, false],
    ['FETCH_ERROR', { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, false],
    ['TIMEOUT_ERROR', { status: 'TIMEOUT_ERROR', error: 'AbortError: signal timed out' }, false],
    ['PARSING_ERROR', { status: 'PARSING_ERROR', originalStatus: 201, data: '<html>', error: 'SyntaxError' }, false],
    ['CUSTOM_ERROR', { status: 'CUSTOM_ERROR', error: 'custom' }, false],
    ['a SerializedError (a throw in a queryFn)', { name: 'TypeError', message: 'boom' }, false],
    ['an Error', new Error('boom'), false],
    ['null', null, false],
    ['a string', 'boom', false],
  ];

  it.each(outcomes)('%s → %s', (_name, error, spent) => {
    expect(keySpent(error)).toBe(spent);
  });
});

describe('useIdempotencyKey', () => {
  /** Sends through the hook, recording each key; `answers` are what each send does in turn. */
  function harness() {
    const { result } = renderHook(() => useIdempotencyKey());
    const keys: string[] = [];
    const send = (answer: () => unknown, request?: string) =>
      result.current((key) => {
        keys.push(key);
        return Promise.resolve().then(answer);
      }, request);
    const fail = (error: unknown) => () => {
      throw error;
    };
    return { keys, send, fail };
  }

  it('keeps the key after a lost answer or a 5xx, and renews it after a 4xx or a success', async () => {
    const { keys, send, fail } = harness();
    await expect(send(fail({ status: 'FETCH_ERROR', error: 'TypeError' }))).rejects.toMatchObject({ status: 'FETCH_ERROR' });
    await expect(send(fail({ status: 503, data: null }))).rejects.toMatchObject({ status: 503 });
    await expect(send(fail({ status: 'TIMEOUT_ERROR', error: 'AbortError' }))).rejects.toMatchObject({ status: 'TIMEOUT_ERROR' });
    await expect(send(fail({ status: 422, data: null }))).rejects.toMatchObject({ status: 422 });
    await expect(send(() => ({ IdUser: 7 }))).resolves.toEqual({ IdUser: 7 });
    await expect(send(() => ({ IdUser: 8 }))).resolves.toEqual({ IdUser: 8 });

    // The first four are one request; the 422 spent it, the success spent the next one.
    expect(new Set(keys.slice(0, 4)).size).toBe(1);
    expect(keys[4]).not.toBe(keys[3]);
    expect(keys[5]).not.toBe(keys[4]);
  });

  it('starts a new key when what is sent changes, and keeps it while it does not', async () => {
    const { keys, send, fail } = harness();
    const lost = fail({ status: 'FETCH_ERROR', error: 'TypeError' });
    await expect(send(lost, '10:00')).rejects.toBeTruthy();
    await expect(send(lost, '10:00')).rejects.toBeTruthy();
    await expect(send(lost, '14:00')).rejects.toBeTruthy();
    await expect(send(() => 'booked', '14:00')).resolves.toBe('booked');
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
    expect(keys[3]).toBe(keys[2]);
  });
});
