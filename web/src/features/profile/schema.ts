import * as yup from 'yup';
import { formatCpf, formatPhone, maskCep, onlyDigits } from '@/lib/masks';
import { professionalPersonalRules, type ProfessionalPersonalValues } from '@/lib/rules';
import type { MyProfile, MyProfilePayload } from './types';

/** The form's values: the personal data and address, as the professional form has them. */
export type ProfileFormValues = ProfessionalPersonalValues;

/** Spec 02 §5 'Professional and my profile' (the personal part). */
export const profileSchema = (now: () => Date = () => new Date()) =>
  yup.object({
    ...professionalPersonalRules(now),
  }) as yup.ObjectSchema<ProfileFormValues>;

/** The form's values of the loaded profile. */
export function profileValues(profile: MyProfile): ProfileFormValues {
  return {
    name: profile.Name ?? '',
    cpf: formatCpf(profile.Cpf),
    email: profile.Email ?? '',
    phone: formatPhone(profile.Phone),
    whatsApp: Boolean(profile.WhatsApp),
    birthDate: profile.BirthDate ? profile.BirthDate.slice(0, 10) : '',
    cep: maskCep(profile.Cep ?? ''),
    street: profile.Street ?? '',
    number: profile.Number ?? '',
    complement: profile.Complement ?? '',
    district: profile.District ?? '',
    city: profile.City ?? '',
    state: profile.State || '--',
  };
}

/** Body of PUT professional/my-profile: digits for CPF, phone and CEP. */
export function profilePayload(values: ProfileFormValues): MyProfilePayload {
  return {
    name: values.name.trim().split(/\s+/).join(' '),
    email: values.email.trim(),
    cpf: onlyDigits(values.cpf),
    phone: onlyDigits(values.phone),
    whatsApp: values.whatsApp,
    birthDate: values.birthDate || null,
    cep: onlyDigits(values.cep),
    street: values.street.trim(),
    number: values.number.trim(),
    complement: values.complement.trim(),
    district: values.district.trim(),
    city: values.city.trim(),
    state: values.state,
  };
}
