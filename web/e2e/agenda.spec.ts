import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  BARBER1,
  BARBER2_NAME,
  CENTRO,
  apiToken,
  bookFirstFree,
  companyId,
  createClient,
  dayLabel,
  freeDay,
  goToDay,
  pickDay,
  runTag,
  serviceId,
  signInAs,
  toast,
  workingDayAhead,
} from './support';
import { fieldError } from './backoffice-a-support';

/** Chooses an option of a searchable dropdown. */
async function choose(page: Page, label: string, option: string | RegExp, scope = page.locator('body')) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** A new client and a day, from `ahead` working days on, when Diego has a free 'Corte de cabelo'. */
async function clientAndFreeDay(request: APIRequestContext, prefix: string, ahead: number) {
  const client = `${prefix} ${runTag()}`;
  const token = await apiToken(request, ADMIN.email);
  await createClient(request, token, client);
  const idCompany = await companyId(request, token, CENTRO);
  const day = await freeDay(request, token, {
    idCompany,
    idService: await serviceId(request, token, idCompany, 'Corte de cabelo'),
    fromDate: workingDayAhead(ahead),
    professionals: ['Diego Barbeiro'],
  });
  return { client, day };
}

const card = (page: Page, client: string) => page.getByRole('article').filter({ hasText: client });

