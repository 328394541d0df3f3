import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DAY, agendaServer, clients } from '@/test/agendaServer';
import { loadAgendaFirst, renderAgenda } from '@/test/agendaSteps';
import { apiUrl, server } from '@/test/server';
import { compactDocuments } from './components/ClientSearch';
import { hasRecentNoShows, noShowsHint, noShowsText } from './model/noShows';

// Issue 45, the front desk's speed: 'Novo cliente' registers a client in place and chooses
// them; at 390 px each client of the search shows its CPF and phone.

const NOW = new Date(`${DAY}T12:00:00Z`);
const TAKEN_CPF = '11144477735';
const TAKEN = 'Já existe um cliente cadastrado com este CPF.';

loadAgendaFirst();

interface QuickBody {
  name: string;
  phone: string;
  cpf: string | null;
  whatsApp: boolean;
}

/**
 * POST user/quick as the server answers it: a CPF of another client is a 409 on the field, the
 * name 'Nome Recusado' a 422 on the name and the phone; anything else registers a client that
 * the search (the agenda server's list) finds from then on.
 */
function quickServer() {
  const posts: { body: QuickBody; key: string | null }[] = [];
  const listed = clients.length;
  onTestFinished(() => {
    clients.splice(listed);
  });
  server.use(
    http.post(apiUrl('user/quick'), async ({ request }) => {
      const body = (await request.json()) as QuickBody;
      posts.push({ body, key: request.headers.get('Idempotency-Key') });
      if (body.cpf === TAKEN_CPF) return HttpResponse.json({ message: TAKEN, errors: { cpf: TAKEN } }, { status: 409 });
      if (body.name === 'Nome Recusado') {
        return HttpResponse.json(
          { message: 'Dados inválidos', errors: { name: 'Digite o nome completo', phone: 'Informe um número válido' } },
          { status: 422 },
        );
      }
      const IdUser = 100 + posts.length;
      clients.push({
        IdUser,
        Name: body.name,
        Phone: body.phone,
        Email: '',
        Cpf: body.cpf ?? '',
        Status: true,
        SubscriptionUser: [],
        Unconfirmed: false,
        NoShows: 0,
        NoShowsLast90Days: 0,
      });
      return HttpResponse.json({ IdUser }, { status: 201 });
    }),
  );
  return posts;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  window.innerWidth = 1280;
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("'Novo cliente' in the booking wizard (issue 45)", () => {
  it("registers a client in place from the searched name, with the client form's checks, chooses them and books them", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    const posts = quickServer();
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    const modal = screen.getByRole('dialog', { name: 'Novo agendamento' });
    await user.type(within(modal).getByLabelText('Buscar cliente'), 'Joana Prado');
    expect(await within(modal).findByText('Nenhum usuário encontrado')).toBeTruthy();

    await user.click(within(modal).getByRole('button', { name: 'Novo cliente' }));
    const form = within(modal).getByRole('form', { name: 'Novo cliente' });
    const name = within(form).getByLabelText('Nome completo') as HTMLInputElement;
    const phone = within(form).getByLabelText('Celular') as HTMLInputElement;
    const cpf = within(form).getByLabelText('CPF (opcional)') as HTMLInputElement;
    // The searched name is the name; the number is WhatsApp unless unchecked.
    expect(name.value).toBe('Joana Prado');
    expect(phone.value).toBe('');
    expect(cpf.value).toBe('');
    expect((within(form).getByRole('checkbox', { name: 'Este número é WhatsApp' }) as HTMLInputElement).checked).toBe(true);
    expect(within(form).getByRole('button', { name: 'Cancelar' })).toBeTruthy();

    // The client form's checks, before anything is sent.
    await user.clear(name);
    await user.type(name, 'Joana');
    await user.type(cpf, '52998224724');
    await user.click(within(form).getByRole('button', { name: 'Cadastrar cliente' }));
    expect(await within(form).findByText('Digite o nome completo')).toBeTruthy();
    expect(within(form).getByText('Digite o número do celular')).toBeTruthy();
    expect(within(form).getByText('CPF inválido')).toBeTruthy();
    await user.type(phone, '11887654321');
    await user.click(within(form).getByRole('button', { name: 'Cadastrar cliente' }));
    expect(await within(form).findByText('Informe um número válido')).toBeTruthy();
    expect(posts).toHaveLength(0);

    // The server's refusals land on their fields, and what was typed stays.
    await user.clear(name);
    await user.type(name, 'Nome Recusado');
    await user.clear(phone);
    await user.type(phone, '11987654321');
    await user.clear(cpf);
    await user.click(within(form).getByRole('button', { name: 'Cadastrar cliente' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(await within(form).findByText('Digite o nome completo')).toBeTruthy();
    expect(within(form).getByText('Informe um número válido')).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'Joana  Prado');
    await user.type(cpf, TAKEN_CPF);
    await user.click(within(form).getByRole('button', { name: 'Cadastrar cliente' }));
    expect(await within(form).findByText(TAKEN)).toBeTruthy();
    expect(cpf.value).toBe('111.444.777-35');
    expect(name.value).toBe('Joana  Prado');

    await user.clear(cpf);
    await user.click(within(form).getByRole('button', { name: 'Cadastrar cliente' }));
    expect(await screen.findByText('Cliente cadastrado.')).toBeTruthy();
    expect(posts.map((post) => post.body)).toEqual([
      { name: 'Nome Recusado', phone: '11987654321', cpf: null, whatsApp: true },
      { name: 'Joana Prado', phone: '11987654321', cpf: TAKEN_CPF, whatsApp: true },
      { name: 'Joana Prado', phone: '11987654321', cpf: null, whatsApp: true },
    ]);
    // Each refusal was the server's answer: the next submission is another request.
    expect(new Set(posts.map((post) => post.key)).size).toBe(3);
    expect(posts[2].key).toMatch(/^[0-9a-f-]{36}$/);

    // Chosen, as if picked in the search, which lists them.
    expect(within(modal).queryByRole('form', { name: 'Novo cliente' })).toBeNull();
    expect(within(modal).getByText('Joana Prado', { selector: 'strong' })).toBeTruthy();
    const radio = (await within(modal).findByRole('radio', { name: 'Selecionar Joana Prado' })) as HTMLInputElement;
    expect(radio.checked).toBe(true);
    expect(agenda.calls.filter((c) => c.path === 'user/filter').at(-1)!.search.get('search')).toBe('Joana Prado');

    const next = within(modal).getByRole('button', { name: 'Próximo' });
    expect(next.hasAttribute('disabled')).toBe(false);
    await user.click(next);
    await user.click(within(modal).getByRole('checkbox', { name: /Barba/ }));
    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    await user.click(await within(modal).findByRole('button', { name: '14:15' }));
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText(/^Agendamento realizado com sucesso!/)).toBeTruthy();
    const post = agenda.calls.find((c) => c.method === 'POST' && c.path === 'scheduling/professional')!;
    expect(post.body).toMatchObject({ idUser: 103, startTime: '14:15', idServices: [2] });
    expect(await screen.findByRole('article', { name: /Joana Prado, 14:15/ })).toBeTruthy();
  });

  it("'Cancelar' goes back to the search as it was", async () => {
    const user = userEvent.setup();
    agendaServer([]);
    const posts = quickServer();
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    const modal = screen.getByRole('dialog', { name: 'Novo agendamento' });
    await user.type(within(modal).getByLabelText('Buscar cliente'), 'rafael');
    await within(modal).findByText('Mostrando 1 à 1 de 1 resultados');
    await user.click(within(modal).getByRole('button', { name: 'Novo cliente' }));
    await user.click(within(modal).getByRole('button', { name: 'Cancelar' }));
    expect(within(modal).queryByRole('form', { name: 'Novo cliente' })).toBeNull();
    expect((within(modal).getByLabelText('Buscar cliente') as HTMLInputElement).value).toBe('rafael');
    expect(await within(modal).findByRole('row', { name: /Rafael Araújo/ })).toBeTruthy();
    expect(posts).toHaveLength(0);
    // Nothing chosen.
    expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(true);
  });

  it('opens the registration in a new tab for the roles the server does not let register', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    agendaServer([]);
    renderAgenda('BARBER1', { idProfessional: 4 });
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    const modal = screen.getByRole('dialog', { name: 'Novo agendamento' });
    await user.click(within(modal).getByRole('button', { name: 'Novo cliente' }));
    expect(open).toHaveBeenCalledWith('/dashboard/client/new', '_blank', 'noopener');
    expect(within(modal).queryByRole('form', { name: 'Novo cliente' })).toBeNull();
  });
});

