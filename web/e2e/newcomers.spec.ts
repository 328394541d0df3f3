import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { openAgenda, signInAs, toast } from './support';
import { bookOnce, newClient, newPage, screenshotsAt, setup } from './online-support';

// Issue 39: a record made on the public page is a newcomer's until the front desk confirms
// it, and the front desk cancels a flood of online bookings from one of them in one action.

const ATTENDANT = 'atendente@navalha.dev';

/** Whether the outbox holds the cancellation e-mail to `to`. */
async function toldOfCancellation(to: string): Promise<boolean> {
  const dir = process.env.NAVALHA_OUTBOX_DIR ?? '';
  for (const name of (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'))) {
    const mail = JSON.parse(await readFile(join(dir, name), 'utf8')) as { to: string; text: string };
    if (mail.to === to && mail.text.includes('foi cancelado pela barbearia')) return true;
  }
  return false;
}

test('the front desk cancels a newcomer’s online bookings from the agenda, and confirms the record in the client form', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { idCompany, day } = await setup(request, 8);
  const client = newClient('Novo');
  const clientPage = await newPage(browser, 390);
  await bookOnce(clientPage, idCompany, day, client);
  await expect(clientPage.getByRole('region', { name: 'Agendamento confirmado!' })).toBeVisible();
  await clientPage.context().close();

  // The agenda: the card's menu offers the sweep of its origin.
  const staff = await newPage(browser);
  await openAgenda(staff, ATTENDANT, day);
  const sweepDialog = async () => {
    const card = staff.getByRole('article').filter({ hasText: client.name });
    await expect(card.getByRole('img', { name: 'Agendado online' })).toBeVisible();
    await card.getByRole('button', { name: /^Opções do agendamento/ }).click();
    await staff.getByRole('menuitem', { name: 'Cancelar online desta origem' }).click();
    return staff.getByRole('dialog', { name: 'Cancelar agendamentos online' });
  };
  let dialog = await sweepDialog();
  await expect(dialog).toContainText('feitos com o mesmo e-mail deste cliente');
  await dialog.getByRole('button', { name: 'Mesmo celular' }).click();
  await expect(dialog).toContainText('feitos com o mesmo celular deste cliente');
  await screenshotsAt(staff, dialog, 'newcomers-sweep-dialog', [1280]);
  await dialog.getByRole('button', { name: 'Voltar' }).click();
  await expect(dialog).toHaveCount(0);

  // At 390 px the agenda is the mobile list, with the same card menu.
  await staff.setViewportSize({ width: 390, height: 844 });
  dialog = await sweepDialog();
  await dialog.getByRole('button', { name: 'Mesmo e-mail' }).click();
  await expect(dialog.getByRole('button', { name: 'Mesmo e-mail' })).toHaveAttribute('aria-pressed', 'true');
  await screenshotsAt(staff, dialog, 'newcomers-sweep-dialog', [390]);
  await dialog.getByRole('button', { name: 'Cancelar agendamentos' }).click();
  await expect(toast(staff, '1 agendamento online cancelado.')).toBeVisible();
  // The mobile list shows the active ones: the swept booking leaves it.
  await expect(staff.getByRole('article').filter({ hasText: client.name })).toHaveCount(0, { timeout: 15_000 });
  await staff.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(() => toldOfCancellation(client.email), { timeout: 15_000 }).toBe(true);

  // The clients list marks the record; its form confirms it.
  await staff.goto('/dashboard/client');
  await staff.getByLabel('Busque pelo nome, telefone ou email').fill(client.name);
  await staff.getByRole('button', { name: 'Pesquisar' }).click();
  const row = staff.getByRole('row').filter({ hasText: client.name });
  await expect(row.getByText('Não confirmado')).toBeVisible({ timeout: 15_000 });
  await screenshotsAt(staff, row, 'newcomers-client-list');
  await row.getByText(client.name).click();
  const notice = staff.getByRole('status').filter({ hasText: 'Cadastro feito pelo próprio cliente' });
  await expect(notice).toBeVisible();
  await screenshotsAt(staff, notice, 'newcomers-client-form');
  await notice.getByRole('button', { name: 'Confirmar cadastro' }).click();
  await expect(toast(staff, 'Cadastro confirmado com sucesso!')).toBeVisible();
  await expect(notice).toHaveCount(0, { timeout: 15_000 });
  await staff.context().close();
});

test("a unit's form sets its time zone and the newcomers' share of a day", async ({ page }) => {
  await signInAs(page, 'admin@navalha.dev');
  await page.goto('/dashboard/company');
  await page.getByRole('row').filter({ hasText: 'Navalha Centro' }).first().click();
  // Issue 39: the zone of its state and city unless corrected.
  const zone = page.getByLabel('Fuso horário');
  await expect(zone).toHaveValue('');
  await expect(zone.locator('option:checked')).toHaveText('Automático, pelo estado e cidade');
  await expect(zone.locator('option', { hasText: 'Amazonas (UTC−4)' })).toHaveCount(1);
  await screenshotsAt(page, zone, 'unit-time-zone');
  const section = page.getByRole('group', { name: 'Agendamento online' });
  const share = section.getByLabel('Parte do dia para clientes novos online (%)');
  await expect(share).toHaveValue('30');
  await share.fill('');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(section.getByText('Informe um percentual de 0 a 100')).toBeVisible();
  await screenshotsAt(page, share, 'newcomers-unit-share');
});
