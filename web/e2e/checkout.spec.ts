import { expect, test } from './fixtures';
import { daysAfter, stamp, unitToday } from './clock';
import { ADMIN } from './support';
import { addPlanService, BANK_LINE_PATTERN, businessName, dateBR, screenshots } from './plans-support';

// The club's checkout link against the running system and its local payment provider:
// staff make a plan and a link through the API, the client opens the page and subscribes.
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a client opens a checkout link and subscribes by boleto', async ({ page, request }) => {
  const login = await request.post('/api/session-professional/login', { data: ADMIN });
  expect(login.ok()).toBeTruthy();
  const { Token: staffToken } = (await login.json()) as { Token: string };
  const headers = { Authorization: `Bearer ${staffToken}` };

  const planName = `Clube e2e ${stamp()}`;
  const plan = await request.post('/api/subscription-details', {
    headers,
    multipart: {
      planName,
      description: 'Cortes ilimitados no mês',
      value: '89,90',
      status: '1',
      discount: '0',
      validityStart: '2026-01-01',
      validityEnd: '2030-12-31',
      allCompanies: 'true',
      periodicity: 'monthly',
      quantity: '12',
      itemsDetail: '4 cortes',
      paymentMethod: 'boleto',
      firstDueDays: '5',
    },
  });
  expect(plan.status()).toBe(201);
  const { IdSubscriptionDetail: planId } = (await plan.json()) as { IdSubscriptionDetail: number };
  // Barba (R$ 35,00 in the demo catalogue) at 10% off; Corte de cabelo at its price.
  await addPlanService(request, staffToken, planId, 'Barba', 10);
  await addPlanService(request, staffToken, planId, 'Corte de cabelo', 0);
  const shop = await businessName(request, staffToken);

  const link = await request.post('/api/checkout/create-user-token', { headers, data: { userId: 1, planId } });
  expect(link.status()).toBe(201);
  const { Token: token } = (await link.json()) as { Token: string };

  await page.goto(`/checkout?token=${token}`);
  await expect(page.getByRole('heading', { name: planName })).toBeVisible();
  // The shop selling the plan and what the plan includes, at the subscriber's price.
  const summary = page.getByRole('region', { name: 'Plano' });
  await expect(summary.getByText(shop, { exact: true })).toBeVisible();
  const services = summary.getByRole('list', { name: 'Serviços do plano' });
  const barba = services.getByRole('listitem').filter({ hasText: 'Barba' });
  await expect(barba.locator('s')).toHaveText(/R\$\s35,00/);
  await expect(barba.locator('strong')).toHaveText(/R\$\s31,50/);
  const corte = services.getByRole('listitem').filter({ hasText: 'Corte de cabelo' });
  await expect(corte.locator('strong')).toHaveText(/R\$\s45,00/);
  await expect(corte.locator('s')).toHaveCount(0);

  await page.getByLabel('Boleto').check();
  await expect(page.getByText('O primeiro boleto vence 5 dias após a assinatura.')).toBeVisible();
  await screenshots(page, 'checkout-boleto');
  await page.getByRole('button', { name: 'Assinar' }).click();
  await expect(page.getByRole('heading', { name: 'Assinatura realizada!' })).toBeVisible();
  await expect(page.getByText(`Sua assinatura do plano ${planName} de ${shop} foi registrada.`)).toBeVisible();

  // The first boleto: its value, its due date 5 days on, its line to copy into a bank's app.
  const charge = page.locator('dl.checkout-charge');
  await expect(charge).toContainText(/Valor\s*R\$\s89,90/);
  await expect(charge).toContainText(`Vencimento${dateBR(daysAfter(unitToday(), 5))}`);
  const line = page.getByLabel('Linha digitável');
  await expect(line).toHaveValue(BANK_LINE_PATTERN);
  await expect(line).toHaveJSProperty('readOnly', true);
  await expect(page.getByRole('link', { name: 'Abrir boleto' })).toBeVisible();
  await screenshots(page, 'checkout-boleto-done');
  await page.getByRole('button', { name: 'Copiar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Linha digitável copiada!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await line.inputValue());

  // The link works once.
  await page.reload();
  await expect(page.getByText('Este link de assinatura é inválido, expirou ou já foi usado.')).toBeVisible();
});
