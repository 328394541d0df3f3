import * as yup from 'yup';
import { isValidTime } from '@/lib/masks';
import { formatBRL } from '@/lib/money';
import { parseIsoDate, professionalPersonalRules, whenFilled, type ProfessionalPersonalValues } from '@/lib/rules';
import { PALETTE_HEX } from './palette';

// The professional form and the day-off form with spec 02 §5's messages (the server,
// domain/src/professional.rs and domain/src/day_off.rs, applies the same rules and texts),
// and the commission form (issue 42) with domain/src/commission.rs's.

export interface ProfessionalValues extends ProfessionalPersonalValues {
  /** Select values are strings; '0' is 'not chosen'. */
  idCompany: string;
  color: string;
  idTypeProfile: string;
  status: string;
}

export const emptyProfessional: ProfessionalValues = {
  name: '',
  cpf: '',
  email: '',
  phone: '',
  whatsApp: false,
  birthDate: '',
  cep: '',
  street: '',
  number: '',
  complement: '',
  district: '',
  city: '',
  state: '--',
  idCompany: '0',
  color: '',
  idTypeProfile: '0',
  // Spec 02 §4: a professional is created pending.
  status: '0',
};

const chosen = (message: string) =>
  yup
    .string()
    .required(message)
    .test('chosen', message, (v) => !!v && v !== '0');

export const professionalSchema = (now: () => Date = () => new Date()) =>
  yup.object({
    ...professionalPersonalRules(now),
    idCompany: chosen('Escolha a empresa'),
    color: yup
      .string()
      .required('Informe uma cor')
      .test('palette', 'Informe uma cor', (v) => !!v && PALETTE_HEX.includes(v.toUpperCase())),
    idTypeProfile: chosen('Informe o perfil'),
    status: yup.string().required('Escolha um Status').oneOf(['0', '1', '2'], 'Escolha um Status'),
  }) as yup.ObjectSchema<ProfessionalValues>;

export interface DayOffValues {
  description: string;
  dateStart: string;
  dateEnd: string;
  allDay: boolean;
  startTime: string;
  endTime: string;
}

export const emptyDayOff: DayOffValues = {
  description: '',
  dateStart: '',
  dateEnd: '',
  allDay: true,
  startTime: '',
  endTime: '',
};

/** A date input's value with a year above 2000 (spec 02 §9). */
const after2000 = (v: string) => (parseIsoDate(v)?.getUTCFullYear() ?? 0) > 2000;

/** A time the window needs: required and HH:MM unless the day off is all-day. */
const windowTime = (required: string) =>
  yup
    .string()
    .default('')
    .when('allDay', {
      is: false,
      then: (rule) => rule.required(required).test('time', 'Formato incorreto.', whenFilled(isValidTime)),
    });

export const dayOffSchema = () =>
  yup.object({
    description: yup
      .string()
      .trim()
      .required('Digite a descrição da folga/férias')
      .test(
        'word',
        'Digite uma descrição válida',
        whenFilled((v) => v.split(/\s+/).some((word) => [...word].length > 2)),
      ),
    dateStart: yup.string().required('Digite a data de início').test('date', 'Digite uma data válida', whenFilled(after2000)),
    dateEnd: yup
      .string()
      .required('Digite a data de fim')
      .test('date', 'Digite uma data válida', whenFilled(after2000))
      .test('order', 'Data deve ser maior ou igual à data inicio', function (v) {
        const start = this.parent.dateStart as string;
        return !v || !start || !after2000(start) || !after2000(v) || v >= start;
      }),
    allDay: yup.boolean().default(true),
    startTime: windowTime('Digite o horário inicial'),
    endTime: windowTime('Digite o horário final').test(
      'after',
      'Horário deve ser maior que horário início',
      function (v) {
        const { allDay, dateStart, dateEnd, startTime } = this.parent as DayOffValues;
        if (allDay || !v || !isValidTime(v) || !isValidTime(startTime) || dateStart !== dateEnd) return true;
        return v > startTime;
      },
    ),
  }) as yup.ObjectSchema<DayOffValues>;

// --- Commission rates (issue 42). ----------------------------------------------------------

