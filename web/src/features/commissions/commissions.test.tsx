import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvNumber, csvText } from '@/lib/csv';
import type { RoleType } from '@/api/types';
import { todayIso } from '@/lib/dates';
import { companyItem, otherCompany, ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { periodsUrl, statementUrl } from './commissionsApi';
import {
  asOfOfInput,
  closePeriodSchema,
  comandaRows,
  commissionBars,
  csvFileName,
  entryEffect,
  entrySchema,
  hasCommission,
  lineDetail,
  mayManageCommissions,
  monthToDate,
  paidText,
  periodErrors,
  rateText,
  statementCsv,
  statementFigures,
} from './model';
import type { Period, Statement, StatementLine, UnitProfessional } from './types';

const ROLES: RoleType[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT'];

const line = (overrides: Partial<StatementLine>): StatementLine => ({
  IdComanda: 12,
  Date: '2026-11-03',
  IdItem: 1,
  Kind: 'service',
  Description: 'Corte de cabelo',
  Quantity: 1,
  Value: 50,
  Percent: 40,
  Fixed: null,
  Commission: 20,
  CardFee: 0,
  Club: false,
  ...overrides,
});

/**
 * Diego's November: a 'Corte de cabelo' at 40 % and two 'Pomada' at 10 % on comanda 12 (with a
 * R$ 5,00 tip), a 'Barba' at R$ 26,00 fixed on comanda 15, a R$ 10,00 bonus, and comanda 9 of a
 * paid period R$ 5,00 down since.
 */
const NOVEMBER: Statement = {
  IdProfessional: 4,
  From: '2026-11-01',
  To: '2026-11-27',
  AsOf: null,
  Services: 80,
  Products: 40,
  Gross: 120,
  Commission: 50,
  CardFees: 0,
  Tips: 5,
  Vales: 0,
  Bonuses: 10,
  Adjustments: -5,
  Net: 60,
  Lines: [
    line({ IdComanda: 15, Date: '2026-11-20', IdItem: 3, Description: 'Barba', Value: 30, Percent: null, Fixed: 26, Commission: 26 }),
    line({}),
    line({ IdItem: 2, Kind: 'product', Description: 'Pomada', Quantity: 2, Value: 40, Percent: 10, Commission: 4 }),
  ],
  Comandas: [
    { IdComanda: 15, Date: '2026-11-20', Commission: 26, Tips: 0 },
    { IdComanda: 12, Date: '2026-11-03', Commission: 24, Tips: 5 },
  ],
  Entries: [{ IdEntry: 1, Kind: 'bonus', Value: 10, Reason: 'Meta batida', Date: '2026-11-10' }],
  AdjustmentLines: [{ IdComanda: 9, Value: -5 }],
  Period: null,
  Partner: false,
  PartnerShare: 0,
  SalonShare: 0,
};

const PAID_OCTOBER: Period = {
  IdPeriod: 2,
  From: '2026-10-16',
  To: '2026-11-01',
  PaidAt: '2026-11-02',
  Method: 'transfer',
  ClosedAt: '2026-11-02T13:00:00Z',
  Net: 300,
};

describe('commission words and figures', () => {
  it('lets only ADMIN manage commissions', () => {
    expect(ROLES.filter(mayManageCommissions)).toEqual(['ADMIN']);
    expect(mayManageCommissions(null)).toBe(false);
  });

  it('starts on the month up to today and checks the period as typed', () => {
    expect(monthToDate('2026-11-27')).toEqual({ from: '2026-11-01', to: '2026-11-27' });
    expect(monthToDate('2026-12-01')).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    expect(periodErrors('2026-11-01', '2026-11-01')).toEqual({});
    expect(periodErrors('2026-11-02', '2026-11-01')).toEqual({ to: 'A data final deve ser igual ou posterior à inicial.' });
    expect(periodErrors('', '2026-11-01')).toEqual({ from: 'Informe a data inicial.' });
    expect(periodErrors('2026-11-01', '')).toEqual({ to: 'Informe a data final.' });
    expect(asOfOfInput('2026-11-20T10:00')).toBe('2026-11-20T10:00');
    expect(asOfOfInput('2026-11-20')).toBeNull();
  });

  it('builds the calls', () => {
    expect(statementUrl({ idProfessional: 4, from: '2026-11-01', to: '2026-11-27' })).toBe(
      'commission/statement?idProfessional=4&from=2026-11-01&to=2026-11-27',
    );
    expect(statementUrl({ idProfessional: 4, from: '2026-11-01', to: '2026-11-27', asOf: '2026-11-20T10:00' })).toBe(
      'commission/statement?idProfessional=4&from=2026-11-01&to=2026-11-27&asOf=2026-11-20T10%3A00',
    );
    expect(periodsUrl(4)).toBe('commission/periods?idProfessional=4');
  });

  it('writes rates, entries, the paid banner and the figures signed as they count', () => {
    const plain = (text: string) => text.replace(/\u00a0/g, ' ');
    expect(rateText({ Percent: 40, Fixed: null })).toBe('40%');
    expect(rateText({ Percent: 12.5, Fixed: null })).toBe('12,5%');
    expect(plain(rateText({ Percent: null, Fixed: 30 }))).toBe('R$ 30,00 fixo');
    expect(plain(lineDetail(line({})))).toBe('Serviço · R$ 50,00 · 40%');
    expect(plain(lineDetail(line({ Club: true, CardFee: 0.6 })))).toBe('Serviço · Assinatura · R$ 50,00 · 40% · taxa de cartão -R$ 0,60');
    expect(entryEffect({ Kind: 'vale', Value: 20 })).toBe(-20);
    expect(entryEffect({ Kind: 'bonus', Value: 10 })).toBe(10);
    expect(paidText({ PaidAt: '2026-11-30', Method: 'pix' })).toBe('Período fechado e pago em 30/11/2026 por Pix');
    expect(paidText({ PaidAt: '2026-11-30', Method: 'cash' })).toBe('Período fechado e pago em 30/11/2026 por Dinheiro');
    expect(paidText({ PaidAt: '2026-11-30', Method: 'transfer' })).toBe('Período fechado e pago em 30/11/2026 por Transferência');
    const figures = statementFigures({ ...NOVEMBER, Vales: 20 });
    expect(figures.map((figure) => [figure.label, figure.value])).toEqual([
      ['Serviços', 80],
      ['Produtos', 40],
      ['Comissão', 50],
      ['Gorjetas', 5],
      ['Vales', -20],
      ['Bônus', 10],
      ['Ajustes', -5],
      ['Líquido a pagar', 60],
    ]);
    // No '-R$ 0,00' for a period without vales.
    expect(Object.is(statementFigures(NOVEMBER)[4].value, 0)).toBe(true);
    // The card fee shared, once there is one, before the adjustments.
    expect(statementFigures({ ...NOVEMBER, CardFees: 1.35 }).map((figure) => [figure.label, figure.value])[6]).toEqual([
      'Taxas de cartão',
      -1.35,
    ]);
  });

  it('groups the lines under their comandas, by day', () => {
    const rows = comandaRows(NOVEMBER);
    expect(rows.map((row) => [row.IdComanda, row.Commission, row.Tips, row.Lines.map((l) => l.IdItem)])).toEqual([
      [12, 24, 5, [1, 2]],
      [15, 26, 0, [3]],
    ]);
    // A line whose comanda the answer does not list still shows, earning what its lines do.
    const orphan = comandaRows({
      Comandas: [],
      Lines: [line({ IdComanda: 30, Commission: 7.1 }), line({ IdComanda: 30, IdItem: 2, Commission: 0.2 })],
    });
    expect(orphan).toEqual([expect.objectContaining({ IdComanda: 30, Commission: 7.3, Tips: 0 })]);
  });

  it('draws a bar per day of the period, or per month for a long one', () => {
    const days = commissionBars(NOVEMBER);
    expect(days.unit).toBe('day');
    expect(days.bars).toHaveLength(27);
    expect(days.bars[2]).toEqual({ key: '2026-11-03', label: '03/11', title: '03/11/2026', commission: 24 });
    expect(days.bars[19].commission).toBe(26);
    expect(hasCommission(days.bars)).toBe(true);
    expect(hasCommission(commissionBars({ ...NOVEMBER, Comandas: [], Lines: [] }).bars)).toBe(false);

    const months = commissionBars({ ...NOVEMBER, From: '2026-01-01', To: '2026-11-27' });
    expect(months.unit).toBe('month');
    expect(months.bars).toHaveLength(11);
    expect(months.bars[10]).toEqual({ key: '2026-11', label: 'nov/2026', title: 'Novembro de 2026', commission: 50 });
  });

  it('exports the lines and the totals as a CSV for a spreadsheet', () => {
    const csv = statementCsv({ ...NOVEMBER, Vales: 20, Net: 40 });
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Data;Comanda;Descrição;Quantidade;Valor;Regra;Comissão',
      '03/11/2026;12;Corte de cabelo;1;50,00;40%;20,00',
      '03/11/2026;12;Pomada;2;40,00;10%;4,00',
      '20/11/2026;15;Barba;1;30,00;R$ 26,00 fixo;26,00',
      'Total;;;4;120,00;;50,00',
      '',
      'Serviços;80,00',
      'Produtos;40,00',
      'Comissão;50,00',
      'Gorjetas;5,00',
      'Vales;-20,00',
      'Bônus;10,00',
      'Ajustes;-5,00',
      'Líquido a pagar;40,00',
      '',
    ]);
    expect(csvNumber(1234.5)).toBe('1234,50');
    expect(csvNumber(-0)).toBe('0,00');
    expect(csvText('Corte; barba "premium"')).toBe('"Corte; barba ""premium"""');
    expect(csvText('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvFileName('Diego Barbeiro', '2026-11-01', '2026-11-27')).toBe('comissoes-diego-barbeiro-2026-11-01-2026-11-27.csv');
    expect(csvFileName('João Conceição', '2026-11-01', '2026-11-27')).toBe('comissoes-joao-conceicao-2026-11-01-2026-11-27.csv');
  });

  it("checks the dialogs' forms", async () => {
    await expect(entrySchema.validate({ kind: 'vale', value: 0, reason: ' ' }, { abortEarly: false })).rejects.toMatchObject({
      errors: ['Informe um valor maior que zero.', 'Informe o motivo.'],
    });
    expect(await entrySchema.validate({ kind: 'bonus', value: 10, reason: ' Meta ' })).toEqual({ kind: 'bonus', value: 10, reason: 'Meta' });
    await expect(
      closePeriodSchema.validate({ from: '2026-11-10', to: '2026-11-01', paidAt: '', method: '' }, { abortEarly: false }),
    ).rejects.toMatchObject({
      errors: ['A data final deve ser igual ou posterior à inicial.', 'Informe a data do pagamento.', 'Escolha a forma de pagamento.'],
    });
  });
});

// ---------------------------------------------------------------------------
// The screen

const PROFESSIONALS: UnitProfessional[] = [
  { IdProfessional: 4, IdCompanyProfessional: 40, Name: 'Diego Barbeiro', Color: '#f59e0b', Phone: '', Status: 1 },
  { IdProfessional: 5, IdCompanyProfessional: 50, Name: 'Eduardo Barbeiro', Color: '#2563eb', Phone: '', Status: 1 },
];

interface Write {
  url: string;
  body: Record<string, unknown>;
  key: string | null;
}

/** The commission calls over Diego's November; the server's state moves with the writes. */
function commissionServer() {
  const state = {
    reads: [] as URL[],
    writes: [] as Write[],
    vales: [] as { IdEntry: number; Kind: string; Value: number; Reason: string; Date: string }[],
    periods: [PAID_OCTOBER] as Period[],
    professionalsRead: 0,
    changesSince: null as string | null,
  };
  const record = async (request: Request) => {
    const write = {
      url: request.url,
      body: (await request.json()) as Record<string, unknown>,
      key: request.headers.get('Idempotency-Key'),
    };
    state.writes.push(write);
    return write;
  };
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([companyItem(ownCompany, true), companyItem(otherCompany, false)])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('business'), () => HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: 'ACTIVE' })),
    http.get(apiUrl('professional/company/:id'), () => {
      state.professionalsRead += 1;
      return HttpResponse.json(PROFESSIONALS);
    }),
    http.get(apiUrl('commission/statement'), ({ request }) => {
      const url = new URL(request.url);
      state.reads.push(url);
      const q = (name: string) => url.searchParams.get(name) ?? '';
      const [from, to, asOf] = [q('from'), q('to'), q('asOf')];
      if (from < '2025-11-28') {
        return HttpResponse.json({ message: 'Dados inválidos.', errors: { to: 'O extrato cobre no máximo um ano.' } }, { status: 422 });
      }
      const vales = state.vales.reduce((total, entry) => total + entry.Value, 0);
      const period = state.periods.find((p) => p.From === from && p.To === to) ?? null;
      return HttpResponse.json({
        ...NOVEMBER,
        IdProfessional: Number(q('idProfessional')),
        From: from,
        To: to,
        AsOf: asOf ? '2026-11-20T13:00:00Z' : null,
        Vales: vales,
        Net: NOVEMBER.Net - vales,
        Entries: [...NOVEMBER.Entries, ...state.vales],
        Period: period,
      });
    }),
    http.get(apiUrl('commission/periods'), () => HttpResponse.json(state.periods)),
    http.get(apiUrl('commission/statement/changes'), ({ request }) => {
      state.changesSince = new URL(request.url).searchParams.get('since');
      return HttpResponse.json({
        Since: '2026-11-20T13:00:00Z',
        NetThen: 60,
        NetNow: 40,
        Changes: [{ Kind: 'entry', IdComanda: null, IdItem: null, IdEntry: 7, Description: 'Vale: Adiantamento', Then: 0, Now: -20, Difference: -20 }],
      });
    }),
    http.post(apiUrl('commission/entry'), async ({ request }) => {
      const { body } = await record(request);
      const entry = { IdEntry: 10 + state.vales.length, Kind: 'vale', Value: body.value as number, Reason: body.reason as string };
      state.vales.push({ ...entry, Date: '2026-11-27' });
      return HttpResponse.json({ IdEntry: 10 }, { status: 201 });
    }),
    http.post(apiUrl('commission/period/close'), async ({ request }) => {
      const { body } = await record(request);
      if ((body.from as string) <= PAID_OCTOBER.To) {
        return HttpResponse.json(
          { message: 'Dados inválidos.', errors: { from: 'Este período se sobrepõe ao já fechado de 16/10/2026 a 01/11/2026.' } },
          { status: 422 },
        );
      }
      state.periods = [
        {
          IdPeriod: 3,
          From: body.from as string,
          To: body.to as string,
          PaidAt: body.paidAt as string,
          Method: body.method as string,
          ClosedAt: '2026-11-27T21:00:00Z',
          Net: 40,
        },
        ...state.periods,
      ];
      return HttpResponse.json({ IdPeriod: 3 }, { status: 201 });
    }),
  );
  return state;
}

