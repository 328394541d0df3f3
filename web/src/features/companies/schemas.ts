import * as yup from 'yup';
import { isValidTime } from '@/lib/masks';
import { addressRules, cnpjRule, emailRule, mobileRule, whenFilled } from '@/lib/rules';

// Spec 02 §5 'Company' and 'Working-hours day' (company day: one period). The server
// (domain/src/company.rs) applies the same rules with the same texts.

/** Online booking (issue 18): the unit's rules, their bounds and the server's messages. */
export const ONLINE_CUTOFF_MAX = 72;
export const ONLINE_LIMIT_MAX = 10;
export const ONLINE_CUTOFF_MESSAGE = 'Informe um prazo de 0 a 72 horas';
export const ONLINE_LIMIT_MESSAGE = 'Informe de 1 a 10 agendamentos';
/** Issue 39: the share of a day newcomers' online bookings may hold, in percent. */
export const ONLINE_SHARE_MESSAGE = 'Informe um percentual de 0 a 100';
/** Issue 44: after how many 'Não compareceu' in 90 days a client may not book online; 0 never blocks. */
export const ONLINE_NO_SHOW_LIMIT_MAX = 20;
export const ONLINE_NO_SHOW_LIMIT_MESSAGE = 'Informe de 0 a 20 faltas (0 não bloqueia)';
/** What a unit starts with (the server's defaults). */
export const ONLINE_DEFAULTS = {
  onlineCancelCutoffHours: 2,
  onlineMaxFutureBookings: 2,
  onlineNewcomerSharePercent: 30,
  onlineNoShowLimit: 0,
} as const;

/** Issue 41: the most an ATTENDANT may discount on a comanda, in percent (ADMIN is never capped). */
export const DISCOUNT_CAP_MESSAGE = 'Informe um desconto máximo de 0 a 100%';
/** What a unit starts with: 100% is no cap (the server's default). */
export const DISCOUNT_CAP_DEFAULT = 100;

/** Issue 42: the card machine's fee of a payment, in percent with two decimals (3,49). */
export const CARD_FEE_MESSAGE = 'Informe uma taxa de 0 a 20%, com até duas casas decimais.';
export const CLUB_FIXED_MESSAGE = 'Informe o valor fixo por serviço do clube.';

/** '3,49' or '3.49' as a number; null when it is not a percentage with at most two decimals. */
export function percentOf(text: string): number | null {
  const normalized = text.trim().replace(',', '.');
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(normalized)) return null;
  return Number(normalized);
}

/** A number as the fee field shows it: 3.49 → '3,49'. */
export const percentText = (value: number) => String(value).replace('.', ',');

const cardFee = () =>
  yup
    .string()
    .default('0')
    .test('fee', CARD_FEE_MESSAGE, (value) => {
      const percent = percentOf(value ?? '');
      return percent !== null && percent <= 20;
    });

/** A whole number from `min` to `max`; empty is out of range too. */
const wholeNumber = (min: number, max: number, message: string) =>
  yup
    .mixed<number | ''>()
    .test('range', message, (value) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max);

