import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import {
  FLUSH,
  PAUSE,
  PERSIST,
  PURGE,
  REGISTER,
  REHYDRATE,
  createMigrate,
  persistReducer,
  persistStore,
  type MigrationManifest,
  type PersistedState,
} from 'redux-persist';
import storage from 'redux-persist/lib/storage';
import { api } from '@/api/api';
import { positionSlice } from '@/api/positionSlice';
import { agendaSlice } from '@/features/agenda';
import { loadingSlice } from '@/state/loadingSlice';
import { initialSessionState, sessionSlice } from '@/state/sessionSlice';
import { initialUiState, uiSlice } from '@/state/uiSlice';
import { makeListenerMiddleware } from './listeners';

export const PERSIST_TIMEOUT_MS = 5000;

// Each migration fills what older versions lacked; version 1 is the first shape.
const sessionMigrations: MigrationManifest = {
  1: (state) => ({ ...initialSessionState, ...(state as NonNullable<PersistedState>) }),
};
const uiMigrations: MigrationManifest = {
  1: (state) => {
    const old = (state ?? {}) as Partial<typeof initialUiState> & PersistedState;
    return { ...initialUiState, ...old, menuGroups: { ...(old.menuGroups ?? {}) } } as PersistedState;
  },
  // Issue 45: the menu starts expanded at desktop width. A stored 'false' was almost always the
  // old default or the old fold on every resize below 2000 px, not a choice: expand it once.
  // The home's unit per user is new.
  2: (state) => {
    const old = (state ?? {}) as Partial<typeof initialUiState> & PersistedState;
    return { ...old, menuOpen: true, homeUnits: { ...(old.homeUnits ?? {}) } } as PersistedState;
  },
  // Issue 45: the agenda's unit per user is new.
  3: (state) => {
    const old = (state ?? {}) as Partial<typeof initialUiState> & PersistedState;
    return { ...old, agendaUnits: { ...(old.agendaUnits ?? {}) } } as PersistedState;
  },
};
const positionMigrations: MigrationManifest = {
  1: (state) => state,
};

/** Session: token, user, role, companies, selected company and favourites. */
export const sessionPersistConfig = {
  key: 'navalha-session',
  version: 1,
  storage,
  timeout: PERSIST_TIMEOUT_MS,
  migrate: createMigrate(sessionMigrations, { debug: false }),
};

/** UI: lateral menu flag, the open/closed state of each menu group and each user's home and agenda units. */
export const uiPersistConfig = {
  key: 'navalha-ui',
  version: 3,
  storage,
  timeout: PERSIST_TIMEOUT_MS,
  migrate: createMigrate(uiMigrations, { debug: false }),
};

/** Last read-your-writes position, so a reload still reads the user's own writes. */
export const positionPersistConfig = {
  key: 'navalha-position',
  version: 1,
  storage,
  timeout: PERSIST_TIMEOUT_MS,
  migrate: createMigrate(positionMigrations, { debug: false }),
};

// The RTK Query cache (api), the loading overlay and the agenda's filters are never persisted.
const rootReducer = combineSlices(api, loadingSlice, agendaSlice, {
  session: persistReducer(sessionPersistConfig, sessionSlice.reducer),
  ui: persistReducer(uiPersistConfig, uiSlice.reducer),
  position: persistReducer(positionPersistConfig, positionSlice.reducer),
});

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  const listeners = makeListenerMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        serializableCheck: {
          ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER],
        },
      })
        .prepend(listeners.middleware)
        .concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export function makePersistor(store: AppStore) {
  return persistStore(store);
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

// The typed hooks are in state/hooks (below app/ in the layering of eslint.config.js).
