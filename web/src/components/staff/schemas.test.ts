import { describe, expect, it } from 'vitest';
import { ValidationError } from 'yup';
import { dayErrors, periodSchema, serviceSchema, workingDaySchema, type DayForm } from './schemas';

const EMPTY: DayForm = { firstStart: '', firstEnd: '', secondStart: '', secondEnd: '', thirdStart: '', thirdEnd: '' };

/** Field → message of every failing field (yup's abortEarly: false, as the resolver runs it). */
async function messages(schema: { validate: (v: unknown, o: object) => Promise<unknown> }, values: object) {
  try {
    await schema.validate(values, { abortEarly: false });
    return {};
  } catch (failure) {
    if (!(failure instanceof ValidationError)) throw failure;
    const out: Record<string, string> = {};
    for (const inner of failure.inner) out[inner.path!] ??= inner.message;
    return out;
  }
}

const day = (values: Partial<DayForm>) => messages(workingDaySchema, { ...EMPTY, ...values });

describe('workingDaySchema (spec 02 §5 Working-hours day)', () => {
  it('accepts a day off and up to three ordered periods', async () => {
    expect(await day({})).toEqual({});
    expect(await day({ firstStart: '09:00', firstEnd: '12:00' })).toEqual({});
    expect(
      await day({
        firstStart: '09:00',
        firstEnd: '12:00',
        secondStart: '13:00',
        secondEnd: '19:00',
        thirdStart: '19:30',
        thirdEnd: '21:00',
      }),
    ).toEqual({});
  });

  it('says "Formato incorreto." for a time outside 24-hour HH:MM', async () => {
    expect(await day({ firstStart: '24:00', firstEnd: '9:5' })).toEqual({
      firstStart: 'Formato incorreto.',
      firstEnd: 'Formato incorreto.',
    });
  });

  it('needs both ends of a period', async () => {
    expect(await day({ firstStart: '09:00' })).toEqual({ firstEnd: 'Preencha a horário de fim' });
    expect(await day({ firstEnd: '12:00' })).toEqual({ firstStart: 'Preencha a horário de início' });
  });

  it('needs the end later than the start', async () => {
    expect(await day({ firstStart: '12:00', firstEnd: '09:00' })).toEqual({ firstEnd: 'Horário final menor que inicial' });
    expect(await day({ firstStart: '12:00', firstEnd: '12:00' })).toEqual({ firstEnd: 'Horário final menor que inicial' });
  });

  it('needs each period to start after the previous one ends', async () => {
    const first = { firstStart: '09:00', firstEnd: '12:00' };
    expect(await day({ ...first, secondStart: '12:00', secondEnd: '14:00' })).toEqual({
      secondStart: 'Deve ser maior que final do primeiro',
    });
    expect(
      await day({ ...first, secondStart: '13:00', secondEnd: '19:00', thirdStart: '18:00', thirdEnd: '20:00' }),
    ).toEqual({ thirdStart: 'Deve ser maior que final do segundo' });
  });

  it('needs the earlier period filled', async () => {
    expect(await day({ secondStart: '13:00', secondEnd: '19:00' })).toEqual({ secondStart: 'Preencha o primeiro horário' });
    expect(await day({ firstStart: '09:00', firstEnd: '12:00', thirdStart: '13:00', thirdEnd: '19:00' })).toEqual({
      thirdStart: 'Preencha o segundo horário',
    });
  });

  it('dayErrors ignores surrounding blanks', () => {
    expect(dayErrors({ firstStart: ' 09:00 ', firstEnd: '12:00' })).toEqual({});
  });
});

describe('periodSchema (one period: the company day)', () => {
  it('applies the same rules to start and end', async () => {
    expect(await messages(periodSchema, { start: '', end: '' })).toEqual({});
    expect(await messages(periodSchema, { start: '08:00', end: '18:00' })).toEqual({});
    expect(await messages(periodSchema, { start: '08:00', end: '' })).toEqual({ end: 'Preencha a horário de fim' });
    expect(await messages(periodSchema, { start: '', end: '18:00' })).toEqual({ start: 'Preencha a horário de início' });
    expect(await messages(periodSchema, { start: '18:00', end: '08:00' })).toEqual({ end: 'Horário final menor que inicial' });
    expect(await messages(periodSchema, { start: '8h', end: '18:00' })).toEqual({ start: 'Formato incorreto.' });
  });
});

describe('serviceSchema (spec 02 §5 Service)', () => {
  const valid = { idService: 3, time: 30, value: 45, status: 'true' };

  it('accepts a chosen service with time and value', async () => {
    expect(await messages(serviceSchema, valid)).toEqual({});
    expect(await messages(serviceSchema, { ...valid, time: 999, value: 9_999_999.99, status: 'false' })).toEqual({});
  });

  it('gives every message', async () => {
    expect(await messages(serviceSchema, { idService: 0, time: '', value: '', status: 'true' })).toEqual({
      idService: 'Escolha um serviço',
      time: 'O campo Tempo é obrigatório',
      value: 'O campo Valor é obrigatório',
    });
    expect(await messages(serviceSchema, { ...valid, time: 0, value: 0 })).toEqual({
      time: 'O tempo não pode ser 0',
      value: 'O valor precisa ser maior que 0',
    });
    expect(await messages(serviceSchema, { ...valid, idService: Number.NaN })).toEqual({ idService: 'Escolha um serviço' });
    expect(await messages(serviceSchema, { ...valid, status: '' })).toEqual({ status: 'Escolha um Status' });
  });
});
