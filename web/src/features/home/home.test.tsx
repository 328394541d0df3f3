import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appointment } from '@/test/agendaServer';
import { otherCompany, ownCompany, signedInSession } from '@/test/fixtures';
import { homeServer, ownDashboard, weekDashboard } from '@/test/homeServer';
import { renderApp } from '@/test/render';
import type { RootState } from '@/app/store';
import { initialUiState } from '@/state/uiSlice';
import { apiUrl, server } from '@/test/server';
import type { LowStockItem, MessageSummary } from './homeApi';

// recharts measures its container: jsdom has no layout, so every chart gets 600 × 240.
class FixedResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    this.callback([{ target, contentRect: { width: 600, height: 240 } } as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  unobserve() {}
  disconnect() {}
}

beforeAll(() => vi.stubGlobal('ResizeObserver', FixedResizeObserver));
afterAll(() => vi.unstubAllGlobals());

const NO_MESSAGE = { Sent: 0, Delivered: 0, Read: 0, Failed: 0, Skipped: 0, Confirmed: 0, Cancelled: 0, ConfirmationRate: null };

/** Issue 44: GET message/summary (ADMIN's home asks for it); by default no reminder was sent. */
function summaryServer(answer: (search: URLSearchParams) => MessageSummary = () => ({ Totals: NO_MESSAGE, Days: [] })) {
  const reads: URLSearchParams[] = [];
  server.use(
    http.get(apiUrl('message/summary'), ({ request }) => {
      const search = new URL(request.url).searchParams;
      reads.push(search);
      return HttpResponse.json(answer(search));
    }),
  );
  return reads;
}

beforeEach(() => {
  summaryServer();
});

const DESKTOP_WIDTH = 1024;

/** The value shown under a key figure's label (in one list of figures, when given). */
const figure = (label: string, list: HTMLElement = document.body) =>
  within(list).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

/** A list of key figures by its name ('Números de hoje', 'Números do período'). */
const figures = (name: string) => screen.getByLabelText(name);

/** The cells of a screen-reader table's row, by its heading cell. */
function tableRow(table: string, rowHeader: string): string[] {
  const row = within(screen.getByRole('table', { name: table })).getByRole('rowheader', { name: rowHeader }).closest('tr')!;
  return [...row.children].map((cell) => cell.textContent ?? '');
}

const twoUnits = { companies: [ownCompany, otherCompany] };

/** The persisted UI state with each user's last home unit, by professional id. */
const rememberedUnits = (homeUnits: Record<string, string>) => ({ ...initialUiState, homeUnits }) as RootState['ui'];

/** Issue 43: products below their minimum, in either unit. */
const LOW_STOCK: LowStockItem[] = [
  { IdProduct: 3, Name: 'Pomada modeladora', Unit: 'un', IdCompany: 2, CompanyName: 'Navalha Praia', Quantity: 2, Minimum: 5 },
  { IdProduct: 4, Name: 'Óleo para barba', Unit: 'ml', IdCompany: 1, CompanyName: 'Navalha Centro', Quantity: -10, Minimum: 200 },
];

describe('desktop home', () => {
  it("shows the period's key figures, charts as tables and the club", async () => {
    homeServer({ answer: () => weekDashboard() });
    renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });

    // The first test of the file loads the home's screen and recharts: slow on a busy machine.
    expect(await screen.findByRole('heading', { name: 'Início', level: 1 }, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(figure('Agendamentos')).toBe('40'));
    expect(figure('Cancelamentos')).toBe('49,1%');
    expect(within(screen.getByText('Cancelamentos', { selector: 'dt' }).nextElementSibling as HTMLElement).getByText('9,1%')).toBeTruthy();
    expect(figure('Receita prevista')).toBe('R$\u00a01.800,00');
    expect(figure('Recebido')).toBe('R$\u00a01.250,00');
    expect(figure('Novos clientes')).toBe('5');
    // Served (their comanda closed) and absent, with the share of those settled who never came.
    expect(figure('Atendidos')).toBe('9');
    expect(figure('Não compareceram')).toBe('110%');
    expect([...screen.getByLabelText('Números do período').querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual([
      'Agendamentos',
      'Atendidos',
      'Não compareceram',
      'Cancelamentos',
      'Receita prevista',
      'Recebido',
      'Novos clientes',
    ]);

    expect(tableRow('Agendamentos por dia', '23/11')).toEqual(['23/11', '4', '8', '1']);
    expect(tableRow('Agendamentos por dia', '25/11')).toEqual(['25/11', '0', '2', '3']);
    expect(tableRow('Ocupação por profissional', 'Diego Barbeiro')).toEqual(['Diego Barbeiro', '62,5%', '5h', '8h']);
    expect(tableRow('Ocupação por profissional', 'Eduardo Barbeiro')).toEqual(['Eduardo Barbeiro', '—', '1h30', '0min']);
    expect(tableRow('Receita prevista por serviço', 'Corte de cabelo')).toEqual(['Corte de cabelo', '12', 'R$\u00a0540,00']);
    // What the closed comandas brought in: every day of the week, by method and by professional.
    expect(tableRow('Recebido por dia', '23/11')).toEqual(['23/11', 'R$\u00a0800,00']);
    expect(tableRow('Recebido por dia', '24/11')).toEqual(['24/11', 'R$\u00a00,00']);
    expect(within(screen.getByRole('table', { name: 'Recebido por dia' })).getAllByRole('row')).toHaveLength(8);
    const methods = within(screen.getByRole('table', { name: 'Recebido por forma de pagamento' })).getAllByRole('rowheader');
    expect(methods.map((cell) => cell.textContent)).toEqual(['Pix', 'Dinheiro', 'Cartão de crédito', 'Assinatura']);
    expect(tableRow('Recebido por forma de pagamento', 'Pix')).toEqual(['Pix', 'R$\u00a0600,00', '48%']);
    expect(tableRow('Recebido por profissional', 'Diego Barbeiro')).toEqual(['Diego Barbeiro', 'R$\u00a0700,00', '56%']);
    expect(tableRow('Recebido por profissional', 'Eduardo Barbeiro')).toEqual(['Eduardo Barbeiro', 'R$\u00a0500,00', '40%']);
    expect(tableRow('Recebido por profissional', 'Profissional n.º 9')).toEqual(['Profissional n.º 9', 'R$\u00a050,00', '4%']);
    // Issue 42: what the month's closed comandas earned each professional.
    expect(tableRow('Comissões de 01/11 a 27/11', 'Diego Barbeiro')).toEqual(['Diego Barbeiro', 'R$\u00a0300,00', '66,7%']);
    const busy = within(screen.getByRole('table', { name: 'Horários mais movimentados' })).getAllByRole('row');
    expect(busy.slice(1).map((row) => row.textContent)).toEqual(['Segunda-feira9h4', 'Terça-feira14h2', 'Sábado10h1']);

    // The drawings are for the eyes only; recharts drew the bars.
    const chart = screen.getByRole('heading', { name: 'Agendamentos por dia' }).nextElementSibling!;
    expect(chart.getAttribute('aria-hidden')).toBe('true');
    // recharts draws once it has measured its box, a tick after the tables on a busy machine.
    await waitFor(() => expect(chart.querySelector('svg')).toBeTruthy());

    const club = screen.getByRole('region', { name: 'Clube de assinaturas' });
    expect(figure('Assinantes ativos')).toBe('12');
    expect(figure('Receita recorrente mensal')).toBe('R$\u00a01.078,80');
    expect(tableRow('Recebido e a receber por mês', 'nov/26')).toEqual(['nov/26', 'R$\u00a0500,00', 'R$\u00a0300,00']);
    const pending = within(club).getByRole('table', { name: 'Pagamentos pendentes' });
    expect(within(pending).getByRole('link', { name: 'João Conceição' }).getAttribute('href')).toBe(
      '/dashboard/subscription-user-detail-form/7',
    );
    expect(within(pending).getByText('20/11/2026')).toBeTruthy();
    expect(within(pending).getByText('R$ 89,90')).toBeTruthy();
  });

  it('opens on every unit, asks for the period and the unit chosen and remembers the unit per user (issue 45)', async () => {
    const { dashboardReads } = homeServer({
      answer: (search) => weekDashboard({ Totals: { ...weekDashboard().Totals, Appointments: search.get('period') === 'week' ? 77 : 40 } }),
      units: [ownCompany, otherCompany],
    });
    const user = userEvent.setup();
    const { store } = renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });

    await waitFor(() => expect(figure('Agendamentos')).toBe('40'));
    const last = () => Object.fromEntries(dashboardReads.at(-1)!);
    // A first visit: every unit, and never the alphabetically first on the way.
    expect(last()).toEqual({ period: 'today' });
    expect(dashboardReads.filter((read) => read.has('idCompany'))).toEqual([]);
    const periods = screen.getByRole('group', { name: 'Período' });
    expect(within(periods).getByRole('button', { name: 'Hoje' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(within(periods).getByRole('button', { name: 'Esta semana' }));
    await waitFor(() => expect(figure('Agendamentos')).toBe('77'));
    expect(last()).toEqual({ period: 'week' });
    expect(within(periods).getByRole('button', { name: 'Esta semana' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(periods).getByRole('button', { name: 'Hoje' }).getAttribute('aria-pressed')).toBe('false');

    const unit = screen.getByRole('combobox', { name: 'Unidade' }) as HTMLSelectElement;
    expect([...unit.options].map((option) => option.text)).toEqual(['Todas as unidades', 'Navalha Centro', 'Navalha Praia']);
    expect(unit.value).toBe('');
    await user.selectOptions(unit, 'Navalha Praia');
    await waitFor(() => expect(last()).toEqual({ period: 'week', idCompany: '2' }));
    // Kept for this user (professional 7) in the persisted UI state.
    expect(store.getState().ui.homeUnits).toEqual({ 7: '2' });
    // Every unit again (the week of every unit is in the cache already).
    await user.selectOptions(unit, 'Todas as unidades');
    expect(unit.value).toBe('');
    expect(store.getState().ui.homeUnits).toEqual({ 7: '' });
    await user.selectOptions(unit, 'Navalha Praia');

    await user.click(within(periods).getByRole('button', { name: 'Últimos 30 dias' }));
    await waitFor(() => expect(last()).toEqual({ period: '30d', idCompany: '2' }));
  });

  it('opens on the unit the user last chose, and only asks for that one', async () => {
    const { dashboardReads } = homeServer({ units: [ownCompany, otherCompany] });
    renderApp('/dashboard', {
      session: signedInSession('ADMIN', twoUnits),
      // Professional 8 is someone else on this browser.
      ui: rememberedUnits({ 7: '2', 8: '1' }),
    });
    const unit = (await screen.findByRole('combobox', { name: 'Unidade' })) as HTMLSelectElement;
    await waitFor(() => expect(figure('Agendamentos')).toBe('40'));
    expect(unit.value).toBe('2');
    expect(dashboardReads.map((read) => Object.fromEntries(read))).toEqual([{ period: 'today', idCompany: '2' }]);
  });

  it("opens on 'Todas as unidades' when that was the last choice, or when the last unit is no longer the user's", async () => {
    for (const remembered of ['', '5']) {
      const { dashboardReads } = homeServer({ units: [ownCompany, otherCompany] });
      const { unmount } = renderApp('/dashboard', {
        session: signedInSession('ADMIN', twoUnits),
        ui: rememberedUnits({ 7: remembered }),
      });
      const unit = (await screen.findByRole('combobox', { name: 'Unidade' })) as HTMLSelectElement;
      await waitFor(() => expect(figure('Agendamentos')).toBe('40'));
      expect(unit.value).toBe('');
      expect(dashboardReads.filter((read) => read.has('idCompany'))).toEqual([]);
      unmount();
    }
  });

  it('disables the unit filter with a single unit and offers no "all units" to other roles', async () => {
    homeServer({ answer: ownDashboard, units: [ownCompany] });
    renderApp('/dashboard', { session: signedInSession('ADMIN') });
    const unit = (await screen.findByRole('combobox', { name: 'Unidade' })) as HTMLSelectElement;
    await waitFor(() => expect([...unit.options].map((option) => option.text)).toEqual(['Navalha Centro']));
    expect(unit.disabled).toBe(true);
  });

  it("hides 'Novos clientes' and the club when the figures are one's own", async () => {
    homeServer({ answer: ownDashboard, units: [ownCompany, otherCompany] });
    renderApp('/dashboard', { session: signedInSession('DEFAULT', twoUnits) });

    await waitFor(() => expect(figure('Agendamentos')).toBe('9'));
    expect(figure('Receita prevista')).toBe('R$\u00a0405,00');
    expect(figure('Recebido')).toBe('R$\u00a0320,00');
    expect(tableRow('Recebido por dia', '23/11')).toEqual(['23/11', 'R$\u00a0320,00']);
    // Their own share is the figure: no breakdown by method or professional.
    expect(screen.queryByRole('heading', { name: 'Recebido por forma de pagamento' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Recebido por profissional' })).toBeNull();
    expect(screen.queryByText('Novos clientes')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Clube de assinaturas' })).toBeNull();
    expect(tableRow('Ocupação por profissional', 'Diego Barbeiro')).toEqual(['Diego Barbeiro', '62,5%', '5h', '8h']);
    // Their own commissions: only theirs.
    expect(tableRow('Comissões de 01/11 a 27/11', 'Diego Barbeiro')).toEqual(['Diego Barbeiro', 'R$\u00a0138,00', '100%']);
    // Several units, but 'Todas as unidades' is for ADMIN and ATTENDANT: a first visit opens on
    // the shell's unit.
    const unit = screen.getByRole('combobox', { name: 'Unidade' }) as HTMLSelectElement;
    expect([...unit.options].map((option) => option.text)).toEqual(['Navalha Centro', 'Navalha Praia']);
    expect(unit.value).toBe('1');
  });

  it("lists the products below their minimum, each linking to its unit's stock", async () => {
    const user = userEvent.setup();
    homeServer({ answer: () => weekDashboard({ LowStock: LOW_STOCK }) });
    const stockReads: URLSearchParams[] = [];
    server.use(
      http.get(apiUrl('stock'), ({ request }) => {
        stockReads.push(new URL(request.url).searchParams);
        return HttpResponse.json({ IdCompany: 2, AsOf: null, AllowsNegative: false, TotalValue: 0, Items: [] });
      }),
    );
    const { router } = renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });

    const card = await screen.findByRole('region', { name: 'Produtos abaixo do mínimo' });
    const items = within(card).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Pomada modeladoraNavalha PraiaQtd 2 / mín. 5 un',
      'Óleo para barbaNavalha CentroQtd \u221210 / mín. 200 ml',
    ]);
    const link = within(card).getByRole('link', { name: 'Pomada modeladora' });
    expect(link.getAttribute('href')).toBe('/dashboard/stock');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/stock'));
    // The stock of the product's unit.
    await waitFor(() => expect(stockReads.at(-1)?.get('idCompany')).toBe('2'));
  });

  it('shows no low-stock card when nothing is below its minimum', async () => {
    homeServer({ answer: () => weekDashboard({ LowStock: [] }) });
    renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });
    await waitFor(() => expect(figure('Agendamentos')).toBe('40'));
    expect(screen.queryByRole('region', { name: 'Produtos abaixo do mínimo' })).toBeNull();
  });

  it("says 'Sem dados no período.' in every chart of an empty period", async () => {
    const empty = weekDashboard();
    homeServer({
      answer: () => ({
        ...empty,
        Days: empty.Days.map((day) => ({ ...day, Booked: 0, Confirmed: 0, Cancelled: 0, Attended: 0, NoShows: 0 })),
        Occupancy: [],
        Services: [],
        BusyHours: [],
        Totals: {
          Appointments: 0,
          Cancelled: 0,
          CancellationRate: 0,
          Attended: 0,
          NoShows: 0,
          NoShowRate: 0,
          ExpectedRevenue: 0,
          NewClients: 0,
        },
        Received: { Total: 0, Days: [], Methods: [], Professionals: [] },
        Club: { ActiveSubscribers: 0, MonthlyRecurringRevenue: 0, Months: [], Pending: [] },
      }),
    });
    renderApp('/dashboard', { session: signedInSession('ADMIN') });

    await waitFor(() => expect(figure('Agendamentos')).toBe('0'));
    expect(figure('Cancelamentos')).toBe('00%');
    expect(figure('Recebido')).toBe('R$\u00a00,00');
    expect(screen.getAllByText('Sem dados no período.')).toHaveLength(8);
    expect(screen.queryByRole('table', { name: 'Agendamentos por dia' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Recebido por dia' })).toBeNull();
    expect(screen.getByText('Nenhum pagamento pendente.')).toBeTruthy();
  });
});

describe('mobile home', () => {
  // 10:15 on the unit's clock (UTC-3), Tuesday 24 November 2026.
  const NOW = new Date('2026-11-24T13:15:00Z');

  beforeAll(() => {
    window.innerWidth = 390;
  });
  afterAll(() => {
    window.innerWidth = DESKTOP_WIDTH;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const day = [
    appointment(1, { StartTime: '09:00:00' }),
    appointment(2, { StartTime: '10:15:00', Services: ['Corte de cabelo', 'Barba'] }),
    appointment(3, { StartTime: '11:00:00', IdProfessional: 3, ProfessionalName: 'Caio Líder' }),
    ...[12, 13, 14, 15].map((hour, i) => appointment(10 + i, { StartTime: `${hour}:00:00` })),
  ];

  it("lists today's next five appointments and the day's four figures", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const { dashboardReads, dayReads } = homeServer({ day });
    renderApp('/dashboard', { session: signedInSession('ADMIN') });

    const list = await screen.findByRole('list', { name: 'Próximos agendamentos' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.home-next-time')?.textContent)).toEqual(['10:15', '11:00', '12:00', '13:00', '14:00']);
    expect(items[0].textContent).toContain('Corte de cabelo, Barba');
    expect(items[0].textContent).toContain('Diego Barbeiro');
    expect(items[1].textContent).toContain('Caio Líder');
    expect(Object.fromEntries(dayReads.at(-1)!)).toEqual({ idCompany: '1', date: '2026-11-24', status: '1' });

    await waitFor(() => expect(figure('Agendamentos hoje')).toBe('40'));
    const today = figures('Números de hoje');
    expect(figure('Receita prevista', today)).toBe('R$\u00a01.800,00');
    expect(figure('Recebido', today)).toBe('R$\u00a01.250,00');
    // (300 + 90) booked over 480 working minutes.
    expect(figure('Ocupação', today)).toBe('81,3%');
    expect(figure('Comissões no período', today)).toBe('R$\u00a0450,00');
    // Figures first, compact: no charts on the phone.
    expect(screen.queryByRole('heading', { name: 'Recebido por forma de pagamento' })).toBeNull();
    // Today is the shell's unit, the one 'Abrir agenda' opens.
    expect(dashboardReads.map((read) => Object.fromEntries(read))).toContainEqual({ period: 'today', idCompany: '1' });
    expect(screen.getByRole('link', { name: 'Abrir agenda' }).getAttribute('href')).toBe('/dashboard/scheduling');
    // Nothing below its minimum: no card.
    expect(screen.queryByRole('region', { name: 'Produtos abaixo do mínimo' })).toBeNull();
  });

  it('lists the products below their minimum on the phone too', async () => {
    homeServer({ answer: () => weekDashboard({ LowStock: LOW_STOCK }) });
    renderApp('/dashboard', { session: signedInSession('ATTENDANT') });
    const card = await screen.findByRole('region', { name: 'Produtos abaixo do mínimo' });
    expect(within(card).getAllByRole('link').map((link) => link.textContent)).toEqual(['Pomada modeladora', 'Óleo para barba']);
    expect(within(card).getByText('Qtd 2 / mín. 5 un')).toBeTruthy();
  });

  it("reads a barber's own appointments, says when none is left and shows '—' without working time", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T22:00:00Z'));
    const { dayReads } = homeServer({
      day,
      answer: () => ({ ...ownDashboard(), Occupancy: [{ IdProfessional: 7, Name: 'Admin', Color: '#000', BookedMinutes: 0, WorkingMinutes: 0 }] }),
    });
    renderApp('/dashboard', { session: signedInSession('DEFAULT') });

    expect(await screen.findByText('Nenhum próximo agendamento hoje.')).toBeTruthy();
    expect(Object.fromEntries(dayReads.at(-1)!)).toEqual({ idCompany: '1', date: '2026-11-24', status: '1', idProfessional: '7' });
    await waitFor(() => expect(figure('Ocupação')).toBe('—'));
  });

  it("shows the owner the unit and period switches, the period's figures and the club's pending payments (issue 45)", async () => {
    const { dashboardReads } = homeServer({
      answer: (search) => weekDashboard({ Totals: { ...weekDashboard().Totals, Appointments: search.get('period') === 'week' ? 77 : 40 } }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });

    const summary = await screen.findByRole('region', { name: 'Resumo do período' });
    // Today's numbers stay at the top.
    await waitFor(() => expect(figure('Agendamentos hoje')).toBe('40'));
    expect(figures('Números de hoje').compareDocumentPosition(summary) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const unit = within(summary).getByRole('combobox', { name: 'Unidade' }) as HTMLSelectElement;
    expect([...unit.options].map((option) => option.text)).toEqual(['Todas as unidades', 'Navalha Centro', 'Navalha Praia']);
    expect(unit.value).toBe('');
    const period = within(summary).getByLabelText('Números do período');
    await waitFor(() => expect(figure('Agendamentos', period)).toBe('40'));
    expect([...period.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual([
      'Agendamentos',
      'Atendidos',
      'Não compareceram',
      'Cancelamentos',
      'Receita prevista',
      'Recebido',
      'Novos clientes',
    ]);

    const periods = within(summary).getByRole('group', { name: 'Período' });
    await user.click(within(periods).getByRole('button', { name: 'Esta semana' }));
    await waitFor(() => expect(figure('Agendamentos', within(summary).getByLabelText('Números do período'))).toBe('77'));
    expect(Object.fromEntries(dashboardReads.at(-1)!)).toEqual({ period: 'week' });
    await user.selectOptions(unit, 'Navalha Praia');
    await waitFor(() => expect(Object.fromEntries(dashboardReads.at(-1)!)).toEqual({ period: 'week', idCompany: '2' }));
    // Today's numbers stay the shell unit's day.
    expect(figure('Agendamentos hoje')).toBe('40');

    // The club: its figures and the pending payments, each opening its subscriber; no charts.
    const club = within(summary).getByRole('region', { name: 'Clube de assinaturas' });
    expect(figure('Assinantes ativos', club)).toBe('12');
    expect(figure('Receita recorrente mensal', club)).toBe('R$\u00a01.078,80');
    const pending = within(club).getByRole('table', { name: 'Pagamentos pendentes' });
    expect(within(pending).getByText('20/11/2026')).toBeTruthy();
    expect(within(pending).getByText('R$ 89,90')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Recebido e a receber por mês' })).toBeNull();
    await user.click(within(pending).getByText('Clube Corte'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/subscription-user-detail-form/7'));
  });

  it('switches to the desktop home when the window widens, keeping the unit and the period', async () => {
    homeServer();
    const user = userEvent.setup();
    renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });
    expect(await screen.findByRole('link', { name: 'Abrir agenda' })).toBeTruthy();
    const summary = await screen.findByRole('region', { name: 'Resumo do período' });
    await user.click(within(within(summary).getByRole('group', { name: 'Período' })).getByRole('button', { name: 'Esta semana' }));
    await user.selectOptions(within(summary).getByRole('combobox', { name: 'Unidade' }), 'Navalha Praia');
    act(() => {
      window.innerWidth = DESKTOP_WIDTH;
      window.dispatchEvent(new Event('resize'));
    });
    // The desktop home mounts its charts and reads its figures anew: slower than the
    // default wait on a busy machine (it missed 3 s once in CI's web unit stage).
    const periods = await screen.findByRole('group', { name: 'Período' }, { timeout: 10_000 });
    expect(screen.queryByRole('link', { name: 'Abrir agenda' })).toBeNull();
    expect(within(periods).getByRole('button', { name: 'Esta semana' }).getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByRole('combobox', { name: 'Unidade' }) as HTMLSelectElement).value).toBe('2');
    window.innerWidth = 390;
  });
});

describe("reminders' confirmation (issue 44)", () => {
  // 10:15 on the unit's clock (UTC-3), Tuesday 24 November 2026.
  const NOW = new Date('2026-11-24T13:15:00Z');
  const WEEK: MessageSummary = {
    Totals: { ...NO_MESSAGE, Sent: 3, Delivered: 3, Read: 1, Confirmed: 1, ConfirmationRate: 33.3 },
    Days: [
      { ...NO_MESSAGE, Date: '2026-11-23', Sent: 2, Delivered: 2, Confirmed: 1, ConfirmationRate: 50 },
      { ...NO_MESSAGE, Date: '2026-11-24', Sent: 1, Delivered: 1, Read: 1, ConfirmationRate: 0 },
    ],
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const card = () => screen.getByRole('region', { name: 'Confirmação dos lembretes' });

  it("shows ADMIN the period's rate and, for the week, the sent and confirmed per day", async () => {
    homeServer({ units: [ownCompany, otherCompany] });
    const TODAY: MessageSummary = { Totals: { ...NO_MESSAGE, Sent: 1, Delivered: 1, ConfirmationRate: 0 }, Days: [WEEK.Days[1]] };
    const reads = summaryServer((search) => (search.get('start') === search.get('end') ? TODAY : WEEK));
    const user = userEvent.setup();
    renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });

    const region = await screen.findByRole('region', { name: 'Confirmação dos lembretes' });
    await waitFor(() => expect(within(region).getByTestId('home-reminders-rate').textContent).toBe('0%'));
    expect(within(region).getByText('0 de 1 confirmado')).toBeTruthy();
    // Today on the unit's clock, every unit (no idCompany).
    expect(Object.fromEntries(reads.at(-1)!)).toEqual({ start: '2026-11-24', end: '2026-11-24' });
    // No chart for a single day.
    expect(screen.queryByRole('table', { name: 'Lembretes por dia' })).toBeNull();

    await user.click(within(screen.getByRole('group', { name: 'Período' })).getByRole('button', { name: 'Esta semana' }));
    await waitFor(() => expect(within(card()).getByTestId('home-reminders-rate').textContent).toBe('33,3%'));
    expect(within(card()).getByText('1 de 3 confirmados')).toBeTruthy();
    expect(Object.fromEntries(reads.at(-1)!)).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(tableRow('Lembretes por dia', '23/11')).toEqual(['23/11', '2', '1']);
    expect(tableRow('Lembretes por dia', '25/11')).toEqual(['25/11', '0', '0']);
    expect(within(screen.getByRole('table', { name: 'Lembretes por dia' })).getAllByRole('row')).toHaveLength(8);
  });

  it("says '—' when no reminder was sent, draws nothing, and follows the unit chosen", async () => {
    homeServer();
    const reads = summaryServer();
    const user = userEvent.setup();
    renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });
    await screen.findByRole('region', { name: 'Confirmação dos lembretes' });
    await user.click(within(screen.getByRole('group', { name: 'Período' })).getByRole('button', { name: 'Esta semana' }));
    await waitFor(() => expect(within(card()).getByText('Nenhum lembrete enviado.')).toBeTruthy());
    expect(within(card()).getByTestId('home-reminders-rate').textContent).toBe('—');
    expect(screen.queryByRole('table', { name: 'Lembretes por dia' })).toBeNull();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Unidade' }), 'Navalha Praia');
    await waitFor(() => expect(Object.fromEntries(reads.at(-1)!)).toEqual({ idCompany: '2', start: '2026-11-23', end: '2026-11-29' }));
  });

  it.each(['ATTENDANT', 'DEFAULT'] as const)('is not asked for by %s (the server would answer 403)', async (role) => {
    homeServer({ answer: role === 'DEFAULT' ? ownDashboard : () => weekDashboard() });
    const reads = summaryServer();
    renderApp('/dashboard', { session: signedInSession(role, twoUnits) });
    await waitFor(() => expect(figure('Agendamentos')).toBeTruthy());
    expect(screen.queryByRole('region', { name: 'Confirmação dos lembretes' })).toBeNull();
    expect(reads).toEqual([]);
  });

  describe('on the phone', () => {
    beforeAll(() => {
      window.innerWidth = 390;
    });
    afterAll(() => {
      window.innerWidth = DESKTOP_WIDTH;
    });

    it("shows the owner the period's rate in the period's summary", async () => {
      homeServer();
      const reads = summaryServer(() => WEEK);
      const user = userEvent.setup();
      renderApp('/dashboard', { session: signedInSession('ADMIN', twoUnits) });
      const summary = await screen.findByRole('region', { name: 'Resumo do período' });
      const region = await within(summary).findByRole('region', { name: 'Confirmação dos lembretes' });
      await waitFor(() => expect(within(region).getByTestId('home-reminders-rate').textContent).toBe('33,3%'));
      expect(within(region).getByText('1 de 3 confirmados')).toBeTruthy();
      await user.click(within(within(summary).getByRole('group', { name: 'Período' })).getByRole('button', { name: 'Esta semana' }));
      await waitFor(() => expect(Object.fromEntries(reads.at(-1)!)).toEqual({ start: '2026-11-23', end: '2026-11-29' }));
      expect(await within(region).findByRole('table', { name: 'Lembretes por dia' })).toBeTruthy();
    });

    it('shows it to no one else', async () => {
      homeServer();
      const reads = summaryServer();
      renderApp('/dashboard', { session: signedInSession('ATTENDANT', twoUnits) });
      await screen.findByRole('region', { name: 'Resumo do período' });
      await waitFor(() => expect(figure('Agendamentos hoje')).toBe('40'));
      expect(screen.queryByRole('region', { name: 'Confirmação dos lembretes' })).toBeNull();
      expect(reads).toEqual([]);
    });
  });
});
