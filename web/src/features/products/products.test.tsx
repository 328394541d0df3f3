import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { productFilterUrl } from './productsApi';
import { EMPTY_PRODUCT, mayEditProducts, productPayload, productSchema, type ProductFormValues } from './schema';
import type { Product } from './types';

async function errorsOf(values: Partial<ProductFormValues>) {
  try {
    await productSchema.validate({ name: 'Pomada', price: 29.9, active: true, ...values }, { abortEarly: false });
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

  it('sends a trimmed name, the price in reais and the flag; lists by name and status', () => {
    expect(productPayload({ name: '  Pomada   modeladora ', price: 29.9, active: false })).toEqual({
      name: 'Pomada modeladora',
      price: 29.9,
      active: false,
    });
    expect(productFilterUrl({ page: 2, pageSize: 5, search: ' pomada ', status: '1' })).toBe('product?page=2&pageSize=5&search=pomada&status=1');
    expect(productFilterUrl({ page: 1, pageSize: 5, search: '', status: '' })).toBe('product?page=1&pageSize=5');
    expect(mayEditProducts('ADMIN')).toBe(true);
    expect(['ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', null].some(mayEditProducts)).toBe(false);
  });
});

const pomada: Product = { IdProduct: 3, Name: 'Pomada modeladora', Price: 29.9, Active: true };

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
    await user.click(screen.getByLabelText('Ativo'));
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Produto cadastrado com sucesso!')).toBeTruthy();
    expect(state.writes[1].body).toEqual({ name: 'Óleo para barba', price: 35, active: false });
    // Another request: another key.
    expect(state.writes[1].key).not.toBe(state.writes[0].key);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/product'));
  });

  it('a barber reads a product: no new, no save', async () => {
    productsServer();
    renderApp('/dashboard/product/3', { session: signedInSession('BARBER1') });
    expect(((await screen.findByLabelText('Nome')) as HTMLInputElement).value).toBe('Pomada modeladora');
    // Inside the disabled fieldset.
    expect(screen.getByLabelText('Nome').matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
  });
});
