import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  BARBER1,
  CENTRO,
  apiToken,
  bookFirstFree,
  companyId,
  createClient,
  freeTimes,
  runTag,
  serviceId,
  signInAs,
} from './support';

// Issue 17: the home ('Início') shows the figures GET dashboard answers, drawn and in tables,
// for a unit or all of them, and follows a booking.

interface Dashboard {
  Start: string;
  End: string;
  Days: { Date: string; Booked: number; Confirmed: number; Cancelled: number }[];
  Totals: { Appointments: number; Cancelled: number; ExpectedRevenue: number; NewClients: number | null };
  Received: { Total: number };
  Club: { ActiveSubscribers: number; Pending: { IdSubscriptionUser: number }[] } | null;
}

async function dashboard(request: APIRequestContext, token: string, query: string, position?: string): Promise<Dashboard> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (position) headers['X-Navalha-Position'] = position;
  const answer = await request.get(`/api/dashboard?${query}`, { headers });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as Dashboard;
}

/** A key figure's value, on the page or in one list of figures ('Números de hoje'). */
const figure = (scope: Page | Locator, label: string) => {
  // `has` is looked for inside each figure, so it starts from the page, not from the scope.
  const page = 'page' in scope && typeof scope.page === 'function' ? scope.page() : (scope as Page);
  return scope.locator('.home-figure').filter({ has: page.getByText(label, { exact: true }) }).locator('.home-figure-value');
};
const brl = (value: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value);
const normalized = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('.home').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

test('an ADMIN sees the unit figures of GET dashboard, for each period and all units, and a booking raises them', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  await signInAs(page, ADMIN.email);
  await expect(page.getByRole('heading', { name: 'Início' })).toBeVisible();
  await page.getByLabel('Unidade').selectOption({ label: CENTRO });

  for (const [button, period, days] of [
    ['Hoje', 'today', 1],
    ['Esta semana', 'week', 7],
    ['Últimos 30 dias', '30d', 30],
  ] as const) {
    // The assertions below wait for the screen to show what the API answers.
    await page.getByRole('group', { name: 'Período' }).getByRole('button', { name: button }).click();
    const expected = await dashboard(request, token, `period=${period}&idCompany=${idCompany}`);
    await expect(figure(page, 'Agendamentos')).toHaveText(String(expected.Totals.Appointments));
    await expect(figure(page, 'Cancelamentos')).toHaveText(String(expected.Totals.Cancelled));
    expect(normalized(await figure(page, 'Receita prevista').textContent())).toBe(normalized(brl(expected.Totals.ExpectedRevenue)));
    expect(normalized(await figure(page, 'Recebido').textContent())).toBe(normalized(brl(expected.Received.Total)));
    // The chart's table form: one row per day of the period; a period with no appointment
    // at all (a Sunday just after midnight, issue 38) says so instead.
    const table = page.locator('table').filter({ has: page.locator('caption', { hasText: 'Agendamentos por dia' }) });
    const anyAppointment = expected.Days.some((day) => day.Booked + day.Confirmed + day.Cancelled > 0);
    if (anyAppointment) await expect(table.locator('tbody tr')).toHaveCount(days);
    else await expect(page.locator('.home-card').filter({ hasText: 'Agendamentos por dia' })).toContainText('Sem dados no período.');
  }

  // 'Todas as unidades' asks without idCompany.
  const all = page.waitForRequest((r) => r.url().includes('/api/dashboard?') && !r.url().includes('idCompany'));
  await page.getByLabel('Unidade').selectOption({ label: 'Todas as unidades' });
  await all;
  await page.getByLabel('Unidade').selectOption({ label: CENTRO });

  // A booking this week (when the week still has a free time) raises 'Agendamentos'.
  await page.getByRole('group', { name: 'Período' }).getByRole('button', { name: 'Esta semana' }).click();
  const week = await dashboard(request, token, `period=week&idCompany=${idCompany}`);
  const idService = await serviceId(request, token, idCompany, 'Corte de cabelo');
  const free = await freeTimes(request, token, idCompany, idService);
  const diego = free.professionals.find((p) => p.name === BARBER1.name)!;
  const day = free.times.find((d) => d.shortDate <= week.End && d.freeHours.some((h) => h.idProfessional === diego.idProfessional));
  test.info().annotations.push({ type: 'week', description: day ? `booked on ${day.shortDate}` : 'no free time left this week' });
  if (day) {
    const idUser = await createClient(request, token, `Cliente Início ${runTag()}`);
    const booked = await bookFirstFree(request, token, { idCompany, professional: BARBER1.name, date: day.shortDate, idUser, idService });
    await page.reload();
    await page.getByLabel('Unidade').selectOption({ label: CENTRO });
    await page.getByRole('group', { name: 'Período' }).getByRole('button', { name: 'Esta semana' }).click();
    const after = await dashboard(request, token, `period=week&idCompany=${idCompany}`, booked.position);
    expect(after.Totals.Appointments).toBeGreaterThan(week.Totals.Appointments);
    await expect(figure(page, 'Agendamentos')).toHaveText(String(after.Totals.Appointments));
  }
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/home-1280.png', fullPage: false });

  // A pending payment opens its subscriber.
  const pending = page.getByRole('table', { name: 'Pagamentos pendentes' }).locator('tbody tr').first();
  if ((week.Club?.Pending.length ?? 0) > 0) {
    await pending.click();
    await expect(page).toHaveURL(/\/dashboard\/subscription-user-detail-form\/\d+$/);
  }
});

