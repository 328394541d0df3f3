import { describe, expect, it } from 'vitest';
import {
  chargeAmounts,
  chargeGroup,
  chargeStatusLabel,
  contractStatusLabel,
  isSubscriptionOver,
  offersBoletoPdf,
  offersPix,
  paymentMethodLabel,
  periodicityLabel,
  subscriptionStatusLabel,
} from './club';

describe('club status groups (spec 02 §4)', () => {
  it('counts the seven paid statuses as received and the three open ones as to receive', () => {
    for (const s of ['captured', 'payExternal', 'payedBoleto', 'lessValueBoleto', 'moreValueBoleto', 'paidDuplicityBoleto', 'payedPix'])
      expect(chargeGroup(s)).toBe('received');
    for (const s of ['notSend', 'pendingBoleto', 'pendingPix']) expect(chargeGroup(s)).toBe('toReceive');
    for (const s of ['authorized', 'denied', 'reversed', 'chargeback', 'cancel', 'cancelByContract', 'free', 'notCompensated', 'unavailablePix', 'somethingNew'])
      expect(chargeGroup(s)).toBe('other');
  });

  it('sums amounts without floating-point drift and ignores refused charges', () => {
    const charges = [
      { Status: 'payedBoleto', Value: 0.1 },
      { Status: 'captured', Value: 0.2 },
      { Status: 'pendingBoleto', Value: 89.9 },
      { Status: 'denied', Value: 89.9 },
      { Status: 'notSend', Value: 10.05 },
    ];
    expect(chargeAmounts(charges)).toEqual({ received: 0.3, toReceive: 99.95 });
    expect(chargeAmounts([])).toEqual({ received: 0, toReceive: 0 });
  });

  it('offers the boleto PDF only for an open boleto and Pix for an open boleto or Pix', () => {
    expect(offersBoletoPdf('pendingBoleto')).toBe(true);
    expect(offersBoletoPdf('pendingPix')).toBe(false);
    expect(offersBoletoPdf('payedBoleto')).toBe(false);
    expect(offersPix('pendingBoleto')).toBe(true);
    expect(offersPix('pendingPix')).toBe(true);
    expect(offersPix('payedPix')).toBe(false);
  });

  it('labels statuses in pt-BR and keeps unknown codes as sent', () => {
    expect(contractStatusLabel('PENDING_PAYMENT')).toBe('Pagamento pendente');
    expect(contractStatusLabel('ACTIVE')).toBe('Ativo');
    expect(contractStatusLabel('CANCELED')).toBe('Cancelado');
    expect(subscriptionStatusLabel('waitingPayment')).toBe('Aguardando pagamento');
    expect(subscriptionStatusLabel('closed')).toBe('Encerrada');
    expect(subscriptionStatusLabel('future')).toBe('future');
    expect(chargeStatusLabel('denied')).toBe('Negada pela operadora');
    expect(chargeStatusLabel('future')).toBe('future');
    expect(paymentMethodLabel('creditcard')).toBe('Cartão de crédito');
    expect(periodicityLabel('biannual')).toBe('Semestral');
  });

  it('treats every ended subscription as over, so the cancel action hides', () => {
    for (const s of ['canceled', 'closed', 'stopped', 'inactive']) expect(isSubscriptionOver(s)).toBe(true);
    for (const s of ['active', 'waitingPayment', null]) expect(isSubscriptionOver(s)).toBe(false);
  });
});
