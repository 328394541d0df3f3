import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures';
import { auth } from './counter-support';

// Helpers of the commission specs (issue 42): a professional's rates through the API, a
// comanda sold and closed as another desk would, and what it earns at a rate.
// Shared by commissions.spec.ts and commission-statement.spec.ts.

/** GET professional/{id}/commission. */
export interface Rates {
  Set: boolean;
  ServicePercent: number;
  ProductPercent: number;
  Services: { IdService: number; Description: string; Percent?: number | null; Fixed?: number | null }[];
  CardFeeShared: boolean;
}

/** The rates as PUT professional/{id}/commission takes them. */
export const bodyOf = (rates: Rates) => ({
  servicePercent: rates.ServicePercent,
  productPercent: rates.ProductPercent,
  cardFeeShared: rates.CardFeeShared,
  services: rates.Services.map((s) => (s.Fixed != null ? { idService: s.IdService, fixed: s.Fixed } : { idService: s.IdService, percent: s.Percent ?? 0 })),
});

export async function readRates(request: APIRequestContext, token: string, idProfessional: number): Promise<Rates> {
  const answer = await request.get(`/api/professional/${idProfessional}/commission`, { headers: auth(token) });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return (await answer.json()) as Rates;
}

export async function writeRates(request: APIRequestContext, token: string, idProfessional: number, body: ReturnType<typeof bodyOf>) {
  const answer = await request.put(`/api/professional/${idProfessional}/commission`, { headers: auth(token), data: body });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** A professional of the unit by name. */
export async function professionalId(request: APIRequestContext, token: string, idCompany: number, name: string) {
  const answer = await request.get(`/api/professional/company/${idCompany}`, { headers: auth(token) });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  const found = ((await answer.json()) as { IdProfessional: number; Name: string }[]).find((p) => p.Name === name);
  expect(found, `${name} works in the unit`).toBeTruthy();
  return found!.IdProfessional;
}

/**
 * A walk-in comanda with one service by the professional, paid in cash and closed, through the
 * API: its number and what the client paid for the line, in centavos.
 */
export async function sellAndClose(
  request: APIRequestContext,
  token: string,
  opts: { idCompany: number; idService: number; idProfessional: number },
): Promise<{ idComanda: number; lineCents: number }> {
  const opened = await request.post('/api/comanda', { headers: auth(token), data: { idCompany: opts.idCompany } });
  expect(opened.status(), await opened.text()).toBe(201);
  const idComanda = ((await opened.json()) as { IdComanda: number }).IdComanda;
  const added = await request.post(`/api/comanda/${idComanda}/items`, {
    headers: auth(token),
    data: { kind: 'service', id: opts.idService, idProfessional: opts.idProfessional, quantity: 1 },
  });
  expect(added.status(), await added.text()).toBe(200);
  // The write's own figures: no read that could lag behind it.
  const { Total, Due } = (await added.json()) as { Total: number; Due: number };
  expect(Total, 'the service has a price').toBeGreaterThan(0);
  for (const step of [
    { url: `/api/comanda/${idComanda}/payments`, data: { method: 'cash', value: Due, cashReceived: Due } },
    { url: `/api/comanda/${idComanda}/close`, data: {} },
  ]) {
    const answer = await request.post(step.url, { headers: auth(token), data: step.data });
    expect(answer.status(), `${step.url}: ${await answer.text()}`).toBe(200);
  }
  return { idComanda, lineCents: Math.round(Total * 100) };
}

/** `points` basis points of `cents`, half up, as the server rounds a commission. */
export const percentOf = (cents: number, points: number) => Math.floor((cents * points + 5_000) / 10_000);
