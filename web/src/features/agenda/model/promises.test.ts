import { describe, expect, it } from 'vitest';
import { GENERIC_ERROR_MESSAGE } from '@/api/errors';
import {
  clientOverlapMessage,
  keepPriceLabel,
  mayOverlapClient,
  mayReadPrices,
  priceChange,
  priceChangeMessage,
  repriceLabel,
  stillOffered,
  writeFailureMessage,
} from './promises';

// Issue 45, point 1: the rules behind a move's questions.

const nbsp = (text: string) => text.replace(/\u00a0/g, ' ');

describe('the price of a move to another professional', () => {
  const booked = [
    { IdService: 1, Value: 45 },
    { IdService: 4, Value: 15 },
  ];
  const offered = (corte: number, sobrancelha = 15, active = true) => [
    { IdService: 1, Value: corte, Status: true },
    { IdService: 4, Value: sobrancelha, Status: active },
    { IdService: 2, Value: 40, Status: true },
  ];

  it('asks when the new professional charges another total: the booked one, or theirs', () => {
    const change = priceChange(booked, offered(55), [1, 4]);
    expect(change).toEqual({ kept: 60, repriced: 70 });
    expect(nbsp(priceChangeMessage({ kept: 45, repriced: 55 }))).toBe('O valor muda de R$ 45,00 para R$ 55,00.');
    expect(nbsp(keepPriceLabel({ kept: 45, repriced: 55 }))).toBe('Manter R$ 45,00');
    expect(nbsp(repriceLabel({ kept: 45, repriced: 55 }))).toBe('Usar R$ 55,00');
  });

  it('asks nothing when the totals are equal, even if the prices of each service differ', () => {
    expect(priceChange(booked, offered(45), [1, 4])).toBeNull();
    expect(priceChange(booked, offered(50, 10), [1, 4])).toBeNull();
  });

  it('compares cents, so that sums of reais in floating point do not differ by a rounding', () => {
    const cents = [
      { IdService: 1, Value: 0.1 },
      { IdService: 4, Value: 0.2 },
    ];
    const same = [
      { IdService: 1, Value: 0.15, Status: true },
      { IdService: 4, Value: 0.15, Status: true },
    ];
    expect(priceChange(cents, same, [1, 4])).toBeNull();
  });

  it("keeps a service added in the edit at the professional's price either way", () => {
    // Barba (2) was not booked: without reprice the server charges it at their price too.
    expect(priceChange(booked, offered(55), [1, 2])).toEqual({ kept: 85, repriced: 95 });
    expect(priceChange(booked, offered(45), [1, 2])).toBeNull();
  });

  it('asks nothing when the professional does not offer a service (the server refuses the move)', () => {
    expect(priceChange(booked, offered(55, 20, false), [1, 4])).toBeNull();
    expect(priceChange(booked, offered(55), [1, 9])).toBeNull();
  });

  it("asks only the roles that may read another professional's prices", () => {
    expect(mayReadPrices('ADMIN')).toBe(true);
    expect(mayReadPrices('DEFAULT')).toBe(true);
    expect(mayReadPrices('ATTENDANT')).toBe(true);
    expect(mayReadPrices('BARBER_LEADE')).toBe(true);
    for (const role of ['BARBER1', 'BARBER2', null] as const) expect(mayReadPrices(role)).toBe(false);
  });
});

describe("the client's other appointment", () => {
  const message = 'Este cliente já tem outro agendamento neste horário.';
  const overlap = { status: 409, data: { message, errors: { allowClientOverlap: message } } };

  it("is the server's 409 that names allowClientOverlap", () => {
    expect(clientOverlapMessage(overlap)).toBe(message);
    expect(clientOverlapMessage({ status: 409, data: { message, errors: { allowClientOverlap: '' } } })).toBe(message);
  });

  it('is not any other refusal', () => {
    const taken = 'Horário indisponível: o profissional já tem um agendamento neste horário.';
    expect(clientOverlapMessage({ status: 409, data: { message: taken } })).toBeNull();
    expect(clientOverlapMessage({ status: 409, data: { message: taken, errors: null } })).toBeNull();
    expect(clientOverlapMessage({ status: 422, data: { message, errors: { allowClientOverlap: message } } })).toBeNull();
    expect(clientOverlapMessage({ status: 'FETCH_ERROR', error: 'offline' })).toBeNull();
    expect(clientOverlapMessage(new Error('boom'))).toBeNull();
    expect(clientOverlapMessage(undefined)).toBeNull();
  });

  it("may be booked anyway by ADMIN and ATTENDANT only (the server answers 403 to the others)", () => {
    expect(mayOverlapClient('ADMIN')).toBe(true);
    expect(mayOverlapClient('ATTENDANT')).toBe(true);
    for (const role of ['DEFAULT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', null] as const) expect(mayOverlapClient(role)).toBe(false);
  });

  it("leaves the screen one toast for a failed write: the server's message, none for a 401", () => {
    expect(writeFailureMessage(overlap)).toBe(message);
    expect(writeFailureMessage({ status: 500, data: null })).toBe(GENERIC_ERROR_MESSAGE);
    expect(writeFailureMessage({ status: 401, data: null })).toBeNull();
    expect(writeFailureMessage(new Error('never sent'))).toBeNull();
  });
});

describe('a chosen time after the free times are read again', () => {
  const day = '2026-11-24';
  const times = [
    {
      shortDate: day,
      freeHours: [
        { start: '10:00', end: '10:30', idProfessional: 3 },
        { start: '11:00', end: '11:30', idProfessional: 3 },
        { start: '11:00', end: '11:45', idProfessional: 4 },
      ],
    },
  ];

  it("is still offered when the professional still has it (with this answer's end)", () => {
    expect(stillOffered(times, day, { start: '11:00', end: '11:30', idProfessional: 4 }, 4)).toEqual(times[0].freeHours[2]);
  });

  it('is gone when the professional chosen lost it, or on another day', () => {
    expect(stillOffered(times, day, { start: '10:00', end: '10:30', idProfessional: 4 }, 4)).toBeNull();
    expect(stillOffered(times, '2026-11-25', { start: '10:00', end: '10:30', idProfessional: 3 }, null)).toBeNull();
  });

  it("with 'Sem preferência' stays with whoever still has the start", () => {
    expect(stillOffered(times, day, { start: '10:00', end: '10:30', idProfessional: 4 }, null)).toEqual(times[0].freeHours[0]);
    expect(stillOffered(times, day, { start: '12:00', end: '12:30', idProfessional: 4 }, null)).toBeNull();
  });
});
