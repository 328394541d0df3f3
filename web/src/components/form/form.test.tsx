import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { addressFromViaCep, lookupCep } from '@/lib/cep';
import { server } from '@/test/server';
import { AddressFields } from './AddressFields';
import { applyServerErrors, fieldErrorsOf } from './serverErrors';

const unprocessable = (errors: Record<string, string>) => ({
  status: 422,
  data: { message: 'Dados inválidos.', errors },
});

describe('server errors on fields', () => {
  it('reads the errors map of a 422, and of a 409 that names a field', () => {
    expect(fieldErrorsOf(unprocessable({ cpf: 'CPF inválido' }))).toEqual({ cpf: 'CPF inválido' });
    expect(fieldErrorsOf({ status: 409, data: { message: 'Já existe', errors: { cpf: 'Já existe' } } })).toEqual({ cpf: 'Já existe' });
    expect(fieldErrorsOf({ status: 409, data: { message: 'Horário indisponível' } })).toBeNull();
    expect(fieldErrorsOf({ status: 500, data: { message: 'x', errors: { cpf: 'x' } } })).toBeNull();
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

  it('asks only for 8 digits, at {base}/{cep}/json/, and tells not found from a failed lookup', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ uf: 'MG', localidade: 'Belo Horizonte' })));
    expect(await lookupCep('30.140-07', fetchImpl as typeof fetch)).toEqual({ status: 'notFound' });
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(await lookupCep('30.140-071', fetchImpl as typeof fetch)).toMatchObject({
      status: 'found',
      address: { city: 'Belo Horizonte', state: 'MG' },
    });
    expect(fetchImpl).toHaveBeenCalledWith('/cep/30140071/json/', expect.anything());

    const answering = (body: string, status = 200) => vi.fn(async () => new Response(body, { status })) as typeof fetch;
    // ViaCEP's two spellings of an unknown CEP, its 400 for a malformed one, the gateway's 404.
    expect(await lookupCep('99999999', answering('{"erro": true}'))).toEqual({ status: 'notFound' });
    expect(await lookupCep('99999999', answering('{"erro": "true"}'))).toEqual({ status: 'notFound' });
    expect(await lookupCep('00000000', answering('Bad Request', 400))).toEqual({ status: 'notFound' });
    expect(await lookupCep('00000000', answering('{"message": "CEP não encontrado."}', 404))).toEqual({ status: 'notFound' });
    // Could not ask: says nothing about the CEP.
    expect(await lookupCep('01310100', answering('{"message": "Serviço de CEP indisponível no momento."}', 502))).toEqual({
      status: 'failed',
    });
    expect(await lookupCep('01310100', answering('<html>'))).toEqual({ status: 'failed' });
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await lookupCep('01310100', down as typeof fetch)).toEqual({ status: 'failed' });
  });
});

// --- The address fields in a form (issue 45 point 7: what was typed is never cleared). -----

interface AddressValues {
  cep: string;
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  state: string;
}

function AddressForm() {
  const form = useForm<AddressValues>({
    defaultValues: { cep: '', street: '', number: '', complement: '', district: '', city: '', state: '--' },
  });
  return (
    <form aria-label="Endereço">
      <AddressFields form={form} zipField="cep" />
    </form>
  );
}

const cepUrl = (cep: string) => new URL(`/cep/${cep}/json/`, window.location.origin).href;
const valueOf = (label: string) => (screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement).value;

/** Renders the form and types an address by hand, as a user whose CEP is not known would. */
async function typedAddress() {
  render(<AddressForm />);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Rua'), 'Rua das Flores');
  await user.type(screen.getByLabelText('Bairro'), 'Jardim Novo');
  await user.type(screen.getByLabelText('Cidade'), 'Campinas');
  await user.selectOptions(screen.getByLabelText('UF'), 'SP');
  return user;
}

const expectTypedAddressKept = () => {
  expect(valueOf('Rua')).toBe('Rua das Flores');
  expect(valueOf('Bairro')).toBe('Jardim Novo');
  expect(valueOf('Cidade')).toBe('Campinas');
  expect(valueOf('UF')).toBe('SP');
};

describe('address fields', () => {
  it('says CEP não encontrado on the CEP field for an unknown CEP, keeping the typed address', async () => {
    server.use(http.get(cepUrl('13099999'), () => HttpResponse.json({ erro: true })));
    const user = await typedAddress();
    await user.type(screen.getByLabelText('CEP'), '13099999');
    const message = await screen.findByRole('alert');
    expect(message.textContent).toBe('CEP não encontrado');
    expect(screen.getByLabelText('CEP').getAttribute('aria-describedby')).toBe(message.id);
    expectTypedAddressKept();

    // Editing the CEP takes the message away; a known CEP fills the address.
    server.use(http.get(cepUrl('01310100'), () => HttpResponse.json({ logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP' })));
    await user.type(screen.getByLabelText('CEP'), '{Backspace}');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.clear(screen.getByLabelText('CEP'));
    await user.type(screen.getByLabelText('CEP'), '01310100');
    await waitFor(() => expect(valueOf('Rua')).toBe('Avenida Paulista'));
    expect(valueOf('Bairro')).toBe('Bela Vista');
    expect(valueOf('Cidade')).toBe('São Paulo');
    expect(screen.getByLabelText('Número')).toBe(document.activeElement);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reads a 404 or a 400 as not found too', async () => {
    server.use(
      http.get(cepUrl('13099999'), () => HttpResponse.json({ message: 'CEP não encontrado.' }, { status: 404 })),
      http.get(cepUrl('13088888'), () => new HttpResponse('Bad Request', { status: 400 })),
    );
    const user = await typedAddress();
    await user.type(screen.getByLabelText('CEP'), '13099999');
    expect((await screen.findByRole('alert')).textContent).toBe('CEP não encontrado');
    await user.clear(screen.getByLabelText('CEP'));
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(screen.getByLabelText('CEP'), '13088888');
    expect((await screen.findByRole('alert')).textContent).toBe('CEP não encontrado');
    expectTypedAddressKept();
  });

  it('erases nothing and says nothing when the lookup cannot be made', async () => {
    let asked = 0;
    server.use(
      http.get(cepUrl('13010000'), () => {
        asked += 1;
        return HttpResponse.error();
      }),
      http.get(cepUrl('13020000'), () => {
        asked += 1;
        return HttpResponse.json({ message: 'Serviço de CEP indisponível no momento.' }, { status: 502 });
      }),
    );
    const user = await typedAddress();
    await user.type(screen.getByLabelText('CEP'), '13010000');
    await waitFor(() => expect(asked).toBe(1));
    await user.clear(screen.getByLabelText('CEP'));
    await user.type(screen.getByLabelText('CEP'), '13020000');
    await waitFor(() => expect(asked).toBe(2));
    // Let the answers land before looking.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('alert')).toBeNull();
    expectTypedAddressKept();
  });
});
