import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, CENTRO, apiToken, companyId, runTag, signInAs, toast } from './support';
import { screenshots } from './backoffice-a-support';
import { daysAfter, unitToday } from './clock';
import { auth, closeOpenCaixa } from './counter-support';

// Issue 43: ADMIN sees a new product below its minimum at the top of Centro's stock, receives
// goods ('Entrada'), another desk sells two through a comanda, a count ('Ajuste') finds fewer,
// and the product is below its minimum again, on the stock page and on the home; its
// movements say what each was, who and why. The attendant records only entradas and uso
// interno.

const ATTENDANT = 'atendente@navalha.dev';

/** A 1×1 PNG. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A product Centro should keep 5 of, through the API (the form is tested on its own). */
async function productWithMinimum(request: APIRequestContext, token: string, idCompany: number, name: string) {
  const created = await request.post('/api/product', {
    headers: auth(token),
    data: { name, price: 39.9, cost: 15, brand: 'Barba Forte', category: 'Finalizadores', minimums: [{ idCompany, minimum: 5 }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { IdProduct: number }).IdProduct;
}

/** Another desk sells `quantity` in a walk-in comanda, paid by debit card and closed; its number. */
async function sellThroughComanda(request: APIRequestContext, token: string, idCompany: number, idProduct: number, quantity: number) {
  await closeOpenCaixa(request, token, idCompany);
  const caixa = await request.post('/api/caixa', { headers: auth(token), data: { idCompany, openingCash: 100 } });
  expect(caixa.status(), await caixa.text()).toBe(201);
  const opened = await request.post('/api/comanda', { headers: auth(token), data: { idCompany } });
  expect(opened.status(), await opened.text()).toBe(201);
  const idComanda = ((await opened.json()) as { IdComanda: number }).IdComanda;
  const added = await request.post(`/api/comanda/${idComanda}/items`, {
    headers: auth(token),
    data: { kind: 'product', id: idProduct, quantity },
  });
  expect(added.status(), await added.text()).toBe(200);
  const due = ((await added.json()) as { Due: number }).Due;
  for (const [url, data] of [
    [`/api/comanda/${idComanda}/payments`, { method: 'debit', value: due }],
    [`/api/comanda/${idComanda}/close`, {}],
  ] as const) {
    const answer = await request.post(url, { headers: auth(token), data });
    expect(answer.status(), `${url}: ${await answer.text()}`).toBe(200);
  }
  return idComanda;
}

const stockRow = (page: Page, name: string) => page.getByRole('table', { name: 'Estoque' }).getByRole('row').filter({ hasText: name });

async function openStock(page: Page) {
  await page.goto('/dashboard/stock');
  await expect(page.getByRole('heading', { name: 'Estoque', level: 1 })).toBeVisible();
  await page.getByLabel('Unidade').selectOption({ label: CENTRO });
}

test('a product is received, sold through a comanda, counted, and listed below its minimum on the stock page and the home', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `Pomada estoque ${runTag()}`;
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const idProduct = await productWithMinimum(request, token, idCompany, name);

  // --- Nothing yet: below its minimum of 5, so among the first rows.
  await signInAs(page, ADMIN.email);
  await openStock(page);
  const row = stockRow(page, name);
  await expect(row).toContainText('0 un');
  await expect(row.getByTestId('stock-low-badge')).toHaveText('Abaixo do mínimo');

  // --- 'Entrada': 8 at R$ 12,50 from a supplier.
  await row.getByRole('button', { name: 'Entrada' }).click();
  let dialog = page.getByRole('dialog', { name: 'Entrada' });
  await dialog.getByLabel('Quantidade').fill('8');
  await dialog.getByLabel('Custo unitário').fill('12,50');
  await dialog.getByLabel('Fornecedor').fill('Distribuidora Sul');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Movimentação registrada.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('8 un');
  await expect(row).toContainText('R$ 100,00');
  await expect(row.getByTestId('stock-low-badge')).toHaveCount(0);

  // --- Another desk sells 2 through a comanda: 6 left.
  const idComanda = await sellThroughComanda(request, token, idCompany, idProduct, 2);
  await expect(async () => {
    await page.reload();
    await expect(stockRow(page, name)).toContainText('6 un', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });

  // --- A count finds 4, with its reason; a count without one is refused on its field.
  await stockRow(page, name).getByRole('button', { name: 'Ajuste' }).click();
  dialog = page.getByRole('dialog', { name: 'Ajuste de estoque' });
  await dialog.getByLabel('Quantidade contada').fill('4');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText('Informe o motivo do ajuste.')).toBeVisible();
  await dialog.getByLabel('Motivo').fill('Contagem do mês');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Movimentação registrada.')).toBeVisible();
  await expect(stockRow(page, name)).toContainText('4 un');
  await expect(stockRow(page, name).getByTestId('stock-low-badge')).toBeVisible();
  // The past view ('Ver como estava em'): each count as its last movement before the instant
  // left it, read-only (tomorrow's end: as it stands).
  const tomorrow = daysAfter(unitToday(), 1);
  await page.getByLabel('Ver como estava em').fill(`${tomorrow}T23:59`);
  await expect(page.getByRole('status').filter({ hasText: 'Como estava em' })).toBeVisible();
  await expect(stockRow(page, name)).toContainText('4 un');
  await expect(stockRow(page, name).getByRole('button', { name: 'Entrada' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Voltar ao presente' }).click();
  await expect(stockRow(page, name).getByRole('button', { name: 'Entrada' })).toBeVisible();
  await screenshots(page, 'stock', async () => {
    await expect(page.getByRole('heading', { name: 'Estoque', level: 1 })).toBeVisible();
  });

  // --- Its movements: the count, the sale with its comanda, the entrada with its supplier.
  await stockRow(page, name).getByRole('link', { name: 'Movimentações' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const movements = page.getByRole('table', { name: 'Movimentações' });
  const rows = movements.getByRole('row');
  await expect(rows.filter({ hasText: 'Ajuste' })).toContainText('Contagem do mês');
  await expect(rows.filter({ hasText: 'Ajuste' })).toContainText('−2 un');
  await expect(rows.filter({ hasText: 'Venda' }).getByRole('link', { name: `Comanda N.º ${idComanda}` })).toBeVisible();
  await expect(rows.filter({ hasText: 'Entrada' })).toContainText('Distribuidora Sul');
  await expect(rows.filter({ hasText: 'Entrada' })).toContainText('+8 un');
  await screenshots(page, 'stock-movements', async () => {
    await expect(movements).toBeVisible();
  });

  // --- The home lists it below its minimum.
  await page.goto('/dashboard');
  await page.getByLabel('Unidade').selectOption({ label: CENTRO });
  const lowStock = page.getByRole('region', { name: 'Produtos abaixo do mínimo' });
  await expect(lowStock.getByRole('link', { name })).toBeVisible();
});

test('the attendant records entradas and uso interno, not counts or transfers', async ({ page, request }) => {
  const name = `Óleo estoque ${runTag()}`;
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  await productWithMinimum(request, token, idCompany, name);
  await signInAs(page, ATTENDANT);
  await openStock(page);
  const row = stockRow(page, name);
  await expect(row.getByRole('button', { name: 'Entrada' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Uso interno' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Ajuste' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Transferência' })).toHaveCount(0);
  // More than there is cannot be used: the server's message lands on the quantity.
  await row.getByRole('button', { name: 'Uso interno' }).click();
  const dialog = page.getByRole('dialog', { name: 'Uso interno' });
  await dialog.getByLabel('Quantidade').fill('1');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText('Estoque insuficiente: há 0 un nesta unidade.')).toBeVisible();
});

test('ADMIN registers a product with its brand, barcode, cost, unit of measure and minimum, and the service that uses it', async ({
  page,
  request,
}) => {
  const name = `Tinta ${runTag()}`;
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/product/new');
  await expect(page.getByRole('heading', { name: 'Novo produto' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Dados do produto' });
  await form.getByLabel('Nome').fill(name);
  await form.getByLabel('Marca').fill('Pigmenta');
  await form.getByLabel('Categoria').fill('Química');
  await form.getByLabel('Código de barras (EAN)').fill('7891000315508');
  await form.getByLabel('Unidade de medida').selectOption({ label: 'Mililitro (ml)' });
  await form.getByLabel('Preço').fill('10000');
  await form.getByLabel('Custo').fill('1200');
  await form.getByRole('group', { name: 'Estoque mínimo por unidade' }).getByLabel(CENTRO).fill('120');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(form.getByText('Código de barras inválido.')).toBeVisible();
  await form.getByLabel('Código de barras (EAN)').fill('7891000315507');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(/\/dashboard\/product$/);
  await page.getByLabel('Busque pelo nome').fill(name);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const listed = page.getByRole('row').filter({ hasText: name });
  await expect(listed).toContainText('Pigmenta');
  await expect(listed).toContainText('Química');

  // The form again: what was saved, and 'Barba' (a beard pigmentation) uses 10 ml of it each time.
  const found = await request.get(`/api/product?page=1&pageSize=5&search=${encodeURIComponent(name)}`, { headers: auth(token) });
  const idProduct = ((await found.json()) as { content: { IdProduct: number }[] }).content[0].IdProduct;
  await page.goto(`/dashboard/product/${idProduct}`);
  await expect(form.getByLabel('Unidade de medida')).toHaveValue('ml');
  await expect(form.getByRole('group', { name: 'Estoque mínimo por unidade' }).getByLabel(CENTRO)).toHaveValue('120');
  // Its photo, chosen from a file (a tiny PNG), shown at once.
  const photo = page.getByRole('group', { name: 'Foto do produto' });
  await expect(photo.getByText('Sem foto.')).toBeVisible();
  await photo.getByLabel('Escolher foto').setInputFiles({ name: 'tinta.png', mimeType: 'image/png', buffer: Buffer.from(TINY_PNG, 'base64') });
  await expect(toast(page, 'Foto do produto salva.')).toBeVisible();
  await expect(photo.getByRole('img', { name: `Foto de ${name}` })).toBeVisible();
  const uses = page.getByRole('group', { name: 'Uso em serviços' });
  await expect(uses.getByText('Nenhum serviço usa este produto.')).toBeVisible();
  await uses.getByLabel('Serviço', { exact: true }).selectOption({ label: 'Barba' });
  await uses.getByLabel('Quantidade por serviço').fill('10');
  await uses.getByRole('button', { name: 'Adicionar uso' }).click();
  await expect(toast(page, 'Uso em serviço salvo.')).toBeVisible();
  await expect(uses.getByRole('list', { name: 'Serviços que usam este produto' }).getByRole('listitem').filter({ hasText: 'Barba' })).toContainText(
    '10 ml',
  );
  await screenshots(page, 'product-form-stock', async () => {
    await expect(uses).toBeVisible();
  });
  // Its minimum reached the stock page.
  await page.goto('/dashboard/stock');
  await page.getByLabel('Unidade').selectOption({ label: CENTRO });
  await expect(stockRow(page, name)).toContainText('120');
  expect(idCompany).toBeGreaterThan(0);
});
