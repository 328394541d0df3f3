import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RoleType } from '@/api/types';
import { companyItem, otherCompany, ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { caixaListUrl, caixaUrl } from './caixaApi';
import { entryBars, hasEntries } from './EntriesChart';
import {
  asOfOfInput,
  changedFigures,
  countText,
  DIFFERENCE_CLASS,
  differenceText,
  differenceTone,
  entriesTotal,
  entryRows,
  figuresOf,
  mayLookBack,
  mayOperateCaixa,
  mayReopenCaixa,
  methodLabel,
  movementSchema,
  professionalName,
  reasonSchema,
  showsComparison,
} from './model';
import type { CaixaDetail, CaixaFigures, CaixaListItem, UnitProfessional } from './types';

const ROLES: RoleType[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT'];

describe('caixa words and figures', () => {
  it('names every payment method as the desk reads it', () => {
    expect(['cash', 'pix', 'credit', 'debit', 'subscription'].map(methodLabel)).toEqual([
      'Dinheiro',
      'Pix',
      'Cartão de crédito',
      'Cartão de débito',
      'Assinatura',
    ]);
    expect(methodLabel('voucher')).toBe('voucher');
  });

  it('lists every method in order, zero when nothing came in with it', () => {
    const rows = entryRows([
      { Method: 'debit', Count: 1, Value: 30 },
      { Method: 'cash', Count: 2, Value: 40.5 },
    ]);
    expect(rows.map((row) => [row.Method, row.Count, row.Value])).toEqual([
      ['cash', 2, 40.5],
      ['pix', 0, 0],
      ['credit', 0, 0],
      ['debit', 1, 30],
      ['subscription', 0, 0],
    ]);
    expect(entriesTotal(rows)).toBe(70.5);
    // Sums in centavos: no floating-point residue.
    expect(entriesTotal([{ Method: 'pix', Count: 1, Value: 0.1 }, { Method: 'cash', Count: 1, Value: 0.2 }])).toBe(0.3);
    expect(countText(0)).toBe('—');
    expect(countText(1)).toBe('1 pagamento');
    expect(countText(3)).toBe('3 pagamentos');
    expect(hasEntries([])).toBe(false);
    expect(entryBars([{ Method: 'pix', Count: 1, Value: 20 }])[1]).toEqual({ name: 'Pix', value: 20, count: 1 });
  });

  it('writes the difference with its sign and colours it red when cash is missing', () => {
    expect(differenceTone(-2)).toBe('missing');
    expect(differenceTone(1.5)).toBe('over');
    expect(differenceTone(0)).toBe('even');
    expect(differenceText(-2).replace(/\s/g, ' ')).toBe('−R$ 2,00');
    expect(differenceText(1.5).replace(/\s/g, ' ')).toBe('+R$ 1,50');
    expect(differenceText(0).replace(/\s/g, ' ')).toBe('R$ 0,00');
    expect(DIFFERENCE_CLASS[differenceTone(-0.01)]).toBe('caixa-difference-missing');
  });

  it('lets ADMIN and ATTENDANT operate the caixa; only ADMIN reopens and looks back', () => {
    expect(ROLES.filter(mayOperateCaixa)).toEqual(['ADMIN', 'ATTENDANT']);
    expect(ROLES.filter(mayReopenCaixa)).toEqual(['ADMIN']);
    expect(ROLES.filter(mayLookBack)).toEqual(['ADMIN']);
    expect(mayOperateCaixa(null)).toBe(false);
  });

  it('builds the calls', () => {
    expect(caixaListUrl({ idCompany: 1, date: '', status: 'OPEN', page: 1, pageSize: 1 })).toBe(
      'caixa?idCompany=1&status=OPEN&page=1&pageSize=1',
    );
    expect(caixaListUrl({ idCompany: 2, date: '2026-11-27', page: 2, pageSize: 5 })).toBe(
      'caixa?idCompany=2&date=2026-11-27&page=2&pageSize=5',
    );
    expect(caixaUrl({ id: 9 })).toBe('caixa/9');
    expect(caixaUrl({ id: 9, asOf: '2026-11-27T20:00:05' })).toBe('caixa/9?asOf=2026-11-27T20%3A00%3A05');
    expect(asOfOfInput('2026-11-27T20:00')).toBe('2026-11-27T20:00');
    expect(asOfOfInput('2026-11-27T20:00:05')).toBe('2026-11-27T20:00:05');
    expect(asOfOfInput('2026-11-27')).toBeNull();
  });

  it('names the tips by professional, and one the unit no longer lists by its number', () => {
    expect(professionalName(PROFESSIONALS, 4)).toBe('Diego Barbeiro');
    expect(professionalName(PROFESSIONALS, 99)).toBe('Profissional n.º 99');
  });

  it('marks what a correction moved since the close', () => {
    const now: CaixaFigures = {
      ...AT_CLOSE,
      Entries: [{ Method: 'cash', Count: 0, Value: 0 }, AT_CLOSE.Entries[1]],
      CashTaken: 0,
      ExpectedCash: 80,
      Difference: 38,
      Tips: [],
    };
    expect([...changedFigures(AT_CLOSE, now)].sort()).toEqual(['CashTaken', 'Difference', 'ExpectedCash', 'entry:cash', 'tip:4']);
    expect(changedFigures(AT_CLOSE, AT_CLOSE).size).toBe(0);
    expect(showsComparison(reopened)).toBe(true);
    expect(showsComparison({ ...reopened, Corrections: [] })).toBe(false);
    expect(figuresOf(reopened)).not.toHaveProperty('Corrections');
  });

  it('asks a movement for a value and a reason', async () => {
    await expect(movementSchema.validate({ value: 0, reason: ' ' }, { abortEarly: false })).rejects.toMatchObject({
      errors: ['Informe o valor.', 'Informe o motivo.'],
    });
    await expect(reasonSchema.validate({ reason: 'x'.repeat(501) })).rejects.toMatchObject({
      errors: ['O motivo deve ter no máximo 500 caracteres.'],
    });
    expect(await movementSchema.validate({ value: 30, reason: ' Cofre ' })).toEqual({ value: 30, reason: 'Cofre' });
  });
});

// ---------------------------------------------------------------------------
// Screens

const PROFESSIONALS: UnitProfessional[] = [
  { IdProfessional: 4, IdCompanyProfessional: 40, Name: 'Diego Barbeiro', Color: '#f59e0b', Phone: '', Status: 1 },
];

/** The demo's R$ 2,00 day: float R$ 100, sangria R$ 30, reforço R$ 10, R$ 40 in cash. */
const AT_CLOSE: CaixaFigures = {
  OpeningCash: 100,
  Entries: [
    { Method: 'cash', Count: 1, Value: 40 },
    { Method: 'pix', Count: 1, Value: 25 },
  ],
  Tips: [{ IdProfessional: 4, Value: 5 }],
  Sangrias: 30,
  Reforcos: 10,
  Movements: [
    { Kind: 'sangria', Value: 30, Reason: 'Cofre' },
    { Kind: 'reforco', Value: 10, Reason: 'Troco' },
  ],
  CashTaken: 40,
  ExpectedCash: 120,
  CountedCash: 118,
  Difference: -2,
  CardMachine: [{ Method: 'debit', Expected: 20, Counted: 21, Difference: 1 }],
};

const openCaixa: CaixaDetail = {
  ...AT_CLOSE,
  IdCaixa: 9,
  IdCompany: 1,
  Status: 'OPEN',
  OpenedOn: '2026-11-27',
  AsOf: null,
  CountedCash: null,
  Difference: null,
  ClosedAt: null,
  AtClose: null,
  Corrections: [],
};

/** Closed with R$ 2,00 missing, then a cash payment refunded: R$ 40,00 less expected. */
const reopened: CaixaDetail = {
  ...AT_CLOSE,
  IdCaixa: 9,
  IdCompany: 1,
  Status: 'CLOSED',
  OpenedOn: '2026-11-27',
  AsOf: null,
  Entries: [AT_CLOSE.Entries[1]],
  CashTaken: 0,
  ExpectedCash: 80,
  Difference: 38,
  ClosedAt: '2026-11-27T23:00:00Z',
  CardMachine: [{ Method: 'debit', Expected: 0, Counted: 21, Difference: 21 }],
  AtClose: { ...AT_CLOSE, ClosedAt: '2026-11-27T23:00:00Z' },
  Corrections: [
    {
      At: '2026-11-28T12:30:00Z',
      UserName: 'Admin Navalha',
      Event: 'PaymentRefunded',
      IdComanda: 31,
      Value: -40,
      Reason: 'Cliente desistiu',
      Description: 'Pagamento estornado',
    },
  ],
};

const listItem = (caixa: CaixaDetail): CaixaListItem => ({
  IdCaixa: caixa.IdCaixa,
  IdCompany: caixa.IdCompany,
  OpenedOn: caixa.OpenedOn,
  Status: caixa.Status,
  OpeningCash: caixa.OpeningCash,
  ExpectedCash: caixa.ExpectedCash,
  CountedCash: caixa.CountedCash,
  Difference: caixa.Difference,
});

interface Write {
  url: string;
  body: unknown;
  key: string | null;
}

/** The caixa's calls; `open` is the unit's open caixa, if any. */
function caixaServer(options: { open: CaixaDetail | null; detail?: CaixaDetail }) {
  const state = { writes: [] as Write[], open: options.open, reads: [] as string[] };
  const record = async (request: Request) => {
    state.writes.push({ url: request.url, body: await request.json(), key: request.headers.get('Idempotency-Key') });
  };
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([companyItem(ownCompany, true), companyItem(otherCompany, false)])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('business'), () => HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: 'ACTIVE' })),
    http.get(apiUrl('professional/company/:id'), () => HttpResponse.json(PROFESSIONALS)),
    http.get(apiUrl('caixa'), ({ request }) => {
      const status = new URL(request.url).searchParams.get('status');
      const rows = status === 'OPEN' ? (state.open ? [listItem(state.open)] : []) : [listItem(reopened)];
      return HttpResponse.json({ content: rows, count: rows.length, total: rows.length });
    }),
    http.get(apiUrl('caixa/:id'), ({ request }) => {
      state.reads.push(request.url);
      return HttpResponse.json(options.detail ?? state.open ?? reopened);
    }),
    http.post(apiUrl('caixa'), async ({ request }) => {
      await record(request);
      const body = state.writes.at(-1)!.body as { openingCash: number };
      if (body.openingCash > 10_000) {
        return HttpResponse.json(
          { message: 'Dados inválidos.', errors: { openingCash: 'O valor deve ser de no máximo R$ 100.000,00.' } },
          { status: 422 },
        );
      }
      state.open = { ...openCaixa, OpeningCash: body.openingCash };
      return HttpResponse.json({ IdCaixa: 9 }, { status: 201 });
    }),
    http.post(apiUrl('caixa/:id/movements'), async ({ request }) => {
      await record(request);
      return HttpResponse.json({ ...written(openCaixa), Sangrias: 60 });
    }),
    http.post(apiUrl('caixa/:id/close'), async ({ request }) => {
      await record(request);
      state.open = null;
      return HttpResponse.json({ ...written(openCaixa), Status: 'CLOSED', CountedCash: 118, Difference: -2 });
    }),
    http.post(apiUrl('caixa/:id/reopen'), async ({ request }) => {
      await record(request);
      return HttpResponse.json({ ...written(reopened), Status: 'OPEN' });
    }),
  );
  return state;
}

