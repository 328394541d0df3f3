import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { todayIso } from '@/lib/dates';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { expiryForTokenizer, expiryProblem, formatCardNumber, formatExpiry } from './cardInput';
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
  BusinessName: 'Barbearia do Zé',
  Services: [
    { Description: 'Barba', OriginalValue: 35, Discount: 10, Value: 31.5 },
    { Description: 'Corte de cabelo', OriginalValue: 45, Discount: 0, Value: 45 },
  ],
  FirstDueDays: 3,
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

const BANK_LINE = '34191.09008 00012.345673 00000.000007 5 12340000008990';

/** A subscription made: a card charged today, or a boleto due on 2026-11-27 with its line. */
const created = (id: number, boleto: string | null = null, value = 89.9) =>
  HttpResponse.json(
    {
      IdSubscriptionUser: id,
      GalaxPayId: id,
      Status: 'active',
      Value: value,
      DueDate: boleto ? '2026-11-27' : todayIso(),
      BoletoPdf: boleto,
      BoletoBankLine: boleto ? BANK_LINE : null,
      PixLink: null,
    },
    { status: 201 },
  );

/** A validity a year ahead, 'MM/AA', on the page's own clock. */
const nextYear = () => `12/${String(Number(todayIso().slice(2, 4)) + 1).padStart(2, '0')}`;

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

async function fillCard(user: ReturnType<typeof userEvent.setup>, number = '4111111111111111', validity = nextYear()) {
  await user.clear(await screen.findByLabelText('Número do cartão'));
  await user.type(screen.getByLabelText('Número do cartão'), number);
  await user.clear(screen.getByLabelText('Nome impresso no cartão'));
  await user.type(screen.getByLabelText('Nome impresso no cartão'), 'JOAO C');
  await user.clear(screen.getByLabelText('Validade (MM/AA)'));
  await user.type(screen.getByLabelText('Validade (MM/AA)'), validity);
  await user.clear(screen.getByLabelText('CVV'));
  await user.type(screen.getByLabelText('CVV'), '123');
}

const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;
const cardAlerts = () => within(screen.getByRole('group', { name: 'Dados do cartão' })).queryAllByRole('alert');

const priceLine = () => screen.getByRole('region', { name: 'Plano' }).querySelector('strong')?.textContent;

afterEach(() => {
  delete window.GalaxPay;
  resetTokenizerForTests();
  vi.restoreAllMocks();
});

