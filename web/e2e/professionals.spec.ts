import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { stamp } from './clock';
import {
  ADMIN,
  CENTRO,
  apiToken,
  companyId,
  createClient,
  dayLabel,
  pickDay,
  randomCpf,
  runTag,
  serviceId,
  signInAs,
  toast,
  daysAfter,
  workingDayAhead,
} from './support';
import {
  WEEK_DAYS,
  choose,
  createDayOff,
  createProfessional,
  dateBR,
  freeTimesOf,
  maskedCpf,
  showMonth,
  weekdayOf,
} from './professionals-support';

/** The notice of a pending professional (issue 45 point 7), as the form words it. */
const PENDING_NOTICE =
  'Este profissional ainda não aparece na agenda porque o Status está Pendente. Para que ele possa ser agendado, mude o Status para Ativo e salve. A senha de acesso ele cria pelo link enviado para o e-mail cadastrado.';

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/${name}.png`, fullPage: true });

/** Opens the agenda's appointment modal at the time step for a client, a service and a professional. */
async function agendaTimeStep(page: Page, client: string, service: string, professional: string) {
  await page.goto('/dashboard/scheduling');
  await expect(page.getByRole('heading', { name: 'Agenda', exact: true })).toBeVisible();
  await choose(page, 'Barbearia', new RegExp(CENTRO));
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  const modal = page.getByRole('dialog', { name: 'Novo agendamento' });
  await modal.getByLabel('Buscar cliente').fill(client);
  await modal.getByRole('radio', { name: `Selecionar ${client}` }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await modal.getByRole('checkbox', { name: new RegExp(service) }).check();
  await modal.getByRole('button', { name: 'Próximo' }).click();
  await choose(page, 'Profissional', professional, modal);
  return modal;
}

test('ADMIN registers a professional with hours, two services and a day off, and the agenda follows', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = runTag();
  const name = `Rafael Teste ${tag}`;
  const cpf = randomCpf();
  const email = `rafael.${tag}.${stamp()}@example.com`;
  const phone = `1198${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  const idService = await serviceId(request, token, idCompany, 'Corte de cabelo');
  const client = `Cliente Profissional ${tag}`;
  await createClient(request, token, client);
  // The professional works one weekday only, so their free days are that weekday's.
  const weekday = weekdayOf(workingDayAhead(3));

  await signInAs(page, ADMIN.email);
  await page.goto('/dashboard/professional');
  await expect(page.getByRole('heading', { name: 'Profissionais', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Profissionais' }).getByRole('row')).toHaveCount(6);
  await shot(page, 'professionals-list-1280');

  // --- Register: the form says what is missing, then saves and returns to the list.
  await page.getByRole('link', { name: 'Novo profissional' }).click();
  await expect(page).toHaveURL(/\/dashboard\/professional\/new$/);
  await expect(page.getByRole('heading', { name: 'Novo profissional' })).toBeVisible();
  await expect(page.getByRole('tab')).toHaveText(['Informações']);
  const info = page.getByRole('form', { name: 'Informações do profissional' });
  await expect(info.getByLabel('Status', { exact: true })).toHaveCount(0);
  await info.getByRole('button', { name: 'Salvar' }).click();
  for (const message of [
    'Digite o nome completo',
    'Digite o CPF',
    'Digite o e-mail',
    'Digite o número do celular',
    'Data de nascimento inválida',
    'Digite o CEP',
    'Escolha a empresa',
    'Informe uma cor',
    'Informe o perfil',
  ]) {
    await expect(info.getByText(message, { exact: true })).toBeVisible();
  }
  await info.getByLabel('Nome completo').fill(name);
  await info.getByLabel('CPF').fill(cpf);
  await expect(info.getByLabel('CPF')).toHaveValue(maskedCpf(cpf));
  await info.getByLabel('E-mail').fill(email);
  await info.getByLabel('Celular').fill(phone);
  await info.getByLabel('Data de nascimento').fill('1992-04-15');
  await info.getByRole('checkbox', { name: 'WhatsApp' }).check();
  // An unknown CEP (the postal-code twin knows only a few; 99999999 is not one of them) says
  // so on its field and keeps the address typed so far (issue 45 point 7).
  await info.getByLabel('Rua').fill('Rua Sem Cadastro');
  await info.getByLabel('CEP').fill('99999999');
  await expect(info.getByText('CEP não encontrado', { exact: true })).toBeVisible();
  await expect(info.getByLabel('Rua')).toHaveValue('Rua Sem Cadastro');
  // A known CEP fills the address and moves on to the number.
  await info.getByLabel('CEP').fill('01310100');
  await expect(info.getByLabel('Rua')).toHaveValue('Avenida Paulista');
  await expect(info.getByLabel('UF')).toHaveValue('SP');
  await expect(info.getByLabel('Número')).toBeFocused();
  await info.getByLabel('Número').fill('1000');
  await info.getByLabel('Empresa').selectOption({ label: CENTRO });
  await info.getByLabel('Perfil').selectOption({ label: 'Barbeiro 1' });
  await info.getByRole('radio', { name: 'Verde escuro' }).check();
  await expect(info.getByRole('alert')).toHaveCount(0);
  await shot(page, 'professional-info-1280');
  await info.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Profissional cadastrado com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/professional$/);

  // --- Found by CPF (Enter searches), pending at first.
  const search = page.getByLabel('Busque pelo nome, telefone, e-mail ou CPF');
  await search.fill(cpf);
  await search.press('Enter');
  const table = page.getByRole('table', { name: 'Profissionais' });
  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Pendente');
  await expect(row).toContainText(email);
  await expect(row.getByRole('link', { name: `WhatsApp de ${name}` })).toHaveAttribute('href', `https://wa.me/55${phone}`);
  await row.getByRole('link', { name: `Editar ${name}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/professional\/\d+$/);
  const idProfessional = Number(page.url().match(/(\d+)$/)![1]);
  await expect(page.getByRole('tab')).toHaveText(['Informações', 'Horário de trabalho', 'Serviços', 'Folga/Férias', 'Comissões', 'Histórico']);

  // --- Edit: the loaded form, made active.
  await expect(info.getByLabel('Nome completo')).toHaveValue(name);
  await expect(info.getByLabel('Celular')).toHaveValue(/^\(11\) 98/);
  await expect(info.getByLabel('Empresa')).toHaveValue(String(idCompany));
  await expect(info.getByLabel('Perfil')).toHaveValue('4');
  await expect(info.getByRole('radio', { name: 'Verde escuro' })).toBeChecked();
  await expect(info.getByLabel('Status', { exact: true })).toHaveValue('0');
  // Pending: the form says why they are not in the agenda and how to activate them.
  await expect(info.getByRole('note')).toHaveText(PENDING_NOTICE);
  await info.getByLabel('Status', { exact: true }).selectOption({ label: 'Ativo' });
  await info.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Informações atualizadas com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/professional$/);
  await search.fill(name);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(row).toContainText('Ativo');

  // Without hours and services the agenda does not offer them.
  const free = () => freeTimesOf(request, token, { idCompany, idService, idProfessional });
  expect((await free()).offered).toBe(false);

  // --- Hours: one weekday, 09:00 to 12:00.
  await row.click();
  // Active now: no pending notice.
  await expect(info.getByLabel('Status', { exact: true })).toHaveValue('1');
  await expect(info.getByRole('note')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Horário de trabalho' }).click();
  await page.getByRole('button', { name: `Editar ${WEEK_DAYS[weekday]}` }).click();
  const dayModal = page.getByRole('dialog', { name: new RegExp(WEEK_DAYS[weekday]) });
  await dayModal.getByLabel('Início').first().fill('09:00');
  await dayModal.getByLabel('Fim').first().fill('12:00');
  await dayModal.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Horário atualizado com sucesso.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: WEEK_DAYS[weekday] })).toContainText('09:00 - 12:00');

  // --- Two services.
  await page.getByRole('tab', { name: 'Serviços' }).click();
  for (const service of ['Corte de cabelo', 'Barba']) {
    await page.getByRole('button', { name: 'Novo Serviço' }).click();
    const modal = page.getByRole('dialog', { name: 'Novo Serviço' });
    await modal.getByLabel('Serviço').selectOption({ label: service });
    // The beard leaves 20 minutes to clean up after it (issue 45's 'Intervalo após').
    if (service === 'Barba') await modal.getByLabel('Intervalo após (minutos)').fill('20');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, 'Serviço cadastrado com sucesso.').first()).toBeVisible();
    await expect(modal).toBeHidden();
    await expect(page.getByRole('table', { name: 'Serviços' }).getByRole('row').filter({ hasText: service })).toBeVisible();
  }
  await expect(page.getByRole('table', { name: 'Serviços' }).getByRole('row').filter({ hasText: 'Barba' })).toContainText('20 min');

  // The agenda now offers them on that weekday only, from 09:00 until before 12:00.
  let day = '';
  await expect
    .poll(async () => {
      const { offered, days } = await free();
      day = [...days.keys()].find((d) => d >= workingDayAhead(3)) ?? '';
      return offered && !!day && days.get(day)![0];
    })
    .toBe('09:00');
  const { days } = await free();
  for (const [date, starts] of days) {
    expect(weekdayOf(date)).toBe(weekday);
    for (const start of starts) expect(start >= '09:00' && start < '12:00').toBe(true);
  }

  // ...and so does the appointment modal.
  let modal = await agendaTimeStep(page, client, 'Corte de cabelo', name);
  await pickDay(modal.getByRole('group', { name: 'Data do agendamento' }), day);
  const times = modal.locator('.time-button');
  await expect(times.first()).toHaveText('09:00');
  for (const text of await times.allTextContents()) expect(text.trim() < '12:00').toBe(true);
  await modal.getByRole('button', { name: 'Fechar' }).click();

  // --- Day off: a time window first.
  await page.goto(`/dashboard/professional/${idProfessional}`);
  await page.getByRole('tab', { name: 'Folga/Férias' }).click();
  const daysOff = page.getByRole('table', { name: 'Folgas e férias' });
  await expect(daysOff).toContainText('Nenhum registro encontrado');
  await page.getByRole('button', { name: 'Nova folga/férias' }).click();
  const dayOff = page.getByRole('dialog', { name: 'Nova folga/férias' });
  await dayOff.getByRole('radio', { name: 'Horário específico' }).check();
  await dayOff.getByRole('button', { name: 'Salvar' }).click();
  for (const message of [
    'Digite a descrição da folga/férias',
    'Digite a data de início',
    'Digite a data de fim',
    'Digite o horário inicial',
    'Digite o horário final',
  ]) {
    await expect(dayOff.getByText(message, { exact: true })).toBeVisible();
  }
  await dayOff.getByLabel('Descrição').fill('Consulta médica');
  await dayOff.getByLabel('Data de início').fill(day);
  await dayOff.getByLabel('Data de fim').fill(day);
  await dayOff.getByLabel('Horário inicial').fill('09:00');
  await dayOff.getByLabel('Horário final').fill('10:00');
  await dayOff.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Folga/férias cadastrada com sucesso.')).toBeVisible();
  const entry = daysOff.getByRole('row').filter({ hasText: 'Consulta médica' });
  await expect(entry).toContainText(dateBR(day));
  await expect(entry).toContainText('09:00 - 10:00');
  await expect.poll(async () => (await free()).days.get(day)?.[0]).toBe('10:00');

  // Then the whole day: the day leaves the agenda's calendar.
  await entry.getByRole('button', { name: 'Editar Consulta médica' }).click();
  const editDayOff = page.getByRole('dialog', { name: 'Editar folga/férias' });
  await expect(editDayOff.getByLabel('Horário inicial')).toHaveValue('09:00');
  await editDayOff.getByRole('radio', { name: 'Dia inteiro' }).check();
  await editDayOff.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Folga/férias atualizada com sucesso.')).toBeVisible();
  await expect(entry).toContainText('Dia inteiro');
  await expect.poll(async () => (await free()).days.has(day)).toBe(false);
  modal = await agendaTimeStep(page, client, 'Corte de cabelo', name);
  const calendar = modal.getByRole('group', { name: 'Data do agendamento' });
  await showMonth(calendar, day);
  await expect(calendar.getByRole('button', { name: dayLabel(day), exact: true })).toBeDisabled();
  await modal.getByRole('button', { name: 'Fechar' }).click();

  // --- Delete: the day comes back.
  await page.goto(`/dashboard/professional/${idProfessional}`);
  await page.getByRole('tab', { name: 'Folga/Férias' }).click();
  await entry.getByRole('button', { name: 'Excluir Consulta médica' }).click();
  const confirm = page.getByRole('dialog', { name: 'Atencão!' });
  await expect(confirm).toContainText('Deseja realmente excluir a folga/férias?');
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(toast(page, 'Folga/férias excluída com sucesso!')).toBeVisible();
  await expect(daysOff).toContainText('Nenhum registro encontrado');
  await expect.poll(async () => (await free()).days.get(day)?.[0]).toBe('09:00');

  // --- Inactive: the agenda stops offering them (and runs do not pile up barbers in it).
  await page.getByRole('tab', { name: 'Informações' }).click();
  await info.getByLabel('Status', { exact: true }).selectOption({ label: 'Inativo' });
  await info.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Informações atualizadas com sucesso!')).toBeVisible();
  await expect.poll(async () => (await free()).offered).toBe(false);
});

test("ADMIN copies a day's hours to the other days of a pending professional", async ({ page, request }) => {
  const tag = runTag();
  const name = `Bruno Copia ${tag}`;
  const token = await apiToken(request, ADMIN.email);
  const idCompany = await companyId(request, token, CENTRO);
  // Registered through the API: pending, without hours, so never offered by the agenda.
  const idProfessional = await createProfessional(request, token, {
    name,
    cpf: randomCpf(),
    email: `bruno.${tag}.${stamp()}@example.com`,
    idCompany,
  });

  await signInAs(page, ADMIN.email);
  await page.goto(`/dashboard/professional/${idProfessional}`);
  const info = page.getByRole('form', { name: 'Informações do profissional' });
  await expect(info.getByLabel('Nome completo')).toHaveValue(name);
  await expect(info.getByRole('note')).toHaveText(PENDING_NOTICE);

  // Monday typed in the day's dialog, then copied: Monday is saved, Tuesday to Saturday get
  // the same periods, Sunday keeps its own (none).
  await page.getByRole('tab', { name: 'Horário de trabalho' }).click();
  await page.getByRole('button', { name: 'Editar Segunda-feira' }).click();
  const dayModal = page.getByRole('dialog', { name: 'Horário de Segunda-feira' });
  await dayModal.getByLabel('Início').nth(0).fill('09:00');
  await dayModal.getByLabel('Fim').nth(0).fill('12:00');
  await dayModal.getByLabel('Início').nth(1).fill('13:00');
  await dayModal.getByLabel('Fim').nth(1).fill('18:00');
  await dayModal.getByRole('button', { name: 'Copiar para os outros dias' }).click();
  const confirm = page.getByRole('dialog', { name: 'Copiar horário' });
  await expect(confirm).toContainText('Copiar o horário de Segunda-feira para os outros dias de trabalho?');
  await shot(page, 'professional-hours-copy-1280');
  await confirm.getByRole('button', { name: 'Copiar' }).click();
  await expect(toast(page, 'Horário copiado para os outros dias.')).toBeVisible();
  await expect(dayModal).toBeHidden();

  const week = page.getByRole('table', { name: 'Horário de trabalho' });
  const dayRow = (day: string) => week.getByRole('row').filter({ hasText: day });
  // The week as the server keeps it: read again after a reload.
  await page.reload();
  await page.getByRole('tab', { name: 'Horário de trabalho' }).click();
  for (const day of WEEK_DAYS.slice(1)) {
    await expect(dayRow(day)).toContainText('09:00 - 12:00');
    await expect(dayRow(day)).toContainText('13:00 - 18:00');
  }
  await expect(dayRow('Domingo')).not.toContainText(':');
});

for (const width of [1280, 390]) {
  test(`the professionals screens at ${width} px`, async ({ page, request }) => {
    // A professional of this run with two days off, for the screenshots.
    const tag = runTag();
    const name = `Sofia Tela ${tag}`;
    const token = await apiToken(request, ADMIN.email);
    const idCompany = await companyId(request, token, CENTRO);
    const idProfessional = await createProfessional(request, token, {
      name,
      cpf: randomCpf(),
      email: `sofia.${tag}.${stamp()}@example.com`,
      idCompany,
    });
    await createDayOff(request, token, {
      idProfessional,
      description: 'Férias de verão',
      dateStart: workingDayAhead(40),
      dateEnd: workingDayAhead(54),
      allDay: true,
    });
    await createDayOff(request, token, {
      idProfessional,
      description: 'Consulta médica',
      dateStart: workingDayAhead(20),
      dateEnd: workingDayAhead(20),
      allDay: false,
      startTime: '14:00',
      endTime: '16:30',
    });

    await page.setViewportSize({ width, height: width > 700 ? 800 : 844 });
    await signInAs(page, ADMIN.email);
    await page.goto('/dashboard/professional');
    const table = page.getByRole('table', { name: 'Profissionais' });
    await expect(table).toContainText('Ana Administradora');
    if (width < 1280) await shot(page, `professionals-list-${width}`);

    // A search without matches, then 'Limpar'.
    const search = page.getByLabel('Busque pelo nome, telefone, e-mail ou CPF');
    await search.fill(`ninguém ${runTag()}`);
    await search.press('Enter');
    await expect(table).toContainText('Nenhum registro encontrado');
    await page.getByRole('button', { name: 'Limpar' }).click();
    await expect(search).toHaveValue('');
    await expect(table).toContainText('Ana Administradora');

    await search.fill(name);
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    await table.getByRole('row').filter({ hasText: name }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/professional/${idProfessional}$`));
    const info = page.getByRole('form', { name: 'Informações do profissional' });
    await expect(info.getByLabel('Nome completo')).toHaveValue(name);
    await expect(info.getByLabel('Perfil')).toHaveValue('5');
    await expect(info.getByLabel('Empresa')).toHaveValue(String(idCompany));
    if (width < 1280) await shot(page, `professional-info-${width}`);

    await page.getByRole('tab', { name: 'Folga/Férias' }).click();
    const daysOff = page.getByRole('table', { name: 'Folgas e férias' });
    // Newest first.
    await expect(daysOff.getByRole('row').filter({ hasText: /Férias|Consulta/ })).toHaveText([/Férias de verão/, /Consulta médica.*14:00 - 16:30/]);
    await expect(daysOff).toContainText('Dia inteiro');
    await shot(page, `professional-dayoff-${width}`);
    await page.getByRole('button', { name: 'Nova folga/férias' }).click();
    const modal = page.getByRole('dialog', { name: 'Nova folga/férias' });
    await modal.getByRole('radio', { name: 'Horário específico' }).check();
    await modal.getByLabel('Descrição').fill('ab');
    // The end the day before the start, by construction (two workingDayAhead calls can
    // land on the same day across a Sunday and Monday).
    const start = workingDayAhead(10);
    await modal.getByLabel('Data de início').fill(start);
    await modal.getByLabel('Data de fim').fill(daysAfter(start, -1));
    await modal.getByLabel('Horário inicial').fill('10:00');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await expect(modal.getByText('Digite uma descrição válida')).toBeVisible();
    await expect(modal.getByText('Data deve ser maior ou igual à data inicio')).toBeVisible();
    await expect(modal.getByText('Digite o horário final')).toBeVisible();
    await shot(page, `professional-dayoff-modal-${width}`);
    await modal.getByRole('button', { name: 'Cancelar' }).click();
    await expect(modal).toBeHidden();
  });
}
