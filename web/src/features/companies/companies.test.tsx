import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CompanyDto } from '@/api/types';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';

const ROWS = [
  { IdCompany: 1, Name: 'Navalha Centro', Phone: '11990001234', Cnpj: '40123456000163', Status: true },
  { IdCompany: 9, Name: 'Navalha Alfa', Phone: '11990005678', Cnpj: '12ABC34501DE35', Status: false },
];

/** The unit calls, answering like the server and recording what the screens send. */
function unitsServer() {
  const filters: URLSearchParams[] = [];
  const posts: { key: string | null; body: Record<string, unknown> }[] = [];
  let companies: CompanyDto[] = [ownCompany];
  let refuseNext = false;
  server.use(
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('company'), () => HttpResponse.json(companies)),
    http.get(apiUrl('company/filter'), ({ request }) => {
      filters.push(new URL(request.url).searchParams);
      return HttpResponse.json({ content: ROWS, total: ROWS.length, count: ROWS.length });
    }),
    http.get(new URL('/cep/01042001/json/', window.location.origin).href, () =>
      HttpResponse.json({ logradouro: 'Rua Barão de Itapetininga', bairro: 'República', localidade: 'São Paulo', uf: 'SP' }),
    ),
    http.post(apiUrl('company'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      posts.push({ key: request.headers.get('Idempotency-Key'), body });
      if (refuseNext) {
        refuseNext = false;
        return HttpResponse.json({ message: 'CNPJ já cadastrado.', errors: { cnpj: 'CNPJ já cadastrado.' } }, { status: 422 });
      }
      companies = [...companies, { IdCompany: 10, Name: String(body.name), City: 'São Paulo', State: 'SP', Status: true }];
      return HttpResponse.json({ IdCompany: 10 }, { status: 201 });
    }),
  );
  return { filters, posts, refuseOnce: () => (refuseNext = true) };
}

describe('units list', () => {
  it('searches active units, 5 a page, and opens a unit on a row click', async () => {
    const calls = unitsServer();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/company', { session: signedInSession('ADMIN') });
    const table = await screen.findByRole('table', { name: 'Empresas' });
    expect(await within(table).findByText('Navalha Alfa')).toBeTruthy();
    expect(within(table).getByText('12.ABC.345/01DE-35')).toBeTruthy();
    expect(within(table).getByText('(11) 99000-1234')).toBeTruthy();
    expect(within(table).getByText('Inativo')).toBeTruthy();
    expect(Object.fromEntries(calls.filters[0])).toEqual({ page: '1', pageSize: '5', search: '', status: '1' });

    await user.type(screen.getByLabelText('Busque pela unidade, telefone ou CNPJ'), 'alfa{Enter}');
    await waitFor(() => expect(calls.filters.at(-1)?.get('search')).toBe('alfa'));

    await user.click(within(table).getByText('Navalha Alfa'));
    expect(router.state.location.pathname).toBe('/dashboard/company/9');
  });

  it("shows 'Nova empresa' to ADMIN only", async () => {
    unitsServer();
    renderApp('/dashboard/company', { session: signedInSession('ATTENDANT') });
    await screen.findByText('Navalha Alfa');
    expect(screen.queryByRole('button', { name: 'Nova empresa' })).toBeNull();
  });
});

describe('new unit', () => {
  it('sends the form without masks, one Idempotency-Key per submission, and re-reads the session list', async () => {
    const calls = unitsServer();
    calls.refuseOnce();
    const user = userEvent.setup();
    const { router, store } = renderApp('/dashboard/company/new', { session: signedInSession('ADMIN') });
    await screen.findByRole('heading', { name: 'Nova empresa' });
    expect(screen.queryByRole('tab', { name: 'Galeria de fotos' })).toBeNull();

    await user.type(screen.getByLabelText('Nome'), 'Navalha Alfa');
    await user.type(screen.getByLabelText('CNPJ'), '12abc34501de35');
    expect(screen.getByLabelText<HTMLInputElement>('CNPJ').value).toBe('12.ABC.345/01DE-35');
    await user.type(screen.getByLabelText('E-mail'), 'alfa@navalha.dev');
    await user.type(screen.getByLabelText('Telefone'), '11987654321');
    await user.type(screen.getByLabelText('Facebook'), 'https://facebook.com/alfa');
    await user.type(screen.getByLabelText('Instagram'), 'https://instagram.com/alfa');
    await user.type(screen.getByLabelText('CEP'), '01042001');
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Rua').value).toBe('Rua Barão de Itapetininga'));
    await user.type(screen.getByLabelText('Número'), '120');

    // A 422 lands on its field; the next submission is another request with another key.
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findAllByText('CNPJ já cadastrado.')).not.toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Empresa cadastrada com sucesso!')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/company'));

    expect(calls.posts).toHaveLength(2);
    expect(calls.posts[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls.posts[1].key).not.toBe(calls.posts[0].key);
    expect(calls.posts[1].body).toMatchObject({
      name: 'Navalha Alfa',
      cnpj: '12ABC34501DE35',
      phone: '11987654321',
      zipCode: '01042001',
      state: 'SP',
      status: true,
      whatsApp: false,
    });
    await waitFor(() =>
      expect(store.getState().session.companyList.map((c) => c.Name)).toContain('Navalha Alfa'),
    );
  });
});
