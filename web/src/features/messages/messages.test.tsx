import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { companyItem, otherCompany, ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { messageDayUrl } from './messagesApi';
import {
  appointmentText,
  attemptsText,
  confirmationRateText,
  dayFigures,
  dayOfInput,
  deliveryState,
  kindLabel,
  phoneText,
  replyText,
} from './model';
import type { MessageDay, MessageItem, MessageTotals } from './types';

const message = (values: Partial<MessageItem> = {}): MessageItem => ({
  Key: 'a41-r24-202611251000',
  IdScheduling: 41,
  Kind: 'r24',
  To: '5511987654321',
  UserName: 'João Conceição',
  ProfessionalName: 'Diego Barbeiro',
  Date: '2026-11-25',
  StartTime: '10:00:00',
  Status: true,
  SentAt: '10:01',
  Outcome: 'ACCEPTED',
  Delivery: 'DELIVERED',
  Error: null,
  Reply: null,
  RepliedAt: null,
  Attempts: 1,
  ...values,
});

const totals = (values: Partial<MessageTotals> = {}): MessageTotals => ({
  Sent: 3,
  Delivered: 2,
  Read: 1,
  Failed: 1,
  Skipped: 1,
  Confirmed: 1,
  Cancelled: 1,
  ConfirmationRate: 33.3,
  ...values,
});

describe('messages words and figures', () => {
  it('names the reminders and the appointment as the desk reads them', () => {
    expect(kindLabel('r24')).toBe('24 h antes');
    expect(kindLabel('r2')).toBe('2 h antes');
    expect(kindLabel('r48')).toBe('r48');
    expect(appointmentText({ Date: '2026-11-25', StartTime: '09:30:00' })).toBe('25/11 09:30');
    expect(phoneText('5511987654321')).toBe('(11) 98765-4321');
    expect(phoneText('551133334444')).toBe('(11) 3333-4444');
    expect(attemptsText(1)).toBeNull();
    expect(attemptsText(3)).toBe('3 tentativas');
    expect(dayOfInput('2026-11-25')).toBe('2026-11-25');
    expect(dayOfInput('25/11/2026')).toBeNull();
    expect(dayOfInput(null)).toBeNull();
  });

  it("says where each message got to: the provider's answer, then the furthest report", () => {
    const label = (values: Partial<MessageItem>) => deliveryState(message(values)).label;
    expect(label({ Outcome: 'REQUESTED', Delivery: null })).toBe('Aguardando provedor');
    // A report that came before the send's answer was recorded: it went out.
    expect(label({ Outcome: 'REQUESTED', Delivery: 'SENT' })).toBe('Enviada');
    expect(label({ Outcome: 'ACCEPTED', Delivery: null })).toBe('Enviada');
    expect(label({ Delivery: 'SENT' })).toBe('Enviada');
    expect(label({ Delivery: 'DELIVERED' })).toBe('Entregue');
    expect(label({ Delivery: 'READ' })).toBe('Lida');
    expect(deliveryState(message({ Delivery: 'FAILED', Error: 'Message undeliverable' }))).toEqual({
      label: 'Não entregue',
      tone: 'failed',
      title: 'Message undeliverable',
    });
    expect(deliveryState(message({ Outcome: 'REFUSED', Delivery: null, Error: '(#131030) Recipient phone number not in allowed list' }))).toEqual({
      label: 'Recusada',
      tone: 'failed',
      title: '(#131030) Recipient phone number not in allowed list',
    });
    expect(label({ Outcome: 'SKIPPED', Delivery: null, Error: 'O horário começou antes do envio.' })).toBe('Não enviada');
    // Nothing to say: no title.
    expect(deliveryState(message({ Delivery: 'DELIVERED', Error: null })).title).toBeUndefined();
  });

  it("writes the client's reply with its time, or a dash", () => {
    expect(replyText({ Reply: 'CONFIRMAR', RepliedAt: '14:05' })).toBe('Confirmou 14:05');
    expect(replyText({ Reply: 'CANCELAR', RepliedAt: '08:10' })).toBe('Cancelou 08:10');
    expect(replyText({ Reply: 'CONFIRMAR', RepliedAt: null })).toBe('Confirmou');
    expect(replyText({ Reply: null, RepliedAt: null })).toBe('—');
  });

  it("writes the confirmation rate in pt-BR, or a dash when none was sent", () => {
    expect(confirmationRateText(33.3)).toBe('33,3%');
    expect(confirmationRateText(100)).toBe('100%');
    expect(confirmationRateText(0)).toBe('0%');
    expect(confirmationRateText(null)).toBe('—');
    expect(confirmationRateText(undefined)).toBe('—');
    expect(dayFigures(totals()).map((figure) => `${figure.label}: ${figure.value}`)).toEqual([
      'Enviadas: 3',
      'Entregues: 2',
      'Lidas: 1',
      'Falharam: 1',
      'Confirmadas: 1',
      'Canceladas: 1',
      'Taxa de confirmação: 33,3%',
    ]);
  });

  it('asks for a unit and a day', () => {
    expect(messageDayUrl({ idCompany: 1, date: '2026-11-24' })).toBe('message/day?idCompany=1&date=2026-11-24');
  });
});

// ---------------------------------------------------------------------------
// The screen

/** 10:15 on the unit's clock (UTC-3), Tuesday 24 November 2026. */
const NOW = new Date('2026-11-24T13:15:00Z');

const DAY: MessageDay = {
  Totals: totals(),
  Messages: [
    message({ Key: 'a41-r24', SentAt: '08:00', Reply: 'CONFIRMAR', RepliedAt: '08:12', Delivery: 'READ' }),
    message({
      Key: 'a42-r24',
      IdScheduling: 42,
      SentAt: '08:01',
      UserName: 'Marcos Lima',
      To: '5511912340000',
      Delivery: 'FAILED',
      Error: 'Message undeliverable',
      Attempts: 2,
    }),
    message({
      Key: 'a43-r2',
      IdScheduling: 43,
      Kind: 'r2',
      SentAt: '09:30',
      UserName: 'Paulo Souza',
      ProfessionalName: 'Eduardo Barbeiro',
      Date: '2026-11-24',
      StartTime: '11:30:00',
      Status: false,
      Reply: 'CANCELAR',
      RepliedAt: '09:41',
    }),
    message({ Key: 'a44-r24', IdScheduling: 44, SentAt: '10:14', UserName: 'Rui Alves', Outcome: 'REQUESTED', Delivery: null }),
  ],
};

const EMPTY_DAY: MessageDay = {
  Totals: totals({ Sent: 0, Delivered: 0, Read: 0, Failed: 0, Skipped: 0, Confirmed: 0, Cancelled: 0, ConfirmationRate: null }),
  Messages: [],
};

function messagesServer(answer: (search: URLSearchParams) => MessageDay | Response = () => DAY) {
  const state = { reads: [] as URLSearchParams[], streams: new Set<ReadableStreamDefaultController<Uint8Array>>() };
  const encoder = new TextEncoder();
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
    http.get(apiUrl('company'), () => HttpResponse.json([companyItem(ownCompany, true), companyItem(otherCompany, true)])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('business'), () => HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: 'ACTIVE' })),
    http.get(apiUrl('message/day'), ({ request }) => {
      const search = new URL(request.url).searchParams;
      state.reads.push(search);
      const day = answer(search);
      return day instanceof Response ? day : HttpResponse.json(day);
    }),
  );
  /** A change of the `message` read model on the live stream. */
  const changed = () => state.streams.forEach((stream) => stream.enqueue(encoder.encode('event: change\ndata: {"model":"message"}\n\n')));
  return { state, changed };
}

