import * as yup from 'yup';
import { isValidCnpj, isValidCpf, onlyDigits } from './masks';
import { EMAIL_PATTERN } from './validation';

// Field rules shared by the back office's schemas, with spec 02 §5's messages. The server
// (domain/src/validation.rs) applies the same rules with the same texts.

/** Mirrors yup's "only when filled" so an empty field only gets its 'required' message. */
export const whenFilled = (test: (value: string) => boolean) => (value: string | undefined | null) =>
  !value || test(value);

/** At least two words of `minLength` characters or more. */
export const isFullName = (value: string, minLength: number) =>
  value.trim().split(/\s+/).filter((word) => [...word].length >= minLength).length >= 2;

/** 11 digits, area code not starting with 0 or 9, number starting with 9. */
export function isMobile(value: string): boolean {
  const digits = onlyDigits(value);
  return digits.length === 11 && !'09'.includes(digits[0]) && digits[1] !== '0' && digits[2] === '9';
}

/** The sample CPF forms show as a hint; never a real one (spec 02 §5). */
export const SAMPLE_CPF = '01234567890';

export const nameRule = (required: string, minLength: number, message = required) =>
  yup
    .string()
    .trim()
    .required(required)
    .test('full', message, whenFilled((v) => isFullName(v, minLength)));

export const emailRule = () =>
  yup
    .string()
    .trim()
    .required('Digite o e-mail')
    .matches(EMAIL_PATTERN, { message: 'E-mail inválido', excludeEmptyString: true });

export const mobileRule = () =>
  yup.string().required('Digite o número do celular').test('mobile', 'Informe um número válido', whenFilled(isMobile));

export const cpfRule = () =>
  yup
    .string()
    .required('Digite o CPF')
    .test('cpf', 'CPF inválido', whenFilled((v) => onlyDigits(v) !== SAMPLE_CPF && isValidCpf(v)));

export const cnpjRule = () => yup.string().required('CNPJ inválido').test('cnpj', 'CNPJ inválido', whenFilled(isValidCnpj));

/** 'YYYY-MM-DD' (a date input's value) as a UTC date, or null. */
export function parseIsoDate(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}

/** Today at UTC-3 as 'YYYY-MM-DD'. */
export const unitTodayIso = (now: Date) => new Date(now.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);

/** Client: optional; '-' is empty; year above 1900 and not in the future. */
export const clientBirthDateRule = (now: () => Date = () => new Date()) =>
  yup
    .string()
    .default('')
    .test(
      'date',
      'Digite uma data válida',
      (v) => !v || v === '-' || ((parseIsoDate(v)?.getUTCFullYear() ?? 0) > 1900 && v <= unitTodayIso(now())),
    );

/** Professional and my profile: required; year above 1900 and before the current year minus 10. */
export const professionalBirthDateRule = (now: () => Date = () => new Date()) =>
  yup
    .string()
    .required('Data de nascimento inválida')
    .test('date', 'Data de nascimento inválida', (v) => {
      const year = v && v !== '-' ? parseIsoDate(v)?.getUTCFullYear() : undefined;
      return !!year && year > 1900 && year < Number(unitTodayIso(now()).slice(0, 4)) - 10;
    });

/** Street number: 1 to 99999. */
export const streetNumberRule = () =>
  yup
    .string()
    .required('Digite um número válido.')
    .test('number', 'Digite um número válido.', (v) => !!v && /^\d{1,5}$/.test(v.trim()) && Number(v) > 0);

/** An address block (CEP, street, number, district, city, UF); `zipField` names the CEP field. */
export const addressRules = <Z extends string>(zipField: Z) =>
  ({
    [zipField]: yup
      .string()
      .required('Digite o CEP')
      .test('cep', 'CEP inválido', whenFilled((v) => onlyDigits(v).length === 8)),
    street: yup
      .string()
      .trim()
      .required('Digite o nome da rua completo')
      .test('street', 'Digite o nome da rua completo', (v) => !!v && v.trim().split(/\s+/).length >= 2),
    number: streetNumberRule(),
    district: yup.string().trim().required('Digite o bairro'),
    city: yup.string().trim().required('Digite a cidade'),
    state: yup.string().required('Escolha um estado').notOneOf(['--'], 'Escolha um estado'),
    complement: yup.string().default(''),
  }) as Record<Z | 'street' | 'number' | 'district' | 'city' | 'state' | 'complement', yup.StringSchema>;

/** The 27 states, after the '--' placeholder (spec 02 §3). */
export const STATES = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
] as const;
export const STATE_OPTIONS = [{ value: '--', label: 'Selecione' }, ...STATES.map((uf) => ({ value: uf, label: uf }))];

/** A person's personal-data fields in a form (masked text, '' when empty). */
export interface PersonalValues {
  name: string;
  cpf: string;
  email: string;
  phone: string;
  whatsApp: boolean;
  birthDate: string;
}

/** An address block in a form, with its CEP field named `cep` ('--' is the unchosen state). */
export interface AddressValues {
  cep: string;
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  state: string;
}

/** The values `professionalPersonalRules` checks. */
export type ProfessionalPersonalValues = PersonalValues & AddressValues;

/** A professional's personal data and address (the professional form and 'Meu perfil'). */
export const professionalPersonalRules = (now: () => Date = () => new Date()) => ({
  // Two words of at least 2 characters, as the server checks.
  name: nameRule('Digite o nome completo', 2),
  cpf: cpfRule(),
  email: emailRule(),
  phone: mobileRule(),
  whatsApp: yup.boolean().default(false),
  birthDate: professionalBirthDateRule(now),
  ...addressRules('cep'),
});
