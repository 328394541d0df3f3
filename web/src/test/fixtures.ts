import type { RoleType } from '@/api/types';
import type { CompanyDto, LoginResponse, SessionCompany } from '@/api/wire';
import type { RootState } from '@/app/store';
import { initialSessionState, type SessionState } from '@/state/sessionSlice';

/** A unit of the sign-in answer. */
export const ownCompany: SessionCompany = {
  IdCompany: 1,
  Name: 'Navalha Centro',
  City: 'São Paulo',
  State: 'SP',
  Status: true,
};

export const otherCompany: SessionCompany = {
  IdCompany: 2,
  Name: 'Navalha Praia',
  City: 'Santos',
  State: 'SP',
  Status: true,
};

/** A unit as GET company lists it. */
export const companyItem = (company: SessionCompany, member: boolean): CompanyDto => ({
  ...company,
  Member: member,
  TimeZone: 'America/Sao_Paulo',
});

export function loginResponse(type: RoleType = 'ADMIN'): LoginResponse {
  return {
    Token: 'token-123',
    user: {
      Name: 'Admin Navalha',
      Email: 'admin@navalha.dev',
      IdProfessional: 7,
      Companies: [ownCompany],
      Role: { IdTypeProfile: 1, Type: type, Description: type },
    },
  };
}

/** A preloaded session slice (persisted slices carry redux-persist's marker). */
export function sessionState(overrides: Partial<SessionState> = {}): RootState['session'] {
  return { ...initialSessionState, ...overrides } as RootState['session'];
}

export function signedInSession(type: RoleType = 'ADMIN', overrides: Partial<SessionState> = {}) {
  const { Token, user } = loginResponse(type);
  return sessionState({
    token: Token,
    userName: user.Name,
    userEmail: user.Email,
    idProfessional: user.IdProfessional,
    companies: user.Companies,
    role: { ...user.Role, Type: type },
    ...overrides,
  });
}
