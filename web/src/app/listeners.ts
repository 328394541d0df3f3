import { createListenerMiddleware } from '@reduxjs/toolkit';
import { api } from '@/api/api';
import { companiesApi } from '@/api/companiesApi';
import { favoritesApi } from '@/api/favoritesApi';
import { signedIn, signedOut } from '@/state/sessionSlice';

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

  // A signed-out user must not see the previous user's cached answers.
  listeners.startListening({
    actionCreator: signedOut,
    effect: (_action, { dispatch }) => {
      dispatch(api.util.resetApiState());
    },
  });

  return listeners;
}
