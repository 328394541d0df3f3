import type { CompanyDto, LoginResponse, RoleType } from '@/api/types';
import type { RootState } from '@/app/store';
import { initialSessionState, type SessionState } from '@/state/sessionSlice';

export const ownCompany: CompanyDto = {
  IdCompany: 1,
  Name: 'Navalha Centro',
  City: 'São Paulo',
  State: 'SP',
  Status: true,
};

export const otherCompany: CompanyDto = {
  IdCompany: 2,
  Name: 'Navalha Praia',
  City: 'Santos',
  State: 'SP',
  Status: true,
};

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
    role: user.Role ?? null,
    ...overrides,
  });
}
