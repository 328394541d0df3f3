import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { stamp } from './clock';
import { apiToken, PASSWORD, signInAs, toast } from './support';
import { getJson, restoreMyDay, restoreMyProfile, restoreMyService, screenshots, type Json } from './staff-support';

// 'Meu perfil' (spec 02 §2): a barber edits their own data, hours and services. Whatever is
// changed is put back, since the agenda tests rely on the barbers' hours and services.

const BARBER2 = 'barbeiro2@navalha.dev';

async function openProfile(page: Page) {
  await signInAs(page, BARBER2, PASSWORD);
  await page.goto('/dashboard/profile');
  await expect(page.getByRole('heading', { name: 'Meu perfil' })).toBeVisible();
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

test('a barber edits their phone on Meu perfil and stays on the page', async ({ page, request }) => {
  const token = await apiToken(request, BARBER2);
  const original = await getJson(request, token, 'professional/my-profile');
  try {
    await openProfile(page);
    const form = page.getByRole('form', { name: 'Informações' });
    const phone = form.getByLabel('Celular');
    await expect(form.getByLabel('Nome completo')).toHaveValue(String(original.Name));
    await expect(form.getByLabel('CEP')).not.toHaveValue('');
    await screenshots(page, 'profile-info');

    // The spec's messages, shown on the fields.
    await phone.fill('(91) 2345-6789');
    await form.getByLabel('Nome completo').fill('Eduardo');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await expect(form.getByText('Informe um número válido')).toBeVisible();
    await expect(form.getByText('Digite o nome completo')).toBeVisible();

    // 'Cancelar' reloads what is saved.
    await form.getByRole('button', { name: 'Cancelar' }).click();
    await expect(form.getByLabel('Nome completo')).toHaveValue(String(original.Name));

    const digits = `119${stamp().slice(-8)}`;
    const masked = `(${digits.slice(0, 2)}) ${digits.slice(2, 7)}-${digits.slice(7)}`;
    await phone.fill(digits);
    await expect(phone).toHaveValue(masked);
    await form.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Informações atualizadas com sucesso!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/profile$/);
    await expect(phone).toHaveValue(masked);

    await page.reload();
    await expect(page.getByRole('form', { name: 'Informações' }).getByLabel('Celular')).toHaveValue(masked);
  } finally {
    await restoreMyProfile(request, token, original);
  }
});

test('a barber changes their Sunday hours', async ({ page, request }) => {
  const token = await apiToken(request, BARBER2);
  const week = await getJson<Json[]>(request, token, 'professional-working-hours/my-profile');
  const sunday = week.find((day) => day.WeekDay === 0)!;
  try {
    await openProfile(page);
    await tab(page, 'Horário de trabalho').click();
    const table = page.getByRole('table', { name: 'Horário de trabalho' });
    await expect(table.getByRole('row')).toHaveCount(8);
    await expect(table.getByRole('row', { name: /Terça-feira/ })).toContainText('09:00 - 12:00');
    await screenshots(page, 'profile-hours');

    await table.getByRole('button', { name: 'Editar Domingo' }).click();
    const modal = page.getByRole('dialog', { name: 'Horário de Domingo' });
    const period = (name: string) => modal.getByRole('group', { name });
    const first = period('Primeiro horário');
    const second = period('Segundo horário');
    const third = period('Terceiro horário');
    for (const group of [first, second, third]) {
      await group.getByLabel('Início').fill('');
      await group.getByLabel('Fim').fill('');
    }
    // Wrong days first: each message of spec 02 §5 'Working-hours day'.
    await first.getByLabel('Início').fill('1000');
    await first.getByLabel('Fim').fill('0900');
    await third.getByLabel('Início').fill('2500');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(first.getByText('Horário final menor que inicial')).toBeVisible();
    await expect(third.getByText('Preencha o segundo horário')).toBeVisible();
    await expect(third.getByText('Preencha a horário de fim')).toBeVisible();
    await screenshots(page, 'profile-hours-modal', false);

    await first.getByLabel('Fim').fill('1200');
    await second.getByLabel('Início').fill('1100');
    await second.getByLabel('Fim').fill('1300');
    await third.getByLabel('Início').fill('');
    await expect(second.getByText('Deve ser maior que final do primeiro')).toBeVisible();
    await expect(third.getByText('Preencha a horário de início')).toHaveCount(0);

    await second.getByLabel('Início').fill('1400');
    await second.getByLabel('Fim').fill('1600');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Horário atualizado com sucesso.')).toBeVisible();
    await expect(modal).toBeHidden();
    const row = table.getByRole('row', { name: /Domingo/ });
    await expect(row).toContainText('10:00 - 12:00');
    await expect(row).toContainText('14:00 - 16:00');

    // Back to a day off, through the screen.
    await table.getByRole('button', { name: 'Editar Domingo' }).click();
    for (const group of [first, second]) {
      await group.getByLabel('Início').fill('');
      await group.getByLabel('Fim').fill('');
    }
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Horário atualizado com sucesso.').last()).toBeVisible();
    await expect(row).not.toContainText('10:00');
  } finally {
    await restoreMyDay(request, token, sunday);
  }
});

test('a barber edits one of their services', async ({ page, request }) => {
  const token = await apiToken(request, BARBER2);
  const services = await getJson<Json[]>(request, token, 'professional-service/my-profile');
  const pigmentation = services.find((s) => s.Description === 'Pigmentação')!;
  try {
    await openProfile(page);
    await tab(page, 'Serviços').click();
    const table = page.getByRole('table', { name: 'Serviços' });
    for (const header of ['Serviço', 'Tempo', 'Valor', 'Combo', 'Status'])
      await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    await expect(table.getByRole('row', { name: /Pigmentação/ })).toBeVisible();
    await screenshots(page, 'profile-services');

    // 'Novo Serviço': the form's messages (the barber already offers every catalogue service).
    await page.getByRole('button', { name: 'Novo Serviço' }).click();
    const created = page.getByRole('dialog', { name: 'Novo Serviço' });
    await created.getByRole('button', { name: 'Salvar' }).click();
    await expect(created.getByText('Escolha um serviço')).toBeVisible();
    await expect(created.getByText('O campo Tempo é obrigatório')).toBeVisible();
    await expect(created.getByText('O campo Valor é obrigatório')).toBeVisible();
    await screenshots(page, 'profile-service-modal', false);
    await created.getByRole('button', { name: 'Cancelar' }).click();
    await expect(created).toBeHidden();

    await table.getByRole('button', { name: 'Editar Pigmentação' }).click();
    const modal = page.getByRole('dialog', { name: 'Editar Serviço' });
    await expect(modal.getByLabel('Serviço')).toHaveValue(String(pigmentation.IdService));
    const time = modal.getByLabel('Tempo (minutos)');
    const value = modal.getByLabel('Valor');
    await time.fill('0');
    await value.fill('0');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(modal.getByText('O tempo não pode ser 0')).toBeVisible();
    await expect(modal.getByText('O valor precisa ser maior que 0')).toBeVisible();

    await time.fill('50');
    await value.fill('6150');
    await expect(value).toHaveValue(/61,50/);
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Serviço atualizado com sucesso.')).toBeVisible();
    await expect(modal).toBeHidden();
    const row = table.getByRole('row', { name: /Pigmentação/ });
    await expect(row).toContainText('50 min');
    await expect(row).toContainText('61,50');
  } finally {
    await restoreMyService(request, token, pigmentation);
  }
});
