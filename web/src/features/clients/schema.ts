import * as yup from 'yup';
import { formatCpf, formatPhone, onlyDigits } from '@/lib/masks';
import { clientBirthDateRule, cpfRule, emailRule, mobileRule, nameRule, type PersonalValues } from '@/lib/rules';
import type { ClientDetail, ClientPayload } from './types';

export interface ClientFormValues extends PersonalValues {
  /** 'true' | 'false'; '' is the unchosen placeholder. */
  status: string;
}

/**
 * How the form takes the CPF: 'required' when registering; 'optional' when editing a record
 * without one (a client added at the desk, issue 45: the server records it once); 'locked'
 * when editing a record that has one (disabled, and sent as null).
 */
export type CpfField = 'required' | 'optional' | 'locked';

/** The CPF field of the form for a loaded client, or for a new one (null). */
export const cpfFieldOf = (client: Pick<ClientDetail, 'Cpf'> | null): CpfField =>
  client === null ? 'required' : client.Cpf ? 'locked' : 'optional';

/** Spec 02 §5 'Client', with the CPF checked as `cpf` says. */
export const clientSchema = (cpf: CpfField, now: () => Date = () => new Date()) =>
  yup.object({
    // Two words longer than 2 characters, as the server checks.
    name: nameRule('Digite o nome completo', 3),
    cpf: cpf === 'required' ? cpfRule() : cpf === 'optional' ? cpfRule().notRequired() : yup.string().default(''),
    email: emailRule(),
    phone: mobileRule(),
    whatsApp: yup.boolean().default(false),
    birthDate: clientBirthDateRule(now),
    status: yup.string().required('Escolha um Status').oneOf(['true', 'false'], 'Escolha um Status'),
  }) as yup.ObjectSchema<ClientFormValues>;

export const EMPTY_CLIENT: ClientFormValues = {
  name: '',
  cpf: '',
  email: '',
  phone: '',
  whatsApp: true,
  birthDate: '',
  status: 'true',
};

/** The form's values of a loaded client. */
export function clientValues(client: ClientDetail): ClientFormValues {
  return {
    name: client.Name ?? '',
    cpf: formatCpf(client.Cpf),
    email: client.Email ?? '',
    phone: formatPhone(client.Phone),
    whatsApp: Boolean(client.WhatsApp),
    birthDate: client.BirthDate ? client.BirthDate.slice(0, 10) : '',
    status: client.Status === false ? 'false' : 'true',
  };
}

/**
 * Body of POST user/professional and PUT user/{id}: the CPF's digits, or null when the field
 * is locked (a record with a CPF) or left empty (an optional one).
 */
export function clientPayload(values: ClientFormValues, cpf: CpfField): ClientPayload {
  const birthDate = values.birthDate.trim();
  return {
    name: values.name.trim().split(/\s+/).join(' '),
    cpf: cpf === 'locked' ? null : onlyDigits(values.cpf) || null,
    email: values.email.trim(),
    phone: onlyDigits(values.phone),
    whatsApp: values.whatsApp,
    birthDate: birthDate && birthDate !== '-' ? birthDate : null,
    status: values.status === 'true',
  };
}

/** Whether a loaded record still lacks what the desk leaves for later (issue 45): its e-mail or CPF. */
export const isIncomplete = (client: Pick<ClientDetail, 'Email' | 'Cpf'>) => !client.Email?.trim() || !client.Cpf?.trim();

/** How the read-only login type reads (spec 02 leaves the labels open). */
export function loginTypeLabel(loginType: string | null | undefined): string {
  switch ((loginType ?? 'PASSWORD').toUpperCase()) {
    case 'PASSWORD':
      return 'E-mail e senha';
    case 'GOOGLE':
      return 'Google';
    case 'FACEBOOK':
      return 'Facebook';
    case 'APPLE':
      return 'Apple';
    default:
      return loginType ?? '';
  }
}

/** 'dd/mm/aaaa hh:mm' at UTC-3 of an ISO date-time, '-' when absent. */
export function lastAccessLabel(value: string | null | undefined): string {
  if (!value) return '-';
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  const local = new Date(at.getTime() - 3 * 3_600_000).toISOString();
  return `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 16)}`;
}

/** Roles that may open the client form to save it and remove social logins (spec 02 §6). */
export const mayEditClients = (role: string | null) => role === 'ADMIN' || role === 'ATTENDANT';

/** Roles that reach the subscribers' detail screen (spec 02 §6). */
export const reachesSubscriptions = (role: string | null) =>
  role === 'ADMIN' || role === 'DEFAULT' || role === 'ATTENDANT' || role === 'BARBER_LEADE';
