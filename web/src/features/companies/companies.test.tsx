import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SessionCompany } from '@/api/wire';
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
  let companies: SessionCompany[] = [ownCompany];
  // Failures the next POSTs answer, in turn, before the server takes one.
  const failures: (() => Response)[] = [];
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
      const failure = failures.shift();
      if (failure) return failure();
      companies = [...companies, { IdCompany: 10, Name: String(body.name), City: 'São Paulo', State: 'SP', Status: true }];
      return HttpResponse.json({ IdCompany: 10 }, { status: 201 });
    }),
  );
  return { filters, posts, failNext: (...answers: (() => Response)[]) => failures.push(...answers) };
}

const refused = () => HttpResponse.json({ message: 'CNPJ já cadastrado.', errors: { cnpj: 'CNPJ já cadastrado.' } }, { status: 422 });

/** The new unit's form, filled in. */
async function fillNewUnit(user: ReturnType<typeof userEvent.setup>) {
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
    calls.failNext(refused);
    const user = userEvent.setup();
    const { router, store } = renderApp('/dashboard/company/new', { session: signedInSession('ADMIN') });
    await screen.findByRole('heading', { name: 'Nova empresa' });
    expect(screen.queryByRole('tab', { name: 'Galeria de fotos' })).toBeNull();

    await fillNewUnit(user);

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
      // 'Lembretes' (issue 44): off for a new unit.
      remindersBefore24h: false,
      remindersBefore2h: false,
    });
    await waitFor(() =>
      expect(store.getState().session.companyList.map((c) => c.Name)).toContain('Navalha Alfa'),
    );
  });
});

describe('new unit, retried', () => {
  it('keeps the Idempotency-Key after a 503 or a lost answer, and renews it after a 422', async () => {
    const calls = unitsServer();
    calls.failNext(
      () => HttpResponse.json({ message: 'Serviço indisponível.' }, { status: 503 }),
      () => HttpResponse.error(),
      refused,
    );
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/company/new', { session: signedInSession('ADMIN') });
    await screen.findByRole('heading', { name: 'Nova empresa' });
    await fillNewUnit(user);
    const save = () => user.click(screen.getByRole('button', { name: 'Salvar' }));

    // A 503: the server stored nothing under the key, and the retry is the same request.
    await save();
    expect(await screen.findByText('Serviço indisponível.')).toBeTruthy();
    // The answer lost on the way (the write may have been committed): the same request again.
    await save();
    // (findAll: what is asserted here is the key, not how many toasts tell the failure.)
    expect(await screen.findAllByText('Ocorreu um erro ao chamar o serviço.')).not.toHaveLength(0);
    // A 422 is the server's answer to that request: the user's fix is another request.
    await save();
    expect(await screen.findAllByText('CNPJ já cadastrado.')).not.toHaveLength(0);
    await save();
    expect(await screen.findByText('Empresa cadastrada com sucesso!')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/company'));

    const keys = calls.posts.map((post) => post.key);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[3]).not.toBe(keys[2]);
  });
});

