import { describe, expect, it } from 'vitest';
import {
  menuCollapsed,
  menuExpanded,
  menuGroupToggled,
  menuToggled,
  selectMenuGroupOpen,
  uiSlice,
  windowResized,
} from './uiSlice';

const reduce = uiSlice.reducer;

describe('ui slice', () => {
  it('starts with the lateral menu closed', () => {
    expect(reduce(undefined, { type: '@@init' }).menuOpen).toBe(false);
  });

  it('toggles, collapses and expands the menu', () => {
    let state = reduce(undefined, menuToggled());
    expect(state.menuOpen).toBe(true);
    state = reduce(state, menuCollapsed());
    expect(state.menuOpen).toBe(false);
    expect(reduce(state, menuExpanded()).menuOpen).toBe(true);
  });

  it('collapses on resize to 2000 px or less and expands above', () => {
    const open = reduce(undefined, menuExpanded());
    expect(reduce(open, windowResized(2000)).menuOpen).toBe(false);
    expect(reduce(open, windowResized(1280)).menuOpen).toBe(false);
    expect(reduce(open, windowResized(2001)).menuOpen).toBe(true);
  });

  it('remembers each group by title, open until closed', () => {
    let state = reduce(undefined, menuGroupToggled('Cadastros'));
    const root = { ui: state };
    expect(selectMenuGroupOpen(root, 'Cadastros')).toBe(false);
    expect(selectMenuGroupOpen(root, 'Atendimento')).toBe(true);
    state = reduce(state, menuGroupToggled('Cadastros'));
    expect(state.menuGroups).toEqual({ Cadastros: true });
  });
});
