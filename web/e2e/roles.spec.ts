import { expect, test } from './fixtures';
import { BARBER1, signInAs, sideMenu } from './support';

test('a BARBER1 has no professional or unit routes, but reaches the clients', async ({ page }) => {
  await signInAs(page, BARBER1.email);
  const menu = sideMenu(page);
  // The menu may start collapsed (favourites only): open it to read every entry.
  const expand = menu.getByRole('button', { name: 'Expandir menu' });
  if (await expand.isVisible()) await expand.click();
  await expect(menu.getByRole('link', { name: 'Clientes' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Profissionais' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Empresas' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Feriados' })).toHaveCount(0);

  for (const path of ['/dashboard/professional', '/dashboard/professional/new', '/dashboard/company', '/dashboard/company/new']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible();
  }

  // Clients: the list, without registration (only ADMIN and ATTENDANT save clients).
  await menu.getByRole('link', { name: 'Clientes' }).click();
  await expect(page).toHaveURL(/\/dashboard\/client$/);
  await expect(page.getByRole('heading', { name: 'Clientes', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Clientes' }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Novo cliente' })).toHaveCount(0);
});
