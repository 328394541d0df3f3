import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { subscriberAsOfUrl, subscriberFilterUrl } from './subscribersApi';
import type { SubscriberListItem, SubscriptionDetail, TimelineEntry } from './types';

const nbsp = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

const row: SubscriberListItem = {
  IdSubscriptionUser: 7,
  IdSubscriptionDetail: 2,
  PlanName: 'Clube Ouro',
  PlanValue: 89.9,
  InternalStatus: 'PENDING_PAYMENT',
  Status: 'active',
  CreatedAt: '2026-11-23T17:00:00Z',
  User: { IdUser: 11, Name: 'João Conceição', Phone: '11987650100' },
};

const charge = {
  IdSubscriptionUserTransaction: 3,
  Installment: 1,
  GalaxPayId: 3,
  Value: 89.9,
  Payday: '2026-11-23',
  PaydayDate: '2026-11-23',
  Status: 'payedBoleto',
  StatusDescription: 'Pago',
  CardNumber: null,
  CardBrand: null,
  CardExpiresAt: null,
  BoletoPdf: 'https://sim/boleto/3.pdf',
  PixLink: 'https://sim/pix/3',
  CreatedAt: '2026-11-23T14:00:00',
  UpdatedAt: '2026-11-23T14:10:00',
};

const present: SubscriptionDetail = {
  IdSubscriptionUser: 7,
  GalaxPayId: 2,
  IdSubscriptionDetail: 2,
  PlanName: 'Clube Ouro',
  PlanValue: 89.9,
  ValidityStart: '2026-01-01',
  ValidityEnd: '2030-12-31',
  InternalStatus: 'ACTIVE',
  Status: 'active',
  StatusDescription: 'Ativa',
  MyId: '7',
  FirstPayDayDate: '2026-11-23',
  CreatedAt: '2026-11-23T17:00:00Z',
  Quantity: 12,
  Periodicity: 'monthly',
  MainPaymentMethodId: 'boleto',
  CancellationRequested: false,
  AmountReceived: 89.9,
  AmountToReceive: 0,
  User: { IdUser: 11, Name: 'João Conceição', Email: 'joao@exemplo.com', Cpf: '30000000035', Phone: '11987650100', BirthDate: '1970-01-05' },
  Transactions: [charge],
};

const before: SubscriptionDetail = {
  ...present,
  InternalStatus: 'PENDING_PAYMENT',
  AmountReceived: 0,
  AmountToReceive: 89.9,
  Transactions: [{ ...charge, Status: 'pendingBoleto' }],
  AsOf: '2026-11-23T17:00:00.5Z',
};

const timeline: TimelineEntry[] = [
  {
    Sequence: 2,
    At: '2026-11-23T17:00:00.5Z',
    Event: 'ProviderReported',
    Reason: 'checkout',
    Source: null,
    UserName: 'Checkout de João Conceição',
    Changes: [{ Field: 'Status', From: null, To: 'active' }],
    Charges: [{ GalaxPayId: 3, Installment: 1, Value: 89.9, From: null, To: 'pendingBoleto' }],
    InternalStatus: 'PENDING_PAYMENT',
    Status: 'active',
    AmountReceived: 0,
    AmountToReceive: 89.9,
  },
  {
    Sequence: 3,
    At: '2026-11-23T17:10:00Z',
    Event: 'ProviderReported',
    Reason: 'webhook',
    Source: { WebhookId: 1, WebhookEvent: 'transaction.updateStatus' },
    UserName: null,
    Changes: [{ Field: 'InternalStatus', From: 'PENDING_PAYMENT', To: 'ACTIVE' }],
    Charges: [{ GalaxPayId: 3, Installment: 1, Value: 89.9, From: 'pendingBoleto', To: 'payedBoleto' }],
    InternalStatus: 'ACTIVE',
    Status: 'active',
    AmountReceived: 89.9,
    AmountToReceive: 0,
  },
];

