import * as yup from 'yup';
import { PLAN_PAYMENT_METHODS } from '@/lib/club';
import { parseIsoDate } from '@/lib/rules';
import type { PlanDetail, PlanService } from './types';

// Spec 02 §5 'Plan form' and 'Plan service form'. Where the spec gives a limit without a
// message (name 60, description 150, discount and quantity 0-100) the server's message is used.
export const MSG = {
  description: 'Digite a descrição.',
  descriptionLong: 'A descrição deve ter no máximo 150 caracteres.',
  value: 'Digite o valor.',
  status: 'Selecione o status.',
  discount: 'Digite o desconto',
  discountRange: 'O desconto deve estar entre 0 e 100.',
  planName: 'Informe o nome do plano',
  planNameLong: 'O nome do plano deve ter no máximo 60 caracteres.',
  quantity: 'Digite a quantidade',
  quantityRange: 'A quantidade deve estar entre 0 e 100.',
  paymentMethod: 'Informe o método de pagamento.',
  periodicity: 'Informe a periodicidade.',
  date: 'Digite uma data válida',
  startAfterEnd: 'Data deve ser menor que data fim',
  endBeforeStart: 'Data deve ser maior que data inicio',
  outsideValidity: 'Data deve estar entre as data de inicio e fim de validada',
  companies: 'Informe pelo menos uma empresa',
  service: 'Escolha um serviço',
  serviceDiscount: 'Informe o valor do desconto',
  firstDueDays: 'O vencimento do primeiro boleto deve ser de 1 a 30 dias após a assinatura.',
} as const;

export const PLAN_NAME_MAX = 60;
export const PLAN_DESCRIPTION_MAX = 150;
/** Days from subscribing to the first boleto's due date: the server's range and default. */
export const FIRST_DUE_DAYS_MIN = 1;
export const FIRST_DUE_DAYS_MAX = 30;
export const FIRST_DUE_DAYS_DEFAULT = 3;
/** 'value' at most 10 characters (spec 02 §9): up to R$ 9.999.999,99 ('9999999.99'). */
export const PLAN_VALUE_MAX = 9_999_999.99;

export interface PlanFormValues {
  planName: string;
  description: string;
  /** Reais (the MoneyField's number). */
  value: number;
  /** '1' active, '0' inactive. */
  status: string;
  discount: number | '';
  allCompanies: boolean;
  companies: number[];
  partnerCompanies: number[];
  validityStart: string;
  validityEnd: string;
  advertisingStart: string;
  advertisingEnd: string;
  infiniteCharge: boolean;
  quantity: number | '';
  periodicity: string;
  paymentMethod: string;
  /** The plan accepts the other method too ('Aceitar também ...'). */
  acceptsOther: boolean;
  /** The other method's price, in reais (sent in `prices`). */
  otherValue: number;
  /** Days from subscribing to the first boleto's due date (a card is charged that day). */
  firstDueDays: number | '';
}

/** The method a plan may accept besides its main one; none until a main one is chosen. */
export function otherMethodOf(main: string): string | null {
  if (!PLAN_PAYMENT_METHODS.some((method) => method.value === main)) return null;
  return PLAN_PAYMENT_METHODS.find((method) => method.value !== main)?.value ?? null;
}

/** A real 'YYYY-MM-DD' after the year 1900 (spec 02 §9 'plan dates after 1900'). */
export const isPlanDate = (value: string) => (parseIsoDate(value)?.getUTCFullYear() ?? 0) > 1900;

const percent = (required: string) =>
  yup
    .mixed<number | ''>()
    .test('required', required, (value) => value !== '' && value !== undefined && value !== null)
    .test('range', MSG.discountRange, (value) => value === '' || value == null || (Number(value) >= 0 && Number(value) <= 100));

/** Both dates well formed: only then are they compared. */
const bothDates = (a: string | undefined, b: string | undefined) => !!a && !!b && isPlanDate(a) && isPlanDate(b);

