import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { photoFormData, photoRefusal, PRODUCT_PHOTO_MAX_BYTES } from './photo';
import { productFilterUrl } from './productsApi';
import {
  EMPTY_PRODUCT,
  isValidGtin,
  mayEditProducts,
  minimumLines,
  productPayload,
  productSchema,
  productValues,
  type ProductFormValues,
} from './schema';
import {
  EMPTY_SERVICE_USE,
  quantityWithUnit,
  serviceUseOptions,
  serviceUseRows,
  serviceUseSchema,
  type ServiceUseValues,
} from './serviceUses';
import type { Product } from './types';

async function errorsOf(values: Partial<ProductFormValues>) {
  try {
    await productSchema.validate({ ...EMPTY_PRODUCT, name: 'Pomada', price: 29.9, ...values }, { abortEarly: false });
    return {};
  } catch (failure) {
    const { inner } = failure as { inner: { path: string; message: string }[] };
    return Object.fromEntries(inner.map((error) => [error.path, error.message]));
  }
}

describe('product rules', () => {
  it('requires a name and a price, with the server messages', async () => {
    expect(await errorsOf({})).toEqual({});
    expect(await errorsOf(EMPTY_PRODUCT)).toEqual({ name: 'Informe o nome do produto.', price: 'Informe um preço maior que zero.' });
    expect(await errorsOf({ name: 'x'.repeat(81) })).toEqual({ name: 'O nome deve ter no máximo 80 caracteres.' });
    expect(await errorsOf({ price: 100_000.01 })).toEqual({ price: 'O preço deve ser de no máximo R$ 100.000,00.' });
  });

  it('checks the barcode (EAN/GTIN check digit), the cost and the minimums as the server does', async () => {
    // EAN-13, GTIN-8, UPC-A and GTIN-14 with their check digits.
    expect(['7891000315507', '96385074', '036000291452', '17891000315504'].map(isValidGtin)).toEqual([true, true, true, true]);
    expect(['7891000315508', '789100031550', '78910003155a7', ''].map(isValidGtin)).toEqual([false, false, false, false]);
    expect(await errorsOf({ barcode: '7891000315508' })).toEqual({ barcode: 'Código de barras inválido.' });
    expect(await errorsOf({ barcode: ' 7891000315507 ' })).toEqual({});
    expect(await errorsOf({ cost: 100_000.01 })).toEqual({ cost: 'O custo deve ser de no máximo R$ 100.000,00.' });
    expect(await errorsOf({ minimums: [{ idCompany: 1, minimum: 100_001 }, { idCompany: 2, minimum: '' }] })).toEqual({
      'minimums[0].minimum': 'O estoque mínimo deve ser de 0 a 100.000.',
    });
  });

  it("lists a line per unit of the user's (the server refuses the others')", () => {
    expect(minimumLines([{ IdCompany: 2, Minimum: 5 }, { IdCompany: 9, Minimum: 1 }], [1, 2])).toEqual([
      { idCompany: 1, minimum: '' },
      { idCompany: 2, minimum: 5 },
    ]);
    expect(productValues(null, [1])).toEqual({ ...EMPTY_PRODUCT, minimums: [{ idCompany: 1, minimum: '' }] });
    expect(productValues({ ...pomada, Brand: null, Cost: null, Minimums: [{ IdCompany: 1, Minimum: 3 }] }, [1])).toMatchObject({
      brand: '',
      cost: 0,
      unit: 'un',
      minimums: [{ idCompany: 1, minimum: 3 }],
    });
  });

  it('sends a trimmed name, the price in reais and the flag; lists by name and status', () => {
    expect(productPayload({ ...EMPTY_PRODUCT, name: '  Pomada   modeladora ', price: 29.9, active: false })).toEqual({
      name: 'Pomada modeladora',
      price: 29.9,
      active: false,
      brand: null,
      barcode: null,
      category: null,
      cost: null,
      unit: 'un',
      minimums: [],
    });
    expect(
      productPayload({
        ...EMPTY_PRODUCT,
        name: 'Óleo',
        price: 40,
        brand: ' Barba  Negra ',
        barcode: '7891000315507',
        category: 'Barba',
        cost: 18.5,
        unit: 'ml',
        minimums: [
          { idCompany: 1, minimum: 4 },
          { idCompany: 2, minimum: '' },
          { idCompany: 3, minimum: 0 },
        ],
      }),
    ).toEqual({
      name: 'Óleo',
      price: 40,
      active: true,
      brand: 'Barba Negra',
      barcode: '7891000315507',
      category: 'Barba',
      cost: 18.5,
      unit: 'ml',
      minimums: [
        { idCompany: 1, minimum: 4 },
        { idCompany: 3, minimum: 0 },
      ],
    });
    expect(productFilterUrl({ page: 2, pageSize: 5, search: ' pomada ', status: '1' })).toBe('product?page=2&pageSize=5&search=pomada&status=1');
    expect(productFilterUrl({ page: 1, pageSize: 5, search: '', status: '' })).toBe('product?page=1&pageSize=5');
    expect(mayEditProducts('ADMIN')).toBe(true);
    expect(['ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', null].some(mayEditProducts)).toBe(false);
  });
});

