import { expect, test } from './fixtures';
import { runTag, signIn } from './support';

test('the login page renders its way in', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Login', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Continuar com e-mail' }).click();
  await expect(page).toHaveURL(/\/login-email$/);
  await expect(page.getByRole('heading', { name: 'Login | E-mail' })).toBeVisible();

  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Digite seu e-mail.')).toBeVisible();
  await expect(page.getByText('Digite sua senha.')).toBeVisible();
  await page.screenshot({ path: 'test-results/login-email.png', fullPage: true });
});

test("a wrong password shows the server's message as a toast", async ({ page }) => {
  // An address nobody has: the answer is the same, and failed sign-ins (throttled per
  // e-mail) never pile up on an account other tests use.
  await signIn(page, `ninguem.${runTag()}@navalha.dev`, 'SenhaErrada@1');
  await expect(page.getByRole('alert').filter({ hasText: 'E-mail ou senha incorretos.' })).toBeVisible();
  await expect(page).toHaveURL(/\/login-email$/);
});
