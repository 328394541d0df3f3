import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ToastContainer } from 'react-toastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { loadingOpened } from '@/state/loadingSlice';
import { loginResponse } from '@/test/fixtures';
import { apiUrl, server } from '@/test/server';
import { authApi } from './authApi';

beforeEach(() => {
  render(<ToastContainer />);
});

describe('login', () => {
  it("shows the server's message as an error toast and clears the loading overlay", async () => {
    server.use(
      http.post(apiUrl('session-professional/login'), () =>
        HttpResponse.json({ message: 'E-mail ou senha incorretos.' }, { status: 400 }),
      ),
    );
    const store = makeStore();
    store.dispatch(loadingOpened());
    await store.dispatch(authApi.endpoints.login.initiate({ email: 'a@b.co', password: 'errada' }));
    expect(await screen.findByText('E-mail ou senha incorretos.')).toBeTruthy();
    expect(store.getState().loading.open).toBe(false);
    expect(store.getState().session.token).toBeNull();
  });
});

describe('after sign-in', () => {
  it('loads favourites and companies, deriving canHide and the selected company', async () => {
    server.use(
      http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([{ MenuSlug: 'client' }])),
      http.get(apiUrl('company'), () =>
        HttpResponse.json([
          { IdCompany: 2, Name: 'Navalha Praia', City: 'Santos', State: 'SP', Status: true },
          { IdCompany: 1, Name: 'Navalha Centro', City: 'São Paulo', State: 'SP', Status: true },
        ]),
      ),
      http.post(apiUrl('session-professional/login'), () => HttpResponse.json(loginResponse())),
    );
    const store = makeStore();
    await store.dispatch(authApi.endpoints.login.initiate({ email: 'admin@navalha.dev', password: 'Navalha@2026' }));
    await waitFor(() => expect(store.getState().session.companyList).toHaveLength(2));
    const session = store.getState().session;
    expect(session.token).toBe('token-123');
    expect(session.companyList.map((c) => c.canHide)).toEqual([true, false]);
    expect(session.selectedCompany?.IdCompany).toBe(1);
    await waitFor(() => expect(store.getState().session.menuFavorite).toEqual([{ MenuSlug: 'client' }]));
  });
});
