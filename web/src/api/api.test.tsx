import { render, screen, waitFor } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { ToastContainer } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import { signedInSession } from '@/test/fixtures';
import { apiUrl, server } from '@/test/server';
import { loadingOpened } from '@/state/loadingSlice';
import { REQUEST_TIMEOUT_MS } from './api';
import { companiesApi } from './companiesApi';
import { GENERIC_ERROR_MESSAGE, TIMEOUT_MESSAGE } from './errors';
import { favoritesApi } from './favoritesApi';
import { positionReceived } from './positionSlice';

const getCompanies = () => companiesApi.endpoints.getCompanies.initiate(undefined, { subscribe: false });
const getFavorites = () =>
  favoritesApi.endpoints.getFavorites.initiate(undefined, { subscribe: false, forceRefetch: true });

beforeEach(() => {
  render(<ToastContainer />);
});

describe('requests', () => {
  it('send the bearer token of the session', async () => {
    let authorization: string | null = null;
    server.use(
      http.get(apiUrl('company'), ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json([]);
      }),
    );
    const store = makeStore({ session: signedInSession() });
    await store.dispatch(getCompanies());
    expect(authorization).toBe('Bearer token-123');
  });

  it('send an empty Authorization header without a session', async () => {
    let authorization: string | null = null;
    server.use(
      http.get(apiUrl('company'), ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json([]);
      }),
    );
    await makeStore().dispatch(getCompanies());
    expect(authorization).toBe('');
  });

  it('go to the paths of the spec under /api/', async () => {
    const seen: string[] = [];
    server.use(
      http.all(/\/api\/.*/, ({ request }) => {
        seen.push(`${request.method} ${new URL(request.url).pathname}`);
        return request.method === 'GET' ? HttpResponse.json([]) : new HttpResponse(null, { status: 204 });
      }),
    );
    const store = makeStore({ session: signedInSession() });
    await store.dispatch(getFavorites());
    await store.dispatch(favoritesApi.endpoints.saveFavorite.initiate('scheduling'));
    await store.dispatch(favoritesApi.endpoints.deleteFavorite.initiate('scheduling'));
    expect(seen).toEqual([
      'GET /api/professional-favorite-menu/',
      'POST /api/professional-favorite-menu/',
      'DELETE /api/professional-favorite-menu/slug/scheduling',
    ]);
  });
});

describe('read-your-writes', () => {
  it('sends the position of the last command answer on the following reads only', async () => {
    const favoritesHeaders: (string | null)[] = [];
    let postHeader: string | null = 'unset';
    server.use(
      http.post(apiUrl('professional-favorite-menu/'), ({ request }) => {
        postHeader = request.headers.get('X-Navalha-Position');
        return new HttpResponse(null, { status: 201, headers: { 'X-Navalha-Position': '812.42' } });
      }),
      http.get(apiUrl('professional-favorite-menu/'), ({ request }) => {
        favoritesHeaders.push(request.headers.get('X-Navalha-Position'));
        return HttpResponse.json([{ MenuSlug: 'scheduling' }]);
      }),
    );
    const store = makeStore({ session: signedInSession() });

    await store.dispatch(getFavorites());
    await store.dispatch(favoritesApi.endpoints.saveFavorite.initiate('scheduling'));
    await store.dispatch(getFavorites());

    expect(postHeader).toBeNull();
    expect(favoritesHeaders).toEqual([null, '812.42']);
    expect(store.getState().position.last).toBe('812.42');
    expect(store.getState().session.menuFavorite).toEqual([{ MenuSlug: 'scheduling' }]);
  });

  it('never moves the position backwards', () => {
    const store = makeStore();
    store.dispatch(positionReceived('900.100'));
    store.dispatch(positionReceived('900.99'));
    expect(store.getState().position.last).toBe('900.100');
    // A later transaction comes later even with a smaller global position.
    store.dispatch(positionReceived('901.7'));
    expect(store.getState().position.last).toBe('901.7');
    store.dispatch(positionReceived('899.500'));
    expect(store.getState().position.last).toBe('901.7');
  });
});

describe('error catalogue', () => {
  it('shows the throttling message of a 429', async () => {
    server.use(
      http.get(apiUrl('company'), () =>
        HttpResponse.json({ message: 'Muitas tentativas. Tente novamente em instantes.' }, { status: 429 }),
      ),
    );
    await makeStore().dispatch(getCompanies());
    expect(await screen.findByText('Muitas tentativas. Tente novamente em instantes.')).toBeTruthy();
  });

  it('falls back to the generic message when the server sent none', async () => {
    server.use(http.get(apiUrl('company'), () => new HttpResponse('Bad Gateway', { status: 502 })));
    await makeStore().dispatch(getCompanies());
    expect(await screen.findByText(GENERIC_ERROR_MESSAGE)).toBeTruthy();
  });

  it('falls back to the generic message when the server cannot be reached', async () => {
    server.use(http.get(apiUrl('company'), () => HttpResponse.error()));
    await makeStore().dispatch(getCompanies());
    expect(await screen.findByText(GENERIC_ERROR_MESSAGE)).toBeTruthy();
  });

  it('signs out silently on 401', async () => {
    server.use(
      http.get(apiUrl('company'), () => HttpResponse.json({ message: 'Sessão expirada.' }, { status: 401 })),
    );
    const store = makeStore({ session: signedInSession() });
    store.dispatch(loadingOpened());
    await store.dispatch(getCompanies());
    expect(store.getState().session.token).toBeNull();
    expect(store.getState().loading.open).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Sessão expirada.')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  describe('with a server that never answers', () => {
    beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
    afterEach(() => vi.useRealTimers());

    it(`gives up after ${REQUEST_TIMEOUT_MS} ms with the communication message`, async () => {
      server.use(
        http.get(apiUrl('company'), async () => {
          await delay('infinite');
          return HttpResponse.json([]);
        }),
      );
      const store = makeStore();
      const pending = store.dispatch(getCompanies());
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      expect(store.getState().api.queries['getCompanies(undefined)']?.status).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      const result = await pending;
      expect(result.error).toMatchObject({ status: 'TIMEOUT_ERROR' });
      vi.useRealTimers();
      await waitFor(() => expect(screen.getByText(TIMEOUT_MESSAGE)).toBeTruthy());
    });
  });
});
