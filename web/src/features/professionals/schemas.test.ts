import { describe, expect, it } from 'vitest';
import type { AnyObjectSchema, ValidationError } from 'yup';
import { PALETTE, PALETTE_HEX } from './palette';
import { commissionPayloadOf, commissionValuesOf } from './CommissionTab';
import {
  commissionSchema,
  dayOffSchema,
  emptyDayOff,
  emptyProfessional,
  isPercent,
  professionalSchema,
  type CommissionValues,
  type DayOffValues,
  type ProfessionalValues,
} from './schemas';

/** The first message per field, as the forms show them. */
async function messages(schema: AnyObjectSchema, values: object) {
  try {
    await schema.validate(values, { abortEarly: false });
    return {};
  } catch (error) {
    const byField: Record<string, string> = {};
    for (const issue of (error as ValidationError).inner) byField[issue.path!] ??= issue.message;
    return byField;
  }
}

const now = () => new Date('2026-06-15T12:00:00Z');

const valid: ProfessionalValues = {
  name: 'Diego Barbeiro',
  cpf: '529.982.247-25',
  email: 'diego@navalha.dev',
  phone: '(11) 98765-4321',
  whatsApp: true,
  birthDate: '1990-05-20',
  cep: '01.001-000',
  street: 'Praça da Sé',
  number: '100',
  complement: '',
  district: 'Sé',
  city: 'São Paulo',
  state: 'SP',
  idCompany: '1',
  color: '#FF9800',
  idTypeProfile: '4',
  status: '0',
};

const professional = (changes: Partial<ProfessionalValues>) => messages(professionalSchema(now), { ...valid, ...changes });

describe('professional schema', () => {
  it('accepts a complete form', async () => {
    expect(await professional({})).toEqual({});
  });

  it('says what is missing on an empty form', async () => {
    expect(await messages(professionalSchema(now), emptyProfessional)).toEqual({
      name: 'Digite o nome completo',
      cpf: 'Digite o CPF',
      email: 'Digite o e-mail',
      phone: 'Digite o número do celular',
      birthDate: 'Data de nascimento inválida',
      cep: 'Digite o CEP',
      street: 'Digite o nome da rua completo',
      number: 'Digite um número válido.',
      district: 'Digite o bairro',
      city: 'Digite a cidade',
      state: 'Escolha um estado',
      idCompany: 'Escolha a empresa',
      color: 'Informe uma cor',
      idTypeProfile: 'Informe o perfil',
    });
  });

  it.each<[Partial<ProfessionalValues>, string, string]>([
    [{ name: 'Diego' }, 'name', 'Digite o nome completo'],
    [{ name: 'Diego B' }, 'name', 'Digite o nome completo'],
    [{ email: 'diego@navalha' }, 'email', 'E-mail inválido'],
    [{ phone: '(11) 8765-4321' }, 'phone', 'Informe um número válido'],
    [{ phone: '(91) 98765-4321' }, 'phone', 'Informe um número válido'],
    [{ cpf: '111.111.111-11' }, 'cpf', 'CPF inválido'],
    [{ cpf: '012.345.678-90' }, 'cpf', 'CPF inválido'],
    [{ cpf: '529.982.247-2' }, 'cpf', 'CPF inválido'],
    [{ birthDate: '-' }, 'birthDate', 'Data de nascimento inválida'],
    [{ birthDate: '1900-12-31' }, 'birthDate', 'Data de nascimento inválida'],
    // Earlier than the current year minus 10: 2016 is too late in 2026.
    [{ birthDate: '2016-01-01' }, 'birthDate', 'Data de nascimento inválida'],
    [{ cep: '01.001-00' }, 'cep', 'CEP inválido'],
    [{ street: 'Sé' }, 'street', 'Digite o nome da rua completo'],
    [{ number: '100000' }, 'number', 'Digite um número válido.'],
    [{ number: 'abc' }, 'number', 'Digite um número válido.'],
    [{ state: '--' }, 'state', 'Escolha um estado'],
    [{ idCompany: '' }, 'idCompany', 'Escolha a empresa'],
    [{ color: '#123456' }, 'color', 'Informe uma cor'],
    [{ idTypeProfile: '' }, 'idTypeProfile', 'Informe o perfil'],
    [{ status: '3' }, 'status', 'Escolha um Status'],
  ])('%o → %s: %s', async (changes, field, message) => {
    expect(await professional(changes)).toEqual({ [field]: message });
  });

  it('takes the birth year 2015 in 2026, and any status of spec 02 §4', async () => {
    expect(await professional({ birthDate: '2015-12-31' })).toEqual({});
    for (const status of ['0', '1', '2']) expect(await professional({ status })).toEqual({});
  });

  it('offers the 12 colours the server accepts', async () => {
    expect(PALETTE).toHaveLength(12);
    expect(new Set(PALETTE_HEX).size).toBe(12);
    for (const color of PALETTE_HEX) expect(await professional({ color: color.toLowerCase() })).toEqual({});
  });
});