const session = () => signedInSession('ADMIN', { companies: [ownCompany, otherCompany] });

/** A row of the list by its client. */
const row = (client: string) => within(screen.getByRole('table', { name: 'Mensagens do dia' })).getByText(client).closest('tr')!;
/** A row's cells by column. */
const cells = (client: string) => Object.fromEntries([...row(client).children].map((cell) => [cell.getAttribute('data-label'), cell]));
/** A tile's value. */
const figure = (label: string) => within(screen.getByLabelText('Números do dia')).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('Mensagens', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lists the unit's messages of today with the day's figures", async () => {
    const { state } = messagesServer();
    renderApp('/dashboard/messages', { session: session() });

    expect(await screen.findByRole('heading', { name: 'Mensagens', level: 1 })).toBeTruthy();
    await screen.findByText('João Conceição');
    // The unit's today, the shell's unit.
    expect(Object.fromEntries(state.reads[0])).toEqual({ idCompany: '1', date: '2026-11-24' });
    expect((screen.getByLabelText('Dia') as HTMLInputElement).value).toBe('2026-11-24');

    expect([...screen.getByLabelText('Números do dia').querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual([
      'Enviadas',
      'Entregues',
      'Lidas',
      'Falharam',
      'Confirmadas',
      'Canceladas',
      'Taxa de confirmação',
    ]);
    expect(figure('Enviadas')).toBe('3');
    expect(figure('Falharam')).toBe('1');
    expect(figure('Taxa de confirmação')).toBe('33,3%');

    const table = screen.getByRole('table', { name: 'Mensagens do dia' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Hora',
      'Cliente',
      'Agendamento',
      'Profissional',
      'Lembrete',
      'Entrega',
      'Resposta',
    ]);
    const joao = cells('João Conceição');
    expect(joao.Hora.textContent).toBe('08:00');
    expect(joao.Cliente.textContent).toBe('João Conceição(11) 98765-4321');
    expect(joao.Agendamento.textContent).toBe('25/11 10:00');
    expect(joao.Profissional.textContent).toBe('Diego Barbeiro');
    expect(joao.Lembrete.textContent).toBe('24 h antes');
    expect(joao.Entrega.textContent).toBe('Lida');
    expect(joao.Resposta.textContent).toBe('Confirmou 08:12');

    const marcos = cells('Marcos Lima');
    expect(within(marcos.Entrega).getByText('Não entregue').getAttribute('title')).toBe('Message undeliverable');
    expect(marcos.Entrega.textContent).toBe('Não entregue2 tentativas');
    expect(marcos.Resposta.textContent).toBe('—');

    const paulo = cells('Paulo Souza');
    expect(paulo.Agendamento.textContent).toBe('24/11 11:30Cancelado');
    expect(paulo.Lembrete.textContent).toBe('2 h antes');
    expect(paulo.Resposta.textContent).toBe('Cancelou 09:41');

    expect(cells('Rui Alves').Entrega.textContent).toBe('Aguardando provedor');
    // In the order they were sent.
    expect(within(table).getAllByRole('row').slice(1).map((tr) => tr.firstElementChild?.textContent)).toEqual([
      '08:00',
      '08:01',
      '09:30',
      '10:14',
    ]);
  });

  it('reads another day and another unit; an empty day says so', async () => {
    const { state } = messagesServer((search) => (search.get('date') === '2026-11-20' ? EMPTY_DAY : DAY));
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/messages', { session: session() });
    await screen.findByText('João Conceição');

    fireEvent.change(screen.getByLabelText('Dia'), { target: { value: '2026-11-20' } });
    expect(await screen.findByText('Nenhuma mensagem neste dia.')).toBeTruthy();
    expect(Object.fromEntries(state.reads.at(-1)!)).toEqual({ idCompany: '1', date: '2026-11-20' });
    expect(router.state.location.search).toBe('?date=2026-11-20');
    expect(figure('Enviadas')).toBe('0');
    expect(figure('Taxa de confirmação')).toBe('—');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Unidade' }), 'Navalha Praia');
    await waitFor(() => expect(Object.fromEntries(state.reads.at(-1)!)).toEqual({ idCompany: '2', date: '2026-11-20' }));
  });

  it('opens on the day in the address', async () => {
    const { state } = messagesServer();
    renderApp('/dashboard/messages?date=2026-11-23', { session: session() });
    await screen.findByText('João Conceição');
    expect(Object.fromEntries(state.reads[0])).toEqual({ idCompany: '1', date: '2026-11-23' });
  });

  it('shows a reply as it arrives, without a reload', async () => {
    let replied = false;
    const pending = { ...DAY, Messages: [message({ Key: 'a41-r24', Reply: null, RepliedAt: null })] };
    const answered = { ...DAY, Messages: [message({ Key: 'a41-r24', Reply: 'CONFIRMAR', RepliedAt: '10:16' })] };
    const { changed } = messagesServer(() => (replied ? answered : pending));
    renderApp('/dashboard/messages', { session: session() });
    await screen.findByText('João Conceição');
    expect(cells('João Conceição').Resposta.textContent).toBe('—');

    replied = true;
    changed();
    await waitFor(() => expect(cells('João Conceição').Resposta.textContent).toBe('Confirmou 10:16'));
  });

  it('says when the day cannot be read, and tries again', async () => {
    let fail = true;
    messagesServer(() => (fail ? HttpResponse.json({ message: 'Erro interno.' }, { status: 500 }) : DAY));
    const user = userEvent.setup();
    renderApp('/dashboard/messages', { session: session() });

    expect(await screen.findByText('Não foi possível carregar as mensagens.')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('João Conceição')).toBeTruthy();
  });

  it("is reached from ADMIN's menu ('Atendimento')", async () => {
    messagesServer();
    renderApp('/dashboard/messages', { session: session() });
    const menu = await screen.findByRole('navigation', { name: 'Menu principal' });
    await waitFor(() => expect(within(menu).getByRole('link', { name: 'Mensagens' }).getAttribute('href')).toBe('/dashboard/messages'));
  });
});
