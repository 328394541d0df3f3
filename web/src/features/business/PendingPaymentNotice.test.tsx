import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { PENDING_PAYMENT_TEXT, PENDING_PAYMENT_TITLE } from './PendingPaymentNotice';

function standing(status: 'ACTIVE' | 'PENDING_PAYMENT') {
  let reads = 0;
  server.use(
    http.get(apiUrl('business'), () => {
      reads += 1;
      return HttpResponse.json({ IdBusiness: 1, Name: 'Navalha', BillingStatus: status });
    }),
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('professional/company/:id'), () => HttpResponse.json([])),
    http.get(apiUrl('scheduling/professional'), () => HttpResponse.json([])),
    http.get(apiUrl('professional/my-profile'), () => HttpResponse.json({})),
  );
  return { reads: () => reads };
}

describe("the business's pending payment", () => {
  it("shows 'Pagamento pendente !' on the dashboard until 'Entendi'", async () => {
    standing('PENDING_PAYMENT');
    renderApp('/dashboard/profile', { session: signedInSession('BARBER1') });
    const notice = await screen.findByRole('dialog', { name: PENDING_PAYMENT_TITLE });
    expect(notice.textContent).toContain(PENDING_PAYMENT_TEXT);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Entendi' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: PENDING_PAYMENT_TITLE })).toBeNull());
  });

  it('says nothing while the business is paid up', async () => {
    const server = standing('ACTIVE');
    renderApp('/dashboard/profile', { session: signedInSession('ADMIN') });
    await waitFor(() => expect(server.reads()).toBe(1));
    expect(screen.queryByRole('dialog', { name: PENDING_PAYMENT_TITLE })).toBeNull();
  });
});
