import { describe, expect, it } from 'vitest';
import {
  causeOf,
  chargeMoves,
  describeEntry,
  formatInstant,
  notYetText,
  pastViewBanner,
  pastViewOfEntry,
  pastViewOfInput,
  wallClockInput,
} from './timeline';
import type { TimelineEntry } from './types';

const nbsp = (text: string) => text.replace(/\u00a0/g, ' ');

const entry = (overrides: Partial<TimelineEntry>): TimelineEntry => ({
  Sequence: 1,
  At: '2026-11-23T17:05:09.496628Z',
  Event: 'ProviderReported',
  Reason: 'webhook',
  Source: { WebhookId: 1, WebhookEvent: 'transaction.updateStatus' },
  UserName: null,
  Changes: [],
  Charges: [],
  InternalStatus: 'PENDING_PAYMENT',
  Status: 'active',
  AmountReceived: 0,
  AmountToReceive: 0,
  ...overrides,
});

describe('instants on the units clock (UTC-3)', () => {
  it('formats instants and typed wall-clock times', () => {
    expect(formatInstant('2026-11-23T17:05:09.496628Z')).toBe('23/11/2026 14:05');
    expect(formatInstant('2026-11-23T17:05:09.496628Z', true)).toBe('23/11/2026 14:05:09');
    // Past midnight UTC is still the day before in UTC-3.
    expect(formatInstant('2026-11-24T02:30:00Z')).toBe('23/11/2026 23:30');
    expect(wallClockInput(Date.parse('2026-11-24T02:30:00Z'))).toBe('2026-11-23T23:30');
  });

  it('builds the past view of an entry and of a typed instant, and its banner', () => {
    const view = pastViewOfEntry(entry({}));
    // The entry's own instant, untouched (microseconds included), so the entry is in the view.
    expect(view.asOf).toBe('2026-11-23T17:05:09.496628Z');
    expect(pastViewBanner(view)).toBe('Visualizando como estava em 23/11/2026 14:05:09');
    const typed = pastViewOfInput('2026-11-23T14:05');
    expect(typed).toEqual({ asOf: '2026-11-23T14:05', label: '23/11/2026 14:05' });
    expect(pastViewBanner(typed!)).toBe('Visualizando como estava em 23/11/2026 14:05');
    expect(notYetText(typed!)).toBe('Em 23/11/2026 14:05 esta assinatura ainda não existia.');
    expect(pastViewOfInput('')).toBeNull();
    expect(pastViewOfInput('23/11/2026 14:05')).toBeNull();
  });
});

