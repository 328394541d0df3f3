import { describe, expect, it } from 'vitest';
import * as yup from 'yup';
import { addressRules, clientBirthDateRule, cpfRule, isMobile, mobileRule, nameRule, professionalBirthDateRule } from './rules';

const now = () => new Date('2026-11-23T15:00:00Z');
const messageOf = (schema: { validateSync: (value: unknown) => unknown }, value: unknown) => {
  try {
    schema.validateSync(value);
    return null;
  } catch (error) {
    return (error as yup.ValidationError).message;
  }
};

describe('back-office field rules (spec 02 §5)', () => {
  it('mobile: 11 digits, area code not starting with 9, number starting with 9', () => {
    expect(isMobile('(11) 9 8765-4321')).toBe(true);
    expect(isMobile('(91) 9 8765-4321')).toBe(false);
    expect(isMobile('(11) 8 8765-4321')).toBe(false);
    expect(messageOf(mobileRule(), '')).toBe('Digite o número do celular');
    expect(messageOf(mobileRule(), '(11) 3333-4444')).toBe('Informe um número válido');
  });

  it('CPF: required, valid, never the sample', () => {
    expect(messageOf(cpfRule(), '')).toBe('Digite o CPF');
    expect(messageOf(cpfRule(), '012.345.678-90')).toBe('CPF inválido');
    expect(messageOf(cpfRule(), '529.982.247-25')).toBeNull();
  });

  it('names: two words of the minimum length', () => {
    expect(messageOf(nameRule('Digite o nome completo', 3), 'Ana')).toBe('Digite o nome completo');
    expect(messageOf(nameRule('Digite o nome completo', 3), 'Ana Lu')).toBe('Digite o nome completo');
    expect(messageOf(nameRule('Digite o nome completo', 3), 'Ana Luz')).toBeNull();
  });

  it('birth dates: optional for clients, over 10 years old for professionals', () => {
    expect(messageOf(clientBirthDateRule(now), '')).toBeNull();
    expect(messageOf(clientBirthDateRule(now), '-')).toBeNull();
    expect(messageOf(clientBirthDateRule(now), '1900-05-01')).toBe('Digite uma data válida');
    expect(messageOf(clientBirthDateRule(now), '2026-11-24')).toBe('Digite uma data válida');
    expect(messageOf(clientBirthDateRule(now), '2026-11-23')).toBeNull();
    expect(messageOf(professionalBirthDateRule(now), '2016-01-01')).toBe('Data de nascimento inválida');
    expect(messageOf(professionalBirthDateRule(now), '2015-12-31')).toBeNull();
  });

  it('address: CEP, a street of two words, number up to 99999, UF chosen', () => {
    const schema = yup.object(addressRules('cep'));
    const valid = { cep: '01.310-100', street: 'Avenida Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', state: 'SP', complement: '' };
    expect(messageOf(schema, valid)).toBeNull();
    expect(messageOf(schema, { ...valid, street: 'Paulista' })).toBe('Digite o nome da rua completo');
    expect(messageOf(schema, { ...valid, number: '100000' })).toBe('Digite um número válido.');
    expect(messageOf(schema, { ...valid, state: '--' })).toBe('Escolha um estado');
  });
});
