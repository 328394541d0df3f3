import { describe, expect, it } from 'vitest';
import { ValidationError } from 'yup';
import { loginSchema } from './loginSchema';

async function messages(values: Record<string, string>) {
  try {
    await loginSchema.validate(values, { abortEarly: false });
    return {};
  } catch (error) {
    const byField: Record<string, string[]> = {};
    for (const issue of (error as ValidationError).inner) {
      (byField[issue.path!] ??= []).push(issue.message);
    }
    return byField;
  }
}

describe('login schema', () => {
  it('asks for the e-mail and the password when empty', async () => {
    expect(await messages({ email: '', password: '' })).toEqual({
      email: ['Digite seu e-mail.'],
      password: ['Digite sua senha.'],
    });
  });

  it('rejects a malformed e-mail', async () => {
    for (const email of ['admin', 'admin@', 'admin@navalha', 'admin@navalha.d', 'a b@navalha.dev']) {
      expect((await messages({ email, password: 'Navalha@2026' })).email).toEqual(['E-mail inválido']);
    }
  });

  it('accepts e-mails with a domain or a bracketed IP', async () => {
    for (const email of ['admin@navalha.dev', 'first.last@mail.navalha.com.br', 'x@[10.0.0.1]']) {
      expect(await messages({ email, password: 'Navalha@2026' })).toEqual({});
    }
  });

  it('needs at least 6 characters of password', async () => {
    expect(await messages({ email: 'admin@navalha.dev', password: '12345' })).toEqual({
      password: ['Mínimo de 6 caracteres.'],
    });
    expect(await messages({ email: 'admin@navalha.dev', password: '123456' })).toEqual({});
  });
});