describe('the client search at 390 px (issue 45)', () => {
  beforeEach(() => {
    window.innerWidth = 390;
  });

  it('shows each client as a compact row: the name, then CPF · Telefone and the e-mail', async () => {
    const user = userEvent.setup();
    agendaServer([]);
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    await user.click(screen.getByRole('button', { name: 'Selecionar cliente' }));
    const search = screen.getByRole('dialog', { name: 'Buscar cliente' });
    const row = await within(search).findByRole('row', { name: /Rafael Araújo/ });
    expect(within(row).getByText('529.982.247-25 · (11) 98765-0100')).toBeTruthy();
    expect(within(row).getByText('cliente1@example.com')).toBeTruthy();
    expect(within(row).getByRole('radio', { name: 'Selecionar Rafael Araújo' })).toBeTruthy();
    // No wide columns to overflow the screen.
    expect(within(search).queryByRole('columnheader', { name: 'E-mail' })).toBeNull();
    expect(within(search).getAllByRole('row')).toHaveLength(6);
  });

  it('registers a client in place from the mobile flow, the typed digits as the mobile, and chooses them', async () => {
    const user = userEvent.setup();
    agendaServer([]);
    const posts = quickServer();
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    await user.click(screen.getByRole('button', { name: 'Selecionar cliente' }));
    const search = screen.getByRole('dialog', { name: 'Buscar cliente' });
    await user.type(within(search).getByLabelText('Buscar cliente'), '11987654321');
    expect(await within(search).findByText('Nenhum usuário encontrado')).toBeTruthy();

    await user.click(within(search).getByRole('button', { name: 'Novo cliente' }));
    const form = within(search).getByRole('form', { name: 'Novo cliente' });
    expect((within(form).getByLabelText('Nome completo') as HTMLInputElement).value).toBe('');
    expect((within(form).getByLabelText('Celular') as HTMLInputElement).value).toBe('(11) 98765-4321');
    await user.type(within(form).getByLabelText('Nome completo'), 'Joana Prado');
    await user.type(within(form).getByLabelText('CPF (opcional)'), '52998224725');
    await user.click(within(form).getByRole('checkbox', { name: 'Este número é WhatsApp' }));
    await user.click(within(form).getByRole('button', { name: 'Cadastrar cliente' }));

    expect(await screen.findByText('Cliente cadastrado.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Buscar cliente' })).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Cliente' })).getByText('Joana Prado')).toBeTruthy();
    expect(posts[0].body).toEqual({ name: 'Joana Prado', phone: '11987654321', cpf: '52998224725', whatsApp: false });
  });
});

