import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, BARBER1, CENTRO, apiToken, companyId, runTag, serviceId, signInAs, toast } from './support';
import { screenshots } from './backoffice-a-support';
import { SIM_URL } from './subscribers-support';
import { centsOf, createProduct, money, receiveStock } from './counter-support';

// Issue 41 §8: a walk-in at the counter. The caixa has no screen in this part, so it is opened
// through the API; then everything else goes through the comanda's screens, as a desk would.
// The Pix is a charge at the payment provider (provider-sim here): the test pays it with the
// simulator's control, as the client's bank app would, and the desk's screen turns paid live.

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Opens the unit's caixa with R$ 100,00 of float, unless one is open already (422 on idCompany). */
async function ensureCaixaOpen(request: APIRequestContext, token: string, idCompany: number) {
  const opened = await request.post('/api/caixa', { headers: auth(token), data: { idCompany, openingCash: 100 } });
  if (opened.status() === 422) {
    const body = (await opened.json()) as { errors?: Record<string, string> };
    expect(body.errors?.idCompany, 'the 422 says a caixa is already open in the unit').toBeTruthy();
    return;
  }
  expect(opened.status(), await opened.text()).toBe(201);
}

test('a walk-in gets a service and a product, tips, pays in cash with change, by Pix and by debit card, and the comanda closes', async ({
  page,
  request,
}) => {
  const tag = runTag();
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Corte de cabelo');
  const idProduct = await createProduct(request, token, `Pomada ${tag}`, 29.9);
  await receiveStock(request, token, idProduct, idCompany, 1);
  await ensureCaixaOpen(request, token, idCompany);

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/comanda');
  await expect(page.getByRole('heading', { name: 'Comandas', exact: true })).toBeVisible();

  // A walk-in: the unit, no client ('Cliente avulso').
  await page.getByRole('button', { name: 'Nova comanda' }).click();
  const opening = page.getByRole('dialog', { name: 'Nova comanda' });
  await expect(opening).toContainText('Cliente avulso');
  await opening.getByLabel('Unidade').selectOption({ label: CENTRO });
  await opening.getByRole('button', { name: 'Abrir comanda' }).click();
  await expect(toast(page, 'Comanda aberta.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/comanda\/\d+$/);
  await expect(page.getByRole('heading', { name: /^Comanda N\.º \d+$/ })).toBeVisible();
  await expect(page.getByText('Aberta', { exact: true })).toBeVisible();
  const bar = page.getByRole('region', { name: 'Resumo da comanda' });
  await expect(bar.getByRole('button', { name: 'Fechar comanda' })).toBeDisabled();

  // A service by Diego, at his price.
  await page.getByRole('button', { name: 'Adicionar serviço' }).click();
  const service = page.getByRole('dialog', { name: 'Adicionar serviço' });
  await service.getByLabel('Profissional').selectOption({ label: BARBER1.name });
  await expect(service.getByLabel('Serviço', { exact: true }).locator(`option[value="${idService}"]`)).toHaveCount(1);
  await service.getByLabel('Serviço', { exact: true }).selectOption(String(idService));
  await service.getByRole('button', { name: 'Adicionar' }).click();
  await expect(toast(page, 'Item adicionado.')).toBeVisible();
  const items = page.getByRole('table', { name: 'Itens' });
  await expect(items.getByRole('row').filter({ hasText: 'Corte de cabelo' })).toContainText(BARBER1.name);

  // A product.
  await page.getByRole('button', { name: 'Adicionar produto' }).click();
  const product = page.getByRole('dialog', { name: 'Adicionar produto' });
  await product.getByLabel('Produto', { exact: true }).selectOption(String(idProduct));
  await product.getByRole('button', { name: 'Adicionar' }).click();
  await expect(items.getByRole('row').filter({ hasText: `Pomada ${tag}` })).toContainText(money('29,90'));

  // A tip for Diego: it adds to what the client pays.
  await page.getByRole('button', { name: 'Adicionar gorjeta' }).click();
  const tip = page.getByRole('dialog', { name: 'Adicionar gorjeta' });
  await tip.getByLabel('Profissional').selectOption({ label: BARBER1.name });
  await tip.getByLabel('Valor da gorjeta').fill('1000');
  await tip.getByRole('button', { name: 'Adicionar' }).click();
  await expect(toast(page, 'Gorjeta adicionada.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Gorjetas' })).toContainText(money('10,00'));
  await screenshots(page, 'comanda-open', async () => {
    await expect(bar).toBeInViewport();
  });

  // R$ 20,00 in cash, R$ 50,00 handed over: R$ 30,00 of change.
  await page.getByRole('group', { name: 'Receber' }).getByRole('button', { name: 'Dinheiro' }).click();
  const cash = page.getByRole('dialog', { name: 'Receber pagamento' });
  await cash.getByLabel('Valor', { exact: true }).fill('2000');
  await cash.getByLabel('Valor recebido').fill('5000');
  await expect(cash).toContainText(money('30,00'));
  await cash.getByRole('button', { name: 'Registrar pagamento' }).click();
  const change = page.getByRole('dialog', { name: 'Troco' });
  await expect(change.getByRole('status')).toHaveText(money('30,00'));
  await change.getByRole('button', { name: 'Concluir' }).click();
  await expect(page.getByRole('list', { name: 'Pagamentos' })).toContainText('Dinheiro');

  // R$ 30,00 by Pix: a charge at the provider, its QR code and 'copia e cola' on the desk's screen.
  const dueInBar = bar.locator('.comanda-bar-due strong');
  const dueBeforePix = centsOf(await dueInBar.textContent());
  await page.getByRole('group', { name: 'Receber' }).getByRole('button', { name: 'Pix' }).click();
  const pixForm = page.getByRole('dialog', { name: 'Receber pagamento' });
  await expect(pixForm.getByLabel('Valor', { exact: true })).not.toHaveValue(money('0,00'));
  await pixForm.getByLabel('Valor', { exact: true }).fill('3000');
  const charged = page.waitForResponse(
    (response) => response.request().method() === 'POST' && /\/api\/comanda\/\d+\/payments$/.test(new URL(response.url()).pathname),
  );
  await pixForm.getByRole('button', { name: 'Registrar pagamento' }).click();
  const chargeAnswer = await charged;
  expect(chargeAnswer.status(), await chargeAnswer.text()).toBe(200);
  const { GalaxPayId } = (await chargeAnswer.json()) as { GalaxPayId: number };
  expect(GalaxPayId).toBeGreaterThan(0);
  const pix = page.getByRole('dialog', { name: 'Pagamento por Pix' });
  await expect(pix.locator(`[data-galaxpay-id="${GalaxPayId}"]`)).toHaveCount(1);
  await expect(pix.getByRole('status')).toHaveText('Aguardando pagamento…');
  await expect(pix).toContainText(money('30,00'));
  const qr = pix.getByRole('img', { name: 'QR Code do Pix' });
  await expect(qr).toBeVisible();
  // The image really shows (provider-sim serves it as SVG), not just its box.
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: 'the QR code image loads' }).toBe(true);
  await expect(pix.getByLabel('Pix copia e cola')).toHaveValue(/^000201/);
  await expect(pix.getByRole('link', { name: 'Abrir no celular do cliente' })).toHaveAttribute('href', new RegExp(`/pix/${GalaxPayId}$`));
  // Not paid yet: the totals show it waiting, and the comanda does not close.
  await expect(page.getByRole('region', { name: 'Totais' })).toContainText('Aguardando Pix');
  await expect(bar.getByRole('button', { name: 'Fechar comanda' })).toBeDisabled();
  await expect(bar).toContainText('Há um Pix aguardando pagamento');
  expect(centsOf(await dueInBar.textContent())).toBe(dueBeforePix);
  await screenshots(page, 'comanda-pix', async () => {
    await expect(qr).toBeVisible();
  });

  // The client pays (provider-sim's control stands in for the bank app); the provider's webhook
  // makes it a payment and the desk's screen turns paid without a reload.
  const paid = await request.post(`${SIM_URL}/sim/charges/${GalaxPayId}/pay`, { data: {} });
  expect(paid.ok(), `provider-sim at ${SIM_URL}: ${await paid.text()}`).toBeTruthy();
  await expect(pix.getByRole('status')).toHaveText('Pix recebido', { timeout: 20_000 });
  await expect(toast(page, 'Pix recebido')).toBeVisible();
  await expect.poll(async () => centsOf(await dueInBar.textContent())).toBe(dueBeforePix - 3000);
  await pix.getByRole('button', { name: 'Concluir' }).click();
  await expect(page.getByRole('list', { name: 'Pagamentos' })).toContainText('Pix');
  await expect(page.getByRole('region', { name: 'Totais' })).not.toContainText('Aguardando Pix');
  await expect(bar).not.toContainText('Há um Pix aguardando pagamento');

  // The rest by debit card: the value starts at what is left to pay.
  await page.getByRole('group', { name: 'Receber' }).getByRole('button', { name: 'Cartão de débito' }).click();
  const debit = page.getByRole('dialog', { name: 'Receber pagamento' });
  await expect(debit.getByLabel('Valor', { exact: true })).not.toHaveValue(money('0,00'));
  await debit.getByLabel('Bandeira').fill('Visa');
  await debit.getByLabel('Código de autorização').fill('A1B2C3');
  await debit.getByLabel('NSU').fill('000123');
  await debit.getByRole('button', { name: 'Registrar pagamento' }).click();
  await expect(toast(page, 'Pagamento registrado.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Pagamentos' })).toContainText('Visa · Aut. A1B2C3 · NSU 000123');
  await expect(bar).toContainText(money('0,00'));

  // Paid = due: it closes, and never changes again.
  await bar.getByRole('button', { name: 'Fechar comanda' }).click();
  await expect(toast(page, 'Comanda fechada.')).toBeVisible();
  await expect(page.getByText('Fechada', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Adicionar serviço' })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Receber' })).toHaveCount(0);
  await screenshots(page, 'comanda-closed', async () => {
    await expect(page.getByText('Fechada', { exact: true })).toBeVisible();
  });

  // Listed as closed on the list of the day.
  const number = (await page.getByRole('heading', { name: /^Comanda N\.º \d+$/ }).textContent())!.replace(/\D/g, '');
  await page.goto('/dashboard/comanda');
  await page.getByLabel('Status').selectOption('CLOSED');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const row = page.getByRole('table', { name: 'Comandas' }).getByRole('row').filter({ hasText: CENTRO }).filter({ has: page.getByRole('cell', { name: number, exact: true }) });
  await expect(row).toContainText('Fechada');
  // At 390 px each row is a card whose cells carry their labels.
  await screenshots(page, 'comanda-list', async () => {
    await expect(page.getByRole('table', { name: 'Comandas' }).getByText(CENTRO).first()).toBeVisible();
  });
});
