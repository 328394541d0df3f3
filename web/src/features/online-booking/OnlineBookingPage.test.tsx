import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render';
import { signedInSession } from '@/test/fixtures';
import { apiUrl, server } from '@/test/server';
import { DAY1, created, freeTimes, unit } from './onlineFixtures';
import type { AvailableTimes } from '@/features/agenda';

const TAKEN = 'Este horário acabou de ser reservado. Escolha outro horário.';
const WHATSAPP_CONSENT = 'Quero receber a confirmação e os lembretes pelo WhatsApp';

interface Call {
  path: string;
  search: URLSearchParams;
  body: unknown;
  headers: Headers;
}

type Answer = (call: Call, index: number) => Response | undefined;

/**
 * The page's calls, recorded; each answer may be replaced. Free times answer `times`
 * (a function of the call count, so a refetch can see fresh times).
 */
function serve(answers: { code?: Answer; verify?: Answer; book?: Answer; times?: (index: number) => AvailableTimes } = {}) {
  const calls: Call[] = [];
  const record = async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.text();
    const call = {
      path: url.pathname.replace('/api/', ''),
      search: url.searchParams,
      body: text ? JSON.parse(text) : null,
      headers: request.headers,
    };
    calls.push(call);
    return call;
  };
  const count = (path: string) => calls.filter((call) => call.path === path).length;
  server.use(
    http.get(apiUrl('no-auth/online-booking/1'), async ({ request }) => {
      await record(request);
      return HttpResponse.json(unit);
    }),
    http.get(apiUrl('no-auth/scheduling/available-times'), async ({ request }) => {
      await record(request);
      return HttpResponse.json(answers.times?.(count('no-auth/scheduling/available-times') - 1) ?? freeTimes);
    }),
    http.post(apiUrl('no-auth/online-booking/1/code'), async ({ request }) => {
      const call = await record(request);
      return (
        answers.code?.(call, count(call.path) - 1) ??
        HttpResponse.json({ RequestId: 'req-1', message: 'Enviamos um código de 6 dígitos para o seu e-mail.' })
      );
    }),
    http.post(apiUrl('no-auth/online-booking/1/verify'), async ({ request }) => {
      const call = await record(request);
      return answers.verify?.(call, count(call.path) - 1) ?? HttpResponse.json({ Token: 'booking-jwt', Name: 'João Silva', ExpiresIn: 1800 });
    }),
    http.post(apiUrl('no-auth/online-booking/1/scheduling'), async ({ request }) => {
      const call = await record(request);
      return answers.book?.(call, count(call.path) - 1) ?? HttpResponse.json(created, { status: 201 });
    }),
  );
  return { calls, of: (path: string) => calls.filter((call) => call.path === path) };
}

type User = ReturnType<typeof userEvent.setup>;

async function chooseCorteAt(user: User, time = '10:00') {
  await user.click(await screen.findByRole('checkbox', { name: /Corte/ }));
  await user.click(await screen.findByRole('button', { name: time }));
}

async function fillDetails(user: User, email = '') {
  await user.type(screen.getByLabelText('Nome'), 'João Silva');
  await user.type(screen.getByLabelText('Celular'), '11987654321');
  await user.type(screen.getByLabelText('CPF'), '52998224725');
  if (email) await user.type(screen.getByLabelText('E-mail (opcional)'), email);
}

/** Services, a time, details, the code: up to the booking call. */
async function bookUpToConfirm(user: User) {
  await chooseCorteAt(user);
  await fillDetails(user);
  await user.click(screen.getByRole('button', { name: 'Receber código' }));
  await user.type(await screen.findByLabelText('Código'), '123456');
  await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));
}

