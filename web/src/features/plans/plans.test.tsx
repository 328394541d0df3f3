import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { offeredServices } from './PlanServicesTab';
import { planClientsUrl, planFilterUrl } from './plansApi';
import {
  EMPTY_PLAN,
  otherMethodOf,
  planFormData,
  planSchema,
  planServiceSchema,
  planValues,
  type PlanFormValues,
  type PlanServiceValues,
} from './schema';
import { welcomeMessage } from './SendLinkModal';
import type { PlanClient, PlanDetail, PlanListItem, PlanService } from './types';

const VALID: PlanFormValues = {
  planName: 'Clube Ouro',
  description: 'Cortes ilimitados',
  value: 129.9,
  status: '1',
  discount: 10,
  allCompanies: false,
  companies: [1],
  partnerCompanies: [],
  validityStart: '2026-01-01',
  validityEnd: '2026-12-31',
  advertisingStart: '2026-02-01',
  advertisingEnd: '2026-03-01',
  infiniteCharge: false,
  quantity: 12,
  periodicity: 'monthly',
  paymentMethod: 'boleto',
  acceptsOther: false,
  otherValue: 0,
  firstDueDays: 5,
};

async function errorsOf<T extends object>(schema: { validate: (v: unknown, o: object) => Promise<unknown> }, values: T) {
  try {
    await schema.validate(values, { abortEarly: false });
    return {};
  } catch (failure) {
    const { inner } = failure as { inner: { path: string; message: string }[] };
    return Object.fromEntries(inner.map((error) => [error.path, error.message]));
  }
}
const planErrors = (values: Partial<PlanFormValues>) => errorsOf(planSchema, { ...VALID, ...values });
const serviceErrors = (values: Partial<PlanServiceValues>) => errorsOf(planServiceSchema, { idService: 2, discount: 10, ...values });