describe("a compact row's documents", () => {
  it('writes CPF · Telefone, either alone when the other is missing', () => {
    expect(compactDocuments({ Cpf: '52998224725', Phone: '11987654321' })).toBe('529.982.247-25 · (11) 98765-4321');
    expect(compactDocuments({ Cpf: '', Phone: '11987654321' })).toBe('(11) 98765-4321');
    expect(compactDocuments({ Cpf: '52998224725', Phone: '' })).toBe('529.982.247-25');
    expect(compactDocuments({ Cpf: '', Phone: '' })).toBe('-');
  });
});

/**
 * Gives the agenda server's clients no-shows for one test (issue 44): Rafael Araújo 2 in the
 * last 90 days (3 ever), Thiago Nogueira 1, Gustavo Ribeiro 4 long ago and none lately.
 */
function withNoShows() {
  const counts: [number, number, number][] = [
    [1, 3, 2],
    [2, 1, 1],
    [3, 4, 0],
  ];
  for (const [id, ever, recent] of counts) Object.assign(clients[id - 1], { NoShows: ever, NoShowsLast90Days: recent });
  onTestFinished(() => {
    for (const [id] of counts) Object.assign(clients[id - 1], { NoShows: 0, NoShowsLast90Days: 0 });
  });
}

/** The no-show badge within a scope ('2 faltas'), or null. */
const badgeIn = (scope: HTMLElement) => scope.querySelector<HTMLElement>('.no-show-badge');

