import { describe, expect, it } from 'vitest';
import {
  agendaUnitChosen,
  homeUnitChosen,
  menuGroupToggled,
  menuToggled,
  selectAgendaUnit,
  selectHomeUnit,
  selectMenuGroupOpen,
  selectMenuOpen,
  uiSlice,
} from './uiSlice';

const reduce = uiSlice.reducer;

describe('ui slice', () => {
  it('starts with the lateral menu expanded until the user folds it (issue 45)', () => {
    const state = reduce(undefined, { type: '@@init' });
    expect(selectMenuOpen({ ui: state })).toBe(true);
  });

  it('keeps the fold and the unfold the user chose', () => {
    let state = reduce(undefined, menuToggled());
    expect(state.menuOpen).toBe(false);
    state = reduce(state, menuToggled());
    expect(state.menuOpen).toBe(true);
  });

  it('remembers each group by title, open until closed', () => {
    let state = reduce(undefined, menuGroupToggled('Cadastros'));
    const root = { ui: state };
    expect(selectMenuGroupOpen(root, 'Cadastros')).toBe(false);
    expect(selectMenuGroupOpen(root, 'Atendimento')).toBe(true);
    state = reduce(state, menuGroupToggled('Cadastros'));
    expect(state.menuGroups).toEqual({ Cadastros: true });
  });

  it("remembers each user's home unit, every unit ('') included", () => {
    let state = reduce(undefined, homeUnitChosen({ user: '7', unit: '2' }));
    state = reduce(state, homeUnitChosen({ user: '9', unit: '' }));
    expect(selectHomeUnit({ ui: state }, '7')).toBe('2');
    expect(selectHomeUnit({ ui: state }, '9')).toBe('');
    expect(selectHomeUnit({ ui: state }, '11')).toBeUndefined();
    state = reduce(state, homeUnitChosen({ user: '7', unit: '1' }));
    expect(state.homeUnits).toEqual({ 7: '1', 9: '' });
  });

  it("remembers each user's agenda unit apart from the home's (issue 45)", () => {
    let state = reduce(undefined, homeUnitChosen({ user: '7', unit: '' }));
    expect(state.agendaUnits).toEqual({});
    expect(selectAgendaUnit({ ui: state }, '7')).toBeUndefined();
    state = reduce(state, agendaUnitChosen({ user: '7', unit: '2' }));
    state = reduce(state, agendaUnitChosen({ user: '9', unit: '1' }));
    expect(selectAgendaUnit({ ui: state }, '7')).toBe('2');
    expect(selectAgendaUnit({ ui: state }, '9')).toBe('1');
    state = reduce(state, agendaUnitChosen({ user: '7', unit: '1' }));
    expect(state.agendaUnits).toEqual({ 7: '1', 9: '1' });
    // The home's choice is its own.
    expect(selectHomeUnit({ ui: state }, '7')).toBe('');
  });
});
