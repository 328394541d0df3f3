import { describe, expect, it } from 'vitest';
import * as yup from 'yup';
import { maskCnpj } from '@/lib/masks';
import { toBody, toFormValues } from './CompanyInfoTab';
import {
  CARD_FEE_MESSAGE,
  CLUB_FIXED_MESSAGE,
  companyDaySchema,
  companySchema,
  EMPTY_COMPANY,
  percentOf,
  type CompanyFormValues,
} from './schemas';

const VALID: CompanyFormValues = {
  ...EMPTY_COMPANY,
  name: 'Navalha Teste',
  cnpj: '11.222.333/0001-81',
  email: 'teste@navalha.dev',
  phone: '(11) 98765-4321',
  whatsApp: true,
  facebook: 'https://facebook.com/navalha',
  instagram: 'https://instagram.com/navalha',
  zipCode: '01.042-001',
  street: 'Rua Barão de Itapetininga',
  number: '120',
  district: 'República',
  city: 'São Paulo',
  state: 'SP',
};

/** Every field's first message, or {} when valid. */
function errorsOf(schema: yup.AnyObjectSchema, values: object): Record<string, string> {
  try {
    schema.validateSync(values, { abortEarly: false });
    return {};
  } catch (error) {
    const out: Record<string, string> = {};
    for (const inner of (error as yup.ValidationError).inner) out[inner.path ?? ''] ??= inner.message;
    return out;
  }
}

