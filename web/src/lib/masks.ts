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
export const maskCnpj = (value: string) => fill('00.000.000/0000-00', value);
export const maskCep = (value: string) => fill('00000-000', value);
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

/** 14 digits with both check digits right. */
export function isValidCnpj(value: string): boolean {
  const digits = onlyDigits(value);
  if (digits.length !== 14 || /^(\d)\1{13}$/.test(digits)) return false;
  const check = (weights: number[]) => {
    const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return (
    check([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[12]) &&
    check([6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(digits[13])
  );
}

/** 24-hour HH:MM, hours 00-23 and minutes 00-59. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const isValidTime = (value: string) => TIME_PATTERN.test(value);
