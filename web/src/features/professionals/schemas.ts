import * as yup from 'yup';
import { isValidTime } from '@/lib/masks';
import { parseIsoDate, professionalPersonalRules, whenFilled, type ProfessionalPersonalValues } from '@/lib/rules';
import { PALETTE_HEX } from './palette';

// The professional form and the day-off form with spec 02 §5's messages (the server,
// domain/src/professional.rs and domain/src/day_off.rs, applies the same rules and texts).

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