describe("a client's no-shows in the client search and the booking wizard (issue 44)", () => {
  it("marks a client who missed appointments in the last 90 days, by the name and once chosen", async () => {
    const user = userEvent.setup();
    withNoShows();
    agendaServer([]);
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    const modal = screen.getByRole('dialog', { name: 'Novo agendamento' });
    const rafael = await within(modal).findByRole('row', { name: /Rafael Araújo/ });
    const thiago = within(modal).getByRole('row', { name: /Thiago Nogueira/ });
    const gustavo = within(modal).getByRole('row', { name: /Gustavo Ribeiro/ });

    // In the name's column of the wide table, with the counts on hover.
    const badge = within(within(rafael).getAllByRole('cell')[1]).getByText('2 faltas');
    expect(badge.getAttribute('title')).toBe('Faltas nos últimos 90 dias: 2 (no total: 3)');
    expect(within(thiago).getByText('1 falta').getAttribute('title')).toBe('Faltas nos últimos 90 dias: 1 (no total: 1)');
    // Missed long ago only, or never: nothing.
    expect(badgeIn(gustavo)).toBeNull();
    expect(badgeIn(within(modal).getByRole('row', { name: /Felipe Magalhães/ }))).toBeNull();

    // Chosen: the wizard says it by the client's name too.
    await user.click(within(rafael).getByRole('radio', { name: 'Selecionar Rafael Araújo' }));
    const chosen = within(modal).getByText('Rafael Araújo', { selector: 'strong' }).parentElement!;
    expect(chosen.textContent).toBe('Cliente: Rafael Araújo2 faltas');
    await user.click(within(modal).getByRole('radio', { name: 'Selecionar Gustavo Ribeiro' }));
    expect(badgeIn(within(modal).getByText('Gustavo Ribeiro', { selector: 'strong' }).parentElement!)).toBeNull();
  });

  it('shows the badge in the compact row at 390 px and on the mobile flow\'s chosen client', async () => {
    window.innerWidth = 390;
    const user = userEvent.setup();
    withNoShows();
    agendaServer([]);
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    await user.click(screen.getByRole('button', { name: 'Selecionar cliente' }));
    const search = screen.getByRole('dialog', { name: 'Buscar cliente' });
    const row = await within(search).findByRole('row', { name: /Rafael Araújo/ });
    const name = row.querySelector('.client-search-name')!;
    expect(name.textContent).toBe('Rafael Araújo2 faltas');
    expect(within(row).getByText('2 faltas').getAttribute('title')).toBe('Faltas nos últimos 90 dias: 2 (no total: 3)');
    expect(badgeIn(within(search).getByRole('row', { name: /Gustavo Ribeiro/ }))).toBeNull();

    await user.click(within(row).getByRole('radio', { name: 'Selecionar Rafael Araújo' }));
    expect(screen.queryByRole('dialog', { name: 'Buscar cliente' })).toBeNull();
    const panel = screen.getByRole('region', { name: 'Cliente' });
    expect(within(panel).getByText('2 faltas').getAttribute('title')).toBe('Faltas nos últimos 90 dias: 2 (no total: 3)');
  });

  it("says '1 falta', '2 faltas', and the counts of the last 90 days and ever", () => {
    expect(noShowsText(1)).toBe('1 falta');
    expect(noShowsText(2)).toBe('2 faltas');
    expect(noShowsText(12)).toBe('12 faltas');
    expect(noShowsHint({ NoShows: 3, NoShowsLast90Days: 2 })).toBe('Faltas nos últimos 90 dias: 2 (no total: 3)');
    // A client read without the total (an edit's prefill) gets the recent count alone.
    expect(noShowsHint({ NoShowsLast90Days: 1 })).toBe('Faltas nos últimos 90 dias: 1');
    expect(hasRecentNoShows({ NoShows: 4, NoShowsLast90Days: 0 })).toBe(false);
    expect(hasRecentNoShows({})).toBe(false);
    expect(hasRecentNoShows({ NoShows: 1, NoShowsLast90Days: 1 })).toBe(true);
  });
});
