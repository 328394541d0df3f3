import { expect, test } from '@playwright/test';
import {
  ADMIN,
  CENTRO,
  apiToken,
  companyId,
  createClient,
  freeDay,
  pickDay,
  runTag,
  serviceId,
  signInAs,
  toast,
  workingDayAhead,
} from './support';

test.use({ viewport: { width: 390, height: 844 } });

test('the mobile scheduling screen books an appointment at 390 px', async ({ page, request }) => {
  const client = `Cliente Celular ${runTag()}`;
  const token = await apiToken(request, ADMIN.email);
  await createClient(request, token, client);
  const idCompany = await companyId(request, token, CENTRO);
  const day = await freeDay(request, token, {
    idCompany,
    idService: await serviceId(request, token, idCompany, 'Barba'),
    fromDate: workingDayAhead(4),
  });

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');

  // The branch selector searches by name or city, whatever the case.
  const branch = page.getByRole('combobox', { name: 'Filial' });
  await branch.click();
  await branch.fill('são paulo');
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: new RegExp(CENTRO) }).click();
  await expect(branch).toHaveValue(CENTRO);

  await expect(page.getByRole('heading', { name: 'Agendamentos' })).toBeVisible();
  await expect(page.getByLabel('Hora atual')).toHaveText(/^\d{2}:\d{2}:\d{2}$/);

  // The new-appointment flow: 'Confirmar' explains what is missing.
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  await expect(page.getByRole('heading', { name: 'Novo agendamento' })).toBeVisible();
  await expect(
    page.getByText('Para exibir os horários disponíveis, selecione ao menos um serviço.'),
  ).toBeVisible();
  const confirm = page.getByRole('button', { name: 'Confirmar' });
  await expect(confirm).toBeDisabled();
  await confirm.locator('..').hover();
  await expect(page.getByRole('tooltip')).toHaveText(
    'Escolha corretamente os serviços, a data, o horário e o cliente.',
  );

  await page.getByRole('checkbox', { name: /Barba/ }).first().check();
  await pickDay(page.getByRole('group', { name: 'Data do agendamento' }), day);
  const time = page.locator('.time-button').first();
  const start = (await time.textContent())!.trim();
  await time.click();
  await page.getByLabel('Observações').fill('Pelo celular');
  await expect(confirm).toBeDisabled();

  await page.getByRole('button', { name: 'Selecionar cliente' }).click();
  const search = page.getByRole('dialog', { name: 'Buscar cliente' });
  await search.getByLabel('Buscar cliente').fill(client);
  await search.getByRole('radio', { name: `Selecionar ${client}` }).click();
  await expect(search).toBeHidden();
  await expect(page.getByRole('region', { name: 'Cliente' })).toContainText(client);

  await expect(confirm).toBeEnabled();
  await page.screenshot({ path: 'test-results/agenda-mobile-new-390.png', fullPage: true });
  await confirm.click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeVisible();
  await page.screenshot({ path: 'test-results/agenda-mobile-booked-390.png' });

  // Back on the list, on the booked day, at once.
  const booked = page.getByRole('article').filter({ hasText: client });
  await expect(booked).toContainText(start);
  await expect(booked).toContainText('Pelo celular');
  await page.getByLabel('Buscar', { exact: true }).fill(client.split(' ').at(-1)!);
  await expect(page.getByRole('article')).toHaveCount(1);
  // Out of the way of the screenshot.
  await toast(page, 'Agendamento realizado com sucesso!').click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeHidden();
  await page.screenshot({ path: 'test-results/agenda-mobile-390.png' });

  // Cancelled ones are another list.
  await page.getByRole('button', { name: 'Visualizar cancelados' }).click();
  await expect(page.getByText('Nenhum agendamento encontrado...')).toBeVisible();
  await page.getByRole('button', { name: 'Visualizar confirmados' }).click();
  await expect(booked).toBeVisible();
  await page.getByLabel('Buscar', { exact: true }).fill('');
  await page.screenshot({ path: 'test-results/agenda-mobile-390-full.png', fullPage: true });
});
