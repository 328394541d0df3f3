import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loginResponse, otherCompany, ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import type { RootState } from '@/app/store';
import { initialUiState } from '@/state/uiSlice';
import { apiUrl, server } from '@/test/server';
import type { FavoriteMenu } from '@/api/wire';

/** A small in-memory server for the favourites, with read-your-writes positions. */
function favoritesServer(initial: string[] = []) {
  const favorites = new Set(initial);
  let position = 0;
  const reads: (string | null)[] = [];
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany, otherCompany])),
    // The agenda's reads, for the tests that open it: an empty day.
    http.get(apiUrl('professional/company/:id'), () => HttpResponse.json([])),
    http.get(apiUrl('scheduling/professional'), () => HttpResponse.json([])),
    http.get(apiUrl('user/filter'), () => HttpResponse.json({ content: [], total: 0, count: 0 })),
    http.get(apiUrl('professional-favorite-menu/'), ({ request }) => {
      reads.push(request.headers.get('X-Navalha-Position'));
      return HttpResponse.json([...favorites].map((slug): FavoriteMenu => ({ MenuSlug: slug })));
    }),
    http.post(apiUrl('professional-favorite-menu/'), async ({ request }) => {
      const { slug } = (await request.json()) as { slug: string };
      favorites.add(slug);
      position += 1;
      return new HttpResponse(null, { status: 201, headers: { 'X-Navalha-Position': String(position) } });
    }),
    http.delete(apiUrl('professional-favorite-menu/slug/:slug'), ({ params }) => {
      favorites.delete(String(params.slug));
      position += 1;
      return new HttpResponse(null, { status: 204, headers: { 'X-Navalha-Position': String(position) } });
    }),
  );
  return { favorites, reads };
}

const sideMenu = () => screen.getByRole('navigation', { name: 'Menu principal' });