describe('card input', () => {
  it('groups the number in blocks of 4, digits only, up to 19', () => {
    expect(formatCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(formatCardNumber('4111-1111 11x')).toBe('4111 1111 11');
    expect(formatCardNumber('41111')).toBe('4111 1');
    expect(formatCardNumber('4111')).toBe('4111');
    expect(formatCardNumber('1234567890123456789999')).toBe('1234 5678 9012 3456 789');
  });

  it('puts the slash of MM/AA in as the digits come, and lets it be erased', () => {
    expect(formatExpiry('1', '')).toBe('1');
    expect(formatExpiry('12', '1')).toBe('12/');
    expect(formatExpiry('12/3', '12/')).toBe('12/3');
    expect(formatExpiry('12/345', '12/34')).toBe('12/34');
    expect(formatExpiry('1230', '')).toBe('12/30');
    expect(formatExpiry('12//', '12/')).toBe('12/');
    expect(formatExpiry('1/', '1')).toBe('01/');
    // Backspace over the slash: the month stays, the slash does not come back.
    expect(formatExpiry('12', '12/')).toBe('12');
    expect(formatExpiry('', '1')).toBe('');
  });

  it('turns MM/AA into the tokenizer\'s AAAA-MM and refuses impossible or past months', () => {
    expect(expiryForTokenizer('12/30')).toBe('2030-12');
    expect(expiryForTokenizer('1/30')).toBeNull();
    expect(expiryProblem('12/30', '2026-11-24')).toBeNull();
    expect(expiryProblem('11/26', '2026-11-24')).toBeNull();
    expect(expiryProblem('10/26', '2026-11-24')).toBe('Cartão vencido.');
    expect(expiryProblem('00/30', '2026-11-24')).toBe('Validade inválida. Use MM/AA.');
    expect(expiryProblem('13/30', '2026-11-24')).toBe('Validade inválida. Use MM/AA.');
    expect(expiryProblem('12/3', '2026-11-24')).toBe('Validade inválida. Use MM/AA.');
  });
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
    expect(screen.getByText('O primeiro boleto vence 3 dias após a assinatura.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(screen.getByText('Sua assinatura do plano Clube do corte de Barbearia do Zé foi registrada.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Abrir boleto' }).getAttribute('href')).toBe('https://boleto/7.pdf');
    expect(sent).toEqual([{ token: 'abc', paymentMethod: 'boleto' }]);
  });

  it('names the shop and lists the plan\'s services at the subscriber\'s price', async () => {
    server.use(http.post(apiUrl('checkout/summary'), () => HttpResponse.json(summary)));
    renderApp('/checkout?token=abc');
    const plan = await screen.findByRole('region', { name: 'Plano' });
    // The shop comes first, above the plan's name.
    const shop = within(plan).getByText('Barbearia do Zé');
    expect(shop.compareDocumentPosition(within(plan).getByRole('heading', { name: 'Clube do corte' }))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    const services = within(plan).getByRole('list', { name: 'Serviços do plano' });
    const [barba, corte] = within(services).getAllByRole('listitem');
    expect(barba.textContent).toMatch(/^Barba\s*de R\$\s35,00 por R\$\s31,50$/);
    expect(barba.querySelector('s')?.textContent).toMatch(/^R\$\s35,00$/);
    // No discount: one price, nothing struck through.
    expect(corte.textContent).toMatch(/^Corte de cabelo\s*R\$\s45,00$/);
    expect(corte.querySelector('s')).toBeNull();
  });

  it('says in days when the first boleto is due, in the singular for one', async () => {
    server.use(http.post(apiUrl('checkout/summary'), () => HttpResponse.json({ ...summary, FirstDueDays: 1, Services: [] })));
    renderApp('/checkout?token=abc');
    expect(await screen.findByText('O primeiro boleto vence 1 dia após a assinatura.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Serviços do plano' })).toBeNull();
  });

  it('after a boleto: its value, due date and linha digitável to copy', async () => {
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(summary)),
      http.post(apiUrl('checkout/subscribe'), () => created(7, 'https://boleto/7.pdf')),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await user.click(await screen.findByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    const charge = screen.getByText('Vencimento').closest('dl') as HTMLElement;
    expect(charge.textContent).toMatch(/^ValorR\$\s89,90Vencimento27\/11\/2026$/);
    const line = screen.getByLabelText('Linha digitável') as HTMLTextAreaElement;
    expect(line.value).toBe(BANK_LINE);
    expect(line.readOnly).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('');
    await user.click(screen.getByRole('button', { name: 'Copiar' }));
    expect(await screen.findByText('Linha digitável copiada!')).toBeTruthy();
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe(BANK_LINE);
  });

  it('a clipboard that refuses leaves the line selected to copy by hand', async () => {
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(summary)),
      http.post(apiUrl('checkout/subscribe'), () => created(7, 'https://boleto/7.pdf')),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await user.click(await screen.findByRole('button', { name: 'Assinar' }));
    const line = (await screen.findByLabelText('Linha digitável')) as HTMLTextAreaElement;
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copiar' }));
    expect(await screen.findByText('Não foi possível copiar. Selecione a linha digitável e copie.')).toBeTruthy();
    expect(document.activeElement).toBe(line);
    expect([line.selectionStart, line.selectionEnd]).toEqual([0, BANK_LINE.length]);
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
    expect(await screen.findByText('O cartão é cobrado hoje, na assinatura.')).toBeTruthy();
    await fillCard(user);
    expect(value('Número do cartão')).toBe('4111 1111 1111 1111');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(screen.getByText(/^Valor cobrado hoje no cartão:/).textContent).toMatch(/^Valor cobrado hoje no cartão: R\$\s89,90\.$/);
    expect(screen.queryByLabelText('Linha digitável')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Abrir boleto' })).toBeNull();
    // Digits only to the provider.
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
    await user.type(screen.getByLabelText('Validade (MM/AA)'), nextYear());
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(
      await screen.findByText('Informe os dados do cartão: número, nome impresso, validade (MM/AA) e CVV.'),
    ).toBeTruthy();
    expect(hashed).toEqual([]);
    expect(calls).toBe(0);
  });

  it('types the validity as MM/AA and the CVV as 3 or 4 digits', async () => {
    fakeGalaxPay();
    server.use(http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)));
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    const validity = (await screen.findByLabelText('Validade (MM/AA)')) as HTMLInputElement;
    expect(validity.placeholder).toBe('MM/AA');
    expect(validity.inputMode).toBe('numeric');
    expect(validity.maxLength).toBe(5);
    await user.type(validity, '12');
    expect(validity.value).toBe('12/');
    await user.type(validity, '345');
    expect(validity.value).toBe('12/34');
    await user.type(validity, '{Backspace}{Backspace}{Backspace}');
    expect(validity.value).toBe('12');
    await user.clear(validity);
    await user.type(validity, '1/2');
    expect(validity.value).toBe('01/2');
    await user.type(screen.getByLabelText('CVV'), '12a345');
    expect(value('CVV')).toBe('1234');
    await user.type(screen.getByLabelText('Número do cartão'), '4111 1111-1111 1111 1234 9');
    expect(value('Número do cartão')).toBe('4111 1111 1111 1111 123');
  });

  it('an impossible or past validity is told on its field before anything is sent', async () => {
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
    await fillCard(user, '4111111111111111', '13/30');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    const validity = screen.getByLabelText('Validade (MM/AA)');
    expect(validity.getAttribute('aria-invalid')).toBe('true');
    expect(cardAlerts().map((alert) => alert.textContent)).toEqual(['Validade inválida. Use MM/AA.']);
    expect(document.getElementById(validity.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Validade inválida. Use MM/AA.');

    // Editing the field takes the message away; a past month is expired.
    await user.clear(validity);
    expect(cardAlerts()).toEqual([]);
    await user.type(validity, '01/20');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(cardAlerts().map((alert) => alert.textContent)).toEqual(['Cartão vencido.']);

    await user.clear(validity);
    await user.type(validity, '00/30');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(cardAlerts().map((alert) => alert.textContent)).toEqual(['Validade inválida. Use MM/AA.']);
    expect(hashed).toEqual([]);
    expect(calls).toBe(0);
  });

  it('the current month is still good, sent as the tokenizer\'s AAAA-MM', async () => {
    const cards: Record<string, string>[] = [];
    window.GalaxPay = class {
      newCard(card: Record<string, string>) {
        cards.push(card);
        return card;
      }
      hashCreditCard(_card: unknown, ok: (hash: string) => void) {
        setTimeout(() => ok('hash-x'), 0);
      }
    } as never;
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)),
      http.post(apiUrl('checkout/subscribe'), () => created(1)),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    const today = todayIso();
    await fillCard(user, '4111111111111111', `${today.slice(5, 7)}/${today.slice(2, 4)}`);
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(cards).toEqual([{ number: '4111111111111111', holder: 'JOAO C', expiresAt: today.slice(0, 7), cvv: '123' }]);
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
    // Once, by the card fields: no toast repeats it.
    await waitFor(() => expect(screen.getAllByText(denied)).toHaveLength(1));
    expect(cardAlerts().map((alert) => alert.textContent)).toEqual([denied]);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Clube do corte' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Assinar' }) as HTMLButtonElement).disabled).toBe(false);
    // Another card: the refusal goes as soon as the card is edited.
    await user.clear(screen.getByLabelText('Número do cartão'));
    expect(screen.queryByText(denied)).toBeNull();
    await fillCard(user, '4111111111111111');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByRole('heading', { name: 'Assinatura realizada!' })).toBeTruthy();
    expect(hashes).toEqual(['hash-0000', 'hash-1111']);
  });

  it('a denial goes away when another method is chosen', async () => {
    const denied = 'O pagamento foi recusado pela operadora do cartão (Negada). Confira os dados ou use outro cartão.';
    fakeGalaxPay();
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(twoMethods)),
      http.post(apiUrl('checkout/subscribe'), () => HttpResponse.json({ message: denied, errors: { card: denied } }, { status: 422 })),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await fillCard(user, '4111111111110000');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    expect(await screen.findByText(denied)).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: /Boleto/ }));
    expect(screen.queryByText(denied)).toBeNull();
    // Back on the card, the refusal is not shown again.
    await user.click(screen.getByRole('radio', { name: /Cartão de crédito/ }));
    expect(screen.queryByText(denied)).toBeNull();
  });

  it('any other failure of the subscription is said once, by the button', async () => {
    server.use(
      http.post(apiUrl('checkout/summary'), () => HttpResponse.json(summary)),
      http.post(apiUrl('checkout/subscribe'), () =>
        HttpResponse.json({ message: 'Este link de assinatura expirou ou já foi usado.' }, { status: 422 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    await user.click(await screen.findByRole('button', { name: 'Assinar' }));
    await waitFor(() => expect(screen.getAllByText('Este link de assinatura expirou ou já foi usado.')).toHaveLength(1));
    expect(screen.getByRole('alert').textContent).toBe('Este link de assinatura expirou ou já foi usado.');
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
    // The page says it; no toast repeats the server's words.
    expect(screen.queryByText('Este link de assinatura expirou ou já foi usado.')).toBeNull();
  });

  it('a server out of reach is not an invalid link: it can be asked again', async () => {
    let down = true;
    server.use(
      http.post(apiUrl('checkout/summary'), () => (down ? HttpResponse.json({}, { status: 503 }) : HttpResponse.json(summary))),
    );
    const user = userEvent.setup();
    renderApp('/checkout?token=abc');
    expect((await screen.findByRole('alert')).textContent).toBe('Ocorreu um erro ao chamar o serviço.');
    expect(screen.queryByText('Este link de assinatura é inválido, expirou ou já foi usado.')).toBeNull();
    down = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { name: 'Clube do corte' })).toBeTruthy();
  });
});
