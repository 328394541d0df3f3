import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, BARBER1, CENTRO, apiToken, companyId, serviceId, signInAs, signOut, toast } from './support';
import { screenshots } from './backoffice-a-support';
import { bodyOf, percentOf, professionalId, readRates, sellAndClose, writeRates } from './commission-support';
import { auth, centsOf, money, reais } from './counter-support';

// Issue 42 (the statement): with Diego at 40 % on services, a walk-in comanda of his closed
// through the API shows in his statement on 'Comissões' with what it earned; ADMIN records a
// vale of R$ 20,00 and 'Líquido a pagar' drops by as much; then Diego reads his own month, on
// the phone too. No period is closed here: a closed period would make later runs' days paid
// (the unit tests cover 'Fechar período').

/** A caixa open in the unit, so cash can be taken: the one open, or a new one. */
async function ensureOpenCaixa(request: APIRequestContext, token: string, idCompany: number) {
  const listed = await request.get(`/api/caixa?idCompany=${idCompany}&status=OPEN&page=1&pageSize=1`, { headers: auth(token) });
  expect(listed.ok(), await listed.text()).toBeTruthy();
  if (((await listed.json()) as { content: unknown[] }).content.length) return;
  const opened = await request.post('/api/caixa', { headers: auth(token), data: { idCompany, openingCash: 100 } });
  // 409: opened meanwhile (the list had not seen it yet).
  expect([201, 409], await opened.text()).toContain(opened.status());
}

/** A key figure's value ('Líquido a pagar', ...). */
const figure = (page: Page, label: string) =>
  page
    .getByLabel('Resumo do período')
    .locator('.commission-figure')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

/** A figure's value in centavos, its sign kept ('-R$ 20,00' is -2000). */
const signedCents = (text: string | null) => (/^\s*[-−]/.test(text ?? '') ? -1 : 1) * centsOf(text);

/** The statement's row of a comanda. */
const comandaRow = (page: Page, idComanda: number): Locator =>
  page
    .getByRole('table', { name: 'Comandas' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `N.º ${idComanda}`, exact: true }) });

/** Reads the statement again until the comanda closed through the API has reached the read side. */
async function waitForComanda(page: Page, idComanda: number) {
  const row = comandaRow(page, idComanda);
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  return row;
}