export const planSchema = yup.object({
  planName: yup.string().trim().required(MSG.planName).max(PLAN_NAME_MAX, MSG.planNameLong),
  description: yup.string().trim().required(MSG.description).max(PLAN_DESCRIPTION_MAX, MSG.descriptionLong),
  value: yup
    .number()
    .typeError(MSG.value)
    .required(MSG.value)
    .moreThan(0, MSG.value)
    .max(PLAN_VALUE_MAX, MSG.value),
  status: yup.string().required(MSG.status).oneOf(['0', '1'], MSG.status),
  discount: percent(MSG.discount),
  allCompanies: yup.boolean().default(false),
  companies: yup
    .array(yup.number().required())
    .default([])
    .test('companies', MSG.companies, function (value) {
      return this.parent.allCompanies || (value?.length ?? 0) > 0;
    }),
  partnerCompanies: yup.array(yup.number().required()).default([]),
  validityStart: yup
    .string()
    .default('')
    .test('date', MSG.date, (value) => !!value && isPlanDate(value))
    .test('order', MSG.startAfterEnd, function (value) {
      const end: string = this.parent.validityEnd;
      return !bothDates(value, end) || value! <= end;
    }),
  validityEnd: yup
    .string()
    .default('')
    .test('date', MSG.date, (value) => !!value && isPlanDate(value))
    .test('order', MSG.endBeforeStart, function (value) {
      const start: string = this.parent.validityStart;
      return !bothDates(start, value) || value! >= start;
    }),
  advertisingStart: yup
    .string()
    .default('')
    .test('date', MSG.date, (value) => !value || isPlanDate(value))
    .test('order', MSG.startAfterEnd, function (value) {
      const end: string = this.parent.advertisingEnd;
      return !bothDates(value, end) || value! <= end;
    })
    .test('within', MSG.outsideValidity, function (value) {
      return withinValidity(value, this.parent);
    }),
  advertisingEnd: yup
    .string()
    .default('')
    .test('date', MSG.date, (value) => !value || isPlanDate(value))
    .test('order', MSG.endBeforeStart, function (value) {
      const start: string = this.parent.advertisingStart;
      return !bothDates(start, value) || value! >= start;
    })
    .test('within', MSG.outsideValidity, function (value) {
      return withinValidity(value, this.parent);
    }),
  infiniteCharge: yup.boolean().default(false),
  quantity: yup
    .mixed<number | ''>()
    .test('required', MSG.quantity, function (value) {
      return this.parent.infiniteCharge || (value !== '' && value !== undefined && value !== null);
    })
    .test('range', MSG.quantityRange, function (value) {
      return this.parent.infiniteCharge || value === '' || value == null || (Number(value) >= 0 && Number(value) <= 100);
    }),
  periodicity: yup.string().required(MSG.periodicity),
  paymentMethod: yup.string().required(MSG.paymentMethod).oneOf(['creditcard', 'boleto'], MSG.paymentMethod),
  acceptsOther: yup.boolean().default(false),
  // Checked only while there is another method to accept (a main one is chosen).
  otherValue: yup
    .number()
    .typeError(MSG.value)
    .test('value', MSG.value, function (value) {
      const parent = this.parent as PlanFormValues;
      if (!parent.acceptsOther || !otherMethodOf(parent.paymentMethod)) return true;
      return value != null && value > 0 && value <= PLAN_VALUE_MAX;
    }),
  firstDueDays: yup
    .mixed<number | ''>()
    .test(
      'range',
      MSG.firstDueDays,
      (value) =>
        typeof value === 'number' && Number.isInteger(value) && value >= FIRST_DUE_DAYS_MIN && value <= FIRST_DUE_DAYS_MAX,
    ),
}) as unknown as yup.ObjectSchema<PlanFormValues>;

/** An advertising date lies within a well-formed validity period. */
function withinValidity(value: string | undefined, parent: PlanFormValues) {
  const { validityStart: from, validityEnd: to } = parent;
  if (!value || !isPlanDate(value) || !bothDates(from, to) || from > to) return true;
  return value >= from && value <= to;
}

export const EMPTY_PLAN: PlanFormValues = {
  planName: '',
  description: '',
  value: 0,
  status: '1',
  discount: 0,
  allCompanies: false,
  companies: [],
  partnerCompanies: [],
  validityStart: '',
  validityEnd: '',
  advertisingStart: '',
  advertisingEnd: '',
  infiniteCharge: false,
  quantity: '',
  periodicity: 'monthly',
  paymentMethod: '',
  acceptsOther: false,
  otherValue: 0,
  firstDueDays: FIRST_DUE_DAYS_DEFAULT,
};

const day = (value: string | null | undefined) => (value ? value.slice(0, 10) : '');