describe('plan schema (spec 02 §5 Plan form)', () => {
  it('accepts a full plan, an infinite plan of every unit and no advertising', async () => {
    expect(await planErrors({})).toEqual({});
    expect(await planErrors({ infiniteCharge: true, quantity: '', allCompanies: true, companies: [] })).toEqual({});
    expect(await planErrors({ advertisingStart: '', advertisingEnd: '' })).toEqual({});
  });

  it('requires each field with its message', async () => {
    expect(await planErrors({ ...EMPTY_PLAN, status: '', discount: '', periodicity: '' })).toEqual({
      planName: 'Informe o nome do plano',
      description: 'Digite a descrição.',
      value: 'Digite o valor.',
      status: 'Selecione o status.',
      discount: 'Digite o desconto',
      companies: 'Informe pelo menos uma empresa',
      validityStart: 'Digite uma data válida',
      validityEnd: 'Digite uma data válida',
      quantity: 'Digite a quantidade',
      periodicity: 'Informe a periodicidade.',
      paymentMethod: 'Informe o método de pagamento.',
    });
  });

  it('checks lengths, ranges and the payment method', async () => {
    expect(await planErrors({ planName: 'x'.repeat(61) })).toEqual({ planName: 'O nome do plano deve ter no máximo 60 caracteres.' });
    expect(await planErrors({ description: 'x'.repeat(151) })).toEqual({ description: 'A descrição deve ter no máximo 150 caracteres.' });
    expect(await planErrors({ value: 10_000_000 })).toEqual({ value: 'Digite o valor.' });
    expect(await planErrors({ value: 9_999_999.99 })).toEqual({});
    expect(await planErrors({ discount: 101 })).toEqual({ discount: 'O desconto deve estar entre 0 e 100.' });
    expect(await planErrors({ discount: 100 })).toEqual({});
    expect(await planErrors({ quantity: 101 })).toEqual({ quantity: 'A quantidade deve estar entre 0 e 100.' });
    expect(await planErrors({ quantity: 0 })).toEqual({});
    expect(await planErrors({ paymentMethod: 'pix' })).toEqual({ paymentMethod: 'Informe o método de pagamento.' });
    expect(await planErrors({ paymentMethod: 'creditcard' })).toEqual({});
  });

  it('checks the dates: valid, after 1900, in order, advertising within the validity', async () => {
    expect(await planErrors({ validityStart: '1900-12-31' })).toEqual({ validityStart: 'Digite uma data válida' });
    expect(await planErrors({ validityEnd: '2026-02-30' })).toEqual({ validityEnd: 'Digite uma data válida' });
    expect(await planErrors({ validityStart: '2027-01-01', advertisingStart: '', advertisingEnd: '' })).toEqual({
      validityStart: 'Data deve ser menor que data fim',
      validityEnd: 'Data deve ser maior que data inicio',
    });
    expect(await planErrors({ advertisingStart: '2026-04-01' })).toEqual({
      advertisingStart: 'Data deve ser menor que data fim',
      advertisingEnd: 'Data deve ser maior que data inicio',
    });
    expect(await planErrors({ advertisingStart: '2025-12-31' })).toEqual({
      advertisingStart: 'Data deve estar entre as data de inicio e fim de validada',
    });
    expect(await planErrors({ advertisingEnd: '2027-01-01' })).toEqual({
      advertisingEnd: 'Data deve estar entre as data de inicio e fim de validada',
    });
    expect(await planErrors({ advertisingStart: '1800-01-01' })).toEqual({ advertisingStart: 'Digite uma data válida' });
  });

  it('the first boleto is due 1 to 30 days after subscribing, 3 on a new plan', async () => {
    const message = 'O vencimento do primeiro boleto deve ser de 1 a 30 dias após a assinatura.';
    expect(EMPTY_PLAN.firstDueDays).toBe(3);
    expect(await planErrors({ firstDueDays: 1 })).toEqual({});
    expect(await planErrors({ firstDueDays: 30 })).toEqual({});
    expect(await planErrors({ firstDueDays: 0 })).toEqual({ firstDueDays: message });
    expect(await planErrors({ firstDueDays: 31 })).toEqual({ firstDueDays: message });
    expect(await planErrors({ firstDueDays: '' })).toEqual({ firstDueDays: message });
  });

  it('a price for the other method: required above zero and within the value limit, only when accepted', async () => {
    expect(otherMethodOf('boleto')).toBe('creditcard');
    expect(otherMethodOf('creditcard')).toBe('boleto');
    expect(otherMethodOf('')).toBeNull();
    expect(await planErrors({ acceptsOther: true, otherValue: 0 })).toEqual({ otherValue: 'Digite o valor.' });
    expect(await planErrors({ acceptsOther: true, otherValue: 10_000_000 })).toEqual({ otherValue: 'Digite o valor.' });
    expect(await planErrors({ acceptsOther: true, otherValue: 79.9 })).toEqual({});
    expect(await planErrors({ acceptsOther: false, otherValue: 0 })).toEqual({});
    // No main method: nothing else to accept, only the main method's message.
    expect(await planErrors({ paymentMethod: '', acceptsOther: true, otherValue: 0 })).toEqual({
      paymentMethod: 'Informe o método de pagamento.',
    });
  });
});

describe('plan service schema (spec 02 §5 Plan service form)', () => {
  it('requires a service and a discount from 0 to 100', async () => {
    expect(await serviceErrors({})).toEqual({});
    expect(await serviceErrors({ idService: 0, discount: '' })).toEqual({
      idService: 'Escolha um serviço',
      discount: 'Informe o valor do desconto',
    });
    expect(await serviceErrors({ discount: 101 })).toEqual({ discount: 'O desconto deve estar entre 0 e 100.' });
    expect(await serviceErrors({ discount: 0 })).toEqual({});
  });

  it('offers the services not in the plan, plus the one being edited', () => {
    const catalogue = [
      { IdService: 1, Description: 'Corte', ValueDefault: 45, TimeDefault: 30 },
      { IdService: 2, Description: 'Barba', ValueDefault: 35, TimeDefault: 30 },
      { IdService: 3, Description: 'Sobrancelha', ValueDefault: 15, TimeDefault: 15 },
    ];
    const barba: PlanService = { IdSubscriptionService: 9, IdService: 2, Description: 'Barba', OriginalValue: 35, Discount: 10, Value: 31.5 };
    const corte: PlanService = { ...barba, IdSubscriptionService: 10, IdService: 1, Description: 'Corte' };
    expect(offeredServices(catalogue, [barba, corte], null).map((s) => s.IdService)).toEqual([3]);
    expect(offeredServices(catalogue, [barba, corte], barba).map((s) => s.IdService)).toEqual([2, 3]);
    // A service no longer active still shows while its row is edited.
    expect(offeredServices(catalogue.slice(0, 1), [barba], barba).map((s) => s.IdService)).toEqual([2, 1]);
  });
});

