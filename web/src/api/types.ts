// Wire shapes of the HTTP contract (responses are PascalCase, requests camelCase). The ones
// generated from the APIs' documents are named in wire.ts.
import type { ErrorBody } from './wire';

export type RoleType = 'ADMIN' | 'ATTENDANT' | 'BARBER_LEADE' | 'BARBER1' | 'BARBER2' | 'DEFAULT';

export interface Role {
  IdTypeProfile: number;
  Type: RoleType;
  Description: string;
}

export interface CompanyDto {
  IdCompany: number;
  Name: string;
  City: string;
  State: string;
  Status: boolean;
  /** Whether the user belongs to the unit (GET company only); only those can be selected. */
  Member?: boolean;
  /** The unit's IANA time zone (GET company; issue 39): its agenda's clock and today. */
  TimeZone?: string;
}

export interface LoginUser {
  Name: string;
  Email: string;
  IdProfessional: number | null;
  Companies: CompanyDto[];
  /** Absent after complete registration. */
  Role?: Role | null;
}

export interface LoginResponse {
  Token: string;
  user: LoginUser;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface SocialLoginRequest {
  idUser: string;
  socialMedia: 'google';
  /** The provider's access token; the server checks who owns it (ADR 0002). */
  accessToken: string;
}

/** One favourite entry; the server answers MenuSlug, older payloads used slug. */
export interface FavoriteMenu {
  MenuSlug?: string;
  slug?: string;
}

/** Error body of every failed call, read defensively (a proxy's error page has none). */
export type ApiErrorBody = Partial<ErrorBody>;

/** A page of a paginated list (GET .../filter and the like). */
export interface Page<T> {
  content: T[];
  total: number;
  count: number;
}

/**
 * A person's personal data as the answers carry it: clients (users) and professionals alike.
 * Lists and other calls carry a part of it (`Pick`).
 */
export interface PersonDto {
  Name: string;
  Cpf: string;
  Email: string;
  Phone: string;
  WhatsApp: boolean;
  BirthDate: string | null;
}

/** A user (client) as a list row carries them: GET user/filter and the like. */
export interface UserRowDto extends Pick<PersonDto, 'Name' | 'Phone' | 'Email' | 'Cpf'> {
  IdUser: number;
}

/** A person's postal address as the answers carry it; null where it was never filled in. */
export interface AddressDto {
  Cep: string | null;
  Street: string | null;
  Number: string | null;
  District: string | null;
  City: string | null;
  State: string | null;
  Complement: string | null;
}

/** A person's personal data as the bodies carry it (digits only in cpf and phone). */
export interface PersonBody {
  name: string;
  cpf: string;
  email: string;
  phone: string;
  whatsApp: boolean;
  birthDate: string | null;
}

/** A person's postal address as the bodies carry it (digits only in cep). */
export interface AddressBody {
  cep: string;
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  state: string;
}
