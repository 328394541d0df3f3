import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { csvNumber, csvText, fileSlug } from '@/lib/csv';
import type { RoleType } from '@/api/types';
import { companyItem, otherCompany, ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import {
  asOfOfInput,
  emptyMovement,
  mayLookBack,
  movementDetails,
  movementKindLabel,
  movementKindsFor,
  movementPayload,
  movementSchema,
  movementTitle,
  pastViewText,
  quantityLabel,
  quantityText,
  signedQuantityText,
  stockCsv,
  stockCsvFileName,
  stockMovementsPath,
  type MovementValues,
} from './model';
import { movementsUrl, stockUrl } from './stockApi';
import type { MovementItem, MovementKind, StockAnswer, StockRow } from './types';

const ROLES: RoleType[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT'];

const movement = (kind: MovementKind, values: Partial<MovementValues> = {}): MovementValues => ({
  ...emptyMovement(kind, 1),
  ...values,
});

async function errorsOf(values: MovementValues) {
  try {
    await movementSchema.validate(values, { abortEarly: false });
    return {};
  } catch (failure) {
    const { inner } = failure as { inner: { path: string; message: string }[] };
    return Object.fromEntries(inner.map((error) => [error.path, error.message]));
  }
}

const item = (values: Partial<MovementItem>): MovementItem => ({
  Kind: 'entrada',
  At: '2026-11-20T13:30:00Z',
  IdCompany: 1,
  CompanyName: 'Navalha Centro',
  Quantity: 5,
  QuantityAfter: 8,
  Value: 60,
  UnitCost: null,
  Supplier: null,
  Reason: null,
  IdComanda: null,
  IdCompanyOther: null,
  OtherCompanyName: null,
  UserName: 'Admin Navalha',
  ...values,
});

describe('stock words and figures', () => {
  it('names every movement as the screens read it', () => {
    expect(['entrada', 'venda', 'uso_interno', 'ajuste', 'transferencia'].map(movementKindLabel)).toEqual([
      'Entrada',
      'Venda',
      'Uso interno',
      'Ajuste',
      'Transferência',
    ]);
    expect(movementKindLabel('perda')).toBe('perda');
    expect(movementTitle('ajuste')).toBe('Ajuste de estoque');
    expect(movementTitle('uso_interno')).toBe('Uso interno');
    expect(quantityLabel('ajuste')).toBe('Quantidade contada');
    expect(quantityLabel('entrada')).toBe('Quantidade');
  });

  it('gives ADMIN every movement, ATTENDANT entries and internal use, nobody else any', () => {
    expect(movementKindsFor('ADMIN', 2)).toEqual(['entrada', 'uso_interno', 'ajuste', 'transferencia']);
    // No other unit to transfer to.
    expect(movementKindsFor('ADMIN', 1)).toEqual(['entrada', 'uso_interno', 'ajuste']);
    expect(movementKindsFor('ATTENDANT', 2)).toEqual(['entrada', 'uso_interno']);
    expect(ROLES.filter((role) => movementKindsFor(role, 2).length > 0)).toEqual(['ADMIN', 'ATTENDANT']);
    expect(ROLES.filter(mayLookBack)).toEqual(['ADMIN', 'ATTENDANT']);
  });

  it('writes quantities with their unit, the sign of a change always shown', () => {
    expect(quantityText(3, 'un')).toBe('3 un');
    expect(quantityText(1250, 'ml')).toBe('1.250 ml');
    expect(quantityText(1.5, 'g')).toBe('1,5 g');
    expect(quantityText(-2, 'un')).toBe('\u22122 un');
    expect(signedQuantityText(5, 'un')).toBe('+5 un');
    expect(signedQuantityText(-1, 'un')).toBe('\u22121 un');
    expect(signedQuantityText(0, 'un')).toBe('0 un');
  });

  it('asks for the stock and the movements with only the filters that are on', () => {
    expect(stockUrl({ idCompany: 1 })).toBe('stock?idCompany=1');
    expect(stockUrl({ idCompany: 1, asOf: '2026-11-20T10:00' })).toBe('stock?idCompany=1&asOf=2026-11-20T10%3A00');
    expect(movementsUrl({ idProduct: 3, page: 2, pageSize: 5, idCompany: null })).toBe('product/3/movements?page=2&pageSize=5');
    expect(movementsUrl({ idProduct: 3, page: 1, pageSize: 5, idCompany: 2 })).toBe('product/3/movements?page=1&pageSize=5&idCompany=2');
    expect(stockMovementsPath(3, 1)).toBe('/dashboard/stock/3?idCompany=1');
    expect(stockMovementsPath(3)).toBe('/dashboard/stock/3');
    expect(asOfOfInput('2026-11-20T10:00')).toBe('2026-11-20T10:00');
    expect(asOfOfInput('2026-11-20')).toBeNull();
    expect(pastViewText('2026-11-20T10:00:30')).toMatch(/^Como estava em 20\/11\/2026 10:00\. .*somente leitura/);
  });

  it('sends only the fields of each kind', () => {
    const filled = { quantity: 5, unitCost: 12.5, supplier: ' Distribuidora Sul ', reason: ' Quebrou ', idCompanyTo: '2' } as const;
    expect(movementPayload(movement('entrada', filled))).toEqual({
      kind: 'entrada',
      idCompany: 1,
      quantity: 5,
      unitCost: 12.5,
      supplier: 'Distribuidora Sul',
    });
    // The cost always (R$ 0,00 a free sample); no supplier: left out.
    expect(movementPayload(movement('entrada', { quantity: 5 }))).toEqual({ kind: 'entrada', idCompany: 1, quantity: 5, unitCost: 0 });
    // An entry starts at the average cost.
    expect(emptyMovement('entrada', 1, 12.5)).toMatchObject({ unitCost: 12.5, quantity: '' });
    expect(movementPayload(movement('uso_interno', filled))).toEqual({ kind: 'uso_interno', idCompany: 1, quantity: 5, reason: 'Quebrou' });
    expect(movementPayload(movement('uso_interno', { quantity: 1 }))).toEqual({ kind: 'uso_interno', idCompany: 1, quantity: 1 });
    expect(movementPayload(movement('ajuste', { ...filled, quantity: 0 }))).toEqual({
      kind: 'ajuste',
      idCompany: 1,
      quantity: 0,
      reason: 'Quebrou',
    });
    expect(movementPayload(movement('transferencia', filled))).toEqual({
      kind: 'transferencia',
      idCompany: 1,
      quantity: 5,
      idCompanyTo: 2,
    });
  });

  it('checks each kind as the server does', async () => {
    expect(await errorsOf(movement('entrada'))).toEqual({ quantity: 'Informe a quantidade.' });
    expect(await errorsOf(movement('entrada', { quantity: 0 }))).toEqual({ quantity: 'Informe uma quantidade maior que zero.' });
    expect(await errorsOf(movement('entrada', { quantity: 3 }))).toEqual({});
    expect(await errorsOf(movement('uso_interno', { quantity: 1 }))).toEqual({});
    // A count may be zero; its reason is required.
    expect(await errorsOf(movement('ajuste', { quantity: 0, reason: '  ' }))).toEqual({ reason: 'Informe o motivo do ajuste.' });
    expect(await errorsOf(movement('ajuste'))).toEqual({ quantity: 'Informe a quantidade contada.', reason: 'Informe o motivo do ajuste.' });
    expect(await errorsOf(movement('transferencia', { quantity: 2 }))).toEqual({ idCompanyTo: 'Escolha a unidade de destino.' });
    expect(await errorsOf(movement('transferencia', { quantity: 2, idCompanyTo: '2' }))).toEqual({});
  });

  it("says what else a movement says: supplier, cost, reason and the transfer's other unit", () => {
    expect(movementDetails(item({ Supplier: 'Distribuidora Sul', UnitCost: 12 }))).toEqual([
      'Fornecedor: Distribuidora Sul',
      'Custo unitário R$\u00a012,00',
    ]);
    expect(movementDetails(item({ Kind: 'ajuste', Quantity: -1, Reason: 'Contagem' }))).toEqual(['Contagem']);
    expect(movementDetails(item({ Kind: 'transferencia', Quantity: -2, IdCompanyOther: 2, OtherCompanyName: 'Navalha Praia' }))).toEqual([
      'para Navalha Praia',
    ]);
    expect(movementDetails(item({ Kind: 'transferencia', Quantity: 2, IdCompanyOther: 1, OtherCompanyName: 'Navalha Centro' }))).toEqual([
      'de Navalha Centro',
    ]);
    // A sale's comanda is a link of its own.
    expect(movementDetails(item({ Kind: 'venda', Quantity: -1, IdComanda: 12 }))).toEqual([]);
  });

  it('exports the table as a CSV for a spreadsheet', () => {
    expect(csvText('=SOMA(A1)')).toBe("'=SOMA(A1)");
    expect(csvText('a "b"')).toBe('"a ""b"""');
    expect(csvNumber(-0.001)).toBe('0,00');
    expect(fileSlug('Navalha São João', 'unidade')).toBe('navalha-sao-joao');
    const csv = stockCsv(STOCK);
    expect(csv.startsWith('\uFEFFProduto;Marca;Categoria;Unidade de medida;Quantidade;Mínimo;Abaixo do mínimo;Custo médio;Valor em estoque\r\n')).toBe(true);
    expect(csv).toContain('\r\nPomada modeladora;Barba Negra;Cabelo;un;2;5;Sim;12,00;24,00\r\n');
    expect(csv).toContain('\r\n"Óleo; barba";;;ml;-1,5;;Não;;0,00\r\n');
    expect(csv.endsWith('\r\nTotal;;;;;;;;324,00\r\n')).toBe(true);
    expect(stockCsvFileName('Navalha Centro', '2026-11-27')).toBe('estoque-navalha-centro-2026-11-27.csv');
  });
});

// ---------------------------------------------------------------------------
// The screens

const pomada: StockRow = {
  IdProduct: 3,
  Name: 'Pomada modeladora',
  Brand: 'Barba Negra',
  Category: 'Cabelo',
  Unit: 'un',
  Quantity: 2,
  Minimum: 5,
  Low: true,
  Value: 24,
  AverageCost: 12,
  Active: true,
};

const oleo: StockRow = {
  IdProduct: 4,
  Name: 'Óleo; barba',
  Brand: null,
  Category: null,
  Unit: 'ml',
  Quantity: -1.5,
  Minimum: null,
  Low: false,
  Value: 0,
  AverageCost: null,
  Active: true,
};

const cera: StockRow = { ...pomada, IdProduct: 5, Name: 'Cera', Brand: null, Quantity: 30, Minimum: null, Low: false, Value: 300, AverageCost: 10 };

const STOCK: StockAnswer = { IdCompany: 1, AsOf: null, AllowsNegative: true, TotalValue: 324, Items: [pomada, oleo, cera] };

/** GET product/3. */
const product = {
  IdProduct: 3,
  Name: 'Pomada modeladora',
  Price: 29.9,
  Active: true,
  Brand: 'Barba Negra',
  Barcode: null,
  Category: 'Cabelo',
  Cost: 12,
  Unit: 'un',
  Minimums: [{ IdCompany: 1, Minimum: 5 }],
};

function stockServer() {
  const state = {
    reads: [] as URLSearchParams[],
    movementReads: [] as URLSearchParams[],
    writes: [] as { url: string; body: Record<string, unknown>; key: string | null }[],
    quantity: 2,
  };
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([companyItem(ownCompany, true), companyItem(otherCompany, true)])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('business'), () => HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: 'ACTIVE' })),
    http.get(apiUrl('stock'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.reads.push(params);
      const asOf = params.get('asOf');
      if (asOf?.startsWith('1999')) {
        return HttpResponse.json({ message: 'Data inválida.', errors: { asOf: 'Data inválida.' } }, { status: 422 });
      }
      const row = { ...pomada, Quantity: state.quantity, Low: state.quantity < 5 };
      return HttpResponse.json({ ...STOCK, IdCompany: Number(params.get('idCompany')), AsOf: asOf ? '2026-11-20T13:00:00Z' : null, Items: [row, oleo, cera] });
    }),
    http.get(apiUrl('product/:id'), () => HttpResponse.json(product)),
    http.post(apiUrl('product/:id/movements'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      state.writes.push({ url: request.url, body, key: request.headers.get('Idempotency-Key') });
      if (body.quantity === 999) {
        return HttpResponse.json(
          { message: 'Quantidade acima do permitido.', errors: { quantity: 'Quantidade acima do permitido.' } },
          { status: 422 },
        );
      }
      state.quantity += Number(body.quantity);
      return HttpResponse.json({ IdProduct: 3, IdCompany: 1, Quantity: state.quantity }, { status: 201 });
    }),
    http.get(apiUrl('product/:id/movements'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.movementReads.push(params);
      const content = [
        item({ Kind: 'venda', At: '2026-11-21T18:05:00Z', Quantity: -1, QuantityAfter: 2, IdComanda: 12, UserName: 'Caixa' }),
        item({ Kind: 'transferencia', Quantity: -2, QuantityAfter: 3, IdCompanyOther: 2, OtherCompanyName: 'Navalha Praia' }),
        item({ Supplier: 'Distribuidora Sul', UnitCost: 12 }),
      ];
      return HttpResponse.json({ content, count: content.length, total: 7 });
    }),
  );
  return state;
}