describe('plan calls', () => {
  it('sends the multipart fields of spec 02 §7', () => {
    const file = new File(['x'], 'plano.png', { type: 'image/png' });
    const body = planFormData({ ...VALID, partnerCompanies: [2] }, 7, { file, exclude: false }, '4 cortes');
    expect(Object.fromEntries([...body.entries()].filter(([name]) => name !== 'file'))).toEqual({
      planName: 'Clube Ouro',
      description: 'Cortes ilimitados',
      value: '129.90',
      status: '1',
      discount: '10',
      allCompanies: 'false',
      validityStart: '2026-01-01',
      validityEnd: '2026-12-31',
      advertisingStart: '2026-02-01',
      advertisingEnd: '2026-03-01',
      periodicity: 'monthly',
      quantity: '12',
      itemsDetail: '4 cortes',
      paymentMethod: 'boleto',
      companies: '[{"idCompany":1,"idSubscriptionDetail":7}]',
      partnerCompanies: '[{"idPartnerCompany":2,"idSubscriptionDetail":7}]',
      prices: '[]',
      firstDueDays: '5',
    });
    expect(body.get('file')).toBeInstanceOf(File);
    expect(body.has('excludeFile')).toBe(false);

    const infinite = planFormData({ ...VALID, infiniteCharge: true, quantity: '', allCompanies: true }, null, { file: null, exclude: true });
    expect(infinite.get('quantity')).toBe('0');
    expect(infinite.get('companies')).toBe('[]');
    expect(infinite.get('excludeFile')).toBe('true');
    expect(infinite.has('file')).toBe(false);
  });

  it('sends the other accepted method and its price as `prices`', () => {
    const withCard = planFormData({ ...VALID, acceptsOther: true, otherValue: 99.5 }, 7, { file: null, exclude: false });
    expect(withCard.get('prices')).toBe('[{"paymentMethod":"creditcard","value":"99.50"}]');
    const withBoleto = planFormData({ ...VALID, paymentMethod: 'creditcard', acceptsOther: true, otherValue: 79.9 }, null, {
      file: null,
      exclude: false,
    });
    expect(withBoleto.get('prices')).toBe('[{"paymentMethod":"boleto","value":"79.90"}]');
    // Unchecked: the typed price stays in the form but is not sent.
    expect(planFormData({ ...VALID, acceptsOther: false, otherValue: 79.9 }, 7, { file: null, exclude: false }).get('prices')).toBe('[]');
  });

  it('loads the first boleto\'s due days', () => {
    expect(planValues(ouroDetail).firstDueDays).toBe(7);
  });

  it('loads the other method and its price from Prices', () => {
    expect(planValues({ ...ouroDetail, Prices: [{ PaymentMethod: 'boleto', Value: 129.9 }] })).toMatchObject({
      acceptsOther: false,
      otherValue: 0,
    });
    expect(
      planValues({
        ...ouroDetail,
        Prices: [
          { PaymentMethod: 'boleto', Value: 129.9 },
          { PaymentMethod: 'creditcard', Value: 139.9 },
        ],
      }),
    ).toMatchObject({ paymentMethod: 'boleto', acceptsOther: true, otherValue: 139.9 });
  });

  it('builds the list and client-search URLs', () => {
    expect(planFilterUrl({ page: 1, pageSize: 5, description: ' ouro ', status: '', paymentMethod: 'boleto' })).toBe(
      'subscription-details?page=1&pageSize=5&description=ouro&paymentMethod=boleto',
    );
    expect(planClientsUrl({ page: 2, pageSize: 5, search: 'ana' })).toBe('user/filter?page=2&pageSize=5&search=ana&status=1');
  });

  it('writes the welcome message with the plan and the link', () => {
    expect(welcomeMessage('Ana Souza', 'Clube Ouro', 'http://x/checkout?token=t')).toBe(
      'Olá, Ana! Seja bem-vindo(a) ao clube de assinatura da Navalha. Para assinar o plano Clube Ouro, acesse o link: http://x/checkout?token=t',
    );
  });
});

// ---------------------------------------------------------------------------
// Screens, with the network mocked.

