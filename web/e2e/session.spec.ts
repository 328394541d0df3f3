import { expect, test } from './fixtures';
import { ADMIN, sideMenu, signIn, signOut } from './support';

test('admin signs in, keeps a favourite across a reload and signs out', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const menu = sideMenu(page);
  await expect(menu).toBeVisible();

  // The lateral menu starts expanded at desktop width (issue 45): every item, without ☰.
  await expect(menu.getByRole('button', { name: 'Recolher menu' })).toBeVisible();
  for (const label of ['Início', 'Agenda', 'Clientes', 'Profissionais', 'Empresas', 'Feriados', 'Planos', 'Assinantes']) {
    await expect(menu.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expect(menu.getByText('Admin', { exact: false }).first()).toBeVisible();

  // Start from a known state: an earlier run may have left the favourite on.
  const unmark = menu.getByRole('button', { name: 'Desfavoritar Agenda', exact: true });
  if (await unmark.isVisible()) {
    await unmark.click();
  }
  const mark = menu.getByRole('button', { name: 'Favoritar Agenda', exact: true });
  await expect(mark).toHaveAttribute('aria-pressed', 'false');
  await mark.click();
  await expect(unmark).toHaveAttribute('aria-pressed', 'true');

  // Collapsed, only favourites show, as icons.
  await menu.getByRole('button', { name: 'Recolher menu' }).click();
  await expect(menu.getByRole('link', { name: 'Agenda', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Empresas', exact: true })).toHaveCount(0);

  // A reload keeps the session, the menu folded as the user left it, and the favourite.
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(sideMenu(page).getByRole('link', { name: 'Agenda', exact: true })).toBeVisible();
  await expect(sideMenu(page).getByRole('link', { name: 'Empresas', exact: true })).toHaveCount(0);
  await sideMenu(page).getByRole('link', { name: 'Agenda', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/scheduling$/);
  await sideMenu(page).getByRole('button', { name: 'Expandir menu' }).click();
  await expect(sideMenu(page).getByRole('button', { name: 'Desfavoritar Agenda', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.screenshot({ path: 'test-results/dashboard.png', fullPage: true });

  // The token this session holds, to try it after 'Sair'.
  const stored = await page.evaluate(() => localStorage.getItem('persist:navalha-session') ?? '');
  const token = /eyJ[\w-]+\.[\w-]+\.[\w-]+/.exec(stored)?.[0] ?? '';
  expect(token).not.toBe('');
  const readWith = async () =>
    (await page.request.get('/api/types-profile', { headers: { Authorization: `Bearer ${token}` } })).status();
  expect(await readWith()).toBe(200);

  // Sign out through the confirmation dialog.
  await sideMenu(page).getByRole('button', { name: 'Sair', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Atencão!' });
  await expect(dialog.getByText('Deseja realmente sair ?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Sair', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Login', exact: true })).toBeVisible();

  // The dashboard is closed again (once the stored session is gone: a reload in the same
  // few milliseconds would find the old one).
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('persist:navalha-session')?.includes('eyJ') ?? false))
    .toBe(false);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);

  // The server ended the session: the token no longer opens anything, wherever it was copied.
  await expect.poll(readWith).toBe(401);
});

test('a first sign-in at 1280 px shows the navigation without opening ☰, and a click in the page leaves it (issue 45)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // A new browser: nothing stored, so nothing chosen yet.
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const menu = sideMenu(page);
  await expect(menu.getByRole('button', { name: 'Expandir menu' })).toHaveCount(0);
  for (const label of ['Agenda', 'Clientes', 'Assinantes']) {
    await expect(menu.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await page.screenshot({ path: 'test-results/menu-first-sign-in-1280.png' });

  // Working in the page does not fold it; the links take the user where they say.
  await page.getByRole('heading', { name: 'Início', level: 1 }).click();
  await menu.getByRole('link', { name: 'Clientes', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/client$/);
  await expect(menu.getByRole('link', { name: 'Agenda', exact: true })).toBeVisible();
});

test('a reload right after signing in keeps the session, 10 times out of 10 (issue 14)', async ({ page }) => {
  // Whether the session was already in storage at the instant the app went to /dashboard:
  // a reload can come at any moment after that, so it must be.
  await page.addInitScript(() => {
    const record = () => {
      if (location.pathname !== '/dashboard' || 'storedAtEntry' in window) return;
      Object.assign(window, { storedAtEntry: localStorage.getItem('persist:navalha-session')?.includes('eyJ') ?? false });
    };
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name].bind(history);
      history[name] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        record();
      };
    }
  });

  for (let attempt = 1; attempt <= 10; attempt += 1) {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/dashboard$/);
    expect(await page.evaluate(() => (window as { storedAtEntry?: boolean }).storedAtEntry), `attempt ${attempt}`).toBe(true);
    // At once: no waiting for the stored session, as a person pressing F5 would not.
    await page.reload();
    await expect(page, `attempt ${attempt}`).toHaveURL(/\/dashboard$/);
    await expect(sideMenu(page), `attempt ${attempt}`).toBeVisible();
    await signOut(page);
  }
});
