import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Persistor } from 'redux-persist';
import { positionReceived } from '@/api/positionSlice';
import { loginResponse } from '@/test/fixtures';
import { apiUrl, server } from '@/test/server';
import { loadingOpened } from '@/state/loadingSlice';
import { signedIn, signedOut } from '@/state/sessionSlice';
import { agendaUnitChosen, homeUnitChosen, menuGroupToggled, menuToggled } from '@/state/uiSlice';
import {
  makePersistor,
  makeStore,
  PERSIST_TIMEOUT_MS,
  positionPersistConfig,
  sessionPersistConfig,
  uiPersistConfig,
} from './store';

function bootstrapped(persistor: Persistor) {
  return new Promise<void>((resolve) => {
    const check = () => {
      if (persistor.getState().bootstrapped) {
        unsubscribe();
        resolve();
      }
    };
    const unsubscribe = persistor.subscribe(check);
    check();
  });
}

const stored = (key: string) => {
  const raw = localStorage.getItem(`persist:${key}`);
  if (!raw) return null;
  // redux-persist stores each top-level field JSON-encoded once more.
  return Object.fromEntries(
    Object.entries(JSON.parse(raw) as Record<string, string>).map(([k, v]) => [k, JSON.parse(v)]),
  );
};

describe('store persistence', () => {
  beforeEach(() => {
    // Signing in loads favourites and companies.
    server.use(
      http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
      http.get(apiUrl('company'), () => HttpResponse.json([])),
    );
  });

  it('configures separate keys, versions and the 5000 ms timeout', () => {
    expect(sessionPersistConfig.key).toBe('navalha-session');
    expect(uiPersistConfig.key).toBe('navalha-ui');
    expect(positionPersistConfig.key).toBe('navalha-position');
    expect(sessionPersistConfig.version).toBe(1);
    expect(uiPersistConfig.version).toBe(3);
    expect(positionPersistConfig.version).toBe(1);
    for (const config of [sessionPersistConfig, uiPersistConfig, positionPersistConfig]) {
      expect(config.timeout).toBe(PERSIST_TIMEOUT_MS);
      expect(typeof config.migrate).toBe('function');
    }
    expect(PERSIST_TIMEOUT_MS).toBe(5000);
  });

  it('saves session and UI state under their own keys and never the API cache or loading', async () => {
    const store = makeStore();
    const persistor = makePersistor(store);
    await bootstrapped(persistor);

    store.dispatch(signedIn(loginResponse()));
    store.dispatch(menuToggled());
    store.dispatch(menuGroupToggled('Cadastros'));
    store.dispatch(homeUnitChosen({ user: '7', unit: '' }));
    store.dispatch(agendaUnitChosen({ user: '7', unit: '2' }));
    store.dispatch(loadingOpened());
    store.dispatch(positionReceived('15'));
    await persistor.flush();

    const session = stored('navalha-session')!;
    expect(session.token).toBe('token-123');
    expect(session.userName).toBe('Admin Navalha');
    expect(session.menuOpen).toBeUndefined();

    const ui = stored('navalha-ui')!;
    // Expanded until folded: the toggle folded it.
    expect(ui.menuOpen).toBe(false);
    expect(ui.menuGroups).toEqual({ Cadastros: false });
    expect(ui.homeUnits).toEqual({ 7: '' });
    expect(ui.agendaUnits).toEqual({ 7: '2' });
    expect(ui.token).toBeUndefined();

    expect(stored('navalha-position')!.last).toBe('15');
    expect(Object.keys(localStorage).sort()).toEqual([
      'persist:navalha-position',
      'persist:navalha-session',
      'persist:navalha-ui',
    ]);
  });

  it('writes the session to storage as it signs in, before any timer runs (a reload at once keeps it)', async () => {
    const store = makeStore();
    await bootstrapped(makePersistor(store));
    store.dispatch(signedIn(loginResponse()));
    // No await: redux-persist alone would write on its next timer tick.
    expect(stored('navalha-session')?.token).toBe('token-123');
  });

  it('restores the session and the menu state on start', async () => {
    const first = makeStore();
    const firstPersistor = makePersistor(first);
    await bootstrapped(firstPersistor);
    first.dispatch(signedIn(loginResponse('BARBER_LEADE')));
    first.dispatch(menuToggled());
    first.dispatch(homeUnitChosen({ user: '7', unit: '2' }));
    await firstPersistor.flush();

    const second = makeStore();
    await bootstrapped(makePersistor(second));
    expect(second.getState().session.token).toBe('token-123');
    expect(second.getState().session.role?.Type).toBe('BARBER_LEADE');
    // The fold the user chose, and their home unit, outlive the page.
    expect(second.getState().ui.menuOpen).toBe(false);
    expect(second.getState().ui.homeUnits).toEqual({ 7: '2' });
    expect(second.getState().loading.open).toBe(false);
  });

  it('migrates a session saved by an older version', async () => {
    localStorage.setItem(
      'persist:navalha-session',
      JSON.stringify({
        token: JSON.stringify('old-token'),
        userName: JSON.stringify('Antigo'),
        _persist: JSON.stringify({ version: -1, rehydrated: true }),
      }),
    );
    const store = makeStore();
    await bootstrapped(makePersistor(store));
    const session = store.getState().session;
    expect(session.token).toBe('old-token');
    expect(session.userName).toBe('Antigo');
    expect(session.menuFavorite).toEqual([]);
    expect(session.companyList).toEqual([]);
    expect(session._persist.version).toBe(1);
  });

  it('expands a menu folded under version 1 once, keeping its groups (issue 45)', async () => {
    // Version 1 folded the menu by default and on every resize below 2000 px: a stored
    // 'false' says nothing of what the user wants.
    localStorage.setItem(
      'persist:navalha-ui',
      JSON.stringify({
        menuOpen: 'false',
        menuGroups: JSON.stringify({ Cadastros: false }),
        _persist: JSON.stringify({ version: 1, rehydrated: true }),
      }),
    );
    const store = makeStore();
    await bootstrapped(makePersistor(store));
    const ui = store.getState().ui;
    expect(ui.menuOpen).toBe(true);
    expect(ui.menuGroups).toEqual({ Cadastros: false });
    expect(ui.homeUnits).toEqual({});
    expect(ui.agendaUnits).toEqual({});
    expect(ui._persist.version).toBe(3);
  });

  it("adds the agenda's units to a version 2 state, keeping the rest (issue 45)", async () => {
    localStorage.setItem(
      'persist:navalha-ui',
      JSON.stringify({
        menuOpen: 'false',
        menuGroups: JSON.stringify({ Cadastros: false }),
        homeUnits: JSON.stringify({ 7: '2' }),
        _persist: JSON.stringify({ version: 2, rehydrated: true }),
      }),
    );
    const store = makeStore();
    await bootstrapped(makePersistor(store));
    const ui = store.getState().ui;
    // A fold made under version 2 was the user's choice: it stays.
    expect(ui.menuOpen).toBe(false);
    expect(ui.menuGroups).toEqual({ Cadastros: false });
    expect(ui.homeUnits).toEqual({ 7: '2' });
    expect(ui.agendaUnits).toEqual({});
    expect(ui._persist.version).toBe(3);
  });
});

describe('signing out', () => {
  it("ends the session on the server with the token it held ('Sair')", async () => {
    const ended: (string | null)[] = [];
    server.use(
      http.post(apiUrl('session-professional/logout'), ({ request }) => {
        ended.push(request.headers.get('Authorization'));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const store = makeStore();
    store.dispatch(signedIn(loginResponse()));
    store.dispatch(signedOut());
    expect(store.getState().session.token).toBeNull();
    await expect.poll(() => ended).toEqual(['Bearer token-123']);
    // Signed out already (e.g. after a 401): nothing to end.
    store.dispatch(signedOut());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toHaveLength(1);
  });
});
