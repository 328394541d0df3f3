import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { stamp } from './clock';
import { ADMIN, apiToken, createClient, runTag, sideMenu, signInAs, signOut, toast } from './support';
import {
  createBoletoPlan,
  screenshots,
  setChargeStatus,
  subscribeByBoleto,
  subscriptionOf,
  waitForContractStatus,
} from './subscribers-support';

// The subscribers screens and the time travel against the running system and provider-sim:
// a client subscribes by boleto, pays it in the simulator, and staff follow it on the
// list, the detail and the history.

const LIST = '/dashboard/subscription-user-detail-list';

async function searchSubscriber(page: Page, name: string) {
  await page.goto(LIST);
  await expect(page.getByRole('heading', { name: 'Assinantes' })).toBeVisible();
  await page.getByLabel('Busque por nome, e-mail, CPF ou telefone').fill(name);
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  return page.getByRole('table', { name: 'Assinantes' }).getByRole('row').filter({ hasText: name });
}

const stat = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test('a boleto subscriber: reminder, payment, past view, cancellation; a BARBER_LEADE reads it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const tag = `${stamp()}${runTag()}`;
  const clientName = `Assinante E2e ${tag}`;
  const planName = `Clube Assinantes ${tag}`;
  const userId = await createClient(request, token, clientName);
  const planId = await createBoletoPlan(request, token, planName);
  await subscribeByBoleto(page, request, token, userId, planId);
  const subscription = await subscriptionOf(request, token, clientName);
  const charge = subscription.Transactions[0];
  expect(charge.Status).toBe('pendingBoleto');

  // The list: the new subscriber waits for the payment and can be reminded.
  await signInAs(page, ADMIN.email);
  let row = await searchSubscriber(page, clientName);
  await expect(row).toContainText(planName);
  await expect(row).toContainText('R$ 89,90');
  await expect(row).toContainText('Pagamento pendente');
  const phone = row.getByRole('link', { name: /^\(11\) 9/ });
  await expect(phone).toHaveAttribute('href', /^https:\/\/wa\.me\/5511/);
  await expect(phone).toHaveAttribute('target', '_blank');
  // The reminder opens WhatsApp (answered here, nothing leaves the machine) and records itself.
  await page.context().route('https://wa.me/**', (route) => route.fulfill({ body: 'WhatsApp' }));
  const reminder = row.getByRole('link', { name: `Lembrar ${clientName} do pagamento` });
  await expect(reminder).toHaveAttribute('href', /text=.*pagamento.*pendente/);
  const [popup, recorded] = await Promise.all([
    page.waitForEvent('popup'),
    page.waitForResponse((response) => response.url().endsWith(`/subscription-user/${subscription.IdSubscriptionUser}/reminder`)),
    reminder.click(),
  ]);
  await popup.close();
  const reminderRecorded = recorded.ok();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The plan filter lists the plan, the status filter narrows.
  await page.getByLabel('Plano').selectOption({ label: planName });
  await page.getByLabel('Status').selectOption({ label: 'Pagamento pendente' });
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(row).toBeVisible();
  await screenshots(page, 'subscribers-list');
  await page.getByLabel('Status').selectOption({ label: 'Ativo' });
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(page.getByText('Nenhum registro encontrado')).toBeVisible();

  // The client pays the boleto; the provider's webhook makes the subscriber Ativo.
  await setChargeStatus(request, charge.GalaxPayId, 'payedBoleto');
  await waitForContractStatus(request, token, subscription.IdSubscriptionUser, 'ACTIVE');
  row = await searchSubscriber(page, clientName);
  await expect(row).toContainText('Ativo');
  await expect(row.getByRole('link', { name: /Lembrar/ })).toHaveCount(0);
  await row.click();

  // The detail: the amounts moved.
  await expect(page).toHaveURL(new RegExp(`/subscription-user-detail-form/${subscription.IdSubscriptionUser}$`));
  await expect(stat(page, 'Valor recebido')).toContainText('R$ 89,90');
  await expect(stat(page, 'Valor a receber')).toContainText('R$ 0,00');
  await expect(stat(page, 'Status')).toContainText('Ativa');
  await expect(stat(page, 'Status')).toContainText('Ativo');
  await expect(page.getByRole('link', { name: 'Ver Cliente' })).toHaveAttribute('href', `/dashboard/client/${userId}`);
  await expect(page.getByRole('link', { name: 'Ver Plano' })).toHaveAttribute('href', `/dashboard/subscription-detail-form/${planId}`);
  await expect(page.getByRole('link', { name: 'Ver na GalaxPay' })).toHaveAttribute('href', /galaxpay/);
  await page.getByRole('button', { name: 'Atualizar dados' }).click();
  await expect(toast(page, 'atualizado com sucesso.')).toBeVisible();
  await screenshots(page, 'subscriber-detail-info');

  await page.getByRole('tab', { name: 'Cobranças' }).click();
  const charges = page.getByRole('table', { name: 'Cobranças' });
  await expect(charges.getByRole('row').filter({ hasText: 'Boleto pago' })).toContainText('R$ 89,90');
  await expect(charges.getByRole('link', { name: /Boleto PDF/ })).toHaveCount(0);
  await screenshots(page, 'subscriber-detail-charges');

  // The history: every change, with what caused it.
  await page.getByRole('tab', { name: 'Histórico' }).click();
  const history = page.getByRole('list', { name: 'Histórico da assinatura' });
  const paid = history.getByRole('button', { name: /Pagamento recebido/ });
  await expect(paid).toContainText('Parcela 1');
  await expect(paid).toContainText('Origem: Webhook do provedor de pagamento');
  const created = history.getByRole('button', { name: /Cobrança criada/ });
  await expect(created).toContainText('Boleto em aberto');
  await expect(created).toContainText(`Checkout de ${clientName}`);
  if (reminderRecorded) {
    await expect(history.getByRole('button', { name: /Lembrete de cobrança enviado/ })).toContainText('(equipe)');
  }
  await screenshots(page, 'subscriber-detail-timeline');

  // Before the payment: the charge open, nothing received, actions off.
  await created.click();
  await expect(page.getByRole('status').filter({ hasText: /^Visualizando como estava em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/ })).toBeVisible();
  await expect(stat(page, 'Valor recebido')).toContainText('R$ 0,00');
  await expect(stat(page, 'Valor a receber')).toContainText('R$ 89,90');
  await expect(stat(page, 'Status')).toContainText('Pagamento pendente');
  await expect(page.getByRole('button', { name: 'Atualizar dados' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Cancelar assinatura' })).toBeDisabled();
  await screenshots(page, 'subscriber-detail-past');
  await page.getByRole('tab', { name: 'Cobranças' }).click();
  await expect(charges.getByRole('row').filter({ hasText: 'Boleto em aberto' })).toBeVisible();
  await expect(charges.getByRole('link', { name: 'Boleto PDF da parcela 1' })).toBeVisible();
  await screenshots(page, 'subscriber-detail-past-charges');

  // A typed instant before the subscription existed.
  await page.getByRole('tab', { name: 'Histórico' }).click();
  await page.getByLabel('Data e hora (horário de Brasília)').fill('2020-01-01T10:00');
  await page.getByRole('button', { name: 'Ver', exact: true }).click();
  await expect(page.getByText('Em 01/01/2020 10:00 esta assinatura ainda não existia.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Voltar ao presente' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Visualizando' })).toHaveCount(0);
  await expect(stat(page, 'Valor recebido')).toContainText('R$ 89,90');

  // Cancelling: confirmed, toasted, and the action is gone.
  await page.getByRole('button', { name: 'Cancelar assinatura' }).click();
  const dialog = page.getByRole('dialog', { name: 'Atencão!' });
  await expect(dialog).toContainText('Deseja realmente cancelar a assinatura?');
  await dialog.getByRole('button', { name: 'Cancelar assinatura' }).click();
  await expect(toast(page, 'Cancelamento solicitado com sucesso.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancelar assinatura' })).toHaveCount(0);
  await expect(stat(page, 'Status')).toContainText('Cancelado');
  await page.getByRole('tab', { name: 'Histórico' }).click();
  await expect(history.getByRole('button', { name: /Cancelamento solicitado/ })).toContainText('(equipe)');

  // A BARBER_LEADE reads subscribers but not plans, and neither cancels nor travels in time.
  await signOut(page);
  await signInAs(page, 'lider@navalha.dev');
  // The menu may start collapsed (favourites only): open it to read every entry.
  const expand = sideMenu(page).getByRole('button', { name: 'Expandir menu' });
  if (await expand.isVisible()) await expand.click();
  await expect(sideMenu(page).getByRole('link', { name: 'Assinantes' })).toBeVisible();
  await expect(sideMenu(page).getByRole('link', { name: 'Planos' })).toHaveCount(0);
  row = await searchSubscriber(page, clientName);
  await expect(row).toContainText('Cancelado');
  await row.click();
  await expect(stat(page, 'Valor recebido')).toContainText('R$ 89,90');
  await expect(page.getByRole('link', { name: 'Ver Cliente' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ver Plano' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Histórico' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancelar assinatura' })).toHaveCount(0);
});
