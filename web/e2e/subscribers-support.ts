import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** provider-sim's controls; `./navalha up` starts it on 8090. */
export const SIM_URL = process.env.NAVALHA_PROVIDER_SIM_URL ?? 'http://127.0.0.1:8090';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A boleto plan made through the API (the fields of e2e/checkout.spec.ts). */
export async function createBoletoPlan(request: APIRequestContext, token: string, planName: string, value = '89,90') {
  const plan = await request.post('/api/subscription-details', {
    headers: auth(token),
    multipart: {
      planName,
      description: 'Cortes ilimitados no mês',
      value,
      status: '1',
      discount: '0',
      validityStart: '2026-01-01',
      validityEnd: '2030-12-31',
      allCompanies: 'true',
      periodicity: 'monthly',
      quantity: '12',
      itemsDetail: '4 cortes',
      paymentMethod: 'boleto',
    },
  });
  expect(plan.status(), await plan.text()).toBe(201);
  return ((await plan.json()) as { IdSubscriptionDetail: number }).IdSubscriptionDetail;
}

/** The client subscribes by boleto on the /checkout page of a link made for them. */
export async function subscribeByBoleto(page: Page, request: APIRequestContext, token: string, userId: number, planId: number) {
  const link = await request.post('/api/checkout/create-user-token', { headers: auth(token), data: { userId, planId } });
  expect(link.status(), await link.text()).toBe(201);
  const { Token: checkoutToken } = (await link.json()) as { Token: string };
  await page.goto(`/checkout?token=${checkoutToken}`);
  await page.getByLabel('Boleto').check();
  await page.getByRole('button', { name: 'Assinar' }).click();
  await expect(page.getByRole('heading', { name: 'Assinatura realizada!' })).toBeVisible();
}

interface Detail {
  IdSubscriptionUser: number;
  InternalStatus: string;
  Transactions: { GalaxPayId: number; Status: string }[];
}

/** The subscription of a client (by a unique name), as the detail call answers it. */
export async function subscriptionOf(request: APIRequestContext, token: string, clientName: string): Promise<Detail> {
  // The checkout page's answer carries no read position for this API client: wait for the
  // read model to list the new subscriber, as a person reloading the list would.
  let id = 0;
  await expect(async () => {
    const list = await request.get(`/api/subscription-user?page=1&pageSize=5&description=${encodeURIComponent(clientName)}`, {
      headers: auth(token),
    });
    expect(list.ok(), await list.text()).toBeTruthy();
    const { content } = (await list.json()) as { content: { IdSubscriptionUser: number }[] };
    expect(content).toHaveLength(1);
    id = content[0].IdSubscriptionUser;
  }).toPass({ timeout: 10_000 });
  const detail = await request.get(`/api/subscription-user/${id}`, { headers: auth(token) });
  expect(detail.ok()).toBeTruthy();
  return (await detail.json()) as Detail;
}

/** Moves a charge in provider-sim; its webhook reaches command-api. */
export async function setChargeStatus(request: APIRequestContext, galaxPayId: number, status: string) {
  const moved = await request.post(`${SIM_URL}/sim/transactions/${galaxPayId}/status`, { data: { status } });
  expect(moved.ok(), `provider-sim at ${SIM_URL}: ${await moved.text()}`).toBeTruthy();
}

/** Waits until the server's contract status of a subscription is `status`. */
export async function waitForContractStatus(request: APIRequestContext, token: string, id: number, status: string) {
  await expect
    .poll(
      async () => {
        const detail = await request.get(`/api/subscription-user/${id}`, { headers: auth(token) });
        return detail.ok() ? ((await detail.json()) as Detail).InternalStatus : `HTTP ${detail.status()}`;
      },
      { message: `subscription ${id} becomes ${status}`, timeout: 20_000 },
    )
    .toBe(status);
}

/** Full-page screenshots of the current screen at 1280 and 390 px. */
export async function screenshots(page: Page, name: string) {
  await page.screenshot({ path: `test-results/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}
