import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CARD_REFUSED_BY_TOKENIZER,
  cardDataComplete,
  CardTokenizerError,
  loadTokenizer,
  resetTokenizerForTests,
  SCRIPT_FAILED,
  tokenizeCard,
  type CardData,
} from './cardTokenizer';

const CONFIG = { ScriptUrl: 'http://sim.test/checkout.min.js', PublicToken: 'pub-123', Production: false };
const CARD: CardData = { number: '4111 1111 1111 1111', holder: ' JOAO C ', expiresAt: '2030-12', cvv: '123' };

/** A stand-in for the provider's `GalaxPay` class, answering with `answer`. */
function fakeGalaxPay(answer: (card: Record<string, string>) => { hash?: string; error?: unknown; throws?: boolean }) {
  const made: { token: string; production: boolean }[] = [];
  const cards: Record<string, string>[] = [];
  class GalaxPay {
    constructor(token: string, production: boolean) {
      made.push({ token, production });
    }
    newCard(card: Record<string, string>) {
      if (answer(card).throws) throw new Error('bad card');
      cards.push(card);
      return { wrapped: card };
    }
    hashCreditCard(card: { wrapped: Record<string, string> }, ok: (hash: string) => void, fail: (error: unknown) => void) {
      const result = answer(card.wrapped);
      setTimeout(() => (result.hash ? ok(result.hash) : fail(result.error)), 0);
    }
  }
  return { GalaxPay, made, cards };
}

const scripts = () => [...document.head.querySelectorAll('script')].filter((s) => s.src === CONFIG.ScriptUrl);

afterEach(() => {
  delete window.GalaxPay;
  resetTokenizerForTests();
  document.head.querySelectorAll('script').forEach((script) => script.remove());
  vi.useRealTimers();
});

describe('card data check', () => {
  it('wants a number, a holder, a YYYY-MM expiry and a CVV', () => {
    expect(cardDataComplete(CARD)).toBe(true);
    expect(cardDataComplete({ ...CARD, number: '4111' })).toBe(false);
    expect(cardDataComplete({ ...CARD, number: '4111 1111 1111 111x' })).toBe(false);
    expect(cardDataComplete({ ...CARD, holder: '  ' })).toBe(false);
    expect(cardDataComplete({ ...CARD, expiresAt: '12/2030' })).toBe(false);
    expect(cardDataComplete({ ...CARD, expiresAt: '2030-13' })).toBe(false);
    expect(cardDataComplete({ ...CARD, cvv: '12' })).toBe(false);
    expect(cardDataComplete({ ...CARD, cvv: '1234' })).toBe(true);
  });
});

describe('card tokenizer', () => {
  it('injects the script once, then hashes the card with the public token', async () => {
    const fake = fakeGalaxPay(() => ({ hash: 'hash-abc' }));
    const first = tokenizeCard(CONFIG, CARD);
    const second = loadTokenizer(CONFIG.ScriptUrl);
    expect(scripts()).toHaveLength(1);
    // The browser runs the script: it defines the class, then fires load.
    window.GalaxPay = fake.GalaxPay as never;
    scripts()[0].dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe('hash-abc');
    await expect(second).resolves.toBe(fake.GalaxPay);
    expect(fake.made).toEqual([{ token: 'pub-123', production: false }]);
    // Digits only, trimmed.
    expect(fake.cards).toEqual([{ number: '4111111111111111', holder: 'JOAO C', expiresAt: '2030-12', cvv: '123' }]);

    await expect(tokenizeCard(CONFIG, CARD)).resolves.toBe('hash-abc');
    expect(scripts()).toHaveLength(1);
  });

  it('a script that fails to load says so, and a retry injects it again', async () => {
    const attempt = tokenizeCard(CONFIG, CARD);
    scripts()[0].dispatchEvent(new Event('error'));
    await expect(attempt).rejects.toMatchObject({ kind: 'script', message: SCRIPT_FAILED });
    expect(scripts()).toHaveLength(0);

    const retry = loadTokenizer(CONFIG.ScriptUrl);
    expect(scripts()).toHaveLength(1);
    // Loaded, but it defined no GalaxPay: the same failure.
    scripts()[0].dispatchEvent(new Event('load'));
    await expect(retry).rejects.toBeInstanceOf(CardTokenizerError);
  });

  it('a card the provider refuses, or cannot even read, is a card error', async () => {
    window.GalaxPay = fakeGalaxPay((card) =>
      card.cvv === '000' ? { throws: true } : { error: { message: 'Cartão inválido 4111111111111111' } },
    ).GalaxPay as never;
    await expect(tokenizeCard(CONFIG, CARD)).rejects.toMatchObject({ kind: 'card', message: CARD_REFUSED_BY_TOKENIZER });
    await expect(tokenizeCard(CONFIG, { ...CARD, cvv: '000' })).rejects.toMatchObject({ kind: 'card' });
    // Already on the page: nothing injected.
    expect(scripts()).toHaveLength(0);
  });

  it('a hash that never comes back ends the wait', async () => {
    vi.useFakeTimers();
    class Silent {
      newCard() {
        return {};
      }
      hashCreditCard() {}
    }
    window.GalaxPay = Silent as never;
    const attempt = tokenizeCard(CONFIG, CARD);
    const outcome = expect(attempt).rejects.toMatchObject({ kind: 'script' });
    await vi.advanceTimersByTimeAsync(30_000);
    await outcome;
  });
});