export const companySchema = yup.object({
  name: yup.string().trim().required('Digite o nome da barbearia'),
  cnpj: cnpjRule(),
  email: emailRule(),
  phone: mobileRule(),
  whatsApp: yup.boolean().default(false),
  // 'true' / 'false' from the select; 'Escolha um Status' only if it is ever left empty.
  status: yup.string().required('Escolha um Status').oneOf(['true', 'false'], 'Escolha um Status'),
  // Messages the spec does not give: the server's (docs/back-office.md).
  facebook: yup.string().trim().required('Informe o link do Facebook'),
  instagram: yup.string().trim().required('Informe o link do Instagram'),
  observation: yup.string().default(''),
  ...addressRules('zipCode'),
  // Named as the body's fields, so that the server's 422 lands on them.
  onlineCancelCutoffHours: wholeNumber(0, ONLINE_CUTOFF_MAX, ONLINE_CUTOFF_MESSAGE),
  onlineMaxFutureBookings: wholeNumber(1, ONLINE_LIMIT_MAX, ONLINE_LIMIT_MESSAGE),
  onlineNewcomerSharePercent: wholeNumber(0, 100, ONLINE_SHARE_MESSAGE),
  onlineNoShowLimit: wholeNumber(0, ONLINE_NO_SHOW_LIMIT_MAX, ONLINE_NO_SHOW_LIMIT_MESSAGE),
  attendantDiscountCapPercent: wholeNumber(0, 100, DISCOUNT_CAP_MESSAGE),
  // Issue 42: commissions.
  cardFeeCreditPercent: cardFee(),
  cardFeeDebitPercent: cardFee(),
  clubCommissionRule: yup.string().oneOf(['plan', 'fixed']).default('plan'),
  clubCommissionFixed: yup
    .number()
    .default(0)
    .when('clubCommissionRule', {
      is: 'fixed',
      then: (rule) => rule.moreThan(0, CLUB_FIXED_MESSAGE),
    }),
  commissionPeriod: yup.string().oneOf(['week', 'fortnight', 'month']).default('month'),
  // Issue 43: the unit sells products it has no stock of (the quantity goes negative).
  allowNegativeStock: yup.boolean().default(false),
  // Issue 44 ('Lembretes'): WhatsApp reminders 24 and 2 hours before an appointment.
  remindersBefore24h: yup.boolean().default(false),
  remindersBefore2h: yup.boolean().default(false),
  // '' lets the server take the zone of the state and city (issue 39).
  timeZone: yup.string().default(''),
});

export type CompanyFormValues = yup.InferType<typeof companySchema>;

export const EMPTY_COMPANY: CompanyFormValues = {
  name: '',
  cnpj: '',
  email: '',
  phone: '',
  whatsApp: false,
  // Spec 02 §4: a new unit is active.
  status: 'true',
  facebook: '',
  instagram: '',
  observation: '',
  zipCode: '',
  street: '',
  number: '',
  complement: '',
  district: '',
  city: '',
  state: '--',
  timeZone: '',
  ...ONLINE_DEFAULTS,
  attendantDiscountCapPercent: DISCOUNT_CAP_DEFAULT,
  cardFeeCreditPercent: '0',
  cardFeeDebitPercent: '0',
  clubCommissionRule: 'plan',
  clubCommissionFixed: 0,
  commissionPeriod: 'month',
  allowNegativeStock: false,
  // A new unit sends no reminders until they are turned on (the server's default).
  remindersBefore24h: false,
  remindersBefore2h: false,
};

/** The usual commission period's options. */
export const COMMISSION_PERIOD_OPTIONS = [
  { value: 'week', label: 'Semana' },
  { value: 'fortnight', label: 'Quinzena' },
  { value: 'month', label: 'Mês' },
];

/** How the club's covered services earn. */
export const CLUB_RULE_OPTIONS = [
  { value: 'plan', label: 'Pela comissão do profissional' },
  { value: 'fixed', label: 'Valor fixo por serviço' },
];

/**
 * One period of a weekday. Both empty closes the day (the server reads it so); one of them
 * alone asks for the other.
 */
export const companyDaySchema = yup.object({
  start: yup
    .string()
    .default('')
    .test('format', 'Formato incorreto.', whenFilled(isValidTime))
    .test('required', 'Preencha a horário de início', function (start) {
      return !!start || !this.parent.end;
    }),
  end: yup
    .string()
    .default('')
    .test('format', 'Formato incorreto.', whenFilled(isValidTime))
    .test('required', 'Preencha a horário de fim', function (end) {
      return !!end || !this.parent.start;
    })
    .test('after', 'Horário final menor que inicial', function (end) {
      const start: string = this.parent.start ?? '';
      // 'HH:MM' strings compare as times.
      return !end || !isValidTime(end) || !isValidTime(start) || end > start;
    }),
});

export type CompanyDayValues = yup.InferType<typeof companyDaySchema>;