async function useErrorsOf(values: Partial<ServiceUseValues>) {
  try {
    await serviceUseSchema.validate({ ...EMPTY_SERVICE_USE, ...values }, { abortEarly: false });
    return {};
  } catch (failure) {
    const { inner } = failure as { inner: { path: string; message: string }[] };
    return Object.fromEntries(inner.map((error) => [error.path, error.message]));
  }
}

const catalogue = [
  { IdService: 7, Description: 'Pigmentação', TimeDefault: 30, ValueDefault: 50 },
  { IdService: 8, Description: 'Corte', TimeDefault: 30, ValueDefault: 40 },
  { IdService: 9, Description: 'Barba', TimeDefault: 20, ValueDefault: 30 },
];

describe('service uses (issue 43)', () => {
  it("writes a quantity in the product's unit", () => {
    expect(quantityWithUnit(10, 'ml')).toBe('10 ml');
    expect(quantityWithUnit(1250, 'g')).toBe('1.250 g');
    expect(quantityWithUnit(100_000, 'un')).toBe('100.000 un');
  });

  it('lists the uses by name, a service out of the catalogue by its number', () => {
    const usedBy = [
      { IdService: 7, Quantity: 10 },
      { IdService: 12, Quantity: 3 },
      { IdService: 9, Quantity: 5 },
    ];
    expect(serviceUseRows(usedBy, catalogue)).toEqual([
      { idService: 9, description: 'Barba', quantity: 5 },
      { idService: 7, description: 'Pigmentação', quantity: 10 },
      { idService: 12, description: 'Serviço N.º 12', quantity: 3 },
    ]);
    expect(serviceUseRows([], catalogue)).toEqual([]);
  });

  it('offers the catalogue services that do not use the product yet', () => {
    expect(serviceUseOptions([{ IdService: 7, Quantity: 10 }], catalogue)).toEqual([
      { value: 0, label: 'Selecione' },
      { value: 8, label: 'Corte' },
      { value: 9, label: 'Barba' },
    ]);
    expect(serviceUseOptions([], [])).toEqual([{ value: 0, label: 'Selecione' }]);
  });

  it('adds with a service and a whole quantity from 1 to 100.000', async () => {
    expect(await useErrorsOf({ idService: 7, quantity: 10 })).toEqual({});
    expect(await useErrorsOf({ idService: 7, quantity: 100_000 })).toEqual({});
    expect(await useErrorsOf({})).toEqual({ idService: 'Selecione o serviço.', quantity: 'Informe a quantidade usada.' });
    expect(await useErrorsOf({ idService: 7, quantity: 0 })).toEqual({ quantity: 'Informe a quantidade usada.' });
    expect(await useErrorsOf({ idService: 7, quantity: 100_001 })).toEqual({ quantity: 'A quantidade usada deve ser de 0 a 100.000.' });
    expect(await useErrorsOf({ idService: 7, quantity: 1.5 })).toEqual({ quantity: 'A quantidade usada deve ser de 0 a 100.000.' });
  });
});