const plain = (element: Element | null) => element?.textContent?.replace(/\u00a0/g, ' ') ?? '';

describe('stock screens', () => {
  it('lists the unit stock, low first, and records an entry; a 422 lands on its field', async () => {
    const user = userEvent.setup();
    const state = stockServer();
    renderApp('/dashboard/stock', { session: signedInSession('ADMIN', { companies: [ownCompany, otherCompany] }) });

    const table = await screen.findByRole('table', { name: 'Estoque' });
    const row = (await within(table).findByText('Pomada modeladora')).closest('tr')!;
    expect(Object.fromEntries(state.reads[0])).toEqual({ idCompany: '1' });
    expect(plain(row)).toContain('Barba Negra');
    expect(within(row).getByText('2 un')).toBeTruthy();
    expect(within(row).getByText('Abaixo do mínimo')).toBeTruthy();
    expect(plain(row)).toContain('R$ 24,00');
    const negative = within(table).getByText('\u22121,5 ml');
    expect(negative.className).toBe('stock-negative');
    expect(plain(screen.getByTestId('stock-total'))).toBe('Valor total em estoque: R$ 324,00');
    expect(within(row).getByRole('link', { name: 'Movimentações' }).getAttribute('href')).toBe('/dashboard/stock/3?idCompany=1');
    expect(within(row).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Entrada',
      'Uso interno',
      'Ajuste',
      'Transferência',
    ]);

    await user.click(within(row).getByRole('button', { name: 'Entrada' }));
    const dialog = screen.getByRole('dialog', { name: 'Entrada' });
    await user.type(within(dialog).getByLabelText('Quantidade'), '999');
    // It starts at the average cost.
    const cost = within(dialog).getByLabelText('Custo unitário') as HTMLInputElement;
    expect(cost.value).toBe('R$\u00a012,00');
    await user.clear(cost);
    await user.type(cost, '1250');
    await user.type(within(dialog).getByLabelText('Fornecedor'), 'Distribuidora Sul');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Quantidade acima do permitido.', { selector: '.field-error' })).toBeTruthy();
    expect(state.writes[0].url).toMatch(/\/api\/product\/3\/movements$/);
    expect(state.writes[0].body).toEqual({ kind: 'entrada', idCompany: 1, quantity: 999, unitCost: 12.5, supplier: 'Distribuidora Sul' });
    expect(state.writes[0].key).toBeTruthy();

    const quantity = within(dialog).getByLabelText('Quantidade');
    await user.clear(quantity);
    await user.type(quantity, '5');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Movimentação registrada.')).toBeTruthy();
    expect(state.writes[1].key).not.toBe(state.writes[0].key);
    expect(screen.queryByRole('dialog')).toBeNull();
    // The stock is read again.
    expect(await within(table).findByText('7 un')).toBeTruthy();
  });

  it('transfers to another unit and counts the stock', async () => {
    const user = userEvent.setup();
    const state = stockServer();
    renderApp('/dashboard/stock', { session: signedInSession('ADMIN', { companies: [ownCompany, otherCompany] }) });
    const row = (await screen.findByText('Pomada modeladora')).closest('tr')!;

    await user.click(within(row).getByRole('button', { name: 'Transferência' }));
    let dialog = screen.getByRole('dialog', { name: 'Transferência' });
    const to = within(dialog).getByLabelText('Unidade de destino') as HTMLSelectElement;
    expect([...to.options].map((option) => option.text)).toEqual(['Selecione', 'Navalha Praia']);
    await user.type(within(dialog).getByLabelText('Quantidade'), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Escolha a unidade de destino.')).toBeTruthy();
    await user.selectOptions(to, 'Navalha Praia');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Movimentação registrada.')).toBeTruthy();
    expect(state.writes[0].body).toEqual({ kind: 'transferencia', idCompany: 1, quantity: 1, idCompanyTo: 2 });

    await user.click(within((await screen.findByText('Pomada modeladora')).closest('tr')!).getByRole('button', { name: 'Ajuste' }));
    dialog = screen.getByRole('dialog', { name: 'Ajuste de estoque' });
    await user.type(within(dialog).getByLabelText('Quantidade contada'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe o motivo do ajuste.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Motivo'), 'Contagem mensal');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(state.writes).toHaveLength(2));
    expect(state.writes[1].body).toEqual({ kind: 'ajuste', idCompany: 1, quantity: 0, reason: 'Contagem mensal' });
  });

  it('gives ATTENDANT entries and internal use', async () => {
    stockServer();
    renderApp('/dashboard/stock', { session: signedInSession('ATTENDANT', { companies: [ownCompany, otherCompany] }) });
    const row = (await screen.findByText('Pomada modeladora')).closest('tr')!;
    expect(within(row).getAllByRole('button').map((button) => button.textContent)).toEqual(['Entrada', 'Uso interno']);
    expect(screen.getByLabelText('Ver como estava em')).toBeTruthy();
  });

  it('looks at the stock as it stood, read-only', async () => {
    const user = userEvent.setup();
    const state = stockServer();
    renderApp('/dashboard/stock', { session: signedInSession('ADMIN', { companies: [ownCompany, otherCompany] }) });
    await screen.findByText('Pomada modeladora');

    fireEvent.change(screen.getByLabelText('Ver como estava em'), { target: { value: '2026-11-20T10:00' } });
    await waitFor(() => expect(state.reads.at(-1)?.get('asOf')).toBe('2026-11-20T10:00'));
    const banner = await screen.findByRole('status');
    expect(banner.textContent).toContain('Como estava em 20/11/2026 10:00.');
    const row = (await screen.findByText('Pomada modeladora')).closest('tr')!;
    expect(within(row).queryAllByRole('button')).toEqual([]);
    expect(within(row).getByRole('link', { name: 'Movimentações' })).toBeTruthy();

    // An instant the server refuses: its message under the control.
    fireEvent.change(screen.getByLabelText('Ver como estava em'), { target: { value: '1999-01-01T10:00' } });
    expect(await screen.findByText('Data inválida.', { selector: '.field-error' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Voltar ao presente' }));
    await waitFor(() => expect(state.reads.at(-1)?.has('asOf')).toBe(false));
    expect(await within((await screen.findByText('Pomada modeladora')).closest('tr')!).findByRole('button', { name: 'Entrada' })).toBeTruthy();
  });

  it("lists a product's movements, newest first, with the comanda of a sale", async () => {
    const user = userEvent.setup();
    const state = stockServer();
    renderApp('/dashboard/stock/3?idCompany=1', { session: signedInSession('ADMIN', { companies: [ownCompany, otherCompany] }) });

    expect(await screen.findByRole('heading', { name: 'Pomada modeladora', level: 1 })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Movimentações' });
    const rows = (await within(table).findAllByRole('row')).slice(1);
    expect(Object.fromEntries(state.movementReads[0])).toEqual({ page: '1', pageSize: '5', idCompany: '1' });
    expect(plain(rows[0])).toContain('21/11/2026 15:05');
    expect(plain(rows[0])).toContain('Venda');
    expect(plain(rows[0])).toContain('\u22121 un');
    expect(within(rows[0]).getByRole('link', { name: 'Comanda N.º 12' }).getAttribute('href')).toBe('/dashboard/comanda/12');
    expect(plain(rows[1])).toContain('para Navalha Praia');
    expect(plain(rows[2])).toContain('+5 un');
    expect(plain(rows[2])).toContain('Fornecedor: Distribuidora Sul');

    // Every unit, and the next page.
    await user.selectOptions(screen.getByLabelText('Unidade'), 'Todas as unidades');
    await waitFor(() => expect(Object.fromEntries(state.movementReads.at(-1)!)).toEqual({ page: '1', pageSize: '5' }));
    await user.click(screen.getByRole('button', { name: 'Próxima página' }));
    await waitFor(() => expect(state.movementReads.at(-1)?.get('page')).toBe('2'));
  });
});
