import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, BARBER1, CENTRO, apiToken, companyId, serviceId, signInAs, toast } from './support';
import { screenshots } from './backoffice-a-support';
import { bodyOf, percentOf, professionalId, readRates, sellAndClose, writeRates } from './commission-support';
import { auth, closeOpenCaixa, money, reais } from './counter-support';

// Issue 42 (first part): ADMIN sets Diego's commission in the professional's 'Comissões' tab;
// a comanda of his, closed through the API as another desk would, shows on its screen what the
// close earned him at that rate; a later rate changes nothing of what was closed.

/** A fresh caixa in the unit (the one open, if any, closed as counted), so cash can be taken. */
async function openFreshCaixa(request: APIRequestContext, token: string, idCompany: number) {
  await closeOpenCaixa(request, token, idCompany);
  const opened = await request.post('/api/caixa', { headers: auth(token), data: { idCompany, openingCash: 100 } });
  expect(opened.status(), await opened.text()).toBe(201);
}

/** Opens the professional's 'Comissões' tab; its form. */
async function commissionTab(page: Page, idProfessional: number): Promise<Locator> {
  await page.goto(`/dashboard/professional/${idProfessional}`);
  await expect(page.getByRole('heading', { name: 'Profissional', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Comissões' }).click();
  const form = page.getByRole('form', { name: 'Comissões' });
  await expect(form).toBeVisible();
  await expect(page.getByText('As comissões valem a partir de agora: comandas já fechadas mantêm o que renderam.')).toBeVisible();
  return form;
}

/** The comanda's 'Comissões' section, read again until the close has reached the read side. */
async function commissionsOf(page: Page, idComanda: number): Promise<Locator> {
  await page.goto(`/dashboard/comanda/${idComanda}`);
  const section = page.getByRole('region', { name: 'Comissões' });
  await expect(async () => {
    await page.reload();
    await expect(section).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText('Fechada', { exact: true })).toBeVisible();
  return section;
}

test("the commission set in the professional's tab is what a closed comanda earns, and a later rate never changes it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Corte de cabelo');
  const diego = await professionalId(request, token, idCompany, BARBER1.name);
  const before = await readRates(request, token, diego);
  // Known rates to start from: no service of Diego's with a rate of its own (earlier runs).
  await writeRates(request, token, diego, { servicePercent: 0, productPercent: 0, cardFeeShared: false, services: [] });

  // --- ADMIN sets 40 % on services, and a fixed R$ 15,00 for 'Barba' (not the service sold below).
  await signInAs(page, ADMIN.email);
  let form = await commissionTab(page, diego);
  const servicePercent = form.getByLabel('Comissão em serviços (%)');
  await expect(servicePercent).toHaveValue('0');
  await servicePercent.fill('40');
  await form.getByRole('button', { name: 'Adicionar serviço' }).click();
  const row = form.getByRole('group', { name: 'Serviço 1' });
  await expect(row.getByLabel('Serviço', { exact: true }).locator('option', { hasText: /^Barba$/ })).toHaveCount(1);
  await row.getByLabel('Serviço', { exact: true }).selectOption({ label: 'Barba' });
  await row.getByLabel('Tipo').selectOption({ label: 'Valor fixo' });
  await row.getByLabel('Valor fixo').fill('1500');
  await expect(row.getByLabel('Valor fixo')).toHaveValue(money('15,00'));
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Comissões salvas com sucesso!')).toBeVisible();
  await expect(page.getByText('Nenhuma comissão definida: os serviços rendem 0%.')).toHaveCount(0);
  await expect.poll(async () => (await readRates(request, token, diego)).ServicePercent).toBe(40);
  expect((await readRates(request, token, diego)).Services).toEqual([
    expect.objectContaining({ Description: 'Barba', Fixed: 15, Percent: null }),
  ]);
  await screenshots(page, 'professional-commission', async () => {
    await expect(form.getByLabel('Comissão em serviços (%)')).toHaveValue('40');
    await expect(row.getByLabel('Valor fixo')).toHaveValue(money('15,00'));
  });

  // --- A walk-in has Diego's 'Corte de cabelo', pays in cash, and the comanda closes.
  await openFreshCaixa(request, token, idCompany);
  const { idComanda, lineCents } = await sellAndClose(request, token, { idCompany, idService, idProfessional: diego });
  const earned = money(reais(percentOf(lineCents, 4_000)));

  // --- The comanda shows what the close earned Diego: 40 % of the line.
  let section = await commissionsOf(page, idComanda);
  await expect(section).toContainText(BARBER1.name);
  let lines = section.getByRole('list', { name: `Comissão de ${BARBER1.name}` });
  await expect(lines).toContainText('Corte de cabelo');
  await expect(lines).toContainText('40%');
  await expect(lines).toContainText(earned);
  await expect(section).toContainText(earned);

  // --- The rate goes down to 10 %: from now on only.
  form = await commissionTab(page, diego);
  await expect(form.getByLabel('Comissão em serviços (%)')).toHaveValue('40');
  await form.getByLabel('Comissão em serviços (%)').fill('10');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Comissões salvas com sucesso!')).toBeVisible();
  await expect.poll(async () => (await readRates(request, token, diego)).ServicePercent).toBe(10);

  // The closed comanda keeps its 40 % and what it earned.
  section = await commissionsOf(page, idComanda);
  lines = section.getByRole('list', { name: `Comissão de ${BARBER1.name}` });
  await expect(lines).toContainText('40%');
  await expect(lines).toContainText(earned);
  await expect(lines).not.toContainText('10%');

  // Diego's rates as they were before the test.
  await writeRates(request, token, diego, bodyOf(before));
});
