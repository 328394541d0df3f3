import { describe, expect, it } from 'vitest';
import type { AnyObjectSchema, ValidationError } from 'yup';
import {
  isComplexPassword,
  newPasswordSchema,
  passwordRules,
  recoveryCodeSchema,
  recoveryEmailSchema,
  setPasswordSchema,
  signupSchema,
} from './schemas';

/** The first message per field, as the forms show them. */
async function messages(schema: AnyObjectSchema, values: Record<string, unknown>) {
  try {
    await schema.validate(values, { abortEarly: false });
    return {};
  } catch (error) {
    const byField: Record<string, string> = {};
    for (const issue of (error as ValidationError).inner) byField[issue.path!] ??= issue.message;
    return byField;
  }
}

describe('password rules', () => {
  it('ticks each rule of the live checklist', () => {
    const met = (value: string) => passwordRules.filter((rule) => rule.test(value)).map((rule) => rule.id);
    expect(met('')).toEqual([]);
    expect(met('abc')).toEqual(['lower']);
    expect(met('Abcdef1')).toEqual(['length', 'upper', 'lower', 'digit']);
    expect(met('Navalha@2026')).toEqual(['length', 'upper', 'lower', 'digit', 'special']);
  });

  it('needs a lowercase and an uppercase letter, a digit and one of ! @ # $ % ^ & *', () => {
    expect(isComplexPassword('Navalha@2026')).toBe(true);
    expect(isComplexPassword('Navalha2026')).toBe(false);
    expect(isComplexPassword('navalha@2026')).toBe(false);
    expect(isComplexPassword('NAVALHA@2026')).toBe(false);
    expect(isComplexPassword('Navalha@abc')).toBe(false);
    expect(isComplexPassword('Navalha?2026')).toBe(false);
  });
});

describe('registration password', () => {
  it('asks for both fields', async () => {
    expect(await messages(setPasswordSchema, { password: '', password_confirm: '' })).toEqual({
      password: 'Digite sua senha.',
      password_confirm: 'Digite sua senha novamente.',
    });
  });

  it('needs 6 characters, complexity and the same confirmation', async () => {
    expect((await messages(setPasswordSchema, { password: 'Ab@1', password_confirm: 'Ab@1' })).password).toBe(
      'Sua senha precisa ter ao menos 6 dígitos',
    );
    expect((await messages(setPasswordSchema, { password: 'abcdef', password_confirm: 'abcdef' })).password).toBe(
      'Digite uma senha válida.',
    );
    expect(await messages(setPasswordSchema, { password: 'Navalha@2026', password_confirm: 'Navalha@2025' })).toEqual({
      password_confirm: 'A senha informada deve ser igual a anterior',
    });
    expect(await messages(setPasswordSchema, { password: 'Navalha@2026', password_confirm: 'Navalha@2026' })).toEqual({});
  });
});

describe('recovery', () => {
  it('asks for a valid e-mail', async () => {
    expect(await messages(recoveryEmailSchema, { email: '' })).toEqual({ email: 'Digite seu e-mail.' });
    expect(await messages(recoveryEmailSchema, { email: 'admin@navalha' })).toEqual({ email: 'E-mail inválido' });
    expect(await messages(recoveryEmailSchema, { email: 'admin@navalha.dev' })).toEqual({});
  });

  it('asks for the code', async () => {
    expect(await messages(recoveryCodeSchema, { code: ' ' })).toEqual({ code: 'Digite o código.' });
  });

  it('checks the new password and its confirmation', async () => {
    expect(await messages(newPasswordSchema, { password: '', confirmPassword: '' })).toEqual({
      password: 'Digite a senha nova.',
      confirmPassword: 'Digite a confirmação da senha.',
    });
    expect(await messages(newPasswordSchema, { password: 'Ab@1', confirmPassword: 'Ab@1' })).toEqual({
      password: 'Mínimo de 6 caracteres.',
      confirmPassword: 'Mínimo de 6 caracteres.',
    });
    expect((await messages(newPasswordSchema, { password: 'abcdefg', confirmPassword: 'abcdefg' })).password).toBe(
      'Digite uma senha válida.',
    );
    expect(await messages(newPasswordSchema, { password: 'Navalha@2026', confirmPassword: 'Navalha@2027' })).toEqual({
      confirmPassword: 'As senhas não são iguais.',
    });
  });
});

describe('registration information', () => {
  const now = () => new Date('2026-11-23T12:00:00-03:00');
  const valid = { cpf: '529.982.247-25', name: 'Diego Barbeiro', cell: '(11) 98765-4321', whats: true, date: '1990-05-20' };

  it('accepts a complete form, with or without a birth date', async () => {
    expect(await messages(signupSchema(now), valid)).toEqual({});
    expect(await messages(signupSchema(now), { ...valid, date: '' })).toEqual({});
  });

  it('asks for CPF, full name and cell phone', async () => {
    expect(await messages(signupSchema(now), { cpf: '', name: '', cell: '', whats: false, date: '' })).toEqual({
      cpf: 'O campo CPF é obrigatório.',
      name: 'O campo Nome Completo é obrigatório.',
      cell: 'O campo celular é obrigatório.',
    });
  });

  it('refuses a short or wrong CPF, a single name, a short cell and a future birth date', async () => {
    expect(
      await messages(signupSchema(now), { cpf: '529.982.247', name: 'Diego', cell: '(11) 9876-543', whats: false, date: '2026-11-24' }),
    ).toEqual({
      cpf: 'Digite um CPF válido.',
      name: 'Digite o seu nome completo',
      cell: 'Digite um número de celular válido.',
      date: 'Digite uma data de nascimento válida',
    });
    expect((await messages(signupSchema(now), { ...valid, cpf: '529.982.247-24' })).cpf).toBe('Digite um CPF válido.');
  });
});