const dayOff = (changes: Partial<DayOffValues>) =>
  messages(dayOffSchema(), {
    ...emptyDayOff,
    description: 'Férias de verão',
    dateStart: '2026-12-20',
    dateEnd: '2027-01-05',
    ...changes,
  });

describe('day-off schema', () => {
  it('accepts an all-day range and a time window', async () => {
    expect(await dayOff({})).toEqual({});
    expect(await dayOff({ dateEnd: '2026-12-20', allDay: false, startTime: '14:00', endTime: '16:30' })).toEqual({});
    // On a longer range the end time may be earlier than the start time.
    expect(await dayOff({ allDay: false, startTime: '14:00', endTime: '09:00' })).toEqual({});
  });

  it('says what is missing on an empty form', async () => {
    expect(await messages(dayOffSchema(), { ...emptyDayOff, allDay: false })).toEqual({
      description: 'Digite a descrição da folga/férias',
      dateStart: 'Digite a data de início',
      dateEnd: 'Digite a data de fim',
      startTime: 'Digite o horário inicial',
      endTime: 'Digite o horário final',
    });
  });

  it.each<[Partial<DayOffValues>, string, string]>([
    [{ description: '   ' }, 'description', 'Digite a descrição da folga/férias'],
    [{ description: 'ab c' }, 'description', 'Digite uma descrição válida'],
    [{ dateStart: '2000-12-31' }, 'dateStart', 'Digite uma data válida'],
    [{ dateEnd: '2000-12-31' }, 'dateEnd', 'Digite uma data válida'],
    [{ dateEnd: '2026-12-19' }, 'dateEnd', 'Data deve ser maior ou igual à data inicio'],
    [{ allDay: false, startTime: '25:00', endTime: '16:00' }, 'startTime', 'Formato incorreto.'],
    [{ allDay: false, startTime: '14:00', endTime: '1600' }, 'endTime', 'Formato incorreto.'],
    [
      { dateEnd: '2026-12-20', allDay: false, startTime: '14:00', endTime: '14:00' },
      'endTime',
      'Horário deve ser maior que horário início',
    ],
  ])('%o → %s: %s', async (changes, field, message) => {
    expect(await dayOff(changes)).toEqual({ [field]: message });
  });

  it('ignores the times of an all-day entry', async () => {
    expect(await dayOff({ allDay: true, startTime: 'xx', endTime: '' })).toEqual({});
  });
});

describe('commission rates', () => {
  const PERCENT = 'Informe uma porcentagem de 0 a 100, com até duas casas decimais.';

  it('reads percentages of 0 to 100 with up to two decimals, as the server does', () => {
    expect(['0', '40', '12,5', '12.5', '12,50', '99,99', '100', '100,00', ' 7 '].filter((v) => !isPercent(v))).toEqual([]);
    expect(['', '-1', '100,01', '101', '12,345', 'abc', '1e2', '12,'].filter(isPercent)).toEqual([]);
  });

  it('checks the rows: a service each, one rate per service, the kind’s value only', async () => {
    const values: CommissionValues = {
      servicePercent: '40',
      productPercent: '101',
      cardFeeShared: false,
      partner: false,
      services: [
        { idService: 0, kind: 'fixed', percent: 'x', fixed: 10 },
        { idService: 2, kind: 'percent', percent: '50', fixed: -1 },
        { idService: 2, kind: 'fixed', percent: '', fixed: 100_000.01 },
      ],
    };
    expect(await messages(commissionSchema(), values)).toEqual({
      productPercent: PERCENT,
      'services[0].idService': 'Escolha o serviço.',
      'services[2].idService': 'Este serviço já tem uma comissão própria.',
      'services[2].fixed': 'O valor deve ser de no máximo R$\u00a0100.000,00.',
    });
  });

  it('sends each service with its percent or its fixed amount, and reads the answer back', () => {
    const answer = {
      Set: true,
      ServicePercent: 40,
      ProductPercent: 12.5,
      CardFeeShared: true,
      Partner: true,
      Services: [
        { IdService: 2, Description: 'Barba', Percent: null, Fixed: 30 },
        { IdService: 1, Description: 'Corte de cabelo', Percent: 33.33, Fixed: null },
      ],
    };
    const values = commissionValuesOf(answer);
    expect(values).toEqual({
      servicePercent: '40',
      productPercent: '12,5',
      cardFeeShared: true,
      partner: true,
      services: [
        { idService: 2, kind: 'fixed', percent: '', fixed: 30 },
        { idService: 1, kind: 'percent', percent: '33,33', fixed: 0 },
      ],
    });
    expect(commissionPayloadOf(values)).toEqual({
      servicePercent: 40,
      productPercent: 12.5,
      cardFeeShared: true,
      partner: true,
      services: [
        { idService: 2, fixed: 30 },
        { idService: 1, percent: 33.33 },
      ],
    });
  });
});
