import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { screenshots } from './backoffice-a-support';
import { auth, bookInThePast } from './counter-support';
import { setUnitSettings } from './companies-support';
import { screenshotsAt } from './online-support';
import { ADMIN, CENTRO, type AgendaSetup, agendaSetup, apiToken, companyId, signInAs, toast } from './support';

// Issue 44: a client's 'Não compareceu'. Two past appointments marked so through the API show
// as '2 faltas' by the client's name in the booking wizard's search (wide and at 390 px) and as
// the client form's figures; a unit's 'Bloquear agendamento online após (faltas em 90 dias)'
// is set in its form and kept.

const NO_SHOW_LIMIT_LABEL = 'Bloquear agendamento online após (faltas em 90 dias)';
/** domain/src/online.rs `MSG_BAD_NO_SHOW_LIMIT`. */
const NO_SHOW_LIMIT_MESSAGE = 'Informe de 0 a 20 faltas (0 não bloqueia)';
const TWO_NO_SHOWS_HINT = 'Faltas nos últimos 90 dias: 2 (no total: 2)';

/** Books `count` past appointments of the client (ALL_TIMES, as the desk records a visit) and marks each 'Não compareceu'. */
async function markNoShows(request: APIRequestContext, s: AgendaSetup, count: number) {
  for (let i = 0; i < count; i += 1) {
    const past = await bookInThePast(request, s.token, { idCompany: s.idCompany, idService: s.idService, idUser: s.idUser });
    const marked = await request.post(`/api/scheduling/${past.id}/no-show`, { headers: auth(s.token) });
    expect(marked.ok(), await marked.text()).toBeTruthy();
  }
}

/** The client's counts as the client search reads them (GET user/filter), once the read side has them. */
async function searchedNoShows(request: APIRequestContext, s: AgendaSetup) {
  const answer = await request.get(`/api/user/filter?page=1&pageSize=5&search=${encodeURIComponent(s.client)}&status=1`, {
    headers: auth(s.token),
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  const found = ((await answer.json()) as { content: { IdUser: number; NoShows: number; NoShowsLast90Days: number }[] }).content.find(
    (client) => client.IdUser === s.idUser,
  );
  return found ? [found.NoShowsLast90Days, found.NoShows] : null;
}

/** A figure's value in the client form's 'Visitas' ('Faltas (90 dias)'). */
const figure = (page: Page, scope: Locator, label: string) =>
  scope.locator('.client-visit-figures > div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');

/** GET company/{id}'s no-show limit. */
async function noShowLimitOf(request: APIRequestContext, idCompany: number) {
  const token = await apiToken(request, ADMIN.email);
  const answer = await request.get(`/api/company/${idCompany}`, { headers: auth(token) });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return ((await answer.json()) as { OnlineNoShowLimit: number }).OnlineNoShowLimit;
}

/** Sets a unit's no-show limit through the API; its other settings keep theirs. */
const setNoShowLimit = (request: APIRequestContext, idCompany: number, limit: number) =>
  setUnitSettings(request, idCompany, { onlineNoShowLimit: limit });

test("a client's two no-shows show as '2 faltas' in the booking wizard's search and as the client form's figures", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const s = await agendaSetup(request, 'Cliente Faltoso', 1);
  await markNoShows(request, s, 2);
  // The read side follows within moments.
  await expect.poll(() => searchedNoShows(request, s), { timeout: 15_000 }).toEqual([2, 2]);

  // The booking wizard's client search, wide: the badge by the name, the counts on hover.
  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  await modal.getByLabel('Buscar cliente').fill(s.client);
  const row = modal.getByRole('row', { name: new RegExp(s.client) });
  const badge = row.getByText('2 faltas', { exact: true });
  await expect(badge).toBeVisible();
  await expect(badge).toHaveAttribute('title', TWO_NO_SHOWS_HINT);
  await row.getByRole('radio', { name: `Selecionar ${s.client}` }).click();
  // Chosen: the wizard says it by the client's name too.
  await expect(modal.locator('.wizard-chosen').filter({ hasText: s.client }).getByText('2 faltas', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/no-shows-search-1280.png' });
  await modal.getByRole('button', { name: 'Fechar' }).click();

  // At 390 px: the mobile flow's search shows it in the compact row, and so does the chosen client.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/scheduling');
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  await page.getByRole('button', { name: 'Selecionar cliente' }).click();
  const search = page.getByRole('dialog', { name: 'Buscar cliente' });
  await search.getByLabel('Buscar cliente').fill(s.client);
  const compact = search.getByRole('row', { name: new RegExp(s.client) });
  await expect(compact.getByText('2 faltas', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/no-shows-search-390.png' });
  await compact.getByRole('radio', { name: `Selecionar ${s.client}` }).click();
  await expect(search).toBeHidden();
  await expect(page.getByRole('region', { name: 'Cliente' }).getByText('2 faltas', { exact: true })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  // The client form: the last 90 days and ever, with the visits' figures.
  await page.goto(`/dashboard/client/${s.idUser}`);
  const visits = page.getByRole('region', { name: 'Visitas' });
  await expect(figure(page, visits, 'Faltas (90 dias)')).toHaveText('2');
  await expect(figure(page, visits, 'Faltas (total)')).toHaveText('2');
  await screenshots(page, 'no-shows-client-form', async () => {
    await expect(figure(page, visits, 'Faltas (90 dias)')).toBeVisible();
  });
});

test("a unit's 'Bloquear agendamento online após (faltas em 90 dias)' is checked, saved and read back", async ({ page, request }) => {
  test.setTimeout(90_000);
  const idCompany = await companyId(request, await apiToken(request, ADMIN.email), CENTRO);
  try {
    await signInAs(page, ADMIN.email);
    await page.goto(`/dashboard/company/${idCompany}`);
    await expect(page.getByLabel('Nome', { exact: true })).toHaveValue(CENTRO);
    const section = page.getByRole('group', { name: 'Agendamento online' });
    const limit = section.getByLabel(NO_SHOW_LIMIT_LABEL);
    await expect(limit).not.toHaveValue('');
    await expect(section.getByText('0 não bloqueia', { exact: true })).toBeVisible();

    // The form's own check, then 1.
    await limit.fill('');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(section.getByText(NO_SHOW_LIMIT_MESSAGE)).toBeVisible();
    await limit.fill('1');
    await expect(section.getByText(NO_SHOW_LIMIT_MESSAGE)).toHaveCount(0);
    await screenshotsAt(page, limit, 'no-shows-unit-form');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Informações atualizadas com sucesso!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/company$/);

    // Read again once the read side has it: the form shows 1.
    await expect.poll(() => noShowLimitOf(request, idCompany), { timeout: 15_000 }).toBe(1);
    await page.goto(`/dashboard/company/${idCompany}`);
    await expect(page.getByLabel('Nome', { exact: true })).toHaveValue(CENTRO);
    await expect(page.getByRole('group', { name: 'Agendamento online' }).getByLabel(NO_SHOW_LIMIT_LABEL)).toHaveValue('1');
  } finally {
    // Centro is every spec's unit: online booking blocks nobody again.
    await setNoShowLimit(request, idCompany, 0);
  }
  await expect.poll(() => noShowLimitOf(request, idCompany), { timeout: 15_000 }).toBe(0);
});