const ouro: PlanListItem = {
  IdSubscriptionDetail: 3,
  PlanName: 'Clube Ouro',
  Description: 'Cortes ilimitados',
  Value: 129.9,
  Status: 1,
  PaymentMethod: 'boleto',
  Prices: [
    { PaymentMethod: 'boleto', Value: 129.9 },
    { PaymentMethod: 'creditcard', Value: 139.9 },
  ],
  Subscribers: 2,
};

const ana: PlanClient = { IdUser: 11, Name: 'Ana Souza', Phone: '11987654321', Email: 'ana@example.com', Cpf: '', Status: true, Unconfirmed: false, SubscriptionUser: [], NoShows: 0, NoShowsLast90Days: 0 };

const ouroDetail: PlanDetail = {
  ...ouro,
  Discount: 0,
  UrlImage: null,
  AdvertisingStart: null,
  AdvertisingEnd: null,
  ValidityStart: '2026-01-01',
  ValidityEnd: '2030-12-31',
  AllCompanies: false,
  Periodicity: 'monthly',
  Quantity: 12,
  InfiniteCharge: false,
  GalaxPayId: 77,
  FirstDueDays: 7,
  ItemsDetail: '4 cortes',
  companiesList: [{ Company: { IdCompany: 1, Name: 'Navalha Centro' } }],
  partnerCompanyList: [],
  subscriptionsList: [],
};

function plansServer() {
  const state = { writes: [] as { method: string; url: string; body: FormData | unknown }[] };
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('partner-company'), () => HttpResponse.json([{ IdPartnerCompany: 1, Name: 'Academia' }])),
    http.get(apiUrl('subscription-details'), ({ request }) => {
      const search = new URL(request.url).searchParams.get('description');
      const content = search && !'clube ouro'.includes(search.toLowerCase()) ? [] : [ouro];
      return HttpResponse.json({ content, total: content.length, count: content.length });
    }),
    http.get(apiUrl('subscription-details/:id'), () => HttpResponse.json(ouroDetail)),
    http.put(apiUrl('subscription-details/:id'), async ({ request }) => {
      state.writes.push({ method: 'PUT', url: request.url, body: await request.formData() });
      return HttpResponse.json({ IdSubscriptionDetail: 3 });
    }),
    http.get(apiUrl('user/filter'), () => HttpResponse.json({ content: [ana], total: 1, count: 1 })),
  );
  return state;
}

async function openSendLink(user: ReturnType<typeof userEvent.setup>) {
  renderApp('/dashboard/subscription-detail-list', { session: signedInSession('ADMIN') });
  await user.click(await screen.findByRole('button', { name: 'Enviar link de Clube Ouro' }));
  const dialog = screen.getByRole('dialog', { name: 'Enviar link do plano' });
  await within(dialog).findByText('Ana Souza');
  return dialog;
}