test('at 390 px the home shows today: its figures (the commissions among them), the next appointments and the way to the agenda', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const token = await apiToken(request, ADMIN.email);
  await signInAs(page, ADMIN.email);
  await expect(page.getByRole('heading', { name: 'Início' })).toBeVisible();
  // The period's figures further down repeat some labels: these are today's.
  const today = page.getByLabel('Números de hoje');
  for (const label of ['Agendamentos hoje', 'Ocupação', 'Receita prevista', 'Recebido', 'Comissões no período']) {
    await expect(figure(today, label)).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Próximos agendamentos' })).toBeVisible();
  const todays = await dashboard(request, token, 'period=today');
  expect(todays.Days).toHaveLength(1);
  await page.screenshot({ path: 'test-results/home-390.png', fullPage: false });
  await page.getByRole('link', { name: 'Abrir agenda' }).click();
  await expect(page).toHaveURL(/\/dashboard\/scheduling$/);
});

test("at 390 px the owner has the period and unit switches, the period's figures and the club's pending payments (issue 45)", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const token = await apiToken(request, ADMIN.email);
  await signInAs(page, ADMIN.email);
  await expect(page.getByRole('heading', { name: 'Início' })).toBeVisible();
  // Today's numbers first, then the summary with its switches.
  await expect(figure(page.getByLabel('Números de hoje'), 'Agendamentos hoje')).toBeVisible();
  const summary = page.getByRole('region', { name: 'Resumo do período' });
  const unit = summary.getByLabel('Unidade');
  const periods = summary.getByRole('group', { name: 'Período' });
  await expect(unit).toBeVisible();
  await expect(periods).toBeVisible();
  // A first visit (a new browser) opens on every unit, not the alphabetically first.
  await expect(unit.locator('option:checked')).toHaveText('Todas as unidades');

  // The period's figures follow the switch: the week of every unit, as GET dashboard says.
  await periods.getByRole('button', { name: 'Esta semana' }).click();
  const week = await dashboard(request, token, 'period=week');
  const numbers = summary.getByLabel('Números do período');
  await expect(figure(numbers, 'Agendamentos')).toHaveText(String(week.Totals.Appointments));
  await expect(figure(numbers, 'Cancelamentos')).toHaveText(String(week.Totals.Cancelled));
  expect(normalized(await figure(numbers, 'Recebido').textContent())).toBe(normalized(brl(week.Received.Total)));

  // The club's pending payments, each opening its subscriber (cards in the list pattern).
  const club = summary.getByRole('region', { name: 'Clube de assinaturas' });
  await expect(club.getByRole('heading', { name: 'Pagamentos pendentes' })).toBeVisible();
  const pending = club.getByRole('table', { name: 'Pagamentos pendentes' });
  await expect(pending).toBeVisible();
  if ((week.Club?.Pending.length ?? 0) > 0) await expect(pending.locator('tbody tr').first().getByRole('link')).toBeVisible();
  else await expect(pending).toContainText('Nenhum pagamento pendente.');
  // Everything fits the width of the phone.
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
  await expect(page.locator('.home[aria-busy]')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/home-owner-390.png', fullPage: true });

  // The unit chosen is where the home opens next time, its club's payments with it.
  await unit.selectOption({ label: CENTRO });
  // redux-persist writes the choice after the render: a reload before it reads the old one.
  const centroId = String(await companyId(request, token, CENTRO));
  await expect
    .poll(() =>
      page.evaluate(() => {
        const saved = JSON.parse(localStorage.getItem('persist:navalha-ui') ?? '{}') as { homeUnits?: string };
        return Object.values(JSON.parse(saved.homeUnits ?? '{}') as Record<string, unknown>).map(String);
      }),
    )
    .toContain(centroId);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Resumo do período' }).getByLabel('Unidade').locator('option:checked')).toHaveText(CENTRO);
  const centro = await dashboard(request, token, `period=today&idCompany=${centroId}`);
  if ((centro.Club?.Pending.length ?? 0) > 0) {
    await page.getByRole('table', { name: 'Pagamentos pendentes' }).locator('tbody tr').first().click();
    await expect(page).toHaveURL(/\/dashboard\/subscription-user-detail-form\/\d+$/);
  }
});
