import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RoleType } from '@/api/types';
import { professionals, services } from '@/test/agendaServer';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { comandaFilterUrl } from './comandasApi';
import {
  changeOf,
  comandaFigures,
  discountPayload,
  hasPendingPix,
  isEditable,
  itemPayload,
  mayClose,
  mayOperate,
  mayRefund,
  mayReopen,
  payable,
  clubText,
  commissionLineText,
  commissionRateText,
  paymentDetail,
  paymentPayload,
  paymentValues,
  PIX_POLL_MS,
  pixStatusText,
  pixWrittenOf,
  serviceChoices,
} from './model';
import { paymentSchema } from './schema';
import type { Comanda, ComandaPayment, ComandaPix, ComandaWritten } from './types';

const ROLES: (RoleType | null)[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT', null];

describe('comanda rules', () => {
  it('shows the figures in order, as the server answers them', () => {
    const figures = comandaFigures({ Subtotal: 74.9, Discount: 4.9, Total: 70, TipsTotal: 10, Paid: 50, Pending: 0, Due: 30 });
    expect(figures.map((f) => [f.label, f.value])).toEqual([
      ['Subtotal', 74.9],
      ['Desconto', 4.9],
      ['Total', 70],
      ['Gorjetas', 10],
      ['Pago', 50],
      ['Falta pagar', 30],
    ]);
    // A Pix waiting for the client: part of what is left to pay, shown apart.
    const waiting = comandaFigures({ Subtotal: 74.9, Discount: 4.9, Total: 70, TipsTotal: 10, Paid: 50, Pending: 20, Due: 30 });
    expect(waiting.map((f) => f.label)).toEqual(['Subtotal', 'Desconto', 'Total', 'Gorjetas', 'Pago', 'Aguardando Pix', 'Falta pagar']);
    expect(waiting[5].value).toBe(20);
  });

  it('computes the change of cash in centavos, and none until the cash covers the payment', () => {
    expect(changeOf(84.9, 100)).toBe(15.1);
    expect(changeOf(0.1, 0.3)).toBe(0.2);
    expect(changeOf(84.9, 84.9)).toBe(0);
    expect(changeOf(84.9, 50)).toBeNull();
    expect(changeOf(84.9, 0)).toBeNull();
  });

  it('lets ADMIN and ATTENDANT work an open comanda; the barbers only read', () => {
    expect(ROLES.filter(mayOperate)).toEqual(['ADMIN', 'ATTENDANT']);
    expect(isEditable('ATTENDANT', { Status: 'OPEN' })).toBe(true);
    expect(isEditable('ADMIN', { Status: 'CLOSED' })).toBe(false);
    expect(isEditable('BARBER1', { Status: 'OPEN' })).toBe(false);
    expect(ROLES.filter((role) => mayReopen(role, 'CLOSED'))).toEqual(['ADMIN']);
    expect(mayReopen('ADMIN', 'OPEN')).toBe(false);
    // 'Estorno': on an open comanda only; ADMIN reopens a closed one first.
    expect(ROLES.filter((role) => mayRefund(role, 'OPEN'))).toEqual(['ADMIN', 'ATTENDANT']);
    expect(ROLES.filter((role) => mayRefund(role, 'CLOSED'))).toEqual([]);
    expect(ROLES.filter((role) => mayRefund(role, 'CANCELED'))).toEqual([]);
  });

  it('closes only an open comanda with items, nothing left to pay and no Pix waiting', () => {
    const item = [{}] as Comanda['Items'];
    const none = { Pending: 0, PixCharges: [] };
    expect(mayClose({ Status: 'OPEN', Due: 0, Items: item, ...none })).toBe(true);
    expect(mayClose({ Status: 'OPEN', Due: 0.01, Items: item, ...none })).toBe(false);
    expect(mayClose({ Status: 'OPEN', Due: 0, Items: [], ...none })).toBe(false);
    expect(mayClose({ Status: 'CLOSED', Due: 0, Items: item, ...none })).toBe(false);
    const waiting = { Pending: 0, PixCharges: [pixCharge({ Status: 'PENDING' })] };
    expect(mayClose({ Status: 'OPEN', Due: 0, Items: item, ...waiting })).toBe(false);
    expect(mayClose({ Status: 'OPEN', Due: 0, Items: item, Pending: 0, PixCharges: [pixCharge({ Status: 'FAILED' })] })).toBe(true);
  });

  it('keeps the part of a Pix waiting from other payments, and reads what a Pix payment answers', () => {
    expect(payable({ Due: 84.9, Pending: 30 })).toBe(54.9);
    expect(payable({ Due: 84.9, Pending: 84.9 })).toBe(0);
    expect(payable({ Due: 0.3, Pending: 0.1 })).toBe(0.2);
    expect(hasPendingPix({ Pending: 30, PixCharges: [] })).toBe(true);
    expect(hasPendingPix({ Pending: 0, PixCharges: [pixCharge({ Status: 'PAID' })] })).toBe(false);
    expect(['PENDING', 'PAID', 'FAILED', 'TO_REFUND'].map(pixStatusText)).toEqual([
      'Aguardando pagamento…',
      'Pix recebido',
      'Pix expirado ou recusado',
      'Pix pago após o cancelamento: devolva ao cliente.',
    ]);
    const written: ComandaWritten = { IdComanda: 12, Status: 'OPEN', Subtotal: 74.9, Discount: 0, Total: 74.9, Tips: 10, Paid: 0, Due: 84.9 };
    expect(pixWrittenOf(written)).toBeNull();
    const { GalaxPayId, PixQrCode, PixCopyPaste, PixPage } = pixCharge();
    expect(pixWrittenOf({ ...written, GalaxPayId, PixQrCode, PixCopyPaste, PixPage })).toEqual({ GalaxPayId, PixQrCode, PixCopyPaste, PixPage });
  });

  it('sends each payment method with its own details only', () => {
    const cash = { ...paymentValues('cash', 84.9), cashReceived: 100, brand: 'Visa', installments: 3 as const };
    expect(paymentPayload(cash)).toEqual({ method: 'cash', value: 84.9, cashReceived: 100 });
    expect(paymentPayload({ ...cash, cashReceived: 0 })).toEqual({ method: 'cash', value: 84.9 });
    expect(paymentPayload({ ...cash, method: 'pix' })).toEqual({ method: 'pix', value: 84.9 });
    expect(paymentPayload({ ...cash, method: 'credit' })).toEqual({ method: 'credit', value: 84.9, installments: 3 });
    expect(paymentPayload({ ...cash, method: 'debit', authorizationCode: ' 123456 ', nsu: '' })).toEqual({
      method: 'debit',
      value: 84.9,
      brand: 'Visa',
      authorizationCode: '123456',
      nsu: null,
    });
  });

  it('checks a payment before sending it', async () => {
    const errorsOf = async (values: Partial<ReturnType<typeof paymentValues>>) => {
      try {
        await paymentSchema(84.9).validate({ ...paymentValues('cash', 84.9), ...values }, { abortEarly: false });
        return {};
      } catch (failure) {
        const { inner } = failure as { inner: { path: string; message: string }[] };
        return Object.fromEntries(inner.map((error) => [error.path, error.message]));
      }
    };
    expect(await errorsOf({ cashReceived: 100 })).toEqual({});
    expect(await errorsOf({ value: 85 })).toEqual({ value: 'O pagamento passa do valor que falta (R$\u00a084,90).' });
    expect(await errorsOf({ value: 0 })).toEqual({ value: 'Informe um valor maior que zero.' });
    expect(await errorsOf({ cashReceived: 50 })).toEqual({ cashReceived: 'O valor recebido é menor que o pagamento.' });
    expect(await errorsOf({ method: 'credit', installments: 25 })).toEqual({ installments: 'Escolha de 1 a 24 parcelas.' });
    expect(await errorsOf({ method: 'debit', nsu: '1'.repeat(41) })).toEqual({ nsu: 'No máximo 40 caracteres.' });
  });

  it('sends discounts in reais or percent, and items with their own', () => {
    expect(discountPayload('value', 5)).toEqual({ value: 5 });
    expect(discountPayload('percent', 10)).toEqual({ percent: 10 });
    expect(discountPayload('percent', '')).toEqual({});
    const service = { kind: 'service' as const, id: 1, idProfessional: 4, quantity: 1 as const, discountMode: 'value' as const, discount: '' as const };
    expect(itemPayload(service)).toEqual({ kind: 'service', id: 1, idProfessional: 4, quantity: 1 });
    expect(itemPayload({ ...service, discountMode: 'percent', discount: 10 })).toMatchObject({ discountPercent: 10 });
    expect(itemPayload({ ...service, kind: 'product', idProfessional: 0, quantity: 2, discount: 3 })).toEqual({
      kind: 'product',
      id: 1,
      idProfessional: null,
      quantity: 2,
      discount: 3,
    });
  });

  it("offers a professional's own services when they can be read, else the unit's", () => {
    const offered = [
      { IdCompanyProfessionalService: 1, IdService: 1, Description: 'Corte de cabelo', Value: 50, Time: 30, Status: true, Combo: false, IntervalAfter: 0 },
      { IdCompanyProfessionalService: 2, IdService: 2, Description: 'Barba', Value: 40, Time: 30, Status: false, Combo: false, IntervalAfter: 0 },
      { IdCompanyProfessionalService: 3, IdService: 9, Description: 'Outra unidade', Value: 10, Time: 10, Status: true, Combo: false, IntervalAfter: 0 },
    ];
    expect(serviceChoices(services, offered)).toEqual([{ id: 1, label: 'Corte de cabelo', price: 50, exact: true }]);
    expect(serviceChoices(services, undefined)[0]).toEqual({ id: 2, label: 'Barba', price: 45, exact: false });
    expect(serviceChoices(undefined, offered)).toEqual([]);
  });

  it('lists by unit, day and status; describes a payment', () => {
    expect(comandaFilterUrl({ page: 1, pageSize: 5, idCompany: '1', date: '2026-11-24', status: 'OPEN' })).toBe(
      'comanda?idCompany=1&date=2026-11-24&status=OPEN&page=1&pageSize=5',
    );
    expect(comandaFilterUrl({ page: 2, pageSize: 5, idCompany: '', date: '', status: '' })).toBe('comanda?page=2&pageSize=5');
    const payment: ComandaPayment = { IdPayment: 1, Method: 'debit', Value: 30, Brand: 'Visa', AuthorizationCode: 'A1', Nsu: '99' };
    expect(paymentDetail(payment)).toBe('Visa · Aut. A1 · NSU 99');
    expect(paymentDetail({ IdPayment: 2, Method: 'cash', Value: 84.9, CashReceived: 100, Change: 15.1 })).toBe(
      'Recebido R$\u00a0100,00 · Troco R$\u00a015,10',
    );
  });

  it("names a line's club cover, and the line the club's payment covers", () => {
    const club = { IdSubscriptionUser: 5, IdSubscriptionDetail: 1, PlanName: 'Clube Navalha', Percent: 50, Covered: 17.5 };
    const beard = { IdItem: 2, Kind: 'service', Id: 2, Description: 'Barba', IdProfessional: 4, Quantity: 1, UnitPrice: 35, Discount: 0, Total: 35, Club: club };
    expect(clubText(beard)).toBe('Clube Navalha −50% · R$\u00a017,50 pela assinatura');
    expect(clubText({ ...beard, Club: null })).toBeNull();
    expect(paymentDetail({ IdPayment: 1, Method: 'subscription', Value: 17.5, IdItem: 2 }, [beard])).toBe('Clube Navalha: Barba');
  });

  it("describes a commission's line by its item and the rate in force at the close", () => {
    expect(commissionRateText({ Percent: 40, Fixed: null })).toBe('40%');
    expect(commissionRateText({ Percent: 12.5 })).toBe('12,5%');
    expect(commissionRateText({ Percent: null, Fixed: 30 })).toBe('R$\u00a030,00 fixo');
    expect(commissionRateText({ Percent: 0, Fixed: null })).toBe('0%');
    const items = [{ IdItem: 1, Description: 'Corte de cabelo' }];
    expect(commissionLineText(items, { IdItem: 1 })).toBe('Corte de cabelo');
    expect(commissionLineText(items, { IdItem: 7 })).toBe('Item N.º 7');
  });
});

// --- The screens, against a small in-memory comanda. -------------------------------------

const open: Comanda = {
  IdComanda: 12,
  IdCompany: 1,
  IdScheduling: null,
  IdUser: null,
  Status: 'OPEN',
  Items: [
    { IdItem: 1, Kind: 'service', Id: 1, Description: 'Corte de cabelo', IdProfessional: 4, Quantity: 1, UnitPrice: 45, Discount: 0, Total: 45 },
    { IdItem: 2, Kind: 'product', Id: 3, Description: 'Pomada modeladora', IdProfessional: null, Quantity: 1, UnitPrice: 29.9, Discount: 0, Total: 29.9 },
  ],
  Tips: [{ IdTip: 1, IdProfessional: 4, Value: 10 }],
  Payments: [],
  Subtotal: 74.9,
  Discount: 0,
  Total: 74.9,
  TipsTotal: 10,
  Paid: 0,
  Pending: 0,
  PixCharges: [],
  Commissions: [],
  Due: 84.9,
};

const SIM = 'https://sim.test';

/** A Pix charge as GET comanda/{id} lists it. */
function pixCharge(extra: Partial<ComandaPix> = {}): ComandaPix {
  const id = extra.GalaxPayId ?? 9001;
  return {
    IdPayment: 2,
    GalaxPayId: id,
    Value: 84.9,
    Status: 'PENDING',
    PixQrCode: `${SIM}/pix/${id}/qr.svg`,
    PixCopyPaste: `00020101021226440014br.gov.bcb.pix0122sim.test/pix/${id}5204000053039865802BR6304ABCD`,
    PixPage: `${SIM}/pix/${id}`,
    ...extra,
  };
}

const cents = (reais: number) => Math.round(reais * 100);

const figures = (comanda: Comanda, extra: object = {}) => ({
  IdComanda: comanda.IdComanda,
  Status: comanda.Status,
  Subtotal: comanda.Subtotal,
  Discount: comanda.Discount,
  Total: comanda.Total,
  Tips: comanda.TipsTotal,
  Paid: comanda.Paid,
  Due: comanda.Due,
  ...extra,
});

interface ServerOptions {
  /** Every payment refused: no caixa open in the unit (422 on `method`). */
  noCaixa?: boolean;
  /** The payment provider cannot be reached (503 on a Pix). */
  providerDown?: boolean;
}

function comandaServer(start: Comanda = open, options: ServerOptions = {}) {
  const state = {
    comanda: structuredClone(start),
    writes: [] as { method: string; path: string; body: unknown; key: string | null }[],
    /** GET comanda/{id} calls, to see it polled. */
    reads: 0,
    /** The open live-change streams (GET /api/changes). */
    streams: new Set<ReadableStreamDefaultController<Uint8Array>>(),
  };
  const encoder = new TextEncoder();
  const record = async (request: Request) => {
    const text = await request.text();
    state.writes.push({
      method: request.method,
      path: new URL(request.url).pathname,
      body: text ? JSON.parse(text) : null,
      key: request.headers.get('Idempotency-Key'),
    });
    return text ? JSON.parse(text) : null;
  };
  server.use(
    http.get(apiUrl('changes'), ({ request }) => {
      let opened: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          opened = controller;
          state.streams.add(controller);
          controller.enqueue(encoder.encode('event: ready\ndata: {}\n\n'));
        },
        cancel() {
          state.streams.delete(opened);
        },
      });
      request.signal.addEventListener('abort', () => state.streams.delete(opened));
      return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
    }),
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('business'), () => HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: 'ACTIVE' })),
    http.get(apiUrl('professional/company/:id'), () => HttpResponse.json(professionals)),
    http.get(apiUrl('service/company/:id'), () => HttpResponse.json(services)),
    http.get(apiUrl('professional-service/professional/:id'), () =>
      HttpResponse.json([{ IdCompanyProfessionalService: 1, IdService: 1, Description: 'Corte de cabelo', Value: 50, Time: 30, Status: true, Combo: false }]),
    ),
    http.get(apiUrl('comanda'), () =>
      HttpResponse.json({
        content: [{ IdComanda: 12, IdCompany: 1, OpenedOn: '2026-11-24', Status: state.comanda.Status, Total: 74.9, Paid: 0 }],
        total: 1,
        count: 1,
      }),
    ),
    http.get(apiUrl('comanda/:id'), () => {
      state.reads += 1;
      return HttpResponse.json(state.comanda);
    }),
    http.get(apiUrl('comanda/:id/history'), () =>
      HttpResponse.json([
        {
          Sequence: 1,
          At: '2026-11-24T13:00:00Z',
          UserId: 2,
          UserName: 'Beatriz Atendente',
          Role: 'ATTENDANT',
          Event: 'ComandaOpened',
          Changes: [{ Field: 'company_id', From: null, To: 1 }],
        },
        {
          Sequence: 2,
          At: '2026-11-24T13:05:00Z',
          UserId: 1,
          UserName: 'Ana Administradora',
          Role: 'ADMIN',
          Event: 'ComandaReopened',
          Changes: [{ Field: 'reason', From: null, To: 'Cobrança em dobro' }],
        },
      ]),
    ),
    http.post(apiUrl('comanda'), async ({ request }) => {
      await record(request);
      return HttpResponse.json({ IdComanda: 12 }, { status: 201 });
    }),
    http.post(apiUrl('comanda/:id/items'), async ({ request }) => {
      await record(request);
      return HttpResponse.json(figures(state.comanda));
    }),
    http.post(apiUrl('comanda/:id/payments'), async ({ request }) => {
      const body = (await record(request)) as { method: string; value: number; cashReceived?: number };
      if (options.noCaixa) {
        return HttpResponse.json(
          { message: 'Abra o caixa da unidade antes de receber pagamentos.', errors: { method: 'Abra o caixa da unidade antes de receber pagamentos.' } },
          { status: 422 },
        );
      }
      if (body.method === 'pix') {
        if (options.providerDown) {
          return HttpResponse.json({ message: 'Não foi possível gerar o Pix agora. Tente de novo em instantes.' }, { status: 503 });
        }
        // A charge at the provider: waiting, not paid.
        const charge = pixCharge({ GalaxPayId: 9000 + state.comanda.PixCharges.length + 1, Value: body.value });
        state.comanda.PixCharges.push(charge);
        state.comanda.Pending = (cents(state.comanda.Pending) + cents(body.value)) / 100;
        const { GalaxPayId, PixQrCode, PixCopyPaste, PixPage } = charge;
        return HttpResponse.json(figures(state.comanda, { GalaxPayId, PixQrCode, PixCopyPaste, PixPage }));
      }
      const change = body.cashReceived ? Math.round((body.cashReceived - body.value) * 100) / 100 : null;
      state.comanda.Payments.push({ IdPayment: 1, Method: body.method, Value: body.value, CashReceived: body.cashReceived ?? null, Change: change });
      state.comanda.Paid = body.value;
      state.comanda.Due = Math.round((state.comanda.Due - body.value) * 100) / 100;
      return HttpResponse.json(figures(state.comanda, { Change: change }));
    }),
    http.post(apiUrl('comanda/:id/close'), async ({ request }) => {
      await record(request);
      state.comanda.Status = 'CLOSED';
      return HttpResponse.json(figures(state.comanda));
    }),
    http.post(apiUrl('comanda/:id/reopen'), async ({ request }) => {
      await record(request);
      state.comanda.Status = 'OPEN';
      return HttpResponse.json(figures(state.comanda));
    }),
    http.post(apiUrl('comanda/:id/payments/:idPayment/refund'), async ({ request }) => {
      await record(request);
      state.comanda.Payments = [];
      state.comanda.Paid = 0;
      state.comanda.Due = 84.9;
      return HttpResponse.json(figures(state.comanda));
    }),
  );
  return state;
}

