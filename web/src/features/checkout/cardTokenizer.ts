// Browser-side card tokenization with the payment provider's checkout.js (GalaxPay/Celcoin):
// the card goes from the browser to the provider, which answers a hash; Navalha's server only
// ever sees the hash. The script defines a global class `GalaxPay` (provider-sim serves one
// with the same API).

import type { Schemas } from '@/api/wire';

/** What the tokenizer takes; kept in the page's state only, never sent to Navalha. */
export interface CardData {
  number: string;
  holder: string;
  /** 'YYYY-MM' (the page converts the MM/AA the client types, see cardInput.ts). */
  expiresAt: string;
  cvv: string;
}

/** `CardTokenizer` of POST checkout/summary. */
export type CardTokenizerConfig = Schemas['CardTokenizer'];

interface GalaxPayCard {
  number: string;
  holder: string;
  expiresAt: string;
  cvv: string;
}

interface GalaxPayClient {
  newCard(card: GalaxPayCard): unknown;
  hashCreditCard(card: unknown, onSuccess: (hash: string) => void, onError: (error: unknown) => void): void;
}

type GalaxPayConstructor = new (publicToken: string, production: boolean) => GalaxPayClient;

declare global {
  interface Window {
    GalaxPay?: GalaxPayConstructor;
  }
}

export const CARD_DATA_MISSING = 'Informe os dados do cartão: número, nome impresso, validade (MM/AA) e CVV.';
export const SCRIPT_FAILED = 'Não foi possível carregar o pagamento por cartão. Tente novamente.';
export const CARD_REFUSED_BY_TOKENIZER = 'Não foi possível validar o cartão. Confira os dados.';

/** A hash that never comes back is treated like a script that did not load. */
export const TOKENIZE_TIMEOUT_MS = 30_000;

/** Why no hash: the script did not load (try again) or the provider refused the card data. */
export class CardTokenizerError extends Error {
  constructor(readonly kind: 'script' | 'card') {
    super(kind === 'script' ? SCRIPT_FAILED : CARD_REFUSED_BY_TOKENIZER);
    this.name = 'CardTokenizerError';
  }
}

/** The four fields filled in plausibly: checked before the provider is asked. */
export function cardDataComplete(card: CardData): boolean {
  const number = card.number.replace(/[\s.-]/g, '');
  return (
    /^\d{13,19}$/.test(number) &&
    card.holder.trim() !== '' &&
    /^\d{4}-(0[1-9]|1[0-2])$/.test(card.expiresAt.trim()) &&
    /^\d{3,4}$/.test(card.cvv.trim())
  );
}

// One load per script address; a failed load is forgotten so that a retry injects it again.
const loads = new Map<string, Promise<GalaxPayConstructor>>();

/** Injects the provider's script once and resolves with its `GalaxPay` class. */
export function loadTokenizer(scriptUrl: string): Promise<GalaxPayConstructor> {
  const known = loads.get(scriptUrl);
  if (known) return known;
  // Already on the page (loaded before, or by the page's host).
  if (window.GalaxPay) return Promise.resolve(window.GalaxPay);
  const load = new Promise<GalaxPayConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.onload = () => {
      if (window.GalaxPay) resolve(window.GalaxPay);
      else fail();
    };
    script.onerror = () => fail();
    function fail() {
      loads.delete(scriptUrl);
      script.remove();
      reject(new CardTokenizerError('script'));
    }
    document.head.appendChild(script);
  });
  loads.set(scriptUrl, load);
  return load;
}

/** The provider's hash of the card, or a CardTokenizerError. */
export async function tokenizeCard(config: CardTokenizerConfig, card: CardData): Promise<string> {
  const GalaxPay = await loadTokenizer(config.ScriptUrl);
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CardTokenizerError('script')), TOKENIZE_TIMEOUT_MS);
    const done = () => clearTimeout(timer);
    try {
      const galaxPay = new GalaxPay(config.PublicToken, config.Production);
      const galaxCard = galaxPay.newCard({
        number: card.number.replace(/[\s.-]/g, ''),
        holder: card.holder.trim(),
        expiresAt: card.expiresAt.trim(),
        cvv: card.cvv.trim(),
      });
      galaxPay.hashCreditCard(
        galaxCard,
        (hash) => {
          done();
          if (typeof hash === 'string' && hash !== '') resolve(hash);
          else reject(new CardTokenizerError('card'));
        },
        // The provider's reason may echo the card data: it is not shown or logged.
        () => {
          done();
          reject(new CardTokenizerError('card'));
        },
      );
    } catch {
      done();
      reject(new CardTokenizerError('card'));
    }
  });
}

/** Forgets loaded scripts (tests). */
export function resetTokenizerForTests() {
  loads.clear();
}