const plain = (element: Element | null | undefined) => element?.textContent?.replace(/\s/g, ' ') ?? '';

/** A key figure's value by its label. */
const figure = (label: string) => {
  const figures = screen.getByLabelText('Resumo do período');
  return plain(within(figures).getByText(label, { selector: 'dt' }).parentElement?.querySelector('dd'));
};

/** A blob's bytes (jsdom's Blob has no arrayBuffer()). */
const bytesOf = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });

const lastRead = (state: { reads: URL[] }) => state.reads.at(-1)!.searchParams;

describe('commission screen', () => {
  const { createObjectURL, revokeObjectURL } = URL;
  afterEach(() => {
    vi.restoreAllMocks();
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
  });

  it("shows ADMIN a professional's statement, records a vale and closes the period", async () => {
    const user = userEvent.setup();
    const state = commissionServer();
    renderApp('/dashboard/commission?from=2026-11-01&to=2026-11-27', { session: signedInSession('ADMIN') });

    // The unit's first professional (the admin is none of them), over the period asked.
    expect(await screen.findByRole('heading', { name: 'Comissões', level: 1 })).toBeTruthy();
    const picker = (await screen.findByLabelText('Profissional')) as HTMLSelectElement;
    await waitFor(() => expect(picker.selectedOptions[0]?.textContent).toBe('Diego Barbeiro'));
    await screen.findByLabelText('Resumo do período');
    expect(lastRead(state).toString()).toBe('idProfessional=4&from=2026-11-01&to=2026-11-27');
    expect(screen.getByText('Diego Barbeiro · 01/11/2026 a 27/11/2026')).toBeTruthy();
    expect(figure('Serviços')).toBe('R$ 80,00');
    expect(figure('Produtos')).toBe('R$ 40,00');
    expect(figure('Comissão')).toBe('R$ 50,00');
    expect(figure('Gorjetas')).toBe('R$ 5,00');
    expect(figure('Vales')).toBe('R$ 0,00');
    expect(figure('Bônus')).toBe('R$ 10,00');
    expect(figure('Ajustes')).toBe('-R$ 5,00');
    expect(figure('Líquido a pagar')).toBe('R$ 60,00');

    // The comandas by day, each with its lines, rates and what they earned.
    const comandas = screen.getByRole('table', { name: 'Comandas' });
    const [, first, second] = within(comandas).getAllByRole('row');
    expect(within(first).getByRole('link', { name: 'N.º 12' }).getAttribute('href')).toBe('/dashboard/comanda/12');
    expect(plain(first)).toContain('03/11/2026');
    expect(plain(first)).toContain('Corte de cabelo');
    expect(plain(first)).toContain('Serviço · R$ 50,00 · 40%');
    expect(plain(first)).toContain('2× Pomada');
    expect(plain(first)).toContain('Produto · R$ 40,00 · 10%');
    expect(plain(first)).toContain('R$ 24,00');
    expect(plain(first)).toContain('R$ 5,00');
    expect(plain(second)).toContain('Serviço · R$ 30,00 · R$ 26,00 fixo');
    expect(within(second).getByRole('link', { name: 'N.º 15' })).toBeTruthy();
    // The chart's table, for assistive technology.
    expect(screen.getByRole('heading', { name: 'Comissão por dia' })).toBeTruthy();
    expect(plain(screen.getByRole('table', { name: 'Comissão por dia' }))).toContain('20/11/2026R$ 26,00');
    // The adjustments of comandas already paid, explained.
    const adjustments = screen.getByRole('region', { name: 'Ajustes' });
    expect(within(adjustments).getByText('Comandas de períodos já pagos que mudaram depois: a diferença entra neste período.')).toBeTruthy();
    expect(plain(within(adjustments).getByRole('listitem'))).toBe('Comanda N.º 9 (já paga): -R$ 5,00');
    expect(screen.queryByText(/Período fechado e pago/)).toBeNull();

    // A vale of R$ 20,00.
    await user.click(screen.getByRole('button', { name: 'Novo vale ou bônus' }));
    let dialog = screen.getByRole('dialog', { name: 'Novo vale ou bônus' });
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe um valor maior que zero.')).toBeTruthy();
    expect(within(dialog).getByText('Informe o motivo.')).toBeTruthy();
    expect((within(dialog).getByLabelText('Tipo') as HTMLSelectElement).value).toBe('vale');
    await user.type(within(dialog).getByLabelText('Valor'), '2000');
    await user.type(within(dialog).getByLabelText('Motivo'), ' Adiantamento ');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Lançamento registrado com sucesso!')).toBeTruthy();
    expect(state.writes[0].url).toMatch(/\/api\/commission\/entry$/);
    expect(state.writes[0].body).toEqual({ idProfessional: 4, kind: 'vale', value: 20, reason: 'Adiantamento' });
    expect(state.writes[0].key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await waitFor(() => expect(figure('Líquido a pagar')).toBe('R$ 40,00'));
    expect(figure('Vales')).toBe('-R$ 20,00');
    const entries = screen.getByRole('table', { name: 'Vales e bônus' });
    const vale = within(entries).getByText('Adiantamento').closest('tr')!;
    expect(plain(vale)).toContain('Vale');
    expect(plain(vale)).toContain('-R$ 20,00');
    expect(plain(within(entries).getByText('Meta batida').closest('tr'))).toContain('Bônus');

    // 'Fechar período': the period on screen overlaps the one paid; the 422 lands on 'De'.
    await user.click(screen.getByRole('button', { name: 'Fechar período' }));
    dialog = screen.getByRole('dialog', { name: 'Fechar período' });
    expect(plain(dialog)).toContain('Líquido a pagar: R$ 40,00');
    expect((within(dialog).getByLabelText('Data do pagamento') as HTMLInputElement).value).toBe(todayIso());
    await user.click(within(dialog).getByRole('button', { name: 'Fechar período' }));
    expect(await within(dialog).findByText('Escolha a forma de pagamento.')).toBeTruthy();
    await user.selectOptions(within(dialog).getByLabelText('Forma de pagamento'), 'Pix');
    await user.click(within(dialog).getByRole('button', { name: 'Fechar período' }));
    const from = within(dialog).getByLabelText('De') as HTMLInputElement;
    expect(
      await within(dialog).findByText('Este período se sobrepõe ao já fechado de 16/10/2026 a 01/11/2026.', { selector: '.field-error' }),
    ).toBeTruthy();
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(state.writes[1].body).toEqual({ idProfessional: 4, from: '2026-11-01', to: '2026-11-27', paidAt: todayIso(), method: 'pix' });
    fireEvent.change(from, { target: { value: '2026-11-02' } });
    await user.click(within(dialog).getByRole('button', { name: 'Fechar período' }));
    expect(await screen.findByText('Período fechado com sucesso!')).toBeTruthy();
    expect(state.writes[2].body).toMatchObject({ from: '2026-11-02', to: '2026-11-27', method: 'pix' });
    expect(state.writes[2].url).toMatch(/\/api\/commission\/period\/close$/);
    // The 422 spent the first key: the next request has its own.
    expect(state.writes[2].key).not.toBe(state.writes[1].key);

    // The screen shows the period closed: the banner, and no 'Fechar período'.
    const banner = await screen.findByText(`Período fechado e pago em ${todayIso().split('-').reverse().join('/')} por Pix`);
    expect(banner.getAttribute('role')).toBe('status');
    expect(lastRead(state).get('from')).toBe('2026-11-02');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Fechar período' })).toBeNull();
    const paid = screen.getByRole('table', { name: 'Períodos pagos' });
    expect(await within(paid).findByRole('button', { name: '02/11/2026 a 27/11/2026' })).toBeTruthy();

    // A paid period of the list shows its statement.
    await user.click(within(paid).getByRole('button', { name: '16/10/2026 a 01/11/2026' }));
    await waitFor(() => expect(lastRead(state).toString()).toBe('idProfessional=4&from=2026-10-16&to=2026-11-01'));
    expect(await screen.findByText('Período fechado e pago em 02/11/2026 por Transferência')).toBeTruthy();
    expect((screen.getByLabelText('De') as HTMLInputElement).value).toBe('2026-10-16');

    // Another professional.
    await user.selectOptions(picker, 'Eduardo Barbeiro');
    await waitFor(() => expect(lastRead(state).get('idProfessional')).toBe('5'));
    expect(await screen.findByText('Eduardo Barbeiro · 16/10/2026 a 01/11/2026')).toBeTruthy();
  });

  it('prints, exports the CSV, looks back and puts the period errors on their fields', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const blobs: Blob[] = [];
    const downloads: string[] = [];
    // jsdom has no object URLs.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:statement';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const state = commissionServer();
    renderApp('/dashboard/commission?from=2026-11-01&to=2026-11-27', { session: signedInSession('ADMIN') });
    await screen.findByLabelText('Resumo do período');

    await user.click(screen.getByRole('button', { name: 'Imprimir' }));
    expect(print).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    expect(downloads).toEqual(['comissoes-diego-barbeiro-2026-11-01-2026-11-27.csv']);
    expect(blobs[0].type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await bytesOf(blobs[0]));
    // UTF-8 with its BOM.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toContain('03/11/2026;12;Corte de cabelo;1;50,00;40%;20,00');

    // As it stood at an earlier instant: nothing to record or close then.
    fireEvent.change(screen.getByLabelText('Ver como estava em'), { target: { value: '2026-11-20T10:00' } });
    await waitFor(() => expect(lastRead(state).get('asOf')).toBe('2026-11-20T10:00'));
    expect(await screen.findByText('Como estava em 20/11/2026 10:00.')).toBeTruthy();
    // What changed since then, line by line.
    const changed = await screen.findByRole('table', { name: 'O que mudou desde então' });
    expect(within(changed).getByText('Vale: Adiantamento')).toBeTruthy();
    expect(changed.closest('section')?.textContent?.replace(/\s/g, ' ')).toContain('Líquido então R$ 60,00; agora R$ 40,00.');
    expect(state.changesSince).toBe('2026-11-20T10:00');
    expect(screen.queryByRole('button', { name: 'Novo vale ou bônus' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Fechar período' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Voltar ao presente' }));
    expect(await screen.findByRole('button', { name: 'Fechar período' })).toBeTruthy();
    expect(lastRead(state).has('asOf')).toBe(false);

    // 'Até' before 'De': nothing asked of the server.
    const reads = state.reads.length;
    fireEvent.change(screen.getByLabelText('Até'), { target: { value: '2026-10-31' } });
    expect(await screen.findByText('A data final deve ser igual ou posterior à inicial.')).toBeTruthy();
    expect(screen.queryByLabelText('Resumo do período')).toBeNull();
    expect(state.reads.length).toBe(reads);

    // More than a year: the server's 422 under 'Até'.
    fireEvent.change(screen.getByLabelText('De'), { target: { value: '2025-01-01' } });
    expect(await screen.findByText('O extrato cobre no máximo um ano.', { selector: '.field-error' })).toBeTruthy();
    expect(screen.getByLabelText('Até').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Não foi possível carregar o extrato.')).toBeNull();
  });

  it('gives a barber their own month to date, without the picker or the ADMIN actions', async () => {
    const state = commissionServer();
    renderApp('/dashboard/commission', { session: signedInSession('BARBER1') });

    await screen.findByLabelText('Resumo do período');
    const { from, to } = monthToDate(todayIso());
    expect(lastRead(state).toString()).toBe(`idProfessional=7&from=${from}&to=${to}`);
    expect((screen.getByLabelText('De') as HTMLInputElement).value).toBe(from);
    expect((screen.getByLabelText('Até') as HTMLInputElement).value).toBe(to);
    expect(screen.getByText(/^Admin Navalha · /)).toBeTruthy();
    expect(figure('Líquido a pagar')).toBe('R$ 60,00');
    expect(within(screen.getByRole('table', { name: 'Comandas' })).getByRole('link', { name: 'N.º 12' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeTruthy();

    expect(screen.queryByLabelText('Profissional')).toBeNull();
    expect(screen.queryByLabelText('Ver como estava em')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Novo vale ou bônus' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Fechar período' })).toBeNull();
    expect(state.professionalsRead).toBe(0);
  });

  it('says so when the statement cannot be read', async () => {
    const user = userEvent.setup();
    commissionServer();
    let fail = true;
    server.use(
      http.get(apiUrl('commission/statement'), () =>
        fail ? HttpResponse.json({ message: 'Erro interno.' }, { status: 500 }) : HttpResponse.json(NOVEMBER),
      ),
    );
    renderApp('/dashboard/commission', { session: signedInSession('BARBER2') });
    expect(await screen.findByText('Não foi possível carregar o extrato.')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByLabelText('Resumo do período')).toBeTruthy();
  });
});