describe('timeline entries in words', () => {
  it('says a subscription was created at checkout', () => {
    const text = describeEntry(
      entry({
        Event: 'SubscriptionCreated',
        Reason: 'checkout',
        Source: null,
        UserName: 'Checkout de João Conceição',
        Changes: [{ Field: 'InternalStatus', From: null, To: 'PENDING_PAYMENT' }],
      }),
    );
    expect(text).toEqual({
      when: '23/11/2026 14:05:09',
      title: 'Assinatura criada',
      details: ['Contrato: Pagamento pendente'],
      cause: 'Checkout de João Conceição',
      tone: 'neutral',
    });
  });

  it('reads the structured charges: created, paid, denied', () => {
    const created = describeEntry(
      entry({
        Reason: 'checkout',
        Source: null,
        Charges: [{ GalaxPayId: 3, Installment: 1, Value: 89.9, From: null, To: 'pendingBoleto' }],
        Changes: [
          { Field: 'Status', From: null, To: 'active' },
          { Field: 'AmountToReceive', From: 0, To: 89.9 },
        ],
      }),
    );
    expect(created.title).toBe('Cobrança criada');
    expect(created.details.map(nbsp)).toEqual([
      'Parcela 1 de R$ 89,90 criada: Boleto em aberto',
      'Assinatura: Ativa',
      'Valor a receber: R$ 89,90',
    ]);
    expect(created.cause).toBe('Checkout');

    const paid = describeEntry(
      entry({
        Charges: [{ GalaxPayId: 3, Installment: 1, Value: 89.9, From: 'pendingBoleto', To: 'payedBoleto' }],
        Changes: [
          { Field: 'InternalStatus', From: 'PENDING_PAYMENT', To: 'ACTIVE' },
          { Field: 'AmountReceived', From: 0, To: 89.9 },
        ],
      }),
    );
    expect(paid.title).toBe('Pagamento recebido');
    expect(paid.tone).toBe('good');
    expect(paid.details.map(nbsp)).toEqual([
      'Parcela 1 de R$ 89,90 paga: Boleto pago',
      'Contrato: Pagamento pendente → Ativo',
      'Valor recebido: R$ 89,90',
    ]);
    expect(paid.cause).toBe('Webhook do provedor de pagamento (transaction.updateStatus)');

    const denied = describeEntry(
      entry({ Reason: 'reconciliation', Source: null, Charges: [{ GalaxPayId: 9, Installment: 2, Value: 50, From: 'authorized', To: 'denied' }] }),
    );
    expect(denied.title).toBe('Conciliação: pagamento negado');
    expect(denied.tone).toBe('bad');
    expect(nbsp(denied.details[0])).toBe('Parcela 2 de R$ 50,00 negada: Negada pela operadora');
    expect(denied.cause).toBe('Conciliação automática com o provedor');
  });

  it('falls back to the charge changes of older answers', () => {
    const old = entry({
      // An older answer: no structured charges.
      Charges: undefined,
      Changes: [
        { Field: 'AmountReceived', From: 0, To: 89.9 },
        { Field: 'Transaction 3 (parcela 1)', From: 'pendingBoleto', To: 'payedBoleto' },
      ],
    });
    expect(chargeMoves(old)).toEqual([{ GalaxPayId: 3, Installment: 1, Value: null, From: 'pendingBoleto', To: 'payedBoleto' }]);
    const text = describeEntry(old);
    expect(text.title).toBe('Pagamento recebido');
    expect(text.details.map(nbsp)).toEqual(['Parcela 1 paga: Boleto pago', 'Valor recebido: R$ 89,90']);
    // With structured charges the raw field is not read twice.
    expect(chargeMoves({ ...old, Charges: [] })).toEqual([]);
  });

  it('names staff actions by the staff member', () => {
    const reminder = describeEntry(entry({ Event: 'ReminderSent', Reason: 'staff', Source: null, UserName: 'Ana Lima' }));
    expect(reminder).toMatchObject({ title: 'Lembrete de cobrança enviado por WhatsApp', cause: 'Ana Lima (equipe)', details: [] });
    const cancel = describeEntry(
      entry({
        Event: 'CancellationRequested',
        Reason: 'staff',
        Source: { UserId: 1, UserName: 'Admin Navalha', Role: 'ADMIN' },
        Changes: [{ Field: 'InternalStatus', From: 'ACTIVE', To: 'CANCELED' }],
      }),
    );
    expect(cancel).toMatchObject({ title: 'Cancelamento solicitado', cause: 'Admin Navalha (equipe)', tone: 'bad' });
    expect(cancel.details).toEqual(['Contrato: Ativo → Cancelado']);
    const updated = describeEntry(entry({ Reason: 'staff', Source: null, UserName: null }));
    expect(updated).toMatchObject({ title: 'Dados conferidos no provedor, sem mudanças', cause: 'Equipe' });
  });

  it('words the provider ending the subscription and the cancellation answer', () => {
    const ended = describeEntry(
      entry({ Reason: 'cancellation', Source: null, Changes: [{ Field: 'Status', From: 'active', To: 'canceled' }] }),
    );
    expect(ended).toMatchObject({
      title: 'Assinatura cancelada no provedor',
      details: ['Assinatura: Ativa → Cancelada'],
      cause: 'Resposta do provedor ao cancelamento',
    });
    expect(causeOf(entry({ Reason: 'reconciliation', Source: null }))).toBe('Conciliação automática com o provedor');
    expect(describeEntry(entry({ Reason: 'reconciliation', Source: null })).title).toBe('Conciliação sem mudanças');
  });
});
