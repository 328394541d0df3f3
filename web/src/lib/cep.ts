import { onlyDigits } from './masks';

/**
 * Where postal codes are looked up: the gateway (or nginx in production) forwards
 * `/cep/{cep}/json/` to ViaCEP (`NAVALHA_CEP_URL`), so the browser talks only to its own
 * origin and the lookup is tested against a local server speaking ViaCEP's contract.
 */
export const CEP_BASE_PATH = '/cep';

export interface CepAddress {
  street: string;
  district: string;
  city: string;
  state: string;
}

/**
 * What a lookup learnt: the address; that the CEP does not exist (`notFound`: ViaCEP's
 * `erro`, a 400 for a malformed CEP, the gateway's 404); or nothing (`failed`: network down,
 * timeout, 5xx, an unreadable answer), which says nothing about the CEP itself.
 */
export type CepLookup = { status: 'found'; address: CepAddress } | { status: 'notFound' } | { status: 'failed' };

/** ViaCEP's answer: the address, or `erro` (true, or "true" in its older answers). */
interface ViaCepAnswer {
  logradouro?: string;
  bairro?: string;
  localidade?: string;
  uf?: string;
  erro?: boolean | string;
}

/** Reads a ViaCEP answer: null when it says the CEP does not exist. */
export function addressFromViaCep(answer: ViaCepAnswer): CepAddress | null {
  if (answer.erro === true || answer.erro === 'true') return null;
  if (!answer.uf) return null;
  return {
    street: answer.logradouro ?? '',
    district: answer.bairro ?? '',
    city: answer.localidade ?? '',
    state: answer.uf,
  };
}

/** The answers that mean "no such CEP" rather than "could not ask". */
const NOT_FOUND_STATUSES = [400, 404];

/**
 * Looks a CEP up. A CEP without 8 digits is `notFound` without asking. The caller decides
 * what each outcome does to the form; none of them throws.
 */
export async function lookupCep(cep: string, fetchImpl: typeof fetch = fetch): Promise<CepLookup> {
  const digits = onlyDigits(cep);
  if (digits.length !== 8) return { status: 'notFound' };
  try {
    const response = await fetchImpl(`${CEP_BASE_PATH}/${digits}/json/`, { signal: AbortSignal.timeout(8_000) });
    if (NOT_FOUND_STATUSES.includes(response.status)) return { status: 'notFound' };
    if (!response.ok) return { status: 'failed' };
    const address = addressFromViaCep((await response.json()) as ViaCepAnswer);
    return address ? { status: 'found', address } : { status: 'notFound' };
  } catch {
    return { status: 'failed' };
  }
}
