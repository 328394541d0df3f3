import { FLUSH } from 'redux-persist';

/**
 * Writes every persisted slice to storage now, as redux-persist's `persistor.flush()` does
 * (it dispatches this same action), without needing the persistor. With localStorage the
 * write happens before this returns; the promise settles when storage has it.
 */
export function flushPersisted(dispatch: (action: { type: string; result: (write: unknown) => void }) => unknown): Promise<void> {
  const writes: unknown[] = [];
  dispatch({ type: FLUSH, result: (write) => writes.push(write) });
  return Promise.all(writes).then(() => undefined);
}
