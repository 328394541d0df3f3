import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { dismissToasts, screenshots } from './backoffice-a-support';
import { ATTENDANT, bookInThePast, card, options } from './counter-support';
import { ADMIN, BARBER1, agendaSetup, bookFirstFree, goToDay, openAgenda, toast } from './support';

// Issue 41 §1, §8: the appointment's life ends somewhere. A client who never came is marked
// 'Não compareceu' from the agenda's card; another gets 'Abrir comanda', which leads to the
// comanda of the appointment, and the card then offers 'Ver comanda'.

test("a client who never came is marked 'Não compareceu' from the card, and the card says so", async ({ page, request }) => {
  const { token, idCompany, idService, idUser } = await agendaSetup(request, 'Cliente Ausente', 1);
  const past = await bookInThePast(request, token, { idCompany, idService, idUser });

  await openAgenda(page, ADMIN.email, past.date);
  await expect(card(page, past.id)).toBeVisible();
  await options(page, past.id).click();
  // It started long ago: no 'Confirmar' (the server refuses it), no arrival on another day.
  await expect(page.getByRole('menuitem', { name: 'Confirmar' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Cliente chegou' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Abrir comanda' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Não compareceu' }).click();
  await expect(toast(page, `Agendamento N.º ${past.id} marcado como 'Não compareceu'.`)).toBeVisible();
  await expect(card(page, past.id).getByText('Não compareceu', { exact: true })).toBeVisible();

  // Read again from the server (not only the optimistic change): still marked, and nothing
  // more to do with it, not even the undo, which is for the appointment's day.
  await page.reload();
  await goToDay(page, past.date);
  await expect(card(page, past.id).getByText('Não compareceu', { exact: true })).toBeVisible();
  await options(page, past.id).click();
  for (const name of ['Cliente chegou', 'Não compareceu', 'Desfazer não compareceu', 'Abrir comanda', 'Ver comanda']) {
    await expect(page.getByRole('menuitem', { name, exact: true })).toHaveCount(0);
  }
  // ADMIN's history of the appointment records who marked it.
  await page.getByRole('menuitem', { name: 'Histórico' }).click();
  const history = page.getByRole('dialog', { name: `Histórico do agendamento N.º ${past.id}` });
  await expect(history.getByRole('listitem').first()).toContainText('Não compareceu');
  await history.getByRole('button', { name: 'Fechar' }).click();

  await dismissToasts(page);
  const axe = await new AxeBuilder({ page }).include('.agenda').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  expect(serious, 'no serious accessibility violation on the agenda with a state badge').toEqual([]);

  // The timeline's block says it too.
  await page.getByRole('button', { name: 'Linha do tempo' }).click();
  await expect(page.getByRole('listitem', { name: new RegExp(`^Agendamento N\\.º ${past.id}: `) })).toContainText('Não compareceu');
  await page.getByRole('button', { name: 'Lista' }).click();
  await screenshots(page, 'attendance-no-show', async () => {
    await expect(card(page, past.id).getByText('Não compareceu', { exact: true })).toBeVisible();
  });
});

test("the front desk opens an appointment's comanda from the card and lands on it", async ({ page, request }) => {
  const { token, idCompany, idService, idUser, client, day } = await agendaSetup(request, 'Cliente Comanda', 2);
  const booked = await bookFirstFree(request, token, { idCompany, professional: BARBER1.name, date: day, idUser, idService });

  await openAgenda(page, ATTENDANT, day);
  await options(page, booked.id).click();
  await page.getByRole('menuitem', { name: 'Abrir comanda' }).click();
  await expect(toast(page, 'Comanda aberta.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/comanda\/\d+$/);
  const number = page.url().replace(/^.*\/(\d+)$/, '$1');

  // The appointment's service, professional and client came in.
  await expect(page.getByRole('heading', { name: `Comanda N.º ${number}` })).toBeVisible();
  await expect(page.getByText('Aberta', { exact: true })).toBeVisible();
  await expect(page.getByText(client)).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^N\\.º ${booked.id}( |$)`) })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Itens' }).getByRole('row').filter({ hasText: 'Corte de cabelo' })).toContainText(
    BARBER1.name,
  );
  await screenshots(page, 'attendance-comanda', async () => {
    await expect(page.getByRole('region', { name: 'Resumo da comanda' })).toBeInViewport();
  });

  // Back on the agenda, the card leads to that comanda; a second one is not offered.
  await page.goBack();
  await expect(card(page, booked.id)).toBeVisible();
  await options(page, booked.id).click();
  await expect(page.getByRole('menuitem', { name: 'Abrir comanda' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Ver comanda' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/comanda/${number}$`));
  await expect(page.getByRole('heading', { name: `Comanda N.º ${number}` })).toBeVisible();
});
