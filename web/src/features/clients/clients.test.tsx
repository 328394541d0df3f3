import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { clientFilterUrl } from './clientsApi';
import { EMPTY_CLIENT, clientPayload, clientSchema, cpfFieldOf, isIncomplete, loginTypeLabel, type ClientFormValues, type CpfField } from './schema';
import { noShowFigures, visitStatus } from './ClientVisits';
import { UNCONFIRMED_NOTICE } from './Unconfirmed';
import type { ClientDetail, ClientListItem, ClientVisits } from './types';

// 12:00 UTC on 24 Nov 2026 is 09:00 on the unit's clock.
const NOW = () => new Date('2026-11-24T12:00:00Z');
const VALID: ClientFormValues = {
  name: 'Joana Prado',
  cpf: '529.982.247-25',
  email: 'joana@example.com',
  phone: '(11) 98765-4321',
  whatsApp: true,
  birthDate: '1990-05-20',
  status: 'true',
};

/** The messages of every field that fails (one per field: yup stops at the first). */
async function errorsOf(values: Partial<ClientFormValues>, cpf: CpfField = 'required') {
  try {
    await clientSchema(cpf, NOW).validate({ ...VALID, ...values }, { abortEarly: false });
    return {};
  } catch (failure) {
    const { inner } = failure as { inner: { path: string; message: string }[] };
    return Object.fromEntries(inner.map((error) => [error.path, error.message]));
  }
}

describe('client schema (spec 02 §5 Client)', () => {
  it('accepts a valid client', async () => {
    expect(await errorsOf({})).toEqual({});
    expect(await errorsOf({ birthDate: '' })).toEqual({});
    expect(await errorsOf({ birthDate: '-' })).toEqual({});
  });

  it('requires each field with its message', async () => {
    expect(await errorsOf({ ...EMPTY_CLIENT, status: '' })).toEqual({
      name: 'Digite o nome completo',
      cpf: 'Digite o CPF',
      email: 'Digite o e-mail',
      phone: 'Digite o número do celular',
      status: 'Escolha um Status',
    });
  });

  it('checks the name, e-mail, mobile, CPF and birth date', async () => {
    expect(await errorsOf({ name: 'Joana' })).toEqual({ name: 'Digite o nome completo' });
    expect(await errorsOf({ name: 'Jo Al' })).toEqual({ name: 'Digite o nome completo' });
    expect(await errorsOf({ email: 'joana@exemplo' })).toEqual({ email: 'E-mail inválido' });
    expect(await errorsOf({ phone: '(91) 98765-4321' })).toEqual({ phone: 'Informe um número válido' });
    expect(await errorsOf({ phone: '(11) 88765-4321' })).toEqual({ phone: 'Informe um número válido' });
    expect(await errorsOf({ cpf: '012.345.678-90' })).toEqual({ cpf: 'CPF inválido' });
    expect(await errorsOf({ cpf: '111.111.111-11' })).toEqual({ cpf: 'CPF inválido' });
    expect(await errorsOf({ cpf: '529.982.247-24' })).toEqual({ cpf: 'CPF inválido' });
    expect(await errorsOf({ birthDate: '1900-12-31' })).toEqual({ birthDate: 'Digite uma data válida' });
    expect(await errorsOf({ birthDate: '2026-11-25' })).toEqual({ birthDate: 'Digite uma data válida' });
    expect(await errorsOf({ birthDate: '2026-11-24' })).toEqual({});
  });

  it('does not check the CPF when editing a record with one (it is disabled and sent as null)', async () => {
    expect(await errorsOf({ cpf: '' }, 'locked')).toEqual({});
    expect(await errorsOf({ cpf: '529.982.247-24' }, 'locked')).toEqual({});
  });

  it("takes a CPF, optional but valid, for a record without one (issue 45)", async () => {
    expect(await errorsOf({ cpf: '' }, 'optional')).toEqual({});
    expect(await errorsOf({ cpf: '529.982.247-25' }, 'optional')).toEqual({});
    expect(await errorsOf({ cpf: '529.982.247-24' }, 'optional')).toEqual({ cpf: 'CPF inválido' });
    expect(await errorsOf({ cpf: '012.345.678-90' }, 'optional')).toEqual({ cpf: 'CPF inválido' });
    expect(cpfFieldOf(null)).toBe('required');
    expect(cpfFieldOf({ Cpf: '52998224725' })).toBe('locked');
    expect(cpfFieldOf({ Cpf: '' })).toBe('optional');
    expect(isIncomplete({ Email: '', Cpf: '' })).toBe(true);
    expect(isIncomplete({ Email: 'a@b.com', Cpf: '' })).toBe(true);
    expect(isIncomplete({ Email: '', Cpf: '52998224725' })).toBe(true);
    expect(isIncomplete({ Email: 'a@b.com', Cpf: '52998224725' })).toBe(false);
  });

  it('sends digits, a trimmed name, a null empty birth date and a boolean status', () => {
    expect(clientPayload({ ...VALID, name: '  Joana   Prado ', birthDate: '', status: 'false' }, 'required')).toEqual({
      name: 'Joana Prado',
      cpf: '52998224725',
      email: 'joana@example.com',
      phone: '11987654321',
      whatsApp: true,
      birthDate: null,
      status: false,
    });
    // Editing: null for a record with a CPF; the digits, or null when left empty, for one without.
    expect(clientPayload(VALID, 'locked').cpf).toBeNull();
    expect(clientPayload(VALID, 'optional').cpf).toBe('52998224725');
    expect(clientPayload({ ...VALID, cpf: '' }, 'optional').cpf).toBeNull();
    expect(loginTypeLabel('PASSWORD')).toBe('E-mail e senha');
    expect(loginTypeLabel('GOOGLE')).toBe('Google');
  });

  it('lists with page, size, search and status', () => {
    expect(clientFilterUrl({ page: 2, pageSize: 5, search: ' Maria ', status: '1' })).toBe(
      'user/filter?page=2&pageSize=5&search=Maria&status=1',
    );
    expect(clientFilterUrl({ page: 1, pageSize: 5, search: '', status: '' })).toBe('user/filter?page=1&pageSize=5');
  });
});