describe('public pages', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("shows 'Login' with e-mail sign-in and no Google button without a client id", async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continuar com o Google' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continuar com e-mail' }));
    expect(await screen.findByRole('heading', { name: 'Login | E-mail' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login-email');
  });

  it("offers 'Continuar com o Google' after the separator when a client id is configured", async () => {
    vi.stubEnv('VITE_GOOGLE_CLIENT_ID', 'client-id.apps.example');
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Continuar com o Google' })).toBeTruthy();
    expect(screen.getByRole('separator').textContent).toBe('ou');
  });

  it('validates the login form with the spec messages', async () => {
    const user = userEvent.setup();
    renderApp('/login-email');
    await user.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Digite seu e-mail.')).toBeTruthy();
    expect(screen.getByText('Digite sua senha.')).toBeTruthy();

    await user.type(screen.getByLabelText('E-mail'), 'admin@navalha');
    await user.type(screen.getByLabelText('Senha'), '12345');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('E-mail inválido')).toBeTruthy();
    expect(screen.getByText('Mínimo de 6 caracteres.')).toBeTruthy();
  });

  it("'Esqueci minha senha' leads to the recovery page", async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/login-email');
    await user.click(await screen.findByRole('button', { name: 'Esqueci minha senha' }));
    expect(router.state.location.pathname).toBe('/send-recovery-email');
  });

  it('shows the server message of a refused sign-in as a toast', async () => {
    server.use(
      http.post(apiUrl('session-professional/login'), () =>
        HttpResponse.json({ message: 'E-mail ou senha incorretos.' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    const { store, router } = renderApp('/login-email');
    await user.type(await screen.findByLabelText('E-mail'), 'admin@navalha.dev');
    await user.type(screen.getByLabelText('Senha'), 'errada123');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('E-mail ou senha incorretos.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login-email');
    expect(store.getState().loading.open).toBe(false);
  });

  it('sends an unauthenticated visitor of the dashboard to /', async () => {
    const { router } = renderApp('/dashboard/scheduling');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a signed-in user away from the public pages', async () => {
    favoritesServer();
    const { router } = renderApp('/login-email', { session: signedInSession() });
    expect(await screen.findByRole('heading', { name: 'Início' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shows the not-found page for an unknown address', async () => {
    renderApp('/nada-aqui');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
  });
});

describe('dashboard shell', () => {
  beforeEach(() => {
    window.innerWidth = 1280;
  });

  it('signs in, loads the initial data and shows the menu', async () => {
    const { reads } = favoritesServer(['client']);
    let body: unknown = null;
    server.use(
      http.post(apiUrl('session-professional/login'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(loginResponse());
      }),
    );
    const user = userEvent.setup();
    const { store, router } = renderApp('/login-email');
    await user.type(await screen.findByLabelText('E-mail'), 'admin@navalha.dev');
    await user.type(screen.getByLabelText('Senha'), 'Navalha@2026');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(await screen.findByRole('heading', { name: 'Início' })).toBeTruthy();
    expect(body).toEqual({ email: 'admin@navalha.dev', password: 'Navalha@2026' });
    expect(router.state.location.pathname).toBe('/dashboard');
    await waitFor(() => expect(store.getState().session.selectedCompany?.IdCompany).toBe(1));
    expect(reads.length).toBe(1);

    // Issue 45: expanded on a first sign-in at desktop width, every entry in sight without ☰.
    const menu = sideMenu();
    expect(within(menu).queryByRole('button', { name: 'Expandir menu' })).toBeNull();
    for (const label of ['Início', 'Agenda', 'Clientes', 'Profissionais', 'Empresas', 'Feriados', 'Planos', 'Assinantes']) {
      expect(within(menu).getByRole('link', { name: label })).toBeTruthy();
    }
    expect(within(menu).getByText('Admin Navalha')).toBeTruthy();
    expect(within(menu).getByRole('link', { name: 'Meu Perfil' })).toBeTruthy();

    // Folded by the user: only favourites, as icons.
    await user.click(within(menu).getByRole('button', { name: 'Recolher menu' }));
    expect(within(menu).getByRole('link', { name: 'Clientes' })).toBeTruthy();
    expect(within(menu).queryByRole('link', { name: 'Agenda' })).toBeNull();
    expect(store.getState().ui.menuOpen).toBe(false);
  });

  it('marks and unmarks a favourite, re-reading the list after each write', async () => {
    const { favorites, reads } = favoritesServer();
    const user = userEvent.setup();
    const { store } = renderApp('/dashboard', { session: signedInSession() });

    const star = await screen.findByRole('button', { name: 'Favoritar Agenda' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    await user.click(star);
    const marked = await screen.findByRole('button', { name: 'Desfavoritar Agenda' });
    expect(marked.getAttribute('aria-pressed')).toBe('true');
    expect([...favorites]).toEqual(['scheduling']);
    expect(store.getState().session.menuFavorite).toEqual([{ MenuSlug: 'scheduling' }]);
    expect(reads.at(-1)).toBe('1');

    // Collapsed, the favourite stays as an icon.
    await user.click(screen.getByRole('button', { name: 'Recolher menu' }));
    expect(within(sideMenu()).getByRole('link', { name: 'Agenda' })).toBeTruthy();
    expect(within(sideMenu()).queryByRole('link', { name: 'Clientes' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Expandir menu' }));
    await user.click(screen.getByRole('button', { name: 'Desfavoritar Agenda' }));
    expect(await screen.findByRole('button', { name: 'Favoritar Agenda' })).toBeTruthy();
    expect(store.getState().session.menuFavorite).toEqual([]);
    expect(reads.at(-1)).toBe('2');
  });

  it('navigates from the menu and highlights the active item', async () => {
    favoritesServer();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard', { session: signedInSession() });
    await user.click(await screen.findByRole('link', { name: 'Agenda' }));
    expect(await screen.findByRole('heading', { name: 'Agenda' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/scheduling');
    expect(screen.getByRole('link', { name: 'Agenda' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Início' }).getAttribute('aria-current')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Navalha' }));
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('remembers closed groups by title', async () => {
    favoritesServer();
    const user = userEvent.setup();
    const { store } = renderApp('/dashboard', { session: signedInSession() });
    const group = await screen.findByRole('button', { name: 'Cadastros' });
    expect(group.getAttribute('aria-expanded')).toBe('true');
    await user.click(group);
    expect(screen.queryByRole('link', { name: 'Clientes' })).toBeNull();
    expect(store.getState().ui.menuGroups).toEqual({ Cadastros: false });
    expect(screen.getByRole('link', { name: 'Agenda' })).toBeTruthy();
  });

  it("stays as the user left it at desktop width, whatever is clicked or resized (issue 45)", async () => {
    favoritesServer();
    const user = userEvent.setup();
    const { store } = renderApp('/dashboard', { session: signedInSession() });
    const menu = await screen.findByRole('navigation', { name: 'Menu principal' });
    await waitFor(() => expect(within(menu).getByRole('link', { name: 'Agenda' })).toBeTruthy());

    // A click in the page no longer folds it (the rail would shift the page under the pointer).
    await user.click(screen.getByRole('heading', { name: 'Início' }));
    expect(within(menu).getByRole('link', { name: 'Agenda' })).toBeTruthy();
    act(() => {
      window.innerWidth = 1100;
      window.dispatchEvent(new Event('resize'));
    });
    expect(within(menu).getByRole('button', { name: 'Recolher menu' })).toBeTruthy();

    // Folded by ☰: remembered, and a resize keeps it folded.
    await user.click(within(menu).getByRole('button', { name: 'Recolher menu' }));
    expect(store.getState().ui.menuOpen).toBe(false);
    act(() => {
      window.innerWidth = 2400;
      window.dispatchEvent(new Event('resize'));
    });
    expect(within(menu).queryByRole('link', { name: 'Agenda' })).toBeNull();
    expect(within(menu).getByRole('button', { name: 'Expandir menu' })).toBeTruthy();
  });

  it('opens folded for a user who folded it (the stored choice)', async () => {
    favoritesServer();
    renderApp('/dashboard', { session: signedInSession(), ui: { ...initialUiState, menuOpen: false } as RootState['ui'] });
    const menu = await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(within(menu).getByRole('button', { name: 'Expandir menu' })).toBeTruthy();
    expect(within(menu).queryByRole('link', { name: 'Agenda' })).toBeNull();
  });

  it('is a top bar on a narrow screen whose list opens over the page for one choice', async () => {
    favoritesServer();
    window.innerWidth = 390;
    const user = userEvent.setup();
    const { store, router } = renderApp('/dashboard', { session: signedInSession() });
    const menu = await screen.findByRole('navigation', { name: 'Menu principal' });
    // Expanded is the desktop's default; the phone starts with the bar.
    expect(store.getState().ui.menuOpen).toBe(true);
    expect(within(menu).queryByRole('link', { name: 'Agenda' })).toBeNull();

    await user.click(within(menu).getByRole('button', { name: 'Expandir menu' }));
    await user.click(within(menu).getByRole('link', { name: 'Agenda' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/scheduling'));
    // The choice made, the list closes; the phone's open list is no preference.
    expect(within(menu).getByRole('button', { name: 'Expandir menu' })).toBeTruthy();
    expect(store.getState().ui.menuOpen).toBe(true);

    // Reopened and left by the logo, it closes too.
    await user.click(within(menu).getByRole('button', { name: 'Expandir menu' }));
    await user.click(within(menu).getByRole('button', { name: 'Navalha' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(within(menu).getByRole('button', { name: 'Expandir menu' })).toBeTruthy();
  });

  it('asks before signing out and ends on the login page', async () => {
    favoritesServer();
    const user = userEvent.setup();
    const { store, router } = renderApp('/dashboard', { session: signedInSession() });
    await user.click(await screen.findByRole('button', { name: 'Sair' }));

    let dialog = screen.getByRole('dialog', { name: 'Atencão!' });
    expect(within(dialog).getByText('Deseja realmente sair ?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(store.getState().session.token).toBe('token-123');

    await user.click(screen.getByRole('button', { name: 'Sair' }));
    dialog = screen.getByRole('dialog', { name: 'Atencão!' });
    await user.click(within(dialog).getByRole('button', { name: 'Sair' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(store.getState().session.token).toBeNull();
  });

  it('shows the not-found page for an unknown dashboard route', async () => {
    favoritesServer();
    renderApp('/dashboard/nada-aqui', { session: signedInSession() });
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
    expect(sideMenu()).toBeTruthy();
  });

  it('gives a BARBER1 only scheduling, commissions, clients, comandas, products and profile', async () => {
    favoritesServer();
    const { router } = renderApp('/dashboard', { session: signedInSession('BARBER1') });
    expect(await screen.findByRole('heading', { name: 'Agenda' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/scheduling');

    const links = within(sideMenu())
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual(['Agenda', 'Comissões', 'Clientes', 'Comandas', 'Produtos', 'Meu Perfil']);

    await act(() => router.navigate('/dashboard/professional'));
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
    await act(() => router.navigate('/dashboard/profile'));
    expect(await screen.findByRole('heading', { name: 'Meu perfil' })).toBeTruthy();
  });

  it('signs out silently when the server answers 401', async () => {
    server.use(
      http.get(apiUrl('professional-favorite-menu/'), () =>
        HttpResponse.json({ message: 'Token inválido.' }, { status: 401 }),
      ),
    );
    const { router } = renderApp('/dashboard', { session: signedInSession() });
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByText('Token inválido.')).toBeNull();
  });
});