const pomada: Product = {
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
  UsedBy: [],
};

function productsServer() {
  const state = { reads: [] as URLSearchParams[], writes: [] as { method: string; body: unknown; key: string | null }[] };
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('business'), () => HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: 'ACTIVE' })),
    http.get(apiUrl('product'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.reads.push(params);
      const rows = params.get('status') === '2' ? [] : [pomada];
      return HttpResponse.json({ content: rows, total: rows.length, count: rows.length });
    }),
    http.get(apiUrl('product/:id'), () => HttpResponse.json(pomada)),
    http.get(apiUrl('service/active'), () => HttpResponse.json(catalogue)),
    http.post(apiUrl('product'), async ({ request }) => {
      const body = (await request.json()) as { name: string };
      state.writes.push({ method: 'POST', body, key: request.headers.get('Idempotency-Key') });
      if (body.name === 'Pomada modeladora') {
        return HttpResponse.json({ message: 'Já existe um produto com este nome.', errors: { name: 'Já existe um produto com este nome.' } }, { status: 422 });
      }
      return HttpResponse.json({ IdProduct: 4 }, { status: 201 });
    }),
    http.put(apiUrl('product/:id'), async ({ request }) => {
      state.writes.push({ method: 'PUT', body: await request.json(), key: null });
      return HttpResponse.json({ IdProduct: 3 });
    }),
  );
  return state;
}

