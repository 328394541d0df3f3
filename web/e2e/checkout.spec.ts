import { expect, test } from './fixtures';
import { stamp } from './clock';
import { ADMIN } from './support';

// The club's checkout link against the running system and its local payment provider:
// staff make a plan and a link through the API, the client opens the page and subscribes.
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
    },
  });
  expect(plan.status()).toBe(201);
  const { IdSubscriptionDetail: planId } = (await plan.json()) as { IdSubscriptionDetail: number };

  const link = await request.post('/api/checkout/create-user-token', { headers, data: { userId: 1, planId } });
  expect(link.status()).toBe(201);
  const { Token: token } = (await link.json()) as { Token: string };

  await page.goto(`/checkout?token=${token}`);
  await expect(page.getByRole('heading', { name: planName })).toBeVisible();
  await page.getByLabel('Boleto').check();
  await page.getByRole('button', { name: 'Assinar' }).click();
  await expect(page.getByRole('heading', { name: 'Assinatura realizada!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Abrir boleto' })).toBeVisible();

  // The link works once.
  await page.reload();
  await expect(page.getByText('Este link de assinatura é inválido, expirou ou já foi usado.')).toBeVisible();
});