/** The server's messages (domain::commission, domain::money::check_amount). */
export const COMMISSION_MSG = {
  percent: 'Informe uma porcentagem de 0 a 100, com até duas casas decimais.',
  service: 'Escolha o serviço.',
  serviceTwice: 'Este serviço já tem uma comissão própria.',
  fixedNegative: 'O valor não pode ser negativo.',
  fixedMax: `O valor deve ser de no máximo ${formatBRL(100_000)}.`,
};

/** The largest fixed amount the server takes, in reais (domain::money::MAX_CENTS). */
export const COMMISSION_FIXED_MAX = 100_000;

/** How a service is paid: a share of the line, or a fixed amount per unit. */
export type CommissionKind = 'percent' | 'fixed';

export const COMMISSION_KIND_OPTIONS: { value: CommissionKind; label: string }[] = [
  { value: 'percent', label: 'Porcentagem' },
  { value: 'fixed', label: 'Valor fixo' },
];

/** A row of 'Comissão por serviço'; only the field of its kind is sent. */
export interface ServiceRateValues {
  /** 0: not chosen. */
  idService: number;
  kind: CommissionKind;
  /** As typed: '40', '12,5'. */
  percent: string;
  /** Reais. */
  fixed: number;
}

export interface CommissionValues {
  servicePercent: string;
  productPercent: string;
  cardFeeShared: boolean;
  partner: boolean;
  services: ServiceRateValues[];
}

export const emptyServiceRate: ServiceRateValues = { idService: 0, kind: 'percent', percent: '', fixed: 0 };

/** '12,5' or '12.5' as a number; NaN when it is not one. */
export const parsePercent = (text: string) => {
  const trimmed = text.trim();
  return /^\d+([.,]\d+)?$/.test(trimmed) ? Number(trimmed.replace(',', '.')) : Number.NaN;
};

/** 0 to 100 with at most two decimals (trailing zeros aside: '12,50' is 12,5), as the server reads it. */
export const isPercent = (text: string) => {
  const trimmed = text.trim();
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(trimmed);
  if (!match || (match[2] ?? '').replace(/0+$/, '').length > 2) return false;
  const value = parsePercent(trimmed);
  return value >= 0 && value <= 100;
};

/** A percent of the answer as typed in pt-BR: 12.5 → '12,5'. */
export const percentText = (value: number) => String(value).replace('.', ',');

const percentRule = () => yup.string().default('').test('percent', COMMISSION_MSG.percent, (v) => isPercent(v ?? ''));

const serviceRateSchema = yup.object({
  idService: yup.number().default(0).test('chosen', COMMISSION_MSG.service, (v) => !!v && v > 0),
  kind: yup.string().oneOf(['percent', 'fixed']).required(),
  percent: yup
    .string()
    .default('')
    .test('percent', COMMISSION_MSG.percent, function (v) {
      return (this.parent as ServiceRateValues).kind !== 'percent' || isPercent(v ?? '');
    }),
  fixed: yup
    .number()
    .default(0)
    .test('range', function (v) {
      if ((this.parent as ServiceRateValues).kind !== 'fixed') return true;
      const value = v ?? 0;
      if (value < 0) return this.createError({ message: COMMISSION_MSG.fixedNegative });
      return value <= COMMISSION_FIXED_MAX || this.createError({ message: COMMISSION_MSG.fixedMax });
    }),
});

export const commissionSchema = () =>
  yup.object({
    servicePercent: percentRule(),
    productPercent: percentRule(),
    cardFeeShared: yup.boolean().default(false),
    partner: yup.boolean().default(false),
    services: yup
      .array()
      .of(serviceRateSchema)
      .default([])
      // One rate per service: a later row of the same service is the one in the wrong (as the server says).
      .test('unique', function (rows) {
        const seen = new Set<number>();
        const errors: yup.ValidationError[] = [];
        (rows ?? []).forEach((row, index) => {
          if (!row.idService) return;
          if (seen.has(row.idService)) {
            errors.push(this.createError({ path: `${this.path}[${index}].idService`, message: COMMISSION_MSG.serviceTwice }));
          }
          seen.add(row.idService);
        });
        return errors.length ? new yup.ValidationError(errors) : true;
      }),
  }) as unknown as yup.ObjectSchema<CommissionValues>;