const maria: ClientDetail = {
  IdUser: 2,
  Name: 'Maria Aparecida Souza',
  Phone: '11987650101',
  Email: 'maria1@exemplo.com',
  Cpf: '30000001350',
  Status: true,
  WhatsApp: true,
  BirthDate: '1985-03-02',
  LastAccess: null,
  LoginType: 'GOOGLE',
  RecoveryCode: null,
  Unconfirmed: false,
  SubscriptionUser: [{ IdSubscriptionUser: 9, IdSubscriptionDetail: 3, PlanName: 'Clube Corte', InternalStatus: 'ACTIVE' }],
  // 'Não compareceu' in the user's units (issue 44): 1 in the last 90 days, 3 ever.
  NoShows: 3,
  NoShowsLast90Days: 1,
};

const visits: ClientVisits = {
  Visits: [
    { IdScheduling: 41, Date: '2026-12-01', StartTime: '10:00:00', EndTime: '10:45:00', Services: ['Corte de cabelo', 'Barba'],
      ProfessionalName: 'Diego Barbeiro', CompanyName: 'Navalha Centro', Value: 80, Status: true, Confirmation: true, Past: false },
    { IdScheduling: 40, Date: '2026-11-20', StartTime: '09:00:00', EndTime: '09:30:00', Services: ['Corte de cabelo'],
      ProfessionalName: 'Diego Barbeiro', CompanyName: 'Navalha Centro', Value: 45, Status: false, Confirmation: false, Past: true },
    { IdScheduling: 39, Date: '2026-11-10', StartTime: '15:00:00', EndTime: '15:30:00', Services: ['Corte de cabelo'],
      ProfessionalName: 'Eduardo Barbeiro', CompanyName: 'Navalha Savassi', Value: 45, Status: true, Confirmation: false, Past: true,
      Attendance: 'ATTENDED' },
  ],
  VisitsMade: 1,
  NoShows: 0,
  TotalSpent: 45,
  LastVisit: '2026-11-10',
  NextVisit: '2026-12-01',
  Cancellations: 1,
  SubscriptionUser: [{ IdSubscriptionUser: 9, IdSubscriptionDetail: 3, PlanName: 'Clube Corte', InternalStatus: 'ACTIVE' }],
};

