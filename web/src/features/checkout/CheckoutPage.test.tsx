import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { resetTokenizerForTests } from './cardTokenizer';
import type { CheckoutSummary } from './checkoutApi';

const tokenizer = { ScriptUrl: 'http://sim.test/checkout.min.js', PublicToken: 'pub-123', Production: false };

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
  Prices: [{ PaymentMethod: 'boleto', Value: 89.9 }],
  CardTokenizer: tokenizer,
};

/** Card first at R$ 89,90, boleto also at R$ 79,90. */
const twoMethods: CheckoutSummary = {
  ...summary,
  PaymentMethod: 'creditcard',
  Prices: [
    { PaymentMethod: 'creditcard', Value: 89.9 },
    { PaymentMethod: 'boleto', Value: 79.9 },
  ],
};

const created = (id: number, boleto: string | null = null) =>
  HttpResponse.json({ IdSubscriptionUser: id, GalaxPayId: id, Status: 'active', BoletoPdf: boleto, PixLink: null }, { status: 201 });

/** The provider's script, already on the page: hashes every card it is given (or fails). */
function fakeGalaxPay(answer: (number: string) => string | Error = (number) => `hash-${number.slice(-4)}`) {
  const hashed: string[] = [];
  window.GalaxPay = class {
    newCard(card: { number: string }) {
      return card;
    }
    hashCreditCard(card: { number: string }, ok: (hash: string) => void, fail: (error: unknown) => void) {
      const result = answer(card.number);
      setTimeout(() => {
        if (result instanceof Error) fail(result.message);
        else {
          hashed.push(card.number);
          ok(result);
        }
      }, 10);
    }
  } as never;
  return hashed;
}

async function fillCard(user: ReturnType<typeof userEvent.setup>, number = '4111111111111111') {
  await user.clear(await screen.findByLabelText('Número do cartão'));
  await user.type(screen.getByLabelText('Número do cartão'), number);
  await user.clear(screen.getByLabelText('Nome impresso no cartão'));
  await user.type(screen.getByLabelText('Nome impresso no cartão'), 'JOAO C');
  await user.clear(screen.getByLabelText('Validade (AAAA-MM)'));
  await user.type(screen.getByLabelText('Validade (AAAA-MM)'), '2030-12');
  await user.clear(screen.getByLabelText('CVV'));
  await user.type(screen.getByLabelText('CVV'), '123');
}

const priceLine = () => screen.getByRole('region', { name: 'Plano' }).querySelector('strong')?.textContent;

afterEach(() => {
  delete window.GalaxPay;
  resetTokenizerForTests();
});

describe('checkout page', () => {
  it('shows the plan of the link and subscribes by boleto', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(summary)),
      http.post(apiUrl('checkout/subscribe'), async ({ request }) => {
        sent.push(await request.json());
        return created(7, 'https://boleto/7.pdf');
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

  it('offers only the payment methods the plan accepts', async () => {
    server.use(http.post(apiUrl('checkout/summary'), () => HttpResponse.json(summary)));
    renderApp('/checkout?token=abc');
    expect(await screen.findByRole('radio', { name: /^Boleto · R\$\s89,90$/ })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /Cartão de crédito/ })).toBeNull();
    expect(screen.queryByLabelText('Número do cartão')).toBeNull();
  });

  it('offers each accepted method with its price; the plan price follows the choice', async () => {
    server.use(http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)));
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    const card = await screen.findByRole('radio', { name: /^Cartão de crédito · R\$\s89,90$/ });
    const boleto = screen.getByRole('radio', { name: /^Boleto · R\$\s79,90$/ });
    // The main method comes chosen.
    expect((card as HTMLInputElement).checked).toBe(true);
    expect(priceLine()).toMatch(/89,90/);
    expect(screen.getByLabelText('Número do cartão')).toBeTruthy();
    await user.click(boleto);
    expect(priceLine()).toMatch(/79,90/);
    expect(screen.queryByLabelText('Número do cartão')).toBeNull();
  });

  it('sends only the provider hash of the card, never the card', async () => {
    const hashed = fakeGalaxPay();
    const sent: Record<string, unknown>[] = [];
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)),
      http.post(apiUrl('checkout/subscribe'), async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>);
        return created(8);
      }),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(hashed).toEqual(['4111111111111111']);
    expect(sent).toEqual([{ token: 'abc', paymentMethod: 'creditcard', card: { hash: 'hash-1111' } }]);
    const body = JSON.stringify(sent);
    expect(body).not.toContain('4111111111111111');
    expect(body).not.toMatch(/number|cvv|holder|expiresAt/);
  });

  it('checks the card fields before asking the provider or the server', async () => {
    const hashed = fakeGalaxPay();
    let calls = 0;
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)),
      http.post(apiUrl('checkout/subscribe'), () => {
        calls += 1;
        return created(1);
      }),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await user.type(await screen.findByLabelText('Número do cartão'), '4111111111111111');
    await user.type(screen.getByLabelText('Validade (AAAA-MM)'), '12/2030');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(
      await screen.findByText('Informe os dados do cartão: número, nome impresso, validade (AAAA-MM) e CVV.'),
    ).toBeTruthy();
    expect(hashed).toEqual([]);
    expect(calls).toBe(0);
  });

  it('a card the tokenizer refuses is told on the card fields', async () => {
    fakeGalaxPay(() => new Error('invalid card'));
    let calls = 0;
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)),
      http.post(apiUrl('checkout/subscribe'), () => {
        calls += 1;
        return created(1);
      }),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Não foi possível validar o cartão. Confira os dados.');
    expect(calls).toBe(0);
  });

  it('shows progress and sends once however often Assinar is pressed', async () => {
    fakeGalaxPay();
    let calls = 0;
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)),
      http.post(apiUrl('checkout/subscribe'), async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return created(1);
      }),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await fillCard(user);
    const button = screen.getByRole('button', { name: 'Assinar' });
    await user.click(button);
    expect(button.textContent).toBe('Processando…');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(calls).toBe(1);
  });

  it('tells the client a denied card and lets them try again with the same link', async () => {
    const denied = 'O pagamento foi recusado pela operadora do cartão (Negada). Confira os dados ou use outro cartão.';
    fakeGalaxPay();
    const hashes: unknown[] = [];
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)),
      http.post(apiUrl('checkout/subscribe'), async ({ request }) => {
        const { card } = (await request.json()) as { card: { hash: string } };
        hashes.push(card.hash);
        return hashes.length === 1
          ? HttpResponse.json({ message: denied, errors: { card: denied } }, { status: 422 })
          : created(9);
      }),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await fillCard(user, '4111111111110000');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect((await screen.findAllByText(denied)).length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'Clube do corte' })).toBeTruthy();
    await fillCard(user, '4111111111111111');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(hashes).toEqual(['hash-0000', 'hash-1111']);
  });

  it('without a tokenizer the card cannot be paid, the boleto still can', async () => {
    server.use(http.post(apiUrl('checkout/summary'), () => HttpResponse.json({ ...twoMethods, CardTokenizer: null })));
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    expect(await screen.findByText('Pagamento por cartão indisponível no momento.')).toBeTruthy();
    expect(screen.queryByLabelText('Número do cartão')).toBeNull();
    expect((screen.getByRole('button', { name: 'Assinar' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('radio', { name: /Boleto/ }));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Assinar' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByText('Pagamento por cartão indisponível no momento.')).toBeNull();
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