describe('products screens', () => {
  it('lists active products and creates one; a 422 lands on its field', async () => {
    const user = userEvent.setup();
    const state = productsServer();
    const { router } = renderApp('/dashboard/product', { session: signedInSession('ADMIN') });
    const table = await screen.findByRole('table', { name: 'Produtos' });
    const row = (await within(table).findByText('Pomada modeladora')).closest('tr')!;
    expect(within(row).getByText('R$ 29,90')).toBeTruthy();
    expect(within(row).getByText('Barba Negra')).toBeTruthy();
    expect(within(row).getByText('Cabelo')).toBeTruthy();
    expect(Object.fromEntries(state.reads[0])).toEqual({ page: '1', pageSize: '5', status: '1' });

    await user.click(screen.getByRole('link', { name: 'Novo produto' }));
    await user.type(await screen.findByLabelText('Nome'), 'Pomada modeladora');
    await user.type(screen.getByLabelText('Preço'), '3500');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findAllByText('Já existe um produto com este nome.')).not.toHaveLength(0);
    expect(state.writes[0]).toMatchObject({ method: 'POST', body: { name: 'Pomada modeladora', price: 35, active: true } });
    expect(state.writes[0].key).toBeTruthy();

    await user.clear(screen.getByLabelText('Nome'));
    await user.type(screen.getByLabelText('Nome'), 'Óleo para barba');
    await user.type(screen.getByLabelText('Marca'), 'Barba Negra');
    await user.type(screen.getByLabelText('Categoria'), 'Barba');
    await user.type(screen.getByLabelText('Código de barras (EAN)'), '7891000315508');
    await user.type(screen.getByLabelText('Custo'), '1250');
    await user.selectOptions(screen.getByLabelText('Unidade de medida'), 'Mililitro (ml)');
    const minimums = screen.getByRole('group', { name: 'Estoque mínimo por unidade' });
    await user.type(within(minimums).getByLabelText('Navalha Centro'), '4');
    await user.click(screen.getByLabelText('Ativo'));
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    // The check digit is wrong: nothing sent.
    expect(await screen.findByText('Código de barras inválido.')).toBeTruthy();
    expect(state.writes).toHaveLength(1);
    await user.clear(screen.getByLabelText('Código de barras (EAN)'));
    await user.type(screen.getByLabelText('Código de barras (EAN)'), '7891000315507');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Produto cadastrado com sucesso!')).toBeTruthy();
    expect(state.writes[1].body).toEqual({
      name: 'Óleo para barba',
      price: 35,
      active: false,
      brand: 'Barba Negra',
      barcode: '7891000315507',
      category: 'Barba',
      cost: 12.5,
      unit: 'ml',
      minimums: [{ idCompany: 1, minimum: 4 }],
    });
    // Another request: another key.
    expect(state.writes[1].key).not.toBe(state.writes[0].key);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/product'));
    // The list is read again (the new product in it) before the test ends.
    await waitFor(() => expect(state.reads).toHaveLength(2));
  });

  it('a barber reads a product: no new, no save', async () => {
    productsServer();
    renderApp('/dashboard/product/3', { session: signedInSession('BARBER1') });
    expect(((await screen.findByLabelText('Nome')) as HTMLInputElement).value).toBe('Pomada modeladora');
    // Inside the disabled fieldset.
    expect(screen.getByLabelText('Nome').matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(((screen.getByLabelText('Marca') as HTMLInputElement).value)).toBe('Barba Negra');
    expect(((screen.getByLabelText('Navalha Centro') as HTMLInputElement).value)).toBe('5');
  });

  it('an update sends the minimums; a 422 on them shows in their section', async () => {
    const user = userEvent.setup();
    const state = productsServer();
    server.use(
      http.put(apiUrl('product/:id'), async ({ request }) => {
        state.writes.push({ method: 'PUT', body: await request.json(), key: null });
        return HttpResponse.json(
          { message: 'Estoque mínimo inválido.', errors: { minimums: 'Estoque mínimo inválido.' } },
          { status: 422 },
        );
      }),
    );
    renderApp('/dashboard/product/3', { session: signedInSession('ADMIN') });
    const minimum = (await screen.findByLabelText('Navalha Centro')) as HTMLInputElement;
    expect(minimum.value).toBe('5');
    await user.clear(minimum);
    await user.type(minimum, '8');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    const section = screen.getByRole('group', { name: 'Estoque mínimo por unidade' });
    expect(await within(section).findByText('Estoque mínimo inválido.', { selector: '.field-error' })).toBeTruthy();
    expect(state.writes[0].body).toMatchObject({ brand: 'Barba Negra', cost: 12, unit: 'un', minimums: [{ idCompany: 1, minimum: 8 }] });
  });
});

