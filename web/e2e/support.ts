import { expect, type Page } from '@playwright/test';

export const ADMIN = { email: 'admin@navalha.dev', password: 'Navalha@2026' };

/** Signs in through the public pages, as a person would. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Login', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Continuar com e-mail' }).click();
  await expect(page.getByRole('heading', { name: 'Login | E-mail' })).toBeVisible();
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

export const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' });