describe('plans screens', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists plans; a search that finds nothing says so and hints at the filters', async () => {
    const user = userEvent.setup();
    plansServer();
    renderApp('/dashboard/subscription-detail-list', { session: signedInSession('ADMIN') });
    const table = await screen.findByRole('table', { name: 'Planos' });
    await within(table).findByText('Clube Ouro');
    expect(within(table).getByText(/R\$\s129,90/)).toBeTruthy();
    expect(within(table).getByText(/^Cartão de crédito: R\$\s139,90$/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Novo plano' })).toBeTruthy();
    await user.type(screen.getByLabelText('Busque pelo nome ou descrição'), 'prata');
    await user.click(screen.getByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
    expect(screen.getByText('Escolha um campo para filtar os planos de assinatura')).toBeTruthy();
  });

  it('a failed link shows the server message, or the spec one, once', async () => {
    const user = userEvent.setup();
    plansServer();
    let answer: 'cpf' | 'bare' = 'cpf';
    server.use(
      http.post(apiUrl('checkout/create-user-token'), () =>
        answer === 'cpf'
          ? HttpResponse.json({ message: 'Cadastre o CPF do cliente antes de enviar o link.' }, { status: 422 })
          : HttpResponse.json({}, { status: 500 }),
      ),
      http.post(apiUrl('checkout/send-user-token-email'), () => HttpResponse.json({}, { status: 500 })),
    );
    const dialog = await openSendLink(user);
    await user.click(within(dialog).getByRole('button', { name: 'Copiar link de Ana Souza' }));
    expect(await screen.findByText('Cadastre o CPF do cliente antes de enviar o link.')).toBeTruthy();
    expect(screen.queryByText('Ocorreu um erro ao gerar o link do usuario.')).toBeNull();

    answer = 'bare';
    await user.click(within(dialog).getByRole('button', { name: 'Enviar por WhatsApp para Ana Souza' }));
    expect(await screen.findByText('Ocorreu um erro ao gerar o link do usuario.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Enviar por e-mail para Ana Souza' }));
    expect(await screen.findByText('Ocorreu um erro ao enviar o link para o usuário.')).toBeTruthy();
    expect(screen.queryByText('Ocorreu um erro ao chamar o serviço.')).toBeNull();
  });

  it('copies the link and opens WhatsApp with it', async () => {
    const user = userEvent.setup();
    plansServer();
    const link = 'http://127.0.0.1/checkout?token=abc';
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('checkout/create-user-token'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ Token: 'abc', Link: link }, { status: 201 });
      }),
    );
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const dialog = await openSendLink(user);

    await user.click(within(dialog).getByRole('button', { name: 'Copiar link de Ana Souza' }));
    expect(await screen.findByText('Link copiado !!')).toBeTruthy();
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe(link);
    expect(bodies[0]).toEqual({ userId: 11, planId: 3 });

    await user.click(within(dialog).getByRole('button', { name: 'Enviar por WhatsApp para Ana Souza' }));
    await waitFor(() => expect(open).toHaveBeenCalled());
    const url = decodeURIComponent(String(open.mock.calls[0][0]));
    expect(url).toMatch(/^https:\/\/wa\.me\/5511987654321\?text=Olá, Ana!/);
    expect(url).toContain('Clube Ouro');
    expect(url).toContain(link);
  });

  it('a plan at the provider keeps its integration read-only and still sends it', async () => {
    const user = userEvent.setup();
    const state = plansServer();
    renderApp('/dashboard/subscription-detail-form/3', { session: signedInSession('ADMIN') });
    expect(((await screen.findByLabelText('Nome do plano')) as HTMLInputElement).value).toBe('Clube Ouro');
    expect((screen.getByLabelText('ID no GalaxPay') as HTMLInputElement).value).toBe('77');
    expect(screen.getByLabelText('Forma de pagamento').matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Periodicidade').matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Cobrança infinita').matches(':disabled')).toBe(true);
    const acceptsCard = screen.getByLabelText('Aceitar também Cartão de crédito') as HTMLInputElement;
    expect(acceptsCard.checked).toBe(true);
    expect(acceptsCard.matches(':disabled')).toBe(true);
    expect((screen.getByLabelText('Valor no Cartão de crédito') as HTMLInputElement).value).toMatch(/139,90/);
    expect(screen.getByLabelText('Valor no Cartão de crédito').matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Nome do plano').matches(':disabled')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Plano de assinatura atualizado com sucesso!')).toBeTruthy();
    const body = state.writes[0].body as FormData;
    expect(body.get('paymentMethod')).toBe('boleto');
    expect(body.get('periodicity')).toBe('monthly');
    expect(body.get('quantity')).toBe('12');
    expect(body.get('itemsDetail')).toBe('4 cortes');
    expect(body.get('companies')).toBe('[{"idCompany":1,"idSubscriptionDetail":3}]');
    expect(body.get('prices')).toBe('[{"paymentMethod":"creditcard","value":"139.90"}]');
  });

  it('a plan not yet at the provider accepts the other method at its own price', async () => {
    const user = userEvent.setup();
    const state = plansServer();
    let refuse = true;
    server.use(
      http.get(apiUrl('subscription-details/:id'), () =>
        HttpResponse.json({ ...ouroDetail, GalaxPayId: null, Prices: [{ PaymentMethod: 'boleto', Value: 129.9 }] }),
      ),
      http.put(apiUrl('subscription-details/:id'), async ({ request }) => {
        state.writes.push({ method: 'PUT', url: request.url, body: await request.formData() });
        if (refuse) {
          refuse = false;
          return HttpResponse.json({ message: 'Digite o valor.', errors: { prices: 'Digite o valor.' } }, { status: 422 });
        }
        return HttpResponse.json({ IdSubscriptionDetail: 3 });
      }),
    );
    renderApp('/dashboard/subscription-detail-form/3', { session: signedInSession('ADMIN') });
    const accepts = (await screen.findByLabelText('Aceitar também Cartão de crédito')) as HTMLInputElement;
    expect(accepts.checked).toBe(false);
    expect(screen.queryByLabelText('Valor no Cartão de crédito')).toBeNull();
    await user.click(accepts);
    await user.click(screen.getByRole('button', { name: 'Atualizar' }));
    // The browser asks for the price first.
    expect(await screen.findByText('Digite o valor.')).toBeTruthy();
    expect(state.writes).toHaveLength(0);
    await user.type(screen.getByLabelText('Valor no Cartão de crédito'), '13990');
    await user.click(screen.getByRole('button', { name: 'Atualizar' }));
    // The server's refusal of `prices` lands on the same field.
    await waitFor(() => expect(state.writes).toHaveLength(1));
    expect((await screen.findAllByText('Digite o valor.')).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Valor no Cartão de crédito').getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Plano de assinatura atualizado com sucesso!')).toBeTruthy();
    expect((state.writes[1].body as FormData).get('prices')).toBe('[{"paymentMethod":"creditcard","value":"139.90"}]');

    // Changing the main method offers the other one; unchecking sends none.
    await user.selectOptions(screen.getByLabelText('Forma de pagamento'), 'creditcard');
    await user.click(screen.getByLabelText('Aceitar também Boleto'));
    expect(screen.queryByLabelText('Valor no Boleto')).toBeNull();
  });

  it('a new plan has its first boleto due 3 days after subscribing', async () => {
    plansServer();
    renderApp('/dashboard/subscription-detail-form/new', { session: signedInSession('ADMIN') });
    const days = (await screen.findByLabelText('Vencimento do primeiro boleto (dias)')) as HTMLInputElement;
    expect(days.value).toBe('3');
    expect(within(screen.getByRole('group', { name: 'Integração' })).getByLabelText('Vencimento do primeiro boleto (dias)')).toBe(days);
  });

  it('the first boleto\'s due days: loaded, checked, sent, and the server\'s refusal on the field', async () => {
    const user = userEvent.setup();
    const state = plansServer();
    const message = 'O vencimento do primeiro boleto deve ser de 1 a 30 dias após a assinatura.';
    let refuse = true;
    server.use(
      http.put(apiUrl('subscription-details/:id'), async ({ request }) => {
        state.writes.push({ method: 'PUT', url: request.url, body: await request.formData() });
        if (refuse) {
          refuse = false;
          return HttpResponse.json({ message, errors: { firstDueDays: message } }, { status: 422 });
        }
        return HttpResponse.json({ IdSubscriptionDetail: 3 });
      }),
    );
    renderApp('/dashboard/subscription-detail-form/3', { session: signedInSession('ADMIN') });
    const days = (await screen.findByLabelText('Vencimento do primeiro boleto (dias)')) as HTMLInputElement;
    await waitFor(() => expect(days.value).toBe('7'));
    // Not a charging term of the provider's: editable on a plan it already has.
    expect(days.matches(':disabled')).toBe(false);
    const field = days.closest('.field') as HTMLElement;

    await user.clear(days);
    await user.type(days, '31');
    await user.click(screen.getByRole('button', { name: 'Atualizar' }));
    expect((await within(field).findByRole('alert')).textContent).toBe(message);
    expect(state.writes).toHaveLength(0);

    await user.clear(days);
    await user.type(days, '10');
    await user.click(screen.getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(state.writes).toHaveLength(1));
    expect((state.writes[0].body as FormData).get('firstDueDays')).toBe('10');
    // The server's refusal lands on the field.
    expect((await within(field).findByRole('alert')).textContent).toBe(message);

    await user.click(screen.getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Plano de assinatura atualizado com sucesso!')).toBeTruthy();
    expect((state.writes[1].body as FormData).get('firstDueDays')).toBe('10');
  });

  it('an ATTENDANT reads a plan: fields and buttons disabled', async () => {
    plansServer();
    renderApp('/dashboard/subscription-detail-form/3', { session: signedInSession('ATTENDANT') });
    const name = (await screen.findByLabelText('Nome do plano')) as HTMLInputElement;
    expect(name.value).toBe('Clube Ouro');
    expect(name.matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Valor').matches(':disabled')).toBe(true);
    expect((screen.getByRole('button', { name: 'Atualizar' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText('Escolher imagem')).toBeNull();
    expect(planValues(ouroDetail)).toMatchObject({ quantity: 12, companies: [1], status: '1' });
  });
});
