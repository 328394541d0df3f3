import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, newContext } from './fixtures';
import { dismissToasts } from './backoffice-a-support';
import {
  ADMIN,
  CENTRO,
  apiToken,
  bookFirstFree,
  companyId,
  createClient,
  freeTimes,
  freeDay,
  goToDay,
  moveToAnotherFreeTime,
  runTag,
  serviceId,
  signInAs,
  toast,
  workingDayAhead,
} from './support';

// Issue 14 item 4: the audit on screen, for ADMIN. The appointment's from its card; the
// client's, professional's and unit's from their forms.

const ATTENDANT = { email: 'atendente@navalha.dev', name: 'Beatriz Atendente' };
const LEADER = { email: 'lider@navalha.dev', name: 'Caio Líder' };
const DIEGO = 'Diego Barbeiro';

/** Chooses an option of a searchable dropdown. */
async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Opens 'Histórico' from an appointment card's options menu. */
async function openHistory(page: Page, id: number) {
  await page.getByRole('button', { name: `Opções do agendamento N.º ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Histórico' }).click();
  return page.getByRole('dialog', { name: `Histórico do agendamento N.º ${id}` });
}

/** A screenshot into test-results/; a dialog's shows the viewport (a full page would leave it behind). */
/** Serious and critical WCAG 2.1 A/AA violations axe-core finds inside `selector`. */
async function seriousViolations(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: `test-results/${name}.png`, fullPage });

test('an ADMIN opens an appointment history from its card: who booked it, who moved it and the time from → to', async ({
  page,
  request,
  browser,
}) => {
  const client = `Cliente Histórico ${runTag()}`;
  const admin = await apiToken(request, ADMIN.email);
  const idUser = await createClient(request, admin, client);
  const idCompany = await companyId(request, admin, CENTRO);
  const idService = await serviceId(request, admin, idCompany, 'Corte de cabelo');
  const day = await freeDay(request, admin, { idCompany, idService, fromDate: workingDayAhead(3), professionals: [DIEGO] });

  // Booked at the front desk, moved by the leader.
  const attendant = await apiToken(request, ATTENDANT.email);
  const booked = await bookFirstFree(request, attendant, { idCompany, professional: DIEGO, date: day, idUser, idService });
  const leader = await apiToken(request, LEADER.email);
  const movedTo = await moveToAnotherFreeTime(request, leader, {
    id: booked.id,
    idCompany,
    idService,
    idUser,
    professional: DIEGO,
    date: day,
    from: booked.start,
  });

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await choose(page, 'Barbearia', new RegExp(CENTRO));
  await goToDay(page, day);
  await expect(page.getByRole('article', { name: new RegExp(`N.º ${booked.id}:`) })).toContainText(movedTo);

  const dialog = await openHistory(page, booked.id);
  const history = dialog.getByRole('list', { name: `Histórico do agendamento N.º ${booked.id}` });
  const entries = history.locator('> li');
  await expect(entries).toHaveCount(2);
  // Newest first: the move, by the leader, with the time from → to.
  const move = entries.nth(0);
  await expect(move).toContainText('Horário alterado');
  await expect(move).toContainText(LEADER.name);
  await expect(move).toContainText('Barbeiro líder');
  await expect(move).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  const start = move.locator('.history-change').filter({ hasText: 'Início' });
  await expect(start.locator('.history-from')).toHaveText(booked.start);
  await expect(start.locator('.history-to')).toHaveText(movedTo);
  await expect(start).toContainText(`Início${booked.start}→ para ${movedTo}`);
  // Then the booking, by the attendant, with what was booked.
  const creation = entries.nth(1);
  await expect(creation).toContainText('Agendamento criado');
  await expect(creation).toContainText(ATTENDANT.name);
  await expect(creation).toContainText('Atendente');
  await expect(creation).toContainText(client);
  await expect(creation).toContainText(DIEGO);
  await expect(creation).toContainText(/Corte de cabelo \(\d+ min, R\$\s?\d+,\d{2}\)/);
  await dismissToasts(page);
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  await shot(page, 'history-appointment-1280', false);
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await expect(dialog).toBeHidden();

  // The mobile list's cards have it too; a confirmation shows as the newest entry.
  await page.setViewportSize({ width: 390, height: 844 });
  const confirmed = await request.put(`/api/scheduling/${booked.id}/confirm`, { headers: { Authorization: `Bearer ${admin}` } });
  expect(confirmed.ok()).toBeTruthy();
  const mobile = await openHistory(page, booked.id);
  await expect(mobile.getByRole('listitem').first()).toContainText('Confirmado');
  await expect(mobile.getByRole('listitem').first()).toContainText('Administrador');
  await expect(mobile.getByRole('list').locator('> li')).toHaveCount(3);
  await shot(page, 'history-appointment-390', false);
  await mobile.getByRole('button', { name: 'Fechar' }).click();
  await page.setViewportSize({ width: 1280, height: 800 });

  // Not for the front desk: the server answers 403, so the option is not there.
  const context = await newContext(browser);
  const desk = await context.newPage();
  await signInAs(desk, ATTENDANT.email);
  await desk.goto('/dashboard/scheduling');
  await choose(desk, 'Barbearia', new RegExp(CENTRO));
  await goToDay(desk, day);
  await desk.getByRole('button', { name: `Opções do agendamento N.º ${booked.id}` }).click();
  await expect(desk.getByRole('menuitem', { name: 'Cancelar' })).toBeVisible();
  await expect(desk.getByRole('menuitem', { name: 'Histórico' })).toHaveCount(0);
  await context.close();
});

test('the client form shows its history after an edit; the professional and unit forms show theirs', async ({
  page,
  request,
}) => {
  const tag = runTag();
  const name = `Cliente Auditado ${tag}`;
  const edited = `Cliente Auditado Editado ${tag}`;
  const admin = await apiToken(request, ADMIN.email);
  const id = await createClient(request, admin, name);

  await signInAs(page, ADMIN.email);
  await page.goto(`/dashboard/client/${id}`);
  const form = page.getByRole('form', { name: 'Dados do cliente' });
  await expect(form.getByLabel('Nome completo')).toHaveValue(name);
  // Before the edit: only the registration.
  const history = page.getByRole('list', { name: 'Histórico do cliente' });
  await expect(history.locator('> li')).toHaveCount(1);
  await expect(history).toContainText('Cliente cadastrado');

  await form.getByLabel('Nome completo').fill(edited);
  await form.getByLabel('WhatsApp').uncheck();
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Informações atualizadas com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/client$/);

  await page.goto(`/dashboard/client/${id}`);
  await expect(form.getByLabel('Nome completo')).toHaveValue(edited);
  await expect(history.locator('> li')).toHaveCount(2);
  const edit = history.locator('> li').first();
  await expect(edit).toContainText('Dados do cliente alterados');
  await expect(edit).toContainText('Ana Administradora');
  await expect(edit).toContainText('Administrador');
  const nameLine = edit.locator('.history-change').filter({ hasText: 'Nome' });
  await expect(nameLine.locator('.history-from')).toHaveText(name);
  await expect(nameLine.locator('.history-to')).toHaveText(edited);
  const whats = edit.locator('.history-change').filter({ hasText: 'WhatsApp' });
  await expect(whats.locator('.history-from')).toHaveText('Sim');
  await expect(whats.locator('.history-to')).toHaveText('Não');
  await expect(history.locator('> li').nth(1)).toContainText('Cliente cadastrado');
  await dismissToasts(page);
  await page.getByRole('heading', { name: 'Histórico' }).scrollIntoViewIfNeeded();
  expect(await seriousViolations(page, '.history-panel')).toEqual([]);
  await shot(page, 'history-client-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(edit).toBeVisible();
  await shot(page, 'history-client-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A professional: the 'Histórico' tab.
  const idCompany = await companyId(request, admin, CENTRO);
  const idService = await serviceId(request, admin, idCompany, 'Corte de cabelo');
  const diego = (await freeTimes(request, admin, idCompany, idService)).professionals.find((p) => p.name === DIEGO)!;
  await page.goto(`/dashboard/professional/${diego.idProfessional}`);
  await page.getByRole('tab', { name: 'Histórico' }).click();
  const professional = page.getByRole('list', { name: 'Histórico do profissional' });
  await expect(professional.locator('> li').last()).toContainText('Profissional cadastrado');
  await expect(professional.locator('> li').last()).toContainText(/Perfil\s*Barbeiro 1/);
  await shot(page, 'history-professional-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'history-professional-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A unit: the 'Histórico' tab.
  await page.goto(`/dashboard/company/${idCompany}`);
  await page.getByRole('tab', { name: 'Histórico' }).click();
  const unit = page.getByRole('list', { name: 'Histórico da empresa' });
  await expect(unit.locator('> li').last()).toContainText('Empresa cadastrada');
  await expect(unit.locator('> li').last()).toContainText(/Nome\s*Navalha Centro/);
  await expect(unit).toContainText('Terça-feira, abertura');
  await shot(page, 'history-company-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'history-company-390');
});
