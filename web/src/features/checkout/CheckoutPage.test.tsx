import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import type { CheckoutSummary } from './checkoutApi';

const summary: CheckoutSummary = {
  IdSubscriptionDetail: 3,
  PlanName: 'Clube do corte',
  Description: 'Cortes ilimitados no mês',
  Value: 89.9,
  Periodicity: 'monthly',
  Quantity: 12,
  PaymentMethod: 'boleto',
  ItemsDetail: '4 cortes',
  UrlImage: null,
  User: { IdUser: 1, Name: 'João Conceição', Email: 'joao@example.com' },
};

describe('checkout page', () => {
  it('shows the plan of the link and subscribes by boleto', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(summary)),
      http.post(apiUrl('checkout/subscribe'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          { IdSubscriptionUser: 7, GalaxPayId: 2, Status: 'active', BoletoPdf: 'https://boleto/7.pdf', PixLink: null },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    expect(await screen.findByRole('heading', { name: 'Clube do corte' })).toBeTruthy();
    expect(screen.getByText(/Mensal/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Abrir boleto' }).getAttribute('href')).toBe('https://boleto/7.pdf');
    expect(sent).toEqual([{ token: 'abc', paymentMethod: 'boleto' }]);
  });

  it('offers only the payment method the plan accepts', async () => {
    server.use(http.post(apiUrl('checkout/summary'), () => HttpResponse.json(summary)));
    renderApp('/checkout?token=abc');
    expect(await screen.findByLabelText('Boleto')).toBeTruthy();
    expect(screen.queryByLabelText('Cartão de crédito')).toBeNull();
  });

  it('tells the client a denied card and lets them try again with the same link', async () => {
    const denied = 'O pagamento foi recusado pela operadora do cartão (Negada). Confira os dados ou use outro cartão.';
    let attempts = 0;
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json({ ...summary, PaymentMethod: 'creditcard' })),
      http.post(apiUrl('checkout/subscribe'), () => {
        attempts += 1;
        return attempts === 1
          ? HttpResponse.json({ message: denied, errors: { card: denied } }, { status: 422 })
          : HttpResponse.json(
              { IdSubscriptionUser: 9, GalaxPayId: 4, Status: 'active', BoletoPdf: null, PixLink: null },
              { status: 201 },
            );
      }),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await user.type(await screen.findByLabelText('Número do cartão'), '4111111111110000');
    await user.type(screen.getByLabelText('Nome impresso no cartão'), 'JOAO C');
    await user.type(screen.getByLabelText('Validade (AAAA-MM)'), '2030-12');
    await user.type(screen.getByLabelText('CVV'), '123');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect((await screen.findAllByText(denied)).length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'Clube do corte' })).toBeTruthy();
    await user.clear(screen.getByLabelText('Número do cartão'));
    await user.type(screen.getByLabelText('Número do cartão'), '4111111111111111');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
  });

  it('sends the card when paying by card', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json({ ...summary, PaymentMethod: 'creditcard' })),
      http.post(apiUrl('checkout/subscribe'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          { IdSubscriptionUser: 8, GalaxPayId: 3, Status: 'active', BoletoPdf: null, PixLink: null },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await user.type(await screen.findByLabelText('Número do cartão'), '4111111111111111');
    await user.type(screen.getByLabelText('Nome impresso no cartão'), 'JOAO C');
    await user.type(screen.getByLabelText('Validade (AAAA-MM)'), '2030-12');
    await user.type(screen.getByLabelText('CVV'), '123');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(sent).toEqual([
      {
        token: 'abc',
        paymentMethod: 'creditcard',
        card: { number: '4111111111111111', holder: 'JOAO C', expiresAt: '2030-12', cvv: '123' },
      },
    ]);
  });

  it('says when the link cannot be used', async () => {
    server.use(
      http.post(apiUrl('checkout/summary'), () =>
        HttpResponse.json({ message: 'Este link de assinatura expirou ou já foi usado.' }, { status: 422 }),
      ),
    );
    renderApp('/checkout?token=old');
    expect(await screen.findByText('Este link de assinatura é inválido, expirou ou já foi usado.')).toBeTruthy();
  });
});
