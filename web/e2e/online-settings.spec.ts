import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, CENTRO, apiToken, signInAs, toast } from './support';
import { bookOnce, newClient, newPage, screenshotsAt, setup } from './online-support';

// Issue 18: a unit's online-booking rules ('Agendamento online' in its form) and the public
// page following them. The spec changes Centro's rules, which every spec shares: they are put
// back to the defaults (2 hours, 2 bookings) whatever happens.

const CUTOFF_LABEL = 'Prazo para cancelar ou remarcar (horas antes do horário)';
const LIMIT_LABEL = 'Agendamentos futuros por cliente';
/** domain/src/online.rs `msg_too_many_bookings(1)`. */
const ONE_BOOKING_LIMIT = 'Você já tem 1 agendamento futuro nesta unidade. Cancele-o para agendar outro.';

/** GET company/{id}: PascalCase fields, among them the two online rules. */
type CompanyAnswer = Record<string, unknown> & { OnlineCancelCutoffHours: number; OnlineMaxFutureBookings: number };

async function readCompany(request: APIRequestContext, token: string, idCompany: number): Promise<CompanyAnswer> {
  const answer = await request.get(`/api/company/${idCompany}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return (await answer.json()) as CompanyAnswer;
}

/** Sets a unit's online rules through the API, the rest of the unit as it is (the form's body is the answer, camelCase). */
async function setOnlineRules(request: APIRequestContext, idCompany: number, cutoff: number, limit: number) {
  const token = await apiToken(request, ADMIN.email);
  const { IdCompany: _id, TimeZone: _zone, ...fields } = await readCompany(request, token, idCompany);
  const body = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key[0].toLowerCase() + key.slice(1), value ?? '']));
  const answer = await request.put(`/api/company/${idCompany}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { ...body, onlineCancelCutoffHours: cutoff, onlineMaxFutureBookings: limit },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

/** What the public page reads: the unit's rules, once the change has reached it. */
async function publicRules(request: APIRequestContext, idCompany: number) {
  const answer = await request.get(`/api/no-auth/online-booking/${idCompany}`);
  expect(answer.ok()).toBeTruthy();
  const unit = (await answer.json()) as { CancelCutoffHours: number; MaxFutureBookings: number };
  return [unit.CancelCutoffHours, unit.MaxFutureBookings];
}

/** 'DD/MM/YYYY às HH:MM', `hours` before a day's time (same day: the test's times start at 09:00). */
function hoursBefore(day: string, time: string, hours: number): string {
  const [y, m, d] = day.split('-');
  const [hh, mm] = time.split(':').map(Number);
  return `${d}/${m}/${y} às ${String(hh - hours).padStart(2, '0')}:${String(mm).padStart(2, '0')}`;
}

test("a unit's online rules: set in its form, followed by the public page, the limit refusing a second booking", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { idCompany, day } = await setup(page.request, 8);
  try {
    // The admin: the unit's form, 'Agendamento online'.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInAs(page, ADMIN.email);
    await page.goto(`/dashboard/company/${idCompany}`);
    await expect(page.getByLabel('Nome', { exact: true })).toHaveValue(CENTRO);
    const section = page.getByRole('group', { name: 'Agendamento online' });
    const cutoff = section.getByLabel(CUTOFF_LABEL);
    const limit = section.getByLabel(LIMIT_LABEL);
    await expect(cutoff).not.toHaveValue('');

    // The public page's address, copied and opened.
    const url = `${new URL(page.url()).origin}/agendar/${idCompany}`;
    await expect(section.getByLabel('Página de agendamento online')).toHaveValue(url);
    await section.getByRole('button', { name: 'Copiar link' }).click();
    await expect(toast(page, 'Link copiado.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const [publicPage] = await Promise.all([
      page.context().waitForEvent('page'),
      section.getByRole('link', { name: 'Abrir página' }).click(),
    ]);
    await expect(publicPage).toHaveURL(url);
    await expect(publicPage.getByRole('heading', { level: 1, name: CENTRO })).toBeVisible();
    await publicPage.close();

    // The form's own checks, then 3 hours and 1 booking.
    await limit.fill('');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(section.getByText('Informe de 1 a 10 agendamentos')).toBeVisible();
    await cutoff.fill('3');
    await limit.fill('1');
    await expect(section.getByText('Informe de 1 a 10 agendamentos')).toHaveCount(0);
    await screenshotsAt(page, section, 'online-settings-form');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Informações atualizadas com sucesso!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/company$/);
    // Read without the write's position: the read side follows within moments.
    const token = await apiToken(page.request, ADMIN.email);
    const saved = async () => {
      const company = await readCompany(page.request, token, idCompany);
      return [company.OnlineCancelCutoffHours, company.OnlineMaxFutureBookings];
    };
    await expect.poll(saved, { timeout: 15_000 }).toEqual([3, 1]);
    await expect.poll(() => publicRules(page.request, idCompany), { timeout: 15_000 }).toEqual([3, 1]);

    // A client books once: the page says the unit's cut-off, and so does the link.
    const clientPage = await newPage(browser, 390);
    const client = newClient('Limite');
    const time = await bookOnce(clientPage, idCompany, day, client);
    const confirmed = clientPage.getByRole('region', { name: 'Agendamento confirmado!' });
    await expect(confirmed).toBeVisible();
    await expect(confirmed).toContainText('por ele você cancela ou remarca até 3 horas antes do horário');
    await clientPage.getByRole('link', { name: 'Cancelar ou remarcar' }).click();
    await expect(clientPage.getByText(`Você pode cancelar ou remarcar até ${hoursBefore(day, time, 3)}.`)).toBeVisible();
    const manageUrl = clientPage.url();

    // A second booking is refused with the server's message.
    await bookOnce(clientPage, idCompany, day, client);
    await expect(clientPage.getByRole('alert').filter({ hasText: 'Você já tem' })).toHaveText(ONE_BOOKING_LIMIT);
    await expect(clientPage.getByRole('region', { name: 'Agendamento confirmado!' })).toHaveCount(0);
    await clientPage.screenshot({ path: 'test-results/online-settings-limit-390.png', fullPage: true });

    // The first booking, cancelled through its link (the agenda stays free for other specs).
    await clientPage.goto(manageUrl);
    await clientPage.getByRole('button', { name: 'Cancelar agendamento' }).click();
    await clientPage.getByRole('dialog', { name: 'Cancelar agendamento?' }).getByRole('button', { name: 'Cancelar agendamento' }).click();
    await expect(clientPage.getByText('Agendamento cancelado.')).toBeVisible();
    await clientPage.context().close();
  } finally {
    await setOnlineRules(page.request, idCompany, 2, 2);
  }
  await expect.poll(() => publicRules(page.request, idCompany), { timeout: 15_000 }).toEqual([2, 2]);
});
