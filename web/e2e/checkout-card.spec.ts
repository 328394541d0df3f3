import { expect, test } from './fixtures';
import { unitNow } from './clock';
import { ADMIN, apiToken, createClient, runTag } from './support';
import { businessName, createPlan, screenshots } from './plans-support';

/** A card validity `years` from now on the stack's clock, as printed on a card: 'MM/AA'. */
const validity = (month: number, years: number) =>
  `${String(month).padStart(2, '0')}/${String((unitNow().getUTCFullYear() + years) % 100).padStart(2, '0')}`;

// Card checkout against the running system: the card goes from the browser to the
// provider's checkout.js (provider-sim's stand-in) and only its hash reaches Navalha.
// provider-sim denies the first charge of a card ending in 0000.
test('a client pays by card: a denied card keeps the link, a good one subscribes', async ({ page, request }) => {
  const token = await apiToken(request, ADMIN.email);
  const headers = { Authorization: `Bearer ${token}` };
  const planName = `Clube Cartão ${runTag()}`;
  // Card first at R$ 89,90, boleto also accepted at R$ 79,90.
  const planId = await createPlan(request, token, planName, {
    value: '89,90',
    paymentMethod: 'creditcard',
    prices: [{ paymentMethod: 'boleto', value: '79,90' }],
  });
  const clientId = await createClient(request, token, `Cliente Cartão ${runTag()} Lima`);
  const link = await request.post('/api/checkout/create-user-token', { headers, data: { userId: clientId, planId } });
  expect(link.status(), await link.text()).toBe(201);
  const { Token: linkToken } = (await link.json()) as { Token: string };

  // What the browser sends to Navalha: never the card.
  const subscribeBodies: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/api/checkout/subscribe')) subscribeBodies.push(sent.postData() ?? '');
  });

  await page.goto(`/checkout?token=${linkToken}`);
  await expect(page.getByRole('heading', { name: planName })).toBeVisible();
  const plan = page.getByRole('region', { name: 'Plano' });
  await expect(plan.getByText(await businessName(request, token), { exact: true })).toBeVisible();
  const card = page.getByRole('radio', { name: /Cartão de crédito · R\$\s89,90/ });
  const boleto = page.getByRole('radio', { name: /Boleto · R\$\s79,90/ });
  await expect(card).toBeChecked();
  await expect(boleto).not.toBeChecked();
  await expect(plan).toContainText(/R\$\s89,90 · Mensal/);
  await expect(page.getByText('O cartão é cobrado hoje, na assinatura.')).toBeVisible();
  await boleto.check();
  await expect(page.getByText('O primeiro boleto vence 3 dias após a assinatura.')).toBeVisible();
  await expect(plan).toContainText(/R\$\s79,90 · Mensal/);
  await expect(page.getByLabel('Número do cartão')).toHaveCount(0);
  await screenshots(page, 'checkout-two-methods-boleto');
  await card.check();
  await expect(plan).toContainText(/R\$\s89,90 · Mensal/);

  // The fields are checked in the browser first.
  const cardFields = page.getByRole('group', { name: 'Dados do cartão' });
  await page.getByRole('button', { name: 'Assinar' }).click();
  await expect(cardFields.getByRole('alert')).toHaveText(
    'Informe os dados do cartão: número, nome impresso, validade (MM/AA) e CVV.',
  );
  expect(subscribeBodies).toHaveLength(0);

  // As typed: the number in blocks of 4, the validity's slash put in after the month.
  const number = page.getByLabel('Número do cartão');
  const expiry = page.getByLabel('Validade (MM/AA)');
  await number.pressSequentially('4111111111110000');
  await expect(number).toHaveValue('4111 1111 1111 0000');
  await expect(expiry).toHaveAttribute('placeholder', 'MM/AA');
  await expiry.pressSequentially(validity(12, 3).replace('/', ''));
  await expect(expiry).toHaveValue(validity(12, 3));

  const fill = async (cardNumber: string, cardValidity = validity(12, 3)) => {
    await number.fill(cardNumber);
    await page.getByLabel('Nome impresso no cartão').fill('JOAO C LIMA');
    await expiry.fill(cardValidity);
    await page.getByLabel('CVV').fill('123');
  };

  // A month that does not exist, or one gone by, is told on the field; nothing is sent.
  await fill('4111111111110000', '13/30');
  await page.getByRole('button', { name: 'Assinar' }).click();
  await expect(cardFields.getByRole('alert')).toHaveText('Validade inválida. Use MM/AA.');
  await expect(expiry).toHaveAttribute('aria-invalid', 'true');
  await fill('4111111111110000', validity(1, -1));
  await expect(cardFields.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Assinar' }).click();
  await expect(cardFields.getByRole('alert')).toHaveText('Cartão vencido.');
  expect(subscribeBodies).toHaveLength(0);

  // A card the operator denies: told once, on the card fields; the same link still works.
  const denied = 'O pagamento foi recusado pela operadora do cartão';
  await fill('4111111111110000');
  await expect(number).toHaveValue('4111 1111 1111 0000');
  await screenshots(page, 'checkout-two-methods');
  await page.getByRole('button', { name: 'Assinar' }).click();
  await expect(cardFields.getByRole('alert')).toContainText(denied);
  await expect(page.getByText(denied)).toHaveCount(1);
  await expect(page.getByRole('heading', { name: planName })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Assinar' })).toBeEnabled();
  await screenshots(page, 'checkout-card-denied');
  // Editing the card takes the refusal away.
  await number.fill('4111111111111111');
  await expect(page.getByText(denied)).toHaveCount(0);

  await fill('4111111111111111');
  await page.getByRole('button', { name: 'Assinar' }).click();
  await expect(page.getByRole('heading', { name: 'Assinatura realizada!' })).toBeVisible();
  await expect(page.getByText(/^Valor cobrado hoje no cartão:/)).toHaveText(/^Valor cobrado hoje no cartão: R\$\s89,90\.$/);
  await expect(page.getByLabel('Linha digitável')).toHaveCount(0);
  await screenshots(page, 'checkout-card-done');

  expect(subscribeBodies).toHaveLength(2);
  for (const body of subscribeBodies) {
    const sent = JSON.parse(body) as { paymentMethod: string; card: Record<string, unknown> };
    expect(sent.paymentMethod).toBe('creditcard');
    expect(Object.keys(sent.card)).toEqual(['hash']);
    expect(body).not.toContain('4111111111');
    expect(body).not.toMatch(/cvv|holder|expiresAt|number/);
  }

  // The link works once.
  await page.reload();
  await expect(page.getByText('Este link de assinatura é inválido, expirou ou já foi usado.')).toBeVisible();
});
