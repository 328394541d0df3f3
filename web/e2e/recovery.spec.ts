import { expect, test } from './fixtures';
import { now } from './clock';
import { PASSWORD, recoveryCodeFor, sideMenu, signIn, signOut, toast } from './support';

// An account no other test signs in with. Its new password is this run's own: the current
// one is refused as a new one (issue 39).
const ACCOUNT = 'padrao@navalha.dev';

test('recovers a password with the code e-mailed to the outbox', async ({ page }) => {
  const since = now() - 2000;
  await page.goto('/');
  await page.getByRole('button', { name: 'Continuar com e-mail' }).click();
  await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(/\/send-recovery-email$/);
  await expect(page.getByRole('heading', { name: 'Recuperação de senha' })).toBeVisible();

  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Digite seu e-mail.')).toBeVisible();
  await page.getByLabel('E-mail').fill(ACCOUNT);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(toast(page, 'Código enviado com sucesso.')).toBeVisible();
  await expect(page).toHaveURL(/\/send-code-received$/);
  await expect(page.getByText('Enviamos um código no seu e-mail, informe no campo abaixo')).toBeVisible();

  const code = await recoveryCodeFor(ACCOUNT, since);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Digite o código.')).toBeVisible();
  await page.getByLabel('Código').fill(code);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(toast(page, 'Código validado com sucesso.')).toBeVisible();
  await expect(page).toHaveURL(/\/create-new-password$/);
  await expect(page.getByRole('heading', { name: 'Criar nova senha' })).toBeVisible();

  // The checklist follows what is typed; the form's messages are the spec's.
  const checklist = page.getByRole('list', { name: 'Requisitos da senha' });
  await page.getByLabel('Senha', { exact: true }).fill('abc');
  await expect(checklist.locator('[data-met="true"]')).toHaveCount(1);
  await page.getByLabel('Confirmação da senha').fill('abcdef');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Mínimo de 6 caracteres.')).toBeVisible();
  await expect(page.getByText('As senhas não são iguais.')).toBeVisible();

  // The current password is no new one: the server's message lands on the field.
  await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await expect(checklist.locator('[data-met="true"]')).toHaveCount(5);
  await page.getByLabel('Confirmação da senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.locator('.field-error').filter({ hasText: 'A nova senha deve ser diferente da senha atual.' })).toBeVisible();

  const renewed = `Nova@${String(now()).slice(-6)}`;
  await page.getByLabel('Senha', { exact: true }).fill(renewed);
  await page.getByLabel('Confirmação da senha').fill(renewed);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(sideMenu(page)).toBeVisible();

  // The new password signs in.
  await signOut(page);
  await signIn(page, ACCOUNT, renewed);
  await expect(page).toHaveURL(/\/dashboard/);
});
