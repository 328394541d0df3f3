import { describe, expect, it } from 'vitest';
import { ValidationError } from 'yup';
import { profilePayload, profileSchema, profileValues } from './schema';
import type { MyProfile } from './types';

const PROFILE: MyProfile = {
  IdProfessional: 5,
  Name: 'Eduardo Barbeiro',
  Cpf: '12345602830',
  Email: 'barbeiro2@navalha.dev',
  Phone: '11987650004',
  WhatsApp: true,
  BirthDate: '1989-03-10',
  Cep: '01042001',
  Street: 'Rua Barão de Itapetininga',
  Number: '50',
  District: 'República',
  City: 'São Paulo',
  State: 'SP',
  Complement: null,
  Status: 1,
  Color: '#FF9800',
  IdTypeProfile: 5,
  IdCompany: 1,
  Companies: [{ IdCompany: 1, IdCompanyProfessional: 7, Name: 'Navalha Centro' }],
};

const now = () => new Date('2026-06-01T12:00:00Z');

async function messages(values: object) {
  try {
    await profileSchema(now).validate(values, { abortEarly: false });
    return {};
  } catch (failure) {
    if (!(failure instanceof ValidationError)) throw failure;
    return Object.fromEntries(failure.inner.map((e) => [e.path, e.message]));
  }
}

describe('my profile form', () => {
  it('masks what it loads and sends digits back', () => {
    const values = profileValues(PROFILE);
    expect(values).toMatchObject({ cpf: '123.456.028-30', phone: '(11) 98765-0004', cep: '01.042-001', complement: '' });
    expect(profilePayload(values)).toEqual({
      name: 'Eduardo Barbeiro',
      email: 'barbeiro2@navalha.dev',
      cpf: '12345602830',
      phone: '11987650004',
      whatsApp: true,
      birthDate: '1989-03-10',
      cep: '01042001',
      street: 'Rua Barão de Itapetininga',
      number: '50',
      complement: '',
      district: 'República',
      city: 'São Paulo',
      state: 'SP',
    });
  });

  it("applies spec 02 §5 'Professional and my profile'", async () => {
    expect(await messages(profileValues(PROFILE))).toEqual({});
    expect(
      await messages({
        ...profileValues(PROFILE),
        name: 'Eduardo',
        email: 'x@',
        phone: '(91) 2345-6789',
        cpf: '012.345.678-90',
        birthDate: '2020-01-01',
        street: 'Rua',
        number: '100000',
        state: '--',
      }),
    ).toEqual({
      name: 'Digite o nome completo',
      email: 'E-mail inválido',
      phone: 'Informe um número válido',
      cpf: 'CPF inválido',
      birthDate: 'Data de nascimento inválida',
      street: 'Digite o nome da rua completo',
      number: 'Digite um número válido.',
      state: 'Escolha um estado',
    });
  });
});
