// The card fields as a Brazilian client types them: the number in blocks of 4 and the
// validity as MM/AA, as printed on the card. The tokenizer takes digits and 'AAAA-MM'.

import { onlyDigits } from '@/lib/masks';

export const EXPIRY_INVALID = 'Validade inválida. Use MM/AA.';
export const CARD_EXPIRED = 'Cartão vencido.';

/** Card numbers run from 13 to 19 digits (ISO/IEC 7812). */
export const CARD_NUMBER_MAX_DIGITS = 19;
/** 19 digits and the 4 spaces between their blocks. */
export const CARD_NUMBER_MAX_LENGTH = CARD_NUMBER_MAX_DIGITS + 4;
/** 'MM/AA'. */
export const EXPIRY_LENGTH = 5;

/** '4111111111111111' → '4111 1111 1111 1111' (digits only, at most 19). */
export function formatCardNumber(text: string): string {
  return onlyDigits(text).slice(0, CARD_NUMBER_MAX_DIGITS).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * What the validity field shows for `text` typed over `previous`: digits with the slash put in
 * after the month. An erased slash is not put back, or the user could never erase past it.
 */
export function formatExpiry(text: string, previous = ''): string {
  // '1/' means January: the slash typed after one digit closes the month.
  const single = /^(\d)\/$/.exec(text);
  if (single) return `0${single[1]}/`;
  const digits = onlyDigits(text).slice(0, 4);
  if (digits.length > 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  if (digits.length === 2 && (text.length > previous.length || text.endsWith('/'))) return `${digits}/`;
  return digits;
}

/** 'MM/AA' → the tokenizer's 'AAAA-MM' (cards of this century), or null if not shaped so. */
export function expiryForTokenizer(expiry: string): string | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry.trim());
  return match ? `20${match[2]}-${match[1]}` : null;
}

/** Why a typed validity cannot be used on `today` ('YYYY-MM-DD'), or null: a card is valid through its month. */
export function expiryProblem(expiry: string, today: string): string | null {
  const tokenizer = expiryForTokenizer(expiry);
  if (!tokenizer) return EXPIRY_INVALID;
  const month = Number(tokenizer.slice(5));
  if (month < 1 || month > 12) return EXPIRY_INVALID;
  return tokenizer < today.slice(0, 7) ? CARD_EXPIRED : null;
}
