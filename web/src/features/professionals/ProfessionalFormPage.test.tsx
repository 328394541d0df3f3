import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RoleType } from '@/api/types';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import type { ProfessionalDetail } from './types';

const detail: ProfessionalDetail = {
  IdProfessional: 9,
  Name: 'Diego Barbeiro',
  Cpf: '52998224725',
  Email: 'diego@navalha.dev',
  Phone: '11987650003',
  WhatsApp: true,
  BirthDate: '1990-05-20',
  Status: 1,
  Cep: '01042001',
  Street: 'Rua Barão de Itapetininga',
  Number: '50',
  District: 'República',
  City: 'São Paulo',
  State: 'SP',
  Complement: '',
  Color: '#FF9800',
  IdTypeProfile: 4,
  IdCompany: 1,
  Companies: [
    { IdCompany: 1, IdCompanyProfessional: 7, Name: 'Navalha Centro' },
    { IdCompany: 2, IdCompanyProfessional: 8, Name: 'Navalha Praia' },
  ],
};

/** The shell's calls, and the professional form's. */
function professionalServer({ typesFail = false } = {}) {
  const posted: { body: unknown; key: string | null }[] = [];
  const put: unknown[] = [];
  let typesCalls = 0;
  let detailReads = 0;
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('types-profile'), () => {
      typesCalls += 1;
      return typesFail
        ? HttpResponse.json({ message: 'Falhou' }, { status: 500 })
        : HttpResponse.json([
            { IdTypeProfile: 1, Type: 'ADMIN', Description: 'Administrador' },
            { IdTypeProfile: 4, Type: 'BARBER1', Description: 'Barbeiro 1' },
          ]);
    }),
    http.get(apiUrl('professional/9'), () => {
      detailReads += 1;
      return HttpResponse.json(detail);
    }),
    http.get(apiUrl('professional/filter'), () => HttpResponse.json({ content: [], total: 0, count: 0 })),
    http.post(apiUrl('professional'), async ({ request }) => {
      posted.push({ body: await request.json(), key: request.headers.get('Idempotency-Key') });
      return HttpResponse.json({ IdProfessional: 10 }, { status: 201 });
    }),
    http.put(apiUrl('professional/9'), async ({ request }) => {
      put.push(await request.json());
      return HttpResponse.json({ IdProfessional: 9 });
    }),
  );
  return { posted, put, typesCalls: () => typesCalls, detailReads: () => detailReads };
}

const open = (path: string, role: RoleType = 'ADMIN') => renderApp(path, { session: signedInSession(role) });

