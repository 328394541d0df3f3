// Input masks and Brazilian document rules (spec 01 §5 'Shared formats').

export const onlyDigits = (value: string) => value.replace(/\D/g, '');

/** Fills a pattern ('0' is a digit) with the digits typed so far. */
function fill(pattern: string, value: string): string {
  const digits = onlyDigits(value);
  let out = '';
  let next = 0;
  for (const char of pattern) {
    if (next >= digits.length) break;
    if (char === '0') {
      out += digits[next];
      next += 1;
    } else {
      out += char;
    }
  }
  return out;
}

export const maskCpf = (value: string) => fill('000.000.000-00', value);
export const maskCep = (value: string) => fill('00.000-000', value);

/**
 * CNPJ as typed: 99.999.999/9999-99, where the first 12 positions may also be letters
 * (the alphanumeric CNPJ issued from July 2026, e.g. 12.ABC.345/01DE-35). The two check
 * digits stay numeric.
 */
export function maskCnpj(value: string): string {
  const chars = value.toUpperCase().replace(/[^0-9A-Z]/g, '');
  let kept = '';
  for (const char of chars) {
    if (kept.length >= 14) break;
    if (kept.length >= 12 && !/\d/.test(char)) continue;
    kept += char;
  }
  const pattern = '00.000.000/0000-00';
  let out = '';
  let next = 0;
  for (const slot of pattern) {
    if (next >= kept.length) break;
    if (slot === '0') {
      out += kept[next];
      next += 1;
    } else {
      out += slot;
    }
  }
  return out;
}

/** A CNPJ's 14 characters without punctuation, letters upper-cased. */
export const cnpjCharacters = (value: string) => value.toUpperCase().replace(/[^0-9A-Z]/g, '');

/** Display of a stored CNPJ (digits or alphanumeric). */
export const formatCnpj = (value: string | null | undefined) => {
  const chars = cnpjCharacters(value ?? '');
  return chars.length === 14 ? maskCnpj(chars) : (value ?? '');
};
export const maskTime = (value: string) => fill('00:00', value);

/** (XX) XXXX-XXXX for 10 digits, (XX) XXXXX-XXXX for 11, while typing too. */
export function maskPhone(value: string): string {
  const digits = onlyDigits(value).slice(0, 11);
  return fill(digits.length > 10 ? '(00) 00000-0000' : '(00) 0000-0000', digits);
}

/** Phone display: 10 digits as (XX) XXXX-XXXX, 11 as (XX) XXXXX-XXXX, anything else as is. */
export function formatPhone(value: string | null | undefined): string {
  const digits = onlyDigits(value ?? '');
  if (digits.length === 10 || digits.length === 11) return maskPhone(digits);
  return value ?? '';
}

export const formatCpf = (value: string | null | undefined) => {
  const digits = onlyDigits(value ?? '');
  return digits.length === 11 ? maskCpf(digits) : (value ?? '');
};

export type MaskName = 'cpf' | 'cnpj' | 'cep' | 'phone' | 'time';

export const masks: Record<MaskName, (value: string) => string> = {
  cpf: maskCpf,
  cnpj: maskCnpj,
  cep: maskCep,
  phone: maskPhone,
  time: maskTime,
};

/** 11 digits, not all equal, both check digits right (modulus 11). */
export function isValidCpf(value: string): boolean {
  const digits = onlyDigits(value);
  if (digits.length !== 11 || /^(\d)\1{10}$/.test(digits)) return false;
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

/**
 * 14 characters with both check digits right (modulus 11). The first 12 may be letters
 * (alphanumeric CNPJ, Receita Federal's rule: each character weighs its ASCII code minus
 * 48, so digits keep their value); the last two are digits.
 */
export function isValidCnpj(value: string): boolean {
  const chars = cnpjCharacters(value);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(chars) || /^(\d)\1{13}$/.test(chars)) return false;
  const worth = (char: string) => char.charCodeAt(0) - 48;
  const check = (weights: number[]) => {
    const sum = weights.reduce((total, weight, i) => total + weight * worth(chars[i]), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return (
    check([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(chars[12]) &&
    check([6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(chars[13])
  );
}

/** 24-hour HH:MM, hours 00-23 and minutes 00-59. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const isValidTime = (value: string) => TIME_PATTERN.test(value);