/** A tiny client server: the list, one client, its visits, the writes it received. */
function clientsServer() {
  const state = { client: { ...maria }, reads: [] as URLSearchParams[], writes: [] as { method: string; url: string; body: unknown; key: string | null }[] };
  const listItem = (): ClientListItem => ({ ...state.client });
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('user/filter'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.reads.push(params);
      const rows = params.get('status') === '2' ? [] : [listItem()];
      return HttpResponse.json({ content: rows, total: rows.length, count: rows.length });
    }),
    http.get(apiUrl('user/:id'), () => HttpResponse.json(state.client)),
    http.get(apiUrl('user/:id/visits'), () => HttpResponse.json(visits)),
    http.post(apiUrl('user/professional'), async ({ request }) => {
      state.writes.push({ method: 'POST', url: request.url, body: await request.json(), key: request.headers.get('Idempotency-Key') });
      return HttpResponse.json({ IdUser: 30 }, { status: 201 });
    }),
    http.put(apiUrl('user/:id/confirm'), ({ request }) => {
      state.writes.push({ method: 'PUT', url: request.url, body: null, key: null });
      state.client = { ...state.client, Unconfirmed: false };
      return HttpResponse.json({ IdUser: 2, Confirmed: true });
    }),
    http.put(apiUrl('user/remove-all-login-social'), async ({ request }) => {
      state.writes.push({ method: 'PUT', url: request.url, body: await request.json(), key: null });
      state.client = { ...state.client, LoginType: 'PASSWORD' };
      return HttpResponse.json({ IdUser: 2, LoginType: 'PASSWORD' });
    }),
    http.put(apiUrl('user/:id'), async ({ request }) => {
      const body = (await request.json()) as { name: string };
      state.writes.push({ method: 'PUT', url: request.url, body, key: null });
      state.client = { ...state.client, Name: body.name };
      return HttpResponse.json({ IdUser: 2 });
    }),
  );
  return state;
}