test("a professional's statement: the comanda and its commission, a vale off what is due, and the barber's own month on the phone", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Corte de cabelo');
  const diego = await professionalId(request, token, idCompany, BARBER1.name);
  const before = await readRates(request, token, diego);

  try {
    // --- Diego at 40 % on services and 10 % on products (no service at a rate of its own).
    await writeRates(request, token, diego, { servicePercent: 40, productPercent: 10, cardFeeShared: false, services: [] });
    await expect.poll(async () => (await readRates(request, token, diego)).ServicePercent).toBe(40);

    // --- A walk-in has Diego's 'Corte de cabelo', pays in cash, and the comanda closes.
    await ensureOpenCaixa(request, token, idCompany);
    const { idComanda, lineCents } = await sellAndClose(request, token, { idCompany, idService, idProfessional: diego });
    const earnedCents = percentOf(lineCents, 4_000);
    const earned = money(reais(earnedCents));

    // --- ADMIN picks Diego: the comanda, its line at 40 % and what it earned.
    await signInAs(page, ADMIN.email);
    await page.goto('/dashboard/commission');
    await expect(page.getByRole('heading', { name: 'Comissões', exact: true })).toBeVisible();
    const picker = page.getByLabel('Profissional', { exact: true });
    await expect(picker).toBeEnabled();
    const unit = page.getByLabel('Unidade', { exact: true });
    if (await unit.count()) await unit.selectOption({ label: CENTRO });
    await picker.selectOption({ label: BARBER1.name });
    await expect(page).toHaveURL(new RegExp(`[?&]idProfessional=${diego}(&|$)`));
    // The period starts as the month up to today.
    await expect(page.getByLabel('De', { exact: true })).toHaveValue(/^\d{4}-\d{2}-01$/);

    const row = await waitForComanda(page, idComanda);
    await expect(row.getByRole('link', { name: `N.º ${idComanda}`, exact: true })).toHaveAttribute('href', `/dashboard/comanda/${idComanda}`);
    await expect(row).toContainText('Corte de cabelo');
    await expect(row).toContainText('40%');
    await expect(row).toContainText(earned);
    expect(signedCents(await figure(page, 'Comissão').textContent())).toBeGreaterThanOrEqual(earnedCents);
    await expect(page.getByRole('heading', { name: 'Comissão por dia' })).toBeVisible();

    // --- A vale of R$ 20,00: 'Líquido a pagar' drops by as much.
    const net = figure(page, 'Líquido a pagar');
    await expect(net).toHaveText(/R\$/);
    const netBefore = signedCents(await net.textContent());
    await page.getByRole('button', { name: 'Novo vale ou bônus' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo vale ou bônus' });
    await dialog.getByLabel('Tipo').selectOption({ label: 'Vale' });
    await dialog.getByLabel('Valor').fill('2000');
    await expect(dialog.getByLabel('Valor')).toHaveValue(money('20,00'));
    await dialog.getByLabel('Motivo').fill('Adiantamento');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Lançamento registrado com sucesso!')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect.poll(async () => signedCents(await net.textContent())).toBe(netBefore - 2_000);
    const netAfter = (await net.textContent()) ?? '';
    const vale = page.getByRole('table', { name: 'Vales e bônus' }).getByRole('row').filter({ hasText: 'Adiantamento' });
    await expect(vale.first()).toContainText('Vale');
    await expect(vale.first()).toContainText(money('20,00'));
    await screenshots(page, 'commission-statement-admin', async () => {
      await expect(row).toBeVisible();
      await expect(net).toHaveText(netAfter);
    });

    // --- Diego reads his own statement: no picker, no ADMIN actions, the same figures.
    await signOut(page);
    await signInAs(page, BARBER1.email, BARBER1.password, /\/dashboard\/scheduling$/);
    await page.goto('/dashboard/commission');
    await expect(page.getByRole('heading', { name: 'Comissões', exact: true })).toBeVisible();
    const own = comandaRow(page, idComanda);
    await expect(own).toContainText(earned);
    await expect(figure(page, 'Líquido a pagar')).toHaveText(netAfter);
    await expect(page.getByLabel('Profissional', { exact: true })).toHaveCount(0);
    await expect(page.getByLabel('Ver como estava em')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Novo vale ou bônus' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Fechar período' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeEnabled();

    // On the phone everything fits the width: the figures and the comanda's card.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(own).toBeVisible();
    await expect(figure(page, 'Líquido a pagar')).toBeVisible();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      window: document.documentElement.clientWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    const card = (await own.boundingBox())!;
    expect(card.x).toBeGreaterThanOrEqual(0);
    expect(card.x + card.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });

    await screenshots(page, 'commission-statement', async () => {
      await expect(own).toBeVisible();
      await expect(figure(page, 'Líquido a pagar')).toHaveText(netAfter);
    });
  } finally {
    // Diego's rates as they were before the test.
    await writeRates(request, token, diego, bodyOf(before));
  }
});

test('ADMIN closes a past month as a paid period: the statement is then frozen, says so, and prints without the app around it', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const diego = await professionalId(request, token, idCompany, BARBER1.name);
  // A month long past, different on each run, so that a retry finds it still open.
  const year = 2000 + Math.floor(Math.random() * 20);
  const month = String(1 + Math.floor(Math.random() * 12)).padStart(2, '0');
  const from = `${year}-${month}-01`;
  const to = `${year}-${month}-28`;

  await signInAs(page, ADMIN.email);
  await page.goto(`/dashboard/commission?from=${from}&to=${to}`);
  await expect(page.getByRole('heading', { name: 'Comissões', exact: true })).toBeVisible();
  // The units and their professionals loaded: only then is there a unit to choose.
  await expect(page.getByLabel('Profissional', { exact: true })).toBeEnabled();
  const unit = page.getByLabel('Unidade', { exact: true });
  if (await unit.count()) await unit.selectOption({ label: CENTRO });
  await page.getByLabel('Profissional', { exact: true }).selectOption({ label: BARBER1.name });
  await expect(page).toHaveURL(new RegExp(`[?&]idProfessional=${diego}(&|$)`));
  await expect(page.getByLabel('De', { exact: true })).toHaveValue(from);
  await expect(figure(page, 'Líquido a pagar')).toHaveText(/R\$/);
  await page.getByRole('button', { name: 'Fechar período' }).click();
  const dialog = page.getByRole('dialog', { name: 'Fechar período' });
  await expect(dialog.getByLabel('De', { exact: true })).toHaveValue(from);
  await expect(dialog.getByLabel('Até', { exact: true })).toHaveValue(to);
  await dialog.getByLabel('Forma de pagamento').selectOption({ label: 'Pix' });
  await dialog.getByRole('button', { name: 'Fechar período' }).click();
  await expect(toast(page, 'Período fechado com sucesso!')).toBeVisible();

  // Frozen: the banner, no 'Fechar período' any more, and it is among the periods paid.
  const paid = page.getByRole('status').filter({ hasText: 'Período fechado e pago em' });
  await expect(paid).toContainText('por Pix');
  await expect(page.getByRole('button', { name: 'Fechar período' })).toHaveCount(0);
  const periods = page.getByRole('table', { name: 'Períodos pagos' });
  await expect(periods.getByRole('row').filter({ hasText: `/${month}/${year}` }).first()).toBeVisible();

  // Diego's, among his periods paid.
  const listed = await request.get(`/api/commission/periods?idProfessional=${diego}`, {
    headers: auth(token),
  });
  expect(((await listed.json()) as { From: string }[]).map((period) => period.From)).toContain(from);
  // Closing the same days again is refused on the dialog's field, naming the period paid.
  const again = await request.post('/api/commission/period/close', {
    headers: auth(token),
    data: { idProfessional: diego, from, to, paidAt: from, method: 'cash' },
  });
  expect(again.status()).toBe(422);
  expect(((await again.json()) as { errors: { from: string } }).errors.from).toContain('Este período se sobrepõe');

  // Printed: the statement alone, no menu and no buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Imprimir' })).toBeHidden();
  await expect(page.getByRole('navigation').first()).toBeHidden();
  await expect(paid).toBeVisible();
  await page.screenshot({ path: 'test-results/commission-statement-print.png', fullPage: true });
  await page.emulateMedia({ media: 'screen' });
});