function subscribersServer() {
  const state = { calls: [] as string[], canceled: false };
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('subscription-details/all'), () =>
      HttpResponse.json([{ IdSubscriptionDetail: 2, PlanName: 'Clube Ouro' }]),
    ),
    http.get(apiUrl('subscription-user'), ({ request }) => {
      state.calls.push(`GET ${new URL(request.url).search}`);
      return HttpResponse.json({ content: [row], total: 1, count: 1 });
    }),
    http.post(apiUrl('subscription-user/:id/reminder'), () => {
      state.calls.push('POST reminder');
      return HttpResponse.json({ message: 'Not Found' }, { status: 404 });
    }),
    http.get(apiUrl('subscription-user/:id/timeline'), () => HttpResponse.json(timeline)),
    http.get(apiUrl('subscription-user/:id/updateData'), () => HttpResponse.json({ IdSubscriptionUser: 7, Changed: false })),
    http.get(apiUrl('subscription-user/:id'), ({ request }) => {
      const asOf = new URL(request.url).searchParams.get('asOf');
      if (asOf) state.calls.push(`asOf ${asOf}`);
      if (asOf === '2020-01-01T10:00') return HttpResponse.json({ message: 'Assinatura não encontrada.' }, { status: 404 });
      if (asOf) return HttpResponse.json(before);
      return HttpResponse.json(state.canceled ? { ...present, CancellationRequested: true, InternalStatus: 'CANCELED' } : present);
    }),
    http.delete(apiUrl('subscription-user/:id'), () => {
      state.canceled = true;
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

describe('subscribers calls', () => {
  it('sends the filters the server reads', () => {
    expect(
      subscriberFilterUrl({ page: 2, pageSize: 5, description: ' joão ', idSubscriptionDetail: 0, internalStatus: '' }),
    ).toBe('subscription-user?page=2&pageSize=5&idSubscriptionDetail=0&description=jo%C3%A3o');
    expect(subscriberAsOfUrl(7, '2026-11-23T17:00:00.5Z')).toBe('subscription-user/7?asOf=2026-11-23T17%3A00%3A00.5Z');
  });
});

describe('subscribers screens', () => {
  it('lists subscribers with WhatsApp and a reminder whose failure shows nothing', async () => {
    const user = userEvent.setup();
    const state = subscribersServer();
    renderApp('/dashboard/subscription-user-detail-list', { session: signedInSession('ADMIN') });
    const table = await screen.findByRole('table', { name: 'Assinantes' });
    const line = (await within(table).findByText('João Conceição')).closest('tr')!;
    expect(nbsp(line.textContent)).toContain('R$ 89,90');
    expect(line.textContent).toContain('Pagamento pendente');
    expect(within(line).getByRole('link', { name: '(11) 98765-0100' }).getAttribute('href')).toBe('https://wa.me/5511987650100');
    const reminder = within(line).getByRole('link', { name: 'Lembrar João Conceição do pagamento' });
    const href = decodeURIComponent(reminder.getAttribute('href')!);
    expect(href).toMatch(/^https:\/\/wa\.me\/5511987650100\?text=Olá, João!/);
    expect(href).toContain('plano Clube Ouro está pendente');
    reminder.addEventListener('click', (event) => event.preventDefault());
    await user.click(reminder);
    await waitFor(() => expect(state.calls).toContain('POST reminder'));
    expect(screen.queryByRole('alert')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Plano'), 'Clube Ouro');
    await user.selectOptions(screen.getByLabelText('Status'), 'Ativo');
    await user.type(screen.getByLabelText('Busque por nome, e-mail, CPF ou telefone'), 'joao{Enter}');
    await waitFor(() =>
      expect(state.calls).toContain('GET ?page=1&pageSize=5&internalStatus=ACTIVE&idSubscriptionDetail=2&description=joao'),
    );
  });

  it('an ADMIN views the state before a payment, and comes back to the present', async () => {
    const user = userEvent.setup();
    const state = subscribersServer();
    renderApp('/dashboard/subscription-user-detail-form/7', { session: signedInSession('ADMIN') });
    expect(nbsp((await screen.findByLabelText('Valor recebido')).textContent)).toContain('R$ 89,90');
    await user.click(screen.getByRole('tab', { name: 'Histórico' }));
    const history = await screen.findByRole('list', { name: 'Histórico da assinatura' });
    const entries = within(history).getAllByRole('button');
    // Newest first.
    expect(entries[0].textContent).toContain('Pagamento recebido');
    expect(entries[1].textContent).toContain('Cobrança criada');
    await user.click(entries[1]);

    expect((await screen.findByRole('status')).textContent).toContain('Visualizando como estava em 23/11/2026 14:00:00');
    await waitFor(() => expect(nbsp(screen.getByLabelText('Valor recebido').textContent)).toContain('R$ 0,00'));
    expect(state.calls).toContain('asOf 2026-11-23T17:00:00.5Z');
    expect(screen.getByRole('button', { name: 'Atualizar dados' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Cancelar assinatura' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('tab', { name: 'Cobranças' }));
    expect(screen.getByText('Boleto em aberto')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Boleto PDF da parcela 1' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pix da parcela 1' })).toBeTruthy();

    // A typed instant before the subscription existed: said in place, no toast.
    await user.click(screen.getByRole('tab', { name: 'Histórico' }));
    const input = await screen.findByLabelText('Data e hora (horário de Brasília)');
    await user.clear(input);
    await user.type(input, '2020-01-01T10:00');
    await user.click(screen.getByRole('button', { name: 'Ver' }));
    expect(await screen.findByText('Em 01/01/2020 10:00 esta assinatura ainda não existia.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Visualizando como estava em 01/01/2020 10:00');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Voltar ao presente' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(nbsp(screen.getByLabelText('Valor recebido').textContent)).toContain('R$ 89,90');
    await user.click(screen.getByRole('tab', { name: 'Cobranças' }));
    expect(screen.getByText('Boleto pago')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Boleto PDF/ })).toBeNull();
  });

  it('an ADMIN cancels after the confirmation and updates the data', async () => {
    const user = userEvent.setup();
    subscribersServer();
    renderApp('/dashboard/subscription-user-detail-form/7', { session: signedInSession('ADMIN') });
    await user.click(await screen.findByRole('button', { name: 'Atualizar dados' }));
    expect(await screen.findByText('atualizado com sucesso.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancelar assinatura' }));
    const dialog = screen.getByRole('dialog', { name: 'Atencão!' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar assinatura' }));
    expect(await screen.findByText('Cancelamento solicitado com sucesso.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancelar assinatura' })).toBeNull());
    expect(screen.getByLabelText('Status').textContent).toContain('Cancelado');
  });

  it('a BARBER_LEADE reads the detail: no plan link, no cancel, no history', async () => {
    subscribersServer();
    renderApp('/dashboard/subscription-user-detail-form/7', { session: signedInSession('BARBER_LEADE') });
    expect(await screen.findByRole('link', { name: 'Ver Cliente' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver Cliente' }).getAttribute('href')).toBe('/dashboard/client/11');
    expect(screen.queryByRole('link', { name: 'Ver Plano' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancelar assinatura' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Histórico' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Ver na GalaxPay' }).getAttribute('href')).toBe(
      'https://app.galaxpay.com.br/subscriptions/2',
    );
  });

  it('an empty charge list says so', async () => {
    const user = userEvent.setup();
    subscribersServer();
    server.use(http.get(apiUrl('subscription-user/:id'), () => HttpResponse.json({ ...present, Transactions: [] })));
    renderApp('/dashboard/subscription-user-detail-form/7', { session: signedInSession('ATTENDANT') });
    expect(await screen.findByRole('link', { name: 'Ver Plano' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Cobranças' }));
    expect(screen.getByText('Nenhuma transação encontrado')).toBeTruthy();
  });
});
