import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { notifyError } from '@/lib/notify';
import { loadingClosed } from '@/state/loadingSlice';
import { signedOut, type SessionState } from '@/state/sessionSlice';
import { classifyError } from './errors';
import { positionReceived, type PositionState } from './positionSlice';

export const API_BASE_PATH = '/api/';
export const REQUEST_TIMEOUT_MS = 60_000;
export const POSITION_HEADER = 'X-Navalha-Position';

/** The slice of the root state the base query reads (kept structural to avoid an import cycle). */
interface ApiRootState {
  session: SessionState;
  position: PositionState;
}

const rawBaseQuery = fetchBaseQuery({
  // Absolute on the page's own origin: the gateway serves the app and /api together.
  baseUrl: new URL(API_BASE_PATH, window.location.origin).href,
  timeout: REQUEST_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) => {
    const { token } = (getState() as ApiRootState).session;
    headers.set('Authorization', token ? `Bearer ${token}` : '');
    return headers;
  },
});

const isRead = (method: string | undefined) => {
  const m = (method ?? 'GET').toUpperCase();
  return m === 'GET' || m === 'HEAD';
};

/**
 * An endpoint's `extraOptions`: `quiet` leaves the failure toast to the screen, for calls
 * whose failures have their own messages or are expected (a reminder recorded on a best-effort
 * basis, a past view before the record existed). A 401 still signs out.
 */
export interface CallOptions {
  quiet?: boolean;
}

export const QUIET: CallOptions = { quiet: true };

/**
 * Every call goes through here: adds the read-your-writes position to reads,
 * records the position of every answer, and applies the error catalogue once
 * for the whole app (spec 01 §8).
 */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta> =
  async (args, api, extraOptions) => {
    const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
    const position = (api.getState() as ApiRootState).position.last;
    let sent = request;
    if (position && isRead(request.method)) {
      const headers = new Headers(request.headers as HeadersInit | undefined);
      headers.set(POSITION_HEADER, position);
      sent = { ...request, headers };
    }

    const result = await rawBaseQuery(sent, api, extraOptions);

    const answered = result.meta?.response?.headers.get(POSITION_HEADER);
    if (answered) api.dispatch(positionReceived(answered));

    if (result.error && !api.signal.aborted) {
      api.dispatch(loadingClosed());
      const outcome = classifyError(result.error);
      if (outcome.kind === 'signOut') {
        api.dispatch(signedOut());
      } else if (!(extraOptions as CallOptions | undefined)?.quiet) {
        notifyError(outcome.message);
      }
    }
    return result;
  };

/** The single API of the app; features add endpoints with injectEndpoints. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [
    'Favorite',
    'Company',
    'Scheduling',
    'Professional',
    'Service',
    'Client',
    'AvailableTime',
    'Holiday',
    'SubscriptionDetail',
    'SubscriptionUser',
    'Profile',
    'Comanda',
    'Product',
    'Caixa',
    // Issue 44: the WhatsApp reminders ('Mensagens', the home's confirmation rate).
    'Message',
  ],
  endpoints: () => ({}),
});