test('a booking made from a day of the agenda lands on that day, and the toast says when (issue 14)', async ({
  page,
  request,
}) => {
  // A day with free times that is not the first one: the wizard used to start on the first.
  const { client, day } = await clientAndFreeDay(request, 'Cliente Dia', 4);

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await choose(page, 'Barbearia', new RegExp(CENTRO));
  await goToDay(page, day);
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  await modal.getByLabel('Buscar cliente').fill(client);
  await modal.getByRole('radio', { name: `Selecionar ${client}` }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await modal.getByRole('checkbox', { name: /Corte de cabelo/ }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await choose(page, 'Profissional', 'Diego Barbeiro', modal);

  // The time step starts on the agenda's day.
  const calendar = modal.getByRole('group', { name: 'Data do agendamento' });
  await expect(calendar.getByRole('button', { name: dayLabel(day), exact: true })).toHaveAttribute('aria-pressed', 'true');
  const firstTime = modal.locator('.time-button').first();
  const start = (await firstTime.textContent())!.trim();
  await firstTime.click();
  await modal.getByRole('button', { name: 'Confirmar' }).click();
  const [y, m, d] = day.split('-');
  await expect(toast(page, `Agendamento realizado com sucesso! ${d}/${m}/${y} às ${start}.`)).toBeVisible();
  await expect(card(page, client)).toContainText(start);
});

test("the wizard's 'Novo cliente' registers a client in place, who is chosen and booked (issue 45)", async ({
  page,
  request,
}) => {
  const name = `Cliente Balcão ${runTag()}`;
  const phone = `1197${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const day = await freeDay(request, token, {
    idCompany,
    idService: await serviceId(request, token, idCompany, 'Corte de cabelo'),
    fromDate: workingDayAhead(3),
    professionals: ['Diego Barbeiro'],
  });

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await choose(page, 'Barbearia', new RegExp(CENTRO));
  await goToDay(page, day);
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  await modal.getByLabel('Buscar cliente').fill(name);
  await expect(modal.getByText('Nenhum usuário encontrado')).toBeVisible();

  // In place, not in a new tab: the searched name is filled in, the number is WhatsApp.
  await modal.getByRole('button', { name: 'Novo cliente' }).click();
  const form = modal.getByRole('form', { name: 'Novo cliente' });
  await expect(form.getByLabel('Nome completo')).toHaveValue(name);
  await expect(form.getByLabel('Celular')).toHaveValue('');
  await expect(form.getByLabel('CPF (opcional)')).toHaveValue('');
  await expect(form.getByLabel('Este número é WhatsApp')).toBeChecked();
  await form.getByRole('button', { name: 'Cadastrar cliente' }).click();
  await expect(fieldError(form, 'Digite o número do celular')).toBeVisible();
  await form.getByLabel('Celular').fill('11812345678');
  await form.getByLabel('CPF (opcional)').fill('52998224724');
  await form.getByRole('button', { name: 'Cadastrar cliente' }).click();
  await expect(fieldError(form, 'Informe um número válido')).toBeVisible();
  await expect(fieldError(form, 'CPF inválido')).toBeVisible();
  await form.getByLabel('Celular').fill(phone);
  await expect(form.getByLabel('Celular')).toHaveValue(/^\(11\) 97\d{3}-\d{4}$/);
  await form.getByLabel('CPF (opcional)').fill('');
  await page.screenshot({ path: 'test-results/agenda-quick-client-1280.png' });
  await form.getByRole('button', { name: 'Cadastrar cliente' }).click();

  // Chosen at once, as if picked in the search, which lists them.
  await expect(toast(page, 'Cliente cadastrado.')).toBeVisible();
  await expect(form).toBeHidden();
  await expect(modal.getByRole('radio', { name: `Selecionar ${name}` })).toBeChecked();
  await expect(modal.locator('.wizard-chosen')).toContainText(name);
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await modal.getByRole('checkbox', { name: /Corte de cabelo/ }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await choose(page, 'Profissional', 'Diego Barbeiro', modal);
  await pickDay(modal.getByRole('group', { name: 'Data do agendamento' }), day);
  const firstTime = modal.locator('.time-button').first();
  const start = (await firstTime.textContent())!.trim();
  await firstTime.click();
  await modal.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(card(page, name)).toContainText(start);
  await expect(card(page, name)).toContainText(`(11) ${phone.slice(2, 7)}-${phone.slice(7)}`);
});

test('books, edits, confirms and cancels an appointment through the modal, seen in both views', async ({
  page,
  request,
}) => {
  const { client, day } = await clientAndFreeDay(request, 'Cliente Agenda', 2);

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await expect(page.getByRole('heading', { name: 'Agenda', exact: true })).toBeVisible();
  await choose(page, 'Barbearia', new RegExp(CENTRO));
  await expect(page.getByRole('combobox', { name: 'Barbearia' })).toHaveValue(CENTRO);

  // CLIENT: 'Próximo' waits for a client, and says so.
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  const next = modal.getByRole('button', { name: 'Próximo' });
  await expect(next).toBeDisabled();
  await next.locator('..').hover();
  await expect(modal.getByRole('tooltip')).toHaveText('Escolha o cliente');
  await modal.getByLabel('Buscar cliente').fill(client);
  await modal.getByRole('radio', { name: `Selecionar ${client}` }).check();
  await expect(modal.getByText(/Mostrando 1 à 1 de 1 resultados/)).toBeVisible();
  await next.click();

  // SERVICE: price, minutes, running total and notes.
  await expect(next).toBeDisabled();
  await next.locator('..').hover();
  await expect(modal.getByRole('tooltip')).toHaveText('Escolha pelo menos um serviço');
  await modal.getByRole('checkbox', { name: /Corte de cabelo/ }).check();
  await expect(modal.getByText(/Total: R\$\s?\d+,\d{2} · \d+ min/)).toBeVisible();
  await modal.getByLabel('Observações').fill('Primeira visita');
  await expect(next).toBeEnabled();
  await next.click();

  // TIME: professional, calendar limited to free days, times by period.
  await expect(modal.getByRole('radio', { name: 'Somente disponíveis' })).toBeChecked();
  await choose(page, 'Profissional', 'Diego Barbeiro', modal);
  const confirm = modal.getByRole('button', { name: 'Confirmar' });
  await pickDay(modal.getByRole('group', { name: 'Data do agendamento' }), day);
  await expect(confirm).toBeDisabled();
  const firstTime = modal.locator('.time-button').first();
  const start = (await firstTime.textContent())!.trim();
  await firstTime.click();
  await expect(confirm).toBeEnabled();
  await page.screenshot({ path: 'test-results/agenda-modal-time-1280.png' });
  await confirm.click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeVisible();
  await expect(modal).toBeHidden();

  // The agenda moved to that day and shows it at once, in the list...
  await expect(page.getByRole('button', { name: /^Dia exibido:/ })).toHaveAttribute('aria-label', new RegExp(dayLabel(day)));
  const booked = card(page, client);
  await expect(booked).toContainText(start);
  await expect(booked).toContainText('Primeira visita');
  await expect(booked).toContainText('Corte de cabelo');
  // Out of the way of the screenshot.
  await toast(page, 'Agendamento realizado com sucesso!').click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeHidden();
  await page.screenshot({ path: 'test-results/agenda-list-1280.png' });

  // ...and in the timeline, in Diego's column.
  await page.getByRole('button', { name: 'Linha do tempo' }).click();
  const diego = page.getByRole('list', { name: 'Agenda de Diego Barbeiro' });
  await expect(diego.getByRole('listitem', { name: new RegExp(client) })).toBeVisible();
  await page.screenshot({ path: 'test-results/agenda-timeline-1280.png', fullPage: true });
  await page.getByRole('button', { name: 'Lista', exact: true }).click();

  // Edit: starts at the services, prefilled; add a service and take another time.
  const id = (await booked.getAttribute('aria-label'))!.match(/N\.º (\d+)/)![1];
  await booked.getByRole('button', { name: `Opções do agendamento N.º ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar agendamento' });
  await expect(edit.getByRole('checkbox', { name: /Corte de cabelo/ })).toBeChecked();
  await expect(edit.getByLabel('Observações')).toHaveValue('Primeira visita');
  await edit.getByRole('checkbox', { name: /Sobrancelha/ }).check();
  await edit.getByRole('button', { name: 'Próximo' }).click();
  await expect(edit.getByRole('combobox', { name: 'Profissional' })).toHaveValue('Diego Barbeiro');
  await pickDay(edit.getByRole('group', { name: 'Data do agendamento' }), day);
  const times = edit.locator('.time-button');
  const other = (await times.count()) > 1 ? times.nth(1) : times.first();
  const newStart = (await other.textContent())!.trim();
  await other.click();
  await edit.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, 'Agendamento realizado com sucesso!')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(booked).toContainText(newStart);
  await expect(booked).toContainText('Corte de cabelo, Sobrancelha');

  // Confirm.
  await booked.getByRole('button', { name: `Opções do agendamento N.º ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Confirmar' }).click();
  await expect(booked.getByText('Confirmado pelo cliente')).toBeVisible();

  // Cancel, through the delete confirmation.
  await booked.getByRole('button', { name: `Opções do agendamento N.º ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Cancelar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Atencão!' });
  await expect(dialog).toContainText('Deseja realmente excluir o agendamento?');
  await expect(dialog).toContainText(`N.º ${id} - ${client} - ${newStart}`);
  await dialog.getByRole('button', { name: 'Excluir' }).click();
  await expect(toast(page, `Agendamento N.º ${id} excluído com sucesso!`)).toBeVisible();
  await expect(booked.getByText('Cancelado')).toBeVisible();

  // The status filter leaves it out of the confirmed ones.
  await choose(page, 'Status', 'Confirmado');
  await expect(card(page, client)).toHaveCount(0);
});

test('a BARBER1 sees only their own agenda', async ({ page, request }) => {
  const tag = runTag();
  const own = `Cliente Diego ${tag}`;
  const colleague = `Cliente Eduardo ${tag}`;
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Barba');
  const day = await freeDay(request, token, {
    idCompany,
    idService,
    fromDate: workingDayAhead(3),
    professionals: [BARBER1.name, BARBER2_NAME],
  });
  for (const [name, professional] of [
    [own, BARBER1.name],
    [colleague, BARBER2_NAME],
  ]) {
    const idUser = await createClient(request, token, name);
    await bookFirstFree(request, token, { idCompany, professional, date: day, idUser, idService });
  }

  // A barber's menu starts at the agenda.
  await signInAs(page, BARBER1.email, BARBER1.password, /\/dashboard\/scheduling$/);
  await expect(page.getByRole('combobox', { name: 'Profissional' })).toHaveValue(BARBER1.name);
  await expect(page.getByRole('combobox', { name: 'Profissional' })).toBeDisabled();
  await expect(page.getByRole('combobox', { name: 'Barbearia' })).toBeDisabled();
  await goToDay(page, day);
  await expect(card(page, own)).toBeVisible();
  await expect(card(page, colleague)).toHaveCount(0);
  for (const item of await page.getByRole('article').all()) {
    await expect(item).toContainText(BARBER1.name);
  }

  await page.getByRole('button', { name: 'Linha do tempo' }).click();
  await expect(page.getByRole('list', { name: `Agenda de ${BARBER1.name}` })).toBeVisible();
  await expect(page.getByRole('list', { name: `Agenda de ${BARBER2_NAME}` })).toHaveCount(0);
});
