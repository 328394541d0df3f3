import { createListenerMiddleware } from '@reduxjs/toolkit';
import { API_BASE_PATH, api } from '@/api/api';
import { companiesApi } from '@/api/companiesApi';
import { favoritesApi } from '@/api/favoritesApi';
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
  listeners.startListening({
    actionCreator: signedIn,
    effect: (_action, { dispatch }) => {
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
      if (token) endServerSession(token);
      dispatch(api.util.resetApiState());
    },
  });

  return listeners;
}