describe("a product's uses in services", () => {
  it('ADMIN lists, adds and removes the uses; a 422 lands under the quantity', async () => {
    const user = userEvent.setup();
    productsServer();
    // The dye, in ml: 'Pigmentação' uses 10 ml of it.
    const dye = { ...pomada, Name: 'Tintura', Unit: 'ml', UsedBy: [{ IdService: 7, Quantity: 10 }] };
    const puts: { url: string; body: unknown }[] = [];
    server.use(
      http.get(apiUrl('product/:id'), () => HttpResponse.json(dye)),
      http.put(apiUrl('service/:idService/products/:idProduct'), async ({ request, params }) => {
        const body = (await request.json()) as { quantity: number };
        puts.push({ url: new URL(request.url).pathname, body });
        if (body.quantity > 50) {
          return HttpResponse.json(
            { message: 'A quantidade usada deve ser de 0 a 100.000.', errors: { quantity: 'A quantidade usada deve ser de 0 a 100.000.' } },
            { status: 422 },
          );
        }
        const idService = Number(params.idService);
        const others = dye.UsedBy.filter((use) => use.IdService !== idService);
        dye.UsedBy = body.quantity ? [...others, { IdService: idService, Quantity: body.quantity }] : others;
        return HttpResponse.json({ IdService: idService, Uses: body.quantity ? [{ IdProduct: 3, Quantity: body.quantity }] : [] });
      }),
    );
    renderApp('/dashboard/product/3', { session: signedInSession('ADMIN') });
    const section = await screen.findByRole('group', { name: 'Uso em serviços' });
    expect(
      within(section).getByText('Quanto deste produto cada serviço usa a cada vez que é feito; ao fechar a comanda, sai do estoque da unidade.'),
    ).toBeTruthy();
    const uses = await within(section).findByRole('list', { name: 'Serviços que usam este produto' });
    const pigmentacao = within(uses).getByText('Pigmentação').closest('li')!;
    expect(within(pigmentacao).getByText('10 ml')).toBeTruthy();
    // Only the services not listed yet.
    const select = within(section).getByLabelText('Serviço') as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual(['Selecione', 'Corte', 'Barba']);

    // Nothing chosen: nothing sent.
    await user.click(within(section).getByRole('button', { name: 'Adicionar uso' }));
    expect(await within(section).findByText('Selecione o serviço.')).toBeTruthy();
    expect(puts).toHaveLength(0);

    await user.selectOptions(select, 'Barba');
    await user.type(within(section).getByLabelText('Quantidade por serviço'), '80');
    await user.click(within(section).getByRole('button', { name: 'Adicionar uso' }));
    expect(await within(section).findByText('A quantidade usada deve ser de 0 a 100.000.', { selector: '.field-error' })).toBeTruthy();
    expect(puts[0]).toEqual({ url: '/api/service/9/products/3', body: { quantity: 80 } });

    await user.clear(within(section).getByLabelText('Quantidade por serviço'));
    await user.type(within(section).getByLabelText('Quantidade por serviço'), '5');
    await user.click(within(section).getByRole('button', { name: 'Adicionar uso' }));
    expect(await screen.findByText('Uso em serviço salvo.')).toBeTruthy();
    expect(puts[1]).toEqual({ url: '/api/service/9/products/3', body: { quantity: 5 } });
    const barba = (await within(uses).findByText('Barba')).closest('li')!;
    expect(within(barba).getByText('5 ml')).toBeTruthy();
    await waitFor(() => expect([...select.options].map((option) => option.text)).toEqual(['Selecione', 'Corte']));
    expect(select.value).toBe('0');
    expect((within(section).getByLabelText('Quantidade por serviço') as HTMLInputElement).value).toBe('');

    await user.click(within(uses).getByRole('button', { name: 'Remover Pigmentação' }));
    await waitFor(() => expect(within(uses).queryByText('Pigmentação')).toBeNull());
    expect(puts[2]).toEqual({ url: '/api/service/7/products/3', body: { quantity: 0 } });
  });

  it('is not there for a new product nor for a barber', async () => {
    productsServer();
    const { unmount } = renderApp('/dashboard/product/new', { session: signedInSession('ADMIN') });
    expect(await screen.findByLabelText('Nome')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Uso em serviços' })).toBeNull();
    unmount();
    renderApp('/dashboard/product/3', { session: signedInSession('BARBER1') });
    expect(await screen.findByLabelText('Nome')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Uso em serviços' })).toBeNull();
  });
});

/** A chosen file of some type; `size` overrides the bytes it says it has (nothing that big is made). */
function photoFile(name: string, type: string, size?: number) {
  const file = new File(['png'], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

/** Reads a jsdom Blob, which has FileReader but neither arrayBuffer() nor stream(). */
const readBlob = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });

describe("a product's photo", () => {
  // fetch writes a multipart body's files through Blob.stream(), which jsdom lacks: without
  // it the upload never ends. Given here, for this file's tests only.
  const hadStream = 'stream' in Blob.prototype;
  beforeAll(() => {
    if (hadStream) return;
    Object.defineProperty(Blob.prototype, 'stream', {
      configurable: true,
      value(this: Blob) {
        return new ReadableStream<Uint8Array>({
          start: async (controller) => {
            controller.enqueue(new Uint8Array(await readBlob(this)));
            controller.close();
          },
        });
      },
    });
  });
  afterAll(() => {
    if (!hadStream) delete (Blob.prototype as { stream?: unknown }).stream;
  });

  it('takes one JPEG, PNG or WebP of at most 5 MB, with the server messages', () => {
    expect(photoRefusal(photoFile('foto.jpg', 'image/jpeg'))).toBeNull();
    expect(photoRefusal(photoFile('foto.png', 'image/png'))).toBeNull();
    expect(photoRefusal(photoFile('foto.webp', 'image/webp'))).toBeNull();
    expect(photoRefusal(photoFile('foto.png', 'image/png', PRODUCT_PHOTO_MAX_BYTES))).toBeNull();
    expect(photoRefusal(photoFile('foto.png', 'image/png', PRODUCT_PHOTO_MAX_BYTES + 1))).toBe('Cada imagem deve ter no máximo 5 MB.');
    expect(photoRefusal(photoFile('foto.gif', 'image/gif'))).toBe('Envie apenas imagens JPEG, PNG ou WebP.');
    expect(photoRefusal(photoFile('foto.pdf', 'application/pdf', PRODUCT_PHOTO_MAX_BYTES + 1))).toBe('Envie apenas imagens JPEG, PNG ou WebP.');
    expect(photoRefusal(photoFile('foto.png', 'image/png', 0))).toBe('Escolha a foto do produto.');
    const file = photoFile('foto.png', 'image/png');
    const body = photoFormData(file);
    expect([...body.keys()]).toEqual(['file']);
    expect((body.get('file') as File).name).toBe('foto.png');
  });

  it('ADMIN sends a chosen photo at once, sees the refusals under the input and removes it', async () => {
    // The type is checked by the screen, not only by the picker's `accept`.
    const user = userEvent.setup({ applyAccept: false });
    productsServer();
    const product: Product = { ...pomada, UrlImage: null };
    // The multipart body as sent: its parts' headers name the field and the file.
    const calls: { method: string; url: string; type: string | null; body: string }[] = [];
    server.use(
      http.get(apiUrl('product/:id'), () => HttpResponse.json(product)),
      http.post(apiUrl('product/:id/image'), async ({ request }) => {
        const body = await request.text();
        calls.push({ method: 'POST', url: new URL(request.url).pathname, type: request.headers.get('content-type'), body });
        if (body.includes('filename="falsa.png"')) {
          return HttpResponse.json(
            { message: 'Envie apenas imagens JPEG, PNG ou WebP.', errors: { file: 'Envie apenas imagens JPEG, PNG ou WebP.' } },
            { status: 422 },
          );
        }
        product.UrlImage = '/api/media/gallery/abc.png';
        return HttpResponse.json({ IdProduct: 3, UrlImage: product.UrlImage });
      }),
      http.delete(apiUrl('product/:id/image'), ({ request }) => {
        calls.push({ method: 'DELETE', url: new URL(request.url).pathname, type: null, body: '' });
        product.UrlImage = null;
        return HttpResponse.json({ IdProduct: 3, UrlImage: null });
      }),
    );
    renderApp('/dashboard/product/3', { session: signedInSession('ADMIN') });
    const section = await screen.findByRole('group', { name: 'Foto do produto' });
    expect(within(section).getByText('Sem foto.')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Remover foto' })).toBeNull();
    const input = within(section).getByLabelText('Escolher foto') as HTMLInputElement;
    expect(input.accept).toBe('image/jpeg,image/png,image/webp');

    // Refused here: nothing sent.
    await user.upload(input, photoFile('foto.gif', 'image/gif'));
    expect((await within(section).findByRole('alert')).textContent).toBe('Envie apenas imagens JPEG, PNG ou WebP.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await user.upload(input, photoFile('grande.png', 'image/png', PRODUCT_PHOTO_MAX_BYTES + 1));
    expect((await within(section).findByRole('alert')).textContent).toBe('Cada imagem deve ter no máximo 5 MB.');
    expect(calls).toHaveLength(0);

    // The server's refusal lands under the input as well.
    await user.upload(input, photoFile('falsa.png', 'image/png'));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(await within(section).findByText('Envie apenas imagens JPEG, PNG ou WebP.', { selector: '.field-error' })).toBeTruthy();
    expect(within(section).getByText('Sem foto.')).toBeTruthy();

    await user.upload(input, photoFile('pomada.png', 'image/png'));
    expect(await screen.findByText('Foto do produto salva.')).toBeTruthy();
    expect(calls[1]).toMatchObject({ method: 'POST', url: '/api/product/3/image' });
    expect(calls[1].type).toMatch(/^multipart\/form-data; boundary=/);
    // One part, `file`, with the chosen file's name and type.
    expect(calls[1].body.match(/; name="[^"]*"/g)).toEqual(['; name="file"']);
    expect(calls[1].body).toContain('filename="pomada.png"');
    expect(calls[1].body).toMatch(/Content-Type: image\/png/i);
    // The product is read again: its photo shows, the refusal is gone.
    const photo = (await within(section).findByRole('img', { name: 'Foto de Pomada modeladora' })) as HTMLImageElement;
    expect(photo.getAttribute('src')).toBe('/api/media/gallery/abc.png');
    expect(within(section).queryByRole('alert')).toBeNull();

    await user.click(within(section).getByRole('button', { name: 'Remover foto' }));
    expect(await screen.findByText('Foto do produto removida.')).toBeTruthy();
    expect(calls[2]).toMatchObject({ method: 'DELETE', url: '/api/product/3/image' });
    expect(await within(section).findByText('Sem foto.')).toBeTruthy();
    expect(within(section).queryByRole('img')).toBeNull();
  });

  it('a barber sees the photo only; a new product has none to show', async () => {
    productsServer();
    server.use(http.get(apiUrl('product/:id'), () => HttpResponse.json({ ...pomada, UrlImage: '/api/media/gallery/abc.png' })));
    const { unmount } = renderApp('/dashboard/product/3', { session: signedInSession('BARBER1') });
    const section = await screen.findByRole('group', { name: 'Foto do produto' });
    expect(within(section).getByRole('img', { name: 'Foto de Pomada modeladora' })).toBeTruthy();
    expect(within(section).queryByLabelText('Escolher foto')).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Remover foto' })).toBeNull();
    unmount();
    renderApp('/dashboard/product/new', { session: signedInSession('ADMIN') });
    expect(await screen.findByLabelText('Nome')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Foto do produto' })).toBeNull();
  });

  it('shows a thumbnail before the name in the list when the product has a photo', async () => {
    productsServer();
    const oleo: Product = { ...pomada, IdProduct: 4, Name: 'Óleo para barba', UrlImage: '/api/media/gallery/oleo.webp' };
    server.use(http.get(apiUrl('product'), () => HttpResponse.json({ content: [pomada, oleo], total: 2, count: 2 })));
    renderApp('/dashboard/product', { session: signedInSession('ADMIN') });
    const table = await screen.findByRole('table', { name: 'Produtos' });
    const withPhoto = (await within(table).findByText('Óleo para barba')).closest('tr')!;
    const thumb = withPhoto.querySelector('img')!;
    expect(thumb.getAttribute('src')).toBe('/api/media/gallery/oleo.webp');
    expect(thumb.getAttribute('alt')).toBe('');
    expect(thumb.getAttribute('width')).toBe('32');
    expect(within(table).getByText('Pomada modeladora').closest('tr')!.querySelector('img')).toBeNull();
  });
});
