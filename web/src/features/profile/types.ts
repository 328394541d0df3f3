import type { AddressBody, AddressDto, PersonBody, PersonDto } from '@/api/types';

/** GET professional/my-profile (the fields the page uses). */
export interface MyProfile extends PersonDto, AddressDto {
  IdProfessional: number;
}

/** PUT professional/my-profile body. */
export type MyProfilePayload = PersonBody & AddressBody;
