import type { Schemas } from '@/api/wire';

/** GET professional/my-profile: the professional form's data, as GET professional/{id} answers it. */
export type MyProfile = Schemas['ProfessionalDetail'];

/** PUT professional/my-profile body: the personal data and address of the professional's form. */
export type MyProfilePayload = Pick<
  Schemas['ProfessionalForm'],
  'name' | 'cpf' | 'email' | 'phone' | 'whatsApp' | 'birthDate' | 'cep' | 'street' | 'number' | 'complement' | 'district' | 'city' | 'state'
>;

/** The answer of PUT professional/my-profile. */
export type MyProfileWritten = Schemas['IdProfessional'];
