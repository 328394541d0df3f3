import * as yup from 'yup';
import type { RoleType } from '@/api/types';
import { maskCpf, maskPhone, onlyDigits } from '@/lib/masks';
import { cpfRule, mobileRule, nameRule } from '@/lib/rules';
import type { ClientItem } from './types';

// Issue 45, the front desk's speed: a new client registered from the client search with a
// name and a mobile (and the CPF if the client says it), without leaving the booking. The
// client form completes the record later (POST user/quick).

export const QUICK_CLIENT_CREATED = 'Cliente cadastrado.';

/** The roles the server lets register a client (the others keep the registration page). */
export const mayRegisterClients = (role: RoleType | null) => role === 'ADMIN' || role === 'ATTENDANT';

export interface QuickClientValues {
  name: string;
  phone: string;
  /** Masked as typed; '' when the client does not say it. */
  cpf: string;
  whatsApp: boolean;
}

/** The client form's rules and messages for the name, the mobile and a CPF when given. */
export const quickClientSchema = yup.object({
  name: nameRule('Digite o nome completo', 3),
  phone: mobileRule(),
  cpf: cpfRule().notRequired(),
  whatsApp: yup.boolean().default(true),
}) as yup.ObjectSchema<QuickClientValues>;

/** A masked CPF as the search box takes one (what the search finds by). */
const MASKED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
/** Digits as a phone is typed: numbers, spaces, brackets, dashes and a plus. */
const PHONE_LIKE = /^[\d\s()+-]+$/;

/**
 * The form's first values from what was typed in the search: a name goes to 'Nome completo',
 * digits to 'Celular' (a masked CPF, unmistakable, to the CPF); the box's WhatsApp starts checked.
 */
export function quickClientPrefill(search: string): QuickClientValues {
  const text = search.trim();
  const empty = { name: '', phone: '', cpf: '', whatsApp: true };
  if (!text) return empty;
  if (MASKED_CPF.test(text)) return { ...empty, cpf: maskCpf(text) };
  if (PHONE_LIKE.test(text) && /\d/.test(text)) return { ...empty, phone: maskPhone(text) };
  return { ...empty, name: text };
}

/** The body of POST user/quick: one space between names, digits, and a null CPF when not given. */
export function quickClientPayload(values: QuickClientValues) {
  return {
    name: values.name.trim().split(/\s+/).join(' '),
    phone: onlyDigits(values.phone),
    cpf: onlyDigits(values.cpf) || null,
    whatsApp: values.whatsApp,
  };
}

/** The registered client as the search lists it, to choose it at once. */
export function quickClientItem(idUser: number, payload: ReturnType<typeof quickClientPayload>): ClientItem {
  return {
    IdUser: idUser,
    Name: payload.name,
    Phone: payload.phone,
    Email: '',
    Cpf: payload.cpf ?? '',
    Status: true,
    SubscriptionUser: [],
    Unconfirmed: false,
    // A new client has missed nothing yet (issue 44).
    NoShows: 0,
    NoShowsLast90Days: 0,
  };
}
