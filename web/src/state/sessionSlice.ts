import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CompanyDto, FavoriteMenu, LoginResponse, LoginUser, Role, SessionCompany } from '@/api/wire';
import { DEFAULT_TIME_ZONE } from '@/lib/dates';

/**
 * A company as the app keeps it: canHide is true when the user does not belong to it. Member
 * and TimeZone come from GET company: a sign-in answer's unit standing in, or a session kept
 * from before them, has none.
 */
export type Company = SessionCompany & Partial<Pick<CompanyDto, 'Member' | 'TimeZone'>> & { canHide: boolean };

/** A sign-in answer as the session takes it: complete registration keeps no role (spec 01 §3). */
export type SignInAnswer = Omit<LoginResponse, 'user'> & {
  user: Omit<LoginUser, 'Role'> & { Role?: LoginUser['Role'] | null };
};

export interface SessionState {
  token: string | null;
  userName: string;
  userEmail: string;
  idProfessional: number | null;
  /** The user's own companies, from the sign-in answer. */
  companies: SessionCompany[];
  role: Role | null;
  /** Every company the user may see (GET company), with canHide derived. */
  companyList: Company[];
  selectedCompany: Company | null;
  menuFavorite: FavoriteMenu[];
}

export const initialSessionState: SessionState = {
  token: null,
  userName: '',
  userEmail: '',
  idProfessional: null,
  companies: [],
  role: null,
  companyList: [],
  selectedCompany: null,
  menuFavorite: [],
};

/** Reads a favourite; entries persisted from older answers carry `slug`. */
export const slugOfFavorite = (favorite: Partial<FavoriteMenu> & { slug?: string }): string =>
  favorite.MenuSlug ?? favorite.slug ?? '';

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    signedIn(_state, action: PayloadAction<SignInAnswer>) {
      const { Token, user } = action.payload;
      return {
        ...initialSessionState,
        token: Token,
        userName: user.Name,
        userEmail: user.Email,
        idProfessional: user.IdProfessional ?? null,
        companies: user.Companies ?? [],
        // The menus know the role codes; the answer documents Type as any text.
        role: (user.Role as Role | null | undefined) ?? null,
      };
    },
    signedOut() {
      return initialSessionState;
    },
    companiesLoaded(state, action: PayloadAction<CompanyDto[]>) {
      const own = new Set(state.companies.map((c) => c.IdCompany));
      // The server says who belongs where now (a unit the user just registered included).
      state.companyList = action.payload.map((c) => ({ ...c, canHide: !(c.Member ?? own.has(c.IdCompany)) }));
      // The first own company, unless the user already chose one that is still theirs (a
      // screen re-reading the list must not undo the user's choice).
      const kept = state.companyList.find((c) => !c.canHide && c.IdCompany === state.selectedCompany?.IdCompany);
      state.selectedCompany = kept ?? state.companyList.find((c) => !c.canHide) ?? null;
    },
    companySelected(state, action: PayloadAction<number>) {
      const company = state.companyList.find((c) => c.IdCompany === action.payload);
      // Only companies the user belongs to can be the selected one.
      if (company && !company.canHide) state.selectedCompany = company;
    },
    favoritesLoaded(state, action: PayloadAction<FavoriteMenu[]>) {
      state.menuFavorite = action.payload;
    },
  },
  selectors: {
    selectToken: (state) => state.token,
    selectIsSignedIn: (state) => Boolean(state.token),
    selectUserName: (state) => state.userName,
    selectRoleType: (state) => state.role?.Type ?? null,
    selectCompanyList: (state) => state.companyList,
    selectSelectedCompany: (state) => state.selectedCompany,
    /** The selected unit's time zone, as GET company last said (a session kept from before it: São Paulo's). */
    selectUnitTimeZone: (state) =>
      state.companyList.find((c) => c.IdCompany === state.selectedCompany?.IdCompany)?.TimeZone ??
      state.selectedCompany?.TimeZone ??
      DEFAULT_TIME_ZONE,
    selectFavoriteSlugs: createSelector([(state: SessionState) => state.menuFavorite], (favorites) =>
      favorites.map(slugOfFavorite),
    ),
  },
});

export const { signedIn, signedOut, companiesLoaded, companySelected, favoritesLoaded } =
  sessionSlice.actions;
export const {
  selectToken,
  selectIsSignedIn,
  selectUserName,
  selectRoleType,
  selectCompanyList,
  selectSelectedCompany,
  selectUnitTimeZone,
  selectFavoriteSlugs,
} = sessionSlice.selectors;
