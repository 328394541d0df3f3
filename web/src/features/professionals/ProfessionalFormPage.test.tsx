import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RoleType } from '@/api/types';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import type { CommissionAnswer, ProfessionalDetail } from './types';

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
function professionalServer({ typesFail = false, status = detail.Status } = {}) {
  const posted: { body: unknown; key: string | null }[] = [];
  const put: unknown[] = [];
  let typesCalls = 0;
  let detailReads = 0;
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('business'), () => HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: 'ACTIVE' })),
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
      return HttpResponse.json({ ...detail, Status: status });
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

    // The CEP lookup cannot be made here: nothing is filled, cleared or said; the user types
    // the address.
    let cepAsked = false;
    server.use(
      http.get(new URL('/cep/01310100/json/', window.location.origin).href, () => {
        cepAsked = true;
        return HttpResponse.error();
      }),
    );
    await user.type(within(form).getByLabelText('CEP'), '01310100');
    await waitFor(() => expect(cepAsked).toBe(true));
    expect(within(form).getByLabelText('UF')).toHaveProperty('value', '--');
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
      'Comissões',
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

  it('says why a pending professional is not in the agenda, and how to activate them', async () => {
    professionalServer({ status: 0 });
    open('/dashboard/professional/9');
    const form = await screen.findByRole('form', { name: 'Informações do profissional' });
    const notice = await within(form).findByRole('note');
    expect(notice.textContent).toBe(
      'Este profissional ainda não aparece na agenda porque o Status está Pendente. Para que ele possa ser agendado, mude o Status para Ativo e salve. A senha de acesso ele cria pelo link enviado para o e-mail cadastrado.',
    );
    expect(within(form).getByLabelText('Status')).toHaveProperty('value', '0');
    // Beside the status, in the same section.
    expect(notice.closest('fieldset')).toBe(within(form).getByLabelText('Status').closest('fieldset'));
  });

  it('shows no pending notice for an active professional, nor when registering', async () => {
    professionalServer();
    open('/dashboard/professional/9');
    const form = await screen.findByRole('form', { name: 'Informações do profissional' });
    await waitFor(() => expect(within(form).getByLabelText('Status')).toHaveProperty('value', '1'));
    expect(within(form).queryByRole('note')).toBeNull();
    cleanup();
    open('/dashboard/professional/new');
    const empty = await screen.findByRole('form', { name: 'Informações do profissional' });
    expect(within(empty).queryByRole('note')).toBeNull();
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

// --- 'Comissões' (issue 42). ----------------------------------------------------------------

const rates: CommissionAnswer = {
  Set: true,
  ServicePercent: 40,
  ProductPercent: 12.5,
  Services: [{ IdService: 2, Description: 'Barba', Percent: null, Fixed: 30 }],
  CardFeeShared: true, Partner: false,
};

const offered = [
  { IdCompanyProfessionalService: 1, IdService: 1, Description: 'Corte de cabelo', Value: 50, Time: 30, Status: true, Combo: false },
  { IdCompanyProfessionalService: 2, IdService: 2, Description: 'Barba', Value: 40, Time: 30, Status: true, Combo: false },
  { IdCompanyProfessionalService: 3, IdService: 4, Description: 'Sobrancelha', Value: 20, Time: 15, Status: false, Combo: false },
];

const PERCENT_MSG = 'Informe uma porcentagem de 0 a 100, com até duas casas decimais.';

/** The professional's page calls, and the commission's: GET answers `answer`, PUT answers `reply`. */
function commissionServer(answer: CommissionAnswer = rates, reply?: { status: number; body: object }) {
  const calls = professionalServer();
  const saved: unknown[] = [];
  let reads = 0;
  server.use(
    http.get(apiUrl('professional/9/commission'), () => {
      reads += 1;
      return HttpResponse.json(answer);
    }),
    http.get(apiUrl('professional-service/professional/9'), () => HttpResponse.json(offered)),
    http.put(apiUrl('professional/9/commission'), async ({ request }) => {
      saved.push(await request.json());
      return reply ? HttpResponse.json(reply.body, { status: reply.status }) : HttpResponse.json({ IdProfessional: 9 });
    }),
  );
  return { ...calls, saved, reads: () => reads };
}

/** Opens professional 9 on 'Comissões' and waits for the rates. */
async function openCommission(role: RoleType = 'ADMIN') {
  open('/dashboard/professional/9', role);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('tab', { name: 'Comissões' }));
  const form = await screen.findByRole('form', { name: 'Comissões' });
  return { user, form };
}

const value = (scope: HTMLElement, label: string) => (within(scope).getByLabelText(label) as HTMLInputElement).value;

describe("professional's commissions", () => {
  beforeEach(() => {
    window.innerWidth = 1280;
  });

  it('loads the rates, edits them and saves each service with its percent or its fixed amount', async () => {
    const state = commissionServer();
    const { user, form } = await openCommission();
    expect(screen.getByText('As comissões valem a partir de agora: comandas já fechadas mantêm o que renderam.')).toBeTruthy();
    expect(screen.queryByText('Nenhuma comissão definida: os serviços rendem 0%.')).toBeNull();
    expect(value(form, 'Comissão em serviços (%)')).toBe('40');
    expect(value(form, 'Comissão em produtos (%)')).toBe('12,5');
    expect(within(form).getByRole('checkbox', { name: 'Dividir a taxa da maquininha de cartão' })).toHaveProperty('checked', true);
    const first = within(form).getByRole('group', { name: 'Serviço 1' });
    expect(value(first, 'Serviço')).toBe('2');
    expect(value(first, 'Tipo')).toBe('fixed');
    expect(value(first, 'Valor fixo')).toBe('R$\u00a030,00');

    await user.clear(within(form).getByLabelText('Comissão em serviços (%)'));
    await user.type(within(form).getByLabelText('Comissão em serviços (%)'), '45,5');
    await user.click(within(form).getByRole('checkbox', { name: 'Dividir a taxa da maquininha de cartão' }));
    await user.click(within(form).getByRole('button', { name: 'Adicionar serviço' }));
    const second = within(form).getByRole('group', { name: 'Serviço 2' });
    // The services the professional offers (active), and the ones with a rate already.
    await waitFor(() => expect(within(second).getByRole('option', { name: 'Corte de cabelo' })).toBeTruthy());
    expect(within(second).queryByRole('option', { name: 'Sobrancelha' })).toBeNull();
    await user.selectOptions(within(second).getByLabelText('Serviço'), 'Corte de cabelo');
    expect(value(second, 'Tipo')).toBe('percent');
    await user.type(within(second).getByLabelText('Porcentagem (%)'), '50');
    await user.click(within(form).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Comissões salvas com sucesso!')).toBeTruthy();
    expect(state.saved).toEqual([
      {
        servicePercent: 45.5,
        productPercent: 12.5,
        services: [
          { idService: 2, fixed: 30 },
          { idService: 1, percent: 50 },
        ],
        cardFeeShared: false,
        partner: false,
      },
    ]);
    // The rates are read again after the save.
    await waitFor(() => expect(state.reads()).toBe(2));
  });

  it('takes a row off, and checks the rates with the server’s messages before sending', async () => {
    const state = commissionServer({ Set: false, ServicePercent: 0, ProductPercent: 0, Services: [], CardFeeShared: false, Partner: false });
    const { user, form } = await openCommission();
    expect(screen.getByText('Nenhuma comissão definida: os serviços rendem 0%.')).toBeTruthy();
    expect(value(form, 'Comissão em serviços (%)')).toBe('0');

    await user.clear(within(form).getByLabelText('Comissão em serviços (%)'));
    await user.type(within(form).getByLabelText('Comissão em serviços (%)'), '100,5');
    await user.clear(within(form).getByLabelText('Comissão em produtos (%)'));
    await user.type(within(form).getByLabelText('Comissão em produtos (%)'), '12,345');
    for (let i = 0; i < 4; i += 1) await user.click(within(form).getByRole('button', { name: 'Adicionar serviço' }));
    const row = (n: number) => within(form).getByRole('group', { name: `Serviço ${n}` });
    await waitFor(() => expect(within(row(1)).getByRole('option', { name: 'Barba' })).toBeTruthy());
    // Row 1 without a service; rows 2 and 3 the same one; row 4 a fixed amount, then taken off.
    await user.selectOptions(within(row(2)).getByLabelText('Serviço'), 'Barba');
    await user.type(within(row(2)).getByLabelText('Porcentagem (%)'), '30');
    await user.selectOptions(within(row(3)).getByLabelText('Serviço'), 'Barba');
    await user.selectOptions(within(row(3)).getByLabelText('Tipo'), 'Valor fixo');
    await user.type(within(row(3)).getByLabelText('Valor fixo'), '2500');
    await user.click(within(row(4)).getByRole('button', { name: 'Remover serviço 4' }));
    expect(within(form).queryByRole('group', { name: 'Serviço 4' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Salvar' }));

    const messageOf = async (scope: HTMLElement) => (await within(scope).findByRole('alert')).textContent;
    expect(await messageOf(within(form).getByLabelText('Comissão em serviços (%)').closest('.field')! as HTMLElement)).toBe(PERCENT_MSG);
    expect(await messageOf(within(form).getByLabelText('Comissão em produtos (%)').closest('.field')! as HTMLElement)).toBe(PERCENT_MSG);
    // A row without a service, nor a percent: both messages.
    expect(within(row(1)).getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Escolha o serviço.', PERCENT_MSG]);
    expect(within(row(2)).queryByRole('alert')).toBeNull();
    expect(await messageOf(row(3))).toBe('Este serviço já tem uma comissão própria.');
    expect(state.saved).toEqual([]);
  });

  it("puts the server's 422 on the row's field it names", async () => {
    const state = commissionServer(
      { ...rates, Services: [{ IdService: 1, Description: 'Corte de cabelo', Percent: 50, Fixed: null }] },
      {
        status: 422,
        body: {
          message: 'Verifique os campos.',
          errors: {
            'services.0.percent': 'Informe a porcentagem ou o valor fixo, não os dois.',
            productPercent: PERCENT_MSG,
          },
        },
      },
    );
    const { user, form } = await openCommission();
    const first = within(form).getByRole('group', { name: 'Serviço 1' });
    expect(value(first, 'Porcentagem (%)')).toBe('50');
    await user.click(within(form).getByRole('button', { name: 'Salvar' }));

    expect(await within(first).findByText('Informe a porcentagem ou o valor fixo, não os dois.')).toBeTruthy();
    expect(within(first).getByLabelText('Porcentagem (%)').getAttribute('aria-invalid')).toBe('true');
    const product = within(form).getByLabelText('Comissão em produtos (%)');
    expect(product.getAttribute('aria-invalid')).toBe('true');
    expect(state.saved).toHaveLength(1);
    expect(screen.queryByText('Comissões salvas com sucesso!')).toBeNull();
  });

  it('shows the rates read-only, without Salvar, to a role that may not edit', async () => {
    commissionServer();
    const { form } = await openCommission('DEFAULT');
    expect(value(form, 'Comissão em serviços (%)')).toBe('40');
    for (const label of ['Comissão em serviços (%)', 'Comissão em produtos (%)']) {
      expect(within(form).getByLabelText(label).matches(':disabled')).toBe(true);
    }
    expect(within(form).getByRole('checkbox', { name: 'Dividir a taxa da maquininha de cartão' }).matches(':disabled')).toBe(true);
    const first = within(form).getByRole('group', { name: 'Serviço 1' });
    // Named by the rates' answer (the offered services are not read for a reader).
    expect(within(first).getByRole('option', { name: 'Barba', selected: true })).toBeTruthy();
    for (const label of ['Serviço', 'Tipo', 'Valor fixo']) expect(within(first).getByLabelText(label).matches(':disabled')).toBe(true);
    expect(within(form).queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(within(form).queryByRole('button', { name: 'Adicionar serviço' })).toBeNull();
    expect(within(form).queryByRole('button', { name: /^Remover/ })).toBeNull();
  });
});
