import * as yup from 'yup';
import { isValidTime } from '@/lib/masks';

// Spec 02 §5 'Working-hours day' and 'Service'. The server (domain::validation::working_day
// and professional_service) applies the same rules with the same texts.

export const PERIODS = ['first', 'second', 'third'] as const;
export type DayField = `${(typeof PERIODS)[number]}${'Start' | 'End'}`;
export const DAY_FIELDS: readonly DayField[] = PERIODS.flatMap((p) => [`${p}Start`, `${p}End`] as DayField[]);

/** The six 'HH:MM' fields of one day ('' is empty). */
export type DayForm = Record<DayField, string>;

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * Every message of one day, by field (the first one each field gets). A period needs both
 * ends; a later period needs the one before it filled and must start after it ends. The
 * third period's "later than the second" message is not in the spec: 'Deve ser maior que
 * final do segundo' (as the server says).
 */
export function dayErrors(day: Partial<DayForm>): Partial<Record<DayField, string>> {
  const errors: Partial<Record<DayField, string>> = {};
  const add = (field: DayField, message: string) => {
    errors[field] ??= message;
  };
  let previousFilled = true;
  let previousEnd: number | null = null;
  PERIODS.forEach((period, index) => {
    const startField = `${period}Start` as DayField;
    const endField = `${period}End` as DayField;
    const start = day[startField]?.trim() ?? '';
    const end = day[endField]?.trim() ?? '';
    if (!start && !end) {
      previousFilled = false;
      previousEnd = null;
      return;
    }
    if (!previousFilled) add(startField, index === 1 ? 'Preencha o primeiro horário' : 'Preencha o segundo horário');
    if (start && !isValidTime(start)) add(startField, 'Formato incorreto.');
    if (end && !isValidTime(end)) add(endField, 'Formato incorreto.');
    if (!start) add(startField, 'Preencha a horário de início');
    if (!end) add(endField, 'Preencha a horário de fim');
    const startOk = !!start && isValidTime(start);
    const endOk = !!end && isValidTime(end);
    if (startOk && endOk) {
      if (minutes(end) <= minutes(start)) add(endField, 'Horário final menor que inicial');
      if (previousEnd !== null && minutes(start) <= previousEnd)
        add(startField, index === 1 ? 'Deve ser maior que final do primeiro' : 'Deve ser maior que final do segundo');
      previousEnd = minutes(end);
    } else {
      previousEnd = null;
    }
    previousFilled = true;
  });
  return errors;
}

const dayFieldRule = (field: DayField) =>
  yup
    .string()
    .default('')
    .test(field, function check() {
      const message = dayErrors(this.parent as DayForm)[field];
      return message ? this.createError({ message }) : true;
    });

/** One professional working day: three optional periods (no period at all is a day off). */
export const workingDaySchema = yup.object({
  firstStart: dayFieldRule('firstStart'),
  firstEnd: dayFieldRule('firstEnd'),
  secondStart: dayFieldRule('secondStart'),
  secondEnd: dayFieldRule('secondEnd'),
  thirdStart: dayFieldRule('thirdStart'),
  thirdEnd: dayFieldRule('thirdEnd'),
});

/** One period (start/end), the same rules with one period (the company day). */
export const periodSchema = yup.object({
  start: yup
    .string()
    .default('')
    .test('start', function check() {
      const message = dayErrors({ firstStart: this.parent.start, firstEnd: this.parent.end }).firstStart;
      return message ? this.createError({ message }) : true;
    }),
  end: yup
    .string()
    .default('')
    .test('end', function check() {
      const message = dayErrors({ firstStart: this.parent.start, firstEnd: this.parent.end }).firstEnd;
      return message ? this.createError({ message }) : true;
    }),
});

/** Largest service time, in minutes (spec 02 §9). */
export const SERVICE_MAX_MINUTES = 999;
/** The longest 'Intervalo após', in minutes (spec 02's service, issue 45). */
export const SERVICE_MAX_INTERVAL_AFTER = 120;
/** Money input max length (digits): R$ 9.999.999,99, the server's limit too. */
export const SERVICE_MONEY_MAX_DIGITS = 9;

/** The professional-service form. `time` is '' while empty; `status` 'true' | 'false'. */
export interface ServiceFormValues {
  idService: number;
  time: number | '';
  value: number | '';
  status: string;
  /** 'Intervalo após' in minutes, '' for none. */
  intervalAfter: number | '';
}

export const serviceSchema = yup.object({
  idService: yup.number().default(0).typeError('Escolha um serviço').moreThan(0, 'Escolha um serviço'),
  time: yup
    .mixed<number | ''>()
    .test('required', 'O campo Tempo é obrigatório', (v) => v !== '' && v !== undefined && v !== null)
    .test('min', 'O tempo não pode ser 0', (v) => v === '' || v === undefined || v === null || Number(v) >= 1)
    .test('max', 'O tempo deve ser de no máximo 999 minutos', (v) => typeof v !== 'number' || v <= SERVICE_MAX_MINUTES),
  value: yup
    .mixed<number | ''>()
    .test('required', 'O campo Valor é obrigatório', (v) => v !== '' && v !== undefined && v !== null)
    .test('positive', 'O valor precisa ser maior que 0', (v) => typeof v !== 'number' || v > 0),
  status: yup.string().required('Escolha um Status').oneOf(['true', 'false'], 'Escolha um Status'),
  // 'Intervalo após' (issue 45): empty is none.
  intervalAfter: yup
    .mixed<number | ''>()
    .test('range', 'O intervalo deve ser de 0 a 120 minutos', (v) => typeof v !== 'number' || (v >= 0 && v <= SERVICE_MAX_INTERVAL_AFTER)),
});
