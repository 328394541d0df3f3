import { expect, test } from './fixtures';
import { ADMIN, CENTRO, runTag, signInAs, toast } from './support';
import { dateBR, farDay, fieldError, screenshots } from './backoffice-a-support';

test('a holiday is created, edited and deleted', async ({ page }) => {
  const tag = runTag();
  const name = `Feriado Teste ${tag}`;
  const edited = `Feriado Alterado ${tag}`;
  const day = farDay();

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/holiday');
  await expect(page.getByRole('heading', { name: 'Feriados', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Novo feriado' }).click();
  await expect(page).toHaveURL(/\/dashboard\/holiday\/new$/);
  const form = page.getByRole('form', { name: 'Dados do feriado' });

  // The spec's messages.
  await form.getByRole('radio', { name: 'Horário específico' }).check();
  await form.getByRole('button', { name: 'Salvar' }).click();
  for (const message of [
    'Digite a descrição do feriado',
    'Digite o início',
    'Digite o fim',
    'Informe pelo menos uma empresa',
    'Digite o horário inicial',
    'Digite o horário final',
  ]) {
    await expect(fieldError(form, message)).toBeVisible();
  }
  await form.getByLabel('Descrição').fill('Ab');
  await form.getByLabel('Início').fill(day);
  await form.getByLabel('Fim').fill('2035-01-01' < day ? '2035-01-01' : '2034-12-31');
  await form.getByLabel('Horário inicial').fill('10:00');
  await form.getByLabel('Horário final').fill('09:00');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(fieldError(form, 'Digite uma descrição válida')).toBeVisible();
  await expect(fieldError(form, 'Data deve ser maior ou igual à data inicio')).toBeVisible();
  await form.getByLabel('Fim').fill(day);
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(fieldError(form, 'Horário deve ser maior que horário início')).toBeVisible();

  // A valid holiday: one unit, chosen through the searchable multi-select.
  await form.getByLabel('Descrição').fill(name);
  await form.getByLabel('Horário final').fill('14:00');
  const units = form.getByRole('combobox', { name: 'Empresas' });
  await units.fill('centro');
  await page.getByRole('option', { name: new RegExp(CENTRO) }).click();
  await units.press('Escape');
  await expect(form.getByRole('list', { name: 'Empresas escolhidas' })).toContainText(CENTRO);
  await expect(fieldError(form, 'Informe pelo menos uma empresa')).toHaveCount(0);
  await screenshots(page, 'holiday-form-new', async () => {
    await expect(form.getByLabel('Descrição')).toHaveValue(name);
  });
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Feriado cadastrado com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/holiday$/);

  // Listed at once; the row opens the form.
  const search = page.getByLabel('Busque pela descrição');
  const table = page.getByRole('table', { name: 'Feriados' });
  await search.fill(tag);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(`${dateBR(day)} 10:00`);
  await expect(row).toContainText(`${dateBR(day)} 14:00`);
  await row.getByRole('cell', { name, exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/holiday\/\d+$/);

  // Edit: every unit, all day.
  await expect(form.getByLabel('Descrição')).toHaveValue(name);
  await expect(form.getByLabel('Horário inicial')).toHaveValue('10:00');
  await form.getByLabel('Descrição').fill(edited);
  await form.getByLabel('Todas as empresas').check();
  await expect(form.getByRole('combobox', { name: 'Empresas' })).toHaveCount(0);
  await form.getByRole('radio', { name: 'Dia inteiro' }).check();
  await expect(form.getByLabel('Horário inicial')).toHaveCount(0);
  await screenshots(page, 'holiday-form', async () => {
    await expect(form.getByLabel('Descrição')).toHaveValue(edited);
  });
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'atualizado com sucesso.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/holiday$/);
  await search.fill(tag);
  await search.press('Enter');
  const editedRow = table.getByRole('row').filter({ hasText: edited });
  await expect(editedRow).toContainText(dateBR(day));
  await expect(editedRow).not.toContainText('10:00');
  await screenshots(page, 'holiday-list', async () => {
    await expect(editedRow).toBeVisible();
  });

  // Delete, after the confirmation.
  await editedRow.getByRole('cell', { name: edited, exact: true }).click();
  await expect(form.getByLabel('Todas as empresas')).toBeChecked();
  await expect(form.getByRole('radio', { name: 'Dia inteiro' })).toBeChecked();
  await form.getByRole('button', { name: 'Excluir' }).click();
  const dialog = page.getByRole('dialog', { name: 'Atencão!' });
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await expect(dialog).toBeHidden();
  await form.getByRole('button', { name: 'Excluir' }).click();
  await dialog.getByRole('button', { name: 'Excluir' }).click();
  await expect(toast(page, 'Feriado excluído com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/holiday$/);
  await search.fill(tag);
  await search.press('Enter');
  await expect(table).toContainText('Nenhum registro encontrado');
});

test('a BARBER_LEADE reads holidays but cannot change them', async ({ page, request }) => {
  const tag = runTag();
  const name = `Feriado Leitura ${tag}`;
  const day = farDay();
  const login = await request.post('/api/session-professional/login', { data: { email: ADMIN.email, password: 'Navalha@2026' } });
  const token = ((await login.json()) as { Token: string }).Token;
  const created = await request.post('/api/holiday', {
    headers: { Authorization: `Bearer ${token}` },
    data: { description: name, startDate: day, endDate: day, allDay: true, startTime: null, endTime: null, allCompanies: true, idsCompanies: [] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { IdHoliday: number }).IdHoliday;

  try {
    await signInAs(page, 'lider@navalha.dev');
    await page.goto('/dashboard/holiday');
    await expect(page.getByRole('heading', { name: 'Feriados', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Novo feriado' })).toHaveCount(0);
    await page.getByLabel('Busque pela descrição').fill(tag);
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    await page.getByRole('cell', { name, exact: true }).click();
    const form = page.getByRole('form', { name: 'Dados do feriado' });
    await expect(form.getByLabel('Descrição')).toHaveValue(name);
    await expect(form.getByLabel('Descrição')).toBeDisabled();
    await expect(form.getByRole('button', { name: 'Salvar' })).toHaveCount(0);
    await expect(form.getByRole('button', { name: 'Excluir' })).toHaveCount(0);
  } finally {
    await request.delete(`/api/holiday/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  }
});
