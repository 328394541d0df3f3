import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  BARBER2_NAME,
  CENTRO,
  apiToken,
  bookFirstFree,
  companyId,
  createClient,
  freeDay,
  goToDay,
  pickDay,
  randomCpf,
  runTag,
  serviceId,
  signInAs,
  toast,
  workingDayAhead,
} from './support';

test.use({ viewport: { width: 390, height: 844 } });

test('the mobile scheduling screen books an appointment at 390 px', async ({ page, request }) => {
  const client = `Cliente Celular ${runTag()}`;
  const token = await apiToken(request, ADMIN.email);
  await createClient(request, token, client);
  const idCompany = await companyId(request, token, CENTRO);
  const day = await freeDay(request, token, {
    idCompany,
    idService: await serviceId(request, token, idCompany, 'Barba'),
    fromDate: workingDayAhead(4),
  });

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');

  // The branch selector searches by name or city, whatever the case.
  const branch = page.getByRole('combobox', { name: 'Filial' });
  await branch.click();
  await branch.fill('são paulo');
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: new RegExp(CENTRO) }).click();
  await expect(branch).toHaveValue(CENTRO);

  await expect(page.getByRole('heading', { name: 'Agendamentos' })).toBeVisible();
  await expect(page.getByLabel('Hora atual')).toHaveText(/^\d{2}:\d{2}:\d{2}$/);

  // The new-appointment flow: 'Confirmar' explains what is missing.
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  await expect(page.getByRole('heading', { name: 'Novo agendamento' })).toBeVisible();
  await expect(
    page.getByText('Para exibir os horários disponíveis, selecione ao menos um serviço.'),
  ).toBeVisible();
  const confirm = page.getByRole('button', { name: 'Confirmar' });
  await expect(confirm).toBeDisabled();
  await confirm.locator('..').hover();
  await expect(page.getByRole('tooltip')).toHaveText(
    'Escolha corretamente os serviços, a data, o horário e o cliente.',
  );

  await page.getByRole('checkbox', { name: /Barba/ }).first().check();
  await pickDay(page.getByRole('group', { name: 'Data do agendamento' }), day);
  const time = page.locator('.time-button').first();
  const start = (await time.textContent())!.trim();
  await time.click();
  await page.getByLabel('Observações').fill('Pelo celular');
  await expect(confirm).toBeDisabled();

  await page.getByRole('button', { name: 'Selecionar cliente' }).click();
  const search = page.getByRole('dialog', { name: 'Buscar cliente' });
  await search.getByLabel('Buscar cliente').fill(client);
  await search.getByRole('radio', { name: `Selecionar ${client}` }).click();
  await expect(search).toBeHidden();
  await expect(page.getByRole('region', { name: 'Cliente' })).toContainText(client);

  await expect(confirm).toBeEnabled();
  await page.screenshot({ path: 'test-results/agenda-mobile-new-390.png', fullPage: true });
  await confirm.click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeVisible();
  await page.screenshot({ path: 'test-results/agenda-mobile-booked-390.png' });

  // Back on the list, on the booked day, at once.
  const booked = page.getByRole('article').filter({ hasText: client });
  await expect(booked).toContainText(start);
  await expect(booked).toContainText('Pelo celular');
  await page.getByLabel('Buscar', { exact: true }).fill(client.split(' ').at(-1)!);
  await expect(page.getByRole('article')).toHaveCount(1);
  // Out of the way of the screenshot.
  await toast(page, 'Agendamento realizado com sucesso!').click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeHidden();
  await page.screenshot({ path: 'test-results/agenda-mobile-390.png' });

  // Cancelled ones are another list.
  await page.getByRole('button', { name: 'Visualizar cancelados' }).click();
  await expect(page.getByText('Nenhum agendamento encontrado...')).toBeVisible();
  await page.getByRole('button', { name: 'Visualizar confirmados' }).click();
  await expect(booked).toBeVisible();
  await page.getByLabel('Buscar', { exact: true }).fill('');
  await page.screenshot({ path: 'test-results/agenda-mobile-390-full.png', fullPage: true });
});