describe('professional form', () => {
  beforeEach(() => {
    window.innerWidth = 1280;
  });

  it('registers a professional: pending, one Idempotency-Key, toast, back to the list', async () => {
    const { posted } = professionalServer();
    const { router } = open('/dashboard/professional/form');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Informações do profissional' });
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Informações']);
    expect(within(form).queryByLabelText('Status')).toBeNull();

    // The CEP lookup fails here: the address clears and the user types it.
    server.use(http.get(new URL('/cep/01310100/json/', window.location.origin).href, () => HttpResponse.error()));
    await user.type(within(form).getByLabelText('CEP'), '01310100');
    await waitFor(() => expect(within(form).getByLabelText('UF')).toHaveProperty('value', '--'));
    await user.type(within(form).getByLabelText('Nome completo'), 'Rafael Souza');
    await user.type(within(form).getByLabelText('CPF'), '52998224725');
    await user.type(within(form).getByLabelText('E-mail'), 'rafael@example.com');
    await user.type(within(form).getByLabelText('Celular'), '11987654321');
    await user.type(within(form).getByLabelText('Data de nascimento'), '1991-02-03');
    await user.type(within(form).getByLabelText('Rua'), 'Avenida Paulista');
    await user.type(within(form).getByLabelText('Número'), '1000');
    await user.type(within(form).getByLabelText('Bairro'), 'Bela Vista');
    await user.type(within(form).getByLabelText('Cidade'), 'São Paulo');
    await user.selectOptions(within(form).getByLabelText('UF'), 'SP');
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Barbeiro 1' })).toBeTruthy());
    await user.selectOptions(within(form).getByLabelText('Empresa'), 'Navalha Centro');
    await user.selectOptions(within(form).getByLabelText('Perfil'), 'Barbeiro 1');
    await user.click(within(form).getByRole('radio', { name: 'Roxo' }));
    await user.click(within(form).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Profissional cadastrado com sucesso!')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/professional'));
    // The list answered: no call is left to outlive the test's handlers.
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
    expect(posted).toHaveLength(1);
    expect(posted[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posted[0].body).toEqual({
      name: 'Rafael Souza',
      cpf: '52998224725',
      email: 'rafael@example.com',
      phone: '11987654321',
      whatsApp: false,
      birthDate: '1991-02-03',
      cep: '01310100',
      street: 'Avenida Paulista',
      number: '1000',
      complement: '',
      district: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      status: 0,
      idCompany: 1,
      idsCompanies: [],
      color: '#7B1FA2',
      idTypeProfile: 4,
    });
  });

  it('edits a professional, keeping their other units', async () => {
    const { put, detailReads } = professionalServer();
    const { router } = open('/dashboard/professional/9');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Informações do profissional' });
    await waitFor(() => expect(within(form).getByLabelText('Nome completo')).toHaveProperty('value', 'Diego Barbeiro'));
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Informações',
      'Horário de trabalho',
      'Serviços',
      'Folga/Férias',
      'Histórico',
    ]);
    await waitFor(() => expect(within(form).getByLabelText('Perfil')).toHaveProperty('value', '4'));
    expect(within(form).getByLabelText('CPF')).toHaveProperty('value', '529.982.247-25');
    expect(within(form).getByRole('radio', { name: 'Laranja' })).toHaveProperty('checked', true);
    await user.selectOptions(within(form).getByLabelText('Status'), 'Inativo');
    await user.click(within(form).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informações atualizadas com sucesso!')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/professional'));
    // The list and the saved professional's re-read answered before the handlers go.
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
    await waitFor(() => expect(detailReads()).toBe(2));
    expect(put).toHaveLength(1);
    expect(put[0]).toMatchObject({ status: 2, idCompany: 1, idsCompanies: [2], color: '#FF9800', idTypeProfile: 4, cep: '01042001' });
  });

  it('loads the profile types silently: a failure shows no toast', async () => {
    const calls = professionalServer({ typesFail: true });
    open('/dashboard/professional/new');
    const form = await screen.findByRole('form', { name: 'Informações do profissional' });
    await waitFor(() => expect(calls.typesCalls()).toBe(1));
    // Let the failed answer be handled before looking for a toast.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Falhou')).toBeNull();
    expect(screen.queryByText('Ocorreu um erro ao chamar o serviço.')).toBeNull();
    expect(within(form).getByLabelText('Perfil')).toBeTruthy();
  });

  it('shows the form read-only, without Salvar, to a role that may not edit', async () => {
    professionalServer();
    open('/dashboard/professional/9', 'DEFAULT');
    const form = await screen.findByRole('form', { name: 'Informações do profissional' });
    await waitFor(() => expect(within(form).getByLabelText('Nome completo')).toHaveProperty('value', 'Diego Barbeiro'));
    // The whole form sits in a disabled fieldset.
    for (const label of ['Nome completo', 'CPF', 'CEP', 'Empresa', 'Perfil', 'Status']) {
      expect(within(form).getByLabelText(label).matches(':disabled')).toBe(true);
    }
    expect(within(form).getByRole('radio', { name: 'Laranja' }).matches(':disabled')).toBe(true);
    expect(within(form).queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(within(form).getByRole('button', { name: 'Cancelar' })).toBeTruthy();
  });
});