describe('clients screens', () => {
  it('lists active clients with subscription, edit and WhatsApp actions; a row opens the form', async () => {
    const user = userEvent.setup();
    const state = clientsServer();
    const { router } = renderApp('/dashboard/client', { session: signedInSession('ADMIN') });
    const table = await screen.findByRole('table', { name: 'Clientes' });
    const row = (await within(table).findByText('Maria Aparecida Souza')).closest('tr')!;
    expect(Object.fromEntries(state.reads[0])).toEqual({ page: '1', pageSize: '5', status: '1' });
    expect(within(row).getByText('(11) 98765-0101')).toBeTruthy();
    expect(within(row).getByText('Ativo')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Assinatura de Maria Aparecida Souza' }).getAttribute('href')).toBe(
      '/dashboard/subscription-user-detail-form/9',
    );
    expect(within(row).getByRole('link', { name: 'WhatsApp de Maria Aparecida Souza' }).getAttribute('href')).toBe(
      'https://wa.me/5511987650101',
    );

    await user.selectOptions(screen.getByLabelText('Status'), '2');
    await user.click(screen.getByRole('button', { name: 'Pesquisar' }));
    expect(await within(table).findByText('Nenhum registro encontrado')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Limpar' }));
    await user.click(await within(table).findByText('Maria Aparecida Souza'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/client/2'));
  });

  it('edits a client (cpf null), and removes social logins after the confirmation', async () => {
    const user = userEvent.setup();
    const state = clientsServer();
    const { router } = renderApp('/dashboard/client/2', { session: signedInSession('ATTENDANT') });
    const name = await screen.findByLabelText('Nome completo');
    expect((name as HTMLInputElement).value).toBe('Maria Aparecida Souza');
    expect((screen.getByLabelText('CPF') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByText(/Cadastro incompleto/)).toBeNull();
    expect((screen.getByLabelText('Tipo de login') as HTMLInputElement).value).toBe('Google');

    await user.click(screen.getByRole('button', { name: 'Remover login social' }));
    const dialog = screen.getByRole('dialog', { name: 'Atencão!' });
    expect(dialog.textContent).toContain('Deseja realmente remover todos os logins com redes sociais?');
    await user.click(within(dialog).getByRole('button', { name: 'Remover' }));
    expect(await screen.findByText('Redes sociais removidas com sucesso!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remover login social' })).toBeNull());
    expect(state.writes[0].body).toEqual({ idUser: 2 });

    await user.clear(name);
    await user.type(name, 'Maria Souza Lima');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    expect(state.writes[1]).toMatchObject({
      method: 'PUT',
      body: { name: 'Maria Souza Lima', cpf: null, email: 'maria1@exemplo.com', phone: '11987650101', whatsApp: true, birthDate: '1985-03-02', status: true },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/client'));
  });

  it("completes a record the desk added: notice, the CPF enabled and sent once, a taken one on its field (issue 45)", async () => {
    const user = userEvent.setup();
    const state = clientsServer();
    state.client = { ...state.client, Email: '', Cpf: '', LoginType: 'PASSWORD' };
    const { router } = renderApp('/dashboard/client/2', { session: signedInSession('ATTENDANT') });
    const cpf = (await screen.findByLabelText('CPF')) as HTMLInputElement;
    expect(cpf.disabled).toBe(false);
    expect(cpf.value).toBe('');
    expect(screen.getByRole('status').textContent).toBe('Cadastro incompleto: informe e-mail e CPF quando o cliente puder.');

    await user.type(screen.getByLabelText('E-mail'), 'maria@exemplo.com');
    await user.type(cpf, '52998224724');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('CPF inválido')).toBeTruthy();
    expect(state.writes).toHaveLength(0);

    // Another client's CPF: the server's 409 lands on the field.
    server.use(
      http.put(apiUrl('user/:id'), async ({ request }) => {
        state.writes.push({ method: 'PUT', url: request.url, body: await request.json(), key: null });
        return HttpResponse.json(
          { message: 'Já existe um cliente cadastrado com este CPF.', errors: { cpf: 'Já existe um cliente cadastrado com este CPF.' } },
          { status: 409 },
        );
      }),
    );
    await user.clear(cpf);
    await user.type(cpf, '52998224725');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    const form = screen.getByRole('form', { name: 'Dados do cliente' });
    expect(await within(form).findByText('Já existe um cliente cadastrado com este CPF.')).toBeTruthy();
    expect(state.writes[0].body).toMatchObject({ cpf: '52998224725', email: 'maria@exemplo.com' });
    expect(router.state.location.pathname).toBe('/dashboard/client/2');

    server.use(
      http.put(apiUrl('user/:id'), async ({ request }) => {
        state.writes.push({ method: 'PUT', url: request.url, body: await request.json(), key: null });
        return HttpResponse.json({ IdUser: 2 });
      }),
    );
    await user.clear(cpf);
    await user.type(cpf, '11144477735');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    expect(state.writes[1].body).toMatchObject({ cpf: '11144477735', email: 'maria@exemplo.com' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/client'));
  });

  it('sends no CPF for a record without one when it is left empty, and names no gap on a complete record', async () => {
    const user = userEvent.setup();
    const state = clientsServer();
    state.client = { ...state.client, Cpf: '', LoginType: 'PASSWORD' };
    renderApp('/dashboard/client/2', { session: signedInSession('ADMIN') });
    await screen.findByText('Cadastro incompleto: informe e-mail e CPF quando o cliente puder.');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    expect(state.writes[0].body).toMatchObject({ cpf: null, email: 'maria1@exemplo.com' });
  });

  it('registers a client with an Idempotency-Key and goes back to the list', async () => {
    const user = userEvent.setup();
    const state = clientsServer();
    const { router } = renderApp('/dashboard/client/new', { session: signedInSession('ADMIN') });
    await user.type(await screen.findByLabelText('Nome completo'), 'Joana Prado');
    await user.type(screen.getByLabelText('CPF'), '52998224725');
    await user.type(screen.getByLabelText('E-mail'), 'joana@example.com');
    await user.type(screen.getByLabelText('Celular'), '11987654321');
    expect(screen.queryByLabelText('Tipo de login')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Cliente cadastrado com sucesso!')).toBeTruthy();
    expect(state.writes[0]).toMatchObject({
      method: 'POST',
      body: { name: 'Joana Prado', cpf: '52998224725', email: 'joana@example.com', phone: '11987654321', whatsApp: true, birthDate: null, status: true },
    });
    expect(state.writes[0].key).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/client'));
  });

  it("shows the client's visits: figures, subscription and the list, newest first", async () => {
    clientsServer();
    renderApp('/dashboard/client/2', { session: signedInSession('ATTENDANT') });
    const panel = await screen.findByRole('region', { name: 'Visitas' });
    // The table shows a loading row until the visits arrive.
    const rowTexts = () =>
      within(within(panel).getByRole('table', { name: 'Visitas do cliente' }))
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent?.replace(/\u00a0/g, ' '));
    await waitFor(() => expect(rowTexts()).not.toEqual(['Carregando...']));
    expect(rowTexts()).toEqual([
      '01/12/2026 10:00Corte de cabelo, BarbaDiego BarbeiroNavalha CentroR$ 80,00Confirmado',
      '20/11/2026 09:00Corte de cabeloDiego BarbeiroNavalha CentroR$ 45,00Cancelado',
      '10/11/2026 15:00Corte de cabeloEduardo BarbeiroNavalha SavassiR$ 45,00Realizado',
    ]);
    const figure = (label: string) => within(panel).getByText(label).nextElementSibling?.textContent?.replace(/\u00a0/g, ' ');
    expect(figure('Visitas realizadas')).toBe('1');
    expect(figure('Total gasto')).toBe('R$ 45,00');
    expect(figure('Última visita')).toBe('10/11/2026');
    expect(figure('Próxima visita')).toBe('01/12/2026');
    expect(figure('Cancelamentos')).toBe('1');
    // The no-shows are the client's (GET user/{id}, issue 44), in one place: the last 90 days and ever.
    expect(figure('Faltas (90 dias)')).toBe('1');
    expect(figure('Faltas (total)')).toBe('3');
    expect(within(panel).queryByText('Não compareceu', { selector: 'dt' })).toBeNull();
    expect(within(panel).getByRole('link', { name: /Clube Corte/ }).getAttribute('href')).toBe(
      '/dashboard/subscription-user-detail-form/9',
    );
  });

  it("names the client's no-show figures (issue 44)", () => {
    expect(noShowFigures({ NoShows: 0, NoShowsLast90Days: 0 })).toEqual([
      ['Faltas (90 dias)', '0'],
      ['Faltas (total)', '0'],
    ]);
    expect(noShowFigures({ NoShows: 5, NoShowsLast90Days: 2 })).toEqual([
      ['Faltas (90 dias)', '2'],
      ['Faltas (total)', '5'],
    ]);
  });

  it('names how a visit stands', () => {
    expect(visitStatus({ Status: false, Past: false, Confirmation: true })).toBe('Cancelado');
    expect(visitStatus({ Status: true, Past: true, Confirmation: false, Attendance: 'ATTENDED' })).toBe('Realizado');
    expect(visitStatus({ Status: true, Past: true, Confirmation: false, Attendance: 'NO_SHOW' })).toBe('Não compareceu');
    expect(visitStatus({ Status: true, Past: false, Confirmation: false, Attendance: 'ARRIVED' })).toBe('Cliente chegou');
    // Past with nothing recorded is not 'Realizado' (issue 41).
    expect(visitStatus({ Status: true, Past: true, Confirmation: false })).toBe('Sem atendimento registrado');
    expect(visitStatus({ Status: true, Past: false, Confirmation: true })).toBe('Confirmado');
    expect(visitStatus({ Status: true, Past: false, Confirmation: false })).toBe('Agendado');
  });

  it('a barber reads clients: no registration, the form read-only, no social-login removal', async () => {
    const state = clientsServer();
    state.client = { ...state.client, Unconfirmed: true };
    renderApp('/dashboard/client/2', { session: signedInSession('BARBER1') });
    const name = await screen.findByLabelText('Nome completo');
    expect(name.matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remover login social' })).toBeNull();
    // Told the record is unconfirmed, but not the one to confirm it.
    expect(screen.getByRole('status').textContent).toContain(UNCONFIRMED_NOTICE);
    expect(screen.queryByRole('button', { name: 'Confirmar cadastro' })).toBeNull();
  });

  it('marks a record made online in the list and the form until the front desk confirms it (issue 39)', async () => {
    const user = userEvent.setup();
    const state = clientsServer();
    state.client = { ...state.client, Unconfirmed: true };
    renderApp('/dashboard/client', { session: signedInSession('ATTENDANT') });
    const table = await screen.findByRole('table', { name: 'Clientes' });
    const row = (await within(table).findByText('Maria Aparecida Souza')).closest('tr')!;
    expect(within(row).getByText('Não confirmado').getAttribute('title')).toBe(
      'Cadastro feito online pelo cliente, ainda não confirmado pela barbearia',
    );
    await user.click(within(row).getByText('Maria Aparecida Souza'));
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain(UNCONFIRMED_NOTICE);
    await user.click(within(notice).getByRole('button', { name: 'Confirmar cadastro' }));
    expect(await screen.findByText('Cadastro confirmado com sucesso!')).toBeTruthy();
    expect(state.writes.at(-1)).toMatchObject({ method: 'PUT', url: apiUrl('user/2/confirm') });
    await waitFor(() => expect(screen.queryByText(UNCONFIRMED_NOTICE)).toBeNull());
  });
});
