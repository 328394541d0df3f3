import { describe, expect, it } from 'vitest';
import { quickClientItem, quickClientPayload, quickClientPrefill, quickClientSchema, type QuickClientValues } from './quickClient';

const VALID: QuickClientValues = { name: 'Joana Prado', phone: '(11) 98765-4321', cpf: '', whatsApp: true };

/** The message of each field that fails. */
async function errorsOf(values: Partial<QuickClientValues>) {
  try {
    await quickClientSchema.validate({ ...VALID, ...values }, { abortEarly: false });
    return {};
  } catch (failure) {
    const { inner } = failure as { inner: { path: string; message: string }[] };
    return Object.fromEntries(inner.map((error) => [error.path, error.message]));
  }
}

describe("the desk's new client (issue 45)", () => {
  it('fills the name from a typed name and the mobile from typed digits', () => {
    expect(quickClientPrefill('')).toEqual({ name: '', phone: '', cpf: '', whatsApp: true });
    expect(quickClientPrefill('  joana prado ')).toEqual({ name: 'joana prado', phone: '', cpf: '', whatsApp: true });
    expect(quickClientPrefill('11987654321')).toEqual({ name: '', phone: '(11) 98765-4321', cpf: '', whatsApp: true });
    expect(quickClientPrefill('(11) 98765-4321')).toMatchObject({ name: '', phone: '(11) 98765-4321' });
    // A masked CPF can only be a CPF.
    expect(quickClientPrefill('529.982.247-25')).toMatchObject({ name: '', phone: '', cpf: '529.982.247-25' });
    // Letters and digits together read as a name.
    expect(quickClientPrefill('Joana 2')).toMatchObject({ name: 'Joana 2', phone: '' });
  });

  it("checks with the client form's messages, the CPF only when given", async () => {
    expect(await errorsOf({})).toEqual({});
    expect(await errorsOf({ cpf: '529.982.247-25' })).toEqual({});
    expect(await errorsOf({ name: '', phone: '' })).toEqual({
      name: 'Digite o nome completo',
      phone: 'Digite o número do celular',
    });
    expect(await errorsOf({ name: 'Joana', phone: '(11) 88765-4321', cpf: '529.982.247-24' })).toEqual({
      name: 'Digite o nome completo',
      phone: 'Informe um número válido',
      cpf: 'CPF inválido',
    });
  });

  it('sends one space between names, digits and a null CPF when none is given', () => {
    expect(quickClientPayload({ ...VALID, name: '  Joana   Prado ' })).toEqual({
      name: 'Joana Prado',
      phone: '11987654321',
      cpf: null,
      whatsApp: true,
    });
    const payload = quickClientPayload({ ...VALID, cpf: '529.982.247-25', whatsApp: false });
    expect(payload).toMatchObject({ cpf: '52998224725', whatsApp: false });
    expect(quickClientItem(31, payload)).toEqual({
      IdUser: 31,
      Name: 'Joana Prado',
      Phone: '11987654321',
      Email: '',
      Cpf: '52998224725',
      Status: true,
      SubscriptionUser: [],
      Unconfirmed: false,
      NoShows: 0,
      NoShowsLast90Days: 0,
    });
  });
});