type Server = ReturnType<typeof comandaServer>;

/** The provider's word on a Pix, as the webhook records it: paid (a payment), or failed. */
function settlePix(state: Server, galaxPayId: number, status: 'PAID' | 'FAILED') {
  const comanda = state.comanda;
  const charge = comanda.PixCharges.find((c) => c.GalaxPayId === galaxPayId)!;
  charge.Status = status;
  comanda.Pending = (cents(comanda.Pending) - cents(charge.Value)) / 100;
  if (status === 'PAID') {
    comanda.Payments.push({ IdPayment: charge.IdPayment, Method: 'pix', Value: charge.Value });
    comanda.Paid = (cents(comanda.Paid) + cents(charge.Value)) / 100;
    comanda.Due = (cents(comanda.Due) - cents(charge.Value)) / 100;
  }
}

/** The comanda read model changed: what GET /api/changes tells the open screens. */
function announceChange(state: Server) {
  const event = new TextEncoder().encode('event: change\ndata: {"model":"comanda"}\n\n');
  for (const stream of state.streams) stream.enqueue(event);
}

const figureOf = (label: string) => {
  const totals = screen.getByRole('region', { name: 'Totais' });
  return within(totals).getByText(label).closest('div')!.querySelector('dd')!.textContent;
};

describe('comanda screens', () => {
  it('takes a cash payment with change, then closes the comanda', async () => {
    const user = userEvent.setup();
    const state = comandaServer();
    renderApp('/dashboard/comanda/12', { session: signedInSession('ATTENDANT') });
    expect(await screen.findByRole('heading', { name: 'Comanda N.º 12' })).toBeTruthy();
    expect(screen.getByText('Cliente avulso')).toBeTruthy();
    expect(await screen.findAllByText('Diego Barbeiro')).toHaveLength(2);
    expect(figureOf('Subtotal')).toBe('R$\u00a074,90');
    expect(figureOf('Gorjetas')).toBe('R$\u00a010,00');
    expect(figureOf('Falta pagar')).toBe('R$\u00a084,90');
    const bar = screen.getByRole('region', { name: 'Resumo da comanda' });
    expect(within(bar).getByText('R$ 84,90')).toBeTruthy();
    expect((within(bar).getByRole('button', { name: 'Fechar comanda' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(screen.getByRole('group', { name: 'Receber' })).getByRole('button', { name: 'Dinheiro' }));
    const dialog = screen.getByRole('dialog', { name: 'Receber pagamento' });
    expect((within(dialog).getByLabelText('Valor') as HTMLInputElement).value).toBe('R$\u00a084,90');
    await user.type(within(dialog).getByLabelText('Valor recebido'), '10000');
    expect(within(dialog).getByText('R$ 15,10')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Registrar pagamento' }));

    const change = await screen.findByRole('dialog', { name: 'Troco' });
    expect(within(change).getByRole('status').textContent).toBe('Troco: R$\u00a015,10');
    expect(state.writes[0]).toMatchObject({ method: 'POST', path: '/api/comanda/12/payments', body: { method: 'cash', value: 84.9, cashReceived: 100 } });
    expect(state.writes[0].key).toBeTruthy();
    expect(await screen.findByText('Pagamento registrado.')).toBeTruthy();
    await user.click(within(change).getByRole('button', { name: 'Concluir' }));

    await waitFor(() => expect(figureOf('Falta pagar')).toBe('R$\u00a00,00'));
    expect(within(screen.getByRole('list', { name: 'Pagamentos' })).getByText('Dinheiro')).toBeTruthy();
    const close = within(bar).getByRole('button', { name: 'Fechar comanda' });
    await waitFor(() => expect((close as HTMLButtonElement).disabled).toBe(false));
    await user.click(close);
    expect(await screen.findByText('Comanda fechada.')).toBeTruthy();
    expect(state.writes[1]).toMatchObject({ method: 'POST', path: '/api/comanda/12/close' });
    expect(await screen.findByText('Fechada')).toBeTruthy();
    // Closed: nothing changes any more, and an ATTENDANT neither reopens nor refunds it.
    expect(screen.queryByRole('button', { name: 'Adicionar serviço' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Estorno/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reabrir' })).toBeNull();
  });

  it("puts the server's 422 on the payment's field", async () => {
    const user = userEvent.setup();
    comandaServer(open, { noCaixa: true });
    renderApp('/dashboard/comanda/12', { session: signedInSession('ADMIN') });
    await user.click(await screen.findByRole('button', { name: 'Pix' }));
    const dialog = screen.getByRole('dialog', { name: 'Receber pagamento' });
    await user.click(within(dialog).getByRole('button', { name: 'Registrar pagamento' }));
    expect(await within(dialog).findByText('Abra o caixa da unidade antes de receber pagamentos.')).toBeTruthy();
  });

  it("adds a service of a professional's at their price (ADMIN reads it)", async () => {
    const user = userEvent.setup();
    const state = comandaServer();
    renderApp('/dashboard/comanda/12', { session: signedInSession('ADMIN') });
    await user.click(await screen.findByRole('button', { name: 'Adicionar serviço' }));
    const dialog = screen.getByRole('dialog', { name: 'Adicionar serviço' });
    await user.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Escolha o profissional.')).toBeTruthy();
    await user.selectOptions(within(dialog).getByLabelText('Profissional'), 'Diego Barbeiro');
    // Diego's own price (ADMIN reads a professional's services).
    const corte = await within(dialog).findByRole('option', { name: /^Corte de cabelo · R\$\s50,00$/ });
    await user.selectOptions(within(dialog).getByLabelText('Serviço'), corte);
    await user.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Item adicionado.')).toBeTruthy();
    expect(state.writes[0]).toMatchObject({
      path: '/api/comanda/12/items',
      body: { kind: 'service', id: 1, idProfessional: 4, quantity: 1 },
    });
  });

  it("shows ADMIN the comanda's history, and no one else", async () => {
    comandaServer();
    const { unmount } = renderApp('/dashboard/comanda/12', { session: signedInSession('ADMIN') });
    const history = await screen.findByRole('list', { name: 'Histórico da comanda N.º 12' });
    const entries = within(history).getAllByRole('listitem');
    expect(entries.map((entry) => entry.querySelector('.history-title')!.textContent)).toEqual(['Comanda reaberta', 'Comanda aberta']);
    expect(within(entries[0]).getByText('Motivo: Cobrança em dobro')).toBeTruthy();
    expect(within(entries[1]).getByText('Navalha Centro')).toBeTruthy();
    unmount();

    renderApp('/dashboard/comanda/12', { session: signedInSession('ATTENDANT') });
    expect(await screen.findByRole('heading', { name: 'Comanda N.º 12' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Histórico' })).toBeNull();
  });

  it('a barber reads the comanda: no action', async () => {
    comandaServer();
    renderApp('/dashboard/comanda/12', { session: signedInSession('BARBER1') });
    expect(await screen.findByText('Corte de cabelo')).toBeTruthy();
    for (const name of ['Adicionar serviço', 'Adicionar produto', 'Adicionar gorjeta', 'Dinheiro', 'Fechar comanda', 'Cancelar comanda', 'Alterar desconto']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.queryByRole('button', { name: /^Remover/ })).toBeNull();
  });

  it('ADMIN reopens a closed comanda with the reason, then refunds a payment', async () => {
    const user = userEvent.setup();
    const paid: Comanda = {
      ...open,
      Status: 'CLOSED',
      Payments: [{ IdPayment: 7, Method: 'credit', Value: 84.9, Installments: 2 }],
      Paid: 84.9,
      Due: 0,
    };
    const state = comandaServer(paid);
    renderApp('/dashboard/comanda/12', { session: signedInSession('ADMIN') });
    expect(await screen.findByText('2x')).toBeTruthy();
    // Closed: no refund until it is reopened.
    expect(screen.queryByRole('button', { name: /^Estorno/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reabrir' }));
    const reopen = screen.getByRole('dialog', { name: 'Reabrir comanda' });
    await user.click(within(reopen).getByRole('button', { name: 'Reabrir' }));
    expect(await within(reopen).findByText('Informe o motivo.')).toBeTruthy();
    await user.type(within(reopen).getByLabelText('Motivo'), 'Cobrança em dobro');
    await user.click(within(reopen).getByRole('button', { name: 'Reabrir' }));
    expect(await screen.findByText('Comanda reaberta.')).toBeTruthy();
    expect(state.writes[0]).toMatchObject({ path: '/api/comanda/12/reopen', body: { reason: 'Cobrança em dobro' } });

    await user.click(await screen.findByRole('button', { name: /^Estorno de Cartão de crédito/ }));
    const refund = screen.getByRole('dialog', { name: 'Estorno' });
    await user.type(within(refund).getByLabelText('Motivo'), 'Cobrança em dobro');
    await user.click(within(refund).getByRole('button', { name: 'Estornar' }));
    expect(await screen.findByText('Pagamento estornado.')).toBeTruthy();
    expect(state.writes[1]).toMatchObject({ path: '/api/comanda/12/payments/7/refund', body: { reason: 'Cobrança em dobro' } });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Pagamentos' })).toBeNull());
  });

  it('shows what a closed comanda earned each professional, and nothing while it is open', async () => {
    const closed: Comanda = {
      ...open,
      Status: 'CLOSED',
      Payments: [{ IdPayment: 7, Method: 'cash', Value: 84.9 }],
      Paid: 84.9,
      Due: 0,
      Commissions: [
        {
          IdProfessional: 4,
          Commission: 18,
          CardFees: 0,
          Tips: 10,
          Lines: [{ IdItem: 1, Value: 45, Percent: 40, Fixed: null, Commission: 18, CardFee: 0, Club: false }],
        },
        {
          IdProfessional: 5,
          Commission: 30,
          CardFees: 0,
          Tips: 0,
          Lines: [{ IdItem: 2, Value: 29.9, Percent: null, Fixed: 30, Commission: 30, CardFee: 0, Club: false }],
        },
      ],
    };
    comandaServer(closed);
    const { unmount } = renderApp('/dashboard/comanda/12', { session: signedInSession('ADMIN') });
    const section = await screen.findByRole('region', { name: 'Comissões' });
    const earnings = within(section).getAllByRole('listitem').filter((item) => item.classList.contains('comanda-commission'));
    expect(earnings).toHaveLength(2);
    // Named once the unit's professionals are read.
    expect(await within(earnings[0]).findByText('Diego Barbeiro')).toBeTruthy();
    const figure = (scope: HTMLElement, label: string) => within(scope).getByText(label).closest('div')!.querySelector('dd')!.textContent;
    expect(figure(earnings[0], 'Comissão')).toBe('R$\u00a018,00');
    expect(figure(earnings[0], 'Gorjetas')).toBe('R$\u00a010,00');
    const diego = within(earnings[0]).getByRole('list', { name: 'Comissão de Diego Barbeiro' });
    expect(within(diego).getByRole('listitem').textContent).toBe('Corte de cabelo40%R$\u00a018,00');
    expect(within(earnings[1]).getByText('Eduardo Barbeiro')).toBeTruthy();
    const eduardo = within(earnings[1]).getByRole('list', { name: 'Comissão de Eduardo Barbeiro' });
    expect(within(eduardo).getByText('Pomada modeladora')).toBeTruthy();
    expect(within(eduardo).getByText('R$ 30,00 fixo')).toBeTruthy();
    unmount();

    // Open (nothing earned yet): no section.
    comandaServer(open);
    renderApp('/dashboard/comanda/12', { session: signedInSession('ADMIN') });
    expect(await screen.findByRole('heading', { name: 'Comanda N.º 12' })).toBeTruthy();
    expect(await screen.findAllByText('Diego Barbeiro')).toHaveLength(2);
    expect(screen.queryByRole('region', { name: 'Comissões' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Comissões' })).toBeNull();
  });

  it('lists comandas and opens a walk-in', async () => {
    const user = userEvent.setup();
    const state = comandaServer();
    const { router } = renderApp('/dashboard/comanda', { session: signedInSession('ATTENDANT') });
    const table = await screen.findByRole('table', { name: 'Comandas' });
    const row = (await within(table).findByText('Navalha Centro')).closest('tr')!;
    expect(within(row).getByText('24/11/2026')).toBeTruthy();
    expect(within(row).getByText('Aberta')).toBeTruthy();
    expect(within(row).getByText('R$ 74,90')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Nova comanda' }));
    const dialog = screen.getByRole('dialog', { name: 'Nova comanda' });
    expect(within(dialog).getByText('Cliente avulso')).toBeTruthy();
    await user.selectOptions(within(dialog).getByLabelText('Unidade'), 'Navalha Centro');
    await user.click(within(dialog).getByRole('button', { name: 'Abrir comanda' }));
    expect(await screen.findByText('Comanda aberta.')).toBeTruthy();
    expect(state.writes[0]).toMatchObject({ path: '/api/comanda', body: { idCompany: 1, idUser: null } });
    expect(state.writes[0].key).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/comanda/12'));
  });

  it('a barber lists comandas but opens none', async () => {
    comandaServer();
    renderApp('/dashboard/comanda', { session: signedInSession('BARBER2') });
    expect(await screen.findByRole('table', { name: 'Comandas' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nova comanda' })).toBeNull();
  });
});

// --- Pix at the counter (docs/money.md 'Pix at the counter'). ---------------------------

const pixPanel = () => screen.getByRole('dialog', { name: 'Pagamento por Pix' });
const closeButton = () =>
  within(screen.getByRole('region', { name: 'Resumo da comanda' })).getByRole('button', { name: 'Fechar comanda' }) as HTMLButtonElement;
const CLOSE_BLOCKED = 'Há um Pix aguardando pagamento: espere o cliente pagar ou a cobrança expirar.';

describe('Pix at the counter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the QR code and the code to copy, and turns paid when the client pays', async () => {
    const user = userEvent.setup();
    const state = comandaServer();
    renderApp('/dashboard/comanda/12', { session: signedInSession('ATTENDANT') });
    await user.click(within(await screen.findByRole('group', { name: 'Receber' })).getByRole('button', { name: 'Pix' }));
    const form = screen.getByRole('dialog', { name: 'Receber pagamento' });
    expect((within(form).getByLabelText('Valor') as HTMLInputElement).value).toBe('R$\u00a084,90');
    await user.click(within(form).getByRole('button', { name: 'Registrar pagamento' }));

    const panel = await screen.findByRole('dialog', { name: 'Pagamento por Pix' });
    expect(state.writes[0]).toMatchObject({ path: '/api/comanda/12/payments', body: { method: 'pix', value: 84.9 } });
    expect(state.writes[0].key).toBeTruthy();
    // Not paid yet: no 'Pagamento registrado.'.
    expect(screen.queryByText('Pagamento registrado.')).toBeNull();
    expect(panel.querySelector<HTMLElement>('[data-galaxpay-id]')!.dataset.galaxpayId).toBe('9001');
    expect(within(panel).getByRole('status').textContent).toBe('Aguardando pagamento…');
    expect(within(panel).getByText('R$ 84,90')).toBeTruthy();
    const qr = within(panel).getByRole('img', { name: 'QR Code do Pix' }) as HTMLImageElement;
    expect(qr.getAttribute('src')).toBe(`${SIM}/pix/9001/qr.svg`);
    expect(qr.width).toBe(240);
    const code = within(panel).getByLabelText('Pix copia e cola') as HTMLTextAreaElement;
    expect(code.readOnly).toBe(true);
    expect(code.value).toBe(pixCharge().PixCopyPaste);
    await user.click(within(panel).getByRole('button', { name: 'Copiar' }));
    expect(await screen.findByText('Código copiado')).toBeTruthy();
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe(code.value);
    const page = within(panel).getByRole('link', { name: 'Abrir no celular do cliente' });
    expect(page.getAttribute('href')).toBe(`${SIM}/pix/9001`);
    expect(page.getAttribute('target')).toBe('_blank');

    // Waiting: the totals say so, nothing else may be taken, and the comanda does not close.
    await waitFor(() => expect(figureOf('Aguardando Pix')).toBe('R$\u00a084,90'));
    expect(screen.queryByRole('group', { name: 'Receber' })).toBeNull();
    expect(closeButton().disabled).toBe(true);
    expect(screen.getByText(CLOSE_BLOCKED).id).toBe(closeButton().getAttribute('aria-describedby'));

    // The provider's webhook made it a payment; the live notice reads the comanda again.
    settlePix(state, 9001, 'PAID');
    announceChange(state);
    await waitFor(() => expect(within(pixPanel()).getByRole('status').textContent).toBe('Pix recebido'));
    // The status line and the toast.
    expect(await screen.findAllByText('Pix recebido')).toHaveLength(2);
    expect(within(pixPanel()).queryByRole('img', { name: 'QR Code do Pix' })).toBeNull();
    expect(figureOf('Falta pagar')).toBe('R$\u00a00,00');
    expect(screen.queryByText('Aguardando Pix')).toBeNull();
    expect(screen.queryByText(CLOSE_BLOCKED)).toBeNull();
    expect(closeButton().disabled).toBe(false);
    await user.click(within(pixPanel()).getByRole('button', { name: 'Concluir' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Pagamentos' })).getByText('Pix')).toBeTruthy();
  });

  it('says when the Pix expired or was refused, and lets the desk take the rest another way', async () => {
    const user = userEvent.setup();
    const state = comandaServer();
    renderApp('/dashboard/comanda/12', { session: signedInSession('ADMIN') });
    await user.click(within(await screen.findByRole('group', { name: 'Receber' })).getByRole('button', { name: 'Pix' }));
    const form = screen.getByRole('dialog', { name: 'Receber pagamento' });
    const value = within(form).getByLabelText('Valor');
    await user.clear(value);
    await user.type(value, '3000');
    await user.click(within(form).getByRole('button', { name: 'Registrar pagamento' }));
    const panel = await screen.findByRole('dialog', { name: 'Pagamento por Pix' });
    expect(within(panel).getByText('R$ 30,00')).toBeTruthy();

    // Part waits: the rest may still be taken, up to what is left less the Pix.
    await waitFor(() => expect(figureOf('Aguardando Pix')).toBe('R$\u00a030,00'));
    await user.click(within(panel).getByRole('button', { name: 'Voltar à comanda' }));
    const waiting = screen.getByRole('list', { name: 'Cobranças Pix' });
    expect(within(waiting).getByText('Aguardando pagamento…')).toBeTruthy();
    await user.click(within(screen.getByRole('group', { name: 'Receber' })).getByRole('button', { name: 'Dinheiro' }));
    const cash = screen.getByRole('dialog', { name: 'Receber pagamento' });
    expect((within(cash).getByLabelText('Valor') as HTMLInputElement).value).toBe('R$\u00a054,90');
    await user.click(within(cash).getByRole('button', { name: 'Voltar' }));

    // The QR code again, from the list.
    await user.click(within(waiting).getByRole('button', { name: 'Mostrar QR Code do Pix de R$\u00a030,00' }));
    expect(within(pixPanel()).getByRole('img', { name: 'QR Code do Pix' })).toBeTruthy();

    settlePix(state, 9001, 'FAILED');
    announceChange(state);
    await waitFor(() => expect(within(pixPanel()).getByRole('status').textContent).toBe('Pix expirado ou recusado'));
    expect(within(pixPanel()).queryByRole('img', { name: 'QR Code do Pix' })).toBeNull();
    expect(screen.queryByText('Pix recebido')).toBeNull();
    await user.click(within(pixPanel()).getByRole('button', { name: 'Concluir' }));
    expect(within(screen.getByRole('list', { name: 'Cobranças Pix' })).getByText('Expirado ou recusado')).toBeTruthy();
    expect(screen.queryByText('Aguardando Pix')).toBeNull();
    expect(figureOf('Falta pagar')).toBe('R$\u00a084,90');
    expect(screen.getByRole('group', { name: 'Receber' })).toBeTruthy();
    expect(screen.queryByText(CLOSE_BLOCKED)).toBeNull();
  });

  it('reads a waiting comanda again every 5 s, should the live notice be missed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    const waiting: Comanda = { ...open, Pending: 84.9, PixCharges: [pixCharge()] };
    const state = comandaServer(waiting);
    renderApp('/dashboard/comanda/12', { session: signedInSession('ATTENDANT') });
    expect(await screen.findByText('Aguardando Pix')).toBeTruthy();
    const reads = state.reads;
    settlePix(state, 9001, 'PAID');
    await vi.advanceTimersByTimeAsync(PIX_POLL_MS);
    await waitFor(() => expect(figureOf('Falta pagar')).toBe('R$\u00a00,00'));
    expect(state.reads).toBeGreaterThan(reads);
    expect(await screen.findByText('Pix recebido')).toBeTruthy();
    // Nothing waits any more: no more reading every 5 s.
    const after = state.reads;
    await vi.advanceTimersByTimeAsync(PIX_POLL_MS * 2);
    expect(state.reads).toBe(after);
  });

  it('does not close while a Pix waits, and says why', async () => {
    const user = userEvent.setup();
    const waiting: Comanda = { ...open, Pending: 84.9, PixCharges: [pixCharge()] };
    comandaServer(waiting);
    renderApp('/dashboard/comanda/12', { session: signedInSession('ATTENDANT') });
    expect(await screen.findByText(CLOSE_BLOCKED)).toBeTruthy();
    expect(closeButton().disabled).toBe(true);
    expect(closeButton().getAttribute('aria-describedby')).toBe(screen.getByText(CLOSE_BLOCKED).id);
    expect(figureOf('Aguardando Pix')).toBe('R$\u00a084,90');
    // Everything left waits in the Pix: nothing else to take.
    expect(screen.queryByRole('group', { name: 'Receber' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Mostrar QR Code do Pix de R$\u00a084,90' }));
    expect(within(pixPanel()).getByRole('status').textContent).toBe('Aguardando pagamento…');
  });

  it("says when the provider can't be reached, and keeps the payment's form", async () => {
    const user = userEvent.setup();
    comandaServer(open, { providerDown: true });
    renderApp('/dashboard/comanda/12', { session: signedInSession('ATTENDANT') });
    await user.click(within(await screen.findByRole('group', { name: 'Receber' })).getByRole('button', { name: 'Pix' }));
    const form = screen.getByRole('dialog', { name: 'Receber pagamento' });
    await user.click(within(form).getByRole('button', { name: 'Registrar pagamento' }));
    expect(await screen.findByText('Não foi possível gerar o Pix agora. Tente de novo em instantes.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Receber pagamento' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Pagamento por Pix' })).toBeNull();
  });

  it('tells ADMIN and ATTENDANT, in red, to give back a Pix paid after the comanda was cancelled', async () => {
    const canceled: Comanda = { ...open, Status: 'CANCELED', PixCharges: [pixCharge({ Value: 30, Status: 'TO_REFUND' })] };
    comandaServer(canceled);
    const { unmount } = renderApp('/dashboard/comanda/12', { session: signedInSession('ATTENDANT') });
    const notice = await screen.findByText('Pix pago após o cancelamento: devolva R$ 30,00 ao cliente.');
    expect(notice.closest('[role="alert"]')!.className).toBe('comanda-refund-notice');
    // Not waiting, nor to be shown again.
    expect(screen.queryByRole('list', { name: 'Cobranças Pix' })).toBeNull();
    unmount();

    renderApp('/dashboard/comanda/12', { session: signedInSession('BARBER1') });
    expect(await screen.findByText('Corte de cabelo')).toBeTruthy();
    expect(screen.queryByText(/Pix pago após o cancelamento/)).toBeNull();
  });
});
