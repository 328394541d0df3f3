// Wire shapes of the HTTP contract (responses are PascalCase, requests camelCase).

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

/** Error body of every failed call. */
export interface ApiErrorBody {
  message?: string;
  errors?: Record<string, string>;
}