describe("a unit's 'Agendamento online'", () => {
  const SAVED = {
    IdCompany: 1,
    Name: 'Navalha Centro',
    Cnpj: '40123456000163',
    Email: 'unidade1@navalha.dev',
    Phone: '11990001234',
    WhatsApp: true,
    Status: true,
    Facebook: 'https://facebook.com/navalha',
    Instagram: 'https://instagram.com/navalha',
    Observation: '',
    ZipCode: '01042001',
    Street: 'Rua Barão de Itapetininga',
    Number: '100',
    District: 'República',
    City: 'São Paulo',
    State: 'SP',
    Complement: '',
    OnlineCancelCutoffHours: 24,
    OnlineMaxFutureBookings: 3,
    AttendantDiscountCapPercent: 40,
  };

  /** GET (`saved`) and PUT company/1; the first PUT answers the server's 422 on every rule. */
  function unitServer(saved: Record<string, unknown> = SAVED) {
    const puts: Record<string, unknown>[] = [];
    unitsServer();
    server.use(
      http.get(apiUrl('company/:id'), () => HttpResponse.json(saved)),
      http.put(apiUrl('company/:id'), async ({ request }) => {
        puts.push((await request.json()) as Record<string, unknown>);
        if (puts.length === 1) {
          return HttpResponse.json(
            {
              message: 'Informe um prazo de 0 a 72 horas',
              errors: {
                onlineCancelCutoffHours: 'Informe um prazo de 0 a 72 horas',
                onlineMaxFutureBookings: 'Informe de 1 a 10 agendamentos',
                onlineNewcomerSharePercent: 'Informe um percentual de 0 a 100',
                attendantDiscountCapPercent: 'Informe um desconto máximo de 0 a 100%',
                onlineNoShowLimit: 'Informe de 0 a 20 faltas (0 não bloqueia)',
              },
            },
            { status: 422 },
          );
        }
        return HttpResponse.json({ IdCompany: 1 });
      }),
    );
    return { puts };
  }

  const section = () => screen.getByRole('group', { name: 'Agendamento online' });
  const cutoff = () => within(section()).getByLabelText<HTMLInputElement>('Prazo para cancelar ou remarcar (horas antes do horário)');
  const limit = () => within(section()).getByLabelText<HTMLInputElement>('Agendamentos futuros por cliente');
  const share = () => within(section()).getByLabelText<HTMLInputElement>('Parte do dia para clientes novos online (%)');
  const noShowLimit = () =>
    within(section()).getByLabelText<HTMLInputElement>('Bloquear agendamento online após (faltas em 90 dias)');
  const tillSection = () => screen.getByRole('group', { name: 'Caixa e comandas' });
  const discountCap = () => within(tillSection()).getByLabelText<HTMLInputElement>('Desconto máximo do atendente (%)');

  it("shows the unit's rules and public page, checks them, and puts the server's messages on the fields", async () => {
    const { puts } = unitServer();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/company/1', { session: signedInSession('ADMIN') });
    await waitFor(() => expect(cutoff().value).toBe('24'));
    expect(limit().value).toBe('3');
    // A server from before the share answers without it: the default.
    expect(share().value).toBe('30');

    // The public page: its address, copied with a toast, and opened in a new tab.
    const address = within(section()).getByLabelText<HTMLInputElement>('Página de agendamento online');
    expect(address.value).toBe(`${window.location.origin}/agendar/1`);
    expect(address.readOnly).toBe(true);
    await user.click(within(section()).getByRole('button', { name: 'Copiar link' }));
    expect(await screen.findByText('Link copiado.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/agendar/1`);
    const open = within(section()).getByRole('link', { name: 'Abrir página' });
    expect(open.getAttribute('href')).toBe(`${window.location.origin}/agendar/1`);
    expect(open.getAttribute('target')).toBe('_blank');

    // Emptied, each rule says what it takes; nothing is sent.
    await user.clear(cutoff());
    await user.clear(limit());
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await within(section()).findByText('Informe um prazo de 0 a 72 horas')).toBeTruthy();
    expect(within(section()).getByText('Informe de 1 a 10 agendamentos')).toBeTruthy();
    expect(puts).toHaveLength(0);
    // Past the bounds the fields take nothing more.
    await user.type(cutoff(), '73');
    expect(cutoff().value).toBe('7');
    await user.type(limit(), '0');
    expect(limit().value).toBe('');
    await user.type(limit(), '1');
    await user.clear(share());
    await user.type(share(), '101');
    expect(share().value).toBe('10');

    // The server's 422 lands on the fields it names.
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ onlineCancelCutoffHours: 7, onlineMaxFutureBookings: 1, onlineNewcomerSharePercent: 10, name: 'Navalha Centro' });
    expect(await within(section()).findByText('Informe um prazo de 0 a 72 horas')).toBeTruthy();
    expect(within(section()).getByText('Informe de 1 a 10 agendamentos')).toBeTruthy();
    expect(within(section()).getByText('Informe um percentual de 0 a 100')).toBeTruthy();
    expect(within(tillSection()).getByText('Informe um desconto máximo de 0 a 100%')).toBeTruthy();

    // The zone: 'Automático' (the state's and city's) unless corrected (issue 39).
    const zone = screen.getByLabelText<HTMLSelectElement>('Fuso horário');
    expect(zone.value).toBe('');
    await user.selectOptions(zone, 'America/Manaus');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    expect(puts[1]).toMatchObject({ onlineCancelCutoffHours: 7, onlineMaxFutureBookings: 1, timeZone: 'America/Manaus' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/company'));
  });

  it("reads, checks and sends 'Bloquear agendamento online após (faltas em 90 dias)' (issue 44)", async () => {
    const { puts } = unitServer({ ...SAVED, OnlineNoShowLimit: 2 });
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/company/1', { session: signedInSession('ADMIN') });
    await waitFor(() => expect(noShowLimit().value).toBe('2'));
    expect(within(section()).getByText('0 não bloqueia')).toBeTruthy();

    // Emptied, it says what it takes; nothing is sent.
    await user.clear(noShowLimit());
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await within(section()).findByText('Informe de 0 a 20 faltas (0 não bloqueia)')).toBeTruthy();
    expect(puts).toHaveLength(0);
    // Past 20 the field takes nothing more.
    await user.type(noShowLimit(), '21');
    expect(noShowLimit().value).toBe('2');
    await user.clear(noShowLimit());
    await user.type(noShowLimit(), '1');

    // The server's 422 lands on it; then the unit is saved with it.
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ onlineNoShowLimit: 1, onlineMaxFutureBookings: 3, name: 'Navalha Centro' });
    expect(await within(section()).findByText('Informe de 0 a 20 faltas (0 não bloqueia)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    expect(puts[1]).toMatchObject({ onlineNoShowLimit: 1 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/company'));
  });

  it('blocks nobody (0) when the server answers without the no-show limit, and sends 0', async () => {
    const { puts } = unitServer();
    const user = userEvent.setup();
    renderApp('/dashboard/company/1', { session: signedInSession('ADMIN') });
    await waitFor(() => expect(cutoff().value).toBe('24'));
    expect(noShowLimit().value).toBe('0');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ onlineNoShowLimit: 0 });
  });

  it("reads, checks and sends the attendant's discount cap in 'Caixa e comandas' (issue 41)", async () => {
    const { puts } = unitServer();
    const user = userEvent.setup();
    renderApp('/dashboard/company/1', { session: signedInSession('ADMIN') });
    await waitFor(() => expect(discountCap().value).toBe('40'));
    expect(within(tillSection()).getByText('Quanto um atendente pode dar de desconto numa comanda. 100% = sem limite.')).toBeTruthy();

    // Emptied, it says what it takes; nothing is sent.
    await user.clear(discountCap());
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await within(tillSection()).findByText('Informe um desconto máximo de 0 a 100%')).toBeTruthy();
    expect(puts).toHaveLength(0);
    // Past 100 the field takes nothing more.
    await user.type(discountCap(), '101');
    expect(discountCap().value).toBe('10');

    // The server's 422 lands on it; then the unit is saved with it.
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ attendantDiscountCapPercent: 10, onlineCancelCutoffHours: 24, name: 'Navalha Centro' });
    expect(await within(tillSection()).findByText('Informe um desconto máximo de 0 a 100%')).toBeTruthy();
    await user.clear(discountCap());
    await user.type(discountCap(), '100');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    expect(puts[1]).toMatchObject({ attendantDiscountCapPercent: 100 });
  });

  it("reads and sends 'Permitir vender sem estoque' in 'Estoque' (issue 43)", async () => {
    const { puts } = unitServer();
    const user = userEvent.setup();
    renderApp('/dashboard/company/1', { session: signedInSession('ADMIN') });
    await waitFor(() => expect(discountCap().value).toBe('40'));
    const stock = screen.getByRole('group', { name: 'Estoque' });
    const allow = within(stock).getByLabelText<HTMLInputElement>('Permitir vender sem estoque (estoque negativo)');
    // A server from before it answers without it: not allowed.
    expect(allow.checked).toBe(false);
    await user.click(allow);
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ allowNegativeStock: true });
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    expect(puts[1]).toMatchObject({ allowNegativeStock: true });
  });

  it("reads and sends 'Lembrete 24 horas antes' and 'Lembrete 2 horas antes' in 'Lembretes' (issue 44)", async () => {
    const { puts } = unitServer({ ...SAVED, RemindersBefore24h: true, RemindersBefore2h: true });
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/company/1', { session: signedInSession('ADMIN') });
    await waitFor(() => expect(discountCap().value).toBe('40'));
    const reminders = screen.getByRole('group', { name: 'Lembretes' });
    const before24h = within(reminders).getByLabelText<HTMLInputElement>('Lembrete 24 horas antes');
    const before2h = within(reminders).getByLabelText<HTMLInputElement>('Lembrete 2 horas antes');
    expect(before24h.checked).toBe(true);
    expect(before2h.checked).toBe(true);
    expect(
      within(reminders).getByText('Enviados por WhatsApp aos clientes que aceitam WhatsApp, com os botões Confirmar e Cancelar.'),
    ).toBeTruthy();

    // The 2-hour one off, the 24-hour one kept; the first PUT is the server's 422, the second saves.
    await user.click(before2h);
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ remindersBefore24h: true, remindersBefore2h: false, name: 'Navalha Centro' });
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    expect(puts[1]).toMatchObject({ remindersBefore24h: true, remindersBefore2h: false });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/company'));
  });

  it("shows no reminder turned on when the server answers without 'Lembretes'", async () => {
    const { puts } = unitServer();
    const user = userEvent.setup();
    renderApp('/dashboard/company/1', { session: signedInSession('ADMIN') });
    await waitFor(() => expect(discountCap().value).toBe('40'));
    const reminders = screen.getByRole('group', { name: 'Lembretes' });
    expect(within(reminders).getByLabelText<HTMLInputElement>('Lembrete 24 horas antes').checked).toBe(false);
    expect(within(reminders).getByLabelText<HTMLInputElement>('Lembrete 2 horas antes').checked).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ remindersBefore24h: false, remindersBefore2h: false });
  });

  it('lets a role that only reads see the rules and copy the link, not change them', async () => {
    unitServer();
    const user = userEvent.setup();
    renderApp('/dashboard/company/1', { session: signedInSession('ATTENDANT') });
    await waitFor(() => expect(cutoff().value).toBe('24'));
    // Disabled by their fieldset.
    expect(cutoff().matches(':disabled')).toBe(true);
    expect(limit().matches(':disabled')).toBe(true);
    expect(noShowLimit().matches(':disabled')).toBe(true);
    expect(discountCap().value).toBe('40');
    expect(discountCap().matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Permitir vender sem estoque (estoque negativo)').matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Lembrete 24 horas antes').matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Lembrete 2 horas antes').matches(':disabled')).toBe(true);
    await user.click(within(section()).getByRole('button', { name: 'Copiar link' }));
    expect(await screen.findByText('Link copiado.')).toBeTruthy();
  });

  it('has no public page before the unit exists', async () => {
    unitsServer();
    renderApp('/dashboard/company/new', { session: signedInSession('ADMIN') });
    await screen.findByRole('heading', { name: 'Nova empresa' });
    expect(cutoff().value).toBe('2');
    expect(limit().value).toBe('2');
    // No cap on the attendant's discount until one is set.
    expect(discountCap().value).toBe('100');
    // No reminders until they are turned on.
    const reminders = screen.getByRole('group', { name: 'Lembretes' });
    expect(within(reminders).getByLabelText<HTMLInputElement>('Lembrete 24 horas antes').checked).toBe(false);
    expect(within(reminders).getByLabelText<HTMLInputElement>('Lembrete 2 horas antes').checked).toBe(false);
    expect(within(section()).queryByRole('button', { name: 'Copiar link' })).toBeNull();
    expect(within(section()).queryByRole('link', { name: 'Abrir página' })).toBeNull();
  });
});