const written = (caixa: CaixaDetail) => ({
  IdCaixa: caixa.IdCaixa,
  IdCompany: caixa.IdCompany,
  Status: caixa.Status,
  OpeningCash: caixa.OpeningCash,
  Sangrias: caixa.Sangrias,
  Reforcos: caixa.Reforcos,
  CashTaken: caixa.CashTaken,
  ExpectedCash: caixa.ExpectedCash,
  CountedCash: caixa.CountedCash,
  Difference: caixa.Difference,
});

/** A table row (of the figures) by its heading cell. */
const figureRow = (container: HTMLElement, label: string) =>
  within(container)
    .getByRole('rowheader', { name: new RegExp(`^${label}( \\(alterado depois do fechamento\\))?$`) })
    .closest('tr') as HTMLElement;

const text = (element: HTMLElement) => element.textContent?.replace(/\s/g, ' ');

describe('caixa screen', () => {
  it("shows the unit's open caixa, records a sangria and closes it with the difference in red", async () => {
    const user = userEvent.setup();
    const state = caixaServer({ open: openCaixa });
    renderApp('/dashboard/caixa', { session: signedInSession('ATTENDANT') });

    const open = await screen.findByRole('region', { name: 'Caixa aberto em 27/11/2026' });
    await within(open).findByRole('heading', { name: 'Dinheiro no caixa' });
    expect(text(figureRow(open, 'Fundo de troco'))).toContain('R$ 100,00');
    expect(text(figureRow(open, 'Dinheiro esperado'))).toContain('R$ 120,00');
    expect(text(figureRow(open, 'Dinheiro'))).toContain('1 pagamento');
    expect(text(figureRow(open, 'Cartão de crédito'))).toContain('R$ 0,00');
    expect(text(figureRow(open, 'Assinatura'))).toContain('—');
    expect(within(open).getByText('Cofre')).toBeTruthy();
    expect(text(await within(open).findByRole('rowheader', { name: 'Diego Barbeiro' }))).toBe('Diego Barbeiro');

    await user.click(within(open).getByRole('button', { name: 'Sangria' }));
    let dialog = screen.getByRole('dialog', { name: 'Sangria' });
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe o valor.')).toBeTruthy();
    expect(within(dialog).getByText('Informe o motivo.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Valor'), '3000');
    await user.type(within(dialog).getByLabelText('Motivo'), 'Cofre');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Sangria registrada com sucesso!')).toBeTruthy();
    expect(state.writes[0]).toMatchObject({ body: { kind: 'sangria', value: 30, reason: 'Cofre' } });
    expect(state.writes[0].url).toMatch(/\/api\/caixa\/9\/movements$/);
    expect(state.writes[0].key).toMatch(/^[0-9a-f-]{36}$/);

    await user.click(within(open).getByRole('button', { name: 'Fechar caixa' }));
    dialog = screen.getByRole('dialog', { name: 'Fechar caixa' });
    await user.type(within(dialog).getByLabelText('Dinheiro contado'), '11800');
    // The card machine's totals only when asked for: then both go, R$ 0,00 included.
    expect(within(dialog).queryByLabelText('Maquininha: crédito')).toBeNull();
    await user.click(within(dialog).getByLabelText('Informar os totais da maquininha de cartão'));
    await user.type(within(dialog).getByLabelText('Maquininha: crédito'), '2550');
    await user.click(within(dialog).getByRole('button', { name: 'Fechar caixa' }));
    expect(await screen.findByText('Caixa fechado com sucesso!')).toBeTruthy();
    expect(state.writes[1].body).toEqual({ countedCash: 118, machineCredit: 25.5, machineDebit: 0 });

    const closed = await screen.findByRole('region', { name: 'Caixa fechado' });
    const difference = figureRow(closed, 'Diferença');
    expect(text(difference)).toContain('−R$ 2,00');
    expect(text(difference)).toContain('Falta dinheiro');
    expect(difference.querySelector('.caixa-difference-missing')).toBeTruthy();
    expect(text(figureRow(closed, 'Dinheiro contado'))).toContain('R$ 118,00');
    // The unit may open its next caixa.
    expect(await screen.findByRole('form', { name: 'Abrir caixa' })).toBeTruthy();
  });

  it("opens a caixa with the float, puts the server's 422 on the field, and lists the unit's caixas", async () => {
    const user = userEvent.setup();
    const state = caixaServer({ open: null });
    const { router } = renderApp('/dashboard/caixa', { session: signedInSession('ADMIN') });

    const form = await screen.findByRole('form', { name: 'Abrir caixa' });
    const float = within(form).getByLabelText('Fundo de troco');
    await user.type(float, '2000000');
    await user.click(within(form).getByRole('button', { name: 'Abrir caixa' }));
    expect(await within(form).findByText('O valor deve ser de no máximo R$ 100.000,00.', { selector: '.field-error' })).toBeTruthy();
    await user.clear(float);
    await user.type(float, '10000');
    await user.click(within(form).getByRole('button', { name: 'Abrir caixa' }));
    expect(await screen.findByText('Caixa aberto com sucesso!')).toBeTruthy();
    expect(state.writes.at(-1)).toMatchObject({ body: { idCompany: 1, openingCash: 100 } });
    expect(state.writes[0].key).not.toBe(state.writes[1].key);
    expect(await screen.findByRole('region', { name: 'Caixa aberto em 27/11/2026' })).toBeTruthy();

    const history = screen.getByRole('table', { name: 'Caixas da unidade' });
    const row = (await within(history).findByText('27/11/2026')).closest('tr') as HTMLElement;
    expect(text(row)).toContain('Fechado');
    expect(row.querySelector('.caixa-difference-over')).toBeTruthy();
    await user.click(within(row).getByRole('link', { name: '27/11/2026' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/caixa/9'));
  });
});

describe('caixa report', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sets the close beside now, lists the corrections apart, prints, and lets ADMIN reopen', async () => {
    const user = userEvent.setup();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const state = caixaServer({ open: null, detail: reopened });
    renderApp('/dashboard/caixa/9', { session: signedInSession('ADMIN') });

    const atClose = await screen.findByRole('region', { name: 'No fechamento' });
    const now = screen.getByRole('region', { name: 'Agora' });
    expect(text(figureRow(atClose, 'Diferença'))).toContain('−R$ 2,00');
    expect(text(figureRow(now, 'Diferença'))).toContain('+R$ 38,00');
    expect(figureRow(now, 'Dinheiro esperado').className).toContain('caixa-changed');
    expect(figureRow(now, 'Fundo de troco').className).not.toContain('caixa-changed');
    // The card machine's debit total beside the payments: over at the close, and more so now.
    const machine = (column: HTMLElement) => within(column).getByRole('region', { name: 'Maquininha de cartão' });
    expect(text(figureRow(machine(atClose), 'Cartão de débito'))).toContain('+R$ 1,00 (Maquininha acima dos pagamentos)');
    expect(text(figureRow(machine(now), 'Cartão de débito'))).toContain('Pagamentos R$ 0,00 · Maquininha R$ 21,00');
    expect(figureRow(machine(now), 'Cartão de débito').className).toContain('caixa-changed');

    const corrections = screen.getByRole('table', { name: 'Correções' });
    const correction = within(corrections).getAllByRole('row')[1];
    expect(text(correction)).toContain('28/11/2026 09:30');
    expect(text(correction)).toContain('Admin Navalha');
    expect(text(correction)).toContain('Pagamento estornado');
    expect(text(correction)).toContain('-R$ 40,00');
    expect(text(correction)).toContain('Cliente desistiu');

    await user.click(screen.getByRole('button', { name: 'Imprimir' }));
    expect(print).toHaveBeenCalledOnce();

    await user.click(screen.getByRole('button', { name: 'Reabrir caixa' }));
    const dialog = screen.getByRole('dialog', { name: 'Reabrir caixa' });
    await user.click(within(dialog).getByRole('button', { name: 'Reabrir caixa' }));
    expect(await within(dialog).findByText('Informe o motivo.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Motivo'), 'Contagem errada');
    await user.click(within(dialog).getByRole('button', { name: 'Reabrir caixa' }));
    expect(await screen.findByText('Caixa reaberto com sucesso!')).toBeTruthy();
    expect(state.writes[0]).toMatchObject({ body: { reason: 'Contagem errada' } });
    expect(state.writes[0].url).toMatch(/\/api\/caixa\/9\/reopen$/);

    // ADMIN looks at the caixa as it stood at an earlier instant.
    const reads = state.reads.length;
    const instant = screen.getByLabelText('Ver como estava em');
    fireEvent.change(instant, { target: { value: '2026-11-27T22:00' } });
    await waitFor(() => expect(state.reads.slice(reads).some((url) => url.includes('asOf=2026-11-27T22%3A00'))).toBe(true));
    expect(await screen.findByRole('button', { name: 'Voltar ao presente' })).toBeTruthy();
  });

  it('gives ATTENDANT the report without reopen or the past view', async () => {
    caixaServer({ open: null, detail: { ...reopened, AtClose: null, Corrections: [] } });
    renderApp('/dashboard/caixa/9', { session: signedInSession('ATTENDANT') });
    expect(await screen.findByRole('heading', { name: 'Dinheiro no caixa' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'No fechamento' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Correções' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reabrir caixa' })).toBeNull();
    expect(screen.queryByLabelText('Ver como estava em')).toBeNull();
  });
});
