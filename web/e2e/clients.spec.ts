import { expect, test } from './fixtures';
import { ADMIN, CENTRO, apiToken, randomCpf, runTag, signInAs, toast } from './support';
import { fieldError, screenshots } from './backoffice-a-support';

const phoneDigits = () => `1198${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

test('creates and edits a client, then finds it at once in the agenda client search', async ({ page }) => {
  const tag = runTag();
  const name = `Cliente Cadastro ${tag}`;
  const edited = `Cliente Editado ${tag}`;
  const email = `cliente.${tag}@example.com`;

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/client');
  await expect(page.getByRole('heading', { name: 'Clientes', exact: true })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('1');
  await expect(page.getByRole('table', { name: 'Clientes' }).getByRole('row')).not.toHaveCount(1);

  // Register: the spec's messages first, then a valid client.
  await page.getByRole('link', { name: 'Novo cliente' }).click();
  await expect(page).toHaveURL(/\/dashboard\/client\/new$/);
  await expect(page.getByRole('heading', { name: 'Novo cliente' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Dados do cliente' });
  await form.getByRole('button', { name: 'Salvar' }).click();
  for (const message of ['Digite o nome completo', 'Digite o CPF', 'Digite o e-mail', 'Digite o número do celular']) {
    await expect(fieldError(form, message)).toBeVisible();
  }
  await form.getByLabel('Nome completo').fill('Ana');
  await form.getByLabel('CPF').fill('01234567890');
  await form.getByLabel('E-mail').fill('ana@');
  await form.getByLabel('Celular').fill('11812345678');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(fieldError(form, 'Digite o nome completo')).toBeVisible();
  await expect(fieldError(form, 'CPF inválido')).toBeVisible();
  await expect(fieldError(form, 'E-mail inválido')).toBeVisible();
  await expect(fieldError(form, 'Informe um número válido')).toBeVisible();

  const cpf = randomCpf();
  await form.getByLabel('Nome completo').fill(name);
  await form.getByLabel('CPF').fill(cpf);
  await expect(form.getByLabel('CPF')).toHaveValue(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Celular').fill(phoneDigits());
  await expect(form.getByLabel('Celular')).toHaveValue(/^\(11\) 98\d{3}-\d{4}$/);
  await form.getByLabel('Data de nascimento').fill('1991-04-12');
  await expect(form.getByLabel('WhatsApp')).toBeChecked();
  await expect(form.getByLabel('Status')).toHaveValue('true');
  await screenshots(page, 'client-form-new', async () => {
    await expect(form.getByLabel('Nome completo')).toHaveValue(name);
  });
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Cliente cadastrado com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/client$/);

  // Found at once in the list (read-your-writes), opened by a row click.
  await page.getByLabel('Busque pelo nome, telefone ou email').fill(tag);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const table = page.getByRole('table', { name: 'Clientes' });
  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(email);
  await expect(row).toContainText('Ativo');
  await expect(row.getByRole('link', { name: `WhatsApp de ${name}` })).toHaveAttribute('href', /^https:\/\/wa\.me\/5511/);
  await expect(row.getByRole('link', { name: `Assinatura de ${name}` })).toHaveCount(0);
  await row.getByRole('cell', { name, exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/client\/\d+$/);

  // Edit: the CPF is fixed, last access and login type read-only, no social-login button.
  await expect(form.getByLabel('Nome completo')).toHaveValue(name);
  await expect(form.getByLabel('CPF')).toBeDisabled();
  await expect(form.getByLabel('Tipo de login')).toHaveValue('E-mail e senha');
  await expect(form.getByLabel('Último acesso ao app')).toHaveJSProperty('readOnly', true);
  await expect(form.getByRole('button', { name: 'Remover login social' })).toHaveCount(0);
  await form.getByLabel('Data de nascimento').fill('2999-01-01');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(fieldError(form, 'Digite uma data válida')).toBeVisible();
  await form.getByLabel('Data de nascimento').fill('1991-04-12');
  await form.getByLabel('Nome completo').fill(edited);
  await form.getByLabel('WhatsApp').uncheck();
  await screenshots(page, 'client-form', async () => {
    await expect(form.getByLabel('Nome completo')).toHaveValue(edited);
  });
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Informações atualizadas com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/client$/);

  // The same CPF again: the refusal shows on the CPF field, and what was typed stays.
  await page.goto('/dashboard/client/new');
  await form.getByLabel('Nome completo').fill(`Cliente Repetido ${tag}`);
  await form.getByLabel('CPF').fill(cpf);
  await form.getByLabel('E-mail').fill(`repetido.${tag}@example.com`);
  await form.getByLabel('Celular').fill(phoneDigits());
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(fieldError(form, 'Já existe um cliente cadastrado com este CPF.')).toBeVisible();
  await expect(form.getByLabel('Nome completo')).toHaveValue(`Cliente Repetido ${tag}`);
  await page.goto('/dashboard/client');
  await page.getByLabel('Busque pelo nome, telefone ou email').fill(tag);
  await page.getByLabel('Busque pelo nome, telefone ou email').press('Enter');
  await expect(table.getByRole('row').filter({ hasText: edited })).toBeVisible();
  await screenshots(page, 'client-list', async () => {
    await expect(table.getByRole('row').filter({ hasText: edited }).first()).toBeVisible();
  });

  // The agenda's client search finds the edited client at once.
  await page.goto('/dashboard/scheduling');
  await expect(page.getByRole('heading', { name: 'Agenda', exact: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Barbearia', exact: true }).click();
  await page.getByRole('option', { name: new RegExp(CENTRO) }).first().click();
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  await modal.getByLabel('Buscar cliente').fill(edited);
  await expect(modal.getByRole('radio', { name: `Selecionar ${edited}` })).toBeVisible();
});

test("a client added at the desk is completed later in the client form, the CPF recorded once (issue 45)", async ({
  page,
  request,
}) => {
  const tag = runTag();
  const name = `Cliente Balcão ${tag}`;
  const email = `balcao.${tag}@example.com`;
  const cpf = randomCpf();
  // Another client's CPF, refused on the field wherever it is given.
  const taken = randomCpf();
  const token = await apiToken(request, ADMIN.email);
  const owner = await request.post('/api/user/professional', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: `Cliente Dono ${tag}`, cpf: taken, email: `dono.${tag}@example.com`, phone: phoneDigits(), whatsApp: true, birthDate: null, status: true },
  });
  expect(owner.status(), await owner.text()).toBe(201);

  // At the desk: a name and a mobile; a CPF of another client lands on the field.
  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/scheduling');
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  await modal.getByLabel('Buscar cliente').fill(name);
  await modal.getByRole('button', { name: 'Novo cliente' }).click();
  const quick = modal.getByRole('form', { name: 'Novo cliente' });
  await expect(quick.getByLabel('Nome completo')).toHaveValue(name);
  await quick.getByLabel('Celular').fill(phoneDigits());
  await quick.getByLabel('CPF (opcional)').fill(taken);
  await quick.getByRole('button', { name: 'Cadastrar cliente' }).click();
  await expect(fieldError(quick, 'Já existe um cliente cadastrado com este CPF.')).toBeVisible();
  await expect(quick.getByLabel('Nome completo')).toHaveValue(name);
  await quick.getByLabel('CPF (opcional)').fill('');
  await quick.getByRole('button', { name: 'Cadastrar cliente' }).click();
  await expect(toast(page, 'Cliente cadastrado.')).toBeVisible();
  await expect(modal.getByRole('radio', { name: `Selecionar ${name}` })).toBeChecked();
  await modal.getByRole('button', { name: 'Fechar' }).click();

  // The client form says what is missing and takes the CPF, optional, for this record.
  await page.goto('/dashboard/client');
  await page.getByLabel('Busque pelo nome, telefone ou email').fill(tag);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const table = page.getByRole('table', { name: 'Clientes' });
  await table.getByRole('row').filter({ hasText: name }).getByRole('cell', { name, exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/client\/\d+$/);
  const form = page.getByRole('form', { name: 'Dados do cliente' });
  await expect(form.getByLabel('Nome completo')).toHaveValue(name);
  const notice = page.getByText('Cadastro incompleto: informe e-mail e CPF quando o cliente puder.');
  await expect(notice).toBeVisible();
  await expect(form.getByLabel('CPF')).toBeEnabled();
  await expect(form.getByLabel('CPF')).toHaveValue('');
  await expect(form.getByLabel('E-mail')).toHaveValue('');
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('CPF').fill(taken);
  await screenshots(page, 'client-form-incomplete', async () => {
    await expect(notice).toBeVisible();
  });
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(fieldError(form, 'Já existe um cliente cadastrado com este CPF.')).toBeVisible();
  await form.getByLabel('CPF').fill(cpf);
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Informações atualizadas com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/client$/);

  // Complete now: the CPF is fixed, as for any client, and nothing is missing.
  await page.getByLabel('Busque pelo nome, telefone ou email').fill(tag);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(email);
  await row.getByRole('cell', { name, exact: true }).click();
  await expect(form.getByLabel('CPF')).toBeDisabled();
  await expect(form.getByLabel('CPF')).toHaveValue(`${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`);
  await expect(form.getByLabel('E-mail')).toHaveValue(email);
  await expect(notice).toHaveCount(0);
});

test('a client with a social login: the removal asks first', async ({ page }) => {
  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/client');
  await page.getByLabel('Busque pelo nome, telefone ou email').fill('Maria Aparecida Souza');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await page.getByRole('link', { name: 'Editar Maria Aparecida Souza' }).click();
  const form = page.getByRole('form', { name: 'Dados do cliente' });
  await expect(form.getByLabel('Nome completo')).toHaveValue('Maria Aparecida Souza');
  const remove = form.getByRole('button', { name: 'Remover login social' });
  // Another run may have removed it already: then the login type is e-mail and password.
  if ((await form.getByLabel('Tipo de login').inputValue()) === 'E-mail e senha') {
    await expect(remove).toHaveCount(0);
    return;
  }
  await expect(form.getByLabel('Tipo de login')).toHaveValue('Google');
  await remove.click();
  const dialog = page.getByRole('dialog', { name: 'Atencão!' });
  await expect(dialog).toContainText('Deseja realmente remover todos os logins com redes sociais?');
  await expect(dialog).toContainText('e-mail e senha');
  await expect(dialog.getByRole('button', { name: 'Remover' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await expect(dialog).toBeHidden();
  await expect(remove).toBeVisible();
});
