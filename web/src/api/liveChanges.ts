import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { selectToken, signedOut } from '@/state/sessionSlice';
import { api, API_BASE_PATH } from './api';

/**
 * Live changes (ADR 0011): while a screen that uses this hook is open, the query side tells
 * it which read models changed for the user's business (server-sent events on
 * GET /api/changes), and the app fetches again what shows them. Nothing is open, and
 * nothing costs, when no such screen is.
 */

type TagType = Parameters<typeof api.util.invalidateTags>[0][number];

/** What each read model feeds: the tags to fetch again when it changes. */
export const MODEL_TAGS: Record<string, TagType[]> = {
  agenda: ['Scheduling', 'AvailableTime'],
  caixa: ['Caixa'],
  client: ['Client'],
  club: ['SubscriptionDetail', 'SubscriptionUser'],
  // Issue 41: a comanda also moves its appointment's state ('Atendido', 'Ver comanda') and
  // its caixa's figures.
  comanda: ['Comanda', 'Scheduling', 'Caixa'],
  company: ['Company', 'Service', 'AvailableTime'],
  day_off: ['Professional', 'AvailableTime'],
  favorite_menu: ['Favorite'],
  holiday: ['Holiday', 'AvailableTime'],
  // Issue 44: a reminder's delivery or reply moves its appointment's card ('Lembrete entregue',
  // 'Confirmado pelo cliente') and the 'Mensagens' view.
  message: ['Scheduling', 'Message'],
  product: ['Product'],
  professional: ['Professional', 'Service', 'AvailableTime'],
};

const EVERY_TAG: TagType[] = [...new Set(Object.values(MODEL_TAGS).flat())];

/** The tags a `change` of `model` invalidates; `*` (the stream fell behind) and unknown models, all. */
export const tagsFor = (model: string): TagType[] => MODEL_TAGS[model] ?? EVERY_TAG;

export interface ServerEvent {
  event: string;
  data: string;
}

/**
 * Splits the text received so far into complete events and the rest (an event ends at a
 * blank line). Comments (keep-alives) and events without a name are dropped.
 */
export function parseServerEvents(buffer: string): { events: ServerEvent[]; rest: string } {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: ServerEvent[] = [];
  for (const block of blocks) {
    let event = '';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (event) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

/** Waits after a dropped stream: 1 s, doubling up to 30 s; back to 1 s once a stream opens. */
export const RECONNECT_MIN_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
export const nextDelay = (delay: number) => Math.min(delay * 2, RECONNECT_MAX_MS);

/**
 * The server sends a comment every 15 s; a stream silent for longer than this is dead
 * (a laptop that slept, a dropped network) and is opened again.
 */
export const SILENCE_LIMIT_MS = 40_000;

type StreamEnd = 'ended' | 'unauthorized';

/** Reads one stream until it ends, dies silent, or `signal` aborts; each event goes to `onEvent`. */
async function follow(token: string, signal: AbortSignal, onEvent: (event: ServerEvent) => void): Promise<StreamEnd> {
  const attempt = new AbortController();
  const abort = () => attempt.abort();
  signal.addEventListener('abort', abort);
  let watchdog = setTimeout(abort, SILENCE_LIMIT_MS);
  try {
    const response = await fetch(new URL(`${API_BASE_PATH}changes`, window.location.origin), {
      headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
      cache: 'no-store',
      signal: attempt.signal,
    });
    if (response.status === 401) return 'unauthorized';
    if (!response.ok || !response.body) return 'ended';
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'ended';
      clearTimeout(watchdog);
      watchdog = setTimeout(abort, SILENCE_LIMIT_MS);
      const parsed = parseServerEvents(buffer + value);
      buffer = parsed.rest;
      parsed.events.forEach(onEvent);
    }
  } finally {
    clearTimeout(watchdog);
    signal.removeEventListener('abort', abort);
  }
}

/** Resolves after `ms`, or at once when `wake` or `signal` fires. */
const pause = (ms: number, signal: AbortSignal, wake: EventTarget) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      wake.removeEventListener('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    wake.addEventListener('online', done);
  });

/**
 * Keeps the screen current with other users' changes. On every (re)connection the stream
 * says `ready` and everything is fetched again, which catches up on what was missed. A
 * dropped stream is opened again after a pause, or at once when the browser is back online.
 */
export function useLiveChanges() {
  const dispatch = useAppDispatch();
  const token = useAppSelector(selectToken);

  useEffect(() => {
    if (!token) return;
    const stop = new AbortController();
    const onEvent = ({ event, data }: ServerEvent) => {
      if (event === 'ready') {
        dispatch(api.util.invalidateTags(EVERY_TAG));
      } else if (event === 'change') {
        const model = (JSON.parse(data) as { model?: string }).model ?? '*';
        dispatch(api.util.invalidateTags(tagsFor(model)));
      }
    };
    // Going offline ends the current stream at once (it would otherwise wait for the watchdog).
    let current = new AbortController();
    const dropCurrent = () => current.abort();
    window.addEventListener('offline', dropCurrent);
    void (async () => {
      let delay = RECONNECT_MIN_MS;
      for (let attempt = 1; !stop.signal.aborted; attempt += 1) {
        current = new AbortController();
        stop.signal.addEventListener('abort', dropCurrent);
        let end: StreamEnd = 'ended';
        try {
          end = await follow(token, current.signal, (event) => {
            delay = RECONNECT_MIN_MS;
            // The first stream's `ready` needs no fetching again: the screen has just read everything.
            if (attempt > 1 || event.event !== 'ready') onEvent(event);
          });
        } catch {
          // A dropped connection or an abort: retry below unless stopped.
        }
        stop.signal.removeEventListener('abort', dropCurrent);
        if (end === 'unauthorized') {
          dispatch(signedOut());
          return;
        }
        await pause(delay, stop.signal, window);
        delay = nextDelay(delay);
      }
    })();
    return () => {
      window.removeEventListener('offline', dropCurrent);
      stop.abort();
    };
  }, [token, dispatch]);
}
