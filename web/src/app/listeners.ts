import { createListenerMiddleware } from '@reduxjs/toolkit';
import { API_BASE_PATH, api } from '@/api/api';
import { companiesApi } from '@/api/companiesApi';
import { favoritesApi } from '@/api/favoritesApi';
import { flushPersisted } from '@/state/persist';
import { signedIn, signedOut, type SessionState } from '@/state/sessionSlice';

/** Ends the session on the server, so its token stops working at once ('Sair').
 * Best effort and outside the base query: a token that is already dead answers 401,
 * which must not sign out again. */
export function endServerSession(token: string): void {
  const url = new URL(`${API_BASE_PATH}session-professional/logout`, window.location.origin);
  void fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, keepalive: true }).catch(
    () => undefined,
  );
}

/** Side effects of session events; one instance per store. */
export function makeListenerMiddleware() {
  const listeners = createListenerMiddleware();

  // After any sign-in (password, social, registration, recovery): initial data load.
  // The new token goes to storage at once, not on redux-persist's next timer tick: a reload
  // right after signing in must find it (pages also await flushPersisted before navigating).
  listeners.startListening({
    actionCreator: signedIn,
    effect: (_action, { dispatch }) => {
      void flushPersisted(dispatch);
      const options = { subscribe: false, forceRefetch: true } as const;
      dispatch(favoritesApi.endpoints.getFavorites.initiate(undefined, options));
      dispatch(companiesApi.endpoints.getCompanies.initiate(undefined, options));
    },
  });

  // A signed-out user must not see the previous user's cached answers, and the token
  // they held stops working on the server.
  listeners.startListening({
    actionCreator: signedOut,
    effect: (_action, { dispatch, getOriginalState }) => {
      const { token } = (getOriginalState() as { session: SessionState }).session;
      // Gone from storage at once too: a reload right after 'Sair' must not find it.
      void flushPersisted(dispatch);
      if (token) endServerSession(token);
      dispatch(api.util.resetApiState());
    },
  });

  return listeners;
}