describe('company schema (spec 02 §5 "Company")', () => {
  it('accepts a valid unit, numeric or alphanumeric CNPJ', () => {
    expect(errorsOf(companySchema, VALID)).toEqual({});
    expect(errorsOf(companySchema, { ...VALID, cnpj: '12.ABC.345/01DE-35' })).toEqual({});
    expect(maskCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
  });

  it('gives each empty field its message', () => {
    expect(errorsOf(companySchema, { ...EMPTY_COMPANY, status: '' })).toEqual({
      name: 'Digite o nome da barbearia',
      cnpj: 'CNPJ inválido',
      email: 'Digite o e-mail',
      phone: 'Digite o número do celular',
      status: 'Escolha um Status',
      facebook: 'Informe o link do Facebook',
      instagram: 'Informe o link do Instagram',
      zipCode: 'Digite o CEP',
      street: 'Digite o nome da rua completo',
      number: 'Digite um número válido.',
      district: 'Digite o bairro',
      city: 'Digite a cidade',
      state: 'Escolha um estado',
    });
  });

  it.each([
    ['cnpj', '11.222.333/0001-80', 'CNPJ inválido'],
    ['cnpj', '12.ABC.345/01DE-36', 'CNPJ inválido'],
    ['cnpj', '11.111.111/1111-11', 'CNPJ inválido'],
    ['email', 'teste@navalha', 'E-mail inválido'],
    ['phone', '(11) 3333-4444', 'Informe um número válido'],
    ['status', '0', 'Escolha um Status'],
    ['name', '   ', 'Digite o nome da barbearia'],
    ['zipCode', '01.042-00', 'CEP inválido'],
    ['street', 'Rua', 'Digite o nome da rua completo'],
    ['number', '100000', 'Digite um número válido.'],
    ['state', '--', 'Escolha um estado'],
  ])('%s = %j: %s', (field, value, message) => {
    expect(errorsOf(companySchema, { ...VALID, [field]: value })).toEqual({ [field]: message });
  });

  it('sends documents without masks and the status as a boolean (spec 02 §7)', () => {
    const body = toBody({ ...VALID, cnpj: '12.ABC.345/01DE-35', status: 'false', observation: ' Perto do metrô ' });
    expect(body).toMatchObject({
      cnpj: '12ABC34501DE35',
      phone: '11987654321',
      zipCode: '01042001',
      status: false,
      whatsApp: true,
      observation: 'Perto do metrô',
      complement: '',
    });
  });

  it('loads a saved unit with its masks', () => {
    const values = toFormValues({
      IdCompany: 7,
      Name: 'Navalha Teste',
      Cnpj: '11222333000181',
      Email: 'teste@navalha.dev',
      Phone: '11987654321',
      WhatsApp: true,
      Status: false,
      Facebook: 'f',
      Instagram: 'i',
      Observation: '',
      ZipCode: '01042001',
      Street: 'Rua A B',
      Number: '1',
      District: 'Centro',
      City: 'São Paulo',
      State: 'SP',
      Complement: '',
      OnlineCancelCutoffHours: 24,
      OnlineMaxFutureBookings: 1,
      OnlineNewcomerSharePercent: 30,
      OnlineNoShowLimit: 3,
      AttendantDiscountCapPercent: 15,
      CardFeeCreditPercent: 3.49,
      CardFeeDebitPercent: 0,
      ClubCommissionRule: 'plan',
      CommissionPeriod: 'month',
      AllowNegativeStock: false,
      RemindersBefore24h: true,
      RemindersBefore2h: false,
      TimeZone: 'America/Sao_Paulo',
      TimeZoneFromAddress: true,
    });
    expect(values).toMatchObject({
      cnpj: '11.222.333/0001-81',
      phone: '(11) 98765-4321',
      zipCode: '01.042-001',
      status: 'false',
      observation: '',
      complement: '',
      onlineCancelCutoffHours: 24,
      onlineMaxFutureBookings: 1,
      onlineNoShowLimit: 3,
      attendantDiscountCapPercent: 15,
      remindersBefore24h: true,
      remindersBefore2h: false,
    });
  });
});

describe("company schema, 'Agendamento online'", () => {
  it('starts a new unit with the server defaults (2 hours, 2 bookings) and sends them', () => {
    expect(EMPTY_COMPANY).toMatchObject({ onlineCancelCutoffHours: 2, onlineMaxFutureBookings: 2, onlineNewcomerSharePercent: 30 });
    expect(toBody(VALID)).toMatchObject({ onlineCancelCutoffHours: 2, onlineMaxFutureBookings: 2, onlineNewcomerSharePercent: 30 });
    // The zone: '' lets the server take the state's and city's; a chosen one is sent.
    expect(toBody(VALID)).toMatchObject({ timeZone: '' });
    expect(toBody({ ...VALID, timeZone: 'America/Manaus' })).toMatchObject({ timeZone: 'America/Manaus' });
    expect(toBody({ ...VALID, onlineCancelCutoffHours: 0, onlineMaxFutureBookings: 10 })).toMatchObject({
      onlineCancelCutoffHours: 0,
      onlineMaxFutureBookings: 10,
    });
  });

  it.each([
    [0, 1],
    [72, 10],
    [24, 3],
  ])('accepts a cut-off of %i hours and a limit of %i', (cutoff, limit) => {
    expect(errorsOf(companySchema, { ...VALID, onlineCancelCutoffHours: cutoff, onlineMaxFutureBookings: limit })).toEqual({});
  });

  it.each([
    ['onlineCancelCutoffHours', '', 'Informe um prazo de 0 a 72 horas'],
    ['onlineCancelCutoffHours', -1, 'Informe um prazo de 0 a 72 horas'],
    ['onlineCancelCutoffHours', 73, 'Informe um prazo de 0 a 72 horas'],
    ['onlineCancelCutoffHours', 1.5, 'Informe um prazo de 0 a 72 horas'],
    ['onlineMaxFutureBookings', '', 'Informe de 1 a 10 agendamentos'],
    ['onlineMaxFutureBookings', 0, 'Informe de 1 a 10 agendamentos'],
    ['onlineMaxFutureBookings', 11, 'Informe de 1 a 10 agendamentos'],
    ['onlineNewcomerSharePercent', '', 'Informe um percentual de 0 a 100'],
    ['onlineNewcomerSharePercent', -1, 'Informe um percentual de 0 a 100'],
    ['onlineNewcomerSharePercent', 101, 'Informe um percentual de 0 a 100'],
    ['onlineNoShowLimit', '', 'Informe de 0 a 20 faltas (0 não bloqueia)'],
    ['onlineNoShowLimit', -1, 'Informe de 0 a 20 faltas (0 não bloqueia)'],
    ['onlineNoShowLimit', 21, 'Informe de 0 a 20 faltas (0 não bloqueia)'],
    ['onlineNoShowLimit', 1.5, 'Informe de 0 a 20 faltas (0 não bloqueia)'],
  ])('%s = %j: %s (the server\'s message)', (field, value, message) => {
    expect(errorsOf(companySchema, { ...VALID, [field]: value })).toEqual({ [field]: message });
  });
});

describe("company schema, the online no-show limit (issue 44)", () => {
  it('starts a new unit blocking nobody (0) and sends the limit chosen', () => {
    expect(EMPTY_COMPANY).toMatchObject({ onlineNoShowLimit: 0 });
    expect(toBody(VALID)).toMatchObject({ onlineNoShowLimit: 0 });
    expect(toBody({ ...VALID, onlineNoShowLimit: 20 })).toMatchObject({ onlineNoShowLimit: 20 });
    expect(toFormValues(detailOf())).toMatchObject({ onlineNoShowLimit: 0 });
    expect(toFormValues({ ...detailOf(), OnlineNoShowLimit: 2 })).toMatchObject({ onlineNoShowLimit: 2 });
  });

  it.each([0, 1, 20])('accepts a limit of %i', (limit) => {
    expect(errorsOf(companySchema, { ...VALID, onlineNoShowLimit: limit })).toEqual({});
  });
});

describe("company schema, 'Caixa e comandas' (issue 41)", () => {
  it('starts a new unit with no cap on the attendant\'s discount (100%) and sends it', () => {
    expect(EMPTY_COMPANY).toMatchObject({ attendantDiscountCapPercent: 100 });
    expect(toBody(VALID)).toMatchObject({ attendantDiscountCapPercent: 100 });
    expect(toBody({ ...VALID, attendantDiscountCapPercent: 0 })).toMatchObject({ attendantDiscountCapPercent: 0 });
    expect(toBody({ ...VALID, attendantDiscountCapPercent: 25 })).toMatchObject({ attendantDiscountCapPercent: 25 });
  });

  it.each([0, 25, 100])('accepts a cap of %i%%', (cap) => {
    expect(errorsOf(companySchema, { ...VALID, attendantDiscountCapPercent: cap })).toEqual({});
  });

  it.each<number | ''>(['', -1, 101, 12.5])('refuses a cap of %j with the server\'s message', (cap) => {
    expect(errorsOf(companySchema, { ...VALID, attendantDiscountCapPercent: cap })).toEqual({
      attendantDiscountCapPercent: 'Informe um desconto máximo de 0 a 100%',
    });
  });
});

describe("company schema, 'Comissões' (issue 42)", () => {
  it('reads card fees with two decimals up to 20% and sends them as numbers', () => {
    expect(percentOf('3,49')).toBe(3.49);
    expect(percentOf('1.5')).toBe(1.5);
    expect(percentOf('3,499')).toBeNull();
    expect(percentOf('abc')).toBeNull();
    expect(errorsOf(companySchema, { ...VALID, cardFeeCreditPercent: '20,01' })).toEqual({ cardFeeCreditPercent: CARD_FEE_MESSAGE });
    expect(errorsOf(companySchema, { ...VALID, cardFeeDebitPercent: '1,99' })).toEqual({});
    expect(toBody({ ...VALID, cardFeeCreditPercent: '3,49', cardFeeDebitPercent: '1,99' })).toMatchObject({
      cardFeeCreditPercent: 3.49,
      cardFeeDebitPercent: 1.99,
      clubCommissionRule: 'plan',
      clubCommissionFixed: null,
      commissionPeriod: 'month',
    });
  });

  it('asks the fixed amount only when the club pays a fixed amount per service', () => {
    expect(errorsOf(companySchema, { ...VALID, clubCommissionRule: 'fixed', clubCommissionFixed: 0 })).toEqual({
      clubCommissionFixed: CLUB_FIXED_MESSAGE,
    });
    expect(toBody({ ...VALID, clubCommissionRule: 'fixed', clubCommissionFixed: 12 })).toMatchObject({ clubCommissionFixed: 12 });
  });
});

describe('company day schema (spec 02 §5 "Working-hours day", one period)', () => {
  it('accepts a period, or both empty (closed)', () => {
    expect(errorsOf(companyDaySchema, { start: '09:00', end: '19:00' })).toEqual({});
    expect(errorsOf(companyDaySchema, { start: '', end: '' })).toEqual({});
  });

  it.each([
    [{ start: '9:00', end: '19:00' }, { start: 'Formato incorreto.' }],
    [{ start: '09:00', end: '24:00' }, { end: 'Formato incorreto.' }],
    [{ start: '09:60', end: '19:00' }, { start: 'Formato incorreto.' }],
    [{ start: '', end: '19:00' }, { start: 'Preencha a horário de início' }],
    [{ start: '09:00', end: '' }, { end: 'Preencha a horário de fim' }],
    [{ start: '19:00', end: '09:00' }, { end: 'Horário final menor que inicial' }],
    [{ start: '09:00', end: '09:00' }, { end: 'Horário final menor que inicial' }],
  ])('%j → %j', (values, expected) => {
    expect(errorsOf(companyDaySchema, values)).toEqual(expected);
  });
});

/** GET company/{id} of a unit in Manaus. */
const detailOf = (TimeZone = 'America/Manaus', TimeZoneFromAddress = true) => ({
  IdCompany: 7, Name: 'Navalha Norte', Cnpj: '11222333000181', Email: 'norte@navalha.dev', Phone: '92987654321',
  WhatsApp: true, Status: true, Facebook: 'f', Instagram: 'i', Observation: '', ZipCode: '69005000',
  Street: 'Rua A B', Number: '1', District: 'Centro', City: 'Manaus', State: 'AM', Complement: '',
  OnlineCancelCutoffHours: 2, OnlineMaxFutureBookings: 2, OnlineNewcomerSharePercent: 30, OnlineNoShowLimit: 0,
  AttendantDiscountCapPercent: 100,
  CardFeeCreditPercent: 0, CardFeeDebitPercent: 0, ClubCommissionRule: 'plan', CommissionPeriod: 'month',
  AllowNegativeStock: false, RemindersBefore24h: false, RemindersBefore2h: false, TimeZone, TimeZoneFromAddress,
});

describe("a unit's time zone in the form (issue 39)", () => {
  const detail = (TimeZone: string, TimeZoneFromAddress: boolean) => toFormValues(detailOf(TimeZone, TimeZoneFromAddress));
  it("shows 'Automático' for the zone its address gives, and a corrected zone as chosen", () => {
    expect(detail('America/Manaus', true).timeZone).toBe('');
    expect(detail('America/Eirunepe', false).timeZone).toBe('America/Eirunepe');
  });
});

describe("a unit's 'Estoque' in the form (issue 43)", () => {
  it('reads and sends whether the unit sells without stock', () => {
    expect(toFormValues(detailOf()).allowNegativeStock).toBe(false);
    expect(toFormValues({ ...detailOf(), AllowNegativeStock: true }).allowNegativeStock).toBe(true);
    expect(toBody(VALID)).toMatchObject({ allowNegativeStock: false });
    expect(toBody({ ...VALID, allowNegativeStock: true })).toMatchObject({ allowNegativeStock: true });
  });
});

describe("a unit's 'Lembretes' in the form (issue 44)", () => {
  it('starts a new unit with no reminders and sends them off', () => {
    expect(EMPTY_COMPANY).toMatchObject({ remindersBefore24h: false, remindersBefore2h: false });
    expect(toBody(VALID)).toMatchObject({ remindersBefore24h: false, remindersBefore2h: false });
  });

  it('reads and sends each reminder on its own', () => {
    expect(toFormValues(detailOf())).toMatchObject({ remindersBefore24h: false, remindersBefore2h: false });
    expect(toFormValues({ ...detailOf(), RemindersBefore24h: true })).toMatchObject({
      remindersBefore24h: true,
      remindersBefore2h: false,
    });
    expect(toFormValues({ ...detailOf(), RemindersBefore2h: true })).toMatchObject({
      remindersBefore24h: false,
      remindersBefore2h: true,
    });
    expect(toBody({ ...VALID, remindersBefore24h: true })).toMatchObject({ remindersBefore24h: true, remindersBefore2h: false });
    expect(toBody({ ...VALID, remindersBefore2h: true })).toMatchObject({ remindersBefore24h: false, remindersBefore2h: true });
    expect(errorsOf(companySchema, { ...VALID, remindersBefore24h: true, remindersBefore2h: true })).toEqual({});
  });
});
