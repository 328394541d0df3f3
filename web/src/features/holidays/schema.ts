import * as yup from 'yup';
import { isValidTime } from '@/lib/masks';
import { parseIsoDate } from '@/lib/rules';
import type { Holiday, HolidayPayload } from './types';

export interface HolidayFormValues {
  description: string;
  startDate: string;
  endDate: string;
  allCompanies: boolean;
  idsCompanies: number[];
  /** 'true': all day; 'false': a time window (the radio's value). */
  allDay: 'true' | 'false';
  startTime: string;
  endTime: string;
}

export const COMPANY_REQUIRED = 'Informe pelo menos uma empresa';

/** A real 'YYYY-MM-DD' after the year 2000 (spec 02 §9). */
const isDateAfter2000 = (value: string) => (parseIsoDate(value)?.getUTCFullYear() ?? 0) > 2000;
const hasLongWord = (value: string) => value.trim().split(/\s+/).some((word) => [...word].length > 2);
const timeWindow = (parent: { allDay?: string }) => parent.allDay !== 'true';

const timeRule = (required: string) =>
  yup
    .string()
    .default('')
    .test('required', required, function (value) {
      return !timeWindow(this.parent) || !!value;
    })
    .test('format', 'Formato incorreto.', function (value) {
      return !timeWindow(this.parent) || !value || isValidTime(value);
    });

/** Spec 02 §5 'Holiday form', with its messages. */
export const holidaySchema = yup.object({
  description: yup
    .string()
    .trim()
    .required('Digite a descrição do feriado')
    .test('word', 'Digite uma descrição válida', (value) => !value || hasLongWord(value)),
  startDate: yup
    .string()
    .required('Digite o início')
    .test('date', 'Digite uma data válida', (value) => !value || isDateAfter2000(value)),
  endDate: yup
    .string()
    .required('Digite o fim')
    .test('date', 'Digite uma data válida', (value) => !value || isDateAfter2000(value))
    .test('order', 'Data deve ser maior ou igual à data inicio', function (value) {
      const start: string = this.parent.startDate;
      return !value || !start || !isDateAfter2000(start) || !isDateAfter2000(value) || value >= start;
    }),
  allCompanies: yup.boolean().default(false),
  idsCompanies: yup
    .array(yup.number().required())
    .default([])
    .test('companies', COMPANY_REQUIRED, function (value) {
      return this.parent.allCompanies || (value?.length ?? 0) > 0;
    }),
  allDay: yup.string().oneOf(['true', 'false']).required(),
  startTime: timeRule('Digite o horário inicial'),
  endTime: timeRule('Digite o horário final').test(
    'after',
    'Horário deve ser maior que horário início',
    function (value) {
      const { startDate, endDate, startTime } = this.parent as HolidayFormValues;
      if (!timeWindow(this.parent) || !value || !startTime || !isValidTime(value) || !isValidTime(startTime)) return true;
      // Only a same-day window must end after it starts.
      return startDate !== endDate || value > startTime;
    },
  ),
}) as yup.ObjectSchema<HolidayFormValues>;

export const EMPTY_HOLIDAY: HolidayFormValues = {
  description: '',
  startDate: '',
  endDate: '',
  allCompanies: false,
  idsCompanies: [],
  allDay: 'true',
  startTime: '',
  endTime: '',
};

export function holidayValues(holiday: Holiday): HolidayFormValues {
  return {
    description: holiday.Description,
    startDate: holiday.StartDate.slice(0, 10),
    endDate: holiday.EndDate.slice(0, 10),
    allCompanies: Boolean(holiday.AllCompanies),
    idsCompanies: holiday.AllCompanies ? [] : holiday.Companies.map((company) => company.IdCompany),
    allDay: holiday.AllDay ? 'true' : 'false',
    startTime: holiday.StartTime ?? '',
    endTime: holiday.EndTime ?? '',
  };
}

/** Body of POST holiday and PUT holiday/{id}: times null when all-day, no units with allCompanies. */
export function holidayPayload(values: HolidayFormValues): HolidayPayload {
  const allDay = values.allDay === 'true';
  return {
    description: values.description.trim().split(/\s+/).join(' '),
    startDate: values.startDate,
    endDate: values.endDate,
    allDay,
    startTime: allDay ? null : values.startTime,
    endTime: allDay ? null : values.endTime,
    allCompanies: values.allCompanies,
    idsCompanies: values.allCompanies ? [] : values.idsCompanies,
  };
}

/** Only ADMIN creates, edits or deletes holidays (spec 02 §6). */
export const mayEditHolidays = (role: string | null) => role === 'ADMIN';