export function planValues(plan: PlanDetail): PlanFormValues {
  const infinite = plan.InfiniteCharge ?? plan.Quantity === 0;
  const other = plan.Prices.find((price) => price.PaymentMethod !== plan.PaymentMethod);
  return {
    planName: plan.PlanName,
    description: plan.Description,
    value: plan.Value,
    status: String(plan.Status ? 1 : 0),
    discount: plan.Discount ?? 0,
    allCompanies: Boolean(plan.AllCompanies),
    companies: plan.AllCompanies ? [] : plan.companiesList.map((entry) => entry.Company.IdCompany),
    partnerCompanies: plan.partnerCompanyList.map((entry) => entry.PartnerCompany.IdPartnerCompany),
    validityStart: day(plan.ValidityStart),
    validityEnd: day(plan.ValidityEnd),
    advertisingStart: day(plan.AdvertisingStart),
    advertisingEnd: day(plan.AdvertisingEnd),
    infiniteCharge: infinite,
    quantity: infinite ? '' : plan.Quantity,
    periodicity: plan.Periodicity || 'monthly',
    paymentMethod: plan.PaymentMethod ?? '',
    acceptsOther: other != null,
    otherValue: other?.Value ?? 0,
    firstDueDays: plan.FirstDueDays ?? FIRST_DUE_DAYS_DEFAULT,
  };
}

export interface PlanImage {
  /** A newly picked file, sent as `file`. */
  file: File | null;
  /** The saved image is to be removed (`excludeFile`). */
  exclude: boolean;
}

/**
 * The multipart body of POST subscription-details and PUT subscription-details/{id}
 * (spec 02 §7): text fields, `companies`/`partnerCompanies` as JSON lists, the image.
 * An infinite plan sends quantity 0. `prices` lists the methods accepted besides the main
 * one (docs/club.md): `[]` when the plan accepts only its main method. `firstDueDays`: the
 * first boleto's due date, in days after subscribing.
 */
export function planFormData(values: PlanFormValues, id: number | null, image: PlanImage, itemsDetail = ''): FormData {
  const idSubscriptionDetail = id ?? 0;
  const other = values.acceptsOther ? otherMethodOf(values.paymentMethod) : null;
  const body = new FormData();
  const text: Record<string, string> = {
    planName: values.planName.trim(),
    description: values.description.trim(),
    value: values.value.toFixed(2),
    status: values.status,
    discount: String(values.discount),
    allCompanies: String(values.allCompanies),
    validityStart: values.validityStart,
    validityEnd: values.validityEnd,
    advertisingStart: values.advertisingStart,
    advertisingEnd: values.advertisingEnd,
    periodicity: values.periodicity,
    quantity: values.infiniteCharge ? '0' : String(values.quantity),
    itemsDetail,
    paymentMethod: values.paymentMethod,
    companies: JSON.stringify(
      (values.allCompanies ? [] : values.companies).map((idCompany) => ({ idCompany, idSubscriptionDetail })),
    ),
    partnerCompanies: JSON.stringify(
      values.partnerCompanies.map((idPartnerCompany) => ({ idPartnerCompany, idSubscriptionDetail })),
    ),
    prices: JSON.stringify(other ? [{ paymentMethod: other, value: values.otherValue.toFixed(2) }] : []),
    firstDueDays: String(values.firstDueDays),
  };
  for (const [name, value] of Object.entries(text)) body.append(name, value);
  if (image.file) body.append('file', image.file);
  else if (image.exclude) body.append('excludeFile', 'true');
  return body;
}

export interface PlanServiceValues {
  /** 0: none chosen ('Selecione'). */
  idService: number;
  discount: number | '';
}

export const planServiceSchema = yup.object({
  idService: yup
    .number()
    .typeError(MSG.service)
    .required(MSG.service)
    .notOneOf([0], MSG.service),
  discount: percent(MSG.serviceDiscount),
}) as unknown as yup.ObjectSchema<PlanServiceValues>;

export const planServiceValues = (service: PlanService | null): PlanServiceValues =>
  service ? { idService: service.IdService, discount: service.Discount } : { idService: 0, discount: '' };

/** Only ADMIN creates or edits plans and their services (spec 02 §6). */
export const mayEditPlans = (role: string | null) => role === 'ADMIN';

/** The image types and size the server takes (docs/club.md). */
export const PLAN_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const PLAN_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PLAN_IMAGE_REFUSED = 'Escolha uma imagem JPEG, PNG ou WebP de até 5 MB.';

export const imageRefusal = (file: File) =>
  !(PLAN_IMAGE_TYPES as readonly string[]).includes(file.type) || file.size > PLAN_IMAGE_MAX_BYTES ? PLAN_IMAGE_REFUSED : null;
