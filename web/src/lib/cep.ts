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

/**
 * The address of a CEP; null when it has not 8 digits, does not exist, or the lookup
 * fails (network down, 400, timeout): the form then stays usable and the user types it.
 */
export async function lookupCep(cep: string, fetchImpl: typeof fetch = fetch): Promise<CepAddress | null> {
  const digits = onlyDigits(cep);
  if (digits.length !== 8) return null;
  try {
    const response = await fetchImpl(`${CEP_BASE_PATH}/${digits}/json/`, { signal: AbortSignal.timeout(8_000) });
    if (!response.ok) return null;
    return addressFromViaCep((await response.json()) as ViaCepAnswer);
  } catch {
    return null;
  }
}
