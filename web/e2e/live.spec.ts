import type { Browser, Page } from '@playwright/test';
import { expect, test, newContext } from './fixtures';
import { ADMIN, agendaSetup, bookFirstFree, openAgenda } from './support';

const ATTENDANT = 'atendente@navalha.dev';

/** A desk: its own browser, signed in, showing Centro's agenda on `day`. */
async function desk(browser: Browser, email: string, day: string): Promise<Page> {
  const page = await (await newContext(browser)).newPage();
  await openAgenda(page, email, day);
  return page;
}

const card = (page: Page, client: string) => page.getByRole('article').filter({ hasText: client });

test('two desks: what one books, confirms or cancels shows at the other without a reload (issue 14)', async ({
  browser,
  request,
}) => {
  const { token, idCompany, idService, client, idUser, day } = await agendaSetup(request, 'Cliente Balcão', 3);
  const front = await desk(browser, ADMIN.email, day);
  const back = await desk(browser, ATTENDANT, day);
  let navigations = 0;
  back.on('framenavigated', (frame) => {
    if (frame === back.mainFrame()) navigations += 1;
  });

  // A booking made elsewhere (another user, through the API) appears at both desks.
  const booked = await bookFirstFree(request, token, {
    idCompany,
    professional: 'Diego Barbeiro',
    date: day,
    idUser,
    idService,
  });
  const started = performance.now();
  await expect(card(back, client)).toContainText(booked.start.slice(0, 5));
  test.info().annotations.push({ type: 'booking shown after', description: `${Math.round(performance.now() - started)} ms` });
  await expect(card(front, client)).toBeVisible();

  // The back desk confirms; the front desk sees it.
  const options = `Opções do agendamento N.º ${booked.id}`;
  await card(back, client).getByRole('button', { name: options }).click();
  await back.getByRole('menuitem', { name: 'Confirmar' }).click();
  await expect(card(front, client).getByText('Confirmado pelo cliente')).toBeVisible();

  // The front desk cancels; the back desk sees it.
  await card(front, client).getByRole('button', { name: options }).click();
  await front.getByRole('menuitem', { name: 'Cancelar' }).click();
  await front.getByRole('dialog', { name: 'Atencão!' }).getByRole('button', { name: 'Excluir' }).click();
  await expect(card(back, client).getByText('Cancelado')).toBeVisible();
  await back.screenshot({ path: 'test-results/live-back-desk-1280.png' });
  expect(navigations, 'the back desk never reloaded').toBe(0);
});

test('a desk that lost its connection catches up when it is back (issue 14)', async ({ browser, request }) => {
  const { token, idCompany, idService, client, idUser, day } = await agendaSetup(request, 'Cliente Reconexão', 3);
  const page = await desk(browser, ATTENDANT, day);
  await expect(page.getByRole('heading', { name: 'Agenda', exact: true })).toBeVisible();

  // Offline, the stream drops; the booking made meanwhile cannot reach this desk...
  await page.context().setOffline(true);
  const booked = await bookFirstFree(request, token, {
    idCompany,
    professional: 'Diego Barbeiro',
    date: day,
    idUser,
    idService,
  });
  await page.waitForTimeout(1_500);
  await expect(card(page, client)).toHaveCount(0);
  // ...until the connection is back: the desk reconnects and fetches the day again.
  await page.context().setOffline(false);
  await expect(card(page, client)).toContainText(booked.start.slice(0, 5));
});
