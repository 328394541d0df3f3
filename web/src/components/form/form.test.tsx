import { describe, expect, it, vi } from 'vitest';
import { addressFromViaCep, lookupCep } from '@/lib/cep';
import { applyServerErrors, fieldErrorsOf } from './serverErrors';

const unprocessable = (errors: Record<string, string>) => ({
  status: 422,
  data: { message: 'Dados inválidos.', errors },
});

describe('server errors on fields', () => {
  it('reads the errors map of a 422 only', () => {
    expect(fieldErrorsOf(unprocessable({ cpf: 'CPF inválido' }))).toEqual({ cpf: 'CPF inválido' });
    expect(fieldErrorsOf({ status: 409, data: { message: 'Já existe', errors: { cpf: 'x' } } })).toBeNull();
    expect(fieldErrorsOf({ status: 422, data: { message: 'Sem campos' } })).toBeNull();
    expect(fieldErrorsOf(new Error('network'))).toBeNull();
  });

  it('sets each named field, mapping body names, skipping fields the form lacks, focusing the first', () => {
    const setError = vi.fn();
    const landed = applyServerErrors(
      unprocessable({ cpf: 'CPF inválido', idCompany: 'Escolha a empresa', unknown: 'x' }),
      setError,
      ['cpf', 'company'],
      { idCompany: 'company' },
    );
    expect(landed).toBe(true);
    expect(setError).toHaveBeenCalledTimes(2);
    expect(setError).toHaveBeenCalledWith('cpf', { type: 'server', message: 'CPF inválido' }, { shouldFocus: true });
    expect(setError).toHaveBeenCalledWith('company', { type: 'server', message: 'Escolha a empresa' }, { shouldFocus: false });
  });

  it('lands nothing for a failure without field errors', () => {
    const setError = vi.fn();
    expect(applyServerErrors({ status: 500, data: {} }, setError, ['cpf'])).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});

describe('postal-code lookup (ViaCEP contract)', () => {
  it('reads an address, and both spellings of erro as not found', () => {
    expect(addressFromViaCep({ logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP' })).toEqual({
      street: 'Avenida Paulista',
      district: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
    });
    expect(addressFromViaCep({ erro: true })).toBeNull();
    expect(addressFromViaCep({ erro: 'true' })).toBeNull();
  });

  it('asks only for 8 digits, at {base}/{cep}/json/, and gives null on 400 or a network failure', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ uf: 'MG', localidade: 'Belo Horizonte' })));
    expect(await lookupCep('30.140-07', fetchImpl as typeof fetch)).toBeNull();
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(await lookupCep('30.140-071', fetchImpl as typeof fetch)).toMatchObject({ city: 'Belo Horizonte', state: 'MG' });
    expect(fetchImpl).toHaveBeenCalledWith('/cep/30140071/json/', expect.anything());

    const bad = vi.fn(async () => new Response('Bad Request', { status: 400 }));
    expect(await lookupCep('00000000', bad as typeof fetch)).toBeNull();
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await lookupCep('01310100', down as typeof fetch)).toBeNull();
  });
});