test("the mobile agenda's filters fold away behind 'Abrir Filtros' (spec 01 §2)", async ({ page, request }) => {
  const client = `Cliente Filtro ${runTag()}`;
  const token = await apiToken(request, ADMIN.email);
  const idUser = await createClient(request, token, client);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Barba');
  const day = await freeDay(request, token, { idCompany, idService, fromDate: workingDayAhead(5), professionals: ['Diego Barbeiro'] });
  await bookFirstFree(request, token, { idCompany, professional: 'Diego Barbeiro', date: day, idUser, idService });

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await page.getByRole('combobox', { name: 'Filial' }).click();
  await page.getByRole('option', { name: new RegExp(CENTRO) }).click();
  await goToDay(page, day);
  const booked = page.getByRole('article').filter({ hasText: client });
  await expect(booked).toBeVisible();

  // Folded at first; open, the professional and client filters narrow the list.
  const toggle = page.getByRole('button', { name: 'Abrir Filtros' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('group', { name: 'Filtros' })).toBeHidden();
  await toggle.click();
  const filters = page.getByRole('group', { name: 'Filtros' });
  await expect(filters).toBeVisible();
  await filters.getByRole('combobox', { name: 'Profissional' }).click();
  await page.getByRole('option', { name: BARBER2_NAME }).click();
  await expect(booked).toBeHidden();
  await filters.getByRole('combobox', { name: 'Profissional' }).click();
  await page.getByRole('option', { name: 'Diego Barbeiro' }).click();
  await expect(booked).toBeVisible();
  await filters.getByRole('combobox', { name: 'Cliente' }).fill(client);
  await page.getByRole('option', { name: client }).click();
  await expect(page.getByRole('article')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/agenda-mobile-filters-390.png' });

  await page.getByRole('button', { name: 'Fechar Filtros' }).click();
  await expect(filters).toBeHidden();
  await expect(page.getByRole('button', { name: 'Abrir Filtros' })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('article')).toHaveCount(1);

  // Cancelling from the mobile list: its toast names no number (spec 01, success toasts).
  await booked.getByRole('button', { name: /^Opções do agendamento/ }).click();
  await page.getByRole('menuitem', { name: 'Cancelar' }).click();
  await page.getByRole('dialog', { name: 'Atencão!' }).getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /^Agendamento excluído com sucesso!$/ })).toBeVisible();
  await expect(booked).toBeHidden();
});

/** Signs in as ADMIN and opens Centro's mobile agenda. */
async function openCentroAgenda(page: Page) {
  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await page.getByRole('combobox', { name: 'Filial' }).click();
  await page.getByRole('option', { name: new RegExp(CENTRO) }).click();
}

/**
 * Centro's id and the 'Barba' service, and the first day from `ahead` days on when
 * `professional` has at least `minFree` free starts.
 */
async function barbaDay(request: APIRequestContext, token: string, ahead: number, professional: string, minFree = 1) {
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Barba');
  const day = await freeDay(request, token, {
    idCompany,
    idService,
    fromDate: workingDayAhead(ahead),
    professionals: [professional],
    minFree,
  });
  return { idCompany, idService, day };
}

test('the mobile flow books with a chosen professional, or anyone by default (issue 14)', async ({ page, request }) => {
  const client = `Cliente Escolha ${runTag()}`;
  const token = await apiToken(request, ADMIN.email);
  await createClient(request, token, client);
  const { day } = await barbaDay(request, token, 3, BARBER2_NAME);

  await openCentroAgenda(page);
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  await page.getByRole('checkbox', { name: /Barba/ }).first().check();

  // Optional: 'Sem preferência' offers everyone's free times, as the desktop wizard does.
  const professional = page.getByRole('combobox', { name: 'Profissional' });
  await expect(professional).toHaveValue('Sem preferência');
  await professional.click();
  await page.getByRole('option', { name: BARBER2_NAME }).click();
  await expect(professional).toHaveValue(BARBER2_NAME);
  await pickDay(page.getByRole('group', { name: 'Data do agendamento' }), day);
  const time = page.locator('.time-button').first();
  const start = (await time.textContent())!.trim();
  await time.click();
  await page.getByRole('button', { name: 'Selecionar cliente' }).click();
  const search = page.getByRole('dialog', { name: 'Buscar cliente' });
  await search.getByLabel('Buscar cliente').fill(client);
  await search.getByRole('radio', { name: `Selecionar ${client}` }).click();
  await page.screenshot({ path: 'test-results/agenda-mobile-professional-390.png', fullPage: true });
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeVisible();

  const booked = page.getByRole('article').filter({ hasText: client });
  await expect(booked).toContainText(start);
  await expect(booked).toContainText(BARBER2_NAME);
});

