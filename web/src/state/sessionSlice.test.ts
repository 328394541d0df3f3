import { describe, expect, it } from 'vitest';
import { companyItem, loginResponse, otherCompany, ownCompany } from '@/test/fixtures';
import {
  companiesLoaded,
  companySelected,
  favoritesLoaded,
  initialSessionState,
  sessionSlice,
  signedIn,
  signedOut,
  slugOfFavorite,
  type SignInAnswer,
} from './sessionSlice';

const reduce = sessionSlice.reducer;

describe('session slice', () => {
  it('stores the user of the sign-in answer', () => {
    const state = reduce(undefined, signedIn(loginResponse('BARBER1')));
    expect(state).toMatchObject({
      token: 'token-123',
      userName: 'Admin Navalha',
      userEmail: 'admin@navalha.dev',
      idProfessional: 7,
      companies: [ownCompany],
      role: { Type: 'BARBER1' },
    });
  });

  it('keeps no role when the answer has none (complete registration)', () => {
    const answer: SignInAnswer = loginResponse();
    delete answer.user.Role;
    expect(reduce(undefined, signedIn(answer)).role).toBeNull();
  });

  it('forgets everything on sign-out', () => {
    let state = reduce(undefined, signedIn(loginResponse()));
    state = reduce(state, favoritesLoaded([{ MenuSlug: 'scheduling' }]));
    expect(reduce(state, signedOut())).toEqual(initialSessionState);
  });

  it('marks companies the user does not belong to as canHide and selects the first own one', () => {
    let state = reduce(undefined, signedIn(loginResponse()));
    state = reduce(state, companiesLoaded([companyItem(otherCompany, false), companyItem(ownCompany, true)]));
    expect(state.companyList.map((c) => [c.IdCompany, c.canHide])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(state.selectedCompany?.IdCompany).toBe(1);
  });

  it('trusts the server on membership over the sign-in answer (a unit registered since)', () => {
    let state = reduce(undefined, signedIn(loginResponse()));
    state = reduce(state, companiesLoaded([companyItem(ownCompany, false), companyItem(otherCompany, true)]));
    expect(state.companyList.map((c) => [c.IdCompany, c.canHide])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(state.selectedCompany?.IdCompany).toBe(2);
  });

  it('selects nothing when the user belongs to none of the companies', () => {
    let state = reduce(undefined, signedIn({ ...loginResponse(), user: { ...loginResponse().user, Companies: [] } }));
    state = reduce(state, companiesLoaded([companyItem(otherCompany, false)]));
    expect(state.selectedCompany).toBeNull();
  });

  it('keeps the chosen company when the list is read again', () => {
    let state = reduce(undefined, signedIn({ ...loginResponse(), user: { ...loginResponse().user, Companies: [ownCompany, otherCompany] } }));
    state = reduce(state, companiesLoaded([companyItem(ownCompany, true), companyItem(otherCompany, true)]));
    state = reduce(state, companySelected(2));
    state = reduce(state, companiesLoaded([companyItem(ownCompany, true), companyItem(otherCompany, true)]));
    expect(state.selectedCompany?.IdCompany).toBe(2);
  });

  it('only lets an own company be selected', () => {
    let state = reduce(undefined, signedIn(loginResponse()));
    state = reduce(state, companiesLoaded([companyItem(ownCompany, true), companyItem(otherCompany, false)]));
    expect(reduce(state, companySelected(2)).selectedCompany?.IdCompany).toBe(1);
  });

  it('replaces the favourites with the fetched list', () => {
    let state = reduce(undefined, favoritesLoaded([{ MenuSlug: 'home' }, { MenuSlug: 'client' }]));
    state = reduce(state, favoritesLoaded([{ MenuSlug: 'scheduling' }]));
    expect(state.menuFavorite.map(slugOfFavorite)).toEqual(['scheduling']);
  });

  it('reads a favourite by MenuSlug or slug', () => {
    expect(slugOfFavorite({ MenuSlug: 'holiday' })).toBe('holiday');
    expect(slugOfFavorite({ slug: 'client' })).toBe('client');
  });
});