describe('online booking page', () => {
  it('shows the unit: name, address, photos, hours, WhatsApp, and its services from their lowest price', async () => {
    serve();
    renderApp('/agendar/1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Navalha Centro' })).toBeTruthy();
    expect(screen.getByText(unit.Address)).toBeTruthy();
    expect(screen.getAllByRole('img', { name: /Foto \d de Navalha Centro/ })).toHaveLength(2);
    const hours = screen.getByRole('table', { name: 'Horário de funcionamento' });
    expect(within(hours).getByRole('row', { name: /Terça-feira 09:00 às 19:00/ })).toBeTruthy();
    expect(within(hours).getByRole('row', { name: /Domingo Fechado/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /WhatsApp/ }).getAttribute('href')).toBe('https://wa.me/5511987654321');
    const corte = screen.getByRole('checkbox', { name: /Corte/ }).closest('label')!;
    expect(corte.textContent).toMatch(/a partir de R\$\s40,00/);
    expect(corte.textContent).toContain('30 min a 45 min');
    expect(screen.getByRole('checkbox', { name: /Barba/ }).closest('label')!.textContent).toMatch(/30 min.*a partir de R\$\s30,00/);
    // Nothing else until a service is chosen.
    expect(screen.queryByRole('heading', { name: /Profissional/ })).toBeNull();
  });

  it('says when the unit does not exist', async () => {
    server.use(
      http.get(apiUrl('no-auth/online-booking/99'), () => HttpResponse.json({ message: 'Barbearia não encontrada.' }, { status: 404 })),
    );
    renderApp('/agendar/99');
    expect((await screen.findByRole('alert')).textContent).toBe('Barbearia não encontrada.');
  });

  it('books with the code: the booking token only on the booking call, with an idempotency key', async () => {
    const api = serve();
    const user = userEvent.setup();
    // A staff user signed in on the same browser: their session is neither used nor changed.
    const { store } = renderApp('/agendar/1', { session: signedInSession('ADMIN') });
    await user.click(await screen.findByRole('checkbox', { name: /Corte/ }));
    // 'Sem preferência' first and chosen; only who does the services after it.
    const cards = screen.getAllByRole('radio');
    expect(cards.map((card) => card.closest('label')!.textContent)).toEqual(['★Sem preferência', 'RLRafael Lima', 'BCBruno Costa']);
    expect((cards[0] as HTMLInputElement).checked).toBe(true);
    // The first day with free times; each start once with 'Sem preferência'.
    expect((await screen.findByRole('button', { name: /26 de novembro de 2030/ })).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByRole('button', { name: '10:00' })).toHaveLength(1);
    expect(within(screen.getByRole('group', { name: 'Noite' })).getByRole('button', { name: '18:30' })).toBeTruthy();
    expect(api.of('no-auth/scheduling/available-times')[0].search.get('idServices')).toBe('[1]');
    expect(api.of('no-auth/scheduling/available-times')[0].search.has('idProfessionals')).toBe(false);
    // No booking is being moved: no booking token on the free times.
    expect(api.of('no-auth/scheduling/available-times')[0].headers.has('X-Booking-Token')).toBe(false);

    await user.click(screen.getByRole('button', { name: '10:00' }));
    // The form's own checks first.
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    expect(await screen.findByText('Digite o nome completo')).toBeTruthy();
    expect(screen.getByText('Digite o número do celular')).toBeTruthy();
    expect(screen.getByText('Digite o CPF')).toBeTruthy();
    expect(api.of('no-auth/online-booking/1/code')).toHaveLength(0);

    await fillDetails(user, 'joao@example.com');
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    expect(await screen.findByText('Enviamos um código de 6 dígitos para o seu e-mail.')).toBeTruthy();
    expect(api.of('no-auth/online-booking/1/code')[0].body).toEqual({
      name: 'João Silva',
      phone: '11987654321',
      cpf: '52998224725',
      email: 'joao@example.com',
      whatsApp: false,
    });

    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));
    expect(await screen.findByText('Digite o código.')).toBeTruthy();
    await user.type(screen.getByLabelText('Código'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));

    expect(await screen.findByRole('heading', { name: 'Agendamento confirmado!' })).toBeTruthy();
    expect(api.of('no-auth/online-booking/1/verify')[0].body).toEqual({ requestId: 'req-1', code: '123456' });
    const [bookCall] = api.of('no-auth/online-booking/1/scheduling');
    expect(bookCall.body).toEqual({ idServices: [1], idProfessional: null, date: DAY1, startTime: '10:00' });
    expect(bookCall.headers.get('Authorization')).toBe('Bearer booking-jwt');
    expect(bookCall.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    // The staff token went on none of the booking's calls other than where it always goes, and stays.
    expect(store.getState().session.token).toBe('token-123');
    expect(JSON.stringify(store.getState().session)).not.toContain('booking-jwt');

    // The summary, the calendar file and the manage link.
    const summary = screen.getByRole('heading', { name: 'Agendamento confirmado!' }).closest('section')!;
    expect(summary.textContent).toContain('Rafael Lima');
    expect(summary.textContent).toContain('terça-feira, 26/11/2030');
    expect(summary.textContent).toContain('10:00 às 10:30');
    expect(summary.textContent).toMatch(/R\$\s40,00/);
    expect(screen.getByRole('button', { name: 'Adicionar ao calendário' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cancelar ou remarcar' }).getAttribute('href')).toBe('/agendar/1/reserva/manage-abc');
  });

  it("a chosen professional's times are asked for and booked with them", async () => {
    const api = serve();
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await user.click(await screen.findByRole('checkbox', { name: /Corte/ }));
    await user.click(screen.getByRole('checkbox', { name: /Barba/ }));
    // Bruno does not do Barba.
    expect(screen.queryByRole('radio', { name: /Bruno Costa/ })).toBeNull();
    await user.click(screen.getByRole('radio', { name: /Rafael Lima/ }));
    await waitFor(() => expect(api.of('no-auth/scheduling/available-times').at(-1)!.search.get('idProfessionals')).toBe('[3]'));
    expect(api.of('no-auth/scheduling/available-times').at(-1)!.search.get('idServices')).toBe('[1,2]');
    await user.click(await screen.findByRole('button', { name: '14:00' }));
    // Rafael's times only.
    expect(screen.queryByRole('button', { name: '18:30' })).toBeNull();
    expect(screen.getByText(/Corte, Barba · terça-feira, 26\/11\/2030 às 14:00 · Rafael Lima/)).toBeTruthy();
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    await user.type(await screen.findByLabelText('Código'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));
    await screen.findByRole('heading', { name: 'Agendamento confirmado!' });
    expect(api.of('no-auth/online-booking/1/scheduling')[0].body).toEqual({
      idServices: [1, 2],
      idProfessional: 3,
      date: DAY1,
      startTime: '14:00',
    });
  });

  it("puts the server's 422 messages on their fields", async () => {
    serve({
      code: () =>
        HttpResponse.json(
          { message: 'Dados inválidos.', errors: { cpf: 'CPF inválido', email: 'E-mail inválido' } },
          { status: 422 },
        ),
    });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await chooseCorteAt(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    const cpf = screen.getByLabelText('CPF');
    await waitFor(() => expect(cpf.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('CPF inválido')).toBeTruthy();
    expect(screen.getByText('E-mail inválido')).toBeTruthy();
    expect(screen.queryByLabelText('Código')).toBeNull();
  });

  it('says when too many codes were asked for (429)', async () => {
    serve({
      code: () => HttpResponse.json({ message: 'Muitas tentativas. Aguarde alguns minutos.' }, { status: 429 }),
    });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await chooseCorteAt(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Muitas tentativas. Aguarde alguns minutos.');
    expect(screen.queryByLabelText('Código')).toBeNull();
  });

  it('a wrong code is told on the code field', async () => {
    serve({
      verify: () => HttpResponse.json({ message: 'Código inválido ou expirado. Solicite um novo código.' }, { status: 422 }),
    });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await bookUpToConfirm(user);
    expect(await screen.findByText('Código inválido ou expirado. Solicite um novo código.')).toBeTruthy();
    expect(screen.getByLabelText('Código').getAttribute('aria-invalid')).toBe('true');
  });

  it('a time taken meanwhile (409): the message, fresh times, and another time booked with the same token', async () => {
    const api = serve({
      book: (_call, index) => (index === 0 ? HttpResponse.json({ message: TAKEN }, { status: 409 }) : undefined),
      // The read model has not caught up yet on the refetch: the page still never offers 10:00.
      times: () => freeTimes,
    });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await bookUpToConfirm(user);

    expect((await screen.findByText(TAKEN)).getAttribute('role')).toBe('alert');
    await waitFor(() => expect(api.of('no-auth/scheduling/available-times')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: '10:00' })).toBeNull();
    expect(screen.queryByLabelText('Código')).toBeNull();

    // No time chosen: said, nothing sent.
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));
    expect(await screen.findByText('Escolha um horário.')).toBeTruthy();
    expect(api.of('no-auth/online-booking/1/scheduling')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: '14:00' }));
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));
    expect(await screen.findByRole('heading', { name: 'Agendamento confirmado!' })).toBeTruthy();
    const books = api.of('no-auth/online-booking/1/scheduling');
    expect(books).toHaveLength(2);
    expect(books[1].body).toMatchObject({ startTime: '14:00' });
    expect(books[1].headers.get('Authorization')).toBe('Bearer booking-jwt');
    // Another attempt, another key; and no second code.
    expect(books[1].headers.get('Idempotency-Key')).not.toBe(books[0].headers.get('Idempotency-Key'));
    expect(api.of('no-auth/online-booking/1/verify')).toHaveLength(1);
    expect(api.of('no-auth/online-booking/1/code')).toHaveLength(1);
  });

  it('a 503 or a lost answer is sent again with the same key, so the server gives the first answer', async () => {
    const api = serve({
      book: (_call, index) =>
        index === 0
          ? HttpResponse.json({ message: 'Serviço indisponível.' }, { status: 503 })
          : index === 1
            ? HttpResponse.error()
            : undefined,
    });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await bookUpToConfirm(user);
    expect((await screen.findByRole('alert')).textContent).toBe('Serviço indisponível.');
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));
    expect(await screen.findByText('Não foi possível comunicar com o servidor.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));
    expect(await screen.findByRole('heading', { name: 'Agendamento confirmado!' })).toBeTruthy();

    const keys = api.of('no-auth/online-booking/1/scheduling').map((call) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(api.of('no-auth/online-booking/1/verify')).toHaveLength(1);
  });

  it('an expired verification (401) asks for a new code and leaves the staff session alone', async () => {
    serve({
      book: () => HttpResponse.json({ message: 'Sua verificação expirou. Peça um novo código.' }, { status: 401 }),
    });
    const user = userEvent.setup();
    const { store } = renderApp('/agendar/1', { session: signedInSession('ADMIN') });
    await bookUpToConfirm(user);
    expect((await screen.findByRole('alert')).textContent).toBe('Sua verificação expirou. Peça um novo código.');
    expect(screen.getByRole('button', { name: 'Receber código' })).toBeTruthy();
    expect(store.getState().session.token).toBe('token-123');
  });

  it('a booking inside the cut-off says it can no longer be changed online', async () => {
    serve({ book: () => HttpResponse.json({ ...created, Changeable: false }, { status: 201 }) });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await bookUpToConfirm(user);
    expect(await screen.findByText(/Este horário já não pode ser alterado online/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver agendamento' }).getAttribute('href')).toBe('/agendar/1/reserva/manage-abc');
    expect(screen.getByRole('textbox', { name: 'Link do agendamento' })).toBeTruthy();
  });

  it('the limit of future bookings (422) is said', async () => {
    const limit = 'Você já tem 2 agendamentos futuros nesta barbearia.';
    serve({ book: () => HttpResponse.json({ message: limit }, { status: 422 }) });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await bookUpToConfirm(user);
    expect((await screen.findByRole('alert')).textContent).toBe(limit);
  });

  it("a client past the unit's no-show limit (422) is asked to call the shop (issue 44)", async () => {
    const blocked = 'Não é possível agendar online no momento. Ligue para a barbearia: (11) 3333-4444.';
    serve({ book: () => HttpResponse.json({ message: blocked }, { status: 422 }) });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await bookUpToConfirm(user);
    expect((await screen.findByRole('alert')).textContent).toBe(blocked);
    expect(screen.queryByRole('region', { name: 'Agendamento confirmado!' })).toBeNull();
  });

  it('the WhatsApp consent, after the mobile, is unticked by default and sent as whatsApp: false (issue 44)', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await chooseCorteAt(user);
    const consent = screen.getByRole('checkbox', { name: WHATSAPP_CONSENT }) as HTMLInputElement;
    expect(consent.checked).toBe(false);
    // Right after the mobile, before the CPF.
    const order = ['Celular', WHATSAPP_CONSENT, 'CPF'].map((label) => screen.getByLabelText(label));
    expect(order[0].compareDocumentPosition(order[1]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(order[1].compareDocumentPosition(order[2]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    await screen.findByLabelText('Código');
    expect(api.of('no-auth/online-booking/1/code')[0].body).toMatchObject({ phone: '11987654321', whatsApp: false });
  });

  it('a ticked WhatsApp consent is sent as whatsApp: true, on a resent code and after a new verification too (issue 44)', async () => {
    const api = serve({
      book: (_call, index) =>
        index === 0 ? HttpResponse.json({ message: 'Sua verificação expirou. Peça um novo código.' }, { status: 401 }) : undefined,
    });
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await chooseCorteAt(user);
    await fillDetails(user);
    await user.click(screen.getByRole('checkbox', { name: WHATSAPP_CONSENT }));
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    await screen.findByLabelText('Código');
    expect(api.of('no-auth/online-booking/1/code')[0].body).toMatchObject({ name: 'João Silva', whatsApp: true });

    await user.click(screen.getByRole('button', { name: 'Reenviar código' }));
    await waitFor(() => expect(api.of('no-auth/online-booking/1/code')).toHaveLength(2));
    expect(api.of('no-auth/online-booking/1/code')[1].body).toMatchObject({ whatsApp: true });

    // The verification expires: the details come back, the consent still ticked.
    await user.type(screen.getByLabelText('Código'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirmar agendamento' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Sua verificação expirou. Peça um novo código.');
    expect((screen.getByRole('checkbox', { name: WHATSAPP_CONSENT }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    await waitFor(() => expect(api.of('no-auth/online-booking/1/code')).toHaveLength(3));
    expect(api.of('no-auth/online-booking/1/code')[2].body).toMatchObject({ whatsApp: true });
  });

  it('shows progress while the code is sent', async () => {
    serve();
    server.use(
      http.post(apiUrl('no-auth/online-booking/1/code'), async () => {
        await new Promise((resolve) => setTimeout(resolve, 80));
        return HttpResponse.json({ RequestId: 'req-1', message: 'Enviamos um código de 6 dígitos para o seu e-mail.' });
      }),
    );
    const user = userEvent.setup();
    renderApp('/agendar/1');
    await chooseCorteAt(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Receber código' }));
    const busy = await screen.findByRole('button', { name: 'Enviando…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(await screen.findByLabelText('Código')).toBeTruthy();
  });
});