test("the mobile flow's client search shows CPF and phone, and registers a client in place (issue 45)", async ({
  page,
  request,
}) => {
  const tag = runTag();
  const existing = `Cliente Documentos ${tag}`;
  const name = `Cliente Rápido ${tag}`;
  const phone = `1196${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const token = await apiToken(request, ADMIN.email);
  await createClient(request, token, existing);
  const { day } = await barbaDay(request, token, 4, 'Diego Barbeiro');

  await openCentroAgenda(page);
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  await page.getByRole('checkbox', { name: /Barba/ }).first().check();
  await pickDay(page.getByRole('group', { name: 'Data do agendamento' }), day);
  const time = page.locator('.time-button').first();
  const start = (await time.textContent())!.trim();
  await time.click();

  // Each client is one compact row: the name, then CPF · Telefone and the e-mail, inside 390 px.
  await page.getByRole('button', { name: 'Selecionar cliente' }).click();
  const search = page.getByRole('dialog', { name: 'Buscar cliente' });
  await search.getByLabel('Buscar cliente').fill(existing);
  const row = search.getByRole('row').filter({ hasText: existing });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/\d{3}\.\d{3}\.\d{3}-\d{2} · \(11\) 97\d{3}-\d{4}/);
  await expect(row).toContainText('@example.com');
  await expect(row.getByRole('radio', { name: `Selecionar ${existing}` })).toBeVisible();
  const box = (await row.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
  await page.screenshot({ path: 'test-results/agenda-mobile-client-search-390.png' });

  // A number nobody has: 'Novo cliente' starts from it.
  await search.getByLabel('Buscar cliente').fill(phone);
  await expect(search.getByText('Nenhum usuário encontrado')).toBeVisible();
  await search.getByRole('button', { name: 'Novo cliente' }).click();
  const form = search.getByRole('form', { name: 'Novo cliente' });
  await expect(form.getByLabel('Celular')).toHaveValue(`(11) ${phone.slice(2, 7)}-${phone.slice(7)}`);
  await expect(form.getByLabel('Nome completo')).toHaveValue('');
  await form.getByLabel('Nome completo').fill(name);
  await form.getByLabel('CPF (opcional)').fill(randomCpf());
  await expect(form.getByLabel('CPF (opcional)')).toHaveValue(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
  await page.screenshot({ path: 'test-results/agenda-mobile-quick-client-390.png', fullPage: true });
  await form.getByRole('button', { name: 'Cadastrar cliente' }).click();
  await expect(toast(page, 'Cliente cadastrado.')).toBeVisible();
  await expect(search).toBeHidden();
  await expect(page.getByRole('region', { name: 'Cliente' })).toContainText(name);

  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeVisible();
  const booked = page.getByRole('article').filter({ hasText: name });
  await expect(booked).toContainText(start);
});

test('the + button leaves the last card uncovered at 390 px (issue 14)', async ({ page, request }) => {
  const tag = runTag();
  const token = await apiToken(request, ADMIN.email);
  // Four bookings follow, each taking its start and the starts it overlaps: a day that
  // earlier tests left with fewer free starts would run out (seen in CI).
  const { idCompany, idService, day } = await barbaDay(request, token, 6, 'Diego Barbeiro', 12);
  // Enough cards to scroll: the list ends below the fold.
  for (let i = 0; i < 4; i += 1) {
    const idUser = await createClient(request, token, `Cliente Fim ${i} ${tag}`);
    await bookFirstFree(request, token, { idCompany, professional: 'Diego Barbeiro', date: day, idUser, idService });
  }

  await openCentroAgenda(page);
  await goToDay(page, day);
  await expect(page.getByRole('article').filter({ hasText: tag })).toHaveCount(4);

  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const last = page.getByRole('article').last();
  const fab = page.getByRole('button', { name: 'Novo agendamento' });
  const card = (await last.boundingBox())!;
  const plus = (await fab.boundingBox())!;
  expect(card.y + card.height).toBeLessThanOrEqual(plus.y);
  await page.screenshot({ path: 'test-results/agenda-mobile-end-390.png' });
});

test('the client list fits 390 px, long names and e-mails included (issue 14)', async ({ page, request }) => {
  const tag = runTag();
  const name = `Cliente Maximiliano Bartholomeu Albuquerque ${tag}Sobrenomecompridodemaisparaumalinha`;
  const token = await apiToken(request, ADMIN.email);
  await createClient(request, token, name);

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/client');
  await page.getByLabel('Busque pelo nome, telefone ou email').fill(tag);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const table = page.getByRole('table', { name: /Clientes/ });
  await expect(table.getByRole('row').filter({ hasText: tag })).toHaveCount(1);

  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
  const row = (await table.getByRole('row').filter({ hasText: tag }).boundingBox())!;
  expect(row.x).toBeGreaterThanOrEqual(0);
  expect(row.x + row.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/clients-list-long-390.png', fullPage: true });
});

test("one 'Sair' on the mobile agenda: the top bar's, which signs out (issue 14)", async ({ page }) => {
  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await expect(page.getByRole('heading', { name: 'Agendamentos' })).toBeVisible();
  const exits = page.getByRole('button', { name: 'Sair', exact: true });
  await expect(exits).toHaveCount(1);
  await expect(page.locator('.mobile-topbar').getByRole('button', { name: 'Sair', exact: true })).toBeVisible();

  // Other screens keep the menu's.
  await page.goto('/dashboard/client');
  await expect(page.getByRole('heading', { name: 'Clientes' })).toBeVisible();
  await expect(exits).toHaveCount(1);

  await page.goto('/dashboard/scheduling');
  await expect(page.getByRole('heading', { name: 'Agendamentos' })).toBeVisible();
  await expect(exits).toHaveCount(1);
  await page.screenshot({ path: 'test-results/agenda-mobile-one-exit-390.png' });
  await exits.click();
  await page.getByRole('dialog', { name: 'Atencão!' }).getByRole('button', { name: 'Sair', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});
